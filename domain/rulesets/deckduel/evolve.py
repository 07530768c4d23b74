"""Deckduel reducer: one small function per event, moving cards between piles. No rules here."""
from __future__ import annotations

from msgspec.structs import replace

from domain.engine.choices import PendingChoices
from domain.engine.reducer import Reducer

from . import events as ev
from .state import SEATS, Duel, Params, Side, opponent, without, without_all


evolve: Reducer[Duel] = Reducer("deckduel")


@evolve.on()
def _(e: ev.DuelStarted, s: None) -> Duel:
    return Duel(params=Params(**e.params), p1=Side(character=e.characters["p1"]),
                p2=Side(character=e.characters["p2"]), first_player=e.first_player,
                choices=PendingChoices(kind="mulligan", awaiting=SEATS))


def _side(s: Duel, seat: str, **changes: object) -> Duel:
    return s.with_side(seat, replace(s.side(seat), **changes))


@evolve.on()
def _(e: ev.DeckPrepared, s: Duel) -> Duel:
    return _side(s, e.seat, deck=e.order)


def _from_deck_top(s: Duel, seat: str, count: int, pile: str) -> Duel:
    """The top `count` cards of the deck onto the end of `pile` (hand, energy or discard)."""
    side = s.side(seat)
    return _side(s, seat, deck=side.deck[count:], **{pile: getattr(side, pile) + side.deck[:count]})


@evolve.on()
def _(e: ev.CardsDrawn, s: Duel) -> Duel:
    return _from_deck_top(s, e.seat, e.count, "hand")


@evolve.on()
def _(e: ev.CardsReturned, s: Duel) -> Duel:
    if e.cards is None:
        # A redacted copy names no cards; replay playback refuses such a file on a TypeError.
        raise TypeError(f"{e.TOPIC} without its cards cannot be folded")
    side = s.side(e.seat)
    return _side(s, e.seat, hand=without_all(side.hand, e.cards), deck=side.deck + e.cards)


@evolve.on()
def _(e: ev.EnergyGained, s: Duel) -> Duel:
    return _from_deck_top(s, e.seat, e.count, "energy")


@evolve.on()
def _(e: ev.EnergyPaid, s: Duel) -> Duel:
    side = s.side(e.seat)
    return _side(s, e.seat, energy=side.energy[e.count:], deck=side.deck + side.energy[:e.count])


@evolve.on()
def _(e: ev.ActivePlayerChosen, s: Duel) -> Duel:
    return replace(s, active=e.seat)


@evolve.on()
def _(e: ev.RoundStarted, s: Duel) -> Duel:
    return replace(s, round=e.round, active=e.active, phase="combat", turn=e.active, passes=0)


@evolve.on()
def _(e: ev.AttackPlayed, s: Duel) -> Duel:
    s = _side(s, e.seat, hand=without(s.side(e.seat).hand, e.card))
    return replace(s, turn=opponent(e.seat), passes=0)


@evolve.on()
def _(e: ev.DrillPlayed, s: Duel) -> Duel:
    side = s.side(e.seat)
    s = _side(s, e.seat, hand=without(side.hand, e.card), drills=side.drills + (e.card,))
    return replace(s, turn=opponent(e.seat), passes=0)


@evolve.on()
def _(e: ev.Passed, s: Duel) -> Duel:
    return replace(s, turn=opponent(e.seat), passes=s.passes + 1)


@evolve.on()
def _(e: ev.DamageDealt, s: Duel) -> Duel:
    return s


@evolve.on()
def _(e: ev.DamageFlipped, s: Duel) -> Duel:
    return _from_deck_top(s, e.seat, 1, "hand" if e.perfect else "discard")


@evolve.on()
def _(e: ev.DefenseTriggered, s: Duel) -> Duel:
    return s


@evolve.on()
def _(e: ev.AttackResolved, s: Duel) -> Duel:
    return _side(s, e.seat, discard=s.side(e.seat).discard + (e.card,))


@evolve.on()
def _(e: ev.CardsMilled, s: Duel) -> Duel:
    return _from_deck_top(s, e.seat, len(e.cards), "discard")


@evolve.on()
def _(e: ev.CardsRecovered, s: Duel) -> Duel:
    side = s.side(e.seat)
    return _side(s, e.seat, discard=side.discard[:len(side.discard) - len(e.cards)], hand=side.hand + e.cards)


@evolve.on(ev.CardKnockedAway, ev.CardDiscarded)
def _(e: ev.CardDiscarded | ev.CardKnockedAway, s: Duel) -> Duel:
    side = s.side(e.seat)
    return _side(s, e.seat, hand=without(side.hand, e.card), discard=side.discard + (e.card,))


@evolve.on()
def _(e: ev.CardRecycled, s: Duel) -> Duel:
    side = s.side(e.seat)
    return _side(s, e.seat, discard=without(side.discard[::-1], e.card)[::-1], deck=side.deck + (e.card,))


@evolve.on()
def _(e: ev.DrillDestroyed, s: Duel) -> Duel:
    side = s.side(e.seat)
    return _side(s, e.seat, drills=without(side.drills, e.card), discard=side.discard + (e.card,))


@evolve.on()
def _(e: ev.CombatEnded, s: Duel) -> Duel:
    return replace(s, turn=None, passes=0)


@evolve.on()
def _(e: ev.DiscardRequired, s: Duel) -> Duel:
    return replace(s, phase="discard", turn=e.seat)


@evolve.on()
def _(e: ev.RoundEnded, s: Duel) -> Duel:
    return replace(s, turn=None, phase="end")
