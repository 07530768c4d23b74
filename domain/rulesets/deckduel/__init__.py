"""`deckduel`: the deck-as-life duel of seed 004. See README.md for every open choice."""
from __future__ import annotations

from pathlib import Path

import msgspec

from domain.engine.releases import Kept
from domain.engine.ruleset import Ruleset, register

from . import decide as rules
from .bots import BOTS
from .commands import CODEC
from .content import CONTENT, Content, playing
from .evolve import evolve
from .setup import DEFAULT_SETUP, parse_setup, withhold_setup
from .state import Duel, Params
from .view import view

RULESET: Ruleset[Duel] = register(Ruleset(
    id="deckduel", version="1.0.0", content=CONTENT, state_type=Duel, codec=CODEC,
    default_setup=DEFAULT_SETUP,
    setup_schema={
        "seats": {"character": sorted(CONTENT.characters), "deck": "list of card ids, top first (optional)",
                  "shuffle": "bool, default true"},
        "first_player": "p1, p2 or null (null: the RNG picks)",
        "params": msgspec.to_builtins(Params()),
    },
    parse_setup=parse_setup, start=rules.start, evolve=evolve, awaiting=rules.awaiting,
    legal_commands=rules.legal_commands, decide=rules.decide, view=view, outcome=rules.outcome,
    withhold_setup=withhold_setup, turn=lambda s: s.round, bots=BOTS,
    releases=Kept(Path(__file__).parent / "releases", content=Content, playing=playing, params=Params),
))
