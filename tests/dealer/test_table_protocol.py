"""The table protocol: stable views of the play zone become attempts, no plays, prophets."""

from dataclasses import dataclass, field

import pytest

from dealer.table_protocol import Intent, Phase, SeenCard, TableProtocol, TableView, Token
from engine.cards import Card, parse_cards
from engine.events import Attempt, BecomeProphet, NoPlay, ProphetDecision


@dataclass
class FakeRound:
    """The RoundView contract: whose turn, the prophet, hand sizes."""

    whose_turn: str | None = "Ana"
    prophet: str | None = None
    just_played: str | None = None
    started: bool = True
    hands: dict[str, int] = field(default_factory=lambda: {"Ana": 14, "Bo": 5})

    def hand_size(self, player: str) -> int:
        return self.hands[player]


def cards(text: str, y: float = 0.0) -> tuple[SeenCard, ...]:
    return tuple(SeenCard(Card.parse(label), 70.0 * i, y) for i, label in enumerate(text.split()))


def run(proto: TableProtocol, views: list[TableView]) -> list[Intent]:
    out: list[Intent] = []
    for view in views:
        out += proto.observe(view)
    return out


def actions(intents: list[Intent]) -> list[object]:
    return [i.action for i in intents if i.action is not None]


def test_an_attempt_is_judged_once_the_zone_settles_in_left_to_right_order() -> None:
    # given Ana's turn, when 4C then 9H are laid and stay still for the settle time
    proto = TableProtocol(FakeRound(), settle_s=2.0)
    laid = (SeenCard(Card.parse("9H"), 80.0, 0.0), SeenCard(Card.parse("4C"), 10.0, 2.0))  # listed out of order
    views = [TableView(0.0, laid[1:]), TableView(0.5, laid), TableView(1.5, laid), TableView(2.6, laid)]
    out = run(proto, views)
    # then one attempt 4C 9H (P1: left to right), not before it settled
    assert actions(out) == [Attempt("Ana", parse_cards("4C 9H"))]
    assert proto.phase is Phase.CLEARING


def test_a_changing_zone_is_not_judged() -> None:
    proto = TableProtocol(FakeRound(), settle_s=2.0)
    views = [TableView(t * 0.5, cards("4C" if t % 2 else "4C 9H")) for t in range(12)]
    assert actions(run(proto, views)) == []


def test_an_unreadable_card_is_reported_once_and_never_judged() -> None:
    proto = TableProtocol(FakeRound(), settle_s=1.0)
    laid = (SeenCard(Card.parse("4C"), 0, 0), SeenCard(None, 70, 0))
    out = run(proto, [TableView(t, laid) for t in (0.0, 1.2, 2.0, 3.0)])
    assert actions(out) == []
    assert [i.trouble for i in out if i.trouble] == [
        "I cannot read the second card in the play zone: straighten it or move your hand away."
    ]


def test_after_a_verdict_the_zone_must_empty_before_the_next_turn() -> None:
    game = FakeRound()
    proto = TableProtocol(game, settle_s=1.0)
    run(proto, [TableView(0, cards("4C")), TableView(1.1, cards("4C"))])
    game.just_played = "Ana"
    proto.judged()
    game.whose_turn = "Bo"
    # when the cards still lie there, nothing new is judged; when they go, Bo is called
    out = run(proto, [TableView(2.5, cards("4C")), TableView(5.0, cards("4C")), TableView(6.0, ())])
    assert actions(out) == [] and [i.say for i in out] == ["Bo, your turn."]


def test_no_play_hand_shown_in_batches_is_counted_and_judged_when_complete() -> None:
    # given Bo holds 5 cards and puts the NO PLAY token out (N1)
    game = FakeRound(whose_turn="Bo")
    proto = TableProtocol(game, settle_s=1.0)
    tok = {Token.NO_PLAY: (300.0, 0.0)}
    views = [
        TableView(0.0, cards("2D 4H 6S"), tok),
        TableView(1.2, cards("2D 4H 6S"), tok),  # batch 1 settles: 3 of 5
        TableView(2.0, (), tok),  # cleared between batches
        TableView(3.0, cards("8C 2D"), tok),  # a second 2D: another copy in the hand
        TableView(4.5, cards("8C 2D"), tok),
    ]
    out = run(proto, views)
    assert [i.say for i in out if i.say] == ["3 of 5 seen. Show the other 2."]
    assert actions(out) == [NoPlay("Bo", parse_cards("2D 4H 6S 8C 2D"))]


def test_no_play_cards_left_lying_are_not_counted_twice() -> None:
    game = FakeRound(whose_turn="Bo")
    proto = TableProtocol(game, settle_s=1.0)
    tok = {Token.NO_PLAY: (300.0, 0.0)}
    views = [TableView(0.0, cards("2D 4H"), tok), TableView(1.1, cards("2D 4H"), tok),
             TableView(2.0, cards("2D 4H 6S 8C 10C"), tok), TableView(3.5, cards("2D 4H 6S 8C 10C"), tok)]
    assert actions(run(proto, views)) == [NoPlay("Bo", parse_cards("2D 4H 6S 8C 10C"))]


def test_too_many_cards_shown_for_the_hand_is_trouble() -> None:
    game = FakeRound(whose_turn="Bo", hands={"Bo": 2})
    proto = TableProtocol(game, settle_s=1.0)
    tok = {Token.NO_PLAY: (300.0, 0.0)}
    out = run(proto, [TableView(0, cards("2D 4H 6S"), tok), TableView(1.5, cards("2D 4H 6S"), tok)])
    assert actions(out) == [] and "holds 2" in out[-1].trouble


@pytest.mark.parametrize(
    ("token", "decision"),
    [(Token.ACCEPT, ProphetDecision.agree()), (Token.REJECT, ProphetDecision.reject())],
)
def test_with_a_prophet_the_attempt_waits_for_the_token(token: Token, decision: ProphetDecision) -> None:
    # given Cy is prophet (F3), when Ana's attempt settles, the dealer asks, then the token decides
    game = FakeRound(prophet="Cy")
    proto = TableProtocol(game, settle_s=1.0)
    out = run(proto, [TableView(0, cards("4C")), TableView(1.5, cards("4C"))])
    assert actions(out) == [] and out[-1].say == "Prophet Cy, accept or reject?"
    out = run(proto, [TableView(2.0, cards("4C"), {token: (100.0, 50.0)})])
    assert actions(out) == [Attempt("Ana", parse_cards("4C"), decision)]


def test_prophet_rejecting_a_no_play_names_the_card_nearest_the_token() -> None:
    game = FakeRound(whose_turn="Bo", prophet="Cy", hands={"Bo": 3})
    proto = TableProtocol(game, settle_s=1.0)
    tok = {Token.NO_PLAY: (300.0, 0.0)}
    hand = cards("2D 4H 6S")
    run(proto, [TableView(0, hand, tok), TableView(1.5, hand, tok)])
    out = run(proto, [TableView(2.0, hand, {**tok, Token.REJECT: (75.0, 40.0)})])
    assert actions(out) == [NoPlay("Bo", parse_cards("2D 4H 6S"), ProphetDecision.reject(parse_cards("4H")[0]))]


def test_prophet_token_right_after_own_turn_appoints_that_player() -> None:
    game = FakeRound()
    proto = TableProtocol(game, settle_s=1.0)
    run(proto, [TableView(0, cards("4C")), TableView(1.5, cards("4C"))])
    game.just_played = "Ana"
    proto.judged()
    game.whose_turn = "Bo"
    out = run(proto, [TableView(2.0, cards("4C"), prophet_token_out=True),
                      TableView(2.5, cards("4C"), prophet_token_out=True)])
    assert actions(out) == [BecomeProphet("Ana")]  # once, though the token stays out


def test_prophet_token_before_anyone_played_is_refused() -> None:
    proto = TableProtocol(FakeRound(), settle_s=1.0)
    out = proto.observe(TableView(0.0, (), prophet_token_out=True))
    assert actions(out) == [] and "F1" in out[0].trouble
