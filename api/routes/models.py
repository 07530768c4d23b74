"""Request bodies (validated for shape; rulesets validate meaning) and documented responses."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateBattle(Strict):
    ruleset: str = Field(min_length=1, max_length=64)
    players: dict[str, str]
    setup: dict[str, Any] | None = None
    seed_nonces: dict[str, str] | None = None
    private: bool = False
    spectator_delay: int | None = Field(None, ge=0, le=1000, description="Hold spectators N actions behind.")

    def full_setup(self, default: dict[str, Any]) -> dict[str, Any] | None:
        """The setup with the spectator delay folded in (the engine keeps it in the setup)."""
        if self.spectator_delay is None:
            return self.setup
        return {**(self.setup if self.setup is not None else default), "spectator_delay": self.spectator_delay}


class CreateSet(CreateBattle):
    games: int = Field(3, ge=1, le=99)
    mode: str = Field("best_of", pattern="^(best_of|all)$")


class SubmitCommand(Strict):
    command: dict[str, Any]
    expected_seq: int | None = Field(None, ge=0)


class WireEvent(BaseModel):
    seq: int
    type: str
    data: dict[str, Any]
    chain: str | None


class CreatedBattleOut(BaseModel):
    battle_id: str
    seat_tokens: dict[str, str]
    seed_commitment: str
    seq: int


class CreatedSetOut(BaseModel):
    set_id: str
    battle_id: str
    seat_tokens: dict[str, str]
    seed_commitment: str


class SubmittedOut(BaseModel):
    seq: int
    events: list[WireEvent]


class EventsOut(BaseModel):
    battle_id: str
    events: list[WireEvent]


class LegalOut(BaseModel):
    battle_id: str
    seat: str
    seq: int
    awaiting: list[str]
    ended: bool
    legal: list[dict[str, Any]]


class ViewOut(BaseModel):
    battle_id: str
    ruleset: str
    seq: int
    players: dict[str, str]
    outcome: dict[str, Any] | None
    state: dict[str, Any] | None        # None before the game has started (the create batch's first seqs)


class TurnMark(BaseModel):
    turn: int
    seq: int


class TimelineOut(BaseModel):
    battle_id: str
    ruleset: str
    players: dict[str, str]
    seats: list[str]
    seq: int = Field(description="the last seq the caller may see")
    ended: bool
    public: bool
    seat: str | None = Field(description="the seat of the caller's token")
    perspectives: list[str] = Field(description="what the caller may view as: spectator, seats, all")
    actions: list[int] = Field(description="the seqs of events that start a command batch")
    turns: list[TurnMark] = Field(description="where each turn begins")


class ErrorDetail(BaseModel):
    code: str
    message: str
    details: Any = None


class ErrorOut(BaseModel):
    error: ErrorDetail


ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorOut} for status in (400, 401, 403, 404, 409, 422)}
