"""The round as a state machine: setup (C1-C5), attempts (P1-P5), "no play" (N1-N4), the fold."""

from __future__ import annotations

import pytest
from rulekit import (
    AlternateColour,
    AnyCard,
    PairStart,
    RedOnly,
    alternating,
    cards,
    new_round,
)

from engine.cards import Card, parse_cards
from engine.errors import IllegalActionError, RoundError, RoundSetupError
from engine.events import (
    Attempt,
    BecomeProphet,
    EndReason,
    NoPlay,
    ProphetDecision,
    RoundStarted,
    Verdict,
)
from engine.round import Round, deal_starters, first_seat

# ----- C1-C5: before the first turn ----------------------------------------------------


@pytest.mark.parametrize(("players", "hand", "decks", "starters", "stock"), [
    (3, 14, 3, 1, 156 - 42 - 1),  # C1, C3
    (8, 14, 3, 1, 156 - 112 - 1),
    (4, 10, 2, 1, 104 - 40 - 1),
    (3, 14, 3, 2, 156 - 42 - 2),  # C4: a rule needing two starters
])
def test_stock_is_the_shoe_minus_hands_and_starters(players: int, hand: int, decks: int, starters: int, stock: int) -> None:
    # given a fresh round, when nothing is played yet, then stock = shoe - hands - starters (C1, C3)
    names = [f"P{i}" for i in range(players)]
    rule = PairStart() if starters == 2 else AnyCard()
    start = "7H 7S" if starters == 2 else "7H"
    rnd = Round.new(rule, names, parse_cards(start), hand_size=hand, decks=decks)
    assert rnd.stock == stock
    assert rnd.hands() == dict.fromkeys(names, hand)
    assert rnd.table_count == starters  # starters are table cards on the main line (C4)


@pytest.mark.parametrize("count", [2, 9, 0])
def test_three_to_eight_players(count: int) -> None:
    # given too few or too many players, when the round starts, then it refuses (C2)
    with pytest.raises(RoundSetupError, match="C2"):
        new_round(players=[f"P{i}" for i in range(count)])


@pytest.mark.parametrize("names", [("Ana", "Ana", "Bo"), ("Ana", "Bo Cy", "Dee"), ("Ana", "B:o", "Cy"), ("Ana", "", "Cy")])
def test_bad_player_names_are_refused(names: tuple[str, ...]) -> None:
    with pytest.raises(RoundSetupError):
        new_round(players=names)


def test_deal_larger_than_the_shoe_is_refused() -> None:
    # given 8 hands of 14 and one deck, when the round starts, then it refuses (C1, C3)
    with pytest.raises(RoundSetupError, match="C3"):
        new_round(players=[f"P{i}" for i in range(8)], decks=1)


@pytest.mark.parametrize(("rule", "start", "match"), [
    (AlternateColour(), "7H 8S", "needs 1"),  # more than the rule needs (C4)
    (PairStart(), "7H", "needs 2"),
    (RedOnly(), "7S", "does not accept 7S as the first card"),
    (PairStart(), "7H 8H", "does not accept 8H as the card 2"),
    (AnyCard(), "", "needs 1"),
])
def test_starters_must_be_exactly_what_the_rule_accepts(rule: object, start: str, match: str) -> None:
    # given starters the rule would send back or does not need, then the round refuses (C4)
    with pytest.raises(RoundSetupError, match=match) as info:
        Round.new(rule, ["Ana", "Bo", "Cy"], parse_cards(start))  # type: ignore[arg-type]
    assert info.value.field == "start"


@pytest.mark.parametrize(("rule", "stock", "starters", "rest"), [
    (RedOnly(), "2C 3S 4H 5D", "4H", "5D 2C 3S"),  # unaccepted cards go to the bottom unseen (C4)
    (AnyCard(), "2C 3S", "2C", "3S"),
    (PairStart(), "2C 3S 2H 9D", "2C 2H", "9D 3S"),
    (PairStart(), "2C 3S 3D 4H", "3S 3D", "4H 2C"),
])
def test_deal_starters(rule: object, stock: str, starters: str, rest: str) -> None:
    laid, left = deal_starters(rule, parse_cards(stock))  # type: ignore[arg-type]
    assert laid == parse_cards(starters)
    assert left == parse_cards(rest)


def test_deal_starters_gives_up_when_no_card_fits() -> None:
    with pytest.raises(RoundSetupError, match="C4"):
        deal_starters(RedOnly(), parse_cards("2C 3S 4C"))


@pytest.mark.parametrize(("players", "starter", "seat"), [
    (3, "AH", 0), (3, "2H", 1), (3, "3H", 2), (3, "4H", 0), (3, "KH", 0),
    (4, "7H", 2), (5, "QS", 1), (8, "8C", 7), (8, "9C", 0),
])
def test_first_player_counts_from_the_dealers_left(players: int, starter: str, seat: int) -> None:
    # given the last starter's rank, when counting players from seat 0, then the count ends on seat (C5)
    assert first_seat(players, Card.parse(starter)) == seat
    names = [f"P{i}" for i in range(players)]
    assert Round.new(AnyCard(), names, parse_cards(starter)).whose_turn == names[seat]


def test_first_player_counts_the_last_of_several_starters() -> None:
    # given starters 2H 2S (a pair rule), then the rank of 2S counts: seat 1 (C5)
    rnd = Round.new(PairStart(), ["Ana", "Bo", "Cy"], parse_cards("AH AS"))
    assert rnd.whose_turn == "Ana"
    rnd = Round.new(PairStart(), ["Ana", "Bo", "Cy"], parse_cards("2H 2S"))
    assert rnd.whose_turn == "Bo"


def test_turns_pass_to_the_left() -> None:
    rnd = new_round(start="2H")  # C5: Bo starts
    order = []
    for card in alternating(6, first_red=False):
        order.append(rnd.whose_turn)
        assert rnd.whose_turn is not None
        rnd.attempt(rnd.whose_turn, (card,))
    assert order == ["Bo", "Cy", "Ana", "Bo", "Cy", "Ana"]


# ----- P1-P5: attempts ------------------------------------------------------------------


@pytest.mark.parametrize(("play", "verdict", "line", "hand"), [
    ("4C", Verdict.ACCEPTED, "KH 4C", 13),  # P3
    ("4C 9H", Verdict.ACCEPTED, "KH 4C 9H", 12),  # P1, P2: each next after the one before
    ("4C 9H 2S", Verdict.ACCEPTED, "KH 4C 9H 2S", 11),
    ("QD", Verdict.REJECTED, "KH", 14 - 1 + 2),  # P4: 2 per card, the cards never return
    ("4C 9S", Verdict.REJECTED, "KH", 14 - 2 + 4),  # P2: the second card is judged after 4C
    ("4D 9S", Verdict.REJECTED, "KH", 14 - 2 + 4),  # P4: the whole attempt goes, whichever card was wrong
])
def test_an_attempt_is_judged_as_a_whole(play: str, verdict: Verdict, line: str, hand: int) -> None:
    # given the line ends KH under alternate colours, when Ana plays, then verdict, line and hand follow
    rnd = new_round()
    outcome = rnd.attempt("Ana", cards(play))
    assert outcome.verdict is verdict
    assert rnd.line == parse_cards(line)
    assert rnd.hand_size("Ana") == hand
    assert outcome.penalty == (0 if verdict is Verdict.ACCEPTED else 2 * len(cards(play)))
    assert rnd.table_count == 1 + len(cards(play))  # branches count on the table (E1)


def test_rejected_attempts_become_branches_at_the_old_end() -> None:
    # given KH, when Ana's QD and Bo's 2D 3C fail and Cy's 4C succeeds, then branches keep order and grouping (P4, P5)
    rnd = new_round()
    rnd.attempt("Ana", cards("QD"))
    rnd.attempt("Bo", cards("2D 3C"))
    rnd.attempt("Cy", cards("4C"))
    rnd.attempt("Ana", cards("5S"))
    layout = rnd.layout
    assert layout.main == cards("KH 4C")
    assert [(b.anchor, b.cards, b.player) for b in layout.branches] == [
        (0, cards("QD"), "Ana"), (0, cards("2D 3C"), "Bo"), (1, cards("5S"), "Ana")]
    assert layout.end == Card.parse("4C")
    assert "after 4C: [5S] (Ana)" in layout.describe()


@pytest.mark.parametrize(("action", "match"), [
    (Attempt("Bo", cards("4C")), "Ana's turn"),
    (Attempt("Zed", cards("4C")), "not a player"),
    (Attempt("Ana", ()), "P1"),
    (Attempt("Ana", cards("4C 5H") * 8), "holds 14"),
    (Attempt("Ana", cards("KH KH KH")), "C1"),  # a 4th KH with the starter
    (Attempt("Ana", cards("4C"), ProphetDecision.agree()), "no prophet"),
    (NoPlay("Ana", cards("4C")), "holds 14"),
    (BecomeProphet("Bo"), "right after their own turn"),
])
def test_impossible_actions_are_refused_and_not_logged(action: object, match: str) -> None:
    # given a fresh round, when an impossible action is applied, then RoundError and nothing changes
    rnd = new_round()
    before = rnd.state()
    with pytest.raises(IllegalActionError, match=match):
        rnd.apply(action)  # type: ignore[arg-type]
    assert rnd.state() == before
    assert len(rnd.events) == 1


def test_refusals_carry_their_facts_as_values() -> None:
    # given a fresh round (Ana on turn, 14 cards each, two decks, starter KH)
    from engine.errors import NotAfterOwnTurn, OutOfTurn, TooManyCards, TooManyCopies, UnknownPlayer

    def refusal(action: object) -> object:
        with pytest.raises(IllegalActionError) as exc:
            new_round().apply(action)  # type: ignore[arg-type]
        return exc.value.refusal

    # when impossible actions are applied, then each refusal names who, what and how many
    assert refusal(Attempt("Bo", cards("4C"))) == OutOfTurn(player="Bo", expected="Ana")  # C5
    assert refusal(Attempt("Ana", cards("4C 5H") * 8)) == TooManyCards(player="Ana", played=16, held=14)
    assert refusal(Attempt("Ana", cards("KH KH KH"))) == TooManyCopies(Card.parse("KH"), copies=4, decks=3)  # C1: a 4th KH with the starter
    assert refusal(Attempt("Zed", cards("4C"))) == UnknownPlayer("Zed", ("Ana", "Bo", "Cy"))
    assert refusal(BecomeProphet("Bo")) == NotAfterOwnTurn("Bo")  # F1
    assert new_round().prophet_refusal("Bo") == NotAfterOwnTurn("Bo")


def test_copies_count_the_table_and_the_shown_hand() -> None:
    # given two KH on the table (starter and Bo's), when Cy shows two more, then C1 refuses
    rnd = new_round(start="KH")
    rnd.attempt("Ana", cards("KS"))
    rnd.attempt("Bo", cards("KH"))
    hand = cards("KH KH 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC AC")
    with pytest.raises(RoundError, match="3 decks hold 3"):
        rnd.no_play("Cy", hand)
    rnd.no_play("Cy", hand[1:] + cards("AS"))  # one KH more is fine: three in all


# ----- N1-N4: "no play" -----------------------------------------------------------------

BLACKLESS = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH 2D"  # no legal card after KH
ONE_BLACK = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH 5S 4C"  # 5S, then 4C, legal


def test_right_no_play_gives_a_new_hand_of_4_fewer() -> None:
    # given 14 cards and no legal one, when Ana declares no play, then 10 new cards (N2)
    rnd = new_round()
    stock = rnd.stock
    outcome = rnd.no_play("Ana", cards(BLACKLESS))
    assert (outcome.verdict, outcome.new_hand, outcome.penalty) == (Verdict.NOPLAY_RIGHT, 10, 0)
    assert rnd.hand_size("Ana") == 10
    assert rnd.stock == stock + 14 - 10  # the hand went to the bottom of the stock
    assert rnd.table_count == 1  # N4: a returned hand is not on the table
    assert rnd.whose_turn == "Bo"


def test_wrong_no_play_adds_the_first_legal_card_and_5_penalty() -> None:
    # given a hand with 5S and 4C legal, when Ana declares no play, then 5S joins the line, 14-1+5 (N3)
    rnd = new_round()
    outcome = rnd.no_play("Ana", cards(ONE_BLACK))
    assert (outcome.verdict, outcome.card, outcome.penalty) == (Verdict.NOPLAY_WRONG, Card.parse("5S"), 5)
    assert rnd.line == cards("KH 5S")
    assert rnd.hand_size("Ana") == 18


def test_wrong_no_play_of_8_cards_becomes_12() -> None:
    # the seeds' own figure: 8 cards become 8-1+5=12 (N3)
    rnd = new_round(hand=8)
    rnd.no_play("Ana", cards("AH 2H 3H 4H 5H 6H 7H 7C"))
    assert rnd.hand_size("Ana") == 12


@pytest.mark.parametrize("size", [1, 3, 4])
def test_right_no_play_with_4_or_fewer_clears_the_hand_and_ends(size: int) -> None:
    # given a hand of 4 or fewer, no legal card, when no play, then the hand is cleared and the round ends (N2, G1)
    rnd = new_round(hand=size)
    stock = rnd.stock
    outcome = rnd.no_play("Ana", cards(BLACKLESS)[:size])
    assert outcome.legally_emptied and outcome.ended is EndReason.EMPTIED
    assert rnd.hand_size("Ana") == 0 and rnd.stock == stock + size
    assert rnd.result().emptied == "Ana"
    assert rnd.whose_turn is None


def test_right_no_play_with_5_cards_gives_1() -> None:
    rnd = new_round(hand=5)
    assert rnd.no_play("Ana", cards(BLACKLESS)[:5]).new_hand == 1
    assert rnd.ended is None


# ----- the log is the truth -------------------------------------------------------------


def _busy_round() -> Round:
    rnd = new_round(players=("Ana", "Bo", "Cy", "Dee"), start="AH")  # Ana starts
    rnd.attempt("Ana", cards("4C 9H"))
    rnd.become_prophet("Ana")
    rnd.attempt("Bo", cards("QD"), ProphetDecision.reject())
    rnd.no_play("Cy", cards(ONE_BLACK), ProphetDecision.reject(Card.parse("4C")))
    rnd.attempt("Dee", cards("2D 3C"), ProphetDecision.reject())  # wrong prophet: overthrown (F4)
    rnd.attempt("Ana", cards("5S"))
    return rnd


def test_replaying_the_log_rebuilds_the_state_exactly() -> None:
    # given a round with every kind of event, when its log is replayed, then the state is equal
    rnd = _busy_round()
    again = Round.replay(AlternateColour(), rnd.events)
    assert again.state() == rnd.state()
    assert again.result() == rnd.result()
    assert again.events == rnd.events
    assert isinstance(rnd.events[0], RoundStarted)


def test_replaying_a_prefix_gives_the_state_at_that_time() -> None:
    rnd = _busy_round()
    part = Round.replay(AlternateColour(), rnd.events[:3])
    assert part.prophet == "Ana" and part.line == cards("AH 4C 9H")
    assert part.state() != rnd.state()


@pytest.mark.parametrize("events", [[], [Attempt("Ana", cards("4C"))]])
def test_a_log_starts_with_round_started(events: list[object]) -> None:
    with pytest.raises(RoundSetupError):
        Round.replay(AnyCard(), events)  # type: ignore[arg-type]


# ----- R1, R2: the rule alone decides, and only G1 ends the round ------------------------


@pytest.mark.parametrize("first", ["Ana", "Bo", "Cy"])
def test_verdicts_do_not_depend_on_who_plays(first: str) -> None:
    # given the same line, when any player offers the same cards, then the verdict is the same (R1)
    starter = {"Ana": "KH", "Bo": "2H", "Cy": "3H"}[first]  # C5 seats `first` first
    rnd = new_round(start=starter)
    assert rnd.whose_turn == first
    assert rnd.attempt(first, cards("4C 9H")).verdict is Verdict.ACCEPTED
    assert rnd.attempt(rnd.whose_turn or "", cards("2H")).verdict is Verdict.REJECTED


def test_only_g1_ends_a_round() -> None:
    # the ends are G1's three; guessing the rule is no event and ends nothing (R2)
    assert {reason.value for reason in EndReason} == {"emptied", "expelled", "stock"}
