"""The bots price the board as the rules do (`bots/plan.py`): a step costs a bot what the
rules charge for it (terrain, climbing, zones of control, an enemy's cell barred unless a
charge passes through), and a bot's walk reaches each cell at the least that steps priced so
add up to, hazardous terrain priced `HAZARD_STEP` more and never entered on the last token."""
from __future__ import annotations

import heapq
from itertools import product

import pytest

from domain.engine.events import Viewer
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.board import step_cost
from domain.rulesets.battleboard.bots.plan import HAZARD_STEP, Board, reaching
from domain.rulesets.battleboard.state import Battleboard, Combatant

from .given import battle, unit

# every kind of terrain and two levels up from the plain, around the middle of the board
ROWS = (".d1h.", "~c2o.", "#.3.d", ".h..~", "..1c.", ".....")
MOVERS = ((), ("flight",), ("swimming",), ("climbing",), ("bull_rush",))
FOES = (unit("f1", (2, 3)), unit("f2", (4, 4), movement=("flight",)))


def board_and_state(movement: tuple[str, ...], **h1: object) -> tuple[Board, Battleboard]:
    state = battle(unit("h1", (0, 0), movement=movement, **h1), *FOES, rows=ROWS)
    return Board(RULESET.view(state, Viewer(seat="h1"))), state


def pairs() -> list[tuple[tuple[int, int], tuple[int, int]]]:
    cells = list(product(range(5), range(6)))
    return [(a, b) for a in cells for b in cells if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1]


@pytest.mark.parametrize("lifted", [False, True])
@pytest.mark.parametrize("movement", MOVERS)
def test_a_bot_prices_each_step_as_the_rules_charge_it(movement: tuple[str, ...], lifted: bool) -> None:
    # given h1 (each kind of movement, lifted or not) among two foes on every kind of terrain
    b, state = board_and_state(movement, lifted=lifted)
    me, rules_h1 = b.units["h1"], state.units["h1"]
    for frm, to in pairs():
        for through in (False, True):
            # when the bot prices the step, then it is what the rules charge (None: not allowed)
            assert b.step_cost(me, frm, to, through) == step_cost(state, rules_h1, frm, to, through_enemies=through), \
                (frm, to, through)


@pytest.mark.parametrize("untapped", [1, 3])
@pytest.mark.parametrize("movement", MOVERS)
def test_a_bot_walks_to_each_cell_at_the_least_its_priced_steps_add_up_to(movement: tuple[str, ...],
                                                                          untapped: int) -> None:
    # given h1 at (0, 0) with 6 movement points, on its last token or with three
    b, state = board_and_state(movement, resilience=untapped, untapped=untapped)
    me, rules_h1 = b.units["h1"], state.units["h1"]
    # when the bot walks, then each cell costs the least sum of the rules' step prices, a
    # hazardous cell 1 more per entry and none entered on the last token
    assert b.walk(me, (0, 0), 6) == least(state, rules_h1, 6, hazards=untapped > 1)


def least(state: Battleboard, h1: Combatant, mp: int, hazards: bool) -> dict[tuple[int, int], int]:
    """Dijkstra over the rules' own step prices (the reference the bot's walk must match)."""
    found, queue = {(0, 0): 0}, [(0, (0, 0))]
    terrain = dict(((c, r), ROWS[r][c]) for c, r in product(range(5), range(6)))
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > found[here]:
            continue
        for to in ((here[0], here[1] - 1), (here[0] + 1, here[1]), (here[0], here[1] + 1), (here[0] - 1, here[1])):
            if to not in terrain:
                continue
            price = step_cost(state, h1, here, to)
            if price is None or (terrain[to] == "h" and not hazards):
                continue
            total = spent + price + (HAZARD_STEP if terrain[to] == "h" else 0)
            if total <= mp and total < found.get(to, mp + 1):
                found[to] = total
                heapq.heappush(queue, (total, to))
    return found


@pytest.mark.parametrize("reach", [1, 2, 3])
def test_the_cells_an_effect_reaches_a_target_from_are_those_whose_origins_reach_it(reach: int) -> None:
    # given the board of raised, obscuring and liquid cells
    b, _ = board_and_state(())
    for target in product(range(5), range(6)):
        # when the cells an effect of `reach` takes `target` from are listed
        listed = reaching(b.lay, target, reach)
        # then each is a cell whose own origins (it and the cells next to it) reach the target
        assert listed == {p for p in product(range(5), range(6))
                          if target in b.lay.best_origins((p,), False, reach)}, target
