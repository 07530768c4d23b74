"""What the bots read of the board from a seat's view (seed 002, Movement and Patterns): where a
combatant can walk this turn and what each cell costs (terrain, elevation, zones of control),
what an attack is expected to take from its targets from a movement path (the origins it
opens, the dice obscuring and liquid terrain cost), the charges along a Path, and how good a
cell of the side's own section is to end the turn on.

Everything is in the greedy bot's score units: an attack scores 1 plus 3 per token it is
expected to take, less what it spends. A `Board` is made once per view (`board_of`) and keeps
what it works out, so rating each legal command of one decision reads the board once. What
a token and a cell are worth is a bot's `Weights`: the greedy bot's by default.
"""
from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from math import comb
from typing import Any

from ..attack import parse_dice
from ..content import Action, content
from ..layout import Layout, grid, layout_of
from ..reading import Mover

Pos = tuple[int, int]
Unit = Mapping[str, Any]
STEPS = ((0, -1), (1, 0), (0, 1), (-1, 0))

EFFECT_WORTH = 0.3      # an effect token given
PER_TOKEN = 3.0         # score per token an attack is expected to take
ENERGY_COST, FOCUS_COST, REROLL_COST = 0.4, 0.2, 0.1
HAZARD_COST = 1.0       # a step onto hazardous terrain costs a defense token
HAZARD_STEP = 1         # the movement points a plan adds for it, so it walks around when it can


@dataclass(frozen=True)
class Weights:
    """What a bot makes of a token and of a cell to end the turn on (`ground.home_value`)."""
    tap_worth: float = 0.4      # a tapped token, against a discarded one (1): it is lost on the next hit
    threat: float = 0.6         # score lost per token the enemy is expected to take next turn
    offense: float = 0.4        # score gained per token it is expected to take next turn
    zone: float = 0.1           # score lost per enemy zone of control covering the cell
    guard: float | None = None  # per focus point spent on Defense to turn a break into a tap (None: never)


GREEDY = Weights()              # the greedy bot's


@lru_cache(maxsize=4096)
def odds(dice: int, faces: int, sides: int, m: int, k: int, defense: int, zero_miss: bool) -> tuple[float, float]:
    """(the chance the Attack Value breaks `defense`, the chance it taps a token) for `dice` dice
    each hitting on `faces` of `sides`, AV = hits x m + k (0 with no hit under `zero_miss`)."""
    p = faces / sides
    broken = tapped = 0.0
    for hits in range(dice + 1):
        chance = comb(dice, hits) * p ** hits * (1 - p) ** (dice - hits)
        av = 0 if hits == 0 and zero_miss else hits * m + k
        if av > defense:
            broken += chance
        elif av >= 1:
            tapped += chance
    return broken, tapped


def cell(u: Unit) -> Pos:
    return (u["cell"][0], u["cell"][1])


def apart(a: Pos, b: Pos) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def moves_as(u: Unit, kind: str) -> bool:
    return kind in u["movement"]


def tokens(u: Unit) -> int:
    return int(u["untapped"]) + int(u["tapped"])


class Board:
    """One view of the board, read for planning."""

    def __init__(self, view: Mapping[str, Any], weights: Weights = GREEDY):
        p = view["params"]
        self.weights = weights
        self.params = p
        self.lay: Layout = layout_of(content(), view["map"], grid(p["width"], p["height"]))
        self.units = {u["id"]: u for u in view["combatants"]}
        self.standing = [u for u in view["combatants"] if not u["defeated"] and u["cell"]]
        self.sections: Mapping[str, list[int]] = view["sections"]
        self.taken = {cell(u) for u in self.standing}
        self._zones: dict[tuple[str, bool], dict[Pos, int]] = {}
        self._values: dict[tuple[object, ...], float] = {}
        self._enemies: dict[str, list[Unit]] = {}
        self._held: dict[str, set[Pos]] = {}
        self._walks: dict[tuple[str, Pos, int], dict[Pos, int]] = {}
        self._movers: dict[tuple[str, bool], Mover] = {}
        self._walkable: dict[str, dict[Pos, int]] = {}
        self._attacks: dict[str, list[Action]] = {}
        self._tables: dict[tuple[object, ...], Mapping[Pos, Pos]] = {}
        self._kept: dict[tuple[object, ...], Any] = {}         # what `ground` works out once a board

    # --- who and where ---
    def enemies(self, me: Unit) -> list[Unit]:
        found = self._enemies.get(me["side"])
        if found is None:
            found = self._enemies[me["side"]] = [u for u in self.standing if u["side"] != me["side"]]
            self._held[me["side"]] = {cell(u) for u in found}
        return found

    def enemy_cells(self, me: Unit) -> set[Pos]:
        self.enemies(me)
        return self._held[me["side"]]

    def mine(self, side: str, p: Pos) -> bool:
        rows = self.sections.get(side)
        return rows is not None and rows[0] <= p[1] <= rows[1]

    def zones(self, me: Unit) -> dict[Pos, int]:
        """How many enemy zones of control cover each cell, as `me` pays for them."""
        if moves_as(me, "bull_rush"):
            return {}
        flying = moves_as(me, "flight")
        key = (me["side"], flying)
        found = self._zones.get(key)
        if found is None:
            found = self._zones[key] = {}
            for e in self.enemies(me):
                if flying and not moves_as(e, "flight"):
                    continue
                c, r = cell(e)
                for p in ((c, r), (c, r - 1), (c + 1, r), (c, r + 1), (c - 1, r)):
                    found[p] = found.get(p, 0) + 1
        return found

    # --- walking ---
    def step_cost(self, me: Unit, frm: Pos, to: Pos, through: bool = False) -> int | None:
        """Movement points for `me` to step from `frm` onto `to` (seed 002, Terrain and Zone of
        Control), or None where it may not; `through`: a charge passes enemies."""
        return self.mover(me, through).cost(frm, to)

    def mover(self, me: Unit, through: bool = False) -> Mover:
        """`me`'s steps priced as the rules price them (`reading.Mover`): enemies' cells barred
        unless a charge passes through, their zones of control paid."""
        key = (me["id"], through)
        found = self._movers.get(key)
        if found is None:
            held = () if through else self.enemy_cells(me)
            found = self._movers[key] = Mover(self.lay, partial(moves_as, me), me["lifted"], held, self.zones(me))
        return found

    def walk(self, me: Unit, start: Pos, mp: int) -> dict[Pos, int]:
        """The cells `me` can walk to from `start` on `mp` movement points, with the least each
        costs; a step onto hazardous terrain (it costs a token) is priced `HAZARD_STEP` more, and
        none is taken on the last token."""
        key = (me["id"], start, mp)
        kept = self._walks.get(key)
        if kept is not None:
            return kept
        found = self._walks[key] = {start: 0}
        steps, climb, level = self.walkable(me), self.mover(me).climb, self.lay.level
        queue = [(0, start)]
        while queue:
            spent, here = heapq.heappop(queue)
            if spent > found.get(here, spent):
                continue
            for to in self.lay.neighbours_of(here):
                cost = steps.get(to)
                if cost is None:
                    continue
                cost += spent + (climb if level[to] > level[here] else 0)
                if cost <= mp and cost < found.get(to, mp + 1):
                    found[to] = cost
                    heapq.heappush(queue, (cost, to))
        return found

    def walkable(self, me: Unit) -> Mapping[Pos, int]:
        """What a walk pays to enter each cell it may, before any climb (a step from a cell of
        the same level): hazardous terrain `HAZARD_STEP` more, and never on the last token."""
        found = self._walkable.get(me["id"])
        if found is None:
            priced, spare, terrain = self.mover(me), tokens(me) > 1, self.lay.terrain
            found = self._walkable[me["id"]] = {
                to: cost + HAZARD_STEP if terrain[to] == "hazardous" else cost
                for to in terrain if (cost := priced.cost(to, to)) is not None
                and (spare or terrain[to] != "hazardous")}
        return found

    # --- attacks ---
    def lost_dice(self, who: Unit, p: Pos) -> int:
        """Obscuring and liquid terrain cost a die (liquid not for a flyer or swimmer)."""
        kind = self.lay.terrain[p]
        ignores = moves_as(who, "flight") or moves_as(who, "swimming")
        return 1 if kind == "obscuring" or (kind == "liquid" and not ignores) else 0

    def harm(self, me: Unit, action: Action, target: Unit, lost: int) -> float:
        """The tokens `action` is expected to take from `target`, counting its effects, and what
        finishing a combatant low on tokens is worth."""
        key = ("harm", me["id"], action.id, target["id"], lost)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self._harm(me, action, target, lost)
        return found

    def _harm(self, me: Unit, action: Action, target: Unit, lost: int) -> float:
        assert action.dice is not None
        n, m, k = parse_dice(action.dice)
        p = self.params
        dice = max(0, n - lost + (1 if me["tokens"].get("lucky") else 0))
        faces = sum(1 for f in range(1, p["die_sides"] + 1) if f > target["evasion"] or f >= p["auto_hit"])
        shift = target["tokens"].get("vulnerable", 0) - me["tokens"].get("weakened", 0)
        broken, tapped = odds(dice, faces, p["die_sides"], m, k + shift, target["defense"], p["zero_hits_miss"])
        left = tokens(target)
        worth = broken + self.weights.tap_worth * tapped
        landed = broken if action.kind == "attack" else broken + tapped
        worth += EFFECT_WORTH * len(action.effects) * landed
        if left == 0:
            worth += 2.0 * (broken + tapped)
        elif left == 1:
            worth += 0.5 * broken
        return worth * (1 + 1 / (1 + left))

    def open_actions(self, me: Unit) -> list[Action]:
        """The actions `me` may still take this turn and pay for (no reroll): a kind not taken
        while a regular action is left, or a double down."""
        actions = content().actions
        kinds = {actions[a].kind for a in me["taken"]}
        regular = len(me["taken"]) - (1 if me["doubled"] else 0) < me["slots"]
        invigorated = me["tokens"].get("invigorated", 0) > 0
        found = []
        for key in me["actions"]:
            a = actions[key]
            if me["focus"] < a.focus:
                continue
            if a.kind not in kinds:
                if regular and me["energy"] >= a.energy:
                    found.append(a)
            elif not me["doubled"] and (invigorated or me["energy"] >= a.energy + self.params["double_down_energy"]) \
                    and (invigorated or a.repeatable or key not in me["taken"]):
                found.append(a)
        return found

    def attacks(self, me: Unit) -> list[Action]:
        found = self._attacks.get(me["id"])
        if found is None:
            found = self._attacks[me["id"]] = [a for a in self.open_actions(me)
                                               if a.dice is not None and a.target == "enemy"]
        return found

    def action_value(self, me: Unit, action: Action, path: tuple[Pos, ...]) -> float:
        """The best score of `action` taken from `path`'s origins (a charge: `charge_value`)."""
        key = ("act", me["id"], action.id, path)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self._action_value(me, action, path)
        return found

    def _action_value(self, me: Unit, action: Action, path: tuple[Pos, ...]) -> float:
        if action.pattern == "path":
            return 0.0
        liquid = moves_as(me, "flight") or moves_as(me, "swimming")
        table = self.lay.best_origins(path, liquid, action.range)
        reached = {e["id"]: self.harm(me, action, e, self.lost_dice(me, table[cell(e)]) + self.lost_dice(e, cell(e)))
                   for e in self.enemies(me) if cell(e) in table}
        if not reached:
            return 0.0
        if action.pattern in ("single", "scatter", "flurry"):
            ranked = sorted(reached.values(), reverse=True)
            harm = ranked[0] if action.pattern == "single" else \
                sum(ranked[:3]) if action.pattern == "scatter" else 3 * ranked[0]
        else:
            harm = max((sum(reached.get(e["id"], 0.0) for e in hit) for hit in self.areas(me, action, table)),
                       default=0.0)
        return 1.0 + PER_TOKEN * harm - cost(action) if harm > 0 else 0.0

    def areas(self, me: Unit, action: Action, table: Mapping[Pos, Pos]) -> Iterable[list[Unit]]:
        """The enemies each placement of a line, wave or burst within reach would hit."""
        w, h = self.params["width"], self.params["height"]
        enemies = self.enemies(me)
        if action.pattern == "line":
            for r in range(h):
                if any((c, r) in table for c in range(w)):
                    yield [e for e in enemies if e["cell"][1] == r]
        elif action.pattern == "wave":
            for c in range(w):
                if any((c, r) in table for r in range(h)):
                    yield [e for e in enemies if abs(e["cell"][0] - c) <= 1]
        else:
            for p in table:
                yield [e for e in enemies if abs(e["cell"][0] - p[0]) <= 1 and abs(e["cell"][1] - p[1]) <= 1]

    def charges(self, me: Unit, start: Pos, mp: int) -> list[tuple[Pos, list[Unit]]]:
        """Path: each straight charge from `start` through enemies to an empty cell `mp` pays
        for, with the enemies it passes."""
        found = []
        for dc, dr in STEPS:
            here, spent, passed = start, 0, []
            while (nxt := (here[0] + dc, here[1] + dr)) in self.lay.terrain:
                price = self.step_cost(me, here, nxt, through=True)
                if price is None or spent + price > mp or self.lay.terrain[nxt] == "hazardous":
                    break
                spent, here = spent + price, nxt
                hit = [e for e in self.enemies(me) if cell(e) == nxt]
                passed += hit
                if not hit and passed and nxt not in self.taken:
                    found.append((nxt, list(passed)))
        return found

    def charge_value(self, me: Unit, action: Action, end: Pos, passed: list[Unit]) -> float:
        harm = sum(self.harm(me, action, e, self.lost_dice(me, end) + self.lost_dice(e, cell(e))) for e in passed)
        return 1.0 + PER_TOKEN * harm - cost(action) if harm > 0 else 0.0

    def best_now(self, me: Unit, path: tuple[Pos, ...], here: Pos, mp: int) -> float:
        """The best attack `me` can make from `path`, or by a charge from `here` on `mp`."""
        key = ("now", me["id"], path, here, mp)
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = self._best_now(me, path, here, mp)
        return found

    def _best_now(self, me: Unit, path: tuple[Pos, ...], here: Pos, mp: int) -> float:
        best = 0.0
        for a in self.attacks(me):
            if a.pattern == "path":
                best = max([best, *(self.charge_value(me, a, end, hit) for end, hit in self.charges(me, here, mp))])
            else:
                best = max(best, self.action_value(me, a, path))
        return best

    def best_reach(self, me: Unit, path: tuple[Pos, ...], here: Pos, mp: int) -> float:
        """The best attack `me` can make after walking on from `here` with `mp` points left: from
        the path so far, or from a cell of the walk (each cell weighed on its own)."""
        key = ("reach", me["id"], path, here, mp)
        found = self._values.get(key)
        if found is None:
            found = self.best_now(me, path, here, mp)
            for p, spent in self.walk(me, here, mp).items():
                found = max(found, self.best_now(me, (p,), p, mp - spent))
            self._values[key] = found
        return found


def cost(action: Action, reroll: int = 0) -> float:
    return ENERGY_COST * action.energy + FOCUS_COST * action.focus + REROLL_COST * reroll


def support_worth(action: Action, tapped: int, room: int) -> float:
    """What a support action does for its target, before its cost: the tokens it untaps (of the
    target's `tapped`) or restores (of the `room` its Resilience has left), a stance, a token
    given or cleansed."""
    value = 0.2
    for step in action.steps:
        if step.do == "untap":
            value += min(step.amount, tapped)
        elif step.do == "restore":
            value += min(step.amount, room)
        elif step.do == "stance":
            value += 0.6
        elif step.do in ("give", "cleanse"):
            value += 0.5
    return value


@lru_cache(maxsize=8192)
def reaching(lay: Layout, target: Pos, reach: int) -> frozenset[Pos]:
    """The cells of the board whose path (`Layout.origins`: the cell and those next to it) holds
    an origin an effect of `reach` reaches `target` from: where a combatant that ends a walk can
    take it as the target. Kept per map (a layout lives as long as its content)."""
    return frozenset(p for p, near in lay.next_to.items()
                     if any(lay.spans(o).get(target, reach + 1) <= reach for o in (p, *near)))


def in_area(row: int | None, col: int | None, at: Sequence[int] | None, p: Pos) -> bool:
    """Whether an area action aimed at `row`, at the three columns around `col` or at the
    3x3 around `at` reaches the cell `p`."""
    if row is not None:
        return p[1] == row
    if col is not None:
        return abs(p[0] - col) <= 1
    return at is not None and abs(p[0] - at[0]) <= 1 and abs(p[1] - at[1]) <= 1


_LAST: tuple[Mapping[str, Any], Board] | None = None


def board_of(view: Mapping[str, Any], weights: Weights = GREEDY) -> Board:
    """The board read from `view` with `weights`, kept for the latest view (a decision rates every
    legal command of one view)."""
    global _LAST
    if _LAST is not None and _LAST[0] is view and _LAST[1].weights is weights:
        return _LAST[1]
    found = Board(view, weights)
    _LAST = (view, found)
    return found
