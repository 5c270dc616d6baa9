"""What the round bench's small versions share (test_table_rounds*.py): the card faces, the
scripted round, and the camera's view. Each filmed round is a test module of its own, so
that the suite's two workers deal them side by side (pytest-xdist gives a worker a whole
module at a time: its round is dealt once)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.harness.make_demo import load_faces
from bench.harness.scripted_round import ScriptedRound, make_round
from vision.synthetic import CardFace, PinholeView

REPO = Path(__file__).resolve().parents[2]
FACE_FOLDERS = (REPO.parent / "shared" / "data" / "real-cards" / "single",
                Path("/work/shared/data/real-cards/single"), REPO / "cache" / "cards" / "gnome-anglo")
PLAN = ("accept", "reject_chain", "noplay_right")
FPS = 3.0


def faces() -> dict[str, CardFace]:
    for folder in FACE_FOLDERS:
        found = load_faces(folder)
        if len(found) == 52:
            return found
    pytest.skip("no card faces: neither the real photographed cards nor cache/cards/gnome-anglo "
                "(python -m models.render_cards)")


def short_round(card_faces: dict[str, CardFace]) -> ScriptedRound:
    """Four players, hands of 3: an accepted play, a rejected chain, a right "no play" (N1)."""
    return make_round(random.Random(7), sorted(card_faces), PLAN, ("Ana", "Bo", "Cy", "Dee"), "alternate-colour",
                      hand=3)


def full_hd_view() -> PinholeView:
    return PinholeView(tilt_deg=62.0, distance_mm=490.0, target_mm=(132.5, 60.0), size_wh=(1920, 1080))
