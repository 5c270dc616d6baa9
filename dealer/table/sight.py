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

from dealer.speech.i18n import N_, _
from dealer.table.observer import PLAY_ZONE_NOT_WHOLE

__all__ = ["CARDS_BUSY_SAY_AFTER_S", "TableSight"]
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


class TableSight:
    """Frame by frame: whether the table was seen; what to say about it, if anything."""

    def __init__(self, say_after_s: float = SAY_AFTER_S, say_again_s: float = SAY_AGAIN_S,
                 busy_after_s: float = BUSY_SAY_AFTER_S, cards_busy_after_s: float = CARDS_BUSY_SAY_AFTER_S) -> None:
        self.say_after_s = say_after_s
        self.say_again_s = say_again_s
        self.busy_after_s = busy_after_s
        self.cards_busy_after_s = cards_busy_after_s
        self._unseen_since: float | None = None
        self._said_at: float | None = None
        self._busy_since: float | None = None
        self._busy_over_cards_since: float | None = None  # the first frame of the run with cards in the zone
        self._busy_said_at: float | None = None

    def unseen(self, t: float, message: str) -> str | None:
        """The frame at ``t`` gave no view (``message``: the observer's why)."""
        if self._unseen_since is None:
            self._unseen_since = t
        if not self._time_to_say(self._unseen_since, self._said_at, t, self.say_after_s):
            return None
        self._said_at = t
        return _(ZONE_OUT) if message.startswith(PLAY_ZONE_NOT_WHOLE) else _(NO_MAT)

    def seen(self, t: float) -> str | None:
        """The frame at ``t`` gave a view: after an outage that was said, say it is over."""
        said = self._said_at is not None
        self._unseen_since = self._said_at = None
        return _(BACK) if said else None

    def busy(self, t: float, moving_over_play: bool, camera_moving: bool, cards_lie: bool = False) -> str | None:
        """The frame at ``t`` gave a view: whether something moved over the play zone, whether
        the camera itself has been moving, and whether cards (or something unread) lie in the
        zone; what to say when that lasts."""
        if not moving_over_play:
            self._busy_since = self._busy_over_cards_since = self._busy_said_at = None
            return None
        if self._busy_since is None:
            self._busy_since = t
        if cards_lie and self._busy_over_cards_since is None:
            self._busy_over_cards_since = t
        over_cards = self._busy_over_cards_since is not None and self._time_to_say(
            self._busy_over_cards_since, self._busy_said_at, t, self.cards_busy_after_s)
        if not (over_cards or self._time_to_say(self._busy_since, self._busy_said_at, t, self.busy_after_s)):
            return None
        self._busy_said_at = t
        return _(CAMERA_MOVES) if camera_moving else _(HAND_STAYS)

    def _time_to_say(self, since: float, said_at: float | None, t: float, after_s: float) -> bool:
        """It has lasted ``after_s`` since ``since``, and was not said in the last ``say_again_s``."""
        return t - since >= after_s and (said_at is None or t - said_at >= self.say_again_s)
