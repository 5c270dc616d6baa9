"""A reading becomes stable only after holding still; flicker and a passing hand never do."""

from collections.abc import Sequence

import numpy as np
import pytest

from engine.cards import Card
from vision.readings import CardDetections
from vision.stability import StabilityConfig, StableReader

CARD = np.array([[0, 0], [63, 0], [63, 89], [0, 89]], np.float32)


def _frame(cards: Sequence[tuple[str | None, float]]) -> CardDetections:
    """Cards given as (label or None, x offset in pixels)."""
    if not cards:
        return CardDetections.empty()
    quads = np.stack([CARD + [x, 100] for _, x in cards])
    labels = [Card.parse(t) if t else None for t, _ in cards]
    return CardDetections(quads, label=labels, confidence=np.full(len(cards), 0.95, np.float32))


def _run(frames: list[list[tuple[str | None, float]]], config: StabilityConfig | None = None
         ) -> list[list[str]]:
    reader = StableReader(config or StabilityConfig())
    return [sorted(str(c) for c in reader.update(_frame(f)).label) for f in frames]


QS = [("QS", 0.0)]


@pytest.mark.parametrize(
    ("frames", "stable_at_end"),
    [
        ([QS] * 5, ["QS"]),
        ([QS] * 4, []),
        ([QS, QS, [("QD", 0.0)], QS, QS], []),  # one odd reading restarts the count
        ([QS, QS, [], QS, QS], []),  # a frame without it too
        ([[("QS", float(x))] for x in (0, 5, 10, 15, 20)], ["QS"]),  # a small drift is the same card
        ([[("QS", float(x))] for x in (0, 40, 80, 120, 160)], []),  # a card slid across is not
        ([[(None, 0.0)]] * 8, []),  # never read with confidence: never stable
    ],
)
def test_given_a_sequence_when_fed_then_stable_only_after_k_agreeing_frames(frames, stable_at_end) -> None:
    assert _run(frames)[-1] == stable_at_end


def test_given_flicker_between_two_labels_when_fed_long_then_no_stable_reading() -> None:
    frames = [[("6H" if i % 2 else "8H", 0.0)] for i in range(30)]
    assert all(out == [] for out in _run(frames))


def test_given_a_stable_card_when_a_hand_passes_then_no_new_reading_appears() -> None:
    settle = [[("7C", 0.0), ("2D", 200.0)]] * 6
    # the hand hides 7C and makes 2D misread now and then, for a few frames
    hand = [[("2D", 200.0)], [("2S", 200.0)], [], [("3D", 200.0), ("JH", 100.0)], [("2D", 200.0)]]
    after = [[("7C", 0.0), ("2D", 200.0)]] * 2
    outs = _run(settle + hand + after)
    assert outs[5] == ["2D", "7C"]
    for out in outs[6:]:
        assert set(out) <= {"2D", "7C"}, out
    assert outs[-1] == ["2D", "7C"]


def test_given_a_card_replaced_when_the_new_one_holds_then_the_label_changes() -> None:
    outs = _run([QS] * 5 + [[("KD", 0.0)]] * 5)
    assert outs[4] == ["QS"] and outs[8] == ["QS"] and outs[9] == ["KD"]


def test_given_a_removed_card_when_unseen_long_enough_then_it_is_forgotten() -> None:
    outs = _run([QS] * 5 + [[]] * 4, StabilityConfig(forget_after=3))
    assert outs[5] == ["QS"] and outs[-1] == []


def test_given_a_window_majority_when_configured_then_most_of_a_window_is_enough() -> None:
    frames = [QS, QS, [("QD", 0.0)], QS, QS, QS]
    assert _run(frames, StabilityConfig(window=6, agree=5))[-1] == ["QS"]
    assert _run(frames[:5], StabilityConfig(window=6, agree=5))[-1] == []


def test_given_stable_cards_then_each_keeps_its_track_id() -> None:
    reader = StableReader()
    for _ in range(5):
        out = reader.update(_frame([("AS", 0.0), ("AH", 300.0)]))
    ids = dict(zip((str(c) for c in out.label), out.track_id.tolist()))
    out = reader.update(_frame([("AH", 302.0), ("AS", 1.0)]))
    assert dict(zip((str(c) for c in out.label), out.track_id.tolist())) == ids


def test_given_bad_config_then_refused() -> None:
    with pytest.raises(ValueError, match="agree=6 window=5"):
        StabilityConfig(window=5, agree=6)


def test_given_rendered_frames_with_a_hand_passing_when_read_then_no_new_stable_card(template_classifier) -> None:
    import cv2

    from engine.cards import parse_cards
    from vision.pipeline import CardReader
    from vision.synthetic import render_scene

    rng = np.random.default_rng(11)
    scene = render_scene(rng, n_cards=4, size_wh=(960, 540), background="cloth",
                         labels=list(parse_cards("AS 10H KC 5D")))
    reader, stable = CardReader(template_classifier), StableReader()
    seen: list[set[str]] = []
    for k in range(16):
        frame = np.clip(scene.bgr.astype(np.int16) + rng.normal(0, 3, scene.bgr.shape), 0, 255).astype(np.uint8)
        if 6 <= k < 10:  # a hand sweeps across the table, over the cards
            x = 100 + 220 * (k - 6)
            cv2.ellipse(frame, (x, 300), (140, 90), 20, 0, 360, (120, 150, 200), -1)
            cv2.ellipse(frame, (x + 120, 230), (120, 30), -10, 0, 360, (110, 140, 195), -1)
        seen.append({str(c) for c in stable.update(reader.read_frame(frame)).label})
    before = seen[5]
    assert len(before) >= 3
    for during_and_after in seen[6:]:  # covered cards stay known, nothing new appears
        assert during_and_after == before, during_and_after
