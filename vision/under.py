"""Cards under others with no index showing: reported, never silently dropped.

A card of an overlapped column or a pile may show a strip of its paper round the cards
on it and no index: nobody can read it, but everybody sees that a card lies there. The
paper that shows and that no card found explains is that card (:func:`cards_under`):

1. the paper: pixels as bright as the cards read (:data:`PAPER_OF_READ` of their own
   paper's brightness) and as grey, with the print on it (holes in it smaller than a
   card) filled;
2. the cards found (read or not; an index read alone stands for its whole card) are
   taken away, each grown a little (:data:`GROW`: an outline fitted short);
3. what stays, when mostly thicker than a fourteenth of a card's width (a sliver left by an
   outline fitted a little short, a glint, a white chip's rim are thinner), is a card
   under another when it is a card's size or less (:data:`AREA`), lies by a card found
   (under it, or under the card under it) and stays clear of the picture's edge (a pale
   table top reaches it, and is no card);
4. and where it does not meet a card found, it ends at its own rim: the paper steps down
   to the table there (:data:`RIM_STEP`). Paper that fades into the table beside it is the
   table's own light (a pale streak of wood, a bright patch of laminate), no card's.

Its quad is the smallest rectangle round the paper that shows; it is reported with ``under``
set and no label. Paper that shows as much as a whole card (:data:`WHOLE_SIDE` off each side
at most) has no card on it: :func:`with_cards_under` reports it as a card lying there unread
(no label, ``under`` not set), whose index may well show. An outline found but not read that
holds a card read (by its index) is the outline of a pile, the card on top and the ones
under it (:func:`with_cards_under`): the pile's outline gives way to the cards under it.

What shows of a card under another is still that card: its far edges are its own, and the
card on it hides the rest. Completed to a card's size towards the card on it
(:func:`completed_cards`), with what does not show of it painted the paper's colour (the
card on it is another card's evidence), it is near the picture the card classifier was
trained on (a card whose lower or right part is covered, one index showing), and the
classifier reads it as it reads any card (:func:`read_under`): a reading it accepts stands,
unless it names the card lying on it (that card's face read through). A card whose index reader
doubts a design's glyphs (a narrow "10" it never saw) is then read by its pips and index
together, as a person reads the top of a column's card. The layout watch's line zones read
them so (:func:`vision.zone_corners.zone_under`); `eleusis read` reports them unread, as
in photos it read no card more and read the aces printed on a casino's felt
(bench/README.md, "A card under another read by what shows of it").

>>> import numpy as np
>>> len(cards_under(np.full((90, 160, 3), 200, np.uint8), CardDetections.empty()))
0
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import card_width
from vision.readings import CardDetections
from vision.rectify import _CANONICAL, rectify_cards

__all__ = ["cards_under", "completed_cards", "read_under", "with_cards_under"]

BgrImage = npt.NDArray[np.uint8]

PAPER_OF_READ = 0.82  # paper is at least this share of the brightness of the read cards' paper
MAX_SATURATION = 70  # HSV: paper is grey, whatever the light's tint
GROW = 1.03  # each card found is taken away grown by this (about its centre)
OPEN_SHARE = 0.07  # the opening's size, as a share of a card's width
THICK_SHARE = 0.4  # this share of the paper that shows must be thicker than the opening
AREA = (0.06, 1.1)  # a card under another shows this share of a card's area
TOUCH_SHARE = 0.5  # it lies within this share of a card's width of a card found
HOLE_SHARE = 0.6  # a hole in the paper smaller than this share of a card is print on it
EDGE_PX = 3  # paper this close to the picture's edge belongs to no card under another
# what shows of a card is bounded by straight sides (its own rim and the rim of the card on
# it): it fills at most 2 / pi of the smallest circle round it (a square; a whole card
# 0.60). Paper filling this much of its circle is round: a white chip, no card's part
ROUND_FILL = 0.75
# what shows of a card, where it meets no card found, is this share of the read cards' paper
# level brighter than the table just outside it (its rim: 0.09-0.31 measured on cards under
# others; a streak of a pale top the paper test takes is 0.005-0.02 brighter than its table)
RIM_STEP = 0.05
RIM_SHARE = 0.03  # the rim's bands, inside and out, are this share of a card's width
CARD_ASPECT = 88.0 / 63.0  # a card's height over its width (a standard deck, as vision.geometry)
# what shows of a card under another spans the card's side across the card on it (within
# this share), and no more than the card's other side: otherwise it is no card's part
WHOLE_SIDE = 0.15
# what shows of a card is read grown by this share about its middle (its rim, fitted short)
SHOWS_GROWN = 1.05


def _ends_at_a_rim(grey: npt.NDArray[np.uint8], part: npt.NDArray[np.bool_], by_found: npt.NDArray[np.bool_],
                   band: npt.NDArray[np.uint8], paper_level: float) -> bool:
    """Whether paper that shows (``part``) steps down to the table where it meets no card
    found (away from ``by_found``): its band just inside is :data:`RIM_STEP` of
    ``paper_level`` brighter than the band just outside. Paper wholly among cards found
    has no such side, and stands."""
    ys, xs = np.nonzero(part)
    r = band.shape[0]
    y0, y1, x0, x1 = max(0, ys.min() - r), ys.max() + r + 1, max(0, xs.min() - r), xs.max() + r + 1
    inside = part[y0:y1, x0:x1].astype(np.uint8)
    free = ~by_found[y0:y1, x0:x1]
    inner = (inside > 0) & ~(cv2.erode(inside, band, borderType=cv2.BORDER_REPLICATE) > 0) & free
    outer = (cv2.dilate(inside, band) > 0) & (inside == 0) & free
    if not inner.any() or not outer.any():
        return True
    box = grey[y0:y1, x0:x1]
    return float(np.median(box[inner])) - float(np.median(box[outer])) >= RIM_STEP * paper_level


def _filled(paper: npt.NDArray[np.bool_], max_hole_px: float) -> npt.NDArray[np.bool_]:
    """``paper`` with its holes filled: the print on a card (pips, a picture) is no table."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((~paper).astype(np.uint8), connectivity=4)
    h, w = paper.shape
    x, y, bw, bh, area = (stats[:, k] for k in range(5))
    inside = (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h) & (area <= max_hole_px)
    inside[0] = False
    return np.asarray(paper | inside[labels], bool)


def with_cards_under(bgr: BgrImage, found: CardDetections) -> CardDetections:
    """``found`` without the outlines of piles (an outline not read that holds the centre of
    a card read), and the cards under others after them (:func:`cards_under`); paper that
    shows as much as a whole card is a card lying there unread, not one under another."""
    read = [i for i in range(len(found)) if found.label[i] is not None and not found.cut[i]]
    piles = [i for i in range(len(found)) if found.label[i] is None and not found.face_down[i] and not found.cut[i]
             and any(i != j and _holds(found.quad_xy[i], found.quad_xy[j]) for j in read)]
    kept = found[[i for i in range(len(found)) if i not in piles]]
    shown = _paper_shown(bgr, kept)
    if not shown:
        return kept
    # as much paper as a whole card (each side within WHOLE_SIDE) is a card lying there unread
    whole = np.array([share >= (1 - WHOLE_SIDE) ** 2 for _quad, share in shown], bool)
    return CardDetections.concatenate([kept, CardDetections(quad_xy=np.stack([q for q, _ in shown]), under=~whole)])


def completed_cards(shows: npt.ArrayLike, card_w: float, towards: npt.ArrayLike,
                    aspect: float = CARD_ASPECT) -> list[npt.NDArray[np.float32]]:
    """The cards (quads, top-left first, a short side first) that ``shows``, the rectangle
    round what shows of a card under another, is the visible part of, when the card on it
    lies ``towards`` (a direction): the side across that direction shows whole (a card's
    width or height, within :data:`WHOLE_SIDE`), and the card goes on under the card on it
    for the rest of its other side. Standing or lying, whichever fits (none, one or both).

    >>> [q.round().tolist() for q in completed_cards([[0, 0], [63, 0], [63, 40], [0, 40]], 63.0, (0, 1))]
    [[[0.0, 0.0], [63.0, 0.0], [63.0, 88.0], [0.0, 88.0]]]
    """
    q = np.asarray(shows, np.float64).reshape(4, 2)
    towards = np.asarray(towards, np.float64)
    centre = q.mean(axis=0)
    sides = (q[1] - q[0], q[3] - q[0])
    lengths = [float(np.linalg.norm(e)) for e in sides]
    if min(lengths) <= 0:
        return []
    axes = [e / n for e, n in zip(sides, lengths, strict=True)]
    across = 0 if abs(float(axes[0] @ towards)) < abs(float(axes[1] @ towards)) else 1
    along = 1 - across
    out = []
    for size in ((card_w, card_w * aspect), (card_w * aspect, card_w)):
        if abs(lengths[across] / size[across] - 1) > WHOLE_SIDE or lengths[along] > (1 + WHOLE_SIDE) * size[along]:
            continue
        hidden = max(0.0, size[along] - lengths[along])
        c = centre + hidden / 2 * float(np.sign(axes[along] @ towards)) * axes[along]
        half = [axes[k] * size[k] / 2 for k in (0, 1)]
        quad = np.array([c - half[0] - half[1], c + half[0] - half[1], c + half[0] + half[1], c - half[0] + half[1]],
                        np.float32)
        out.append(quad if size[0] <= size[1] else np.roll(quad, 1, axis=0))
    return out


def read_under(classifier: Any, bgr: BgrImage, found: CardDetections, under: CardDetections,
               to_plane: npt.ArrayLike | None = None, card_wh: tuple[float, float] | None = None) -> CardDetections:
    """``under`` (cards under others, :func:`cards_under`), each read where the classifier
    reads what shows of it completed to a card (:func:`completed_cards`, towards the nearest
    card of ``found`` and the other way): then labelled, its quad the whole card's, no
    longer ``under``.
    The completion is made in the plane ``to_plane`` maps the picture to (a zone's table mm)
    with cards ``card_wh`` (width, height) there; by default in the picture, the cards as wide
    as the median card read in ``found``. A reading that names a card of ``found`` lying on it
    counts for nothing; completions read as two cards leave the card unread. Pieces of one
    card's paper (:func:`_one_card_pieces`) come back as one, the first piece's entry."""
    if not len(under) or not len(found):
        return under
    read = [i for i in range(len(found)) if found.label[i] is not None]
    if card_wh is None:
        if not read:
            return under
        card_w = float(np.median([card_width(found.quad_xy[i]) for i in read]))
        card_wh = (card_w, card_w * CARD_ASPECT)
    to = np.eye(3) if to_plane is None else np.asarray(to_plane, np.float64)
    back = np.linalg.inv(to)

    def moved(m: npt.NDArray[np.float64], quads: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        pts = np.asarray(quads, np.float64).reshape(1, -1, 2)
        return np.asarray(cv2.perspectiveTransform(pts, m), np.float32).reshape(np.shape(quads))

    on_plane = moved(to, under.quad_xy)
    centres = moved(to, found.quad_xy).mean(axis=1)
    nearest = np.array([int(np.argmin(np.linalg.norm(centres - q.mean(axis=0), axis=1))) for q in on_plane])
    groups = _one_card_pieces(on_plane, centres[nearest], card_wh)
    labels = list(under.label)
    quads = under.quad_xy.copy()
    conf = under.confidence.copy()
    still_under = under.under.copy()
    for group in groups:
        k = group[0]
        shows = on_plane[k] if len(group) == 1 else _box_round(on_plane[group])
        towards = centres[nearest[k]] - shows.mean(axis=0)
        towards /= max(float(np.linalg.norm(towards)), 1e-9)
        # the card on it is the nearest card found, or the one the other way (a column's card
        # between the one under it and the one on it): which, the reading says
        cards = [moved(back, q) for way in (towards, -towards)
                 for q in completed_cards(shows, card_wh[0], way, card_wh[1] / card_wh[0])]
        if not cards:
            continue
        readings = classifier.classify(_only_what_shows(bgr, np.stack(cards), moved(back, shows)))
        # a card of ``found`` lying on the completed card and named by it is that card's face
        # read through: no reading of the card under it
        named = [(j, r) for j, r in enumerate(readings) if r.label is not None
                 and not any(found.label[i] == r.label and _overlap(cards[j], found.quad_xy[i]) > 0 for i in read)]
        if len({r.label for _j, r in named}) != 1:
            continue
        j, reading = named[0]
        labels[k], quads[k], conf[k], still_under[k] = reading.label, cards[j], reading.confidence, False
    out = CardDetections(quad_xy=quads, label=labels, confidence=conf, face_down=under.face_down, cut=under.cut,
                         over_shoe=under.over_shoe, maybe=under.maybe, under=still_under)
    return out[[group[0] for group in groups]]


def _only_what_shows(bgr: BgrImage, cards: npt.NDArray[np.float32], shows: npt.NDArray[np.float32]
                     ) -> npt.NDArray[np.uint8]:
    """The ``cards`` rectified, all but what ``shows`` of them (grown by :data:`SHOWS_GROWN`)
    painted the paper's colour there: the card on it is another card's evidence (its index
    read in the completed card's corner would make the reading doubt)."""
    out = rectify_cards(bgr, cards)
    centre = shows.mean(axis=0)
    grown = (centre + SHOWS_GROWN * (shows - centre)).astype(np.float32).reshape(1, -1, 2)
    for k, card in enumerate(cards):
        to_rect = cv2.getPerspectiveTransform(np.asarray(card, np.float32), _CANONICAL)
        keep = np.zeros(out.shape[1:3], np.uint8)
        cv2.fillConvexPoly(keep, np.round(cv2.perspectiveTransform(grown, to_rect)[0]).astype(np.int32), 1)
        seen = out[k][keep > 0]
        if not len(seen):
            continue
        grey = seen.mean(axis=1)
        out[k][keep == 0] = seen[grey >= np.percentile(grey, 80)].mean(axis=0).astype(np.uint8)
    return out


def _box_round(quads: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The smallest rectangle round some quads' corners."""
    return np.asarray(cv2.boxPoints(cv2.minAreaRect(np.asarray(quads, np.float32).reshape(-1, 2))), np.float32)


def _one_card_pieces(quads: npt.NDArray[np.float32], on_them: npt.NDArray[np.float32],
                     card_wh: tuple[float, float]) -> list[list[int]]:
    """The pieces of paper that show (``quads``, each with the centre of the nearest card
    found, the card on it) put together by card: a card's picture reaching the card on it
    splits what shows of it into pieces side by side across that card, by the same card,
    lying as far towards it (their extents along it overlap by half the shorter's) and
    together spanning no more than a card. A column's cards show one beyond the other, and
    stay apart."""
    groups: list[list[int]] = [[k] for k in range(len(quads))]
    merged = True
    while merged:
        merged = False
        for a, b in ((a, b) for a in range(len(groups)) for b in range(a + 1, len(groups))):
            ka, kb = groups[a][0], groups[b][0]
            if not np.allclose(on_them[ka], on_them[kb]):
                continue
            points = quads[groups[a] + groups[b]].reshape(-1, 2)
            way = on_them[ka] - points.mean(axis=0)
            way /= max(float(np.linalg.norm(way)), 1e-9)
            ta, tb = (quads[groups[g]].reshape(-1, 2) @ way for g in (a, b))
            shared = min(ta.max(), tb.max()) - max(ta.min(), tb.min())
            span = float(np.ptp(points @ np.array([-way[1], way[0]])))
            if shared >= 0.5 * min(np.ptp(ta), np.ptp(tb)) and span <= (1 + WHOLE_SIDE) * max(card_wh):
                groups[a] += groups.pop(b)
                merged = True
                break
    return groups


def _overlap(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """The area two convex quads share (pixels)."""
    area, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32).reshape(-1, 1, 2), np.asarray(b, np.float32).reshape(-1, 1, 2))
    return float(area)


def _holds(outer: npt.NDArray[np.float32], inner: npt.NDArray[np.float32]) -> bool:
    c = inner.mean(axis=0)
    return cv2.pointPolygonTest(outer.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0


def cards_under(bgr: BgrImage, found: CardDetections) -> CardDetections:
    """The cards under others that ``found`` leaves out (``under`` set, no label), from the
    paper that shows round the cards of ``found`` with none of them there."""
    quads = [quad for quad, _share in _paper_shown(bgr, found)]
    if not quads:
        return CardDetections.empty()
    return CardDetections(quad_xy=np.stack(quads), under=np.ones(len(quads), bool))


def _paper_shown(bgr: BgrImage, found: CardDetections) -> list[tuple[npt.NDArray[np.float32], float]]:
    """Each piece of paper that shows of a card ``found`` leaves out: the smallest rectangle
    round it, and its area as a share of a card's."""
    read = [i for i in range(len(found)) if found.label[i] is not None and not found.cut[i]]
    if not read:
        return []
    h, w = bgr.shape[:2]
    card_w = float(np.median([card_width(found.quad_xy[i]) for i in read]))
    card_area = card_w * card_w * 88.0 / 63.0
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    sat = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 1]
    levels = []
    for i in read:
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(found.quad_xy[i]).astype(np.int32), 1)
        values = grey[mask > 0]
        if values.size:
            levels.append(float(np.percentile(values, 80)))
    paper_level = float(np.median(levels))
    paper = _filled((grey >= PAPER_OF_READ * paper_level) & (sat <= MAX_SATURATION), HOLE_SHARE * card_area)
    explained = np.zeros((h, w), np.uint8)
    for quad in found.quad_xy:
        centre = quad.mean(axis=0)
        cv2.fillConvexPoly(explained, np.round(centre + GROW * (quad - centre)).astype(np.int32), 1)
    rest = (paper & (explained == 0)).astype(np.uint8)
    k = max(3, int(round(OPEN_SHARE * card_w)) | 1)
    thick = cv2.morphologyEx(rest, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0
    reach = max(3, int(round(TOUCH_SHARE * card_w)) * 2 + 1)
    near_found = cv2.dilate(explained, np.ones((reach, reach), np.uint8)) > 0
    band = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * max(2, round(RIM_SHARE * card_w)) + 1,) * 2)
    by_found = cv2.dilate(explained, band) > 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    shown: list[tuple[npt.NDArray[np.float32], float]] = []
    for label in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[label])
        if not AREA[0] * card_area <= area <= AREA[1] * card_area:
            continue
        if x <= EDGE_PX or y <= EDGE_PX or x + bw >= w - EDGE_PX or y + bh >= h - EDGE_PX:
            continue
        part = labels == label
        if thick[part].mean() < THICK_SHARE or not near_found[part].any():
            continue  # a hairline round a card fitted short, or paper far from any card
        points = np.column_stack(np.nonzero(part)[::-1]).astype(np.float32)
        if area >= ROUND_FILL * np.pi * cv2.minEnclosingCircle(points)[1] ** 2:
            continue  # a white chip lying by the cards
        if not _ends_at_a_rim(grey, part, by_found, band, paper_level):
            continue  # the table's own light
        shown.append((cv2.boxPoints(cv2.minAreaRect(points)).astype(np.float32), area / card_area))
    return shown
