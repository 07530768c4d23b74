"""The opening of a battle (seed 002, Initiative): the combatants and the rule choices in
force, then who won the initiative."""
from __future__ import annotations

import msgspec

from domain.engine.events import Event
from domain.engine.in_force import rules_in_force
from domain.engine.rng import Rng

from . import events as ev
from .build import sheets
from .setup import BattleboardSetup
from .state import FOES, HEROES, Rules


def start(setup: BattleboardSetup, rng: Rng) -> list[Event]:
    """The combatants and the rule choices in force, then the initiative: a d12 for each side,
    rerolled on a match."""
    rolls: list[list[int]] = []
    while not rolls or rolls[-1][0] == rolls[-1][1]:
        rolls.append([rng.int(1, 12), rng.int(1, 12)])
    winner = HEROES if rolls[-1][0] > rolls[-1][1] else FOES
    return [ev.BattleboardStarted(params=setup.params_json(), rules=msgspec.to_builtins(rules_in_force(Rules)),
                                  map=setup.map, heroes=[f"h{i + 1}" for i in range(len(setup.heroes))],
                                  units=sheets(setup)),
            ev.InitiativeRolled(rolls=rolls, winner=winner)]
