"""The opening of a skirmish (seed 001, Preparation): both teams, every character with its
class, stats and talent, the mode, the board and who chose to go first."""
from __future__ import annotations

from domain.engine.events import Event
from domain.engine.rng import Rng

from . import events as ev
from .content import content
from .setup import SkirmishSetup
from .state import SEATS


def start(setup: SkirmishSetup, rng: Rng) -> list[Event]:
    units = []
    for seat in SEATS:
        for character in setup.teams[seat]:
            c = content().characters[character]
            power, armor = content().stats(character)
            units.append({"key": f"{seat}.{character}", "seat": seat, "character": character, "cls": c.cls,
                          "ranged": content().classes[c.cls].ranged, "power": power, "armor": armor,
                          "talent": c.talent, "boss": setup.bosses.get(seat) == character})
    return [ev.SkirmishStarted(params=setup.params_json(), mode=setup.mode, board=setup.board, units=units,
                               first_player=setup.first_player)]
