"""The pure turn machine: step(state, observation) -> (state, intents), on values."""

import ast
import dataclasses
from pathlib import Path

import pytest

from dealer.table.turn import (
    AwaitingProphet,
    AwaitingVerdict,
    Clearing,
    IllegalObservation,
    Laying,
    Paused,
    PuttingLayoutRight,
    ShowingHand,
    TurnState,
    Waiting,
    initial,
    resumed,
    step,
)
from dealer.table.turn_input import (
    CameraBack,
    CameraLost,
    Key,
    KeyPressed,
    LineRecord,
    LineSight,
    Look,
    ProphetDeposed,
    RoundFacts,
    SeenCard,
    TableToken,
    TableView,
    VerdictGiven,
)
from dealer.table.turn_intents import (
    AskLayAgain,
    AskProphet,
    CannotRead,
    FaceDown,
    HandProgress,
    Judge,
    LayoutTold,
    NoPlayWithdrawn,
    Owed,
    Taken,
    TakenAway,
    TurnIntent,
    Unread,
    YourTurn,
)
from dealer.speech.turn_words import words
from engine.cards import Card, parse_cards
from engine.events import Attempt, BecomeProphet, NoPlay

ANA = RoundFacts(whose_turn="Ana", hand_size=5)
BO = RoundFacts(whose_turn="Bo", just_played="Ana", hand_size=5)


def cards(text: str) -> tuple[SeenCard, ...]:
    return tuple(SeenCard(Card.parse(label), 70.0 * i, 0.0) for i, label in enumerate(text.split()))


def feed(state: TurnState, facts: RoundFacts, *views: TableView) -> tuple[TurnState, list[TurnIntent]]:
    out: list[TurnIntent] = []
    for view in views:
        state, intents = step(state, Look(view, facts))
        out += intents
    return state, out


def laid(at: float, picture: tuple[SeenCard, ...], *still: float, **kw: object) -> list[TableView]:
    return [TableView(at, picture, hand_over_play=True, **kw)] + [TableView(t, picture, **kw) for t in still]  # type: ignore[arg-type]


def test_a_state_is_a_value_and_step_changes_nothing_it_is_given() -> None:
    state = initial(started=True, settle_s=0.5)
    look = Look(TableView(0.0, cards("4C")), ANA)
    first = step(state, look)
    assert step(state, look) == first  # pure: the same answer for the same input
    assert state == initial(started=True, settle_s=0.5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.phase = Clearing()  # type: ignore[misc]


def test_the_verdict_comes_back_as_an_observation_and_its_cards_count_for_nothing_else() -> None:
    state, out = feed(initial(True, 0.5), ANA, *laid(0.0, cards("4C 9H"), 0.5))
    assert out == [Judge(Attempt("Ana", parse_cards("4C 9H")))]
    assert isinstance(state.phase, AwaitingVerdict)
    state, out2 = step(state, VerdictGiven(Attempt("Ana", parse_cards("4C 9H"))))
    assert out2 == () and state.phase == Clearing(parse_cards("4C 9H"))
    # the same cards lying there are not Bo's play; the zone emptied, Bo is called
    state, out = feed(state, BO, TableView(2.0, cards("4C 9H")), TableView(3.5, cards("4C 9H")),
                      TableView(4.0, ()))
    assert out == [YourTurn("Bo")] and state.phase == Waiting()


def test_an_observation_the_state_cannot_take_is_refused_by_name() -> None:
    state, _ = feed(initial(True, 0.5), ANA, *laid(0.0, cards("4C"), 0.5))
    with pytest.raises(IllegalObservation, match="Look while AwaitingVerdict"):
        step(state, Look(TableView(2.0, cards("4C")), ANA))
    with pytest.raises(IllegalObservation, match="VerdictGiven while Waiting"):
        step(initial(True), VerdictGiven(Attempt("Ana", parse_cards("4C"))))
    with pytest.raises(IllegalObservation, match="ProphetDeposed while AwaitingStarter"):
        step(initial(False), ProphetDeposed())


def test_a_face_down_card_is_said_once_as_it_is_and_taking_it_back_costs_nothing() -> None:
    down = (SeenCard(Card.parse("4C"), 0.0, 0.0), SeenCard(None, 70.0, 0.0, face_down=True))
    state, out = feed(initial(True, 0.5), ANA, *laid(0.0, down, 0.5, 1.1, 1.7, 2.3, 3.0, 4.0))
    assert out == [FaceDown(2)]
    assert "face down" in words(FaceDown(2))
    assert state.unread_asks_in_round == 0  # no misreading: no hint to type a card's name
    state, out = feed(state, ANA, TableView(4.5, (), hand_over_play=True), TableView(5.0, ()), TableView(5.6, ()))
    assert out == [] and state.phase == Waiting() and state.relay is None and state.unjudged is None
    state, out = feed(state, ANA, *laid(6.0, cards("4C 7D"), 6.5))
    assert out == [Judge(Attempt("Ana", parse_cards("4C 7D")))]


def test_an_unread_card_is_asked_about_by_its_place() -> None:
    unread = (SeenCard(Card.parse("4C"), 0.0, 0.0), SeenCard(None, 70.0, 0.0))
    state, out = feed(initial(True, 0.5), ANA, *laid(0.0, unread, 0.5, 1.1, 1.7))
    assert out == [CannotRead(Unread.CARD, 2, again=False)] and state.unread_asks_in_round == 1


def test_cards_that_came_unseen_after_a_verdict_are_asked_for_again_with_the_cards_read() -> None:
    state, _ = feed(initial(True, 0.5), ANA, *laid(0.0, cards("4C"), 0.5))
    state, _ = step(state, VerdictGiven(Attempt("Ana", parse_cards("4C"))))
    state, out = feed(state, BO, *[TableView(t, cards("7S")) for t in (2.0, 2.6, 3.2, 4.0)])
    assert out == [AskLayAgain("Bo", parse_cards("7S"), Owed.UNSEEN_EMPTYING)]


def test_a_no_play_is_counted_in_batches_and_goes_to_the_prophet() -> None:
    tok = {TableToken.NO_PLAY: (300.0, 0.0)}
    facts = RoundFacts(whose_turn="Bo", prophet="Cy", hand_size=4)
    state, out = feed(initial(True, 0.5), facts, *laid(0.0, cards("2D 4H"), 0.5, 1.1, tokens_in_play=tok))
    assert out == [HandProgress(2, 4)] and state.phase == ShowingHand(parse_cards("2D 4H"), parse_cards("2D 4H"))
    state, out = feed(state, facts, *laid(2.0, cards("QC 5S"), 2.5, 3.1, tokens_in_play=tok))
    assert out == [AskProphet("Cy")]
    assert state.phase == AwaitingProphet(NoPlay("Bo", parse_cards("2D 4H QC 5S")), parse_cards("QC 5S"))


def test_an_arm_across_the_zone_is_no_trouble_and_no_settling() -> None:
    arm = [TableView(t, (), unexplained_in_play=True, arm_across=True) for t in (0.0, 1.0, 2.0, 3.0, 4.0)]
    state, out = feed(initial(True, 0.5), ANA, *arm, TableView(4.5, ()), TableView(5.1, ()))
    assert out == [] and state.phase == Waiting()


def test_resume_builds_the_state_after_the_last_verdict() -> None:
    state = resumed(NoPlay("Bo", parse_cards("2D 4H")), Card.parse("7H"), prophet_out=True)
    assert state.phase == Clearing(parse_cards("2D 4H")) and state.noplay_token_laid and state.prophet.seen
    # the prophet's token still out appoints nobody
    state, out = feed(state, BO, TableView(0.0, (), prophet_token_out=True), TableView(1.0, (), prophet_token_out=True))
    assert not [i for i in out if isinstance(i, Judge) and isinstance(i.action, BecomeProphet)]
    assert resumed(None, Card.parse("7H"), prophet_out=False).phase == Clearing((Card.parse("7H"),))


def test_the_turn_machine_assigns_nothing_to_an_attribute() -> None:
    # the state is a value: no field is set after it is made (an exception's __init__ aside)
    root = Path(__file__).resolve().parents[3] / "dealer" / "table"
    for name in ("turn.py", "turn_state.py", "turn_layout.py", "turn_events.py", "turn_frame.py", "turn_hand.py",
                 "layout_watch.py", "steady.py", "sight.py"):
        tree = ast.parse((root / name).read_text(encoding="utf-8"))
        inits = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "__init__"
                 for n in ast.walk(f)}
        targets: list[ast.expr] = []
        for node in ast.walk(tree):
            if id(node) in inits:
                continue
            if isinstance(node, ast.Assign):
                targets += node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets.append(node.target)
        flat = [t for target in targets for t in ast.walk(target)]
        assert [t.lineno for t in flat if isinstance(t, ast.Attribute)] == [], name


def _line_view(t: float, main: str, play: tuple[SeenCard, ...] = (), **kw: object) -> TableView:
    """A frame with the main line read as ``main`` (left to right) and ``play`` in the play zone."""
    seen = tuple(SeenCard(c, 70.0 * i, -270.0) for i, c in enumerate(parse_cards(main)))
    return TableView(t, play, line=LineSight(seen, ()), **kw)  # type: ignore[arg-type]


def _held_consistently(state: TurnState) -> bool:
    """One place: the turn waits for the layout exactly while the layout watch holds it."""
    phase = state.phase.held if isinstance(state.phase, Paused) else state.phase
    return isinstance(phase, PuttingLayoutRight) == (state.layout.holding is not None)


def test_the_layout_watch_is_part_of_the_turn_and_holds_it_in_one_place() -> None:
    from engine.layout import Layout

    # given Ana's 4C accepted at 0.6 s: the record's main line is 7H 4C
    line = LineRecord(Layout(parse_cards("7H 4C")))
    ana, bo = dataclasses.replace(ANA, line=line), dataclasses.replace(BO, line=line)
    state, out = feed(initial(True, 0.5), ana, *laid(0.0, cards("4C"), 0.6))
    assert out == [Judge(Attempt("Ana", parse_cards("4C")))]
    state, _ = step(state, VerdictGiven(Attempt("Ana", parse_cards("4C")), 0.6))
    assert state.layout.due is not None  # its cards are now on their way to the layout (P3)
    # when the players lay it before 7H, and the line holds so (P5)
    states = []
    for view in (_line_view(1.0, "4C 7H"), _line_view(2.5, "4C 7H")):
        state, told = step(state, Look(view, bo))
        states.append(state)
    # then the misplacement is told, and the turn is held: by the one memory of the watch
    assert [type(i) for i in told] == [LayoutTold] and told[0].KIND == "trouble"
    assert state.layout.holding is not None and {d.card for d in state.layout.holding} <= set(parse_cards("4C 7H"))
    assert state.phase == PuttingLayoutRight(Waiting())
    # a card Bo lays meanwhile is not judged, and key a with a card in the zone is the turn's
    held = state
    for view in (_line_view(3.0, "4C 7H", cards("9S"), hand_over_play=True), _line_view(4.0, "4C 7H", cards("9S"))):
        state, told = step(state, Look(view, bo))
        states.append(state)
        assert not [i for i in told if isinstance(i, Judge)]
    state, told = step(state, KeyPressed(Key.ACCEPT, 4.1))
    assert told == () and state.layout.holding is not None and state.keyed.decision is TableToken.ACCEPT
    # key o: the players go on with the layout as it lies, and the turn goes on where it was
    state, told = step(dataclasses.replace(state, keyed=held.keyed), KeyPressed(Key.LAYOUT_AS_IS, 4.2))
    assert [type(i) for i in told] == [LayoutTold] and state.layout.holding is None and state.phase == Waiting()
    states.append(state)
    state, out = feed(state, bo, _line_view(5.0, "4C 7H", cards("9S"), hand_over_play=True),
                      _line_view(5.6, "4C 7H", cards("9S")))
    assert out == [Judge(Attempt("Bo", parse_cards("9S")))]
    assert all(map(_held_consistently, states))
    # key a with the play zone empty goes on too; a frame without a record cannot check the layout
    state, told = step(held, KeyPressed(Key.ACCEPT, 4.1))
    assert [type(i) for i in told] == [LayoutTold] and state.phase == Waiting()
    # gone on with while the camera is away: back, the turn is no longer held
    paused, _ = step(held, CameraLost(4.1))
    paused, told = step(paused, KeyPressed(Key.LAYOUT_AS_IS, 4.2))
    assert [type(i) for i in told] == [LayoutTold] and paused.phase == Paused(Waiting()) and _held_consistently(paused)
    back, _ = step(paused, CameraBack(6.0))
    assert back.phase == Waiting() and back.layout.clock.since == 6.0  # the line zones held from now
    with pytest.raises(IllegalObservation, match="Look while PuttingLayoutRight"):
        step(held, Look(TableView(5.0, cards("9S")), BO))


def test_only_cards_judged_are_watched_on_their_way_to_the_layout() -> None:
    # a refused action, and a prophet taking office (F1), move no card (P3, P4)
    state, _ = feed(initial(True, 0.5), ANA, *laid(0.0, cards("4C"), 0.6))
    assert step(state, VerdictGiven(None, 0.6))[0].layout.due is None
    assert step(state, VerdictGiven(Attempt("Ana", parse_cards("4C")), None))[0].layout.due is None
    after, _ = step(state, VerdictGiven(Attempt("Ana", parse_cards("4C")), 0.6))
    assert step(after, VerdictGiven(BecomeProphet("Ana"), 1.0))[0].layout == after.layout
    # and a verdict taken back forgets the move
    from dealer.table.turn_input import VerdictUndone

    assert step(after, VerdictUndone())[0].layout.due is None


def test_the_session_keeps_no_clock_nor_layout_of_its_own() -> None:
    # the turn machine holds the time of the last frame, the zone seen empty, and the layout
    # watch: the session assigns nothing but the round and its reveal after it is made
    root = Path(__file__).resolve().parents[3] / "dealer" / "table"
    tree = ast.parse((root / "session.py").read_text(encoding="utf-8"))
    cls = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "DealerSession")
    inits = {id(n) for f in ast.walk(cls) if isinstance(f, ast.FunctionDef) and f.name == "__init__"
             for n in ast.walk(f)}
    assigned = {t.attr for n in ast.walk(cls) if id(n) not in inits and isinstance(n, (ast.Assign, ast.AugAssign))
                for target in (n.targets if isinstance(n, ast.Assign) else [n.target])
                for t in ast.walk(target) if isinstance(t, ast.Attribute)}
    assert assigned <= {"round", "revealed"}, assigned


def test_the_reader_and_the_turn_remember_places_with_one_tolerance() -> None:
    # the reader pools its looks at a card, the turn keeps a card's reading: one place memory
    from vision.geometry import SAME_PLACE_MM
    from vision.pipeline import ReaderConfig

    assert ReaderConfig().same_place_mm == SAME_PLACE_MM
    # a card read, then found unread 12 mm away (the camera re-anchored), no hand in between
    state, _ = feed(initial(True), ANA, TableView(0.0, cards("4C"), hand_over_play=True), TableView(0.1, cards("4C")))
    moved = (SeenCard(None, 12.0, 0.0),)
    state, out = feed(state, ANA, TableView(0.2, moved), TableView(0.6, moved))
    assert out == [Judge(Attempt("Ana", parse_cards("4C")))]


def test_a_lost_camera_pauses_the_turn_and_nothing_is_judged_across_the_gap() -> None:
    # given 4C laid and still at 0.1 s (settled at 0.6 s), when the camera is lost at 0.2 s
    state, _ = feed(initial(True, 0.5), ANA, *laid(0.0, cards("4C"), 0.1))
    paused, none = step(state, CameraLost(0.2))
    assert none == () and paused.phase == Paused(Laying())
    with pytest.raises(IllegalObservation, match="Look while Paused"):
        step(paused, Look(TableView(1.0, cards("4C")), ANA))
    with pytest.raises(IllegalObservation, match="CameraBack while Laying"):
        step(state, CameraBack(3.0))
    # then back at 3.0 s: the same picture counts only once it has held settle_s since then
    back, _ = step(paused, CameraBack(3.0))
    assert back.phase == Laying() and back.sight.known == ()
    back, out = feed(back, ANA, TableView(3.1, cards("4C")))
    assert out == []
    back, out = feed(back, ANA, TableView(3.5, cards("4C")))
    assert out == [Judge(Attempt("Ana", parse_cards("4C")))]


def test_no_code_compares_a_sentence_to_decide_anything() -> None:
    # sentences are made at the outlets: deciding on them would tie the game to one language
    root = Path(__file__).resolve().parents[3] / "dealer"

    def sentence(node: ast.expr) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_", "n_", "p_"))

    found = [f"{path.relative_to(root)}:{node.lineno}" for path in sorted(root.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, ast.Compare) and any(map(sentence, [node.left, *node.comparators]))]
    assert found == []
    # and the turn machine with its layout watch makes no sentence at all: it imports no words
    table = root / "table"
    wording = {name: sorted(node.module for node in ast.walk(ast.parse((table / name).read_text(encoding="utf-8")))
                            if isinstance(node, ast.ImportFrom) and node.module
                            and node.module.startswith("dealer.speech"))
               for name in ("layout_watch.py", "layout_problems.py", "turn_layout.py", "turn_intents.py", "turn.py",
                            "turn_state.py")}
    assert wording == {name: [] for name in wording}


def test_a_no_play_shown_to_its_end_with_a_batch_unread_is_owed_and_the_next_card_is_no_ones() -> None:
    # N1: Bo shows his 5 cards with the NO PLAY token, 2 then 2 then 1; the second batch is
    # taken away before its first card could be read, and token and cards leave after the
    # last batch. The players laid the whole hand: it is owed, not withdrawn, and the card
    # laid next, without the token, may be the next player's: it is never judged as Bo's.
    tok = {TableToken.NO_PLAY: (300.0, 0.0)}
    unread = (SeenCard(None, 0.0, 0.0), SeenCard(Card.parse("7H"), 70.0, 0.0))
    state, out = feed(initial(True, 0.5), BO, *laid(0.0, cards("9H 4D"), 0.5, 1.1, tokens_in_play=tok))
    assert out == [HandProgress(2, 5)]
    state, out = feed(state, BO, *laid(2.0, unread, 2.5, 3.1, 3.7, tokens_in_play=tok))
    assert out == [CannotRead(Unread.BATCH_CARD, 1, again=False)]
    # the batch swapped for the last one: said once, and the new card counts
    state, out = feed(state, BO, *laid(4.0, cards("10H"), 4.5, 5.1, 5.7, tokens_in_play=tok))
    assert out == [TakenAway(Taken.SWAPPED), HandProgress(3, 5)]
    state, out = feed(state, BO, TableView(6.0, (), hand_over_play=True), TableView(6.5, ()), TableView(7.1, ()))
    assert out == [AskLayAgain("Bo", parse_cards("10H 4D 9H"), Owed.SHOW_HAND_AGAIN)]
    state, out = feed(state, BO, *laid(8.0, cards("QH"), 8.5, 9.1, 9.7, 10.3))
    assert not [i for i in out if isinstance(i, Judge)]
    assert out == [AskLayAgain("Bo", parse_cards("10H 4D 9H"), Owed.SHOW_HAND_AGAIN)]
    # the hand shown again whole, with the token, is Bo's "no play"
    state, out = feed(state, BO, TableView(11.0, (), hand_over_play=True), TableView(11.5, ()), TableView(12.1, ()))
    state, out = feed(state, BO, *laid(13.0, cards("9H 4D KD 7H 10H"), 13.5, tokens_in_play=tok))
    assert out == [Judge(NoPlay("Bo", parse_cards("9H 4D KD 7H 10H")))]


def test_a_no_play_taken_away_unread_before_the_whole_hand_was_laid_is_withdrawn() -> None:
    # the players laid fewer cards than the hand holds and took token and cards back: a
    # change of mind; what Bo lays next is his attempt
    tok = {TableToken.NO_PLAY: (300.0, 0.0)}
    unread = (SeenCard(None, 0.0, 0.0), SeenCard(Card.parse("7H"), 70.0, 0.0))
    state, out = feed(initial(True, 0.5), BO, *laid(0.0, cards("9H 4D"), 0.5, 1.1, tokens_in_play=tok))
    state, out = feed(state, BO, *laid(2.0, unread, 2.5, 3.1, 3.7, tokens_in_play=tok))
    state, out = feed(state, BO, TableView(4.0, (), hand_over_play=True), TableView(4.5, ()), TableView(5.1, ()))
    assert out == [NoPlayWithdrawn()] and state.relay is None
    state, out = feed(state, BO, *laid(6.0, cards("QH"), 6.5))
    assert out == [Judge(Attempt("Bo", parse_cards("QH")))]


def test_the_prophets_decision_on_a_hand_not_seen_whole_makes_it_owed_and_each_laying_is_asked_about_once() -> None:
    # F3 on N1: Bo's second batch was swapped before it could be read; the prophet lays
    # ACCEPT where the NO PLAY token was. The players take the hand for shown: the dealer
    # asks for it again (not "I cannot see the NO PLAY token"), once, however often a hand
    # comes over the same cards; the next laying is asked about once too, and never judged.
    facts = RoundFacts(whose_turn="Bo", just_played="Ana", prophet="Cy", hand_size=5)
    tok = {TableToken.NO_PLAY: (300.0, 0.0)}
    accept = {TableToken.ACCEPT: (300.0, 0.0)}
    unread = (SeenCard(None, 0.0, 0.0), SeenCard(Card.parse("7H"), 70.0, 0.0))
    state, _ = feed(initial(True, 0.5), facts, *laid(0.0, cards("9H 4D"), 0.5, 1.1, tokens_in_play=tok))
    state, _ = feed(state, facts, *laid(2.0, unread, 2.5, 3.1, 3.7, tokens_in_play=tok))
    state, out = feed(state, facts, *laid(4.0, cards("10H"), 4.5, 5.1, 5.7, tokens_in_play=tok))
    assert out == [TakenAway(Taken.SWAPPED), HandProgress(3, 5)]
    owed = AskLayAgain("Bo", parse_cards("10H 4D 9H"), Owed.SHOW_HAND_AGAIN)
    state, out = feed(state, facts, *laid(6.0, cards("10H"), 6.5, 7.1, 7.7, tokens_in_play=accept))
    assert out == [owed]
    state, out = feed(state, facts, *laid(8.0, cards("10H"), 8.5, 9.1, 9.7, 10.3, tokens_in_play=accept))
    assert out == []
    state, out = feed(state, facts, TableView(11.0, (), hand_over_play=True), TableView(11.5, ()), TableView(12.1, ()))
    state, out = feed(state, facts, *laid(13.0, cards("QH"), 13.5, 14.1, 14.7))
    assert out == [owed]
    state, out = feed(state, facts, *laid(15.0, cards("QH"), 15.5, 16.1, 16.7, 17.3, tokens_in_play=accept))
    assert out == []
