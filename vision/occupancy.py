"""What lies in a zone, frame by frame: the cards found there, whether anything else is
there (a hand, a card too crooked or covered to find), and whether the zone is still.

A :class:`ZoneWatch` compares each frame of one zone, in the zone's view from above
(:mod:`vision.zone_view`), with two models:

- the zone's **background** (:mod:`vision.zone_background`): no look yet, the print's fit
  (the zone never seen empty), or learned from still empty frames;
- the frame's **light** (:mod:`vision.zone_light`): row bands, a still shadow's straight
  edge and a smooth gain field, fitted on the bare mat against that background.

What the light does not explain is a thing. A thing that enters at one side of the zone's
view and leaves at the opposite one is an arm (:mod:`vision.zone_arm`): no cards are looked
for under it. A frame whose only difference from the look is light (the print darker or
lighter, its colours' ratios kept, reaching the zone's outline, or a new shadow's edge) is
learned as the new look once it has held for ``learn_shadow_frames`` frames, on the bare
mat only while cards lie there.

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

from vision.geometry import quad_iou
from vision.shadow_edge import ShadowEdgeConfig
from vision.zone_arm import coloured, reaches_across, side_bands, view_edges
from vision.zone_background import Background, BackgroundConfig, any_colour, censored, either_of
from vision.zone_cards import ZoneCardConfig, colour_shift, difference, find_cards, largest_colour, log_colour
from vision.zone_light import Light, LightModel, light_alone, unlit_patches
from vision.zone_view import WORK_PX_PER_MM, ZONE_MARGIN_MM, RectifiedZone, ZoneWindow, rectify

__all__ = ["Occupancy", "OccupancyConfig", "ZoneLook", "ZoneWatch"]

FloatImage = npt.NDArray[np.float32]
FloatArray = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]
Mask3 = npt.NDArray[np.bool_]  # per pixel and colour

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
    # the last look's cards given again: nothing moved since (a frame with no card found is
    # no such frame: the cards laid may be ones whose outlines are not found)
    kept: bool = False


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


def _unclipped(logc: FloatImage, before: FloatImage, clipped: npt.NDArray[np.bool_] | None,
               clipped_before: npt.NDArray[np.bool_] | None) -> FloatImage:
    """``logc`` with each colour clipped in this frame or in the one ``before`` taken from
    ``before``: no change there, so a change is measured in the colours that can show one."""
    either = [m for m in (clipped, clipped_before) if m is not None]
    if not either:
        return logc
    return np.asarray(np.where(either_of(either), before, logc), np.float32)


def _moved(logc: FloatImage, before: FloatImage, where: Mask, change: float) -> Mask:
    """Where ``logc`` changed by ``change`` or more since ``before``, allowing the picture to
    have moved by up to a pixel: a pixel counts only when it lies outside the range of
    ``before`` round it (3 x 3), after the frame-wide change in each colour (exposure) is
    taken away. A camera held in a hand, or followed by its markers' homography, is off by
    a fraction of a pixel from frame to frame, and the print's sharp edges (the zone's
    bold title) then change although nothing moved; a hand or a card coming in changes
    whole patches, which no pixel's shift explains."""
    # OpenCV's subtraction of a scalar gives numpy's float32 values, several times faster
    shift = colour_shift(cv2.subtract(logc, before), where)
    now = cv2.subtract(logc, np.append(shift, 0.0).astype(np.float64))  # (4,) doubles: a scalar to OpenCV
    box = np.ones((3, 3), np.uint8)
    outside = cv2.max(cv2.subtract(now, cv2.dilate(before, box)), cv2.subtract(cv2.erode(before, box), now))
    return np.asarray((largest_colour(outside) >= change) & where, np.bool_)


def _among(quad: FloatArray, quads: Sequence[FloatArray]) -> bool:
    """Is ``quad`` one of ``quads`` (the same card, found again: more than half its area shared)?"""
    return any(quad_iou(quad, other) > 0.5 for other in quads)


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the last full look of a zone found, which the frames after it build on."""

    quads: list[FloatArray] = dataclasses.field(default_factory=list)  # its cards (view pixels)
    known: Mask | None = None  # its cards and tokens (grown): no bare mat to measure the light on
    known_before: Mask | None = None  # ... and those of the look before it
    new_step: FloatImage | None = None  # the step of a shadow's edge it took out that the learned look has not
    light_only: bool = False  # all that differed from the look was light
    # what was left beside that edge in another colour than the print's (a phone, a card not
    # found): the look does not learn it with the shadow
    held: Mask | None = None


class ZoneWatch:
    """One zone of the table, watched frame after frame: its background
    (:mod:`vision.zone_background`), the light of each frame (:mod:`vision.zone_light`), and
    what neither explains."""

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
        # the bands along the zone's four sides (view pixels): an arm's own colour crosses the zone
        self._sides = side_bands(self._inside, config.arm_side_mm * self.window.px_per_mm)
        self.background = Background(BackgroundConfig(config.learn_after_frames, config.learn_rate,
                                                      config.learn_shadow_frames))
        self.light = LightModel(self.window.px_per_mm, config.shadow_edge)
        self._start()

    def _start(self) -> None:
        """What the watch keeps from frame to frame, as at the start."""
        # the frame before (bands taken out), its clipped colours and its tokens: what moved
        self._previous: FloatImage | None = None
        self._clipped_before: Mask3 | None = None
        self._tokens_before: tuple[tuple[float, float], ...] = ()
        self._last: ZoneLook | None = None
        self._edge_unsought = False  # the last full look moved, and no new shadow's edge was looked for
        self._seen = _Seen()
        # the cards of the last still full look that explained the whole zone (nothing else
        # there): cards surely lying there, which no shadow's edge taken out may hide, and
        # that look's frame (before its bands are taken out)
        self._settled_quads: list[FloatArray] = []
        self._settled_raw: FloatImage | None = None

    @property
    def empty_learned(self) -> bool:
        return self.background.learned

    def forget(self) -> None:
        """Start again (the camera or the mat moved)."""
        self.background.forget()
        self._start()

    def look(self, crop_bgr: npt.NDArray[np.uint8], crop_to_table: npt.ArrayLike,
             token_centres_mm: Sequence[tuple[float, float]] = ()) -> ZoneLook:
        """The cards in the zone and what else is there, in this frame: rectified, the light's
        bands taken out, motion measured; an arm reaching across, or the last look kept while
        nothing moved, or a full look (cards, then what the light does not explain); then
        what the background may learn from it."""
        cfg = self.config
        view = rectify(crop_bgr, crop_to_table, self.window)
        raw = log_colour(view.bgr)
        zone = self._inside & view.valid
        # a colour this bright is clipped (grown by a pixel: log_colour blurs), and says only
        # "at least this bright"
        clip = cv2.dilate((view.bgr >= cfg.saturated).astype(np.uint8), np.ones((3, 3), np.uint8))
        lit = cv2.max(cv2.max(clip[..., 0], clip[..., 1]), clip[..., 2]) == 0
        clipped = clip > 0 if not lit.all() else None  # none clipped: None
        # a flickering light's bands first: this frame is made to match the look or, until
        # there is one, the frame before, on the bare rim of the zone (so a still zone is still)
        light = self._fit_light(view, raw, zone, clipped)
        logc = light.unbanded(raw)
        changed = self._changed(logc, zone, clipped, token_centres_mm)
        self.background.seen()
        still = changed < cfg.still_below
        learned = self.background.learned
        if not still and learned:
            # an arm moving across the zone: nothing is judged while it is there, so its
            # cards are not looked for (the dearest frames of a round)
            arm = self._arm_across(logc, view.valid, clipped, lit & self.background.lit(), token_centres_mm)
            if arm is not None:
                return self._arm_look(view, arm, changed, learned)
        last = self._last
        if still and last is not None and last.occupancy.arm:
            # nothing moved since an arm reached across the zone: it is there still (held
            # over the layout beyond), and what it covers is not looked for
            self._last = ZoneLook(last.cards_px, dataclasses.replace(last.occupancy, changed_fraction=changed,
                                                                     still=True), view, kept=True)
            return self._last
        if still and last is not None and self._as_before(last, raw, zone, learned):
            return self._kept_look(last, view, logc, raw, zone, clipped, changed, token_centres_mm)
        return self._full_look(view, raw, logc, light, zone, clipped, lit, changed, still, token_centres_mm)

    def _fit_light(self, view: RectifiedZone, raw: FloatImage, zone: Mask, clipped: Mask3 | None,
                   step: FloatImage | None = None) -> Light:
        """:meth:`vision.zone_light.LightModel.fit` of this frame: the bands measured against
        the look or, until there is one, the frame before, on the zone's bare outline band
        (away from the cards of the last two looks: with the last one's only, a thing found
        in one look and not the next changes where the light is measured, and so the next
        look, frame after frame), in each colour clipped in neither."""
        learned = self.background.learned
        against = self.background.reference if learned else self._previous
        if against is None:
            return Light(step=step)
        against_clipped = self.background.clipped if learned else self._clipped_before
        either = [m for m in (clipped, against_clipped) if m is not None]
        usable: Mask3 | None = ~either_of(either) if either else None
        clear = self._rim & zone
        if usable is not None:
            clear &= any_colour(usable)
        for known in (self._seen.known, self._seen.known_before):
            if known is not None:
                clear &= ~known
        return self.light.fit(view, raw, against, clear, usable, step)

    def _changed(self, logc: FloatImage, zone: Mask, clipped: Mask3 | None,
                 token_centres_mm: Sequence[tuple[float, float]]) -> float:
        """The share of the zone that changed since the frame before (1.0 on the first)."""
        cfg = self.config
        changed = 1.0
        if self._previous is not None:
            # a colour clipped in either frame tells nothing, the pixel's other colours still
            # do (a pale blue print under a cold light clips its blue over the whole zone: a
            # hand coming in over it darkens its red and green)
            moved = _moved(_unclipped(logc, self._previous, clipped, self._clipped_before),
                           self._previous, zone, cfg.change)
            lying = self._tokens_lying(token_centres_mm)
            if lying:
                # a token lying where it lay: its black marker's log colour is the sensor's
                # noise in a dim or warm room, which would read as a hand moving over the zone
                moved &= self._discs(moved.shape, lying) == 0
            k = max(3, int(round(cfg.change_blob_mm * self.window.px_per_mm)) | 1)
            opened = cv2.morphologyEx(moved.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
            changed = float(np.count_nonzero(opened)) / max(int(zone.sum()), 1)
        self._previous = logc
        self._clipped_before = clipped
        self._tokens_before = tuple(token_centres_mm)
        return changed

    def _as_before(self, last: ZoneLook, raw: FloatImage, zone: Mask, learned: bool) -> bool:
        """May a still frame keep the last look? Not when the look's state changed since, nor
        while something lies there unexplained (a card touching another, found in one look
        and not the next, or a card's edge a flickering light's bright band had clipped, may
        be found in this one), nor, in the first still frame after one that moved, when a
        new shadow's edge shows (sought over the cards in still frames only: a hand moving
        over the zone is no edge, and the dealer judges nothing then)."""
        unsought, self._edge_unsought = self._edge_unsought, False
        if last.occupancy.empty_learned != learned or last.occupancy.unexplained_fraction > self.config.occupied_above:
            return False
        return not (unsought and learned and (self._new_edge(raw, zone, self._seen.quads) is not None
                                              or self._edge_since_settled(raw, zone) is not None))

    def _kept_look(self, last: ZoneLook, view: RectifiedZone, logc: FloatImage, raw: FloatImage, zone: Mask,
                   clipped: Mask3 | None, changed: float, token_centres_mm: Sequence[tuple[float, float]]) -> ZoneLook:
        """Nothing moved: the same cards lie there; the background may learn the frame."""
        occupancy = dataclasses.replace(last.occupancy, changed_fraction=changed, still=True)
        if occupancy.unexplained_fraction <= self.config.occupied_above / 4:
            self._settle(self._seen.quads, raw)
        look = self._last = ZoneLook(last.cards_px, occupancy, view, kept=True)
        if self._seen.new_step is not None:
            logc = self._learnable(logc, raw, self._fit_light(view, raw, zone, clipped, self._seen.new_step))
        self._learn(logc, occupancy, token_centres_mm, clipped, raw)
        return look

    def _full_look(self, view: RectifiedZone, raw: FloatImage, logc: FloatImage, light: Light, zone: Mask,
                   clipped: Mask3 | None, lit: Mask, changed: float, still: bool,
                   token_centres_mm: Sequence[tuple[float, float]]) -> ZoneLook:
        """The cards looked for in the frame lit as the look (``logc``: ``raw`` without the
        bands of ``light``), and what else differs from it."""
        cfg = self.config
        background = self.background
        learned = background.learned
        area = max(int(zone.sum()), 1)
        # against the print's fit, only a clear difference counts (the fit is rougher)
        cards_cfg = cfg.cards if learned else dataclasses.replace(cfg.cards, min_difference=cfg.unexplained_print)
        if learned:
            empty = background.reference
            assert empty is not None
            # a colour clipped in the frame or in the look is no difference (else the bare
            # print where the look was clipped reads brighter, and joins a card's patch)
            quads = find_cards(view, empty, zone, cards_cfg, self.zone, logc=background.censored(logc, clipped),
                               light_reference=self._rim)
            stepped = self._without_new_shadow_edge(view, raw, zone, quads, cards_cfg, clipped, still)
            self._edge_unsought = not still
            if stepped is not None:
                light, quads = stepped
            new_step = light.step
        else:
            self._edge_unsought = False
            new_step = None
            light = light.fit_gain(logc, None, zone)
            quads = find_cards(view, light.explain(None), zone, cards_cfg, self.zone, logc=logc)
            light, quads = self._without_shadow_edge(view, logc, light, zone, quads, cards_cfg)
        seen = logc if light.step is None else light.flat(raw)  # the frame as compared with the look
        # what differs from the look and is no card and no token
        known = self._cards_mask(zone.shape, quads, token_centres_mm)
        bare = zone & ~known
        if learned:
            # the light may have changed since the look was learned (a camera's auto-exposure
            # as white cards come in, a cloud, a lamp moved): the bare mat round the cards and
            # tokens tells by how much, not the cards (two white cards and a token cover half
            # the play zone: their change is no change of light), measured where the look is
            # as new as the light's last step (where it is older, the difference is that step,
            # not the room's drift)
            current = bare if background.stale is None else bare & ~background.stale
            light = light.fit_gain(seen, background.reference,
                                   current if np.count_nonzero(current) >= 0.25 * area else bare)
            expected = light.explain(background.reference)
        else:
            expected = light.explain(None)
        bar = cfg.unexplained_learned if learned else cfg.unexplained_print
        if clipped is not None or (learned and background.clipped is not None):
            seen = censored(seen, expected, clipped, background.clipped if learned else None)
        odd = (difference(seen, expected, bare) >= bar).astype(np.uint8)
        odd = np.asarray(cv2.morphologyEx(odd, cv2.MORPH_OPEN, self._thing_disc()), np.uint8)
        unexplained = float((odd & bare).sum()) / area
        occupied = bool(quads) or unexplained > cfg.occupied_above
        if still and unexplained <= cfg.occupied_above / 4:
            self._settle(quads, raw)
        occupancy = Occupancy(occupied, unexplained, changed, still, learned, len(quads))
        # with cards there, only what the dealer would ask about is worth learning as light
        odd_lit = bare & lit & background.lit()
        light_only = unexplained > (cfg.occupied_above if quads else 0.0) and light_alone(
            seen, expected, odd_lit, odd, self._rim, background.stale, self.light.rows(view), bar,
            cfg.shadow_chroma, self._thing_disc())
        held = None
        if new_step is not None and not light_only and unexplained > 0:
            held, _ = unlit_patches(seen, expected, odd_lit, odd, self._rim, background.stale, cfg.shadow_chroma,
                                    self._thing_disc())
        self._seen = _Seen(quads, known, self._seen.known, new_step, light_only, held)
        look = self._last = ZoneLook(tuple(view.to_crop(q) for q in quads), occupancy, view)
        # (only a still frame is learned: the frame to learn is not worked out for the others)
        self._learn(self._learnable(logc, raw, light) if still else logc, occupancy, token_centres_mm, clipped, raw)
        return look

    def _learnable(self, logc: FloatImage, raw: FloatImage, light: Light) -> FloatImage:
        """The frame the background may learn: ``logc``, the frame evened out row by row of
        the camera. But when a new shadow's edge was taken out (``light.step``) and no bands
        are left beside it, those "bands" were the edge's own step along the camera's rows,
        and evening them out bends the frame by up to the step's depth: the frame as it is
        (``raw``) is learned, the edge's step with it. (With bands left beside the step, the
        light flickers, and the step may be one of its bands.)"""
        return raw if light.step is not None and self._seen.new_step is not None and light.bands is None else logc

    def _learn(self, frame: FloatImage, seen: Occupancy, token_centres_mm: Sequence[tuple[float, float]],
               clipped: Mask3 | None, raw: FloatImage) -> None:
        """Let the background learn this frame: still and empty, or light alone (a shadow
        came or went: then also on the bare mat round the cards and tokens lying there)."""
        cfg = self.config
        step = self._seen.new_step
        shadow = self._seen.light_only or step is not None
        quiet = seen.still and not seen.cards and not token_centres_mm and (
            seen.unexplained_fraction <= cfg.occupied_above / 4 or shadow)
        kept_as = None
        if step is not None and self._seen.held is not None and self.background.empty is not None:
            # what was left beside the edge keeps the old look, lit as the edge says
            kept_as = np.asarray(self.background.empty + step[..., None], np.float32)
        if self.background.learn(frame, quiet=quiet, still=seen.still, shadow=shadow, known=self._seen.known,
                                 clipped=clipped, kept=self._seen.held, kept_as=kept_as):
            # a new look: the next frame is looked at afresh, and the settled cards' frame,
            # against which a new edge is measured, takes the step too (else the same edge
            # is found again in every frame, and taken out of a look that already has it)
            self._seen = dataclasses.replace(self._seen, light_only=False)
            self._last = None
            if self._settled_raw is not None:
                self._settled_raw = raw

    def _arm_across(self, logc: FloatImage, valid: Mask, clipped: Mask3 | None, lit: Mask,
                    token_centres_mm: Sequence[tuple[float, float]]) -> Mask | None:
        """What differs from the learned look of the zone and its margin, away from the
        tokens, and reaches from one edge of the view to the opposite one (out of view both
        ways: a card laid over the zone's edge reaches out of it on one side at most), with a
        colour of its own across the zone where no colour is clipped (``lit``): an arm; None
        if nothing is."""
        cfg = self.config
        empty = self.background.reference
        assert empty is not None
        seen = self.background.censored(logc, clipped)
        where = valid & (self._discs(valid.shape, token_centres_mm) == 0)
        odd = (difference(seen, empty, where, self._rim) >= cfg.unexplained_learned).astype(np.uint8)
        odd = np.asarray(cv2.morphologyEx(odd, cv2.MORPH_OPEN, self._thing_disc()), np.uint8)
        # the cards of the last full look are in ``odd`` too (an arm over them joins them):
        # the share is of the view round them
        bare = where if self._seen.known is None else where & ~self._seen.known
        if np.count_nonzero(odd & bare) > cfg.arm_most * max(int(np.count_nonzero(bare)), 1):
            return None  # the light changed over the whole view (or most of it)
        across = reaches_across(odd > 0, view_edges(valid, cfg.arm_side_mm * self.window.px_per_mm))
        if across is None:
            return None
        # ... and no light: it has a colour of its own from one side of the zone to the other
        # (the paper round the zone may be clipped white, where no colour tells)
        skin = reaches_across(coloured(seen, empty, across & lit, where & self._rim, cfg.shadow_chroma,
                                       self._thing_disc()), self._sides)
        return None if skin is None else across

    def _arm_look(self, view: RectifiedZone, arm: Mask, changed: float, learned: bool) -> ZoneLook:
        """The look of a frame with an arm moving across the zone: no cards looked for, the
        arm unexplained; what the zone's state keeps is what a moving full look keeps."""
        area = max(int(np.count_nonzero(self._inside & view.valid)), 1)
        occupancy = Occupancy(True, float(np.count_nonzero(arm)) / area, changed, False, learned, 0, True)
        self._edge_unsought = learned  # the next still frame seeks a new shadow's edge afresh
        # no cards seen, and no bare rim to measure the light on under the arm
        self._seen = _Seen(known=arm, known_before=self._seen.known)
        self.background.interrupted()  # a moving frame: nothing is learned
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

    def _cards_mask(self, shape: tuple[int, ...], quads: Sequence[FloatArray],
                    token_centres_mm: Sequence[tuple[float, float]] = ()) -> Mask:
        """The cards found (and the tokens' discs), grown by their rim (``card_rim_mm``)."""
        known = self._discs(shape, token_centres_mm)
        for q in quads:
            cv2.fillConvexPoly(known, np.round(q).astype(np.int32), 1)
        r = max(3, int(round(2 * self.config.card_rim_mm * self.window.px_per_mm)) | 1)
        grown: Mask = cv2.dilate(known, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (r, r))) > 0
        return grown

    def _thing_disc(self) -> npt.NDArray[np.uint8]:
        """A disc ``thing_mm`` wide: differences thinner than it are print, noise or a shadow's rim."""
        k = max(3, int(round(self.config.thing_mm * self.window.px_per_mm)) | 1)
        return np.asarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)), np.uint8)

    # -- a shadow's straight edge ------------------------------------------------------------

    def _without_shadow_edge(self, view: RectifiedZone, logc: FloatImage, light: Light, zone: Mask,
                             quads: list[FloatArray], cards_cfg: ZoneCardConfig) -> tuple[Light, list[FloatArray]]:
        """At first sight (the look is the print's fit), a still shadow's straight edge
        across the zone taken out (:mod:`vision.shadow_edge`): the light with that step and
        the print's fit beyond it, and the cards found in the frame so lit; ``light`` and
        ``quads`` as they are when there is no such edge.

        The cards already found against the plain print's fit are told to it: a card's long
        side, nearly as long as the zone is high, under a light that leaves the card the
        print's colour (a cold light, the black-and-white kit) is a straight neutral step
        too, but the print beyond the card is not lit."""
        step = self.light.edge(logc, zone, self._cards_mask(zone.shape, quads))
        if step is None:
            return light, quads
        stepped = Light(bands=light.bands, step=step).fit_gain(np.asarray(logc - step[..., None], np.float32),
                                                                None, zone)
        return stepped, find_cards(view, stepped.explain(None), zone, cards_cfg, self.zone,
                                   logc=np.asarray(logc - step[..., None], np.float32))

    def _without_new_shadow_edge(self, view: RectifiedZone, raw: FloatImage, zone: Mask, quads: list[FloatArray],
                                 cards_cfg: ZoneCardConfig, clipped: Mask3 | None,
                                 still: bool) -> tuple[Light, list[FloatArray]] | None:
        """Once the look is learned, a still shadow's straight edge that came since (a player
        leaning over, a lamp on the camera's stand that was knocked) taken out as at first
        sight, measured on the bare mat's difference from the look: the frame's light with
        that step and the cards found in the frame so lit; None when there is no such edge.
        Without this, the edge's band reads as a thing beside the cards, or as cards.

        The edge is measured on ``raw``, the frame before its bands are taken out (an edge
        across the camera's rows is no band, and evening the rows out bends it); the bands
        are measured once the step is taken out."""
        empty = self.background.reference
        assert empty is not None

        def taken_out(step: FloatImage) -> tuple[Light, list[FloatArray]]:
            light = self._fit_light(view, raw, zone, clipped, step)
            cut = self.background.censored(light.flat(raw), clipped)
            return light, find_cards(view, empty, zone, cards_cfg, self.zone, logc=cut, light_reference=self._rim)

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

    def _new_edge(self, raw: FloatImage, zone: Mask, quads: Sequence[FloatArray],
                  whole_zone: bool = True) -> FloatImage | None:
        """The step of a shadow's edge in the frame's difference from the learned look, away
        from the cards ``quads`` (view pixels); with ``whole_zone``, also over them when it
        is not found there (dearer: a frame that moved is not measured so)."""
        empty = self.background.reference
        assert empty is not None
        cards = self._cards_mask(zone.shape, quads)
        delta = np.asarray(raw - empty, np.float32)
        step = self.light.edge(delta, zone & ~cards, cards)
        if step is None and quads and whole_zone:
            # the edge's band itself may have been cut into "cards": measured over the whole
            # zone, a card's own colour is left out as at first sight
            step = self.light.edge(delta, zone, cards)
        return step

    def _edge_since_settled(self, raw: FloatImage, zone: Mask) -> FloatImage | None:
        """The step of a shadow's edge in the frame's difference from the frame where the
        settled cards lay (``_settled_raw``), over the whole zone. Those cards may cover most
        of the edge's line (two touching cards, the edge across them), and the bare print
        beside them is too little to measure it on; their own difference from that frame is
        the light alone, as the print's is. None without such a frame or edge."""
        if self._settled_raw is None:
            return None
        return self.light.edge(np.asarray(raw - self._settled_raw, np.float32), zone)

    def _settle(self, quads: list[FloatArray], raw: FloatImage) -> None:
        """The cards ``quads`` lie settled in this still frame (``raw``) with nothing else there."""
        self._settled_quads = quads
        self._settled_raw = raw if quads else None

    def _settled_lost(self, found: Sequence[FloatArray]) -> int:
        """How many of the settled cards ``found`` lacks."""
        return sum(1 for q in self._settled_quads if not _among(q, found))

    def _hides_cards(self, quads: Sequence[FloatArray], found: Sequence[FloatArray]) -> bool:
        """Would taking a new edge out lose a card found without it (``quads``; ``found``: with
        it) that lay there before anything changed, with nothing else unexplained
        (``_settled_quads``)? Touching cards' long sides make one straight line that may pass
        for a shadow's edge; taken out, it lights a card as the bare print, and the card is
        learned into the look. A real edge taken out may rightly lose a piece of its own
        band found as a card (a card found only since the light changed)."""
        return any(not _among(q, found) for q in quads if _among(q, self._settled_quads))
