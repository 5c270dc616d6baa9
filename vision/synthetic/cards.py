"""Card faces for rendered scenes: real photographed cards cut out with their own light.

A photographed card (``../shared/data/real-cards/single``: upright, cut to its edges,
the table showing in its rounded corners) is used as it was photographed: its own
lighting, white balance and shading are kept, never flattened or re-normalised. Only
its outline is cut: a rounded rectangle with the card's corner radius, so the table
shows in the corners as it would under a real card.

These photos are for CHECKING only (benches and tests), never for training or tuning.

>>> face = cut_out(np.full((352, 228, 3), 230, np.uint8))
>>> face.alpha.shape, float(face.alpha[0, 0]), float(face.alpha[176, 114])
((352, 228), 0.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.geometry import CARD_W_MM

__all__ = ["CORNER_RADIUS_MM", "REAL_CARDS", "CardFace", "cut_out", "real_card_faces"]

ImageBGR = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]

CORNER_RADIUS_MM = 3.2  # a poker card's rounded corner


def _find_real_cards() -> Path:
    """``shared/data/real-cards/single`` beside the checkout (or beside a folder above it)."""
    here = Path(__file__).resolve()
    for up in here.parents[2:]:
        candidate = up / "shared" / "data" / "real-cards" / "single"
        if candidate.is_dir():
            return candidate
    return here.parents[3] / "shared" / "data" / "real-cards" / "single"


REAL_CARDS = _find_real_cards()


@dataclass(frozen=True)
class CardFace:
    """An upright portrait card picture and its outline (1 on the card, 0 off it)."""

    card: Card | None
    image_bgr: ImageBGR
    alpha: FloatArray


def cut_out(photo_bgr: ImageBGR, card: Card | None = None,
            corner_radius_mm: float = CORNER_RADIUS_MM) -> CardFace:
    """The photo's card with its rounded outline; pixels untouched."""
    h, w = photo_bgr.shape[:2]
    scale = 4  # draw the outline 4x larger, then shrink: smooth anti-aliased corners
    r = round(corner_radius_mm * w / CARD_W_MM * scale)
    big = np.zeros((h * scale, w * scale), np.uint8)
    cv2.rectangle(big, (r, 0), (w * scale - 1 - r, h * scale - 1), 255, -1)
    cv2.rectangle(big, (0, r), (w * scale - 1, h * scale - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * scale - 1 - r, r), (r, h * scale - 1 - r), (w * scale - 1 - r, h * scale - 1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    alpha = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    return CardFace(card, photo_bgr, alpha)


def real_card_faces(folder: Path | str = REAL_CARDS) -> list[CardFace]:
    """The photographed single cards of ``folder`` (named like ``10c.jpg``), cut out;
    an empty list when the folder is not there."""
    out = []
    for path in sorted(Path(folder).glob("*.jpg")):
        try:
            card = Card.parse(path.stem)
        except ValueError:
            continue  # not a card's photo (a deal)
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            out.append(cut_out(np.asarray(image, np.uint8), card))
    return out
