"""One card alone in the play zone, under a named light condition: the scene the
single-card bench and its small test version render.

The camera looks at the play zone from 30-90 degrees of tilt (its distance so that
the zone, or the whole mat, fills the view); the card lies anywhere in the zone, at
any small angle or across, often close to the zone's border (the zone is only a little
taller than a card).

>>> from vision.synthetic.cards import cut_out
>>> face = cut_out(np.full((352, 228, 3), 235, np.uint8))
>>> shot = single_card_scene(face, "lamp", 45.0, np.random.default_rng(0), size_wh=(960, 540))
>>> shot.scene.frame_bgr.shape, shot.quad_px.shape
((540, 960, 3), (4, 2))
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import ZONE_PLAY, TableLayout, default_layout
from vision.geometry import CARD_H_MM, CARD_W_MM
from vision.synthetic.camera import PinholeView
from vision.synthetic.cards import CardFace
from vision.synthetic.light import Lighting, scene_condition
from vision.synthetic.mat import TABLE_KINDS, CardPlacement, HandPlacement, Scene, render_table_scene

__all__ = ["ARRANGEMENTS", "CARDS_LAID", "PAIRED", "SingleCardShot", "ZoneCardsShot", "card_corners_mm", "single_card_scene",
           "zone_cards_scene"]

# How the cards lie in the zone (as players lay them: "cards near the zone border or a finger's
# width apart"): anywhere (one card, now and then across), at the border (a side 0-4 mm
# inside the printed border, or up to 8 mm over it), a pair side by side a finger's
# width (10-20 mm) apart, or a pair touching (up to 2 mm over each other or 1 mm apart,
# not lined up: how a batch is often laid).
ARRANGEMENTS = ("anywhere", "border", "pair", "touching", "row")
PAIRED = ("pair", "touching")  # the arrangements of two cards
# cards laid by each arrangement (1 when not named): "row" is the most the play zone holds
# (calibration.layout.PLAY_ZONE_PLACES), a finger apart; they cover ~60 % of the zone
CARDS_LAID = {"pair": 2, "touching": 2, "row": 3}

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class SingleCardShot:
    scene: Scene
    quad_px: FloatArray  # the card's true corners in the frame
    corners_mm: FloatArray
    condition: str
    tilt_deg: float
    empty_bgr: tuple[npt.NDArray[np.uint8], ...] = ()  # the same view and light, nothing laid


@dataclass(frozen=True)
class ZoneCardsShot:
    scene: Scene
    quads_px: FloatArray  # (n, 4, 2): each card's true corners in the frame
    cards: tuple[CardFace, ...]
    condition: str
    tilt_deg: float
    arrangement: str
    empty_bgr: tuple[npt.NDArray[np.uint8], ...] = ()
    # the frames with the cards lying there (the first is scene.frame_bgr): the same view
    # and light, other sensor noise
    card_bgr: tuple[npt.NDArray[np.uint8], ...] = ()


def card_corners_mm(centre_mm: tuple[float, float], angle_deg: float) -> FloatArray:
    """The corners of a card laid by :class:`CardPlacement` (TL, TR, BR, BL upright)."""
    hw, hh = CARD_W_MM / 2.0, CARD_H_MM / 2.0
    rot = cv2.getRotationMatrix2D((0.0, 0.0), -angle_deg, 1.0)[:, :2]
    local = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    return np.asarray(local @ rot.T + np.asarray(centre_mm), dtype=np.float64)


def _zone_camera(layout: TableLayout, condition: str, tilt_deg: float, rng: np.random.Generator,
                 size_wh: tuple[int, int], whole_mat: bool
                 ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], Lighting, str, PinholeView]:
    """The play zone's bounds (mm), the light and kit print of ``condition``, and a camera
    at ``tilt_deg`` for which the zone (or the whole mat) about fills the frame."""
    zone = np.asarray(layout.zone(ZONE_PLAY).polygon_mm, np.float64)
    lo, hi = zone.min(axis=0), zone.max(axis=0)
    centre = (lo + hi) / 2.0
    light, kit = scene_condition(condition, rng)
    span_mm = 480.0 if whole_mat else 360.0  # distance from the field of view
    distance = float(rng.uniform(0.9, 1.15)) * span_mm / (2 * np.tan(np.radians(65.0) / 2)) * 1.1
    view = PinholeView(tilt_deg=tilt_deg, distance_mm=distance, size_wh=size_wh,
                       target_mm=(float(centre[0] + rng.uniform(-15, 15)), float(centre[1] + rng.uniform(-10, 10))),
                       yaw_deg=float(rng.uniform(-8, 8)))
    return lo, hi, light, kit, view


def single_card_scene(face: CardFace | None, condition: str, tilt_deg: float, rng: np.random.Generator,
                      layout: TableLayout | None = None, size_wh: tuple[int, int] = (1920, 1080),
                      whole_mat: bool = False, hand: bool = False, empty_frames: int = 0) -> SingleCardShot:
    """One frame: ``face`` (None: an empty zone) laid in the play zone under ``condition``;
    ``empty_frames`` frames of the zone before the card was laid are rendered too
    (the same view and light, other sensor noise)."""
    layout = layout or default_layout()
    lo, hi, light, kit, view = _zone_camera(layout, condition, tilt_deg, rng, size_wh, whole_mat)
    cards: tuple[CardPlacement, ...] = ()
    corners = np.zeros((4, 2))
    if face is not None:
        across = rng.random() < 0.15  # laid sideways
        angle = float(rng.uniform(-12, 12)) + (90.0 if across else 0.0)
        half = np.abs(card_corners_mm((0.0, 0.0), angle)).max(axis=0)
        room_lo, room_hi = lo + half + 1.0, hi - half - 1.0
        room_hi = np.maximum(room_hi, room_lo)
        c = rng.uniform(room_lo, room_hi)
        # often right at the border: the zone is only a little taller than a card
        pos = (float(c[0]), float(c[1]))
        corners = card_corners_mm(pos, angle)
        cards = (CardPlacement(str(face.card) if face.card else "?", pos, angle, face.image_bgr, face.alpha),)
    hands = (HandPlacement((float(rng.uniform(lo[0], hi[0])), float(rng.uniform(lo[1], hi[1]))),
                           float(rng.uniform(-30, 30))),) if hand else ()
    table = str(rng.choice(TABLE_KINDS))
    scene = render_table_scene(layout, view, cards=cards, lighting=light, rng=rng, table=table,
                               kit_print=kit, hands=hands)
    empty = tuple(render_table_scene(layout, view, lighting=light, rng=rng, table=table, kit_print=kit).frame_bgr
                  for _ in range(empty_frames))
    return SingleCardShot(scene, view.to_px(corners), corners, condition, tilt_deg, empty)


def _half_extent(angle: float) -> FloatArray:
    return np.asarray(np.abs(card_corners_mm((0.0, 0.0), angle)).max(axis=0), np.float64)


def _arrange(n_cards: int, arrangement: str, lo: FloatArray, hi: FloatArray,
             rng: np.random.Generator) -> list[tuple[tuple[float, float], float]]:
    """(centre_mm, angle_deg) of each card in the zone ``lo``-``hi``."""
    if arrangement == "border":
        angle = float(rng.uniform(-5, 5)) + (90.0 if rng.random() < 0.15 else 0.0)
        half = _half_extent(angle)
        c = rng.uniform(lo + half + 1.0, np.maximum(hi - half - 1.0, lo + half + 1.0))
        gap = float(rng.uniform(-8.0, 4.0))  # from the border inward; negative: over it
        side = int(rng.integers(4))  # left, top, right, bottom
        if side == 0:
            c[0] = lo[0] + half[0] + gap
        elif side == 1:
            c[1] = lo[1] + half[1] + gap
        elif side == 2:
            c[0] = hi[0] - half[0] - gap
        else:
            c[1] = hi[1] - half[1] - gap
        return [((float(c[0]), float(c[1])), angle)]
    if arrangement in CARDS_LAID:
        # a finger's width apart; or touching (up to 2 mm over the other card, or 1 mm apart)
        gap = float(rng.uniform(-2.0, 1.0)) if arrangement == "touching" else float(rng.uniform(10.0, 20.0))
        angles = [float(rng.uniform(-2, 2)) if arrangement == "touching" else float(rng.uniform(-4, 4)) for _ in range(n_cards)]
        halves = [_half_extent(a) for a in angles]
        width = sum(2 * h[0] for h in halves) + gap * (n_cards - 1)
        x = float(rng.uniform(lo[0] + 1.0, max(hi[0] - width - 1.0, lo[0] + 1.0)))
        out = []
        for a, h in zip(angles, halves, strict=True):
            y = float(rng.uniform(lo[1] + h[1] + 1.0, max(hi[1] - h[1] - 1.0, lo[1] + h[1] + 1.0)))
            out.append(((x + float(h[0]), y), a))
            x += 2 * float(h[0]) + gap
        return out
    if arrangement != "anywhere":
        raise ValueError(f"unknown arrangement {arrangement!r}; known: {', '.join(ARRANGEMENTS)}")
    out = []
    for _ in range(n_cards):
        across = rng.random() < 0.15  # laid sideways
        angle = float(rng.uniform(-12, 12)) + (90.0 if across else 0.0)
        half = _half_extent(angle)
        c = rng.uniform(lo + half + 1.0, np.maximum(hi - half - 1.0, lo + half + 1.0))
        out.append(((float(c[0]), float(c[1])), angle))
    return out


def zone_cards_scene(faces: tuple[CardFace, ...], condition: str, tilt_deg: float, rng: np.random.Generator,
                     arrangement: str = "anywhere", layout: TableLayout | None = None,
                     size_wh: tuple[int, int] = (1920, 1080), empty_frames: int = 0,
                     card_frames: int = 1, whole_mat: bool = False) -> ZoneCardsShot:
    """``faces`` laid in the play zone as ``arrangement`` says (:data:`ARRANGEMENTS`),
    under ``condition``, seen at ``tilt_deg``; ``empty_frames`` frames of the empty zone
    before, and ``card_frames`` frames in all with the cards lying there. The play zone
    about fills the view, or with ``whole_mat`` the whole mat does (cards smaller).

    >>> from vision.synthetic.cards import cut_out
    >>> face = cut_out(np.full((352, 228, 3), 235, np.uint8))
    >>> shot = zone_cards_scene((face, face), "dim", 30.0, np.random.default_rng(1), "pair", size_wh=(960, 540))
    >>> shot.quads_px.shape
    (2, 4, 2)
    """
    layout = layout or default_layout()
    lo, hi, light, kit, view = _zone_camera(layout, condition, tilt_deg, rng, size_wh, whole_mat)
    laid = _arrange(len(faces), arrangement, lo, hi, rng)
    cards = tuple(CardPlacement(str(f.card) if f.card else "?", pos, ang, f.image_bgr, f.alpha)
                  for f, (pos, ang) in zip(faces, laid, strict=True))
    table = str(rng.choice(TABLE_KINDS))
    scene = render_table_scene(layout, view, cards=cards, lighting=light, rng=rng, table=table, kit_print=kit)
    empty = tuple(render_table_scene(layout, view, lighting=light, rng=rng, table=table, kit_print=kit).frame_bgr
                  for _ in range(empty_frames))
    more = tuple(render_table_scene(layout, view, cards=cards, lighting=light, rng=rng, table=table,
                                    kit_print=kit).frame_bgr for _ in range(card_frames - 1))
    quads = np.array([view.to_px(card_corners_mm(pos, ang)) for pos, ang in laid], np.float64).reshape(-1, 4, 2)
    return ZoneCardsShot(scene, quads, tuple(faces), condition, tilt_deg, arrangement, empty,
                         (scene.frame_bgr, *more))
