"""The dealer session driven through every phase of the turn from table views alone (issue 11):
no call into the protocol or the round, only views in and happenings out."""

from __future__ import annotations

from dealer.table.happenings import (
    AskedToLayAgain,
    Happening,
    Judged,
    Spoken,
    StarterDecided,
    TroubleReported,
)
from dealer.table.session import DealerSession, SessionConfig
from dealer.table.protocol import Phase, SeenCard, TableView, TableToken
from engine.cards import Card
from engine.events import Attempt, BecomeProphet, NoPlay, Verdict

RULE = "start: card.suit == clubs; card.colour != prev.colour"  # alternate colours, a club to start


class Table:
    """Lays what the players lay, one view every 0.5 s; records the phases passed through."""

    def __init__(self, session: DealerSession) -> None:
        self.session, self.t, self.frame = session, 0.0, 0
        self.happened: list[Happening] = list(session.begin())
        self.phases: list[Phase] = [session.protocol.phase]

    def show(self, cards: str = "", seconds: float = 2.0, tokens: dict[TableToken, tuple[float, float]] | None = None,
             prophet: bool = False, unexplained: bool = False, hand: bool = False) -> list[Happening]:
        seen = tuple(SeenCard(None if c == "?" else Card.parse(c), 70.0 * i, 95.0)
                     for i, c in enumerate(cards.split()))
        out: list[Happening] = []
        for _ in range(round(seconds / 0.5)):
            self.t += 0.5
            self.frame += 1
            view = TableView(self.t, seen, dict(tokens or {}), prophet, self.frame,
                             hand_over_play=hand, unexplained_in_play=unexplained)
            out += self.session.observe(view)
            if self.session.protocol.phase is not self.phases[-1]:
                self.phases.append(self.session.protocol.phase)
        self.happened += out
        return out

    def lay(self, cards: str, **kw: object) -> list[Happening]:
        out = self.show(cards, **kw)  # type: ignore[arg-type]
        return out + self.show("", 1.0, prophet=bool(kw.get("prophet", False)))


def judged(happened: list[Happening]) -> list[Judged]:
    return [h for h in happened if isinstance(h, Judged)]


def test_a_round_passes_through_every_phase_from_table_views_alone() -> None:
    session = DealerSession(SessionConfig(("Ana", "Bo", "Cy", "Dee"), RULE, hand_size=3, settle_s=1.0,
                                          spoken_cards=False), nonce="n" * 32)
    table = Table(session)
    # C4: a red starter goes back to the stock, a club starts the line
    out = table.lay("7H")
    assert [(h.card, h.taken) for h in out if isinstance(h, StarterDecided)] == [(Card.parse("7H"), False)]
    assert any(isinstance(h, Spoken) and h.text == "Turn the next card of the stock." for h in out)
    out = table.lay("5C")
    assert [(h.card, h.taken) for h in out if isinstance(h, StarterDecided)] == [(Card.parse("5C"), True)]
    first = session.round.whose_turn if session.round else None
    assert first is not None and any(isinstance(h, Spoken) and h.text == f"{first}, your turn." for h in out)

    # a hand over the zone: nothing is judged, however long it stays
    assert not judged(table.show("4H", 4.0, hand=True))
    # something that cannot be read as cards, once the hand has left: asked to lay again, nothing judged
    out = table.show("", 2.0, unexplained=True)
    assert [h.text for h in out if isinstance(h, AskedToLayAgain)] == [
        "I can see something in the play zone but cannot read it: lay the cards flat and apart."]
    assert not judged(out)
    # P1: the attempt, once readable and settled, is the first player's
    out = table.lay("4H")
    assert [(j.action, j.outcome.verdict) for j in judged(out)] == [
        (Attempt(first, (Card.parse("4H"),)), Verdict.ACCEPTED)]

    # F1: the player who just played takes office with the PROPHET token
    out = table.show("", 1.0, prophet=True)
    assert [j.action for j in judged(out)] == [BecomeProphet(first)]
    second = session.round.whose_turn if session.round else None
    # F3: the next attempt waits for the prophet's token
    out = table.show("8S", 2.0, prophet=True)
    assert not judged(out) and any(h.text == f"Prophet {first}, accept or reject?" for h in out)
    out = table.show("8S", 1.0, tokens={TableToken.ACCEPT: (200.0, 95.0)}, prophet=True)
    assert [(j.action.player, j.outcome.verdict) for j in judged(out)] == [(second, Verdict.ACCEPTED)]
    table.show("", 1.0, prophet=True)

    # N1: "no play" shown in batches, then the prophet rejects it naming the card nearest REJECT
    third = session.round.whose_turn if session.round else None
    assert third is not None and session.round is not None
    need = session.round.hand_size(third)
    hand = ["2S", "4C", "6S", "8C", "10S", "QC"][:need]
    noplay = {TableToken.NO_PLAY: (250.0, 95.0)}
    table.show("", 0.5, tokens=noplay, prophet=True)
    out = table.show(" ".join(hand[:2]), 2.0, tokens=noplay, prophet=True)
    assert any(h.text == f"2 of {need} seen. Show the other {need - 2}." for h in out)
    table.show("", 0.5, tokens=noplay, prophet=True)
    rest = " ".join(hand[2:])
    out = table.show(rest, 2.0, tokens=noplay, prophet=True)
    assert not judged(out)
    out = table.show(rest, 1.0, tokens={**noplay, TableToken.REJECT: (0.0, 140.0)}, prophet=True)
    (verdict,) = judged(out)
    assert isinstance(verdict.action, NoPlay) and verdict.action.player == third
    assert verdict.action.hand == tuple(Card.parse(c) for c in hand)

    # every phase of the turn was passed through, from views alone (the layout's: below)
    assert set(table.phases) == set(Phase) - {Phase.LAYOUT}
    # and nothing was judged on a picture that was not there: every verdict has its frame
    assert all(j.frame is not None for j in judged(table.happened))
    assert not [h for h in table.happened if isinstance(h, TroubleReported)]


def test_while_the_layout_is_wrong_every_trouble_carries_the_time_of_its_view() -> None:
    # given a round where Ana's 4H was accepted, and the camera reads the whole layout
    from dealer.table.protocol import LineSight

    session = DealerSession(SessionConfig(("Ana", "Bo", "Cy", "Dee"), RULE, hand_size=3, settle_s=1.0,
                                          spoken_cards=False), nonce="n" * 32)
    session.begin()
    t, frame, happened = 0.0, 0, []
    phases: list[Phase] = []

    def see(cards: str, seconds: float, line: LineSight | None = None) -> None:
        nonlocal t, frame
        seen = tuple(SeenCard(Card.parse(c), 70.0 * i, 95.0) for i, c in enumerate(cards.split()))
        for _ in range(round(seconds / 0.5)):
            t, frame = t + 0.5, frame + 1
            for h in session.observe(TableView(t, seen, frame=frame, line=line)):
                happened.append((t, h))
            phases.append(session.protocol.phase)

    see("5C", 2.0)
    see("", 1.0, LineSight((SeenCard(Card.parse("5C"), 30.0, -270.0),), ()))
    player = session.round.whose_turn if session.round else None
    see("4H", 2.0, LineSight((SeenCard(Card.parse("5C"), 30.0, -270.0),), ()))
    assert [j.action for _, j in happened if isinstance(j, Judged)] == [Attempt(player, (Card.parse("4H"),))]
    # when 4H is laid in the side branches instead of the main line, stays there 40 frames, then moves
    wrong = LineSight((SeenCard(Card.parse("5C"), 30.0, -270.0),), (SeenCard(Card.parse("4H"), 30.0, -100.0),))
    see("", 20.0, wrong)
    assert phases[-1] is Phase.LAYOUT  # P5: the turn itself waits for the layout
    # a second, different trouble: a card nobody played under the same main-line card (a side
    # card with no main-line card above it is not checked: its own card may lie unseen)
    elsewhere = LineSight((SeenCard(Card.parse("5C"), 30.0, -270.0),), (SeenCard(Card.parse("4H"), 30.0, -100.0),
                                                                         SeenCard(Card.parse("9C"), 30.0, -60.0)))
    see("", 5.0, elsewhere)
    # then the troubles are said, each with the time of the view it came from (issue 7: t never stuck)
    troubles = [(seen_t, h) for seen_t, h in happened if isinstance(h, TroubleReported)]
    assert len(troubles) >= 2 and troubles[-1][0] > troubles[0][0] + 10.0
    assert all(h.t == seen_t for seen_t, h in happened)
    # and once the 4H lies at the end of the main line, the turn goes on where it waited
    right = LineSight((SeenCard(Card.parse("5C"), 30.0, -270.0), SeenCard(Card.parse("4H"), 100.0, -270.0)), ())
    see("", 3.0, right)
    assert Phase.LAYOUT in phases and phases[-1] is Phase.WAITING
