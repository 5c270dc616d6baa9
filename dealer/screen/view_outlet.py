"""The table view fed by the live dealer: frames in, happenings in, a picture out.

The live loop hands each frame and what the observer made of it to :meth:`ViewOutlet.see`,
and the outlet listens to the session's happenings (``Outlets(listeners=[outlet])``). It
keeps the last verdict (with its colour), the seal, and the round as the engine knows it,
shows the picture in the window (when there is a display), and at each decisive
happening (a verdict, a starter, a trouble) writes that same picture into the recording.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt

from calibration.layout import TableLayout
from calibration.table import TableHomography
from dealer.table.happenings import (
    AskedToLayAgain,
    Happening,
    Judged,
    RuleDisclosed,
    SealShown,
    StarterDecided,
    TroubleReported,
    VerdictTakenBack,
)
from dealer.screen.table_view import CameraPicture, SeenOutline, TableWindow, ViewState, render_view, view_of_round
from engine.events import Verdict
from engine.round import Round
from engine.variants.kruskal import KruskalRound
from vision.readings import CardDetections

__all__ = ["ViewOutlet", "camera_picture", "verdict_kind"]

BgrImage = npt.NDArray[np.uint8]
# The window is redrawn at most this often (seconds of frame time): a 2-core machine
# reads cards first, and a picture four times a second is smooth enough to follow play.
SHOW_EVERY_S = 0.25
# The picture kept in the recording: JPEG at this quality (a 1920x1080 view is ~200 kB).
RECORDED_JPEG_QUALITY = 85


def verdict_kind(happening: Happening) -> str | None:
    """The band colour of a happening (a key of table_view.VERDICT_COLOURS), or None to keep the last."""
    if isinstance(happening, Judged):
        verdict = happening.outcome.verdict
        if verdict is Verdict.ACCEPTED:
            return "accepted"
        if verdict is Verdict.REJECTED:
            return "rejected"
        if verdict is Verdict.PROPHET:
            return "prophet"
        return "noplay"
    if isinstance(happening, (AskedToLayAgain, TroubleReported)):
        return "trouble"
    if isinstance(happening, StarterDecided):
        return "accepted" if happening.taken else "info"
    if isinstance(happening, (VerdictTakenBack, RuleDisclosed)):
        return "info"
    return None


def camera_picture(frame_bgr: BgrImage, detections: CardDetections, homography: TableHomography | None,
                   layout: TableLayout | None) -> CameraPicture:
    """The frame with the cards read in it and the zones, in frame pixels."""
    cards = []
    for i in range(len(detections)):
        quad = tuple((float(x), float(y)) for x, y in np.asarray(detections.quad_xy[i]).reshape(-1, 2))
        label = detections.label[i]
        read = bool(detections.is_read[i]) and label is not None
        cards.append(SeenOutline(quad, str(label) if read else None, float(detections.confidence[i])))
    zones = []
    if homography is not None and layout is not None:
        for zone in layout.zones:
            pts = homography.to_px(list(zone.polygon_mm))
            zones.append((zone.name, tuple((float(x), float(y)) for x, y in np.asarray(pts).reshape(-1, 2))))
    return CameraPicture(frame_bgr, tuple(cards), tuple(zones))


class ViewOutlet:
    """A listener of happenings and a sink of frames; owns the window and the recorded pictures.

    ``round_now`` gives the round as the engine knows it (the session's; Howell's family or
    Kruskal's, whose view shows the line, the points and the seal); ``save`` stores
    an encoded picture in the recording (``RecordingWriter.save_view``), or None.
    """

    def __init__(self, round_now: Callable[[], Round | KruskalRound | None], window: TableWindow | None = None,
                 save: Callable[[float, int, bytes], object] | None = None, title: str = "Eleusis",
                 notes: tuple[str, ...] = ()) -> None:
        self._round_now = round_now
        self.window = window
        self._save = save
        self.state = ViewState(title=title, notes=notes)
        self._frame_index = 0
        self._t = 0.0
        self._shown_t: float | None = None
        self._saved: set[int] = set()
        self.pictures_saved = 0

    def see(self, frame_index: int, t: float, camera: CameraPicture | None) -> None:
        """A new frame and what was seen in it; redraws the window now and then."""
        self._frame_index, self._t = frame_index, t
        self.state = replace(self.state, camera=camera)
        if self.window is not None and not self.window.headless:
            if self._shown_t is None or t - self._shown_t >= SHOW_EVERY_S or t < self._shown_t:
                self._shown_t = t
                self.window.show(self.picture())

    def __call__(self, happening: Happening) -> None:
        """One happening of the session: the verdict band, the seal; a decisive one is recorded."""
        if isinstance(happening, SealShown):
            self.state = replace(self.state, seal=happening.commitment)
        if isinstance(happening, RuleDisclosed):  # the round-over view: the rule and the scores (G3, G6)
            self.state = replace(self.state, revealed=happening.text)
        kind = verdict_kind(happening)
        if kind is not None:
            self.state = replace(self.state, verdict=happening.text, verdict_kind=kind)
        if happening.decisive or isinstance(happening, RuleDisclosed):
            picture = self.picture()
            if self.window is not None:
                self.window.show(picture)
                self._shown_t = self._t
            self._record(picture, again=isinstance(happening, RuleDisclosed))

    def picture(self) -> BgrImage:
        """The view as it is now, with the round as the engine knows it."""
        self.state = view_of_round(self._round_now(), self.state)
        return render_view(self.state)

    def _record(self, picture: BgrImage, again: bool = False) -> None:
        """Keep the picture once a frame; ``again``: the round-over view, kept even after the
        last verdict's picture of the same frame."""
        if self._save is None or self._frame_index in self._saved and not again:
            return
        ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, RECORDED_JPEG_QUALITY])
        if ok:
            self._saved.add(self._frame_index)
            self._save(self._t, self._frame_index, jpeg.tobytes())
            self.pictures_saved += 1

    def close(self) -> None:
        if self.window is not None:
            self.window.close()
