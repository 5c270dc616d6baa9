"""The keyboard fallback: a key is an observation of the turn machine, like the token it stands for."""

import dataclasses
import io

import pytest

from dealer.speech.turn_words import words
from dealer.table.keys import Command, NamedCard, WindowSpeller, card_named, key_of, stdin_keys
from dealer.table.protocol import SeenCard, TableView, TableToken
from dealer.table.turn import AwaitingVerdict, Keyed, ProphetToken, TurnState, initial, step
from dealer.table.turn_input import CardNamed, Key, KeyPressed, Look, RoundFacts, VerdictGiven
from dealer.table.turn_intents import (
    AskProphet,
    CannotRead,
    CardNamedAs,
    Judge,
    NothingToName,
    TurnIntent,
    Unread,
    YourTurn,
)
from engine.cards import Card, parse_cards
from engine.events import Attempt, BecomeProphet, NoPlay, ProphetDecision

VIEW = TableView(1.0, (SeenCard(Card.parse("4H"), 80.0, 10.0), SeenCard(Card.parse("2D"), 10.0, 10.0)))


FACTS = RoundFacts(whose_turn="Ana", just_played="Cy", hand_size=2)


def _press(state: TurnState, text: str, t: float = 0.5) -> TurnState:
    pressed = key_of(text, t)
    assert isinstance(pressed, (KeyPressed, CardNamed)), text
    state, intents = step(state, pressed)
    assert intents == ()  # a key alone says nothing: it counts with the next frame, as a token would
    return state


def _look(state: TurnState, *views: TableView, facts: RoundFacts = FACTS) -> tuple[TurnState, list[TurnIntent]]:
    out: list[TurnIntent] = []
    for view in views:
        state, intents = step(state, Look(view, facts))
        out += intents
    return state, out


def _laid(picture: tuple[SeenCard, ...], t0: float = 1.0) -> list[TableView]:
    """A hand lays ``picture`` at ``t0`` and leaves; the picture then holds."""
    return [TableView(t0, picture, hand_over_play=True), TableView(t0 + 0.5, picture)]


@pytest.mark.parametrize(("keys", "no_play", "prophet", "decision"), [
    ("n", True, False, None), ("nn", False, False, None), ("p", False, True, None), ("pp", False, False, None),
    ("a", False, False, TableToken.ACCEPT), ("r", False, False, TableToken.REJECT),
    ("ar", False, False, TableToken.REJECT), ("xyz", False, False, None),
])
def test_keys_are_observations_the_machine_keeps_as_the_tokens_they_stand_for(
        keys: str, no_play: bool, prophet: bool, decision: TableToken | None) -> None:
    state = initial(started=True)
    for key in keys:
        if key_of(key, 0.5) is not None:
            state = _press(state, key)
    assert (state.keyed.no_play, state.prophet.keyed, state.keyed.decision) == (no_play, prophet, decision)


def test_key_n_makes_the_cards_laid_a_no_play_hand_like_the_token() -> None:
    state = _press(initial(started=True), "n")
    state, said = _look(state, *_laid(VIEW.play_cards))
    hand = NoPlay("Ana", parse_cards("2D 4H"))
    assert said == [Judge(hand)] and state.phase == AwaitingVerdict(hand, hand.hand)


def test_without_the_key_the_same_cards_are_an_attempt() -> None:
    state, said = _look(initial(started=True), *_laid(VIEW.play_cards))
    assert said == [Judge(Attempt("Ana", parse_cards("2D 4H")))]


def test_key_p_appoints_the_player_who_just_played_like_the_token_once() -> None:
    state = _press(initial(started=True), "p")
    state, said = _look(state, TableView(1.0), TableView(1.5))
    assert said == [Judge(BecomeProphet("Cy"))] and state.prophet == ProphetToken(seen=True, keyed=True)


def test_a_digit_rejects_naming_the_card_counted_from_the_left() -> None:
    # F6: a "no play" rejected by the prophet names the legal card: key 2 is the 2nd from the left, 4H
    facts = dataclasses.replace(FACTS, prophet="Bo")
    state = _press(initial(started=True), "n")
    state, said = _look(state, *_laid(VIEW.play_cards), facts=facts)
    assert said == [AskProphet("Bo")]
    state = _press(state, "2", t=3.0)
    state, said = _look(state, TableView(3.0, VIEW.play_cards), facts=facts)
    assert said == [Judge(NoPlay("Ana", parse_cards("2D 4H"), ProphetDecision.reject(Card.parse("4H"))))]


def test_after_a_verdict_the_turn_keys_reset_but_the_prophet_stays() -> None:
    state = initial(started=True)
    for key in "npa":
        state = _press(state, key)
    state, _ = _look(state, *_laid(VIEW.play_cards))
    state, _ = step(state, VerdictGiven(NoPlay("Ana", parse_cards("2D 4H"))))
    assert state.keyed == Keyed() and state.prophet.keyed


def test_stdin_keys_on_a_non_terminal_returns_nothing() -> None:
    assert stdin_keys(io.StringIO("n\n"))() == ""


@pytest.mark.parametrize(("typed", "card"), [
    ("8c\n", "8C"), ("10H", "10H"), ("qs", "QS"), ("7♥", "7H"), (" as ", "AS"),  # "as": the ace of spades
    ("a", None), ("1", None), ("10", None), ("xyz", None), ("", None),  # keys, or nothing
])
def test_a_line_typed_is_a_card_only_when_it_names_one(typed: str, card: str | None) -> None:
    assert card_named(typed) == (Card.parse(card) if card else None)


UNREAD = TableView(2.0, (SeenCard(Card.parse("4H"), 80.0, 10.0), SeenCard(None, 150.0, 12.0),
                         SeenCard(None, 10.0, 11.0, 0.4)))


def test_a_card_named_goes_to_the_leftmost_card_the_camera_cannot_read() -> None:
    # given 4H read and two cards unread (the leftmost at x 10 mm), when the players type 8C
    state = _press(initial(started=True), "8C\n")
    state, said = _look(state, UNREAD)
    # then the dealer says it back, the naming is kept for the recording, and the card counts
    # as 8C while it lies there: only the other unread card is left to ask about
    assert said == [CardNamedAs(1, Card.parse("8C"))]
    assert words(said[0]) == "The first card in the play zone is the eight of clubs, as you named it."
    assert state.keyed.named == (NamedCard(Card.parse("8C"), 10.0, 11.0),) and state.keyed.naming is None
    state, said = _look(state, dataclasses.replace(UNREAD, t=3.5))
    assert said == [CannotRead(Unread.CARD, 3)]  # 8C, 4H, then the card at 150 mm


def test_a_card_named_waits_for_the_hand_and_is_refused_when_every_card_is_read() -> None:
    state = _press(initial(started=True), "8C")
    state, said = _look(state, dataclasses.replace(UNREAD, hand_over_play=True))
    assert said == [] and state.keyed.naming == Card.parse("8C")  # the card may be on its way
    state, said = _look(state, VIEW)
    assert said == [NothingToName(Card.parse("8C"))]
    assert words(said[0]) == "I can read every card in the play zone: the eight of clubs names none of them."
    assert state.keyed.naming is None and state.keyed.named == ()


def test_after_a_verdict_a_naming_not_given_is_forgotten_and_the_names_go_with_their_cards() -> None:
    state = _press(initial(started=True), "8C")
    state, _ = _look(state, TableView(1.0, (SeenCard(None, 10.0, 11.0),), hand_over_play=True),
                     TableView(1.5, (SeenCard(None, 10.0, 11.0),)), TableView(2.0, (SeenCard(None, 10.0, 11.0),)))
    assert isinstance(state.phase, AwaitingVerdict)
    state = _press(state, "9D")
    state, _ = step(state, VerdictGiven(Attempt("Ana", parse_cards("8C"))))
    assert state.keyed.naming is None and state.keyed.named == (NamedCard(Card.parse("8C"), 10.0, 11.0),)
    state, said = _look(state, TableView(4.0), TableView(4.5))
    assert said == [YourTurn("Ana")] and state.keyed.named == ()


@pytest.mark.parametrize(("typed", "what"), [
    ("u", Command.UNDO), ("q", Command.QUIT), ("j", KeyPressed(Key.JUDGE_NOW, 1.0)),
    ("o", KeyPressed(Key.LAYOUT_AS_IS, 1.0)), ("9", KeyPressed(Key.REJECT, 1.0, 8)), ("0", None), ("", None),
    ("10H", CardNamed(Card.parse("10H"), 1.0)),
])
def test_a_line_typed_is_a_key_a_command_or_a_card_name(typed: str, what: object) -> None:
    assert key_of(typed, 1.0) == what


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _typed(presses: list[tuple[float, str]], until: float) -> list[str]:
    """What KeyState is given for keys pressed in the window at the times given, polled every 0.1 s."""
    clock = Clock()
    speller = WindowSpeller(wait_s=1.0, clock=clock)
    out, pending = [], list(presses)
    while clock.now <= until:
        key = pending.pop(0)[1] if pending and pending[0][0] <= clock.now else ""
        line = speller.take(key)
        if line:
            out.append(line)
        clock.now = round(clock.now + 0.1, 6)
    return out


@pytest.mark.parametrize(("presses", "lines"), [
    ([(0.0, "q"), (0.3, "s")], ["qs"]),  # the queen of spades, not the end of the round
    ([(0.0, "1"), (0.2, "0"), (0.4, "h")], ["10h"]),
    ([(0.0, "8"), (0.5, "C")], ["8C"]),
    ([(0.0, "q")], ["q"]),  # q alone ends the round, a second later
    ([(0.0, "a"), (0.3, "n")], ["a", "n"]),  # accept, then no play: no card is "an"
    ([(0.0, "2"), (0.2, "2")], ["2", "2"]),
    ([(0.0, "n"), (0.1, "u")], ["n", "u"]),  # keys that begin no name go at once
])
def test_keys_pressed_in_the_window_spell_a_card_or_stay_keys(presses: list[tuple[float, str]],
                                                                 lines: list[str]) -> None:
    assert _typed(presses, until=3.0) == lines


def test_a_key_that_begins_a_name_waits_in_the_window_and_then_acts() -> None:
    assert _typed([(0.0, "a")], until=0.8) == []  # still waiting for a suit
    lines = _typed([(0.0, "q"), (0.2, "s"), (1.0, "a")], until=3.0)
    assert [key_of(line, 1.0) for line in lines] == [CardNamed(Card.parse("QS"), 1.0), KeyPressed(Key.ACCEPT, 1.0)]
