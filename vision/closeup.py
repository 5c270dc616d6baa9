"""Read a phone photo of one card held close: it may fill up to ~95 % of the picture or
touch its edge, where table detection finds nothing or only a cut card.

:func:`read_closeup` tries these views and keeps the first that gives a *sure* card:

1. the photo inside a dark frame (a border of ``PAD_SHARE`` of its size), so a card that
   fills the picture or touches its edge gets an outline; quads are mapped back. One sure
   card covering ``BIG_REGION_SHARE`` of the photo is the close-up, unless the usual
   detection or the whole photo names another card (then it is unsure: the usual
   detection can take the picture frame inside a court card for a card);
2. the usual table detection (:meth:`vision.pipeline.CardReader.read_frame`);
3. the whole photo as the card (as ``--single`` does), only when steps 1-2 found at most
   one card-sized region or one covering much of the photo;
4. when nothing else gave a sure card: card-shaped crops centred in the photo
   (``CENTRE_SHARES`` of its height), kept only when at least two give the same sure card
   and none another (a card on a table of nearly its own brightness has no outline to find,
   but a phone close-up has it in the middle).

A background region that fills the frame is not a card to the classifier (it reads
``none``, or unsure), so it cannot swallow the card: only a sure reading is kept, and two
sure readings of different cards leave the photo unsure. A card scribbled over stays
unsure because the classifier is unsure of it in every view.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import numpy.typing as npt

from vision.pipeline import CardReader
from vision.readings import CardDetections

__all__ = ["PAD_SHARE", "read_closeup"]

PAD_SHARE = 0.12  # the dark frame around the photo, as a share of its longer side
PAD_GREY = 24  # the frame's grey level: darker than any card, not pure black
BIG_REGION_SHARE = 0.25  # a found quad covering this share of the photo may be the card close up
CENTRE_SHARES = (0.9, 0.75, 0.6)  # centred card-shaped crops, as shares of the photo's longer side
CARD_ASPECT = 200 / 280  # width over height of a card (the rectified card's)

BgrImage = npt.NDArray[np.uint8]


def _area(quad: npt.NDArray[np.float32]) -> float:
    x, y = quad[:, 0].astype(np.float64), quad[:, 1].astype(np.float64)
    return float(0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def _sure(found: CardDetections) -> list[int]:
    return [i for i in range(len(found)) if bool(found.is_read[i])]


def read_closeup(reader: CardReader, image: BgrImage) -> CardDetections:
    """The cards of ``image``, with the close-up views when the photo is one card held close."""
    normal = reader.read_frame(image)
    h, w = image.shape[:2]
    pad = int(round(PAD_SHARE * max(h, w)))
    framed = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(PAD_GREY,) * 3)
    padded = reader.read_frame(np.ascontiguousarray(framed))
    padded = dataclasses.replace(padded, quad_xy=(padded.quad_xy - np.float32(pad)).astype(np.float32))
    big = [i for i in range(len(padded)) if _area(padded.quad_xy[i]) >= BIG_REGION_SHARE * h * w]
    sure_big = [i for i in big if bool(padded.is_read[i])]
    if len(sure_big) == 1:  # one card held close: other views must not name another card
        card = padded.label[sure_big[0]]
        single = reader.read_single(image)
        others = normal.read_cards() + single.read_cards()
        if any(c != card for c in others):
            labels = padded.label.copy()
            labels[sure_big[0]] = None
            return dataclasses.replace(padded, label=labels)
        return padded
    if _sure(normal):
        return normal
    if _sure(padded):
        return padded
    regions = list(normal.quad_xy) + list(padded.quad_xy)
    if len(normal) <= 1 or any(_area(np.asarray(q, np.float32)) >= BIG_REGION_SHARE * h * w for q in regions):
        single = reader.read_single(image)
        if _sure(single):
            return single
    centred = _centre_crops(reader, image)
    if centred is not None:
        return centred
    return normal if len(normal) else padded


def _centre_crops(reader: CardReader, image: BgrImage) -> CardDetections | None:
    """Step 4: the card read from centred card-shaped crops, when two agree and none differs."""
    h, w = image.shape[:2]
    portrait = h >= w
    found: list[CardDetections] = []
    for share in CENTRE_SHARES:
        long_side = share * max(h, w)
        ch, cw = (long_side, long_side * CARD_ASPECT) if portrait else (long_side * CARD_ASPECT, long_side)
        ch, cw = min(ch, h), min(cw, w)
        y0, x0 = int(round((h - ch) / 2)), int(round((w - cw) / 2))
        crop = np.ascontiguousarray(image[y0:y0 + int(ch), x0:x0 + int(cw)])
        single = reader.read_single(crop)
        found.append(dataclasses.replace(single, quad_xy=(single.quad_xy + np.array([x0, y0], np.float32)).astype(np.float32)))
    sure = [f for f in found if _sure(f)]
    cards = {str(f.label[0]) for f in sure}
    if len(sure) >= 2 and len(cards) == 1:
        return sure[len(sure) // 2]
    return None
