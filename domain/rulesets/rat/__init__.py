"""`rat`: the priority-ordered JRPG battle of seed 003. See README.md for every open choice."""
from __future__ import annotations

from pathlib import Path

import msgspec

from domain.engine.releases import Kept
from domain.engine.ruleset import Ruleset, Sealing, register

from . import decide as rules
from .bots import BOTS
from .carry import SetRules
from .commands import CODEC, Act
from .content import AI_LEVELS, CONTENT, Content, playing
from .evolve import evolve
from .knowledge import determinize, knowledge
from .legal import awaiting, default_command, legal_commands
from .matchups import matchups
from .resolver import RESOLVING
from .setup import DEFAULT_SETUP, RatSetup, parse_setup, seal_setup, table, unseal_setup
from .start import start
from .state import Params, Rat, Rules
from .view import memory_known, view


RULESET: Ruleset[Rat, RatSetup, Act] = register(Ruleset(
    id="rat", version="1.4.0", content=CONTENT, state_type=Rat, codec=CODEC,
    default_setup=DEFAULT_SETUP,
    setup_schema={
        "party": f"1..4 x {{member: {' | '.join(CONTENT.members)}, evs?: {{hp, atk, def, spd}}, equipment?: [ids], "
                 "moves?: [ids], items?: {consumable: {count, durability}}, hp?: carried HP}",
        "formation": f"a formation ({', '.join(CONTENT.formations)}) or a list of them (a set's route)",
        "stage": "which formation of the route this battle plays (a set advances it)",
        "enemy_ai": f"null (each enemy's own level) or one of {', '.join(AI_LEVELS)}",
        "enemy_seat": "false: the rules' AI plays the enemies; true: seat p2 does",
        "params": msgspec.to_builtins(Params()),
    },
    parse_setup=parse_setup, start=start, evolve=evolve, awaiting=awaiting,
    legal_commands=legal_commands, decide=rules.decide, view=view, outcome=rules.outcome,
    default_command=default_command, recommended_clock="rapid",
    table=table, sealing=Sealing(seal_setup, unseal_setup), set_rules=SetRules(), turn=rules.turn,
    memory_known=memory_known, bots=BOTS, commands=rules.COMMANDS, hooks=RESOLVING,
    knowledge=knowledge, determinize=determinize, matchups=matchups,
    releases=Kept(Path(__file__).parent / "releases", content=Content, playing=playing, params=Params, rules=Rules),
))
