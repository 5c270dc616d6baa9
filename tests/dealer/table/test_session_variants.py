"""The live dealer deals the variants (docs/rules-variants.md: WK*, EX*, AB*), driven by
synthetic table views: the engine's round of the variant judges, the table's rules
(dealer/table/table_rules.py) say what the table may do, and the dealer says the variant's
own sentences."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from dealer.speech.voice import FakeVoice
from dealer.table.happenings import Happening
from dealer.table.protocol import SeenCard, TableToken, TableView
from dealer.table.session import DealerSession, SessionConfig
from dealer.table.table_rules import TableRules, WrongCard
from dealer.table.turn import initial, step
from dealer.table.turn_input import Look, RoundFacts
from dealer.table.turn_intents import Judge, Missing, NotInGame
from engine.cards import Card
from engine.events import Attempt
from engine.judging import judge_text
from engine.rules import resolve_rule
from engine.variants.abbott import AbbottRound


class Table:
    """Plays views into a session: each ``lay`` holds the cards for 3 s, then clears."""

    def __init__(self, session: DealerSession, voice: FakeVoice) -> None:
        self.session, self.voice, self.t, self.frame = session, voice, 0.0, 0
        self._say(session.begin())

    def _say(self, happened: list[Happening]) -> None:
        for h in happened:
            text = getattr(h, "text", "")
            if text:
                self.voice.say(text)

    def show(self, labels: str, seconds: float = 3.0, tokens: Mapping[TableToken, tuple[float, float]] | None = None,
             prophet_token_out: bool = False) -> None:
        cards = tuple(SeenCard(Card.parse(lab), 70.0 * i, 0.0) for i, lab in enumerate(labels.split()))
        for _ in range(int(seconds / 0.5)):
            self.t += 0.5
            self.frame += 1
            self._say(self.session.observe(TableView(self.t, cards, dict(tokens or {}), prophet_token_out,
                                                     frame=self.frame)))

    def lay(self, labels: str, **kw: object) -> None:
        self.show(labels, **kw)  # type: ignore[arg-type]
        self.show("", 1.0)


def _deal(variant: str, hand: int, decks: int) -> tuple[DealerSession, FakeVoice, Table]:
    voice = FakeVoice()
    config = SessionConfig(players=("Ana", "Bo", "Cy"), rule="alternate-colour", hand_size=hand, decks=decks,
                           settle_s=1.0, spoken_cards=False, variant=variant)
    session = DealerSession(config, nonce="fixed-nonce-0123456789")
    return session, voice, Table(session, voice)


def _judged_alike(session: DealerSession) -> None:
    """The dealer's record, read back by `eleusis judge`, gives the same turns and scores."""
    assert session.round is not None
    text = session.game_record().replace(f"sealed {session.seal.commitment}", "alternate-colour")
    judged = judge_text(text, resolve_rule)
    assert judged.record.start.variant == session.config.variant
    assert [t.verdict for _n, t in judged.turns] == [t.verdict for t in session.round.turns]
    assert judged.round.result() == session.round.result()


def test_table_rules_are_the_variants_data() -> None:
    assert TableRules.of("howell") == TableRules()
    assert (TableRules.of("wikipedia").chains, TableRules.of("wikipedia").prophet) == (True, True)
    express, abbott = TableRules.of("express"), TableRules.of("abbott-1959")
    assert (express.chains, express.no_play, express.prophet, express.wrong_card) == (
        False, False, False, WrongCard.SIDE_LINE)  # EX2-EX4, EX6
    assert (abbott.chains, abbott.no_play, abbott.prophet, abbott.wrong_card) == (
        False, False, False, WrongCard.IN_FRONT)  # AB2, AB3, AB5
    with pytest.raises(ValueError, match="kruskal: the oracle turns the cards"):
        TableRules.of("kruskal")


def test_the_turn_machine_judges_no_chain_where_the_variant_has_none() -> None:
    # EX2: two cards laid in express are said at once, never sent to the round; in Howell they are a chain
    facts = RoundFacts(True, "Ana", None, None, 3)
    cards = (SeenCard(Card.parse("4C"), 0.0, 0.0), SeenCard(Card.parse("9D"), 70.0, 0.0))
    for rules, want in ((TableRules.of("express"), NotInGame(Missing.CHAIN, "express")),
                        (TableRules(), Judge(Attempt("Ana", (Card.parse("4C"), Card.parse("9D")))))):
        state, said = initial(True, 1.0, rules), list[object]()
        for k in range(1, 8):
            state, intents = step(state, Look(TableView(0.5 * k, cards), facts))
            said += intents
            if any(isinstance(i, Judge) for i in intents):
                break  # the round's verdict comes next
        assert said == [want]


def test_express_is_dealt_live_one_card_a_turn_with_no_no_play_and_no_prophet() -> None:
    session, voice, table = _deal("express", hand=3, decks=1)
    table.lay("7H")
    table.lay("4C 9D")  # EX2
    table.lay("4C")
    table.lay("5S", tokens={TableToken.NO_PLAY: (200.0, 0.0)})  # EX3
    table.lay("QC")
    table.show("", 3.0, prophet_token_out=True)  # EX4: Bo, who just played, puts out the PROPHET token
    table.lay("9D")
    said = "\n".join(voice.said)
    assert said.index("We play Eleusis Express: one card a turn") < said.index("Turn the top card of the stock")
    assert "In this game a turn is one card: leave one card in the play zone and take the others back." in said
    assert 'There is no "no play" in this game: take the NO PLAY token away and play a card.' in said
    assert "There is no prophet in this game: take the PROPHET token away." in said
    assert "Ana plays 4C: accepted." in said
    assert "Bo plays QC: rejected, a side branch. Bo draws 2." in said  # EX6
    assert "Cy plays 9D: accepted." in said
    assert session.round is not None and [t.player for t in session.round.turns] == ["Ana", "Bo", "Cy"]
    assert "variant: express" in session.game_record()
    _judged_alike(session)


def test_abbott_error_cards_lie_in_front_then_are_shed_to_the_end() -> None:
    # AB4 Ana starts; AB5 wrong cards lie in front, no draw; AB7 the dealer scored when every
    # hand is empty (errors 1, 1, 2: 4 - 1 x 3 = 1); AB8 shedding; AB9 Ana has no card left: 6 + 1 + 1
    session, voice, table = _deal("abbott-1959", hand=2, decks=1)
    for labels in ("7H", "QD", "4C", "9S", "5H", "8D", "10D", "QD", "8D", "9S", "QD"):
        table.lay(labels)
    said = "\n".join(voice.said)
    assert "We play Abbott's Eleusis of 1959" in said
    assert "Ana plays QD: rejected; it lies face up in front of Ana. No card is drawn as a penalty." in said
    assert "Cy plays 10D: rejected; it lies face up in front of Cy." in said
    assert said.count("Every hand is empty: the dealer scores 1. Now shed your error cards, one a turn.") == 1
    assert "Ana plays QD: accepted. The round is over: Ana has no card left." in said
    assert "Scores: Ana 8, Bo 0, Cy 0. The dealer scores 1." in said
    rnd = session.round
    assert isinstance(rnd, AbbottRound) and rnd.errors == {"Ana": (), "Bo": (Card.parse("8D"),),
                                                          "Cy": (Card.parse("10D"),)}
    assert "Put the card" not in said.split("Ana plays QD: rejected")[1].split("\n")[0]  # never to the side line
    _judged_alike(session)


def test_a_recorded_abbott_round_verifies_with_its_variant(tmp_path: Path) -> None:
    # the recording's header names the variant, so verify and review replay AB5's error cards
    # as dealt (Howell's round would refuse the first shed card as out of turn)
    from dealer.app.outlets import Outlets
    from dealer.record.recording import RecordingWriter, load_recording, write_record
    from dealer.record.verify import verify_recording

    voice = FakeVoice()
    rec = RecordingWriter(tmp_path, {"players": ["Ana", "Bo", "Cy"], "hand": 2, "decks": 1,
                                     "variant": "abbott-1959"}, fsync=False)
    outlets = Outlets(voice, rec)
    config = SessionConfig(players=("Ana", "Bo", "Cy"), rule="alternate-colour", hand_size=2, decks=1,
                           settle_s=1.0, spoken_cards=False, variant="abbott-1959")
    session = DealerSession(config, nonce="fixed-nonce-0123456789")
    outlets.deliver(session.begin())
    t = 0.0
    for labels in ("7H", "QD", "4C", "9S", "5H", "8D", "10D", "QD", "8D", "9S", "QD"):
        for shown in (labels, ""):
            for _ in range(6 if shown else 2):
                t += 0.5
                cards = tuple(SeenCard(Card.parse(lab), 70.0 * i, 0.0) for i, lab in enumerate(shown.split()))
                outlets.deliver(session.observe(TableView(t, cards, frame=int(t * 2))))
    assert session.revealed
    write_record(tmp_path, session.game_record())
    rec.close()
    check = verify_recording(load_recording(tmp_path))
    assert check.ok, check.problems
    assert isinstance(check.rebuilt.round, AbbottRound) and check.rebuilt.round.result().scores["Ana"] == 8


@pytest.mark.parametrize("lang,words", [
    ("en", "I cannot take that: Ana's hand is empty: shed one of your own error cards (QD), not 9H (AB8)"),
    ("ru", "рука игрока Ana пуста: сбросьте одну из своих ошибочных карт (QD), а не 9H (AB8)"),
    ("pt", "a mão de Ana está vazia: descarte uma das suas cartas de erro (QD), não 9H (AB8)"),
])
def test_abbott_a_shed_card_not_in_front_of_the_player_is_refused_in_their_language(lang: str, words: str) -> None:
    # AB8: every hand is empty and Ana's one error card is QD; she lays 9H
    from dealer.speech.i18n import use_language

    with use_language(lang):
        session, voice, table = _deal("abbott-1959", hand=2, decks=1)
        for labels in ("7H", "QD", "4C", "9S", "5H", "8D", "10D", "9H"):
            table.lay(labels)
    said = "\n".join(voice.said)
    assert words in said
    assert session.round is not None and len(session.round.turns) == 6  # nothing judged on the refused card


def test_wikipedia_says_its_markers_and_deals_chains() -> None:
    # WK3: the 10th card on the table (main line and side lines) gets a white marker
    session, voice, table = _deal("wikipedia", hand=6, decks=2)
    for labels in ("7H", "4C 9D 2S", "QC", "3H 6S 5D", "8C 10H"):
        table.lay(labels)
    said = "\n".join(voice.said)
    assert "We play Eleusis as the Russian Wikipedia article has it" in said
    assert "Ana plays 8C 10H: accepted. Put the cards at the end of the main line. A white marker: 1 on the table." \
        in said
    assert said.count("white marker:") == 1
    assert "variant: wikipedia" in session.game_record()
    _judged_alike(session)


def test_howell_says_no_variant_sentence() -> None:
    session, voice, table = _deal("howell", hand=3, decks=3)
    assert len(session.begin()) == 2
    table.lay("7H")
    table.lay("4C 9D")
    said = "\n".join(voice.said)
    assert "We play" not in said and "Ana plays 4C 9D: accepted." in said
    assert "variant:" not in session.game_record()
