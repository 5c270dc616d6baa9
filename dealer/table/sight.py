"""Saying so when the camera does not see the table, or sees the play zone forever moving
(never silent about the play zone: players wait for an answer).

The observer gives no view while the mat is not found or is lost (its markers covered, the
camera turned away), while a move of the camera is not yet confirmed, and while the play
zone is not whole in view (dealer/table/observer.py). Nothing is judged then; the players must
hear why, or they go on playing to a dealer that sees nothing. A moment unseen (a hand
over a marker, a knock the tracker re-anchors within a second) is no news.

Nothing is judged either while something moves over the play zone (a hand laying cards).
When that lasts far longer than a hand takes (``BUSY_SAY_AFTER_S``), the players hear it:
a hand left there, or a camera that keeps moving (held in a hand, on a stand that sways
more than the dealer can follow) so that the whole zone seems to move. With cards lying in
the zone under the movement the players are waiting for a verdict, and would go on without
one after a few seconds: it is said sooner (``CARDS_BUSY_SAY_AFTER_S``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dealer.speech.i18n import N_
from dealer.table.steady import Steady
from dealer.table.turn_input import TableSeen, TableUnseen
from dealer.table.turn_intents import KeepsMoving, TableNotSeen, TableSeenAgain

__all__ = ["BUSY_SAY_AFTER_S", "CARDS_BUSY_SAY_AFTER_S", "SAY_AFTER_S", "SAY_AGAIN_S", "SightTimers", "seen",
           "unseen"]
SAY_AFTER_S = 3.0  # unseen this long: say so
SAY_AGAIN_S = 30.0  # and again this often while it lasts

NO_MAT = N_("I cannot see the mat: uncover its corner markers, or point the camera at it again. "
            "Nothing is judged until I see it.")
ZONE_OUT = N_("I cannot see the whole play zone: the camera has moved. Point it at the mat again, as at "
              "calibration. Nothing is judged until I see the zone.")
BACK = N_("I can see the table again.")
BUSY_SAY_AFTER_S = 12.0  # something moving over the play zone this long, without a pause: say so
# ... over cards lying in the zone this long (a hand lays cards in a second or two; players
# who hear nothing go on after about 8 s, bench/harness/scripted_table.PATIENCE_S)
CARDS_BUSY_SAY_AFTER_S = 6.0
HAND_STAYS = N_("Something keeps moving over the play zone, so I am waiting: take your hands out of it, "
                "and I will judge what lies there.")
CAMERA_MOVES = N_("The camera keeps moving, so the whole play zone seems to move and I cannot judge it. "
                  "Fix the camera so that it stays still.")


@dataclass(frozen=True, slots=True)
class SightTimers:
    """Since when the table has been unseen (``unseen``) and when that was last said; since
    when something has moved over the play zone (``busy``), over cards lying there
    (``busy_over_cards``), and when that was last said."""

    unseen: Steady[None] | None = None
    said_at: float | None = None
    busy: Steady[None] | None = None
    busy_over_cards: Steady[None] | None = None
    busy_said_at: float | None = None


def _time_to_say(clock: Steady[None] | None, said_at: float | None, t: float, after_s: float,
                 again_s: float) -> bool:
    """It has lasted ``after_s``, and was not said in the last ``again_s``."""
    return clock is not None and clock.held(t, after_s) and (said_at is None or t - said_at >= again_s)


def unseen(timers: SightTimers, frame: TableUnseen, after_s: float = SAY_AFTER_S,
           again_s: float = SAY_AGAIN_S) -> tuple[SightTimers, TableNotSeen | None]:
    """A frame that gave no view (``frame.why``): what to say, once it has lasted ``after_s``."""
    timers = replace(timers, unseen=timers.unseen or Steady(frame.t, None))
    if not _time_to_say(timers.unseen, timers.said_at, frame.t, after_s, again_s):
        return timers, None
    return replace(timers, said_at=frame.t), TableNotSeen(frame.why)


def seen(timers: SightTimers, frame: TableSeen, busy_after_s: float = BUSY_SAY_AFTER_S,
         cards_busy_after_s: float = CARDS_BUSY_SAY_AFTER_S, again_s: float = SAY_AGAIN_S
         ) -> tuple[SightTimers, list[TableSeenAgain | KeepsMoving]]:
    """A frame that gave a view: after an outage that was said, that it is over; and, when
    something has kept moving over the play zone for long, that it waits and why."""
    out: list[TableSeenAgain | KeepsMoving] = [TableSeenAgain()] if timers.said_at is not None else []
    timers = replace(timers, unseen=None, said_at=None)
    t = frame.t
    if not frame.moving_over_play:
        return replace(timers, busy=None, busy_over_cards=None, busy_said_at=None), out
    timers = replace(timers, busy=timers.busy or Steady(t, None),
                     busy_over_cards=timers.busy_over_cards or (Steady(t, None) if frame.cards_lie else None))
    if not (_time_to_say(timers.busy_over_cards, timers.busy_said_at, t, cards_busy_after_s, again_s)
            or _time_to_say(timers.busy, timers.busy_said_at, t, busy_after_s, again_s)):
        return timers, out
    return replace(timers, busy_said_at=t), out + [KeepsMoving(frame.camera_moving)]
