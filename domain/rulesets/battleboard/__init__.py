"""`battleboard`: the 5x6 battle board of seed 002. See README.md for every open choice."""
from __future__ import annotations

from pathlib import Path

import msgspec

from domain.engine.releases import Kept
from domain.engine.ruleset import Ruleset, register

from .bots import BOTS
from .commands import CODEC, BattleboardCommand
from .content import CONTENT, BattleboardContent, playing
from .decide import COMMANDS, decide, outcome, turn
from .evolve import evolve
from .knowledge import determinize, knowledge
from .legal import awaiting, default_command, legal_commands
from .matchups import matchups, tally
from .resolver import RESOLVING
from .setup import DEFAULT_SETUP, BattleboardSetup, parse_setup, table
from .start import start
from .state import Battleboard, Params, Rules
from .view import memory_known, view

RULESET: Ruleset[Battleboard, BattleboardSetup, BattleboardCommand] = register(Ruleset(
    id="battleboard", version="1.6.0", content=CONTENT, state_type=Battleboard, codec=CODEC,
    default_setup=DEFAULT_SETUP,
    setup_schema={
        "heroes": f"1 to 4 heroes (seats h1..h4): a preset ({', '.join(CONTENT.presets)}) or "
                  "{name?, class: [archetype, archetype], affinities: {air, earth, fire, water}, "
                  "weapons? (0 to 3), armor? (null: none), level? (0 to 10, default 1), upgrades}",
        "encounter": f"one of {', '.join(CONTENT.encounters)} (the foes and the map), or",
        "foes": f"a list of foe ids ({', '.join(CONTENT.foes)}) with",
        "map": f"one of {', '.join(CONTENT.maps)}",
        "params": msgspec.to_builtins(Params()),
    },
    parse_setup=parse_setup, start=start, evolve=evolve, awaiting=awaiting,
    legal_commands=legal_commands, decide=decide, view=view, outcome=outcome,
    default_command=default_command, recommended_clock="correspondence",
    table=table, turn=turn, memory_known=memory_known, bots=BOTS, commands=COMMANDS, hooks=RESOLVING,
    knowledge=knowledge, determinize=determinize, matchups=matchups, tally=tally,
    releases=Kept(Path(__file__).parent / "releases", content=BattleboardContent, playing=playing, params=Params,
                  rules=Rules),
))
