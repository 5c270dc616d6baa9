"""The pre-flight that ends setting up (issue 7 item 6): cards laid in the play zone are
found and read, or the dealer says what to change. Frames are rendered mats; the reader
knows the truth (vision has its own tests), so each case is exactly the one named."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.layout import default_layout
from dealer.app.cli import main
from bench.harness.make_demo import Step, _positions, render_steps
from dealer.app.preflight import parse_laid, preflight
from engine.cards import Card
from vision.readings import CardDetections
from vision.synthetic import PinholeView

VIEW = PinholeView(tilt_deg=66.0, distance_mm=430.0, target_mm=(132.5, 95.0), size_wh=(960, 540))
FPS = 2.0


class LaidReader:
    """Reads the cards of each frame from the script (None: found but not read)."""

    def __init__(self, per_frame: list[tuple[str | None, ...]]) -> None:
        self.per_frame = per_frame
        self.count = 0

    def read_region(self, frame_bgr: np.ndarray, box_xyxy: tuple[int, int, int, int]) -> CardDetections:
        return self.read_frame(frame_bgr)

    def read_frame(self, frame_bgr: np.ndarray, image_to_table: object = None) -> CardDetections:
        labels = self.per_frame[min(self.count, len(self.per_frame) - 1)]
        self.count += 1
        if not labels:
            return CardDetections.empty()
        quads = []
        for x, y in _positions(len(labels)):
            mm = np.array([[x - 31.5, y - 44, 1], [x + 31.5, y - 44, 1], [x + 31.5, y + 44, 1], [x - 31.5, y + 44, 1]])
            px = (VIEW.table_to_px @ mm.T).T
            quads.append(px[:, :2] / px[:, 2:])
        return CardDetections(quad_xy=np.array(quads, np.float32),
                              label=[None if s is None else Card.parse(s) for s in labels],
                              confidence=np.full(len(labels), 0.99, np.float32))


def _run(laid: tuple[str, ...], read_as: tuple[str | None, ...], expected: str | None):  # type: ignore[no-untyped-def]
    steps = (Step((), (), 1.0), Step(laid, (), 3.0))
    frames = list(render_steps(steps, {}, view=VIEW, fps=FPS))
    truth: list[tuple[str | None, ...]] = [()] * 2 + [read_as] * 6
    return preflight(frames, default_layout(), LaidReader(truth), None if expected is None else parse_laid(expected))


def test_given_the_cards_laid_when_all_are_read_then_ready_to_play() -> None:
    result = _run(("7H", "QS", "2C"), ("7H", "QS", "2C"), "7H QS 2C")
    assert result.settled and result.ok and result.read == parse_laid("7H QS 2C")
    assert "ready to play" in "\n".join(result.report_lines())


def test_given_a_card_found_but_not_read_then_it_says_what_to_change() -> None:
    result = _run(("7H", "QS"), ("7H", None), "7H QS")
    text = "\n".join(result.report_lines())
    assert not result.ok and result.unread == 1 and result.missing == (Card.parse("QS"),)
    assert "NOT find and read" in text and "not read" in text and "queen of spades" in text


def test_given_a_card_read_as_another_then_the_named_card_is_missing_and_one_is_extra() -> None:
    result = _run(("7H", "QS"), ("7H", "QC"), "7H QS")
    text = "\n".join(result.report_lines())
    assert not result.ok and "I do not find the queen of spades" in text and "did not name" in text


def test_given_no_cards_in_the_zone_then_the_preflight_is_not_done() -> None:
    result = _run((), (), None)
    assert not result.done and not result.ok
    assert result.report_lines()[0].startswith("Pre-flight not done")


def test_given_bad_cards_then_parse_laid_names_them() -> None:
    with pytest.raises(ValueError):
        parse_laid("7H XX")
    with pytest.raises(ValueError, match="--cards needs"):
        parse_laid("  ")


def test_given_calibrate_with_cards_named_but_none_laid_then_exit_1_and_it_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    still = tmp_path / "mat.png"
    frame = next(render_steps((Step((), (), 0.5),), {}, view=PinholeView(tilt_deg=72, distance_mm=380,
                                                                         target_mm=(132.5, 95.0)), fps=FPS))
    assert cv2.imwrite(str(still), frame)
    args = ["calibrate", "table", "--image", str(still), "--headless", "--out", str(tmp_path / "t.json")]
    assert main(args + ["--cards", "7H QS"]) == 1
    assert "Pre-flight not done" in capsys.readouterr().out
    assert main(args) == 0  # without --cards: the mat check alone decides
    assert main(args + ["--cards", "7H ZZ"]) == 2
