"""Where a bot's combatant ends its turn (seed 002, Movement: it snaps back unless it ends in its
own section): the cell of its section, within its walk, where the enemy is expected to take
the fewest tokens from it next turn (obscuring and liquid terrain cost their dice, a raised
cell is harder to reach, zones of control are kept out of), and from which it can still reach
an enemy on its next turn."""
from __future__ import annotations

from collections.abc import Mapping

from .plan import Board, Pos, Unit, cell, moves_as, reaching
from ..content import Action, content

SPRINT = 2              # the movement points a move action adds (Reposition)
MOVE = 0.05             # the least gain a move to a better cell is made for


def enemy_attacks(b: Board, e: Unit) -> list[Action]:
    actions = content().actions
    return [actions[a] for a in e["actions"]
            if actions[a].dice is not None and actions[a].target == "enemy" and e["energy"] >= actions[a].energy
            and e["focus"] >= actions[a].focus]


def threat(b: Board, me: Unit, p: Pos) -> float:
    """The tokens the enemies are expected to take from `me` on `p` next turn: each enemy's best
    attack that reaches `p` from a cell its speed walks it to (as the board stands now)."""
    lost = b.lost_dice(me, p)
    total = 0.0
    for attacks in dangers(b, me):
        best = 0.0
        for cells, harms in attacks:
            if harms[lost] > best and p in cells:
                best = harms[lost]
        total += best
    return total


def dangers(b: Board, me: Unit) -> list[list[tuple[Mapping[Pos, Pos], tuple[float, float]]]]:
    """For each enemy, each of its attacks: the cells it reaches next turn (`reached`) and what
    it is expected to take from `me` there, with no die lost and with one; once a board."""
    key = ("dangers", me["id"])
    found = b._kept.get(key)
    if found is None:
        found = b._kept[key] = [[(reached(b, e, a.range), (b.harm(e, a, me, 0), b.harm(e, a, me, 1)))
                                 for a in enemy_attacks(b, e)] for e in b.enemies(me)]
    return found


def reached(b: Board, e: Unit, reach: int) -> Mapping[Pos, Pos]:
    """The cells an effect of `reach` from `e` reaches next turn: from each cell its speed (and
    a move action's 2 points) walks it to, never climbing (Elevated Terrain)."""
    key = ("reached", e["id"], reach)
    found = b._tables.get(key)
    if found is None:
        walked = tuple(sorted(b.walk(e, cell(e), e["speed"] + SPRINT)))
        liquid = moves_as(e, "flight") or moves_as(e, "swimming")
        found = b._tables[key] = b.lay.best_origins(walked, liquid, reach)
    return found


def offense(b: Board, me: Unit, p: Pos) -> float:
    """The tokens `me` is expected to take next turn from `p`: its best attack on an enemy that
    a cell its speed (and a move action's 2 points) walks it to brings within reach (a cell whose
    origins reach the enemy: `plan.reaching`)."""
    walked = b.walk(me, p, me["speed"] + SPRINT).keys()
    best = 0.0
    for harm, target, reach in aims(b, me):
        if harm > best and not reaching(b.lay, target, reach).isdisjoint(walked):
            best = harm
    return best


def aims(b: Board, me: Unit) -> list[tuple[float, Pos, int]]:
    """Each attack `me` can make on each enemy (but a charge): what it is expected to take, the
    enemy's cell and the attack's range; worked out once a board."""
    key = ("aims", me["id"])
    found = b._kept.get(key)
    if found is None:
        found = b._kept[key] = [(b.harm(me, a, e, b.lost_dice(e, cell(e))), cell(e), a.range)
                                for a in enemy_attacks(b, me) if a.pattern != "path" for e in b.enemies(me)]
    return found


def home_value(b: Board, me: Unit, p: Pos) -> float:
    """How good `p` is to end the turn on: the tokens `me` can take next turn from it, less
    those the enemy can take from it first, less the zones of control it stands in (each as the
    board's `Weights` weigh it)."""
    key = ("home", me["id"], p)
    found = b._values.get(key)
    if found is None:
        w = b.weights
        found = w.offense * offense(b, me, p) - w.threat * threat(b, me, p) - w.zone * b.zones(me).get(p, 0)
        b._values[key] = found
    return found


def snap(b: Board, me: Unit, p: Pos) -> Pos:
    """Where `me` ends the turn if it stops on `p`: there in its section, else its origin."""
    if b.mine(me["side"], p) and (p == cell(me) or p not in b.taken):
        return p
    return (me["path"][0][0], me["path"][0][1]) if me["path"] else cell(me)


def settle(b: Board, me: Unit, to: Pos, left: int) -> float:
    """The score of a step to `to` (with `left` points after it) toward a better cell to end the
    turn on; below 0 when none is better than where it would end now."""
    now = home_value(b, me, snap(b, me, cell(me)))
    best = home_value(b, me, snap(b, me, to))
    for p in b.walk(me, to, left):
        if b.mine(me["side"], p) and p not in b.taken:
            best = max(best, home_value(b, me, p))
    gain = best - now
    return MOVE + 0.5 * gain if gain > MOVE else -1.0
