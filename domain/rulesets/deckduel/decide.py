"""Deckduel rules: what each command decides (its handler in `COMMANDS`), and how the duel ends."""
from __future__ import annotations

from collections.abc import Callable

from domain.engine.dispatch import CommandTable
from domain.engine.errors import RuleViolation
from domain.engine.events import Command
from domain.engine.hooks import Resolver
from domain.engine.mulligan import lock_mulligan
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision, Outcome

from . import effects  # noqa: F401  (registers the hook handlers)
from . import events as ev
from .commands import Discard, Mulligan, Pass, PlayAttack, PlayDrill
from .content import Card, content
from .effects.moves import deal_damage, draw, energize
from .hooks import ATTACK_EFFECTS, RESOLVING, Cost, HandSize, PowerUp, ReadyDraw, Strike, cost_of
from .state import SEATS, Duel, opponent, without_all


def decide(s: Duel, seat: str, cmd: Command, rng: Rng) -> Decision[Duel]:
    b = RESOLVING(s, rng)
    handler = COMMANDS.handler(cmd)
    if s.phase == "mulligan" and not isinstance(cmd, Mulligan):
        raise RuleViolation("every player must first decide on a mulligan")
    handler(b, seat, cmd)
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
    if not lock_mulligan(b, s.choices, seat, cmd, returned=ev.CardsReturned, redraw=draw):
        return
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
    if b.state.phase != "combat":
        raise RuleViolation(f"you can only {cmd.wire_type()} in the combat step")
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


Handler = Callable[..., None]      # (resolver, seat, command)
COMMANDS: CommandTable[Handler] = CommandTable({
    Mulligan: mulligan, PlayAttack: combat_action, PlayDrill: combat_action, Pass: combat_action,
    Discard: discard,
})


def outcome(s: Duel) -> Outcome | None:
    """Seed 004: a player whose deck runs out loses; both at once is a draw."""
    if not s.deck_out():
        return None
    p1_out, p2_out = not s.p1.deck, not s.p2.deck
    if p1_out and p2_out:
        return Outcome(winner=None, reason="both decks emptied at once")
    loser = "p1" if p1_out else "p2"
    return Outcome(winner=opponent(loser), reason=f"{loser}'s deck is empty")


def turn(s: Duel) -> int:
    """The public turn number: the round."""
    return s.round
