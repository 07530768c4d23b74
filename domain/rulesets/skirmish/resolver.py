"""The resolver that runs a skirmish batch (`RESOLVING` builds it), and the small moves every
rule shares: drawing, giving and ending effects, fainting, defeat."""
from __future__ import annotations

from domain.engine.events import Event
from domain.engine.hooks import Resolver, Resolving

from . import events as ev
from .content import content
from .evolve import evolve
from .hooks import HOOKS
from .state import SEATS, Skirmish, Unit, effects


class SkirmishResolver(Resolver[Skirmish]):
    """A skirmish batch: a unit faints once its damage passes its armor."""
    FOLLOWS = frozenset({ev.Struck, ev.SkillDamaged})

    def follow(self, event: Event) -> None:
        """Seed 001, Combat: a unit whose damage taken surpasses its armor faints."""
        if isinstance(event, (ev.Struck, ev.SkillDamaged)):
            key = event.target if isinstance(event, ev.Struck) else event.unit
            unit = self.state.units[key]
            if not unit.fainted and unit.damage > unit.armor:
                for chip in unit.chips:
                    self.emit(ev.EffectEnded(unit=key, effect=chip.kind, reason="fainted"))
                self.emit(ev.UnitFainted(unit=key))

    @property
    def over(self) -> bool:
        return bool(self.state.defeated)


RESOLVING: Resolving[Skirmish, SkirmishResolver] = Resolving(hooks=HOOKS, effects=effects, evolve=evolve,
                                                             resolver=SkirmishResolver)


def reach(s: Skirmish, unit: Unit) -> int:
    return s.params.ranged_reach if unit.ranged else s.params.melee_reach


def speed(s: Skirmish, unit: Unit) -> int:
    return s.params.ranged_speed if unit.ranged else s.params.melee_speed


def give(b: SkirmishResolver, key: str, effect: str, by: str) -> None:
    """Seed 001, Effects: applying an effect already present does nothing."""
    unit = b.state.units[key]
    if unit.on_board and not unit.has(effect):
        b.emit(ev.EffectGiven(unit=key, effect=effect, by=by))


def end_effect(b: SkirmishResolver, key: str, effect: str, reason: str) -> None:
    if b.state.units[key].has(effect):
        b.emit(ev.EffectEnded(unit=key, effect=effect, reason=reason))


def draw(b: SkirmishResolver, seat: str, count: int) -> None:
    """Seed 001, Cards and Defeat: one card at a time; a full hand discards the card drawn;
    an empty deck loses the match."""
    for _ in range(count):
        if b.over:
            return
        p = b.state.player(seat)
        if not p.deck:
            b.emit(ev.DrawFailed(seat=seat))
            defeat(b, seat, "drew from an empty deck")
        elif len(p.hand) >= b.state.params.hand_limit:
            b.emit(ev.CardBurned(seat=seat, card=p.deck[0]))
        else:
            b.emit(ev.CardsDrawn(seat=seat, count=1, cards=p.deck[:1]))


def defeat(b: SkirmishResolver, seat: str, reason: str) -> None:
    if all(lost != seat for lost, _ in b.state.defeated):
        b.emit(ev.PlayerDefeated(seat=seat, reason=reason))


def check_defeat(b: SkirmishResolver) -> None:
    """Seed 001, Defeat: a player all of whose characters have fainted loses (a unit due back
    through Second Chance has not left for good)."""
    if b.state.phase != "combat":
        return
    for seat in SEATS:
        if _lost_every_character(b.state, seat):
            defeat(b, seat, "lost every character")


def _lost_every_character(s: Skirmish, seat: str) -> bool:
    """Whether every fielded character of `seat` has fainted, none of them due back."""
    units = s.units
    for key in s.player(seat).units:
        u = units[key]
        if u.fielded and (not u.fainted or u.returning):
            return False
    return True


def heal(b: SkirmishResolver, key: str, amount: int, by: str) -> None:
    unit = b.state.units[key]
    healed = min(amount, unit.damage)
    if unit.on_board and healed > 0:
        b.emit(ev.Healed(unit=key, amount=healed, damage=unit.damage - healed, by=by))


def lasts(effect: str) -> str:
    return content().effects[effect].lasts or "consumed"
