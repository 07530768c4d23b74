"""Parses and validates a skirmish setup; every error names the offending field."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import msgspec

from domain.engine.content import check_keys, new_inputs, parse_params, seat_part
from domain.engine.errors import SetupError

from .content import content
from .state import SEATS, Params

MODES = ("duel", "raid")
DEFAULT_BOARD = {"duel": "meadow", "raid": "colosseum"}   # when no board in the content names its mode


def default_board(mode: str) -> str:
    """The board a setup naming none plays: the content's board for the mode, else DEFAULT_BOARD's."""
    return next((b.id for b in content().boards.values() if b.default_for == mode), DEFAULT_BOARD[mode])
MAX_TEAM = 5                        # Preparation: three from one party plus up to two


class SkirmishSetup(msgspec.Struct, frozen=True, kw_only=True):
    params: Params
    mode: str
    board: str
    teams: dict[str, tuple[str, ...]]
    bosses: dict[str, str]          # seat -> its boss character (a raid's boss side)
    first_player: str | None

    def params_json(self) -> dict[str, Any]:
        return msgspec.to_builtins(self.params)


DEFAULT_SETUP: dict[str, Any] = {
    "mode": "duel",
    "p1": {"team": ["ember", "cinder", "flint", "sigil"]},
    "p2": {"team": ["wisp", "sable", "thorn", "brick"]},
}
RAID_SETUP: dict[str, Any] = {
    "mode": "raid",
    "p1": {"team": ["sigil", "quill", "fang", "brick", "wisp"]},
    "p2": {"boss": "tempest_wyrm"},
}


def parse_setup(raw: Mapping[str, Any]) -> SkirmishSetup:
    """`{"mode"?, "board"?, "p1": {"team": [...]}, "p2": {"team": [...]} or {"boss": id} (raids),
    "first_player"?, "params"?}`."""
    check_keys(raw, {*SEATS, "mode", "board", "first_player", "params"})
    params = parse_params(raw.get("params", {}), Params)
    mode = raw.get("mode", "duel")
    if mode not in MODES:
        raise SetupError("mode", f"must be one of {', '.join(MODES)}")
    if params.starting_hand > params.hand_limit and new_inputs():      # seed 001, Cards: the hand limit holds from the start
        raise SetupError("params.starting_hand", f"must be at most the hand limit (hand_limit {params.hand_limit}), "
                                                 f"not {params.starting_hand}")
    if params.raid_field_min > params.raid_field_max:
        raise SetupError("params.raid_field_min", "a raid fields from min to max characters: min <= max")
    first = raw.get("first_player")
    if first is not None and first not in SEATS:
        raise SetupError("first_player", f"must be one of {', '.join(SEATS)} or null")
    teams, bosses = {}, {}
    for seat in SEATS:
        part = seat_part(raw, seat, {"team", "boss"}, "a 'team' (or, in a raid, a 'boss')")
        if "boss" in part:
            teams[seat], bosses[seat] = parse_boss(seat, part, mode)
        else:
            teams[seat] = parse_team(seat, part.get("team"))
    if bosses and len(bosses) == len(SEATS):
        raise SetupError("p1.boss", "only one side of a raid is a boss side")
    board = raw.get("board", default_board(mode))
    if not isinstance(board, str) or board not in content().boards:
        raise SetupError("board", f"unknown board {board!r}; known: {', '.join(content().boards)}")
    for seat in SEATS:
        most = params.duel_field if mode == "duel" else min(len(teams[seat]), params.raid_field_max)
        if len(content().boards[board].zone(seat)) < most:
            raise SetupError("board", f"{board}'s deployment zone for {seat} holds fewer than {most} characters")
    if mode == "duel" and any(len(t) < params.duel_field for t in teams.values()):
        raise SetupError("params.duel_field", "a duel fields no more characters than a team holds")
    if mode == "raid" and any(len(t) < params.raid_field_min for t in teams.values()):
        raise SetupError("params.raid_field_min", "a raid fields no more characters than a team holds")
    return SkirmishSetup(params=params, mode=mode, board=board, teams=teams, bosses=bosses, first_player=first)


def parse_team(seat: str, raw: object) -> tuple[str, ...]:
    """Seed 001, Preparation (Duels): three characters from the same party plus up to two
    from any other parties; each character once."""
    field = f"{seat}.team"
    if not isinstance(raw, list) or not 3 <= len(raw) <= MAX_TEAM:
        raise SetupError(field, f"must be a list of 3 to {MAX_TEAM} character ids")
    for i, character in enumerate(raw):
        known = content().characters.get(character) if isinstance(character, str) else None
        if known is None or content().parties[known.party].raid_only:
            playable = [c for c, k in content().characters.items() if not content().parties[k.party].raid_only]
            raise SetupError(f"{field}[{i}]", f"unknown character {character!r}; known: {', '.join(playable)}")
        if raw.index(character) != i:
            raise SetupError(f"{field}[{i}]", f"{character!r} is already in the team")
    parties = Counter(content().characters[c].party for c in raw)
    party, most = parties.most_common(1)[0]
    if most < 3:
        raise SetupError(field, "needs three characters from the same party")
    return tuple(raw)


def parse_boss(seat: str, part: Mapping[str, Any], mode: str) -> tuple[tuple[str, ...], str]:
    """Seed 001, Preparation (Raids): a boss side fields its boss and escorts."""
    if mode != "raid":
        raise SetupError(f"{seat}.boss", "a boss side plays only in a raid")
    if "team" in part:
        raise SetupError(f"{seat}.team", "a boss side has no team of its own")
    boss = content().bosses.get(part["boss"]) if isinstance(part["boss"], str) else None
    if boss is None:
        raise SetupError(f"{seat}.boss", f"unknown boss {part['boss']!r}; known: {', '.join(content().bosses)}")
    return (boss.boss, *boss.escorts), boss.boss
