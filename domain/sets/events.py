"""A set's events. Their topics and fields are stored data: the set's hash chain covers them,
so they never change shape (a change would be a new `class_version` with an upcaster)."""
from __future__ import annotations

from typing import Annotated, Any

from domain.engine.events import Event, server_only

MODES = ("best_of", "all")


class SetCreated(Event, frozen=True, kw_only=True):
    TOPIC = "sets.SetCreated"
    set_id: str
    ruleset: str
    ruleset_version: str
    content_hash: str
    players: dict[str, str | dict[str, str | int]]
    games: int
    mode: str                                   # one of MODES
    public_setup: dict[str, Any]
    setup: Annotated[dict[str, Any] | None, server_only()]     # sealed parts included
    seat_token_hashes: Annotated[dict[str, str] | None, server_only()] = None
    created_at: str
    private: bool = False


class SetBattleStarted(Event, frozen=True, kw_only=True):
    TOPIC = "sets.SetBattleStarted"
    set_id: str
    index: int
    battle_id: str
    carry: dict[str, Any] | None


class SetBattleFinished(Event, frozen=True, kw_only=True):
    TOPIC = "sets.SetBattleFinished"
    set_id: str
    index: int
    battle_id: str
    winner: str | None                          # the winning side; None for a draw
    head: str                                   # the battle's last chain hash
    carry: dict[str, Any] | None                # what the next battle starts from


class SetEnded(Event, frozen=True, kw_only=True):
    TOPIC = "sets.SetEnded"
    set_id: str
    ruleset: str
    players: dict[str, str | dict[str, str | int]]
    winner: str | None                          # the side with the most wins; None for a tie
    score: dict[str, int]                       # wins per side
