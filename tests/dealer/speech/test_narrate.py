"""The dealer's sentences (dealer/speech/narrate.py): what `eleusis judge` prints and the voice says."""

from __future__ import annotations

import pytest

from dealer.speech.narrate import card_words, describe_result, describe_turn
from engine.cards import Card, parse_cards
from engine.events import EndReason, TurnOutcome, Verdict
from engine.round import RoundResult


def turn(verdict: Verdict, cards: str = "", **kw: object) -> TurnOutcome:
    return TurnOutcome(1, "Ana", verdict, parse_cards(cards), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("outcome", "sentence"), [
    (turn(Verdict.ACCEPTED, "4C 9H"), "Ana plays 4C 9H: accepted."),
    (turn(Verdict.REJECTED, "QD", penalty=2), "Ana plays QD: rejected, a side branch. Ana draws 2."),
    (turn(Verdict.REJECTED, "QD 2H", penalty=4, expelled=True),
     "Ana plays QD 2H: rejected, a side branch. Ana draws 4. Ana is expelled."),
    (turn(Verdict.REJECTED, "QD", penalty=1, ended=EndReason.STOCK),
     "Ana plays QD: rejected, a side branch. Ana draws 1. The round is over: the stock ran out."),
    (turn(Verdict.REJECTED, "QD"), "Ana plays QD: rejected, a side branch. Ana draws nothing: the stock is empty."),
    (turn(Verdict.NOPLAY_RIGHT, "2S 3S 4S 5S 6S", new_hand=1),
     "Ana declares no play: right. Ana takes a new hand of 1 card."),
    (turn(Verdict.NOPLAY_RIGHT, "2S", legally_emptied=True, emptied=True, ended=EndReason.EMPTIED),
     "Ana declares no play: right. The hand is cleared. The round is over: Ana emptied the hand."),
    (turn(Verdict.NOPLAY_WRONG, "2S 5H", card=Card.parse("5H"), penalty=5),
     "Ana declares no play: wrong. The dealer plays 5H. Ana draws 5."),
    (turn(Verdict.NOPLAY_WRONG, "2S 5H", card=Card.parse("5H"), overthrown=True, prophet="Bo", prophet_penalty=5),
     ("Ana declares no play: wrong. The dealer plays 5H. The prophet Bo was wrong and is overthrown, and draws 5. "
     "Ana gets no penalty.")),
    (turn(Verdict.ACCEPTED, "4C", overthrown=True, prophet="Bo", prophet_penalty=5, emptied=True,
          legally_emptied=True, ended=EndReason.EMPTIED),
     ("Ana plays 4C: accepted. The prophet Bo was wrong and is overthrown, and draws 5. Ana has no cards left: "
     "the round is over.")),
    (turn(Verdict.REJECTED, "4C", overthrown=True, prophet="Bo", prophet_penalty=5, emptied=True,
          ended=EndReason.EMPTIED),
     ("Ana plays 4C: rejected, a side branch. The prophet Bo was wrong and is overthrown, and draws 5. "
     "Ana gets no penalty. The round is over: Ana has no cards left, without the bonus.")),
    (turn(Verdict.REJECTED, "4C", penalty=2, expelled=True, ended=EndReason.EXPELLED),
     "Ana plays 4C: rejected, a side branch. Ana draws 2. Ana is expelled. The round is over: every player is expelled."),
    (turn(Verdict.PROPHET), "Ana becomes prophet."),
])
def test_sentences(outcome: TurnOutcome, sentence: str) -> None:
    assert describe_turn(outcome) == sentence


@pytest.mark.parametrize(("card", "words"), [("AS", "the ace of spades"), ("10H", "the ten of hearts"),
                                             ("KC", "the king of clubs"), ("7D", "the seven of diamonds")])
def test_card_words(card: str, words: str) -> None:
    assert card_words(Card.parse(card)) == words


def test_spoken_chains_join_with_and() -> None:
    sentence = describe_turn(turn(Verdict.ACCEPTED, "4C 9H 2S"), spoken=True)
    assert sentence == "Ana plays the four of clubs, the nine of hearts and the two of spades: accepted."


@pytest.mark.parametrize(("ended", "prophet", "expelled", "start"), [
    (None, None, (), "The round is not over; scored as if it ended now. Hands: Ana 0, Bo 5."),
    (EndReason.EMPTIED, "Bo", ("Cy",), "Final hands: Ana 0, Bo 5. Bo is prophet at the end. Expelled: Cy."),
])
def test_result(ended: EndReason | None, prophet: str | None, expelled: tuple[str, ...], start: str) -> None:
    result = RoundResult("r", ended, {"Ana": 0, "Bo": 5}, {"Ana": 9, "Bo": 0}, 9, "Ana", prophet, expelled)
    text = describe_result(result)
    assert text.startswith(start)
    assert text.endswith("Scores: Ana 9, Bo 0. The dealer scores 9.")
