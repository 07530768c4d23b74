"""`deckduel`: the deck-as-life duel of seed 004. See README.md for every open choice."""
from __future__ import annotations

from pathlib import Path

import msgspec

from domain.engine.releases import Kept
from domain.engine.ruleset import Ruleset, register

from .bots import BOTS
from .commands import CODEC, DuelCommand
from .content import CONTENT, Content, playing
from .decide import COMMANDS, decide, outcome, turn
from .evolve import evolve
from .hooks import RESOLVING
from .knowledge import determinize, knowledge
from .legal import awaiting, default_command, legal_commands
from .matchups import matchups
from .setup import DEFAULT_SETUP, DuelSetup, parse_setup, withhold_setup
from .start import start
from .state import Duel, Params
from .view import view

RULESET: Ruleset[Duel, DuelSetup, DuelCommand] = register(Ruleset(
    id="deckduel", version="1.1.0", content=CONTENT, state_type=Duel, codec=CODEC,
    default_setup=DEFAULT_SETUP,
    setup_schema={
        "seats": {"character": sorted(CONTENT.characters), "deck": "list of card ids, top first (optional)",
                  "shuffle": "bool, default true"},
        "first_player": "p1, p2 or null (null: the RNG picks)",
        "params": msgspec.to_builtins(Params()),
    },
    parse_setup=parse_setup, start=start, evolve=evolve, awaiting=awaiting,
    legal_commands=legal_commands, decide=decide, view=view, outcome=outcome,
    withhold_setup=withhold_setup, turn=turn, bots=BOTS, commands=COMMANDS, hooks=RESOLVING,
    default_command=default_command, recommended_clock="blitz", knowledge=knowledge, determinize=determinize,
    matchups=matchups,
    releases=Kept(Path(__file__).parent / "releases", content=Content, playing=playing, params=Params),
))
