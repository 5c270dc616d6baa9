"""Warp each card quad to the canonical upright portrait image the classifier reads.

The canonical card is BGR uint8 of shape ``(RECT_H, RECT_W, 3)`` = ``(280, 200, 3)``
(from :mod:`vision.preprocess`, the classifier's contract), edge to edge. Corner 0 of a
quad goes to the top-left, corner 1 to the top-right (see :mod:`vision.readings`).

Which pair of sides is the card's long pair is clear from straight above but not at a
slant: at 30 degrees of tilt a card lying along the line of sight looks wider than
long. :func:`rectify_cards` with ``quarter_turn=True`` gives the other reading of the
quad (its corners shifted by one), which the pipeline classifies too when in doubt.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.preprocess import RECT_H, RECT_W

__all__ = ["RECT_H", "RECT_W", "interpolation_for", "rectify_cards", "rectify_whole_image", "whole_image_quad"]

BgrImage = npt.NDArray[np.uint8]

_CANONICAL = np.array([[0, 0], [RECT_W, 0], [RECT_W, RECT_H], [0, RECT_H]], np.float32)


# A card warped up by more than 1 / ENLARGED is enlarged bicubically. Near the canonical size
# the two warps differ by little, and the classifier was trained on bilinear warps: there a
# bicubic warp's ringing only moves a card's confidence, sometimes below the accept line.
ENLARGED = 0.75


def interpolation_for(quad: npt.NDArray[np.float32]) -> int:
    """How to warp one card: bicubic when the card is much smaller in the frame than the
    canonical card (the warp enlarges it: a 1280x720 webcam over a whole layout gives cards about 100 px
    wide), bilinear otherwise. Enlarged bilinearly, an index's strokes blur; bicubic keeps
    them sharper (bench/small_cards.py, calibration designs: more cards read at 1.0-1.3 px/mm,
    none more wrong).

    >>> interpolation_for(np.array([[0, 0], [100, 0], [100, 140], [0, 140]], np.float32)) == cv2.INTER_CUBIC
    True
    """
    sides = np.linalg.norm(np.asarray(quad, np.float64) - np.roll(np.asarray(quad, np.float64), 1, axis=0), axis=1)
    return cv2.INTER_CUBIC if float(sides.max()) < ENLARGED * RECT_H else cv2.INTER_LINEAR


def rectify_cards(frame_bgr: BgrImage, quad_xy: npt.ArrayLike, quarter_turn: bool = False
                  ) -> npt.NDArray[np.uint8]:
    """(n, RECT_H, RECT_W, 3) upright cards from (n, 4, 2) quads; the frame is not modified."""
    quads = np.asarray(quad_xy, np.float32)
    if quads.size == 0:
        return np.zeros((0, RECT_H, RECT_W, 3), np.uint8)
    if quads.ndim != 3 or quads.shape[1:] != (4, 2):
        raise VisionError(f"quad_xy must have shape (n, 4, 2), got {quads.shape}")
    if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
        raise VisionError(f"frame must be BGR uint8 (h, w, 3), got {frame_bgr.shape} {frame_bgr.dtype}")
    if quarter_turn:
        quads = np.roll(quads, -1, axis=1)
    out = np.empty((len(quads), RECT_H, RECT_W, 3), np.uint8)
    for i, quad in enumerate(quads):
        m = cv2.getPerspectiveTransform(quad, _CANONICAL)
        out[i] = cv2.warpPerspective(frame_bgr, m, (RECT_W, RECT_H), flags=interpolation_for(quad),
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


def rectify_whole_image(image_bgr: BgrImage) -> BgrImage:
    """A crop of one card (``eleusis read --single``): turned to portrait and resized."""
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise VisionError(f"an image must be BGR (h, w, 3), got shape {image_bgr.shape}")
    h, w = image_bgr.shape[:2]
    if w > h:
        image_bgr = np.asarray(cv2.rotate(image_bgr, cv2.ROTATE_90_CLOCKWISE), dtype=np.uint8)
    # shrunk by area; a crop smaller than the canonical card is enlarged bicubically (interpolation_for)
    shrink = image_bgr.shape[0] >= RECT_H
    return np.asarray(cv2.resize(image_bgr, (RECT_W, RECT_H), interpolation=cv2.INTER_AREA if shrink
                                 else cv2.INTER_CUBIC), dtype=np.uint8)


def whole_image_quad(image_bgr: BgrImage) -> npt.NDArray[np.float32]:
    """The corners of the whole image as a card quad, in the order rectification uses."""
    h, w = image_bgr.shape[:2]
    quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    # turned clockwise, the image's bottom-left corner becomes the card's top-left
    return np.roll(quad, 1, axis=0) if w > h else quad
