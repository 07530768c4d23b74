"""Ring's `search`: Monte Carlo search over what the seat knows (`domain.ai.search`), with
ring's own playouts and evaluation.

A full random playout of ring runs some 180 commands (about 6 ms), and most random commands
waste AP (a swap, an item, an early end of the turn), so a playout here is short and plays a
cheap `greedy` (`Rated` over `worth`): a strike with all the AP it can take, else the command
worth most now, read from the state (greedy's worths in `value.py`, recomputed on the state
rather than on a view, which would cost more than the rules' own step), and one time in ten
any command, so that playouts differ. After `TUNING.depth` commands, about the rest of the
turn and the other side's reply, `evaluate` scores the state in greedy's points: the leader's
HP share counts most (a leader at 0 loses), then its team's HP, LP and standing units (a KO
opens the leader to a strike; 0 LP removes a unit) and its items, as a logistic of the two
sides' difference.

The search plays what a short playout can judge and leaves the rest to greedy:
- the team pick, whose worth shows only turns later among up to 210 teams, is greedy's
  counter-pick (`matchup.py`), read from the seat's view of its knowledge (`team_pick`);
- a battle turn's command is rolled out (`domain.ai.rollouts`): greedy's choice and the
  `CANDIDATES - 1` it rates next are each played from the same `DRAWS` draws of the seat's
  knowledge by greedy on both seats, for `ROLLOUT_DEPTH` commands (the rest of the turn and
  the other side's reply), then scored by `evaluate`; greedy's is kept unless another won
  more by `ANCHOR` standard errors of the paired difference. Greedy's own play through the
  reply judges a command better than this module's cheap playouts, which miss greedy's
  choice in one decision in four: flat UCB1 over the same commands with those playouts,
  anchored alike, won 65.8% of 120 battles against greedy, the rollouts 71.7% of 120
  (README, "The battle turns rolled out");
- every other decision (the Ring pick, a forced swap, the battlefield) is searched whole,
  flat (`tree=False`): UCB1 over the root's commands, the rest the playout's. A tree below
  the root would, in 200 iterations, only try each command there once, at random, before
  the playout: the rest of the turn would be random moves.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from domain.ai.rollouts import Rollouts
from domain.ai.search import Rated, Tuning, chosen_by
from domain.engine.bots import Seen
from domain.engine.rng import Rng
from domain.engine.scoring import Wire

from ..commands import EndTurn, PickTeam, StrikeLeader, Swap, UseItem
from ..content import Ability, Step, content
from ..formulas import BASIS, chances, damage
from ..state import Fighter, Ring, opponent
from .reading import Reading
from ..roster import loadout
from ..targets import swap_cost
from .matchup import OPEN
from .matchup import Fighter as MatchupFighter
from .value import AP_WORTH, KO_BONUS, ValuePolicy, score, swap_gain, swap_rule

# evaluate: a side's standing in greedy's points (`value.py`: a unit's HP 1:1, a KO 40, an
# item 6, the enemy leader 300 for the HP it has), and the points a logistic's slope spans
LEADER_POINTS = 600.0       # a whole leader: its last HP is the battle
KO_POINTS = 40.0
LP_POINTS = 30.0
ITEM_POINTS = 6.0
SCALE = 100.0

# playout_choice: worths on greedy's scale (`value.py`: KO_BONUS, AP_WORTH)
ITEM_WORTH = 6.0            # an item is gone once used: it must do more than this
STRIKE_WORTH = 1000.0       # a strike comes first, with all the AP it can take
OTHER_STEP = 2.0            # a step the playout does not weigh (a Dynamic, an augment) still does some good
RANDOM_MOVE = (1, 10)       # the chance of any legal command instead of the best
SURE = (0.0, 1.0, 0.0)


def evaluate(s: Ring, side: str) -> float:
    """`side`'s chances where a playout stopped: a logistic of the two sides' standings."""
    edge = standing(s, side) - standing(s, opponent(side))
    return 1.0 / (1.0 + math.exp(-edge / SCALE))


def standing(s: Ring, seat: str) -> float:
    """A side's points: its leader's HP share, its team units' HP, LP and standing (a KO'd
    unit's HP is 0 and it lacks the KO's points), and its items."""
    side = s.side(seat)
    points = LEADER_POINTS * side.leader_hp / side.leader_max_hp + ITEM_POINTS * len(side.items)
    for key in side.team:
        unit = s.units[key]
        points += unit.hp + LP_POINTS * unit.lp + (0.0 if unit.down else KO_POINTS)
    return points


def in_battle(s: Ring) -> bool:
    return s.phase == "battle"


def worth(s: Ring, seat: str, cmd: Any) -> float:
    """What a battle command does now, on greedy's scale, by its effectiveness odds."""
    if isinstance(cmd, StrikeLeader):
        return STRIKE_WORTH + cmd.ap
    if isinstance(cmd, EndTurn):
        return 0.0
    if isinstance(cmd, Swap):
        return swap_worth(s, seat, s.units[f"{seat}.{cmd.unit}"])
    rules = content()
    if isinstance(cmd, UseItem):
        return ability_worth(s, seat, rules.item_abilities[cmd.item], cmd.target) - ITEM_WORTH
    ability = rules.abilities[cmd.ability]
    return ability_worth(s, seat, ability, cmd.target) - AP_WORTH * ability.ap


def swap_worth(s: Ring, seat: str, incoming: Fighter) -> float:
    """Greedy's (`value.swap_value`): a KO'd Ring unit must go, a weak one may go for a strong
    one, and a healthy one comes in when it would take more HP from the enemy in the Ring with
    the AP left after the swap (a Mana Lock's cap is not read here)."""
    current, foe = s.ring_unit(seat), s.ring_unit(opponent(seat))

    def gain() -> float:
        if current is None or foe is None or foe.down:
            return 0.0
        return swap_gain(as_fighter(current), as_fighter(incoming), as_fighter(foe), s.side(seat).ap,
                         swap_cost(s, seat), OPEN)
    ring = None if current is None or current.down else (current.hp, current.max_hp)
    return swap_rule(ring, (incoming.hp, incoming.max_hp), gain)


def as_fighter(f: Fighter) -> MatchupFighter:
    return MatchupFighter(f.unit, f.stat("atk"), f.stat("def"), f.stat("skl"), f.stat("pry"), f.max_mp, f.tags,
                          loadout(f), f.equipment)


def ability_worth(s: Ring, seat: str, ability: Ability, target: str | None) -> float:
    """Greedy's expected worth of an ability: each step's at each effectiveness, by its odds."""
    user = s.ring_unit(seat)
    aimed = targets(s, seat, ability, target, user)
    total = 0.0
    for tier, weight in enumerate(odds(user, ability, [t for t in aimed if t.seat != seat])):
        if weight:
            total += weight * sum(step_worth(s, seat, user, ability, effect, tier, aimed) for effect in ability.steps)
    return total


def odds(user: Fighter | None, ability: Ability, foes: list[Fighter]) -> tuple[float, float, float]:
    """Glancing, Normal and Critical odds: SKL against the foes' PRY (`formulas.chances`)."""
    if ability.effectiveness == "sure" or user is None:
        return SURE
    skl = user.stat("skl")
    found = chances(skl, [f.stat("pry") for f in foes] or [skl])
    glance = 0 if ability.effectiveness == "friendly" else found.glancing
    return (glance / BASIS, (found.normal + found.glancing - glance) / BASIS, found.critical / BASIS)


def step_worth(s: Ring, seat: str, user: Fighter | None, ability: Ability, effect: Step, tier: int,
               aimed: list[Fighter]) -> float:
    power = effect.power[tier]
    hit = [user] if effect.to == "self" and user is not None else aimed
    if effect.do in ("damage", "true_damage"):
        total = 0.0
        for t in hit:
            dealt = hit_points(s, user, ability, effect.do, power, effect.hits, effect.penetration, t)
            gain = min(dealt, t.hp) + (KO_BONUS if dealt >= t.hp > 0 else 0.0)
            total += -gain if t.seat == seat else gain
        return total
    if effect.do == "heal":
        return sum(0.8 * min(power, t.max_hp - t.hp) + (KO_BONUS if t.ko else 0.0) for t in hit)
    if effect.do == "leader_damage":
        return STRIKE_WORTH / 10 * power
    return OTHER_STEP


def targets(s: Ring, seat: str, ability: Ability, target: str | None, user: Fighter | None) -> list[Fighter]:
    """The units the ability's `target` steps reach (none for a Dynamic or a leader)."""
    kind = ability.target
    if target is not None and kind != "dynamic":
        return [s.units[target]]
    if kind in ("enemy_team", "ally_team"):
        side = s.side(opponent(seat) if kind == "enemy_team" else seat)
        return [s.units[k] for k in side.team if k not in s.down]
    if kind == "enemy_ring":
        ring = s.ring_unit(opponent(seat))
        return [ring] if ring is not None else []
    return [user] if kind == "self" and user is not None else []


def hit_points(s: Ring, user: Fighter | None, ability: Ability, do: str, power: int, hits: int, penetration: int,
               t: Fighter) -> int:
    """The HP a damage step deals `t` at `power`, halved off the Ring."""
    if do == "true_damage" or user is None:
        dealt = power * hits
    else:
        dealt = damage(power, user.stat("atk"), t.stat("def"), penetration) * hits
    if ability.target in ("enemy_unit", "enemy_team") and s.side(t.seat).ring != t.key:
        dealt //= 2
    return dealt


# the battle turns' rollouts (`domain.ai.rollouts`)
CANDIDATES = 4              # greedy's choice and the three it rates next
DRAWS = 16                  # draws of the seat's knowledge, each candidate played from every one
ROLLOUT_DEPTH = 40          # commands after the candidate: the rest of the turn and the reply
ANCHOR = 2.0                # greedy's choice is played unless another beats it by this many standard errors


def moving(seen: Seen) -> bool:
    """A battle turn's free choice: not a forced swap, and not before the battle."""
    s = seen.knowledge
    return s.phase == "battle" and not s.swap_required


def rate(view: Mapping[str, Any], wires: Sequence[Wire]) -> list[float]:
    """Greedy's rating of each command, from the seat's view."""
    read = Reading(view)
    return [score(read, wire) for wire in wires]


def team_pick(seen: Seen, legal: Sequence[Any], rng: Rng) -> Any:
    """The team greedy counter-picks (a short playout cannot judge a team); None elsewhere."""
    return chosen_by(ValuePolicy(), seen, legal, rng) if isinstance(legal[0], PickTeam) else None


TUNING = Tuning(depth=12, evaluate=evaluate, playout=Rated(worth, RANDOM_MOVE, in_battle), exploration=0.15,
                tree=False, prepared=team_pick,
                rollouts=Rollouts(ValuePolicy, rate, evaluate, CANDIDATES, DRAWS, ROLLOUT_DEPTH, ANCHOR, when=moving))
