"""Request bodies (validated for shape; rulesets validate meaning) and documented responses."""
from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, WithJsonSchema, model_validator

from domain.engine.clock import PRESETS
from domain.engine.wire import check_wire


INT64_MAX = 2**63 - 1
MAX_SEATS = 16
SeatKey = Annotated[str, StringConstraints(min_length=1, max_length=32)]
PlayerId = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Nonce = Annotated[str, StringConstraints(max_length=128)]


class HouseBot(BaseModel):
    """A seat the service plays itself with a house bot policy (see `GET /rulesets`' `bots`)."""
    model_config = ConfigDict(extra="forbid")
    bot: str = Field(min_length=1, max_length=64, description="the bot policy, e.g. greedy")


# A player id, or {"bot": policy} for a house seat. The engine checks each one (so an error
# names `players.<seat>`, never a pydantic union member); the schema documents both forms.
Player = Annotated[Any, WithJsonSchema({"anyOf": [
    {"type": "string", "minLength": 1, "maxLength": 64},
    {"type": "object", "properties": {"bot": {"type": "string", "minLength": 1, "maxLength": 64},
                                      "iterations": {"type": "integer", "minimum": 1, "maximum": 20_000}},
     "required": ["bot"], "additionalProperties": False}]})]


# A time control: a preset's name, or its fields (optionally from a `preset`); the engine
# checks each field, so an error names `clock.<field>`. None: no clock.
Clock = Annotated[Any, WithJsonSchema({"anyOf": [
    {"type": "string", "enum": list(PRESETS)},
    {"type": "object", "properties": {
        "preset": {"type": "string", "enum": list(PRESETS)},
        "bank_ms": {"type": ["integer", "null"]}, "increment_ms": {"type": "integer"},
        "turn_max_ms": {"type": ["integer", "null"]}, "grace_ms": {"type": "integer"},
        "first_move_ms": {"type": ["integer", "null"]}, "on_timeout": {"enum": ["forfeit", "auto"]},
        "max_auto": {"type": "integer"}}, "additionalProperties": False},
    {"type": "null"}]}, mode="validation")]


class Strict(BaseModel):
    """A request body. After its shape, every value is checked to be JSON the engine can store
    and hash (`check_wire`): InvalidInput (422) names the first field that is not."""
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="after")
    def storable(self) -> Self:
        for name in type(self).model_fields:
            check_wire(getattr(self, name), name)
        return self


class CreateBattle(Strict):
    ruleset: str = Field(min_length=1, max_length=64)
    players: dict[SeatKey, Player] = Field(max_length=MAX_SEATS, description=(
        'a player id per seat, or {"bot": policy} for a seat the service plays (a house seat; a searching '
        'bot takes "iterations", its difficulty); a player id '
        'may not start with "house:" in any letter case or Unicode form'))
    setup: dict[str, Any] | None = None
    seed_nonces: dict[SeatKey, Nonce] | None = Field(
        None, max_length=16, description="client nonces mixed into the committed seed")
    private: bool = False
    spectator_delay: int | None = Field(None, ge=0, le=1000, description="Hold spectators N actions behind.")
    clock: Clock = None

    def player_entries(self) -> dict[str, Any]:
        """The players as the engine takes them: ids, and `{"bot": policy}` for house seats."""
        return dict(self.players)

    def full_setup(self, default: dict[str, Any]) -> dict[str, Any] | None:
        return with_delay(self.setup, self.spectator_delay, default)


def with_delay(setup: dict[str, Any] | None, spectator_delay: int | None,
               default: dict[str, Any]) -> dict[str, Any] | None:
    """The setup with the spectator delay folded in (the engine keeps it in the setup)."""
    if spectator_delay is None:
        return setup
    return {**(setup if setup is not None else default), "spectator_delay": spectator_delay}


class CreateSet(CreateBattle):
    games: int = Field(3, ge=1, le=99)
    mode: str = Field("best_of", pattern="^(best_of|all)$")


class SubmitCommand(Strict):
    command: dict[str, Any]
    expected_seq: int | None = Field(None, ge=0, le=INT64_MAX)


class WireEvent(BaseModel):
    seq: int
    type: str
    data: dict[str, Any]
    chain: str | None = Field(description="the hash chain at this event; null until the battle is public, "
                                          "since each chain commits to the hidden events before it")
    redacted: bool = Field(False, description="present (true) when hidden fields were nulled for the caller")
    v: int = Field(1, description="the event data's class version, present when above 1")


SEAT_TOKENS = ("a secret bearer token per seat a person plays (only its hash is kept); none for a house "
               "seat, which belongs to the service")


class CreatedBattleOut(BaseModel):
    battle_id: str
    seat_tokens: dict[str, str] = Field(description=SEAT_TOKENS)
    seed_commitment: str
    seq: int


class CreatedSetOut(BaseModel):
    set_id: str
    battle_id: str
    seat_tokens: dict[str, str] = Field(description=SEAT_TOKENS + "; each acts in every battle of the set")
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
    players: dict[str, str | HouseBot]
    outcome: dict[str, Any] | None
    state: dict[str, Any] | None        # None before the game has started (the create batch's first seqs)
    clock: dict[str, Any] | None = Field(None, description=(
        "a clocked battle's clocks as of its last clock fact: at_ms, and per seat remaining_ms, running, "
        "moved, auto; held_back: true for a spectator held behind the battle"))
    clock_spec: dict[str, Any] | None = Field(None, description=(
        "GET /battles/{id} of a clocked battle: its time control (bank_ms, increment_ms, turn_max_ms, grace_ms, "
        "first_move_ms, on_timeout, max_auto), fixed for the whole battle"))
    presence: dict[str, dict[str, Any]] | None = Field(None, description=(
        "GET /battles/{id} only: per seat, connected (a stream open with its token), since_ms, house"))
    now_ms: int | None = Field(None, description="GET /battles/{id} of a clocked battle: the server's time then")


class TurnMark(BaseModel):
    turn: int
    seq: int


class TimelineOut(BaseModel):
    battle_id: str
    ruleset: str
    players: dict[str, str | HouseBot]
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


ERRORS: dict[int | str, dict[str, Any]] = {status: {"model": ErrorOut}
                                           for status in (400, 401, 403, 404, 409, 413, 422)}


# OpenAPI links: what a client (and the schemathesis fuzz run) can do next with an answer.
def link(operation_id: str, body: dict[str, Any] | None = None, **parameters: str) -> dict[str, Any]:
    found = {"operationId": operation_id, "parameters": parameters}
    return found if body is None else {**found, "requestBody": body}


VIEW, LEGAL, SUBMIT = ("battle_view_battles__battle_id__get", "legal_commands_battles__battle_id__legal_get",
                       "submit_command_battles__battle_id__commands_post")
EVENTS, AT, REPLAY = ("battle_events_battles__battle_id__events_get", "battle_at_battles__battle_id__at__seq__get",
                      "battle_replay_battles__battle_id__replay_get")
NEW_BATTLE, THIS_BATTLE = "$response.body#/battle_id", "$request.path.battle_id"
BATTLE_LINKS = {"view": link(VIEW, battle_id=NEW_BATTLE), "legal": link(LEGAL, battle_id=NEW_BATTLE),
                "events": link(EVENTS, battle_id=NEW_BATTLE), "replay": link(REPLAY, battle_id=NEW_BATTLE),
                "at": link(AT, battle_id=NEW_BATTLE, seq="$response.body#/seq"),
                "memory": link("battle_memory_battles__battle_id__memory_get", battle_id=NEW_BATTLE),
                "timeline": link("battle_timeline_viewer_api_battles__battle_id__timeline_get", battle_id=NEW_BATTLE)}
LEGAL_LINKS = {"act": link(SUBMIT, {"command": "$response.body#/legal/0", "expected_seq": "$response.body#/seq"},
                           battle_id=NEW_BATTLE)}
SUBMITTED_LINKS = {"legal": link(LEGAL, battle_id=THIS_BATTLE), "view": link(VIEW, battle_id=THIS_BATTLE),
                   "at": link(AT, battle_id=THIS_BATTLE, seq="$response.body#/seq"),
                   "events": link(EVENTS, None, battle_id=THIS_BATTLE, **{"from": "$response.body#/seq"})}
SET_LINKS = {"set": link("get_set_sets__set_id__get", set_id="$response.body#/set_id"),
             "audit": link("get_set_audit_sets__set_id__audit_get", set_id="$response.body#/set_id"),
             "view": link(VIEW, battle_id=NEW_BATTLE), "legal": link(LEGAL, battle_id=NEW_BATTLE)}

