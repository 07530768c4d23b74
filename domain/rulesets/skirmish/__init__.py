"""`skirmish`: the tactical card game on tiles of seed 001. See README.md for every open choice."""
from __future__ import annotations

from pathlib import Path

import msgspec

from domain.engine.releases import Kept
from domain.engine.ruleset import Ruleset, register

from .bots import BOTS
from .commands import CODEC, SkirmishCommand
from .content import CONTENT, Content, playing
from .decide import COMMANDS, decide, outcome, turn
from .evolve import evolve
from .knowledge import determinize, knowledge
from .legal import awaiting, default_command, legal_commands
from .matchups import matchups, tally
from .resolver import RESOLVING
from .setup import DEFAULT_SETUP, SkirmishSetup, parse_setup
from .start import start
from .state import Params, Skirmish
from .view import memory_known, view

RULESET: Ruleset[Skirmish, SkirmishSetup, SkirmishCommand] = register(Ruleset(
    id="skirmish", version="1.1.0", content=CONTENT, state_type=Skirmish, codec=CODEC,
    default_setup=DEFAULT_SETUP,
    setup_schema={
        "mode": "duel (3 fielded) or raid (up to 5 fielded)",
        "board": f"one of {', '.join(CONTENT.boards)} (default: glade for a duel, colosseum for a raid)",
        "p1": "{team: 3..5 character ids, three of them from one party}",
        "p2": f"{{team: [...]}}, or in a raid {{boss: {' | '.join(CONTENT.bosses)}}}",
        "first_player": "p1, p2 or null (the battle's RNG picks)",
        "params": msgspec.to_builtins(Params()),
    },
    parse_setup=parse_setup, start=start, evolve=evolve, awaiting=awaiting,
    legal_commands=legal_commands, decide=decide, view=view, outcome=outcome,
    turn=turn, memory_known=memory_known, bots=BOTS, anytime=frozenset({"forfeit"}),
    commands=COMMANDS, hooks=RESOLVING, default_command=default_command, recommended_clock="rapid",
    knowledge=knowledge, determinize=determinize, matchups=matchups, tally=tally,
    releases=Kept(Path(__file__).parent / "releases", content=Content, playing=playing, params=Params),
))
