"""The live dealer session, driven by synthetic table views (no camera, no vision)."""

from pathlib import Path

from dealer.table.happenings import Happening, VerdictTakenBack
from dealer.app.outlets import Outlets
from dealer.record.recording import RuleRevealed, Sealed, Trouble, VerdictLine, load_recording
from dealer.table.session import DealerSession, SessionConfig
from dealer.table.protocol import SeenCard, TableView, TableToken
from dealer.speech.voice import FakeVoice
from engine.cards import Card
from engine.judging import judge_text
from engine.rules import resolve_rule
from engine.seal import verify


class Table:
    """Plays views into a session: each ``lay`` holds the cards for 3 s, then clears."""

    def __init__(self, session: DealerSession) -> None:
        self.session, self.t, self.frame = session, 0.0, 0

    def show(self, labels: str, seconds: float = 3.0, **kw: object) -> None:
        cards = tuple(SeenCard(Card.parse(lab) if lab != "?" else None, 70.0 * i, 0.0)
                      for i, lab in enumerate(labels.split()))
        for _ in range(int(seconds / 0.5)):
            self.t += 0.5
            self.frame += 1
            OUTLETS[self.session].deliver(self.session.observe(TableView(self.t, cards, frame=self.frame, **kw)))  # type: ignore[arg-type]

    def lay(self, labels: str, **kw: object) -> None:
        self.show(labels, **kw)
        self.show("", 1.0)


def new_session(tmp_path: Path | None = None, rule: str = "alternate-colour") -> tuple[DealerSession, FakeVoice]:
    from dealer.record.recording import RecordingWriter

    voice = FakeVoice()
    rec = RecordingWriter(tmp_path, {"players": ["Ana", "Bo", "Cy"]}, fsync=False) if tmp_path else None
    cfg = SessionConfig(players=("Ana", "Bo", "Cy"), rule=rule, hand_size=3, settle_s=1.0, spoken_cards=False)
    session = DealerSession(cfg, nonce="fixed-nonce-0123456789")
    OUTLETS[session] = Outlets(voice, rec)
    OUTLETS[session].deliver(session.begin())
    return session, voice


OUTLETS: dict[DealerSession, Outlets] = {}  # where each test session's happenings go


def undo_last(session: DealerSession, reason: str = "taken back at the table") -> bool:
    """Take back the last verdict; True when one was taken back."""
    happened: list[Happening] = session.undo_last(reason)
    OUTLETS[session].deliver(happened)
    return any(isinstance(h, VerdictTakenBack) for h in happened)


def test_a_short_round_is_dealt_spoken_and_recorded(tmp_path: Path) -> None:
    # given alternate-colour and hands of 3, when the starter 7H is turned (C4, C5: rank 7 of
    # 3 players -> Ana), then Ana plays 4C (accepted), Bo QC (rejected), Cy 9D 2S (accepted)
    session, voice = new_session(tmp_path)
    table = Table(session)
    table.lay("7H")
    table.lay("4C")
    table.lay("QC")
    table.lay("9D 2S")
    said = "\n".join(voice.said)
    assert "Starter 7H. Put it on the main line." in said
    assert "Ana, your turn." in said
    assert "Ana plays 4C: accepted." in said
    assert "Bo plays QC: rejected, a side branch. Bo draws 2." in said
    assert "Cy plays 9D 2S: accepted." in said
    assert session.round is not None and [str(c) for c in session.round.line] == ["7H", "4C", "9D", "2S"]
    # and the recording holds the seal and each verdict with its frame, in order
    rec = load_recording(tmp_path)
    verdicts = rec.of_type(VerdictLine)
    assert [v.verdict for v in verdicts] == ["accepted", "rejected", "accepted"]
    assert all(v.frame is not None for v in verdicts)
    (sealed,) = rec.of_type(Sealed)
    assert verify(sealed.commitment, "alternate-colour", "fixed-nonce-0123456789")


def test_the_exported_record_judges_the_same(tmp_path: Path) -> None:
    session, _ = new_session()
    table = Table(session)
    for labels in ("7H", "4C", "QC", "9D 2S", "KH"):
        table.lay(labels)
    # until the reveal the record's header holds the seal, not the rule (R2, G6)
    assert f"rule: sealed {session.seal.commitment}\n" in session.game_record()
    assert "alternate" not in session.game_record()
    session.finish()
    judgement = judge_text(session.game_record(), resolve_rule)
    assert [t.verdict.value for _n, t in judgement.turns] == [t.verdict.value for t in session.round.turns]


def test_a_starter_the_rule_refuses_goes_back_to_the_stock() -> None:
    # given a rule whose first card must be a club, when 7H is turned, then it goes back (C4)
    session, voice = new_session(rule="start: card.suit == clubs; card.colour != prev.colour")
    table = Table(session)
    table.lay("7H")
    assert session.round is None
    assert any("cannot start the line" in s for s in voice.said)
    table.lay("5C")
    assert session.round is not None and [str(c) for c in session.round.line] == ["5C"]


def test_a_fourth_copy_is_trouble_not_a_verdict(tmp_path: Path) -> None:
    session, voice = new_session(tmp_path)
    table = Table(session)
    table.lay("7H")
    table.lay("4C")  # Ana
    table.lay("4C")  # Bo: rejected, 2nd copy
    table.lay("4C 4C")  # Cy: 4 copies of 4C with 3 decks (C1): a misreading
    assert any(s.startswith("I cannot take that") and "4C" in s for s in voice.said)
    assert len(session.round.turns) == 2
    assert load_recording(tmp_path).of_type(Trouble)


def test_the_end_reveals_the_rule_and_scores(tmp_path: Path) -> None:
    # given hands of 3: Ana empties her hand with three legal cards and the round ends (G1)
    session, voice = new_session(tmp_path)
    table = Table(session)
    table.lay("7H")
    table.lay("4C 9D 2S")
    assert session.round.ended is not None
    assert any(s.startswith("Scores:") or "Scores:" in s for s in voice.said)
    assert voice.said[-1].startswith("The rule was alternate-colour: ")
    (revealed,) = load_recording(tmp_path).of_type(RuleRevealed)
    assert revealed.nonce == "fixed-nonce-0123456789"


def test_a_prophet_judges_and_is_overthrown() -> None:
    session, voice = new_session()
    session.config = session.config  # hand size 3 is short; the flow matters here
    table = Table(session)
    table.lay("7H")
    table.show("4C")  # Ana plays 4C
    table.show("", 2.0, prophet_token_out=True)  # and takes office right after (F1), once the zone held still
    assert session.round.prophet == "Ana"
    # Bo plays 9C (black after black: wrong); the prophet wrongly accepts: overthrown (F4, F5)
    table.show("9C", prophet_token_out=True)
    table.show("9C", 1.0, prophet_token_out=True, tokens_in_play={TableToken.ACCEPT: (10.0, 10.0)})
    assert session.round.prophet is None
    assert any("overthrown" in s for s in voice.said)


def test_undo_takes_back_the_last_verdict_and_the_player_plays_again(tmp_path: Path) -> None:
    # given Bo's QC was misread (he laid QD), when the dealer presses u
    session, voice = new_session(tmp_path)
    table = Table(session)
    table.lay("7H")
    table.lay("4C")
    table.lay("QC")
    assert undo_last(session, "QC was a misread QD")
    # then the round is as before Bo's turn, and Bo plays again
    assert session.round.whose_turn == "Bo" and len(session.round.turns) == 1
    assert session.round.hand_size("Bo") == 3
    table.lay("QD")
    assert [t.verdict.value for t in session.round.turns] == ["accepted", "accepted"]
    # and the recording keeps both verdicts, the first marked as taken back
    from dealer.record.recording import Undone, load_recording
    from dealer.record.review import build_review

    (undone,) = load_recording(tmp_path).of_type(Undone)
    assert undone.turn == 2
    review = build_review(tmp_path)
    assert [(i.action, i.undone) for i in review.items] == [("Ana: play 4C", False), ("Bo: play QC", True),
                                                           ("Bo: play QD", False)]


def test_undo_with_nothing_to_take_back_says_so() -> None:
    session, voice = new_session()
    Table(session).lay("7H")
    assert not undo_last(session)
    assert voice.said[-1] == "There is no verdict to take back."


def test_a_rule_that_cannot_decide_ends_the_round_with_a_message_not_a_traceback(tmp_path: Path) -> None:
    # given a rule the checker rejects (prev(3) on a short line), played anyway (--allow-rejected-rule)
    session, voice = new_session(tmp_path, rule="prev(3).red == card.red or card.red")
    table = Table(session)
    table.lay("7H")
    table.lay("4C")  # Ana's attempt: the rule asks for prev(3) on a line of one card
    assert any("The secret rule cannot decide this turn" in s for s in voice.said)
    assert session.round is not None and session.revealed
    rec = load_recording(tmp_path)
    assert not rec.of_type(VerdictLine) and rec.of_type(Trouble) and rec.of_type(RuleRevealed)


def test_a_layout_out_of_place_holds_the_turn_until_the_players_go_on_with_it() -> None:
    # given Ana's 4C accepted after the starter 7H, and the players who lay the line 4C 7H (P5)
    from dealer.table.happenings import TroubleReported
    from dealer.table.protocol import LineSight, Phase
    from dealer.table.turn_input import Key, KeyPressed

    session, voice = new_session()
    table = Table(session)
    table.lay("7H")
    table.lay("4C")
    wrong = LineSight(tuple(SeenCard(Card.parse(c), 70.0 * i, -270.0) for i, c in enumerate(["4C", "7H"])), ())
    table.show("", 3.0, line=wrong)
    # then it is said once, and the turn waits in its own phase: Bo's QC is not judged
    assert "\n".join(voice.said).count("The layout does not match: 7H is out of order") == 1
    assert session.protocol.phase is Phase.LAYOUT
    table.show("QC", 3.0, line=wrong)
    assert not [s for s in voice.said if s.startswith("Bo plays")]
    # when they press o: the turn goes on where it was, and Bo's QC lying there is judged
    happened = session.press(KeyPressed(Key.LAYOUT_AS_IS, table.t))
    assert [type(h) for h in happened] == [TroubleReported]
    assert happened[0].text == "Going on with the layout as it lies." and happened[0].t == table.t
    assert session.protocol.phase is not Phase.LAYOUT
    table.show("QC", 3.0, line=wrong)
    assert "Bo plays QC: rejected, a side branch. Bo draws 2." in "\n".join(voice.said)
