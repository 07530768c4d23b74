"""Card movements shared by the round steps, attack effects and defense triggers."""
from __future__ import annotations

from domain.engine.hooks import Resolver

from .. import events as ev
from ..content import content
from ..hooks import DEFENSE_TRIGGERS
from ..state import Duel


def draw(b: Resolver[Duel], seat: str, count: int) -> None:
    count = min(count, len(b.state.side(seat).deck))
    if count > 0:
        b.emit(ev.CardsDrawn(seat=seat, count=count, cards=b.state.side(seat).deck[:count]))


def energize(b: Resolver[Duel], seat: str, count: int) -> None:
    count = min(count, len(b.state.side(seat).deck))
    if count > 0:
        b.emit(ev.EnergyGained(seat=seat, count=count, cards=b.state.side(seat).deck[:count]))


def discard_random(b: Resolver[Duel], seat: str) -> None:
    hand = b.state.side(seat).hand
    if hand:
        b.emit(ev.CardKnockedAway(seat=seat, card=hand[b.rng.int(0, len(hand) - 1)]))


def deal_damage(b: Resolver[Duel], seat: str, amount: int, *, source: str | None,
                by: str = "attack", pierce: int = 0) -> None:
    """Seed 004, Dealing Damage: take 1 off and flip; subtract icons; perfect defense goes
    to hand; resolve the card's defense trigger; repeat while damage remains."""
    dealt = b.emit(ev.DamageDealt(seat=seat, amount=amount, source=source, by=by, pierce=pierce))
    if dealt is None:
        return
    remaining, ignore_icons = dealt.amount, dealt.pierce
    params = b.state.params
    with b.deeper():
        # An empty deck (either one: a counter can empty the attacker's) decides the battle at once.
        while remaining > 0 and not b.state.deck_out():
            card = content().cards[b.state.side(seat).deck[0]]
            remaining -= 1
            pierced = ignore_icons > 0
            ignore_icons -= 1
            icons = 0 if pierced else card.defense
            # A pierced card defends nothing, so it can never be a perfect defense.
            perfect = not pierced and icons == remaining and (icons > 0 or params.zero_icon_perfect)
            remaining = 0 if perfect else max(0, remaining - icons)
            flip = ev.DamageFlipped(seat=seat, card=card.id, icons=icons, perfect=perfect, remaining=remaining)
            b.emit(flip)
            if card.trigger is not None:
                b.emit(ev.DefenseTriggered(seat=seat, card=card.id, trigger=card.trigger))
                remaining = DEFENSE_TRIGGERS[card.trigger](b, seat, card, remaining, dealt, flip)
