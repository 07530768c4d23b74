"""`memory` for ring: the greedy bot, reading what the seat's AI memory recalls of the battle.

- Which attacks each enemy unit has used: its threat in a matchup is read from those, not
  from every ability in its slots.
- Which enemy units the opponent has fielded: a Ring pick (a swap, or the free swap after a
  KO) is weighed against them too, as they are likely to come back into the Ring.
- The most HP the opponent took from this seat over one of its turns, by the enemy Ring
  unit that did it: a unit that would not survive that is not sent in to face it, and an
  enemy unit that has hurt this seat most is the one to aim at.
- Who put each field Dynamic in play: one the opponent brought is meant to hurt this seat
  (seed 000, Direct and Indirect Costs), so removing, lowering or sealing it is worth it.
- What an enemy unit relies on: a lost pool or disabled equipment is worth the share of the
  abilities it was seen using that go with it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from domain.engine.scoring import Wire
from domain.ai.memory import Memory

from ..content import content
from .matchup import ENEMY_TARGETS, Fighter, fighter
from .reading import Reading, me_and_foe, unit
from .value import ValuePolicy, score

FIELDED = 0.5               # the weight of the enemy units seen in the Ring, beside the one there now
OUTLASTED = 0.5             # a Ring pick that would fall to the remembered worst turn is worth half
SWAP_EDGE = 20.0            # a swap's value per point of matchup it gains
FOCUS = 5.0                 # an attack's bonus per share of the damage its target has dealt


class Recall(Reading):
    """The view, read with what the seat remembers of the battle."""

    def __init__(self, view: Mapping[str, Any], memory: Memory):
        super().__init__(view)
        self.used: dict[str, set[str]] = {}         # enemy unit key -> the abilities it used
        self.fielded: Counter[str] = Counter()      # enemy unit key -> swaps in and turns in the Ring
        self.worst: Counter[str] = Counter()        # enemy unit key -> most HP taken from us in a turn
        self.placed: dict[str, str] = {}            # field Dynamic kind -> the seat that put it in play
        book = content()
        for action in memory.actions:
            data = action["data"]
            if action["type"] == "ring.AbilityUsed" and action["actor"] == self.foe:
                self.used.setdefault(data["unit"], set()).add(data["ability"])
            if action["type"] == "ring.UnitSwapped" and action["actor"] == self.foe:
                self.fielded[f"{self.foe}.{data['unit']}"] += 1
            ability = data.get("ability") or data.get("item")
            if action["type"] in ("ring.AbilityUsed", "ring.LeaderAbilityUsed", "ring.ItemUsed") and ability:
                for step in book.ability(ability).steps:
                    if step.do == "inflict" and step.dynamic and book.dynamics[step.dynamic].on == "field":
                        self.placed[step.dynamic] = action["actor"]
        for before, after in zip(memory.turns, memory.turns[1:]):
            then = before["view"]
            if then["active"] != self.foe or then["seats"][self.foe]["ring"] is None:
                continue
            ring = then["seats"][self.foe]["ring"]
            self.fielded[ring] += 1
            mine, later = then["seats"][self.seat], after["view"]["seats"][self.seat]["units"]
            lost = sum(max(0, mine["units"][k]["hp"] - later[k]["hp"]) for k in mine["team"])
            self.worst[ring] = max(self.worst[ring], lost)

    def foe_fighter(self, u: Mapping[str, Any]) -> Fighter:
        seen = fighter(u)
        used = self.used.get(f"{u['seat']}.{u['unit']}", set())
        attacks = tuple(a for a in seen.abilities if a in used and content().abilities[a].target in ENEMY_TARGETS)
        return seen._replace(abilities=attacks) if attacks else seen

    def likely_foes(self) -> list[tuple[str, float]]:
        foes = super().likely_foes()
        if self.view["phase"] != "battle" or not self.fielded:
            return foes
        shown = {k for k, _ in foes}
        total = sum(self.fielded.values())
        back = [(k, FIELDED * n / total) for k, n in self.fielded.items()
                if k not in shown and not self.theirs["units"][k]["ko"] and not self.theirs["units"][k]["removed"]]
        return foes + back

    def appraise(self, u: Mapping[str, Any]) -> float:
        found = super().appraise(u)
        if self.view["phase"] == "battle" and 0 < u["hp"] <= self.worst[self.theirs["ring"]]:
            return found * OUTLASTED
        return found

    def reliance(self, u: Mapping[str, Any], abilities: Iterable[str]) -> float:
        """An enemy unit relies on the abilities the seat has seen it use: the share of those
        that `abilities` are (the kit in its slots when it has used none yet)."""
        seen = self.used.get(f"{u['seat']}.{u['unit']}")
        if not seen:
            return super().reliance(u, abilities)
        return len(seen & set(abilities)) / len(seen)

    def stance(self, dyn: Mapping[str, Any]) -> float:
        if dyn["seat"] is None and dyn["kind"] in self.placed:
            return 1.0 if self.placed[dyn["kind"]] == self.seat else -1.0
        return super().stance(dyn)


class MemoryPolicy(ValuePolicy):
    name = "memory"
    needs_memory = True

    def reading(self, view: Mapping[str, Any], memory: Any) -> Reading:
        return Recall(view, memory or Memory(me_and_foe(view)[0]))

    def score(self, read: Reading, cmd: Wire) -> float:
        assert isinstance(read, Recall)
        value = score(read, cmd)
        if cmd["type"] == "swap":
            current = unit(read.view, read.mine["ring"])
            if current is not None and not current["ko"]:
                value += SWAP_EDGE * (read.value(cmd["unit"]) - read.value(current["unit"]))
        target, dealt = cmd.get("target"), sum(read.worst.values())
        if target is not None and target.startswith(f"{read.foe}.") and dealt:
            value += FOCUS * read.worst[target] / dealt
        return value
