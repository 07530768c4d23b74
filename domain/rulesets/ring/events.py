"""Ring facts. Team and Ring picks are secret until both sides lock (engine choices); an
inventory is secret to its seat until an item is used; everything else is public."""
from __future__ import annotations

from typing import Annotated, Any

from domain.engine.events import Event, secret

from .commands import (ChooseBattlefield, EndTurn, StrikeLeader, Swap, UseAbility, UseItem,
                       UseLeaderAbility)
from .state import PoolSlot


class RingStarted(Event, frozen=True, kw_only=True):
    TOPIC = "ring.RingStarted"
    class_version = 2
    params: dict[str, Any]
    leaders: dict[str, str]
    fixed_battlefield: str | None = None

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
        """Ring 1.0.0 wrote no rule parameter it did not have: it played by these."""
        return {**data, "params": {**RULES_1_0_0, **data["params"]}}


# The rule parameters ring 1.1.0 added, at the values that replay 1.0.0's behaviour.
RULES_1_0_0 = {"time_tiebreak": "hp_left", "strike_window": "down", "heal_records": "asked"}


class DeckBuilt(Event, frozen=True, kw_only=True):
    """A deck's ten units as they enter the battle: equipment, growth, LP and EXS applied."""
    TOPIC = "ring.DeckBuilt"
    seat: str
    fighters: tuple[dict[str, Any], ...]   # `Fighter`s as JSON
    variation: dict[str, dict[str, int]] = {}    # unit -> attribute -> bp (linear variation)


class InventoryPacked(Event, frozen=True, kw_only=True):
    TOPIC = "ring.InventoryPacked"
    seat: str
    items: Annotated[tuple[str, ...] | None, secret(owner="seat")]


class InitiativeRolled(Event, frozen=True, kw_only=True):
    TOPIC = "ring.InitiativeRolled"
    rolls: dict[str, list[int]]      # seat -> every roll (ties roll again)
    bonus: dict[str, int]
    winner: str
    advantage: str


class BattlefieldDrawn(Event, frozen=True, kw_only=True):
    TOPIC = "ring.BattlefieldDrawn"
    battlefield: str
    by: str                          # "rng" or "setup"


class BattlefieldChosen(Event, frozen=True, kw_only=True):
    TOPIC = "ring.BattlefieldChosen"
    COMMAND = ChooseBattlefield
    seat: str
    battlefield: str


class PickStarted(Event, frozen=True, kw_only=True):
    TOPIC = "ring.PickStarted"
    kind: str                        # pick_team or pick_ring
    order: tuple[str, ...]           # who picks; one at a time when `sequential`
    sequential: bool = False


class TeamPreviewed(Event, frozen=True, kw_only=True):
    """The preview advantage: the initiative winner sees the other team before picking."""
    TOPIC = "ring.TeamPreviewed"
    seat: str
    of: str
    team: Annotated[tuple[str, ...] | None, secret(owner="seat")]


class AttributeBoosted(Event, frozen=True, kw_only=True):
    TOPIC = "ring.AttributeBoosted"
    unit: str
    attr: str
    amount: int


class DynamicAdded(Event, frozen=True, kw_only=True):
    TOPIC = "ring.DynamicAdded"
    id: str
    kind: str
    source: str
    seat: str | None = None
    unit: str | None = None
    target: str | None = None
    severity: int
    by: str | None = None


class SeverityChanged(Event, frozen=True, kw_only=True):
    TOPIC = "ring.SeverityChanged"
    id: str
    severity: int                    # the new severity
    delta: int


class DynamicRemoved(Event, frozen=True, kw_only=True):
    TOPIC = "ring.DynamicRemoved"
    id: str
    reason: str


class TurnStarted(Event, frozen=True, kw_only=True):
    TOPIC = "ring.TurnStarted"
    seat: str
    turn: int
    ap: int


class SwapRequired(Event, frozen=True, kw_only=True):
    """The Ring unit is KO'd: it must be swapped out, for free, before anything else."""
    TOPIC = "ring.SwapRequired"
    seat: str
    unit: str


class AbilityUsed(Event, frozen=True, kw_only=True):
    TOPIC = "ring.AbilityUsed"
    COMMAND = UseAbility
    seat: str
    ability: str
    target: str | None
    unit: str


class LeaderAbilityUsed(Event, frozen=True, kw_only=True):
    TOPIC = "ring.LeaderAbilityUsed"
    COMMAND = UseLeaderAbility
    seat: str
    ability: str
    target: str | None


class ItemUsed(Event, frozen=True, kw_only=True):
    TOPIC = "ring.ItemUsed"
    COMMAND = UseItem
    seat: str
    item: str
    target: str | None


class UnitSwapped(Event, frozen=True, kw_only=True):
    TOPIC = "ring.UnitSwapped"
    COMMAND = Swap
    seat: str
    unit: str
    out: str | None
    cost: int


class LeaderStruck(Event, frozen=True, kw_only=True):
    TOPIC = "ring.LeaderStruck"
    COMMAND = StrikeLeader
    seat: str
    ap: int


class TurnYielded(Event, frozen=True, kw_only=True):
    TOPIC = "ring.TurnYielded"
    COMMAND = EndTurn
    seat: str


class ApSpent(Event, frozen=True, kw_only=True):
    TOPIC = "ring.ApSpent"
    seat: str
    amount: int


class ApGained(Event, frozen=True, kw_only=True):
    TOPIC = "ring.ApGained"
    seat: str
    amount: int


class EffectivenessRolled(Event, frozen=True, kw_only=True):
    TOPIC = "ring.EffectivenessRolled"
    ability: str
    effectiveness: str               # glancing, normal, critical
    chances: tuple[int, int, int]    # basis points


class HpReduced(Event, frozen=True, kw_only=True):
    TOPIC = "ring.HpReduced"
    unit: str
    amount: int
    by: str | None = None            # the unit that dealt it
    ability: str | None = None
    kind: str = "ability"            # ability, shadow, counter, dynamic


class HpRestored(Event, frozen=True, kw_only=True):
    TOPIC = "ring.HpRestored"
    unit: str
    amount: int
    by: str | None = None
    ability: str | None = None


class MpChanged(Event, frozen=True, kw_only=True):
    TOPIC = "ring.MpChanged"
    unit: str
    delta: int
    ability: str | None = None       # set when an ability takes MP from its user


class Augmented(Event, frozen=True, kw_only=True):
    TOPIC = "ring.Augmented"
    unit: str
    attr: str
    delta: int


class ExhaustionChanged(Event, frozen=True, kw_only=True):
    TOPIC = "ring.ExhaustionChanged"
    unit: str
    exs: int                         # the new EXS, basis points


class TagAdded(Event, frozen=True, kw_only=True):
    TOPIC = "ring.TagAdded"
    unit: str
    tag: str


class PoolChanged(Event, frozen=True, kw_only=True):
    TOPIC = "ring.PoolChanged"
    unit: str
    pool: str
    level: int


class PoolReplaced(Event, frozen=True, kw_only=True):
    """In battle, one Ability Pool takes another's place at the same level (seed 000)."""
    TOPIC = "ring.PoolReplaced"
    unit: str
    pool: str
    into: str


class PoolLost(Event, frozen=True, kw_only=True):
    """In battle, a unit loses an Ability Pool, and the Abilities it gave leave its slots
    (seed 000, Ability Pools: "Units can gain, lose, or replace their Ability Pools")."""
    TOPIC = "ring.PoolLost"
    unit: str
    pool: str


class EquipmentDisabled(Event, frozen=True, kw_only=True):
    """A unit's equipment stops working for `turns` of its team's turns: the Dynamics it
    brought leave effect and the unit's pools become `pools`, its own without the equipment
    (seed 000, Choosing Equipment: "if that Equipment is removed or otherwise disabled")."""
    TOPIC = "ring.EquipmentDisabled"
    unit: str
    equipment: str
    turns: int
    pools: tuple[PoolSlot, ...]


class EquipmentDisableChanged(Event, frozen=True, kw_only=True):
    """Disabled equipment's turns left change: one fewer as its team's turn ends, or more
    when it is disabled again for longer."""
    TOPIC = "ring.EquipmentDisableChanged"
    unit: str
    turns: int                       # the turns left now
    delta: int


class EquipmentRestored(Event, frozen=True, kw_only=True):
    """Disabled equipment works again: its Dynamics are back in effect and the unit's pools
    are `pools`, those it had with the equipment (with any change made while it was off)."""
    TOPIC = "ring.EquipmentRestored"
    unit: str
    equipment: str
    pools: tuple[PoolSlot, ...]
    reason: str                      # "expired", or the ability or item that restored it


class UnitKnockedOut(Event, frozen=True, kw_only=True):
    TOPIC = "ring.UnitKnockedOut"
    unit: str


class LpLost(Event, frozen=True, kw_only=True):
    TOPIC = "ring.LpLost"
    unit: str
    amount: int


class LpRestored(Event, frozen=True, kw_only=True):
    TOPIC = "ring.LpRestored"
    unit: str
    amount: int


class UnitRemoved(Event, frozen=True, kw_only=True):
    """LP 0: out of the team and the deck, for the rest of the set (seed 000, LP)."""
    TOPIC = "ring.UnitRemoved"
    unit: str


class UnitRevived(Event, frozen=True, kw_only=True):
    TOPIC = "ring.UnitRevived"
    unit: str


class LeaderHpReduced(Event, frozen=True, kw_only=True):
    TOPIC = "ring.LeaderHpReduced"
    seat: str
    amount: int
    by: str | None = None


class LeaderHpRestored(Event, frozen=True, kw_only=True):
    TOPIC = "ring.LeaderHpRestored"
    seat: str
    amount: int


class TurnEnded(Event, frozen=True, kw_only=True):
    TOPIC = "ring.TurnEnded"
    seat: str
    reason: str                      # chosen, out_of_ap


class TimeLimitReached(Event, frozen=True, kw_only=True):
    TOPIC = "ring.TimeLimitReached"
    turn: int
    winner: str
    reason: str
