"""The keyboard fallback: keys become virtual tokens on the table view."""

import io

import pytest

from dealer.keys import KeyState, stdin_keys
from dealer.table_protocol import SeenCard, TableView, TableToken
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
