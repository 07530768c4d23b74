"""The legal listing reads each answer from what it keeps (`offers`, `steps`, the zones of
control, who is awaited) by everything that answer reads: across the states of random battles,
under today's rules and 1.0.0's, it lists exactly what the rules' own definitions (`open_slot`,
`payable`, `aims`, a fresh `Reading`) give for that state. A move priced alone (a replay's)
is the step the listing gives."""
from __future__ import annotations

import uuid
from collections.abc import Iterator

from msgspec.structs import replace

from domain.ai.match import seeded_bytes
from domain.engine.battle import open_battle
from domain.engine.playout import sim_of, step, uniform
from domain.engine.rng import Rng
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.actions import max_reroll, open_slot, payable
from domain.rulesets.battleboard import board
from domain.rulesets.battleboard.board import _steps, layout, on_board, step_to, steps
from domain.rulesets.battleboard.commands import Act
from domain.rulesets.battleboard.content import content
from domain.rulesets.battleboard.legal import _awaited, awaiting, legal_commands, unit_actions
from domain.rulesets.battleboard.patterns import aims
from domain.rulesets.battleboard.reading import Reading
from domain.rulesets.battleboard.state import RULES_1_0_0, Battleboard, Combatant


def turn_states(battles: int = 3, most: int = 400) -> Iterator[tuple[Battleboard, str]]:
    """(state, awaited seat) of each decision in the turns of a few random battles."""
    players = {seat: {"bot": "random"} for seat in RULESET.default_table().seats}
    for i in range(battles):
        state, _ = open_battle(RULESET, battle_id=str(uuid.UUID(int=i)), setup=RULESET.fresh_setup(), players=players,
                               revealed=seeded_bytes("listing", i), created_at="1970-01-01T00:00:00Z")
        sim, rng = sim_of(state), Rng(seeded_bytes("listing-bots", i))
        for _ in range(most):
            if sim.outcome is not None:
                break
            seat = min(awaiting(sim.game))
            if sim.game.phase == "turn" and sim.game.plan is None:
                yield sim.game, seat
            sim = step(RULESET, sim, seat, uniform(sim.game, seat, legal_commands(sim.game, seat), rng))


def defined(s: Battleboard, unit: Combatant) -> list[Act]:
    """The combatant's Act commands straight from the rules' definitions, nothing kept."""
    found = []
    for action_id in unit.actions:
        action = content().actions[action_id]
        taking = open_slot(s, unit, action)
        if taking is None or not payable(s, unit, action, *taking):
            continue
        for aiming in aims(s, unit, action):
            found += [Act(unit=unit.id, action=action_id, reroll=r, **aiming)  # type: ignore[arg-type]
                      for r in range(min(max_reroll(action), unit.focus - action.focus) + 1)]
    return found


def zones_by_hand(s: Battleboard, unit: Combatant) -> dict[tuple[int, int], int]:
    flying = unit.moves_as("flight")
    found: dict[tuple[int, int], int] = {}
    for e in s.units.values():
        if e.side != unit.side and not e.defeated and e.cell is not None and (not flying or e.moves_as("flight")):
            col, row = e.cell
            for p in {e.cell, (col, row - 1), (col + 1, row), (col, row + 1), (col - 1, row)}:
                found[p] = found.get(p, 0) + 1
    return found


def test_the_listed_actions_are_those_the_rules_define():
    seen = 0
    for s, seat in turn_states():
        for state in (s, replace(s, rules=RULES_1_0_0)):
            for unit in state.seat_units(seat):
                assert unit_actions(state, unit) == defined(state, unit)
                seen += 1
    assert seen > 300


def test_steps_and_zones_are_those_of_a_fresh_reading():
    seen = 0
    for s, seat in turn_states():
        for unit in s.seat_units(seat):
            if unit.cell is None:
                continue
            fresh = Reading(s, layout(s))
            assert steps(s, unit) == _steps(fresh, unit)
            assert fresh.zones(unit.side, unit.moves_as("flight")) == zones_by_hand(s, unit)
            seen += 1
    assert seen > 300


def test_awaiting_kept_for_the_latest_state_is_a_fresh_answer():
    seen = 0
    previous = None
    for s, _ in turn_states():
        assert awaiting(s) == _awaited(s)
        assert awaiting(s) is awaiting(s)       # asked again: the kept answer
        if previous is not None:
            assert awaiting(previous) == _awaited(previous)     # another state: worked out again
            assert awaiting(s) == _awaited(s)
        previous = s
        seen += 1
    assert seen > 300


def test_a_move_priced_alone_is_the_listed_step():
    """`step_to` on a state no listing read (its steps not kept) prices the one step or jump,
    and agrees with `steps` on every cell of the board."""
    seen = 0
    for s, seat in turn_states():
        for unit in s.seat_units(seat):
            if unit.cell is None:
                continue
            board._STEPS.clear()
            alone = {to: step_to(s, unit, to) for to in layout(s).terrain if on_board(s, to)}
            listed = {cell: (cost, skipped) for cell, cost, skipped in steps(s, unit)}
            assert alone == {to: listed.get(to) for to in alone}
            seen += 1
    assert seen > 300
