"""What lies in a zone, frame by frame: the cards found there, whether anything else is
there (a hand, a card too crooked or covered to find), and whether the zone is still.

A :class:`ZoneWatch` keeps one zone's empty look, in the zone's view from above
(:mod:`vision.zone_view`):

- until it has seen the zone empty, a smooth light field fitted to the printed zone
  itself (one printed colour under light that changes slowly across the table), once a
  still shadow's straight edge across the zone, if there is one, has been taken out of the
  frame (:mod:`vision.shadow_edge`: at first sight a card under or near it was missed);
- once the zone has stayed still and empty (nothing found, nothing unexplained) for
  ``learn_after_frames`` frames, that frame itself, and from then on a running mean of
  the empty frames (the room's light drifts);
- a still shadow (the camera's stand, a player leaning over, a lamp behind someone) is no
  smooth light field: what differs from the empty look is then unexplained, and the zone
  was never learned empty (the dealer asked about nothing, for good). Where what differs
  only darkens or lightens the print (its colour's ratios kept) and reaches the zone's
  outline (a shadow is cast from outside the zone; a thing lying in it is not), the zone
  still counts as empty once it has held for ``learn_shadow_frames`` frames, and that
  look is learned.

Each :meth:`ZoneWatch.look` returns the card corners it found (crop pixels) and an
:class:`Occupancy`. The dealer judges nothing on a frame that is not ``still`` and says
it cannot read the zone while it is ``occupied`` by something unexplained.

>>> from vision.zone_view import ZoneWindow
>>> watch = ZoneWatch([(0, 0), (200, 0), (200, 100), (0, 100)])
>>> zone = np.full((280, 480, 3), (200, 214, 196), np.uint8)   # 2 px/mm, 20 mm margin
>>> to_table = np.array([[0.5, 0, -20], [0, 0.5, -20], [0, 0, 1.0]])
>>> watch.look(zone, to_table).occupancy.occupied
False
>>> _ = cv2.rectangle(zone, (150, 80), (276, 257), (235, 232, 228), -1)  # a card
>>> look = watch.look(zone, to_table)
>>> len(look.cards_px), look.occupancy.still, look.occupancy.occupied
(1, False, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.flicker import camera_rows, without_bands
from vision.geometry import quad_iou
from vision.shadow_edge import ShadowEdgeConfig, shadow_step
from vision.zone_arm import coloured, reaches_across, side_bands, view_edges
from vision.zone_cards import ZoneCardConfig, colour_shift, difference, find_cards, log_colour
from vision.zone_view import WORK_PX_PER_MM, ZONE_MARGIN_MM, RectifiedZone, ZoneWindow, rectify

__all__ = ["Occupancy", "OccupancyConfig", "ZoneLook", "ZoneWatch"]

FloatImage = npt.NDArray[np.float32]
FloatArray = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

# a token found within this of where it lay in the previous frame lies still (its marker's
# centre, found anew in each frame, wanders by a millimetre or two)
TOKEN_LYING_MM = 5.0


@dataclass(frozen=True, slots=True)
class Occupancy:
    """One frame of one zone."""

    occupied: bool  # something other than the printed zone lies there (cards included)
    unexplained_fraction: float  # of the zone's area: differs from the empty zone, and is no found card or token
    changed_fraction: float  # of the zone's area: changed since the previous frame
    still: bool  # nothing moved since the previous frame (no hand moving over the zone)
    empty_learned: bool  # the empty look comes from empty frames (else from the print)
    cards: int  # cards found in the zone
    # an arm reaches across the zone: a thing that enters at one side of it and leaves at
    # the opposite one (to the layout beyond, out of view); the dealer waits while it is there
    arm: bool = False


@dataclass(frozen=True, slots=True)
class ZoneLook:
    cards_px: tuple[FloatArray, ...]  # each card's 4 corners in crop pixels (a rectangle on the table)
    occupancy: Occupancy
    view: RectifiedZone


@dataclass(frozen=True, slots=True)
class OccupancyConfig:
    cards: ZoneCardConfig = ZoneCardConfig()
    # a pixel changed since the last frame by this much in some colour (log units: 6 %,
    # well above sensor noise after the light blur, well below a hand or a card)
    change: float = 0.06
    # a change is a patch at least this wide (mm): JPEG ringing round the zone's print
    # and a dim room's noise make specks up to ~2 mm (with 1.5 mm specks allowed, an
    # empty zone under warm light changed by up to 0.18 % from frame to frame, next to
    # the 0.2 % bar; with 2.5 mm, 0 in 72 frame pairs); a fingertip is ~15 mm
    change_blob_mm: float = 2.5
    # the zone is still when less than this share of it changed (0.2 % of the play
    # zone is ~55 mm^2, a 7 x 7 mm patch: noise and JPEG blocks stay below it)
    still_below: float = 0.002
    # a pixel differs from the empty print-fitted zone by this much (log units) ...
    unexplained_print: float = 0.08
    # ... or from the learned empty zone by this much
    unexplained_learned: float = 0.05
    # differences thinner than this (mm) are print (the zone's 8 mm bold title reads as
    # one solid word), noise or a card's shadow, not a thing; a fingertip is ~15 mm
    thing_mm: float = 9.0
    # found cards are grown by this (mm) before their area is taken away (their rim,
    # shadow and a corner found a little short)
    card_rim_mm: float = 3.0
    # a token tile: a disc this wide (mm) round its centre is explained
    token_radius_mm: float = 52.0
    # unexplained above this share of the zone: something lies there (1 % of the play
    # zone is ~280 mm^2, a fingertip)
    occupied_above: float = 0.01
    # the zone, still and empty this many frames running, is learned as the empty look
    learn_after_frames: int = 2
    # the learned empty look follows the room's light: this share of each new empty frame
    learn_rate: float = 0.3
    # the light's change since the empty look was learned is measured in this band (mm)
    # along the zone's outline when cards are looked for, not over the whole zone
    light_rim_mm: float = 8.0
    # a shadow's edge changes the colours' ratios by less than this (log units): a white
    # card on the printed zone changes them by >= 0.06, a hand far more
    shadow_chroma: float = 0.04
    # a zone whose only difference is light (a shadow, a flickering light's frozen bands) is
    # learned empty after this many still frames: as soon as an empty zone, well before the
    # dealer would ask about it (1 s)
    learn_shadow_frames: int = 2
    # a pixel this bright in some colour is clipped: its change says nothing (a white card
    # under a flickering light stays 255 while the bands move)
    saturated: int = 250
    # at first sight (no empty look yet), a still shadow's straight edge across the zone
    shadow_edge: ShadowEdgeConfig = ShadowEdgeConfig()
    # a thing within this (mm) of two opposite edges of the zone's view (the zone and its
    # margin) reaches across it and out of view: an arm (a card, 63.5 x 88.9 mm, cannot span
    # the play zone's view, 154 x 297 mm)
    arm_side_mm: float = 4.0
    # ... unless it covers more than this share of the view: the light changed, no arm came
    # (an arm with its shadow over two cards it hides covers up to ~80 % of the play zone)
    arm_most: float = 0.92


def _censored(seen: FloatImage, empty: FloatImage, clipped: npt.NDArray[np.bool_] | None,
              empty_clipped: npt.NDArray[np.bool_] | None) -> FloatImage:
    """``seen`` where a clipped colour can agree with ``empty`` made to: a colour clipped in
    this frame is only "at least this bright" (darker than the empty look: it may be as
    bright), one clipped in the empty look only "at least that bright" (brighter now: the
    look may have been as bright). A white card on a darker print, a dark hand, still differ."""
    out = seen if clipped is None else np.where(clipped & (seen < empty), empty, seen)
    if empty_clipped is not None:
        out = np.where(empty_clipped & (out > empty), empty, out)
    return np.asarray(out, np.float32)


def _unclipped(logc: FloatImage, before: FloatImage, clipped: npt.NDArray[np.bool_] | None,
               clipped_before: npt.NDArray[np.bool_] | None) -> FloatImage:
    """``logc`` with each colour clipped in this frame or in the one ``before`` taken from
    ``before``: no change there, so a change is measured in the colours that can show one."""
    either = [m for m in (clipped, clipped_before) if m is not None]
    if not either:
        return logc
    return np.asarray(np.where(np.logical_or.reduce(either), before, logc), np.float32)


def _moved(logc: FloatImage, before: FloatImage, where: Mask, change: float) -> Mask:
    """Where ``logc`` changed by ``change`` or more since ``before``, allowing the picture to
    have moved by up to a pixel: a pixel counts only when it lies outside the range of
    ``before`` round it (3 x 3), after the frame-wide change in each colour (exposure) is
    taken away. A camera held in a hand, or followed by its markers' homography, is off by
    a fraction of a pixel from frame to frame, and the print's sharp edges (the zone's
    bold title) then change although nothing moved; a hand or a card coming in changes
    whole patches, which no pixel's shift explains."""
    now = np.subtract(logc, colour_shift(cv2.subtract(logc, before), where), dtype=np.float32)
    box = np.ones((3, 3), np.uint8)
    outside = cv2.max(cv2.subtract(now, cv2.dilate(before, box)), cv2.subtract(cv2.erode(before, box), now))
    blue, green, red = cv2.split(outside)  # numpy's max over the colours is ten times slower here
    out = cv2.max(cv2.max(blue, green), red)
    return np.asarray((out >= change) & where, np.bool_)


def _among(quad: FloatArray, quads: Sequence[FloatArray]) -> bool:
    """Is ``quad`` one of ``quads`` (the same card, found again: more than half its area shared)?"""
    return any(quad_iou(quad, other) > 0.5 for other in quads)


def _fit_print(logc: FloatImage, where: Mask) -> FloatImage:
    """A smooth light field over one printed colour: a quadratic in x and y per colour,
    fitted to the zone's pixels, twice more to those that fit best (cards, hands and
    print are outliers)."""
    h, w = where.shape
    step = 4  # every 4th pixel each way is plenty for 6 numbers per colour
    ys, xs = np.nonzero(where[::step, ::step])
    if xs.size < 50:
        return logc.copy()
    values = logc[::step, ::step][ys, xs].astype(np.float64)  # (n, 3)
    sx, sy = xs * step / w - 0.5, ys * step / h - 0.5
    design = np.column_stack([np.ones_like(sx), sx, sy, sx * sx, sy * sy, sx * sy])
    keep = np.ones(len(xs), bool)
    coef = np.zeros((6, 3))
    for _ in range(3):
        a = design[keep]
        coef = np.linalg.solve(a.T @ a + 1e-9 * np.eye(6), a.T @ values[keep])
        resid = np.max(np.abs(values - design @ coef), axis=1)
        keep = resid <= np.percentile(resid, 45)
    # the field at 1/8 resolution, then smoothly up to the view's size
    gy, gx = np.mgrid[0:h:8, 0:w:8].astype(np.float64)
    gx, gy = gx / w - 0.5, gy / h - 0.5
    basis = np.stack([np.ones_like(gx), gx, gy, gx * gx, gy * gy, gx * gy], axis=-1)
    small = (basis @ coef).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


class ZoneWatch:
    """One zone of the table, watched frame after frame."""

    def __init__(self, polygon_mm: npt.ArrayLike, config: OccupancyConfig = OccupancyConfig(),
                 px_per_mm: float = WORK_PX_PER_MM, margin_mm: float = ZONE_MARGIN_MM) -> None:
        self.polygon_mm = np.asarray(polygon_mm, np.float64).reshape(-1, 2)
        self.config = config
        self.window = ZoneWindow.around(self.polygon_mm, margin_mm, px_per_mm)
        self.zone = self.window.mask_of(self.polygon_mm)
        self._inside = self.window.mask_of(self.polygon_mm, shrink_mm=config.cards.zone_border_mm)
        # the band along the zone's outline, which cards seldom cover (three cards cover ~60 %
        # of the zone and a quarter of its rim at the most): where the light's change since the
        # empty look was learned is measured when cards are looked for
        self._rim = self.zone & ~self.window.mask_of(self.polygon_mm, shrink_mm=config.light_rim_mm)
        self._empty: FloatImage | None = None
        self._previous: FloatImage | None = None
        self._tokens_before: tuple[tuple[float, float], ...] = ()  # the token centres of the previous frame
        self._quiet_frames = 0
        self._light_only = False  # all that differs from the empty look in the last frame is light
        self._stepped = False  # the last frame had a shadow's edge the empty look has not (taken out)
        self._step: FloatImage | None = None  # ... that edge's light (log units, view pixels)
        # ... and what was left beside it in another colour than the print's (a phone, a wallet,
        # a card not found): the empty look does not learn it with the shadow (:meth:`_learn`)
        self._held: Mask | None = None
        self._edge_unsought = False  # the last full look moved, and no such edge was looked for
        self._last_quads: list[FloatArray] = []  # the cards of the last full look (view pixels)
        # the cards of the last still full look that explained the whole zone (nothing else
        # there): cards surely lying there, which no shadow's edge taken out may hide
        self._settled_quads: list[FloatArray] = []
        self._settled_raw: FloatImage | None = None  # ... and that look's frame (``raw``: see :meth:`look`)
        self._known: Mask | None = None  # the cards and tokens of the last full look (grown)
        self._known_before: Mask | None = None  # ... and of the one before it
        # the empty look's clipped colours (there it only says "at least this bright"): a
        # flickering light's bright bands clip the pale print (bands 30 % deep: up to half the zone)
        self._empty_clipped: npt.NDArray[np.bool_] | None = None
        self._clipped_before: npt.NDArray[np.bool_] | None = None  # the previous frame's clipped colours
        self._rows: tuple[bytes, FloatImage] | None = None  # camera rows of the view, by its transform
        # where the empty look is older than a step of light: what lay there (cards, tokens)
        # when the bare mat round it took the step (:meth:`_learn_bare`)
        self._stale: Mask | None = None
        self._last: ZoneLook | None = None
        # the bands along the zone's four sides (view pixels): an arm's own colour crosses the zone
        self._sides = side_bands(self._inside, config.arm_side_mm * self.window.px_per_mm)

    @property
    def empty_learned(self) -> bool:
        return self._empty is not None

    def forget(self) -> None:
        """Start again (the camera or the mat moved)."""
        self._empty = None
        self._stale = None
        self._stepped = self._edge_unsought = False
        self._step = self._held = None
        self._previous = None
        self._tokens_before = ()
        self._quiet_frames = 0
        self._last = None
        self._known = self._known_before = None
        self._settled_quads = []
        self._settled_raw = None
        self._empty_clipped = None
        self._clipped_before = None

    def look(self, crop_bgr: npt.NDArray[np.uint8], crop_to_table: npt.ArrayLike,
             token_centres_mm: Sequence[tuple[float, float]] = ()) -> ZoneLook:
        """The cards in the zone and what else is there, in this frame."""
        cfg = self.config
        view = rectify(crop_bgr, crop_to_table, self.window)
        logc = log_colour(view.bgr)
        zone = self._inside & view.valid
        area = max(int(zone.sum()), 1)
        # a colour this bright is clipped (grown by a pixel: log_colour blurs), and says only
        # "at least this bright"
        clip = cv2.dilate((view.bgr >= cfg.saturated).astype(np.uint8), np.ones((3, 3), np.uint8))
        lit = cv2.max(cv2.max(clip[..., 0], clip[..., 1]), clip[..., 2]) == 0
        clipped = clip > 0 if not lit.all() else None  # none clipped: None
        # a flickering light's bands along the camera's rows (vision/flicker.py) first: this
        # frame is made to match the empty look or, until there is one, the frame before, on
        # the bare rim of the zone (so a still zone is still)
        rows = self._camera_rows(view)
        raw = logc
        logc = self._without_flicker(raw, rows, zone, clipped)
        # motion since the previous frame: a colour clipped in either frame tells nothing, the
        # pixel's other colours still do (a pale blue print under a cold light clips its blue
        # over the whole zone: a hand coming in over it darkens its red and green)
        if self._previous is not None:
            moved = _moved(_unclipped(logc, self._previous, clipped, self._clipped_before),
                           self._previous, zone, cfg.change)
            lying = self._tokens_lying(token_centres_mm)
            if lying:
                # a token lying where it lay: its black marker's log colour is the sensor's
                # noise in a dim or warm room, and read as a hand moving over the zone in
                # every other frame (a warm room, the whole layout's distance): never still, the
                # light there was never learned, and the dealer asked for the token it saw
                moved &= self._discs(moved.shape, lying) == 0
            k = max(3, int(round(cfg.change_blob_mm * self.window.px_per_mm)) | 1)
            opened = cv2.morphologyEx(moved.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
            changed = float(np.count_nonzero(opened)) / area
        else:
            changed = 1.0
        self._previous = logc
        self._clipped_before = clipped
        self._tokens_before = tuple(token_centres_mm)
        still = changed < cfg.still_below
        learned = self._empty is not None
        if not still and learned:
            # an arm moving across the zone: nothing is judged while it is there, so its
            # cards are not looked for (the dearest frames of a round)
            arm = self._arm_across(logc, view.valid, clipped, lit & self._empty_lit(learned), token_centres_mm)
            if arm is not None:
                return self._arm_look(view, arm, changed, learned)
        last = self._last
        if still and last is not None and last.occupancy.arm:
            # nothing moved since an arm reached across the zone: it is there still (held
            # over the layout beyond), and what it covers is not looked for
            self._last = ZoneLook(last.cards_px, dataclasses.replace(last.occupancy, changed_fraction=changed,
                                                                     still=True), view)
            return self._last
        unread = last is not None and last.occupancy.unexplained_fraction > cfg.occupied_above
        # a shadow's new edge is sought over the cards too in still frames only (a hand moving
        # over the zone is no edge, and the dealer judges nothing then): the first still frame
        # after one that moved is looked at afresh when it has one
        unsought, self._edge_unsought = self._edge_unsought, False
        if still and last is not None and last.occupancy.empty_learned == learned and not unread and not (
                unsought and learned and (self._new_edge(raw, zone, self._last_quads) is not None
                                          or self._edge_since_settled(raw, zone) is not None)):
            # nothing moved: the same cards lie there (and nothing new is learned). While
            # something lies there unexplained, each frame is looked at afresh: a card
            # touching another, found in one look and not the next (the sensor's noise), or
            # a card's edge a flickering light's bright band had clipped, may be found in it
            occupancy = dataclasses.replace(last.occupancy, changed_fraction=changed, still=True)
            if occupancy.unexplained_fraction <= cfg.occupied_above / 4:
                self._settle(self._last_quads, raw)
            self._last = ZoneLook(last.cards_px, occupancy, view)
            look = self._last
            if self._learn(self._to_learn(logc, raw, rows, zone, clipped), occupancy, token_centres_mm, clipped):
                self._last = None  # a new empty look: the next frame is looked at afresh
                self._relight_settled(raw)
            return look
        # against the print's fit, only a clear difference counts (the fit is rougher)
        cards_cfg = cfg.cards if learned else dataclasses.replace(cfg.cards, min_difference=cfg.unexplained_print)
        seen = logc  # the frame as compared with the empty look
        if self._empty is not None:
            empty = self._empty
            # a colour clipped in the frame or in the empty look is no difference (else the
            # bare print where the look was clipped reads brighter, and joins a card's patch)
            cut = self._censored_against_empty(logc, clipped)
            quads = find_cards(view, empty, zone, cards_cfg, self.zone, logc=cut, light_reference=self._rim)
            stepped = self._without_new_shadow_edge(view, raw, rows, zone, quads, cards_cfg, clipped, still)
            self._stepped = stepped is not None
            self._edge_unsought = not still
            self._step = None
            if stepped is not None:
                seen, quads, self._step = stepped
        else:
            self._stepped = self._edge_unsought = False
            self._step = None
            empty = _fit_print(logc, zone)
            quads = find_cards(view, empty, zone, cards_cfg, self.zone, logc=logc)
            seen, shadow_fit, shadow_quads = self._without_shadow_edge(view, logc, zone, quads, cards_cfg)
            if shadow_fit is not None:
                empty, quads = shadow_fit, shadow_quads
        # what differs from the empty zone and is no card and no token
        s = self.window.px_per_mm
        known = np.zeros(zone.shape, np.uint8)
        for q in quads:
            cv2.fillConvexPoly(known, np.round(q).astype(np.int32), 1)
        known |= self._discs(known.shape, token_centres_mm)
        r = max(3, int(round(2 * cfg.card_rim_mm * s)) | 1)
        known = np.asarray(cv2.dilate(known, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r, r))), np.uint8)
        # the light may have changed since the empty look was learned (a camera's
        # auto-exposure as white cards come in, a cloud, a lamp moved): the bare mat round
        # the cards and tokens tells by how much, not the cards (two white cards and a token
        # cover half the play zone: their change is no change of light), and the learned
        # look follows it before the two are compared (else the bare mat reads as a thing)
        bare = zone & (known == 0)
        self._known_before, self._known = self._known, known > 0
        if learned:
            # ... measured where the look is as new as the light's last step: where it is
            # older (what lay there when the bare mat took the step, since moved away), the
            # difference is that step, not the room's drift, and pulls the fit off the rest
            current = bare if self._stale is None else bare & ~self._stale
            empty = empty + _fit_print(seen - empty, current if np.count_nonzero(current) >= 0.25 * area else bare)
        bar = cfg.unexplained_learned if learned else cfg.unexplained_print
        if clipped is not None or (learned and self._empty_clipped is not None):
            seen = _censored(seen, empty, clipped, self._empty_clipped if learned else None)
        odd = (difference(seen, empty, bare) >= bar).astype(np.uint8)
        odd = np.asarray(cv2.morphologyEx(odd, cv2.MORPH_OPEN, self._thing_disc()), np.uint8)
        unexplained = float((odd & bare).sum()) / area
        occupied = bool(quads) or unexplained > cfg.occupied_above
        self._last_quads = quads
        if still and unexplained <= cfg.occupied_above / 4:
            self._settle(quads, raw)
        cards_px = tuple(view.to_crop(q) for q in quads)
        occupancy = Occupancy(occupied, unexplained, changed, still, learned, len(quads))
        # with cards there, only what the dealer would ask about is worth learning as light
        self._light_only = unexplained > (cfg.occupied_above if quads else 0.0) and self._only_light(
            seen, empty, bare & lit & self._empty_lit(learned), odd, rows, bar)
        self._held = None
        if self._stepped and not self._light_only and unexplained > 0:
            coloured, _ = self._unlit_patches(seen, empty, bare & lit & self._empty_lit(learned), odd)
            self._held = coloured
        look = ZoneLook(cards_px, occupancy, view)
        self._last = look
        # (only a still frame is learned: the frame to learn is not worked out for the others)
        if self._learn(self._to_learn(logc, raw, rows, zone, clipped) if still else logc, occupancy,
                       token_centres_mm, clipped):
            self._last = None  # a new empty look: the next frame is looked at afresh
            self._relight_settled(raw)
        return look

    def _arm_across(self, logc: FloatImage, valid: Mask, clipped: npt.NDArray[np.bool_] | None, lit: Mask,
                    token_centres_mm: Sequence[tuple[float, float]]) -> Mask | None:
        """What differs from the learned empty look of the zone and its margin, away from the
        tokens, and reaches from one edge of the view to the opposite one (out of view both
        ways: a card laid over the zone's edge reaches out of it on one side at most), with a
        colour of its own across the zone where no colour is clipped (``lit``): an arm; None
        if nothing is."""
        cfg = self.config
        empty = self._empty
        assert empty is not None
        seen = self._censored_against_empty(logc, clipped)
        where = valid & (self._discs(valid.shape, token_centres_mm) == 0)
        odd = (difference(seen, empty, where, self._rim) >= cfg.unexplained_learned).astype(np.uint8)
        odd = np.asarray(cv2.morphologyEx(odd, cv2.MORPH_OPEN, self._thing_disc()), np.uint8)
        # the cards of the last full look are in ``odd`` too (an arm over them joins them):
        # the share is of the view round them
        bare = where if self._known is None else where & ~self._known
        if np.count_nonzero(odd & bare) > cfg.arm_most * max(int(np.count_nonzero(bare)), 1):
            return None  # the light changed over the whole view (or most of it)
        across = reaches_across(odd > 0, view_edges(valid, cfg.arm_side_mm * self.window.px_per_mm))
        if across is None:
            return None
        # ... and no light: it has a colour of its own from one side of the zone to the other
        # (the paper round the zone may be clipped white, where no colour tells)
        skin = reaches_across(self._coloured(seen, empty, where, across & lit), self._sides)
        return None if skin is None else across

    def _coloured(self, seen: FloatImage, empty: FloatImage, where: Mask, odd: Mask) -> Mask:
        """:func:`vision.zone_arm.coloured`, the light's change measured on the zone's rim."""
        return coloured(seen, empty, odd, where & self._rim, self.config.shadow_chroma, self._thing_disc())

    def _arm_look(self, view: RectifiedZone, arm: Mask, changed: float, learned: bool) -> ZoneLook:
        """The look of a frame with an arm moving across the zone: no cards looked for, the
        arm unexplained; what the zone's state keeps is what a moving full look keeps."""
        area = max(int(np.count_nonzero(self._inside & view.valid)), 1)
        unexplained = float(np.count_nonzero(arm)) / area
        occupancy = Occupancy(True, unexplained, changed, False, learned, 0, True)
        self._stepped = False
        self._step = self._held = None
        self._edge_unsought = learned  # the next still frame seeks a new shadow's edge afresh
        self._last_quads = []
        self._known_before, self._known = self._known, arm  # no bare rim to measure light on under it
        self._light_only = False
        self._quiet_frames = 0  # a moving frame: nothing is learned
        self._last = ZoneLook((), occupancy, view)
        return self._last

    def _discs(self, shape: tuple[int, ...], centres_mm: Sequence[tuple[float, float]]) -> npt.NDArray[np.uint8]:
        """1 within ``token_radius_mm`` of each token centre (view pixels): what a token explains."""
        discs = np.zeros(shape[:2], np.uint8)
        radius = int(round(self.config.token_radius_mm * self.window.px_per_mm))
        for cx, cy in centres_mm:
            (px, py), = self.window.table_to_view_px([(cx, cy)])
            cv2.circle(discs, (int(round(px)), int(round(py))), radius, 1, -1)
        return discs

    def _tokens_lying(self, centres_mm: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        """The tokens of ``centres_mm`` that lay in the previous frame where they lie now."""
        return [(x, y) for x, y in centres_mm
                if any(np.hypot(x - bx, y - by) <= TOKEN_LYING_MM for bx, by in self._tokens_before)]

    def _without_flicker(self, logc: FloatImage, rows: FloatImage, zone: Mask,
                         clipped: npt.NDArray[np.bool_] | None) -> FloatImage:
        """``logc`` made to match the empty look or, until there is one, the frame before, on
        the bare rim of the zone, row by row of the camera (:func:`vision.flicker.without_bands`)."""
        reference = self._empty if self._empty is not None else self._previous
        if reference is None:
            return logc
        # measured in each colour clipped in neither frame
        reference_clipped = self._clipped_before if self._empty is None else self._empty_clipped
        either = [m for m in (clipped, reference_clipped) if m is not None]
        usable: npt.NDArray[np.bool_] | None = ~np.logical_or.reduce(either) if either else None
        clear = self._rim & zone  # the zone's outline band: cards seldom lie there
        if usable is not None:
            clear &= np.any(usable, axis=2)
        # away from the cards of the last two looks: with the last one's only, a thing found
        # in one look and not the next changes where the light is measured, and so the next
        # look, frame after frame (a shadow's edge along the camera's rows read as bands)
        for known in (self._known, self._known_before):
            if known is not None:
                clear &= ~known
        return without_bands(logc, reference, rows, clear, usable=usable)

    def _empty_lit(self, learned: bool) -> Mask | bool:
        """Where the empty look's colours were none of them clipped (all of it before one is learned)."""
        if not learned or self._empty_clipped is None:
            return True
        lit: Mask = ~np.any(self._empty_clipped, axis=2)
        return lit

    def _without_shadow_edge(self, view: RectifiedZone, logc: FloatImage, zone: Mask, quads: list[FloatArray],
                             cards_cfg: ZoneCardConfig) -> tuple[FloatImage, FloatImage | None, list[FloatArray]]:
        """At first sight, a still shadow's straight edge across the zone taken out
        (:mod:`vision.shadow_edge`): the frame lit as if there were none, its print's fit, and
        the cards found in it; ``(logc, None, [])`` when there is no such edge.

        The cards already found against the plain print's fit are told to it: a card's long
        side, nearly as long as the zone is high, under a light that leaves the card the
        print's colour (a cold light, the black-and-white kit) is a straight neutral step
        too, but the print beyond the card is not lit."""
        cards = self._cards_mask(zone.shape, quads)
        step = shadow_step(logc, zone, self.window.px_per_mm, self.config.shadow_edge, cards)
        if step is None:
            return logc, None, []
        seen = np.asarray(logc - step[..., None], np.float32)
        empty = _fit_print(seen, zone)
        return seen, empty, find_cards(view, empty, zone, cards_cfg, self.zone, logc=seen)

    def _without_new_shadow_edge(self, view: RectifiedZone, raw: FloatImage, rows: FloatImage, zone: Mask,
                                 quads: list[FloatArray], cards_cfg: ZoneCardConfig,
                                 clipped: npt.NDArray[np.bool_] | None, still: bool,
                                 ) -> tuple[FloatImage, list[FloatArray], FloatImage] | None:
        """Once the empty look is learned, a still shadow's straight edge that came since (a
        player leaning over, a lamp on the camera's stand that was knocked) taken out as at
        first sight, measured on the bare mat's difference from the look: the frame lit as
        the look was, the cards found in it and the edge's light; None when there is no such
        edge. Without this, the edge's band reads as a thing beside the cards, or as cards.

        ``raw``: the frame before a flickering light's bands are taken out (an edge across
        the camera's rows is no band, and evening the rows out bends it), which they are
        once the step is."""
        assert self._empty is not None

        def taken_out(step: FloatImage) -> tuple[FloatImage, list[FloatArray], FloatImage]:
            seen = self._without_flicker(np.asarray(raw - step[..., None], np.float32), rows, zone, clipped)
            cut = self._censored_against_empty(seen, clipped)
            return seen, find_cards(view, self._empty, zone, cards_cfg, self.zone, logc=cut,
                                    light_reference=self._rim), step

        step = self._new_edge(raw, zone, quads, whole_zone=still)
        out = None if step is None else taken_out(step)
        if still and (out is None or self._settled_lost(out[1])):
            # the edge measured against the look where the settled cards lay, over them too:
            # taken for the edge when it finds more of them
            since = self._edge_since_settled(raw, zone)
            if since is not None:
                other = taken_out(since)
                if out is None or self._settled_lost(other[1]) < self._settled_lost(out[1]):
                    out = other
        if out is None or self._hides_cards(quads, out[1]):
            return None
        return out

    def _settle(self, quads: list[FloatArray], raw: FloatImage) -> None:
        """The cards ``quads`` lie settled in this still frame (``raw``) with nothing else there."""
        self._settled_quads = quads
        self._settled_raw = raw if quads else None

    def _relight_settled(self, raw: FloatImage) -> None:
        """The empty look took a step of light from this frame (``raw``): the settled cards'
        look, against which a new edge is measured, takes it too (else the same edge is found
        again in every frame, and taken out of a look that already has it)."""
        if self._settled_raw is not None:
            self._settled_raw = raw

    def _settled_lost(self, found: Sequence[FloatArray]) -> int:
        """How many of the settled cards ``found`` lacks."""
        return sum(1 for q in self._settled_quads if not _among(q, found))

    def _hides_cards(self, quads: Sequence[FloatArray], found: Sequence[FloatArray]) -> bool:
        """Would taking a new edge out lose a card found without it (``quads``; ``found``: with
        it) that lay there before anything changed, with nothing else unexplained
        (``_settled_quads``)? Touching cards' long sides make one straight line that may pass
        for a shadow's edge; taken out, it lights a card as the bare print, and the card is
        learned into the empty look. A real edge taken out may rightly lose a piece of its own
        band found as a card (a card found only since the light changed)."""
        return any(not _among(q, found) for q in quads if _among(q, self._settled_quads))

    def _censored_against_empty(self, logc: FloatImage, clipped: npt.NDArray[np.bool_] | None) -> FloatImage:
        """``logc`` where a colour clipped in it or in the empty look is no difference."""
        assert self._empty is not None
        if clipped is None and self._empty_clipped is None:
            return logc
        return _censored(logc, self._empty, clipped, self._empty_clipped)

    def _new_edge(self, raw: FloatImage, zone: Mask, quads: Sequence[FloatArray],
                  whole_zone: bool = True) -> FloatImage | None:
        """:func:`vision.shadow_edge.shadow_step` of the frame's difference from the learned
        empty look, away from the cards ``quads`` (view pixels); with ``whole_zone``, also
        over them when it is not found there (dearer: a frame that moved is not measured so)."""
        assert self._empty is not None
        cards = self._cards_mask(zone.shape, quads)
        delta = np.asarray(raw - self._empty, np.float32)
        step = shadow_step(delta, zone & ~cards, self.window.px_per_mm, self.config.shadow_edge, cards)
        if step is None and quads and whole_zone:
            # the edge's band itself may have been cut into "cards": measured over the whole
            # zone, a card's own colour is left out as at first sight
            step = shadow_step(delta, zone, self.window.px_per_mm, self.config.shadow_edge, cards)
        return step

    def _edge_since_settled(self, raw: FloatImage, zone: Mask) -> FloatImage | None:
        """:func:`vision.shadow_edge.shadow_step` of the frame's difference from the look where
        the settled cards lay (``_settled_raw``), over the whole zone. Those cards may cover
        most of the edge's line (two touching cards, the edge across them), and the bare
        print beside them is too little to measure it on; their own difference from that
        look is the light alone, as the print's is. None without such a look or edge."""
        if self._settled_raw is None:
            return None
        since = np.asarray(raw - self._settled_raw, np.float32)
        return shadow_step(since, zone, self.window.px_per_mm, self.config.shadow_edge)

    def _cards_mask(self, shape: tuple[int, ...], quads: Sequence[FloatArray]) -> Mask:
        """The cards found, grown by their rim (``card_rim_mm``)."""
        s = self.window.px_per_mm
        cards = np.zeros(shape[:2], np.uint8)
        for q in quads:
            cv2.fillConvexPoly(cards, np.round(q).astype(np.int32), 1)
        r = max(3, int(round(2 * self.config.card_rim_mm * s)) | 1)
        grown: Mask = cv2.dilate(cards, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r, r))) > 0
        return grown

    def _only_light(self, logc: FloatImage, empty: FloatImage, bare: Mask, odd: npt.NDArray[np.uint8],
                    rows: FloatImage, bar: float) -> bool:
        """Is all that differs from the empty look light: the print darker or lighter with
        its colours' ratios kept, and either each patch of it reaching the zone's outline (a
        shadow is cast from outside the zone) or the whole of it a flickering light's bands
        along the camera's rows (frozen in the look by the frames before it)?"""
        coloured, inside = self._unlit_patches(logc, empty, bare, odd)
        if np.any(coloured):
            return False  # a patch of another colour: a hand, a card, a token
        if not np.any(inside):
            return True
        flat = without_bands(logc, empty, rows, bare, always=True)
        left = cv2.morphologyEx((difference(flat, empty, bare) >= bar).astype(np.uint8), cv2.MORPH_OPEN,
                                self._thing_disc())
        return not np.any((left > 0) & bare)  # nothing left once the rows are evened out

    def _thing_disc(self) -> npt.NDArray[np.uint8]:
        """A disc ``thing_mm`` wide: differences thinner than it are print, noise or a shadow's rim."""
        k = max(3, int(round(self.config.thing_mm * self.window.px_per_mm)) | 1)
        return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)), np.uint8)

    def _unlit_patches(self, logc: FloatImage, empty: FloatImage, bare: Mask,
                       odd: npt.NDArray[np.uint8]) -> tuple[Mask, Mask]:
        """The patches of ``odd`` that light does not explain: ``coloured`` (where the colours'
        ratios changed, grown to their patches), and those lying ``inside`` the zone, none of
        them reaching its outline (nor lying where the look is older than a step of light)."""
        cfg = self.config
        delta = cv2.GaussianBlur(cv2.subtract(logc, empty), (0, 0), 2.0)
        chroma = delta - np.mean(delta, axis=2, keepdims=True)
        coloured = (np.max(np.abs(chroma), axis=2) >= cfg.shadow_chroma) & (odd > 0) & bare
        coloured = cv2.morphologyEx(coloured.astype(np.uint8), cv2.MORPH_OPEN, self._thing_disc()) > 0
        n, labels = cv2.connectedComponents(odd, connectivity=8)
        reaching = set(np.unique(labels[self._rim & (odd > 0)]).tolist())
        if self._stale is not None:
            # a patch where the look is older than a step of light, where cards lay when the
            # bare mat took it, is that step's light too
            sizes = np.bincount(labels.ravel(), minlength=n)
            within = np.bincount(labels[self._stale], minlength=n)
            reaching |= {i for i in range(1, n) if within[i] >= 0.9 * sizes[i]}
        is_inside = np.ones(n, bool)
        is_inside[0] = False
        is_inside[sorted(reaching)] = False
        is_coloured = np.zeros(n, bool)
        is_coloured[np.unique(labels[coloured])] = True
        is_coloured[0] = False
        return is_coloured[labels], is_inside[labels]

    def _camera_rows(self, view: RectifiedZone) -> FloatImage:
        """:func:`vision.flicker.camera_rows`, kept while the camera and mat do not move."""
        key = np.asarray(view.crop_to_view, np.float64).tobytes()
        if self._rows is None or self._rows[0] != key:
            self._rows = (key, camera_rows(view))
        return self._rows[1]

    def _learn(self, logc: FloatImage, seen: Occupancy, token_centres_mm: Sequence[tuple[float, float]],
               clipped: npt.NDArray[np.bool_] | None) -> bool:
        """Learn the empty look from frames that are still and empty (or hold only a shadow).
        True when the look was replaced by this frame (a shadow came or went: the light
        changed in a step, no running mean follows it)."""
        cfg = self.config
        shadow = self._light_only or self._stepped
        if seen.still and not seen.cards and not token_centres_mm and (
                seen.unexplained_fraction <= cfg.occupied_above / 4 or shadow):
            self._quiet_frames += 1
            if self._quiet_frames >= (cfg.learn_shadow_frames if shadow else cfg.learn_after_frames):
                if self._empty is None or shadow:
                    self._empty = self._with_held(logc)
                    self._stale = None
                    self._empty_clipped = None if clipped is None else clipped.copy()
                    self._light_only = False
                    return shadow
                mean = np.asarray((1 - cfg.learn_rate) * self._empty + cfg.learn_rate * logc, np.float32)
                if clipped is None and self._empty_clipped is None:
                    self._empty = mean
                    return False
                # a clipped colour is no measure: the empty look keeps its own there, and takes
                # this frame's where only its own was clipped (the bands moved on)
                now = np.zeros(logc.shape[:2] + (1,), bool) if clipped is None else np.any(clipped, axis=2)[..., None]
                before = (np.zeros_like(now) if self._empty_clipped is None
                          else np.any(self._empty_clipped, axis=2)[..., None])
                self._empty = np.asarray(np.where(now, self._empty, np.where(before, logc, mean)), np.float32)
                self._empty_clipped = None if self._empty_clipped is None else (self._empty_clipped & now)
        elif seen.still and shadow and self._empty is not None and self._known is not None:
            # a shadow came or went while cards or tokens lie there (a player leaning over, a
            # lamp on the camera's stand that was knocked): the bare mat round them takes the
            # new light in a step; the look under them stays as it was until they go
            self._quiet_frames += 1
            if self._quiet_frames >= cfg.learn_shadow_frames:
                self._learn_bare(self._with_held(logc), clipped, ~self._known)
                return True
        else:
            self._quiet_frames = 0
        return False

    def _with_held(self, logc: FloatImage) -> FloatImage:
        """``logc`` to be learned as the empty look, but where something was left beside a new
        shadow's edge that is no light (``_held``): the look as it was, lit as the edge's light
        says. A phone lying in the zone when a player leans over stays a thing."""
        if self._empty is None or self._step is None or self._held is None or not self._held.any():
            return logc.copy()
        lit = np.asarray(self._empty + self._step[..., None], np.float32)
        return np.asarray(np.where(self._held[..., None], lit, logc), np.float32)

    def _to_learn(self, logc: FloatImage, raw: FloatImage, rows: FloatImage, zone: Mask,
                  clipped: npt.NDArray[np.bool_] | None) -> FloatImage:
        """The frame the empty look may learn: ``logc``, the frame with a flickering light's
        bands taken out as measured against the look. But while a new shadow's edge is taken
        out (``_step``) and the frame without it has no bands, those "bands" were the edge's
        own step along the camera's rows, and taking them out bends the frame by up to the
        step's depth: the frame as it is (``raw``) is learned (a lean ending as a card is
        laid: the look learned a gradient of half
        the step, and a card's place read as a thing once the card was moved)."""
        if not self._stepped or self._step is None or logc is raw:
            return logc
        unstepped = np.asarray(raw - self._step[..., None], np.float32)
        if self._without_flicker(unstepped, rows, zone, clipped) is unstepped:
            return raw
        return logc

    def _learn_bare(self, logc: FloatImage, clipped: npt.NDArray[np.bool_] | None, bare: Mask) -> None:
        """The empty look replaced by this frame where the zone is ``bare``."""
        assert self._empty is not None
        self._empty = np.asarray(np.where(bare[..., None], logc, self._empty), np.float32)
        if clipped is not None or self._empty_clipped is not None:
            now = np.zeros(logc.shape, bool) if clipped is None else clipped
            before = np.zeros(logc.shape, bool) if self._empty_clipped is None else self._empty_clipped
            merged = np.where(bare[..., None], now, before)
            self._empty_clipped = merged if merged.any() else None
        self._light_only = False
        self._stale = ~bare if self._stale is None else (self._stale | ~bare)
