"""Battleboard's `greedy` scorer, for either side: each legal command from the seat's view.

- An attack scores by the tokens it is expected to take (`plan.Board.harm`: the odds of a tap
  and a break against the target's Evasion and Defense, the dice terrain costs, its effects,
  a finishing blow), from the origins its movement path opens.
- A step scores by the best attack the combatant can still make after it (walking on with
  the points left: terrain, elevation and zones of control priced), when that beats attacking
  from where it stands; a charge along a Path scores by the enemies it passes; a move action
  or a focus point turned into movement scores by the attack it brings within reach.
- Once it has no attack to make, a step scores by the cell of its section it leads to, to end
  the turn on (`ground.settle`).
- Guard and aid score by the tokens they save, taking a row always pays, and it ends the turn
  once nothing scores above 0."""
from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from domain.engine.scoring import GreedyPolicy

from ..content import Action, content
from ..state import mendable
from .ground import settle
from .plan import (EFFECT_WORTH, GREEDY, HAZARD_COST, PER_TOKEN, Board, Pos, Unit, Weights, board_of, cell, cost,
                   in_area, support_worth, tokens)

ADVANCE = 5.0           # taking a row costs nothing and widens the section
FOCUS_WORTH = 0.6       # a focus point turned into movement
SLOT_WORTH = 0.8        # the guard or tactics action a move action takes the place of
BETTER = 0.05           # the least gain a step toward a better attack is made for
DOUBLE_DOWN = 1.0       # per energy point a double down spends
FOLLOW_UP = 2.0         # a charge first, then a doubled-down attack from where it ends
LAST_TOKEN = 2.0        # a break kept off the last token: the next hit would fell it


def score(view: Mapping[str, Any], cmd: Mapping[str, Any], weights: Weights = GREEDY) -> float:
    """The command's worth from the seat's view, tokens and cells as `weights` weigh them."""
    kind = cmd["type"]
    if kind == "choose":
        return 1.0 if cmd["go"] == "first" else 0.0
    if kind == "defend":
        return _defend_score(view, cmd, weights)
    if kind == "end_turn":
        return 0.0
    if kind == "advance":
        return ADVANCE
    b = board_of(view, weights)
    me = b.units[cmd["unit"]]
    if kind == "place":
        return _place_score(view, me, cmd["cell"])
    if kind == "convert":
        return _boost_score(b, me, view["params"]["focus_movement"]) - FOCUS_WORTH
    if kind == "move":
        return _move_score(b, me, (cmd["to"][0], cmd["to"][1]))
    return _act_score(b, me, cmd)


def _defend_score(view: Mapping[str, Any], cmd: Mapping[str, Any], weights: Weights) -> float:
    """Losing an untapped token beats losing tapped ones. Focus turns a break into a tap: worth
    the token kept (less the tap), the attack's effects kept off and, on the last token, the
    combatant kept standing, at `weights.guard` a point; never spent when that is None."""
    value = 0.5 if cmd["lose"] == "untapped" else 0.0
    focus = cmd.get("focus", 0)
    if weights.guard is None or not focus:
        return value - 0.1 * focus
    waiting = view["waiting_defense"]
    me = next(u for u in view["combatants"] if u["id"] == waiting["unit"])
    action = content().actions[waiting["action"]]
    kept = 1 - weights.tap_worth + (EFFECT_WORTH * len(action.effects) if action.kind == "attack" else 0.0)
    if tokens(me) <= 1:
        kept += LAST_TOKEN
    return value + kept - weights.guard * focus


def _place_score(view: Mapping[str, Any], me: Unit, at: list[int]) -> float:
    rows = view["sections"][me["side"]]
    front = rows[1] if me["side"] == "heroes" else rows[0]
    return -abs(at[1] - front) + 0.01 * at[0]


def _path(me: Unit) -> tuple[Pos, ...]:
    return tuple((p[0], p[1]) for p in me["path"]) or (cell(me),)


def _move_score(b: Board, me: Unit, to: Pos) -> float:
    here = cell(me)
    jump = abs(here[0] - to[0]) + abs(here[1] - to[1]) > 1
    price = 1 if jump else b.step_cost(me, here, to)
    left = me["mp"] - (price if price is not None else 1)
    hazard = HAZARD_COST if b.lay.terrain[to] == "hazardous" else 0.0
    if b.attacks(me) and b.enemies(me):
        now = b.best_now(me, _path(me), here, me["mp"])
        after = b.best_reach(me, (*_path(me), to), to, max(0, left))
        if after > now + BETTER:
            return after + 0.01 - hazard
    return settle(b, me, to, max(0, left)) - hazard


def _boost_score(b: Board, me: Unit, extra: int) -> float:
    """More movement points: worth the better attack they bring within reach."""
    if not b.attacks(me) or not b.enemies(me) or extra <= 0:
        return 0.0
    here, path = cell(me), _path(me)
    base = b.best_reach(me, path, here, me["mp"])
    more = b.best_reach(me, path, here, me["mp"] + extra)
    return more - SLOT_WORTH if more > base + BETTER else 0.0


def _extra_movement(action: Action) -> int:
    return sum(step.amount for step in action.steps if step.do in ("movement", "teleport"))


def _act_score(b: Board, me: Unit, cmd: Mapping[str, Any]) -> float:
    """An action's worth, less what it spends: its energy and focus, and the energy a double
    down costs (energy comes back only through actions)."""
    action = content().actions[cmd["action"]]
    return _act_worth(b, me, action, cmd) - _double_cost(b, me, action)


def _double_cost(b: Board, me: Unit, action: Action) -> float:
    actions = content().actions
    if action.kind not in {actions[a].kind for a in me["taken"]} or me["tokens"].get("invigorated"):
        return 0.0
    return DOUBLE_DOWN * b.params["double_down_energy"]


def _act_worth(b: Board, me: Unit, action: Action, cmd: Mapping[str, Any]) -> float:
    reroll = cmd.get("reroll", 0)
    if action.dice is not None and action.target == "enemy":
        harm = _command_harm(b, me, action, cmd)
        if harm <= 0:
            return 0.1 - cost(action)
        return 1.0 + PER_TOKEN * harm + 0.1 * reroll - cost(action, reroll) + _follow_up(b, me, action)
    if action.kind == "move":
        return max(0.1, _boost_score(b, me, _extra_movement(action))) - cost(action)
    target = b.units[(cmd.get("targets") or [me["id"]])[0]]
    room = target["resilience"] - target["untapped"] - target["tapped"]
    return support_worth(action, mendable(target["tapped"], target["untaps_left"]), room) - cost(action)


def _follow_up(b: Board, me: Unit, action: Action) -> float:
    """A charge taken first leaves the charger next to the enemies it passed, where it may still
    double down on another attack: worth `FOLLOW_UP` while it has the energy for both."""
    if action.pattern != "path" or me["taken"]:
        return 0.0
    return FOLLOW_UP if me["energy"] >= action.energy + b.params["double_down_energy"] else 0.0


def _command_harm(b: Board, me: Unit, action: Action, cmd: Mapping[str, Any]) -> float:
    """The tokens this exact command is expected to take, summed over its targets."""
    here = cell(me)
    if action.pattern == "path":
        end = (cmd["at"][0], cmd["at"][1])
        hit = [e for e in b.enemies(me) if _between(here, end, cell(e))]
        return sum(b.harm(me, action, e, b.lost_dice(me, end) + b.lost_dice(e, cell(e))) for e in hit)
    targets = cmd.get("targets") or []
    if targets:
        liquid = "flight" in me["movement"] or "swimming" in me["movement"]
        table = b.lay.best_origins(_path(me), liquid, action.range)
        total = 0.0
        for key in targets:
            e = b.units[key]
            origin = table.get(cell(e), here)
            total += b.harm(me, action, e, b.lost_dice(me, origin) + b.lost_dice(e, cell(e)))
        return total
    row, col, at = cmd.get("row"), cmd.get("col"), cmd.get("at")
    return sum(b.harm(me, action, e, b.lost_dice(e, cell(e))) for e in b.enemies(me) if in_area(row, col, at, cell(e)))


def _between(a: Pos, b: Pos, p: Pos) -> bool:
    """Whether `p` lies strictly between `a` and `b` on a straight line."""
    if a[0] == b[0] == p[0]:
        return min(a[1], b[1]) < p[1] < max(a[1], b[1])
    return a[1] == b[1] == p[1] and min(a[0], b[0]) < p[0] < max(a[0], b[0])


def greedy() -> GreedyPolicy:
    """The `greedy` bot: the best legal command by `score`."""
    return GreedyPolicy(score)


def weighing(weights: Weights) -> GreedyPolicy:
    """A greedy policy that weighs tokens and cells by `weights` (`search`'s game master's own)."""
    return GreedyPolicy(partial(score, weights=weights))
