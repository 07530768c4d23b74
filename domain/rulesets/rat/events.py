"""Rat events: past-tense facts with stable `rat.` topics.

Enemy HP is hidden from the party (seed 003, In-Battle UI): each enemy's HP at the start
(`RatStarted.enemy_hp`) and its HP changes (`EnemyHpChanged`) reach only the enemies' own
seat, and ANALYZE publishes a `HpGauge` (the whole-percent bar) instead. The party's details
(EVs, equipment, consumables) are its seat's alone; its planned actions are secret until the
turn's choices are revealed.
"""
from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.engine.events import Event, secret
from domain.engine.in_force import with_older

from .commands import Act
from .state import RULES_1_0_0, Params, Rules

# The JSON the opening events hold (params, rules, entities written out), typed as exactly as
# it is rather than as Any: the chain then writes these events straight from the struct, as it
# does every other rat event, instead of through a copy of them as builtins
# (`domain.engine.chain.exactly_encoded`).
Leaf = str | int | bool | None
Written = dict[str, Leaf]
EntityJson = dict[str, Leaf | list[Leaf] | dict[str, Leaf | list[Leaf] | dict[str, Leaf]]]


class RatStarted(Event, frozen=True, kw_only=True):
    """The battle's params and rules, and the formation's enemies: everyone sees what content
    says of them (a bestiary: stats, moves, equipment), but an enemy's HP is its side's."""
    TOPIC = "rat.RatStarted"
    class_version = 5
    params: Written
    rules: Written
    formation: str
    seats: dict[str, str | None]
    enemies: tuple[EntityJson, ...]         # each enemy's entity, without its HP
    enemy_seat: str | None                  # the seat that plays the enemies (None: the rules' AI)
    # enemy -> its max HP, which it starts with: seen by its seat only (seed 003, In-Battle UI)
    enemy_hp: Annotated[dict[str, int] | None, secret(owner="enemy_seat")]

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
        """Rat 1.0.0 wrote each enemy's HP into its public entity, and played by RULES_1_0_0."""
        enemies = [{k: v for k, v in e.items() if k not in ("hp", "max_hp")} for e in data["enemies"]]
        return {**data, "rules": msgspec.to_builtins(RULES_1_0_0), "enemies": enemies,
                "enemy_seat": data["seats"].get("enemies"), "enemy_hp": {e["id"]: e["max_hp"] for e in data["enemies"]}}

    @staticmethod
    def upcast_v2_v3(data: dict[str, Any]) -> dict[str, Any]:
        """Rat 1.1.0 recorded the rules it had; the ones added since are what it played by (`Older`)."""
        return {**data, "rules": with_older(Rules, data["rules"])}

    @staticmethod
    def upcast_v3_v4(data: dict[str, Any]) -> dict[str, Any]:
        """Rat 1.2.0 and before had no `level_cap` param nor `ai_version` rule: they played by
        their `Older` values (levels reach +-infinity; the first planning AIs)."""
        return {**data, "params": with_older(Params, data["params"]), "rules": with_older(Rules, data["rules"])}

    @staticmethod
    def upcast_v4_v5(data: dict[str, Any]) -> dict[str, Any]:
        """Rat 1.3.0 and before had no `ai_margin_pct` param: their planning AIs took the best."""
        return {**data, "params": with_older(Params, data["params"])}


class PartyJoined(Event, frozen=True, kw_only=True):
    """The party as its seat built it: stats with EVs and equipment, moves, consumables."""
    TOPIC = "rat.PartyJoined"
    seat: str
    members: Annotated[tuple[EntityJson, ...] | None, secret(owner="seat")]


class PartyShown(Event, frozen=True, kw_only=True):
    """What everyone sees of the party from the start: who, HP and priority."""
    TOPIC = "rat.PartyShown"
    members: tuple[Written, ...]


class TurnStarted(Event, frozen=True, kw_only=True):
    TOPIC = "rat.TurnStarted"
    turn: int
    queue: tuple[str, ...]              # seat 003: the priority queue, public


class StatusesAged(Event, frozen=True, kw_only=True):
    """Start of turn: each ailment's elapsed counter, as [owner, kind, elapsed]."""
    TOPIC = "rat.StatusesAged"
    turn: int
    elapsed: tuple[tuple[str, str, int], ...]


class ActionPlanned(Event, frozen=True, kw_only=True):
    """A seat's choice for one of its entities: secret until the turn's reveal. Its revealed
    form (`ActionRevealed`) is what AI memory records as the action."""
    TOPIC = "rat.ActionPlanned"
    COMMAND = Act
    seat: str
    actor: str
    action: Annotated[str | None, secret(owner="seat")]
    target: Annotated[str | None, secret(owner="seat")] = None
    move: Annotated[str | None, secret(owner="seat")] = None

    def is_action(self) -> bool:
        return False


class EnemyChose(Event, frozen=True, kw_only=True):
    """The rules' enemy AI chose this entity's action (seed 003, AI), without seeing the
    party's choices; drawn from the batch's RNG where its level is random."""
    TOPIC = "rat.EnemyChose"
    RULES_ACTION = True
    actor: str
    ai: str
    action: str
    target: str | None = None
    move: str | None = None


class ActionRevealed(Event, frozen=True, kw_only=True):
    """A seat's planned action, public once every side has chosen."""
    TOPIC = "rat.ActionRevealed"
    RULES_ACTION = True
    seat: str
    actor: str
    action: str
    target: str | None = None
    move: str | None = None


class PriorityBoosted(Event, frozen=True, kw_only=True):
    TOPIC = "rat.PriorityBoosted"
    target: str
    amount: int
    by: str


class ActionTaken(Event, frozen=True, kw_only=True):
    """An entity's action resolves: a move's PP after use (None for intrinsic moves)."""
    TOPIC = "rat.ActionTaken"
    actor: str
    action: str
    target: str | None = None
    pp: int | None = None


class ConsumableUsed(Event, frozen=True, kw_only=True):
    TOPIC = "rat.ConsumableUsed"
    actor: str
    item: str
    target: str | None = None
    seat: str | None                    # the user's seat: only it sees what is left
    left: Annotated[int | None, secret(owner="seat")]


class ActionSkipped(Event, frozen=True, kw_only=True):
    TOPIC = "rat.ActionSkipped"
    actor: str
    reason: str


class ActionFailed(Event, frozen=True, kw_only=True):
    TOPIC = "rat.ActionFailed"
    actor: str
    action: str
    target: str | None = None
    reason: str


class HpChanged(Event, frozen=True, kw_only=True):
    """A party member's HP: public (seed 003: the party's exact HP is always shown)."""
    TOPIC = "rat.HpChanged"
    target: str
    delta: int
    hp: int
    cause: str
    by: str | None = None


class EnemyHpChanged(Event, frozen=True, kw_only=True):
    """An enemy's HP: its numbers reach only the enemies' seat (none when the AI plays)."""
    TOPIC = "rat.EnemyHpChanged"
    target: str
    seat: str | None
    delta: Annotated[int | None, secret(owner="seat")]
    hp: Annotated[int | None, secret(owner="seat")]
    # A heal (or else a hit), which everyone sees happen, whatever HP it moved; under 1.0.0's
    # rules (`Rules.enemy_hp_changes`), whether HP went up, so false for a heal on a full enemy
    healed: bool
    cause: str
    by: str | None = None


class HpGauge(Event, frozen=True, kw_only=True):
    """ANALYZE's bar for an analyzed enemy: HP as a whole percent of its max HP."""
    TOPIC = "rat.HpGauge"
    target: str
    pct: int


class DamageIgnored(Event, frozen=True, kw_only=True):
    TOPIC = "rat.DamageIgnored"
    target: str
    reason: str                         # "knocked_out" (invulnerable this turn), "protected"
    by: str | None = None


class KnockedOut(Event, frozen=True, kw_only=True):
    TOPIC = "rat.KnockedOut"
    target: str
    turn: int


class Revived(Event, frozen=True, kw_only=True):
    TOPIC = "rat.Revived"
    target: str


class Killed(Event, frozen=True, kw_only=True):
    TOPIC = "rat.Killed"
    target: str
    cause: str


class KnockOutAverted(Event, frozen=True, kw_only=True):
    """POISONED or a GUARDIAN_LOCKET kept the target at 1 HP instead of knocking it out."""
    TOPIC = "rat.KnockOutAverted"
    target: str
    by: str


class StatusGained(Event, frozen=True, kw_only=True):
    TOPIC = "rat.StatusGained"
    target: str
    kind: str
    turn: int
    by: str | None = None


class StatusRemoved(Event, frozen=True, kw_only=True):
    TOPIC = "rat.StatusRemoved"
    target: str
    kind: str
    reason: str                         # expired, cured, knocked_out, healed, replaced


class StatLevelChanged(Event, frozen=True, kw_only=True):
    TOPIC = "rat.StatLevelChanged"
    target: str
    stat: str
    level: int                          # the new level, -4..4 (+-4: +-infinity)
    by: str | None = None


class Protected(Event, frozen=True, kw_only=True):
    TOPIC = "rat.Protected"
    target: str
    by: str
    turn: int


class Analyzed(Event, frozen=True, kw_only=True):
    TOPIC = "rat.Analyzed"
    target: str
    by: str
    mode: str                           # "", "varifocal", "speed"


class WishMade(Event, frozen=True, kw_only=True):
    TOPIC = "rat.WishMade"
    target: str
    by: str
    amount: int
    turn: int


class WishGranted(Event, frozen=True, kw_only=True):
    TOPIC = "rat.WishGranted"
    target: str
    amount: int


class PpRestored(Event, frozen=True, kw_only=True):
    TOPIC = "rat.PpRestored"
    actor: str
    move: str
    pp: int


class TurnEnding(Event, frozen=True, kw_only=True):
    """One entity's end of turn, in queue order: what its on_turn_end effects react to."""
    TOPIC = "rat.TurnEnding"
    turn: int
    entity: str


class TurnEnded(Event, frozen=True, kw_only=True):
    TOPIC = "rat.TurnEnded"
    turn: int
    party_hp: dict[str, int]


class BattleDecided(Event, frozen=True, kw_only=True):
    TOPIC = "rat.BattleDecided"
    winner: str | None
    reason: str

