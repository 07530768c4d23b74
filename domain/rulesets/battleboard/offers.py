"""The actions a combatant may take now, as the commands `legal_commands` lists (seed 002,
Actions: kinds, doubling down, costs, focus rerolls).

Which actions `slot` and `costs` accept reads only the content in force, the energy a double
down costs and the combatant's own record (its actions, this turn's kinds and actions taken,
Invigorated, energy, focus). `offers` keeps its answer by exactly those values, so every
state and combatant record alike in them shares it: a Move leaves them unchanged, and turns
repeat them. The commands themselves are frozen, so each is built once and listed again.
"""
from __future__ import annotations

from .actions import affordable
from .commands import Act
from .content import Action, content
from .state import Battleboard, Combatant

OFFERS_KEPT = 4096          # answers kept before all are forgotten at once
_OFFERS: dict[tuple[object, ...], tuple[Offer, ...]] = {}


class Offer:
    """One action the combatant can afford now, with its focus rerolls (0..most). `unaimed`
    holds the commands of an action on the combatant itself; `single` says it singles out
    one target (`at` lists its commands for one); otherwise `aims` lists its aiming."""

    __slots__ = ("unit", "action", "rerolls", "unaimed", "single", "_at")

    def __init__(self, unit: str, action: Action, most: int):
        self.unit, self.action, self.rerolls = unit, action, range(most + 1)
        self.unaimed = tuple(Act(unit=unit, action=action.id, reroll=r) for r in self.rerolls) \
            if action.target == "self" else None
        self.single = action.target == "ally" or action.pattern == "single"
        self._at: dict[str, tuple[Act, ...]] = {}

    def at(self, target: str) -> tuple[Act, ...]:
        """The commands taking the action on `target`, one per reroll."""
        found = self._at.get(target)
        if found is None:
            found = self._at[target] = tuple(Act(unit=self.unit, action=self.action.id, targets=(target,), reroll=r)
                                             for r in self.rerolls)
        return found


def offers(s: Battleboard, unit: Combatant) -> tuple[Offer, ...]:
    """`affordable` for the combatant now, as offers, in its action order."""
    key = (content(), s.params.double_down_energy, unit.id, unit.actions, unit.kinds, unit.doubled, unit.slots,
           unit.taken, unit.count("invigorated") > 0, unit.energy, unit.focus)
    found = _OFFERS.get(key)
    if found is None:
        if len(_OFFERS) >= OFFERS_KEPT:
            _OFFERS.clear()
        found = _OFFERS[key] = tuple(Offer(unit.id, action, most) for action, most in affordable(s, unit))
    return found
