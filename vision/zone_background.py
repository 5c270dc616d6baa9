"""A zone's background: what the zone looks like empty, in one of three explicit states.

- :attr:`LookState.NO_LOOK`: no frame seen yet (at the start, or after the camera or the mat
  moved): nothing to compare with, and nothing moved or stood still.
- :attr:`LookState.PRINT`: frames seen, the zone never seen empty: its look is the smooth
  light field fitted to the printed zone in each frame (:class:`vision.zone_light.Light`,
  against no reference).
- :attr:`LookState.LEARNED`: the zone was seen still and empty; the look is that frame, then
  a running mean of the empty frames (the room's light drifts), replaced in a step when a
  still shadow comes or goes (light alone changed), on the bare mat only while cards lie
  there (the look under them is then ``stale`` until they go).

The background learns only what :meth:`Background.learn` is told is empty or light; telling
things from light is the zone watch's part (:mod:`vision.occupancy`).

>>> bg = Background(BackgroundConfig(learn_after_frames=2))
>>> bg.state.value
'no look yet'
>>> frame = np.zeros((4, 4, 3), np.float32)
>>> bg.seen()
>>> [bg.learn(frame, quiet=True, still=True, shadow=False) for _ in range(2)], bg.state.value
([False, False], 'learned')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["Background", "BackgroundConfig", "LookState", "any_colour", "censored", "either_of"]

FloatImage = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


class LookState(enum.Enum):
    NO_LOOK = "no look yet"
    PRINT = "fitted to the print"
    LEARNED = "learned"


@dataclass(frozen=True, slots=True)
class BackgroundConfig:
    # the zone, still and empty this many frames running, is learned as the empty look
    learn_after_frames: int = 2
    # the learned empty look follows the room's light: this share of each new empty frame
    learn_rate: float = 0.3
    # a zone whose only difference is light is learned after this many still frames
    learn_shadow_frames: int = 2


def any_colour(mask: Mask) -> Mask:
    """Where any of a pixel's three colours is set in ``mask`` ([H, W, 3]): ``mask.any(axis=2)``,
    ten times faster (numpy reduces along a short last axis slowly: 3 ms a zone's view, each frame).

    >>> m = np.zeros((1, 2, 3), bool); m[0, 1, 2] = True
    >>> any_colour(m).tolist()
    [[False, True]]
    """
    out: Mask = mask[..., 0] | mask[..., 1] | mask[..., 2]
    return out


def either_of(masks: list[Mask]) -> Mask:
    """The union of one or more masks of one shape (``np.logical_or.reduce`` without stacking them)."""
    out = masks[0]
    for m in masks[1:]:
        out = out | m
    return out


def censored(seen: FloatImage, empty: FloatImage, clipped: Mask | None, empty_clipped: Mask | None) -> FloatImage:
    """``seen`` where a clipped colour can agree with ``empty`` made to: a colour clipped in
    this frame is only "at least this bright" (darker than the empty look: it may be as
    bright), one clipped in the empty look only "at least that bright" (brighter now: the
    look may have been as bright). A white card on a darker print, a dark hand, still differ."""
    out = seen if clipped is None else np.where(clipped & (seen < empty), empty, seen)
    if empty_clipped is not None:
        out = np.where(empty_clipped & (out > empty), empty, out)
    return np.asarray(out, np.float32)


class Background:
    """One zone's empty look, its state, and how it is learned."""

    def __init__(self, config: BackgroundConfig = BackgroundConfig()) -> None:
        self.config = config
        self.state = LookState.NO_LOOK
        self.empty: FloatImage | None = None  # the learned look (log colour), LEARNED only
        # the look's clipped colours (there it only says "at least this bright": a flickering
        # light's bright bands clip the pale print)
        self.clipped: Mask | None = None
        # where the look is older than a step of light: what lay there (cards, tokens) when
        # the bare mat round it took the step
        self.stale: Mask | None = None
        self._quiet = 0  # still frames running that may be learned
        self._lit: tuple[Mask | None, Mask | bool] = (None, True)  # lit() of the clipped colours it was worked out from

    @property
    def learned(self) -> bool:
        return self.state is LookState.LEARNED

    @property
    def reference(self) -> FloatImage | None:
        """The learned look, or None while the look is the print's fit (or there is none)."""
        return self.empty if self.state is LookState.LEARNED else None

    def seen(self) -> None:
        """A frame was seen: the look is at least the print's fit from now on."""
        if self.state is LookState.NO_LOOK:
            self.state = LookState.PRINT

    def forget(self) -> None:
        """Start again (the camera or the mat moved)."""
        self.state = LookState.NO_LOOK
        self.empty = self.clipped = self.stale = None
        self._quiet = 0

    def interrupted(self) -> None:
        """A frame that moved: the still frames to learn from start again."""
        self._quiet = 0

    def lit(self) -> Mask | bool:
        """Where the look's colours were none of them clipped (all of it before one is learned)."""
        if self.state is not LookState.LEARNED or self.clipped is None:
            return True
        if self._lit[0] is not self.clipped:  # the clipped colours are replaced, never changed in place
            lit = ~any_colour(self.clipped)
            lit.setflags(write=False)
            self._lit = (self.clipped, lit)
        return self._lit[1]

    def censored(self, seen: FloatImage, clipped: Mask | None) -> FloatImage:
        """:func:`censored` against the learned look."""
        assert self.empty is not None
        if clipped is None and self.clipped is None:
            return seen
        return censored(seen, self.empty, clipped, self.clipped)

    def learn(self, frame: FloatImage, *, quiet: bool, still: bool, shadow: bool, known: Mask | None = None,
              clipped: Mask | None = None, kept: Mask | None = None, kept_as: FloatImage | None = None) -> bool:
        """Learn from this frame (log colour, bands taken out): ``quiet``, still and empty (or
        holding light alone when ``shadow``: a still shadow came or went), or, ``still`` with
        a ``shadow`` while ``known`` cards or tokens lie there, on the bare mat round them.

        ``kept``: where the frame holds something left beside a new shadow's edge that is no
        light (a phone when a player leans over): the look takes ``kept_as`` there (the old
        look lit as the edge says), so it stays a thing. True when the look was replaced in
        a step (the next frame is to be looked at afresh)."""
        cfg = self.config
        if quiet:
            self._quiet += 1
            if self._quiet < (cfg.learn_shadow_frames if shadow else cfg.learn_after_frames):
                return False
            if self.state is not LookState.LEARNED or shadow:
                self.empty = self._with_kept(frame, kept, kept_as)
                self.state = LookState.LEARNED
                self.stale = None
                self.clipped = None if clipped is None else clipped.copy()
                return shadow
            self._mean(frame, clipped)
        elif still and shadow and self.state is LookState.LEARNED and known is not None:
            self._quiet += 1
            if self._quiet >= cfg.learn_shadow_frames:
                self._learn_bare(self._with_kept(frame, kept, kept_as), clipped, ~known)
                return True
        else:
            self._quiet = 0
        return False

    def _with_kept(self, frame: FloatImage, kept: Mask | None, kept_as: FloatImage | None) -> FloatImage:
        if kept is None or kept_as is None or self.empty is None or not kept.any():
            return frame.copy()
        return np.asarray(np.where(kept[..., None], kept_as, frame), np.float32)

    def _mean(self, frame: FloatImage, clipped: Mask | None) -> None:
        """The look follows the room's light: a running mean of the empty frames."""
        assert self.empty is not None
        mean = np.asarray((1 - self.config.learn_rate) * self.empty + self.config.learn_rate * frame, np.float32)
        if clipped is None and self.clipped is None:
            self.empty = mean
            return
        # a clipped colour is no measure: the look keeps its own there, and takes this
        # frame's where only its own was clipped (the bands moved on)
        now = np.zeros(frame.shape[:2] + (1,), bool) if clipped is None else any_colour(clipped)[..., None]
        before = np.zeros_like(now) if self.clipped is None else any_colour(self.clipped)[..., None]
        self.empty = np.asarray(np.where(now, self.empty, np.where(before, frame, mean)), np.float32)
        self.clipped = None if self.clipped is None else (self.clipped & now)

    def _learn_bare(self, frame: FloatImage, clipped: Mask | None, bare: Mask) -> None:
        """The look replaced by this frame where the zone is ``bare``; stale elsewhere."""
        assert self.empty is not None
        self.empty = np.asarray(np.where(bare[..., None], frame, self.empty), np.float32)
        if clipped is not None or self.clipped is not None:
            now = np.zeros(frame.shape, bool) if clipped is None else clipped
            before = np.zeros(frame.shape, bool) if self.clipped is None else self.clipped
            merged = np.where(bare[..., None], now, before)
            self.clipped = merged if merged.any() else None
        self.stale = ~bare if self.stale is None else (self.stale | ~bare)
