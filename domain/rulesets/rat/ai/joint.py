"""The planning AIs since 1.3.0 (`Rules.ai_version` 2; README, "The three AIs").

Both value an option from what the enemy side sees, as `planner` does, with two changes:
a hit is estimated at the roll's mean against the DEF a member of that kind has with a
quarter of its EV budget in DEF (member content is public design data; the EVs and
equipment stay hidden), and the worth of the damage on a member is worked out from all
the damage planned on it, so that hits that knock a member out together count as one
knock-out and damage to a knocked-out member counts as the kill that ends the battle.

- `no_memory`: each enemy alone, one turn ahead: its best option on its own.
- Both take, in the end, an option drawn among those within `Params.ai_margin_pct` of the best
  (`_near_best`; 0: the best, as before 1.4.0), so that a player cannot read a move in advance.
- `memory`: the memory enemies plan as a group. It starts from each one's best alone and
  re-plans each in turn against the others' plans (two rounds), so they focus fire, spare
  an overkill, never plan the same ailment on the same member twice and mark for death a
  member the others are about to knock out. A knocked-out member dies only to a hit that
  lands before the party revives or shields it, so the kill is worth more from an enemy that
  comes before more of the standing party in the public queue (`early`). From the public
  history it knows that a member PROTECTed last turn cannot be protected now, that one the
  party keeps protecting is likely shielded, and which members keep hitting it (threats).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from domain.engine.rng import Rng

from ..content import content
from ..legal import options
from ..state import ENEMIES, Plan, Rat
from ..stats import damage, leveled, stat
from .planner import Outlook, _for_ally, outlook

MEAN_ROLL = 92                  # the mean of the 85..100 % roll, rounded down
KILL = 1000                     # damage to a knocked-out member kills it: the battle is won
KNOCK_OUT = 150                 # a member knocked out this turn
ROUNDS = 2                      # the memory group's re-planning rounds


@dataclass(frozen=True)
class Choice:
    """One option of one enemy: its plan, the damage it is expected to deal to each party
    member, and the ailments it adds to whom."""
    plan: Plan
    hits: dict[str, int]
    afflicts: tuple[tuple[str, str, int], ...]      # (member, ailment, chance %)
    other: int                                      # what its other steps are worth


def guess_def(s: Rat, member: dict[str, Any]) -> int:
    """A member's DEF as the enemies can guess it: its kind's base DEF and a quarter of its EV
    budget, at its visible DEF level."""
    kind = content().members.get(member["kind"])
    base = 30 if kind is None else kind.defense + s.params.ev_points * kind.ev_budget // 4
    return leveled(base, member["levels"].get("def", 0))


def choices(s: Rat, actor: str, look: Outlook) -> list[Choice]:
    atk = stat(s, s.entities[actor], "atk")
    found = []
    for option in options(s, s.entities[actor]):
        action = content().actions[option.action]
        if action.target == "all_enemies":
            keys = list(look.party)
        elif action.target == "all_allies":
            keys = [e.id for e in s.side(ENEMIES) if e.alive]
        else:
            keys = [option.target] if option.target is not None else []
        hits: dict[str, int] = {}
        afflicts: list[tuple[str, str, int]] = []
        other = 0
        for key in keys:
            if key not in look.party:
                other += _for_ally(s, option.action, key) if s.entities[key].side == ENEMIES else 0
                continue
            member = look.party[key]
            if member["dead"]:
                continue
            for step in action.steps:
                if step.do == "damage":
                    hit = damage(step.power, atk, guess_def(s, member), MEAN_ROLL, s.params.defense_scale)
                    hits[key] = hits.get(key, 0) + hit
                elif step.do == "ailment" and not member["ko"]:
                    afflicts.append((key, step.ailment, step.chance))
                elif step.do == "stat" and step.who == "target" and step.amount < 0 and not member["ko"]:
                    other += 15 if member["levels"].get(step.stat, 0) > -3 else 0
        if any(key in look.party for key in keys) and any(step.who == "user" for step in action.steps):
            other += _for_ally(s, option.action, actor, only_user=True)
        plan = Plan(actor=actor, action=option.action, target=option.target, move=option.move)
        found.append(Choice(plan=plan, hits=hits, afflicts=tuple(afflicts), other=other))
    return found


def worth(look: Outlook, key: str, total: int, miss: Fraction = Fraction(0)) -> int:
    """What `total` damage planned on party member `key` is worth to the enemies. On a
    knocked-out member the first hit to land kills; `miss` is the chance that none lands
    before the party revives it (each hit after a revival knocks it out again)."""
    member = look.party[key]
    if total <= 0 or member["dead"]:
        return 0
    if member["ko"]:
        value = int(KILL * (1 - miss)) + KNOCK_OUT // 2
    else:
        left = max(1, member["hp"])
        value = min(total, left) * 100 // max(1, member["max_hp"])
        # The guess of a hit is rough: a knock-out is likelier the more the damage exceeds the
        # HP left, sure at twice it, and no chance below three quarters of it.
        sure = KNOCK_OUT + (KILL // 2 if any(a["kind"] == "at_risk" for a in member["ailments"]) else 0)
        value += sure * min(max(0, 4 * total - 3 * left), 5 * left) // (5 * left)
        value += look.threat.get(key, 0) * min(total, left) // left
    return int(value * (1 - look.shield.get(key, Fraction(0))))


@dataclass
class Planned:
    """The rest of the group's plans: damage on each member, the chance that none of those
    hits comes before the party can act on it, and the ailments planned."""
    damage: dict[str, int] = field(default_factory=dict)
    miss: dict[str, Fraction] = field(default_factory=dict)
    ailments: set[tuple[str, str]] = field(default_factory=set)

    def add(self, c: Choice, early: Fraction) -> None:
        for key, hit in c.hits.items():
            self.damage[key] = self.damage.get(key, 0) + hit
            self.miss[key] = self.miss.get(key, Fraction(1)) * (1 - early)
        self.ailments.update((key, ailment) for key, ailment, _ in c.afflicts)


def _ailments_worth(look: Outlook, c: Choice, planned: set[tuple[str, str]]) -> int:
    value = 0
    for key, ailment, chance in c.afflicts:
        held = {a["kind"] for a in look.party[key]["ailments"]}
        if ailment not in held and (key, ailment) not in planned:
            worth_it = content().ailments[ailment].ai_value * chance // 100
            if ailment == "at_risk":        # worth it only on a member that may soon be knocked out
                member = look.party[key]
                worth_it = worth_it * 2 * (member["max_hp"] - member["hp"]) // max(1, member["max_hp"])
            value += int(worth_it * (1 - look.shield.get(key, Fraction(0))))
    return value


def gain(look: Outlook, c: Choice, rest: Planned, early: Fraction = Fraction(1)) -> int:
    """What `c` adds to the `rest` of the group's plans; `early` is the chance that its user
    acts before the party members who could revive its target."""
    value = c.other + _ailments_worth(look, c, rest.ailments)
    for key, ailment, chance in c.afflicts:
        # AT_RISK on a member the rest of the group is about to knock out: the knock-out kills.
        planned = rest.damage.get(key, 0)
        if ailment == "at_risk" and planned and (key, ailment) not in rest.ailments:
            value += (worth(look, key, planned) - worth(look, key, planned // 2)) * chance // 100
    for key, hit in c.hits.items():
        before, miss = rest.damage.get(key, 0), rest.miss.get(key, Fraction(1))
        value += worth(look, key, before + hit, miss * (1 - early)) - worth(look, key, before, miss)
    return value


def _best(look: Outlook, found: list[Choice], rest: Planned, early: Fraction = Fraction(1)) -> Choice:
    best, best_value = found[0], None
    for c in found:         # ties go to the first listed
        value = gain(look, c, rest, early)
        if best_value is None or value > best_value:
            best, best_value = c, value
    return best


def _near_best(s: Rat, look: Outlook, found: list[Choice], rest: Planned, early: Fraction, rng: Rng) -> Choice:
    """One of the options worth at least (100 - `ai_margin_pct`) % of the best, drawn from the
    battle's RNG when there is more than one; else the best, ties to the first listed, as `_best`
    (also when the best is worth nothing)."""
    valued = [(gain(look, c, rest, early), c) for c in found]
    top = max(value for value, _ in valued)
    margin = s.params.ai_margin_pct
    near = [c for value, c in valued if value * 100 >= top * (100 - margin)] if margin and top > 0 else []
    if len(near) < 2:
        return next(c for value, c in valued if value == top)
    return near[rng.int(1, len(near)) - 1]


def no_memory(s: Rat, actors: list[str], rng: Rng) -> list[Plan]:
    look = outlook(s, remember=False)
    return [_near_best(s, look, choices(s, actor, look), Planned(), Fraction(1), rng).plan for actor in actors]


def early(s: Rat, actor: str) -> Fraction:
    """The share of the standing party members that come after `actor` in the public queue:
    how likely its hit on a knocked-out member lands before the party revives or shields it."""
    standing = [k for k in s.order if s.entities[k].side != ENEMIES and s.entities[k].standing]
    if not standing or actor not in s.order:
        return Fraction(1)
    after = [k for k in standing if s.order.index(k) > s.order.index(actor)]
    return Fraction(len(after), len(standing))


def memory(s: Rat, actors: list[str], rng: Rng) -> list[Plan]:
    look = outlook(s, remember=True)
    found = {actor: choices(s, actor, look) for actor in actors}
    first = {actor: early(s, actor) for actor in actors}
    picked = {actor: _best(look, found[actor], Planned(), first[actor]) for actor in actors}
    for round_ in range(ROUNDS):
        for actor in actors:
            rest = Planned()
            for other, c in picked.items():
                if other != actor:
                    rest.add(c, first[other])
            picked[actor] = _best(look, found[actor], rest, first[actor]) if round_ < ROUNDS - 1 else \
                _near_best(s, look, found[actor], rest, first[actor], rng)
    return [picked[actor].plan for actor in actors]
