"""`ring`: the monster battler of seed 000. See README.md for every open choice."""
from __future__ import annotations

from pathlib import Path

import msgspec

from domain.engine.releases import Kept
from domain.engine.ruleset import Ruleset, Sealing, register

from . import decide as rules
from .bots import BOTS
from .carry import SetRules
from .commands import CODEC, RingCommand
from .content import CONTENT, Content, playing
from .evolve import evolve
from .knowledge import determinize, knowledge
from .legal import awaiting, default_command, legal_commands
from .matchups import matchups, tally
from .moves import RESOLVING
from .setup import DEFAULT_SETUP, RingSetup, parse_setup, seal_setup, unseal_setup
from .start import start
from .state import Params, Ring
from .view import memory_known, view


RULESET: Ruleset[Ring, RingSetup, RingCommand] = register(Ruleset(
    id="ring", version="1.4.0", content=CONTENT, state_type=Ring, codec=CODEC,
    default_setup=DEFAULT_SETUP,
    setup_schema={
        "seats": {"deck": f"a preset ({', '.join(CONTENT.decks)}) or {{leader, units: [10 x {{unit, "
                          "equipment?, growth?, slots?, levels?, priorities?}}], items}}",
                  "condition": "unit -> {lp, exs}: what a set carries over (optional)"},
        "battlefield": f"one of {', '.join(CONTENT.battlefields)}, or null (initiative or the RNG decides)",
        "params": msgspec.to_builtins(Params()),
    },
    parse_setup=parse_setup, start=start, evolve=evolve, awaiting=awaiting,
    legal_commands=legal_commands, decide=rules.decide, view=view, outcome=rules.outcome,
    sealing=Sealing(seal_setup, unseal_setup), set_rules=SetRules(), turn=rules.turn,
    memory_known=memory_known, bots=BOTS, commands=rules.COMMANDS, hooks=RESOLVING,
    default_command=default_command, recommended_clock="bank", knowledge=knowledge, determinize=determinize,
    matchups=matchups, tally=tally,
    releases=Kept(Path(__file__).parent / "releases", content=Content, playing=playing, params=Params),
))
