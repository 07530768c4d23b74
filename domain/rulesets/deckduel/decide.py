"""Deckduel rules: the start, the legal commands, and what each command decides."""
from __future__ import annotations

import functools
from functools import lru_cache
from itertools import combinations

from domain.engine.choices import lock_choice
from domain.engine.errors import RuleViolation
from domain.engine.events import Command, Event
from domain.engine.hooks import Effect, Phase, Resolver, modify
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import events as ev
from .commands import Discard, Mulligan, Pass, PlayAttack, PlayDrill
from .content import Card, Content, content
from .effects import ATTACK_EFFECTS, HOOKS, Strike
from .effects.moves import deal_damage, draw, energize
from .effects.queries import Cost, HandSize, PowerUp, ReadyDraw
from .evolve import evolve
from .setup import DuelSetup
from .state import SEATS, Duel, opponent, without_all


def active_effects(s: Duel) -> tuple[Effect, ...]:
    """Drills in play, p1's then p2's, in the order they were played."""
    if not (s.p1.drills or s.p2.drills):
        return ()
    return _drill_effects(s.p1.drills, s.p2.drills)


@lru_cache(maxsize=4096)
def _drill_effects(*drills: tuple[str, ...]) -> tuple[Effect, ...]:
    return tuple(Effect(kind=_drill_kind(card), owner=seat, source=card)
                 for seat, pile in zip(SEATS, drills) for card in pile)


def _drill_kind(card_id: str) -> str:
    kind = content().cards[card_id].drill
    # Only drill cards reach play as drills, and the content test checks each names its effect.
    assert kind is not None, f"drill card {card_id!r} names no drill effect"
    return kind


def resolver(s: Duel, rng: Rng) -> Resolver[Duel]:
    return Resolver(s, evolve, HOOKS, active_effects, rng)


def effective(s: Duel, query: object) -> int:
    return modify(HOOKS, active_effects(s), s, query)[0].amount


def cost_of(s: Duel, seat: str, card: Card) -> int:
    if not (s.p1.drills or s.p2.drills):
        return card.cost
    return effective(s, Cost(seat=seat, card=card.id, kind=card.kind, amount=card.cost))


def costs_modified(s: Duel) -> bool:
    """Whether a drill in play hooks card costs (else every card costs what it says)."""
    effects = active_effects(s)
    return bool(effects) and bool(HOOKS.handlers(Phase.BEFORE, Cost, effects))


def start(setup: DuelSetup, rng: Rng) -> list[Event]:
    events: list[Event] = [ev.DuelStarted(params=setup.params_json(), characters=setup.characters(),
                                          first_player=setup.first_player)]
    for seat in SEATS:
        deck = setup.decks[seat]
        order = deck if not setup.shuffle[seat] else rng.shuffle(deck)
        events.append(ev.DeckPrepared(seat=seat, size=len(order), shuffled=setup.shuffle[seat], order=order))
        hand = order[:setup.params.initial_hand]
        events.append(ev.CardsDrawn(seat=seat, count=len(hand), cards=hand))
    return events


def awaiting(s: Duel) -> frozenset[str]:
    if s.deck_out():
        return frozenset()
    if s.phase == "mulligan":
        return s.choices.waiting_for() if s.choices else frozenset()
    return frozenset((s.turn,)) if s.turn else frozenset()


# The commands that play, and discard, each card of a content, built once per content:
# commands are frozen, and `legal_commands` lists them for every decision of every battle.
@functools.cache
def _card_commands(rules: Content) -> tuple[dict[str, Command], dict[str, Command]]:
    play: dict[str, Command] = {card_id: PlayAttack(card=card_id) if card.kind == "attack" else PlayDrill(card=card_id)
                                for card_id, card in rules.cards.items()}
    return play, {card_id: Discard(card=card_id) for card_id in rules.cards}


_PASS = Pass()


def legal_commands(s: Duel, seat: str) -> list[Command]:
    if seat not in awaiting(s):
        return []
    hand = s.side(seat).hand
    if s.phase == "mulligan":
        picks = {tuple(sorted(c)) for n in range(len(hand) + 1) for c in combinations(hand, n)}
        return [Mulligan(cards=p) for p in sorted(picks, key=lambda p: (len(p), p))]
    if s.phase == "discard":
        return [_card_commands(content())[1][c] for c in sorted(set(hand))]
    energy = len(s.side(seat).energy)
    # Without a drill that changes costs, each card costs what it says: no query per card.
    modified = costs_modified(s)
    rules = content()
    plays = [_card_commands(rules)[0][c] for c in sorted(set(hand))
             if (cost_of(s, seat, rules.cards[c]) if modified else rules.cards[c].cost) <= energy]
    plays.append(_PASS)
    return plays


def decide(s: Duel, seat: str, cmd: Command, rng: Rng) -> Decision[Duel]:
    b = resolver(s, rng)
    if isinstance(cmd, Mulligan):
        mulligan(b, seat, cmd)
    elif s.phase == "mulligan":
        raise RuleViolation("every player must first decide on a mulligan")
    elif isinstance(cmd, (PlayAttack, PlayDrill, Pass)):
        if s.phase != "combat":
            raise RuleViolation(f"you can only {cmd.__struct_config__.tag} in the combat step")
        combat_action(b, seat, cmd)
    elif isinstance(cmd, Discard):
        discard(b, seat, cmd)
    else:
        raise RuleViolation(f"{type(cmd).__name__} is not a deckduel command")
    return b.decision()


def mulligan(b: Resolver[Duel], seat: str, cmd: Mulligan) -> None:
    """Seed 004, The Rules 2-5: mulligan, three energy, choose the active player, then play."""
    s = b.state
    if s.phase != "mulligan" or s.choices is None:
        raise RuleViolation("the mulligan is over")
    try:
        without_all(s.side(seat).hand, cmd.cards)
    except ValueError:
        raise RuleViolation(f"you can only mulligan cards in your hand: {list(cmd.cards)}") from None
    locked, everyone = lock_choice(s.choices, seat, cmd, lambda _, choice: {"count": len(choice["cards"])})
    for event in locked:
        b.emit(event)
    if everyone is None:
        return
    for who, choice in everyone.items():
        returned = tuple(choice["cards"])
        if returned:
            b.emit(ev.CardsReturned(seat=who, count=len(returned), cards=returned))
            draw(b, who, len(returned))
    for who in SEATS:
        energize(b, who, b.state.params.starting_energy)
    if b.state.first_player is not None:
        b.emit(ev.ActivePlayerChosen(seat=b.state.first_player, by="setup"))
    else:
        b.emit(ev.ActivePlayerChosen(seat=b.rng.choice(SEATS), by="rng"))
    start_round(b, 1, b.state.active_seat())


def start_round(b: Resolver[Duel], number: int, active: str) -> None:
    """Seed 004, Ready Step: power up, then draw two; the active player first."""
    b.emit(ev.RoundStarted(round=number, active=active))
    for seat in (active, opponent(active)):
        energize(b, seat, b.query(PowerUp(seat=seat, amount=b.state.params.power_up)).amount)
        if b.state.deck_out():
            return
        draw(b, seat, b.query(ReadyDraw(seat=seat, amount=b.state.params.ready_draw)).amount)
        if b.state.deck_out():
            return


def combat_action(b: Resolver[Duel], seat: str, cmd: PlayAttack | PlayDrill | Pass) -> None:
    if isinstance(cmd, Pass):
        b.emit(ev.Passed(seat=seat))
        if b.state.passes >= 2:
            b.emit(ev.CombatEnded(round=b.state.round))
            end_step(b)
        return
    card = playable(b.state, seat, cmd.card, "attack" if isinstance(cmd, PlayAttack) else "drill")
    cost = Cost(seat=seat, card=card.id, kind=card.kind, amount=card.cost)
    if isinstance(cmd, PlayDrill):
        b.emit(ev.DrillPlayed(seat=seat, card=card.id))
        pay(b, seat, b.query(cost).amount)
        return
    b.emit(ev.AttackPlayed(seat=seat, card=card.id))
    pay(b, seat, b.query(cost).amount)
    strike = Strike(arrows=card.arrows)
    if card.effect is not None:
        strike = ATTACK_EFFECTS[card.effect](b, seat, card, strike)
    if not b.state.deck_out():
        deal_damage(b, opponent(seat), strike.arrows, source=seat, pierce=strike.pierce)
    b.emit(ev.AttackResolved(seat=seat, card=card.id))


def playable(s: Duel, seat: str, card_id: str, kind: str) -> Card:
    card = content().cards.get(card_id)
    if card is None or card_id not in s.side(seat).hand:
        raise RuleViolation(f"{card_id!r} is not in your hand")
    if card.kind != kind:
        raise RuleViolation(f"{card.name} is a {card.kind}, not a {kind}")
    cost, energy = cost_of(s, seat, card), len(s.side(seat).energy)
    if cost > energy:
        raise RuleViolation(f"{card.name} costs {cost} energy; you have {energy}", cost=cost, energy=energy)
    return card


def pay(b: Resolver[Duel], seat: str, cost: int) -> None:
    """Seed 004, Paying Energy: top of the energy pile to the bottom of the deck."""
    if cost > 0:
        b.emit(ev.EnergyPaid(seat=seat, count=cost, cards=b.state.side(seat).energy[:cost]))


def end_step(b: Resolver[Duel]) -> None:
    """Seed 004, End Step: discard down to hand size (active player first), then switch."""
    s = b.state
    active = s.active_seat()
    for seat in (active, opponent(active)):
        over = len(s.side(seat).hand) - b.query(HandSize(seat=seat, amount=s.params.hand_size)).amount
        if over > 0:
            b.emit(ev.DiscardRequired(seat=seat, over=over))
            return
    b.emit(ev.RoundEnded(round=s.round))
    start_round(b, s.round + 1, opponent(active))


def discard(b: Resolver[Duel], seat: str, cmd: Discard) -> None:
    s = b.state
    if s.phase != "discard":
        raise RuleViolation("you can only discard down to hand size in the end step")
    if cmd.card not in s.side(seat).hand:
        raise RuleViolation(f"{cmd.card!r} is not in your hand")
    b.emit(ev.CardDiscarded(seat=seat, card=cmd.card))
    end_step(b)


def outcome(s: Duel) -> Outcome | None:
    """Seed 004: a player whose deck runs out loses; both at once is a draw."""
    if not s.deck_out():
        return None
    p1_out, p2_out = not s.p1.deck, not s.p2.deck
    if p1_out and p2_out:
        return Outcome(winner=None, reason="both decks emptied at once")
    loser = "p1" if p1_out else "p2"
    return Outcome(winner=opponent(loser), reason=f"{loser}'s deck is empty")
