"""The one preprocessing step shared by classifier training and run time (numpy + cv2 only).

A rectified card is a BGR uint8 array of shape ``(RECT_H, RECT_W, 3)`` = ``(280, 200, 3)``:
the face upright in portrait, edge to edge, corner index at top-left (and, turned, at
bottom-right). It may be turned 180 degrees, so both corners are fed the same way:

- ``"corners"``: float32 ``[N, 2, 3, CORNER_H, CORNER_W]``: the top-left corner box and the
  bottom-right corner box turned 180 degrees (so both show an upright index), enlarged
  relative to the face so a small index stays legible.
- ``"face"``: float32 ``[N, 3, FACE_H, FACE_W]``: the whole card, small (pips, colours, art).

Light is normalised per card: the paper white (the 90th percentile of each channel over the
face) is mapped to 1 with a bounded white-balance gain, then 0.5 is subtracted.

>>> import numpy as np
>>> feeds = preprocess([np.full((RECT_H, RECT_W, 3), 200, np.uint8)])
>>> sorted(feeds), feeds["corners"].shape, feeds["face"].shape
(['corners', 'face'], (1, 2, 3, 56, 40), (1, 3, 44, 32))
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.errors import VisionError

__all__ = [
    "CORNER_BOX_H",
    "CORNER_BOX_W",
    "CORNER_H",
    "CORNER_W",
    "FACE_H",
    "FACE_W",
    "INPUT_NAMES",
    "PreprocessInputError",
    "RECT_H",
    "RECT_W",
    "feeds_of",
    "preprocess",
]

RECT_W = 200
RECT_H = 280
# the box at each corner that holds the index (rank over suit), with room for a few % of error
CORNER_BOX_W = 72
CORNER_BOX_H = 96
CORNER_W = 40
CORNER_H = 56
FACE_W = 32
FACE_H = 44
INPUT_NAMES = ("corners", "face")

_WHITE_PERCENTILE = 90.0
_MIN_WHITE = 24.0  # never amplify a dark patch (a table) more than 255/24 times
_GAIN_RANGE = (0.75, 1.33)  # the white-balance correction per channel, relative to grey
_MAX_LEVEL = 1.5  # glare brighter than 1.5 x paper white is cut


class PreprocessInputError(VisionError):
    """A batch that is not a sequence of rectified BGR uint8 cards of shape (280, 200, 3)."""


def _check(cards: Sequence[np.ndarray] | np.ndarray) -> list[np.ndarray]:
    if isinstance(cards, np.ndarray) and cards.ndim == 3:
        raise PreprocessInputError(
            f"preprocess takes a batch of cards, got one array of shape {cards.shape}: wrap it in a list"
        )
    checked: list[np.ndarray] = []
    for i, card in enumerate(cards):
        if not isinstance(card, np.ndarray):
            raise PreprocessInputError(f"card {i}: expected a numpy array, got {type(card).__name__}")
        if card.shape != (RECT_H, RECT_W, 3):
            raise PreprocessInputError(
                f"card {i}: expected shape ({RECT_H}, {RECT_W}, 3) (rectified BGR, portrait), got {card.shape}"
            )
        if card.dtype != np.uint8:
            raise PreprocessInputError(f"card {i}: expected dtype uint8, got {card.dtype}")
        checked.append(card)
    return checked


def _corner_pair(card: np.ndarray) -> np.ndarray:
    """The two corner boxes of ``card``, both upright, resized: uint8 ``[2, CORNER_H, CORNER_W, 3]``."""
    top_left = card[:CORNER_BOX_H, :CORNER_BOX_W]
    bottom_right = card[RECT_H - CORNER_BOX_H :, RECT_W - CORNER_BOX_W :][::-1, ::-1]
    size = (CORNER_W, CORNER_H)
    return np.stack(
        [
            cv2.resize(np.ascontiguousarray(box), size, interpolation=cv2.INTER_AREA)
            for box in (top_left, bottom_right)
        ]
    )


def preprocess(cards: Sequence[np.ndarray] | np.ndarray) -> dict[str, np.ndarray]:
    """The ONNX feeds (``{"corners": ..., "face": ...}``, float32) for a batch of rectified cards.

    Raises :class:`PreprocessInputError` for anything but BGR uint8 arrays of shape (280, 200, 3).
    """
    batch = _check(cards)
    n = len(batch)
    if n == 0:
        return {
            "corners": np.zeros((0, 2, 3, CORNER_H, CORNER_W), np.float32),
            "face": np.zeros((0, 3, FACE_H, FACE_W), np.float32),
        }
    faces = np.stack([cv2.resize(c, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA) for c in batch])
    corners = np.stack([_corner_pair(c) for c in batch])  # [N, 2, H, W, 3]
    return feeds_of(faces, corners)


def feeds_of(faces: np.ndarray, corners: np.ndarray) -> dict[str, np.ndarray]:
    """The feeds for resized uint8 faces ``[N, FACE_H, FACE_W, 3]`` and corner boxes
    ``[N, 2, CORNER_H, CORNER_W, 3]``: the light normalisation of :func:`preprocess`."""
    n = len(faces)
    white = np.percentile(faces.reshape(n, -1, 3), _WHITE_PERCENTILE, axis=1).astype(np.float32)
    white = np.maximum(white, _MIN_WHITE)  # [N, 3]
    grey = white.mean(axis=1, keepdims=True)  # [N, 1]
    gain = np.clip(grey / white, *_GAIN_RANGE) / grey  # [N, 3]
    face_feed = np.minimum(faces.astype(np.float32) * gain[:, None, None, :], _MAX_LEVEL) - 0.5
    corner_feed = np.minimum(corners.astype(np.float32) * gain[:, None, None, None, :], _MAX_LEVEL) - 0.5
    return {
        "corners": np.ascontiguousarray(corner_feed.transpose(0, 1, 4, 2, 3)),
        "face": np.ascontiguousarray(face_feed.transpose(0, 3, 1, 2)),
    }
