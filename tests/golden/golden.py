"""The golden battles: fixed setups, seeds and commands (or seeded bots), and their event logs.

Each ruleset keeps its battles in `tests/golden/<ruleset>_playthroughs.py` as `BATTLES`
(name -> a function playing the battle); a new ruleset adds its own module and nothing else.
Each battle's full omniscient log is pinned in `tests/golden/<name>.jsonl`, one
`{seq, type, data, chain}` line per event. `python -m tests.golden.regen` rewrites them.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from domain.ai.match import play, seeded_bytes
from domain.engine.battle import BattleState
from domain.engine.bots import Bot
from domain.engine.events import OMNISCIENT, Recorded, wire_event
from domain.engine.ruleset import Ruleset
from domain.sets import battle_setup, carry_after

GOLDEN_DIR = Path(__file__).parent
CREATED_AT = "2024-01-01T00:00:00Z"
PLAYERS = {"p1": "ann", "p2": "bob"}
Battle = Callable[[], tuple[BattleState, list[Recorded]]]
Battles = dict[str, Battle]


class PlayedBattle(NamedTuple):
    setup: dict[str, Any]               # the set's setup with the carry-over applied
    state: BattleState
    records: list[Recorded]
    carry: dict[str, Any] | None        # what the next battle starts from


def play_set(ruleset: Ruleset[Any], setup: Mapping[str, Any], bots: Mapping[str, Bot], seed: str, name: str,
             players: Mapping[str, str], games: int = 3) -> tuple[PlayedBattle, ...]:
    """`games` battles in a row between seeded bots, carried over as a set does (the seeds of
    `Sets.simulate`'s set 0); battle i is `<name>-battle-<i + 1>`."""
    played: list[PlayedBattle] = []
    carry = None
    for i in range(games):
        battle = battle_setup(ruleset, setup, carry)
        match = play(ruleset, bots, battle_id=f"{name}-battle-{i + 1}", revealed=seeded_bytes(seed, "set", 0, i),
                     bot_seed=seeded_bytes(seed, "set-bots", 0, i), setup=battle, players=dict(players),
                     created_at=CREATED_AT)
        carry = carry_after(ruleset, carry, battle, match.state)
        played.append(PlayedBattle(battle, match.state, match.records, carry))
    return tuple(played)


def set_battles(name: str, played: Callable[[], tuple[PlayedBattle, ...]], games: int = 3) -> Battles:
    """The battles of a set as golden battles `<name>_battle_1` ... (`played` is cached)."""
    def battle(index: int) -> Battle:
        def one() -> tuple[BattleState, list[Recorded]]:
            found = played()[index]
            return found.state, list(found.records)
        return one
    return {f"{name}_battle_{i + 1}": battle(i) for i in range(games)}


def all_battles() -> Battles:
    """Every ruleset's golden battles, from each `*_playthroughs.py` module here."""
    found: Battles = {}
    for path in sorted(GOLDEN_DIR.glob("*_playthroughs.py")):
        module = importlib.import_module(f"{__package__}.{path.stem}")
        clash = set(found) & set(module.BATTLES)
        if clash:
            raise ValueError(f"{path.name}: golden battle {sorted(clash)[0]!r} is named twice")
        found.update(module.BATTLES)
    return found


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.jsonl"


def log_lines(records: list[Recorded]) -> list[str]:
    return [orjson.dumps(wire_event(rec, OMNISCIENT, True)).decode() for rec in records]


RULES_CHANGED = "rules changed: if intended, bump the ruleset version and run `python -m tests.golden.regen`"


def first_difference(name: str, pinned: list[str], produced: list[str]) -> str | None:
    """None when the logs match; otherwise a message naming the first differing seq."""
    for seq, (want, got) in enumerate(zip(pinned, produced), start=1):
        if want != got:
            return f"{name}: seq {seq} differs; {RULES_CHANGED}\n  pinned:   {want}\n  produced: {got}"
    if len(pinned) != len(produced):
        seq = min(len(pinned), len(produced)) + 1
        return (f"{name}: seq {seq} differs (the pinned log has {len(pinned)} events, the battle now "
                f"produces {len(produced)}); {RULES_CHANGED}")
    return None
