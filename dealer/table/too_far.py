"""Saying which zone needs the camera closer: its cards are smaller in the picture than the
reader reads.

The test is the one `eleusis calibrate table` reports zone by zone
(:func:`calibration.check.zone_sights`, with the reader's own threshold measured by
bench/small_cards.py), so the check, the dealer and the reader agree. The dealer says it when
it first sees the mat, and again only when the camera is moved and the zones too far change:
the play zone is needed to deal; the main line and the side branches only for the layout
watch, which leaves them unchecked (P5 is then the players' own care).

>>> from calibration.check import ZoneSight
>>> watch = TooFarWatch()
>>> sights = {"play": ZoneSight("play", 4, 4, 1.2, 1.5, needs_px_per_mm=1.5)}
>>> watch.look(sights)[0][:58]
'The cards in the play zone are too small in the picture fo'
>>> watch.look(sights)
[]
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from calibration.check import ZoneSight
from calibration.layout import ZONE_MAIN_LINE, ZONE_PLAY, ZONE_SIDE_BRANCHES
from dealer.speech.i18n import N_, _

__all__ = ["LINE_TOO_FAR", "PLAY_TOO_FAR", "TooFarWatch", "too_far_zones"]

PLAY_TOO_FAR = N_("The cards in the play zone are too small in the picture for me to read them reliably: bring "
                  "the camera closer, to about {share}% of its distance, or use a higher resolution.")
LINE_TOO_FAR = {
    frozenset({ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES}): N_(
        "I cannot read the main line or the side branches from here, so I will not check the layout: bring the "
        "camera closer, to about {share}% of its distance, if you want me to."),
    frozenset({ZONE_MAIN_LINE}): N_(
        "I cannot read the main line from here, so I will not check it: bring the camera closer, to about "
        "{share}% of its distance, if you want me to."),
    frozenset({ZONE_SIDE_BRANCHES}): N_(
        "I cannot read the side branches from here, so I will not check them: bring the camera closer, to about "
        "{share}% of its distance, if you want me to."),
}


def too_far_zones(sights: Mapping[str, ZoneSight]) -> frozenset[str]:
    """The zones wholly in view whose cards are too small in the picture for the reader."""
    return frozenset(name for name, sight in sights.items() if sight.whole_in_view and sight.too_coarse)


def _share(sights: Mapping[str, ZoneSight], names: frozenset[str]) -> int:
    """The camera's distance, in % of the present one, at which every zone of ``names`` is read."""
    shares = [s for s in (sights[n].closer_share for n in names) if s is not None]
    return max(1, math.floor(100 * min(shares))) if shares else 100


class TooFarWatch:
    """Follows the zones too far for the reader from frame to frame; says them when they change."""

    def __init__(self) -> None:
        self.said: frozenset[str] | None = None  # the zones too far last time it looked

    def look(self, sights: Mapping[str, ZoneSight] | None) -> list[str]:
        """What to say for this frame's sights (None: the mat is not located): the play zone
        first, then the layout's zones; nothing when the same zones were said before."""
        if sights is None:
            return []
        far = too_far_zones(sights)
        if far == self.said or (self.said is None and not far):
            self.said = far
            return []
        self.said = far
        out = []
        if ZONE_PLAY in far:
            out.append(_(PLAY_TOO_FAR, share=_share(sights, frozenset({ZONE_PLAY}))))
        line = far & {ZONE_MAIN_LINE, ZONE_SIDE_BRANCHES}
        if line:
            out.append(_(LINE_TOO_FAR[frozenset(line)], share=_share(sights, frozenset(line))))
        return out
