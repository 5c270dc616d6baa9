"""From a camera frame to a :class:`~dealer.table.protocol.TableView`.

Per frame: the mat markers give the table homography (calibration.table.TableTracker),
the tokens are found by their markers (calibration.tokens), the cards by vision
(vision.table_read.TableReader, with a :class:`ZoneReader`), and every card centre is mapped to table millimetres to decide which
zone it lies in. Only the play zone matters to the turn protocol; the main line and the
side branches are kept for the layout watch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
import cv2
import numpy as np
import numpy.typing as npt

from calibration.check import ZoneSight, zone_sights
from calibration.layout import ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES, TableLayout
from calibration.markers import MarkerDetections, detect_markers
from calibration.table import TableHomography, TableTracker, TrackState, TrackUpdate, map_points
from calibration.tokens import tokens_from_detections
from dealer.table.layout_watch import PLACED_S
from dealer.table.regions import markers_in_boxes
from dealer.table.protocol import LineSight, SeenCard, TableView, TableToken
from dealer.table.turn_input import Unseen
from vision.geometry import card_sized_mm
from vision.picture_shift import PictureShift, Shift
from vision.readings import CardDetections
from vision.table_read import TableReader, ZoneReader
from vision.zone_motion import Box
from vision.zone_view import crop_box

__all__ = ["ZoneReader", "Observation", "TableObserver"]

_TOKENS = {"noplay": TableToken.NO_PLAY, "no_play": TableToken.NO_PLAY, "prophet": TableToken.PROPHET,
           "accept": TableToken.ACCEPT, "reject": TableToken.REJECT}

# Cards are looked for inside each zone's box widened by this much (mm) on every side: a
# card laid across the zone's edge still has its centre inside, and its corners are here.
ZONE_MARGIN_MM = 20.0
# The message of a frame with the mat found but the play zone not all in view (no view given).
PLAY_ZONE_NOT_WHOLE = "the play zone is not whole in view"
# Share of a zone that differs from its empty look and that no card or token found there
# explains, above which something unreadable lies in it (a card too crooked, covered or
# dim to find, or a resting hand): a card is ~10 % of the play zone, so half a card is
# well above it, and the noise of the empty-look model (shadows, light drift) well below.
UNEXPLAINED_FRACTION = 0.02
# Markers are looked for over the whole frame this often (seconds), and in between only
# in boxes where they can be: a token laid outside the zones, or a camera that moved, is
# seen within this time.
WHOLE_FRAME_EVERY_S = 1.0
# The line zones (main line, side branches) are looked at this often (seconds): as often as
# the layout watch wants a layout unchanged before it counts (layout_watch.PLACED_S), so two
# looks alike settle it. A look at the whole layout costs several times the play zone's (at
# 1080p, about 150 ms against 60 ms of processor), so looking at it every frame would cut the
# frame rate the play zone's verdicts need to a third. The zones moving in the frame (the
# camera moved) or coming into view are looked at at once.
LINE_EVERY_S = PLACED_S
# The mat's markers are looked for this often (seconds) between two looks over the whole
# frame: the camera stands still, and the homography is kept in between.
MAT_EVERY_S = 0.5
# ... unless the picture has moved this much (frame pixels) since they were: a camera on a
# springy stand or in a hand moves it a pixel or two a frame (vision/picture_shift.py), and
# the zones must follow it or they slide under the cards like a hand over them.
LOOK_AGAIN_MOVED_PX = 1.0
# A picture that moved this much (pixels) from one frame to the next: the camera moved.
CAMERA_MOVING_STEP_PX = 0.7
# Tokens in the play zone are looked for at this scale of the frame: a token's marker is
# 50 mm, still ~35 px at half the resolution of a 1.4 px/mm view (6 cells of 6 px). A
# quarter would be cheaper, but loses the NO PLAY token in the frames of a knocked camera.
TOKEN_SEARCH_SCALE = 0.5
# Once the mat is located, the whole frame and the mat's boxes are searched at half
# resolution when the smallest marker is still this many pixels a side there: its corners
# are then refined at full resolution (calibration.markers.detect_markers, within ~0.05 px),
# so the homography keeps its accuracy at about half the detector's work.
MARKER_SEARCH_SIDE_PX = 24.0
# Around each mat marker's expected place, this share of its side is searched too (the
# homography's error and a small nudge of the camera stay inside it).
MARKER_BOX_MARGIN = 0.6
# Around each zone, tokens are looked for this far out (mm): a token tile (60 mm) laid
# over the zone's edge has its marker inside.
TOKEN_BOX_MARGIN_MM = 60.0
# Once the mat is located, markers are looked for down to this share of the smallest
# marker's side anywhere on the layout in view (its most squashed side): the homography's
# error and a token tilted or held up stay well above it, and the many smaller squares of
# card faces and print (most of the detector's work) are never decoded.
SMALLEST_MARKER_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class ZoneState:
    """One zone in one frame, besides its cards."""

    moving: bool  # a hand or a card moves over it, or an arm reaches across it: nothing is judged on this frame
    unexplained: bool  # something lies there that no card found explains (unreadable)
    arm: bool = False  # an arm reaches across it (vision.occupancy.Occupancy.arm): waited for in silence


@dataclass(frozen=True)
class Observation:
    """One frame, understood: the view for the session, and the play zone's detections
    (left to right, frame pixels) for the recording and the review."""

    view: TableView | None  # None while the mat is not located
    message: str
    play_detections: CardDetections = field(default_factory=CardDetections.empty)
    homography: TableHomography | None = None  # table mm <-> frame px, once the mat is located
    detections: CardDetections = field(default_factory=CardDetections.empty)  # every zone's cards, frame px
    unseen: Unseen | None = None  # why no view was given (None: a view was); ``message`` is for a log only


_LINE_ZONES = frozenset({ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES})


def token_of(name: str) -> TableToken | None:
    return _TOKENS.get(name.lower().replace(" ", "_"))


class TableObserver:
    def __init__(self, layout: TableLayout, reader: ZoneReader, tracker: TableTracker | None = None) -> None:
        self.layout = layout
        self.reader = reader
        self.tracker = tracker or TableTracker(layout)
        self._table = TableReader(reader, layout, ZONE_MARGIN_MM)
        self._whole_frame_at: float | None = None  # when markers were last looked for everywhere
        self._mat_at: float | None = None  # when the mat's markers were last looked for
        self._update: TrackUpdate | None = None  # the table tracker's last word
        self._looked_everywhere = False  # this frame's markers were looked for over the whole frame
        # where the PROPHET token was last seen: it may lie outside the boxes looked at between
        # two looks over the whole frame, so only such a look can say it has gone (F2)
        self._prophet_at: tuple[float, float] | None = None
        self._sights_for: tuple[tuple[bytes, int, int], dict[str, ZoneSight]] | None = None  # this homography's
        self._picture = PictureShift()  # how far the picture moved, frame to frame and since the mat was looked for
        self._mat_side_px: float | None = None  # the smallest side of the mat's markers when last looked for
        self._shift: Shift | None = None
        self._camera_moved_at: float | None = None  # when the picture last moved by itself
        # the line zones' last look: when, with which homography and zones, and what it saw
        self._line_look: tuple[float, npt.NDArray[np.float64], frozenset[str], CardDetections, dict[str, ZoneState]] | None = None

    def camera_moved_within(self, t: float, seconds: float) -> bool:
        """Whether the picture itself moved (the camera, not a hand) in the ``seconds`` before ``t``."""
        return self._camera_moved_at is not None and 0.0 <= t - self._camera_moved_at <= seconds

    def _measure_picture(self, frame_bgr: npt.NDArray[np.uint8], t: float) -> None:
        """How far the whole picture moved (vision/picture_shift.py), and when it last moved by itself."""
        self._shift = shift = self._picture.measure(frame_bgr)
        if shift is not None and max(abs(shift.step[0]), abs(shift.step[1])) >= CAMERA_MOVING_STEP_PX:
            self._camera_moved_at = t

    def _markers(self, frame_bgr: npt.NDArray[np.uint8], t: float) -> tuple[MarkerDetections, bool]:
        """The markers in view, and whether the mat's own markers were looked for.

        Over the whole frame now and then (a token laid outside the zones, a camera that
        moved); else the tokens in the play zone's box at half resolution every frame, and
        the mat's markers in small boxes where the homography puts them twice a second, or
        as soon as the picture moved a pixel since they were. Once the mat is located, the
        mat's markers are looked for at half resolution and their corners refined at full
        resolution."""
        homography = self.tracker.homography
        shift = self._shift
        locked = homography is not None and self.tracker.state is TrackState.LOCKED
        height, width = frame_bgr.shape[:2]
        px_per_mm = (self._least_px_per_mm(homography, width, height)
                     if locked and homography is not None else None)
        smallest = scale = None
        if px_per_mm is not None:
            sizes = [m.size_mm for m in self.layout.markers] + [t.marker_size_mm for t in self.layout.tokens]
            smallest = SMALLEST_MARKER_SHARE * min(sizes) * px_per_mm
            # the smallest marker as the homography puts it (at its most squashed), or as the
            # mat's markers were last seen: a whole layout in view is squashed far less at
            # its markers than at the far corner of its zones
            side = max(min(sizes) * px_per_mm, self._mat_side_px or 0.0)
            scale = 0.5 if 0.5 * side >= MARKER_SEARCH_SIDE_PX else 1.0
        if (homography is None or not locked or self._whole_frame_at is None
                or not 0.0 <= t - self._whole_frame_at < WHOLE_FRAME_EVERY_S):
            self._whole_frame_at = self._mat_at = t
            self._looked_everywhere = True
            self._picture.reset()
            return self._mat_seen(detect_markers(frame_bgr, self.layout.dictionary, min_side_px=smallest,
                                                 scale=scale or 1.0)), True
        self._looked_everywhere = False
        play = self._box_px(homography, self.layout.zone(ZONE_PLAY).polygon_mm, TOKEN_BOX_MARGIN_MM, width, height)
        tokens = markers_in_boxes(frame_bgr, [play] if play else [], self.layout.dictionary,
                                  TOKEN_SEARCH_SCALE, min_side_px=smallest)
        still = shift is not None and shift.since_reset_px < LOOK_AGAIN_MOVED_PX
        if self._mat_at is not None and 0.0 <= t - self._mat_at < MAT_EVERY_S and still:
            return tokens, False
        self._mat_at = t
        self._picture.reset()
        boxes = [self._box_px(homography, m.corners_mm, m.size_mm * MARKER_BOX_MARGIN, width, height)
                 for m in self.layout.markers]
        return self._mat_seen(markers_in_boxes(frame_bgr, [b for b in boxes if b is not None], self.layout.dictionary,
                                               scale or 1.0, also=tokens, min_side_px=smallest)), True

    def _mat_seen(self, markers: MarkerDetections) -> MarkerDetections:
        """Keep the smallest side of the mat's markers found (None when none was: the next
        look is at full resolution)."""
        mat = np.isin(markers.ids, np.fromiter(self.layout.table_marker_ids, np.int64))
        if not mat.any():
            self._mat_side_px = None
            return markers
        quads = markers.corners_px[mat]
        self._mat_side_px = float(np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2).min())
        return markers

    def _least_px_per_mm(self, homography: TableHomography, width: int, height: int) -> float | None:
        """Frame pixels a millimetre of the table measures at least, in its most squashed
        direction, where the zones and the mat are in view (None when none is): a marker of
        ``s`` mm is at least ``s`` times this a side."""
        places = np.array([p for z in self.layout.zones for p in z.polygon_mm]
                          + [p for m in self.layout.markers for p in m.corners_mm], np.float64)
        h = homography.table_to_px
        at = map_points(h, places)
        seen = (at[:, 0] >= 0) & (at[:, 0] < width) & (at[:, 1] >= 0) & (at[:, 1] < height)
        if not seen.any():
            return None
        base = at[seen]
        # a millimetre along x and along y from each place: the view's most squashed direction
        jac = np.stack([map_points(h, places[seen] + [1.0, 0.0]) - base,
                        map_points(h, places[seen] + [0.0, 1.0]) - base], axis=-1)
        return float(np.linalg.svd(jac, compute_uv=False).min())

    @staticmethod
    def _box_px(homography: TableHomography, polygon_mm: Sequence[tuple[float, float]], margin_mm: float,
                width: int, height: int) -> Box | None:
        """The frame box around a table polygon widened by ``margin_mm``; None when out of view."""
        return crop_box(polygon_mm, homography.table_to_px, (width, height), margin_mm)

    def observe(self, frame_bgr: npt.NDArray[np.uint8], t: float, index: int) -> Observation:
        self._measure_picture(frame_bgr, t)
        markers, mat_looked = self._markers(frame_bgr, t)
        moved = self._shift.since_reset if self._shift is not None else None
        update = (self.tracker.update(markers, picture_moved=moved) if mat_looked or self._update is None
                  else self._update)
        self._update = update
        homography = update.homography
        if (homography is None or update.state is TrackState.LOST or update.rejected_frame
                or update.markers_seen == 0):
            # no mat marker in view (an arm over the mat, the camera turned away), or a mat
            # that seems to have moved, not yet confirmed (calibration.table.TableTracker): the
            # zones may not be where the kept homography puts them, so nothing is read there (a
            # line card could sit in the play zone's old place) until the mat is seen again
            return Observation(None, update.message, unseen=Unseen.NO_MAT)
        play_sight = self._play_zone_sight(homography, frame_bgr.shape[1], frame_bgr.shape[0])
        if play_sight is not None and not play_sight.whole_in_view:
            # the camera was turned: cards in the zone's missing part cannot be seen, so none is judged
            return Observation(None, f"{PLAY_ZONE_NOT_WHOLE} ({play_sight.corners_in_view} of "
                                     f"{play_sight.corners} corners)", unseen=Unseen.ZONE_OUT)
        tokens_in_play: dict[TableToken, tuple[float, float]] = {}
        prophet_at: tuple[float, float] | None = None
        sightings = tokens_from_detections(markers, self.layout, homography)
        token_px = [s.centre_px for s in sightings]
        for sighting in sightings:
            token = token_of(sighting.name)
            if token is None or sighting.centre_mm is None:
                continue
            if token is TableToken.PROPHET:
                prophet_at = self._prophet_at = sighting.centre_mm  # F2: anywhere on the table
            elif sighting.zone == ZONE_PLAY:
                tokens_in_play[token] = sighting.centre_mm
        if prophet_at is None and self._looked_everywhere:
            self._prophet_at = None
        prophet_at = prophet_at or self._prophet_at
        readable = self._zones_readable(homography, frame_bgr.shape[1], frame_bgr.shape[0])
        tokens_mm = [s.centre_mm for s in sightings if s.centre_mm is not None]
        detections, states = self._read_zones(frame_bgr, homography, {ZONE_PLAY}, tokens_mm)
        line_found, line_states = self._line_zones(frame_bgr, homography, readable & _LINE_ZONES, tokens_mm, t)
        detections = CardDetections.concatenate([detections, line_found])
        states.update(line_states)
        play = states.get(ZONE_PLAY, ZoneState(False, False))
        zones: dict[str, list[SeenCard]] = {ZONE_PLAY: [], ZONE_MAIN_LINE: [], ZONE_SIDE_BRANCHES: []}
        in_play: list[int] = []
        if len(detections):
            centres_mm = homography.to_table_mm(detections.center_xy)
            for i in range(len(detections)):
                if detections.cut[i] or not card_sized_mm(homography.to_table_mm(detections.quad_xy[i])):
                    continue
                if any(cv2.pointPolygonTest(detections.quad_xy[i], p, False) >= 0 for p in token_px):
                    continue  # a token tile is about a card's size: it is no card
                x_mm, y_mm = (float(v) for v in centres_mm[i])
                zone = self.layout.zone_at(x_mm, y_mm)
                if zone not in zones:
                    continue
                card = detections.label[i] if detections.is_read[i] else None
                maybe = detections.maybe[i] if card is None and not detections.face_down[i] else None
                zones[zone].append(SeenCard(card, x_mm, y_mm, float(detections.confidence[i]), maybe,
                                            face_down=card is None and bool(detections.face_down[i])))
                if zone == ZONE_PLAY:
                    in_play.append(i)
        in_play.sort(key=lambda i: float(centres_mm[i][0]))  # left to right, as played (P1)
        line = None
        if ZONE_MAIN_LINE in readable:
            line = LineSight(tuple(zones[ZONE_MAIN_LINE]),
                             tuple(zones[ZONE_SIDE_BRANCHES]) if ZONE_SIDE_BRANCHES in readable else None,
                             prophet_at, busy=any(states[z].moving for z in _LINE_ZONES if z in states))
        view = TableView(t=t, play_cards=tuple(zones[ZONE_PLAY]), tokens_in_play=tokens_in_play,
                         prophet_token_out=prophet_at is not None, frame=index,
                         hand_over_play=play.moving, unexplained_in_play=play.unexplained, line=line)
        return Observation(view, update.message, detections[np.asarray(in_play, np.int64)], homography, detections)

    def _read_zones(self, frame_bgr: npt.NDArray[np.uint8], homography: TableHomography, names: set[str],
                    tokens_mm: Sequence[tuple[float, float]]) -> tuple[CardDetections, dict[str, ZoneState]]:
        """The cards inside each zone's box (widened by ``ZONE_MARGIN_MM``), in frame pixels,
        and each zone's state (vision.table_read.TableReader): something moving over it (a
        hand, a card on its way, an arm reaching across it to the layout), and something
        lying there that no card found explains (vision/occupancy.py).

        Looking only where cards may lie keeps the mat's own outline (a white sheet of
        about a card's proportions) and the room out of the detector, and saves time; a
        zone that has not changed since its cards were read keeps that reading.
        """
        step = None if self._shift is None else self._shift.step
        seen = self._table.read(frame_bgr, homography, sorted(names), tokens_mm, step)
        states: dict[str, ZoneState] = {}
        for zone in seen:
            # an arm across the zone is a hand over it, not a thing lying there unread: the
            # dealer waits for it in silence
            unexplained = (zone.occupancy is not None and not zone.arm
                           and zone.occupancy.unexplained_fraction > UNEXPLAINED_FRACTION)
            states[zone.name] = ZoneState(zone.moving, unexplained, zone.arm)
        parts = [zone.cards for zone in seen if len(zone.cards)]
        return CardDetections.concatenate(parts), states

    def _line_zones(self, frame_bgr: npt.NDArray[np.uint8], homography: TableHomography, names: frozenset[str],
                    tokens_mm: Sequence[tuple[float, float]], t: float) -> tuple[CardDetections, dict[str, ZoneState]]:
        """The line zones' cards and states: looked at every ``LINE_EVERY_S``, and at once when
        the zones in view changed or moved in the frame by ``LOOK_AGAIN_MOVED_PX`` (the mat is
        found again every ``MAT_EVERY_S``, a fraction of a pixel off: no move); in between,
        their last look stands."""
        corners = homography.to_px([p for name in sorted(names) for p in self.layout.zone(name).polygon_mm]
                                   ) if names else np.zeros((0, 2))
        last = self._line_look
        if (last is not None and last[2] == names and 0.0 <= t - last[0] < LINE_EVERY_S
                and (not len(corners) or float(np.abs(corners - last[1]).max()) < LOOK_AGAIN_MOVED_PX)):
            return last[3], dict(last[4])
        key = corners
        found, states = self._read_zones(frame_bgr, homography, set(names), tokens_mm) if names else (
            CardDetections.empty(), {})
        self._line_look = (t, key, names, found, dict(states))
        return found, states

    def _sights(self, homography: TableHomography, width: int, height: int) -> dict[str, ZoneSight]:
        """How the camera sees each zone (calibration.check.zone_sights), kept per homography."""
        key = (homography.table_to_px.tobytes(), width, height)
        if self._sights_for is None or self._sights_for[0] != key:
            self._sights_for = (key, zone_sights(homography.table_to_px, (width, height), self.layout))
        return self._sights_for[1]

    def sights(self, width: int, height: int) -> dict[str, ZoneSight] | None:
        """How the camera sees each zone with the mat where it was last found (None: not found
        yet): what `eleusis calibrate table` reports, for the dealer to say (dealer/table/too_far.py)."""
        homography = self.tracker.homography
        return None if homography is None else self._sights(homography, width, height)

    def _zones_readable(self, homography: TableHomography, width: int, height: int) -> frozenset[str]:
        """The zones the camera sees whole, at a resolution where a card index can be read:
        the one test `eleusis calibrate table` says."""
        return frozenset(name for name, sight in self._sights(homography, width, height).items() if sight.readable)

    def _play_zone_sight(self, homography: TableHomography, width: int, height: int) -> ZoneSight | None:
        return self._sights(homography, width, height).get(ZONE_PLAY)
