"""A short round of each variant the players lay (wikipedia, express, abbott-1959) filmed on
the rendered mat and dealt by the real `eleusis play --video --variant NAME --lang L`, in
English, Russian and Portuguese: every verdict and the scores must be `eleusis judge`'s on
the scripted record (the same in every language), and the dealer must say the variant's own
sentences in that language (docs/rules-variants.md: WK*, EX*, AB*).

The films are small (960x540, 3 frames a second, a few turns) and rendered once per module;
each deal takes about half a minute here, so the films' tests are slow. The scripts
themselves are checked in the suite."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.harness.make_demo import load_faces, render_steps
from bench.harness.round_check import compare_round, play_video, write_video
from bench.harness.scripted_round import VARIANT_PLANS, ScriptedRound, Timeline, all_labels, timeline, variant_round
from dealer.record.recording import load_recording
from dealer.record.verify import verify_recording
from dealer.speech.i18n import use_language
from dealer.speech.variant_words import announce_variant
from engine.variants.abbott import AbbottRound
from vision.synthetic import CardFace, PinholeView

REPO = Path(__file__).resolve().parents[2]
FACE_FOLDERS = (REPO.parent / "shared" / "data" / "real-cards" / "single",
                Path("/work/shared/data/real-cards/single"), REPO / "cache" / "cards" / "gnome-anglo")
FPS = 3.0
SIZE = (960, 540)
LANGS = ("en", "ru", "pt")


def _script(variant: str, labels: list[str]) -> ScriptedRound:
    return variant_round(variant, labels)


# -- the scripts (no film) -------------------------------------------------------------------
@pytest.mark.parametrize("variant", sorted(VARIANT_PLANS))
def test_each_variant_script_plays_a_whole_round_its_own_way(variant: str) -> None:
    script = _script(variant, all_labels())
    rnd = script.round
    assert rnd.ended is not None and rnd.start.variant == variant
    assert f"variant: {variant}" in script.record_text()
    if variant != "wikipedia":  # EX2, AB2: one card a turn
        assert all(len(getattr(t.action, "cards", ())) <= 1 for t in script.turns)
    if variant == "wikipedia":
        assert [t.verdict for t in script.turns][:3] == ["accepted", "rejected", "prophet"]
        assert rnd.result().prophet == "Cy"  # WK8: still in office at the end
    if variant == "abbott-1959":
        assert isinstance(rnd, AbbottRound) and rnd.first_scoring is not None  # AB7: every hand was emptied
        shed = script.turns[6:]
        assert shed and all(t.verdict == "accepted" for t in shed)  # AB8: an error card goes on the line
        assert rnd.result().scores[rnd.result().emptied or ""] == 6 + 2  # AB9: 6 and the others' two


@pytest.mark.parametrize("variant", sorted(VARIANT_PLANS))
def test_the_check_finds_a_variant_record_changed_by_one_verdict(variant: str, tmp_path: Path) -> None:
    # the comparison the films rely on must be able to fail: the last turn's card swapped
    script = _script(variant, all_labels())
    text = script.record_text().rstrip("\n").splitlines()
    out = tmp_path / "recording"
    out.mkdir()
    (out / "round.eleusis").write_text("\n".join(text) + "\n", encoding="utf-8")
    same = compare_round(script, timeline(script), out, tmp_path)
    assert (same.right, same.wrong, same.missing, same.scores_match) == (len(script.turns), 0, 0, True)
    (out / "round.eleusis").write_text("\n".join(text[:-1]) + "\n", encoding="utf-8")
    cut = compare_round(script, timeline(script), out, tmp_path)
    assert (cut.right, cut.missing, cut.scores_match) == (len(script.turns) - 1, 1, False)


# -- the films, dealt in each language -------------------------------------------------------
def _faces() -> dict[str, CardFace]:
    for folder in FACE_FOLDERS:
        faces = load_faces(folder)
        if len(faces) == 52:
            return faces
    pytest.skip("no card faces: neither the real photographed cards nor cache/cards/gnome-anglo "
                "(python -m models.render_cards)")


@dataclass(frozen=True)
class Film:
    script: ScriptedRound
    line: Timeline
    video: Path


@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Film]:
    """Each variant's film, rendered on first use (cached for the module)."""
    return {}


def _film(films: dict[str, Film], variant: str, tmp_path_factory: pytest.TempPathFactory) -> Film:
    if variant not in films:
        faces = _faces()
        script = _script(variant, sorted(faces))
        line = timeline(script, FPS, whole_layout=False)
        video = tmp_path_factory.mktemp(variant) / "table.mp4"
        view = PinholeView(tilt_deg=62.0, distance_mm=490.0, target_mm=(132.5, 60.0), size_wh=SIZE)
        write_video(render_steps(tuple(line.steps), faces, seed=7, view=view, fps=FPS), video, FPS)
        films[variant] = Film(script, line, video)
    return films[variant]


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", sorted(VARIANT_PLANS))
def test_given_a_variant_film_when_dealt_in_a_language_then_judge_agrees_and_the_words_are_its_own(
        variant: str, lang: str, films: dict[str, Film], tmp_path_factory: pytest.TempPathFactory) -> None:
    film = _film(films, variant, tmp_path_factory)
    work = tmp_path_factory.mktemp(f"{variant}-{lang}")
    _wall, said = play_video(film.video, film.script, work / "recording", timeout=600.0, lang=lang)
    figures = compare_round(film.script, film.line, work / "recording", work)
    assert (figures.right, figures.wrong, figures.missing) == (figures.turns, 0, 0), (figures.diff, said[-3000:])
    assert figures.scores_match, (figures.scripted_scores, figures.played_scores)
    assert figures.troubles == [], figures.troubles
    check = verify_recording(load_recording(work / "recording"))  # review replays the header's variant
    assert check.ok, check.problems
    with use_language(lang):
        announced = announce_variant(variant)
    assert announced and announced in said  # the variant's own opening, in the language asked for
    if lang != "en":
        with use_language("en"):
            english = announce_variant(variant)
        assert english and english not in said


@pytest.mark.slow
def test_given_an_express_film_when_a_game_deals_it_then_the_totals_are_the_rounds_scores(
        films: dict[str, Film], tmp_path_factory: pytest.TempPathFactory) -> None:
    # `eleusis game --variant express`: the machine is God in round 1 and Cy, whose turn it is
    # to deal, plays seated last: the seats are the film's Ana, Bo, Cy (G5, EX7)
    import json
    import os
    import subprocess
    import sys

    film = _film(films, "express", tmp_path_factory)
    work = tmp_path_factory.mktemp("game")
    (work / "rule.txt").write_text(film.script.rule, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "dealer", "game", "--variant", "express", "--players", "Cy Ana Bo",
                           "--rounds", "1", "--video", str(film.video), "--hand", str(film.script.hand),
                           "--rule-file", str(work / "rule.txt"), "--voice", "text", "--out", str(work / "game")],
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    scores = film.script.round.result().scores
    saved = json.loads((work / "game" / "game.json").read_text(encoding="utf-8"))
    assert saved["variant"] == "express" and [r["folder"] for r in saved["played"]] == ["round-1"]
    said = proc.stdout
    assert "We play Eleusis Express" in said
    totals = ", ".join(f"{name} {points}" for name, points in sorted(scores.items(), key=lambda kv: -kv[1]))
    assert f"Totals after round 1 of 1: {totals}." in said, said[-1500:]
