"""The keyboard fallback: keys become virtual tokens on the table view."""

import dataclasses
import io

import pytest

from dealer.table.keys import KeyState, NamedCard, WindowSpeller, card_named, stdin_keys
from dealer.table.protocol import SeenCard, TableView, TableToken
from engine.cards import Card

VIEW = TableView(1.0, (SeenCard(Card.parse("4H"), 80.0, 10.0), SeenCard(Card.parse("2D"), 10.0, 10.0)))


@pytest.mark.parametrize(
    ("keys", "tokens", "prophet"),
    [
        ("n", {TableToken.NO_PLAY}, False),
        ("nn", set(), False),
        ("p", set(), True),
        ("a", {TableToken.ACCEPT}, False),
        ("r", {TableToken.REJECT}, False),
        ("ar", {TableToken.REJECT}, False),
        ("xyz", set(), False),
    ],
)
def test_keys_lay_virtual_tokens(keys: str, tokens: set[TableToken], prophet: bool) -> None:
    state = KeyState()
    for key in keys:
        state.press(key)
    view = state.apply(VIEW)
    assert set(view.tokens_in_play) == tokens and view.prophet_token_out is prophet


def test_a_digit_names_the_card_counted_from_the_left() -> None:
    state = KeyState()
    state.press("2")
    view = state.apply(VIEW)
    assert view.tokens_in_play == {TableToken.REJECT: (80.0, 10.0)}  # the 2nd from the left is 4H


def test_after_a_verdict_the_turn_keys_reset_but_the_prophet_stays() -> None:
    state = KeyState()
    for key in "npa":
        state.press(key)
    state.after_verdict()
    view = state.apply(VIEW)
    assert view.tokens_in_play == {} and view.prophet_token_out


def test_an_unchanged_view_is_returned_as_is() -> None:
    assert KeyState().apply(VIEW) is VIEW


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
    state = KeyState()
    state.press("8C\n")
    view = state.apply(UNREAD)
    # then the leftmost unread card is 8C (its place and confidence kept), the other stays unread,
    # the dealer says it back in words, and the naming is kept for the recording
    assert [(c.card and str(c.card), c.x_mm, c.confidence) for c in view.play_cards] == [
        ("4H", 80.0, 1.0), (None, 150.0, 1.0), ("8C", 10.0, 0.4)]
    assert state.take_said() == ["The first card in the play zone is the eight of clubs, as you named it."]
    assert state.named == [NamedCard(Card.parse("8C"), 10.0, 11.0)]
    assert state.take_said() == [] and state.apply(UNREAD) == UNREAD  # named once: the protocol keeps it by place


def test_a_card_named_waits_for_the_hand_and_is_refused_when_every_card_is_read() -> None:
    state = KeyState()
    state.press("8C")
    busy = dataclasses.replace(UNREAD, hand_over_play=True)
    assert state.apply(busy) == busy and state.naming == Card.parse("8C")  # the card may be on its way
    assert state.apply(VIEW) == VIEW  # nothing unread: nothing named, and it is said
    assert state.take_said() == ["I can read every card in the play zone: the eight of clubs names none of them."]
    assert state.naming is None and state.named == []


def test_after_a_verdict_a_naming_is_forgotten() -> None:
    state = KeyState()
    state.press("8C")
    state.apply(UNREAD)
    state.press("9D")
    state.after_verdict()
    assert state.named == [] and state.apply(UNREAD) == UNREAD


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
    state = KeyState()
    for line in _typed([(0.0, "q"), (0.2, "s"), (1.0, "a")], until=3.0):
        state.press(line)
    assert state.naming == Card.parse("QS") and not state.quit and state.decision is TableToken.ACCEPT
