"""Temporal stability: a reading counts only once it holds still for several frames.

A card becomes *stable* when it has been seen at about the same place with the same
label in ``agree`` of the last ``window`` frames (by default 5 of 5: five frames in a
row). A frame where it is missing, unsure, cut or flagged (C1) counts as a
disagreement. So flicker between two labels, a hand passing over the cards (cards
vanish, or show a few odd readings) or a card slid across the table never makes a new
stable reading; a stable card keeps its label until another label has held as long,
and is forgotten after ``forget_after`` frames unseen.

Pure numpy and Python: one :meth:`StableReader.update` per frame, input untouched.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.readings import CardDetections

__all__ = ["StabilityConfig", "StableReader"]


@dataclass(frozen=True, slots=True)
class StabilityConfig:
    window: int = 5
    agree: int = 5
    max_shift_frac: float = 0.25  # of the card's diagonal, between two frames
    forget_after: int = 15

    def __post_init__(self) -> None:
        if not 1 <= self.agree <= self.window:
            raise ValueError(f"need 1 <= agree <= window, got agree={self.agree} window={self.window}")


@dataclass
class _Track:
    track_id: int
    quad_xy: npt.NDArray[np.float32]
    labels: deque[Card | None]
    confidences: deque[float]
    missed: int = 0
    stable: Card | None = None
    stable_confidence: float = 0.0
    face_down: bool = False

    @property
    def center(self) -> npt.NDArray[np.float32]:
        return np.asarray(self.quad_xy.mean(axis=0), dtype=np.float32)

    @property
    def diagonal(self) -> float:
        return float(np.linalg.norm(self.quad_xy[0] - self.quad_xy[2]))


class StableReader:
    """Feed it every frame's detections; it returns the stable cards, with ``track_id``."""

    def __init__(self, config: StabilityConfig = StabilityConfig()) -> None:
        self.config = config
        self._tracks: list[_Track] = []
        self._next_id = 0

    def update(self, detections: CardDetections) -> CardDetections:
        cfg = self.config
        read = detections.is_read
        labels: list[Card | None] = [lab if ok else None for lab, ok in zip(detections.label, read)]
        pairs = self._associate(detections)
        matched_tracks = {t for t, _ in pairs}
        matched_dets = {d for _, d in pairs}
        for t_index, d_index in pairs:
            track = self._tracks[t_index]
            track.quad_xy = detections.quad_xy[d_index].copy()
            track.labels.append(labels[d_index])
            track.confidences.append(float(detections.confidence[d_index]))
            track.face_down = bool(detections.face_down[d_index])
            track.missed = 0
        for t_index, track in enumerate(self._tracks):
            if t_index not in matched_tracks:
                track.labels.append(None)
                track.confidences.append(0.0)
                track.missed += 1
        for d_index in range(len(detections)):
            if d_index not in matched_dets and not detections.cut[d_index]:
                self._tracks.append(_Track(
                    self._next_id, detections.quad_xy[d_index].copy(),
                    deque([labels[d_index]], maxlen=cfg.window),
                    deque([float(detections.confidence[d_index])], maxlen=cfg.window),
                    face_down=bool(detections.face_down[d_index])))
                self._next_id += 1
        self._tracks = [t for t in self._tracks if t.missed < cfg.forget_after]
        for track in self._tracks:
            self._settle(track)
        return self.stable()

    def stable(self) -> CardDetections:
        """The stable cards now (last seen place, settled label)."""
        tracks = [t for t in self._tracks if t.stable is not None]
        if not tracks:
            return CardDetections.empty()
        return CardDetections(
            quad_xy=np.stack([t.quad_xy for t in tracks]),
            label=[t.stable for t in tracks],
            confidence=np.array([t.stable_confidence for t in tracks], np.float32),
            track_id=np.array([t.track_id for t in tracks], np.int64),
        )

    def _settle(self, track: _Track) -> None:
        cfg = self.config
        seen = [lab for lab in track.labels if lab is not None]
        if not seen or track.labels[-1] is None:
            return
        card, count = Counter(seen).most_common(1)[0]
        if card == track.labels[-1] and count >= cfg.agree:
            confs = [c for lab, c in zip(track.labels, track.confidences) if lab == card]
            track.stable = card
            track.stable_confidence = float(np.mean(confs))

    def _associate(self, detections: CardDetections) -> list[tuple[int, int]]:
        """Greedy nearest-centre matching within ``max_shift_frac`` of a card diagonal."""
        if not self._tracks or len(detections) == 0:
            return []
        centers = np.stack([t.center for t in self._tracks])
        reach = np.array([t.diagonal for t in self._tracks]) * self.config.max_shift_frac
        dist = np.linalg.norm(centers[:, None, :] - detections.center_xy[None, :, :], axis=2)
        order = np.dstack(np.unravel_index(np.argsort(dist, axis=None), dist.shape))[0]
        pairs: list[tuple[int, int]] = []
        used_t: set[int] = set()
        used_d: set[int] = set()
        for t_index, d_index in order:
            if dist[t_index, d_index] > reach[t_index] or t_index in used_t or d_index in used_d:
                continue
            used_t.add(int(t_index))
            used_d.add(int(d_index))
            pairs.append((int(t_index), int(d_index)))
        return pairs
