"""One round of the round bench (bench/table_rounds.py) with a player leaning over the
table, dealt in process to players who obey the dealer: a regression test for a stall no
rendered zone alone has shown (docs/vision.md, "The play zone's look").

In ``real-cold-zone-lean`` at seed 23 the lean ends while the played card lies in the zone:
the bare mat learns the light back and the card's place keeps the look of the lean. The
card is then nudged and the prophet lays the ACCEPT token. The old place, bare print
again, differed from that older look, and it pulled the light's fit over the whole zone:
the print round it read as a thing, and the dealer asked for the token (which it saw)
again and again, dealing 7 of the 11 verdicts. Slow (about a minute): marked slow, it runs
with `python3 -m pytest -m slow` (CI runs those after the suite); it needs the real
photographed cards (``../shared``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[3]
REAL_CARDS = (REPO.parent / "shared" / "data" / "real-cards" / "single",
              Path("/work/shared/data/real-cards/single"))


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("table_rounds", REPO / "bench" / "table_rounds.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("table_rounds", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # a whole bench round: `python3 -m pytest -m slow` (CI runs it after the suite)
def test_given_a_lean_that_ends_over_the_played_card_then_the_prophet_round_is_dealt_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench()
    folders = [f for f in REAL_CARDS if len(list(f.glob("*.jpg"))) >= 52]
    if not folders:
        pytest.skip(f"no real photographed cards in {REAL_CARDS[0]}")
    monkeypatch.setattr(bench, "REAL_CARDS", folders[0])
    monkeypatch.setattr(bench, "WORK", tmp_path)
    cond = bench.Condition("real", "cold", "zone", lean=True)
    assert cond.name == "real-cold-zone-lean"
    figures, _ = bench.run_condition(cond, 23, bench.FULL_PLAN, keep=False, film=False)
    assert figures.wrong == 0
    assert figures.right == figures.turns == 11, figures.troubles
    assert figures.scores_match
