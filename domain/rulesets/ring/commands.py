"""What a ring player can ask for. The tag is the wire `type`; `target` names a unit key
("p2.emberfox") or a Dynamic id ("d3") where the ability lets its user choose."""
from __future__ import annotations

from domain.engine.events import Command, CommandCodec


class ChooseBattlefield(Command, frozen=True, tag="choose_battlefield"):
    """The initiative winner's advantage, for leaders whose advantage is the battlefield."""
    battlefield: str


class PickTeam(Command, frozen=True, tag="pick_team"):
    units: tuple[str, ...]


class PickRing(Command, frozen=True, tag="pick_ring"):
    unit: str


class UseAbility(Command, frozen=True, tag="ability"):
    """An ability of the unit in the Ring."""
    ability: str
    target: str | None = None


class UseLeaderAbility(Command, frozen=True, tag="leader_ability"):
    ability: str
    target: str | None = None


class UseItem(Command, frozen=True, tag="use_item"):
    item: str
    target: str | None = None


class Swap(Command, frozen=True, tag="swap"):
    unit: str


class StrikeLeader(Command, frozen=True, tag="strike_leader"):
    """Convert AP into damage to the enemy leader while the enemy Ring unit is KO'd."""
    ap: int


class EndTurn(Command, frozen=True, tag="end_turn"):
    pass


RingCommand = (ChooseBattlefield | PickTeam | PickRing | UseAbility | UseLeaderAbility | UseItem | Swap | StrikeLeader
               | EndTurn)
CODEC = CommandCodec((ChooseBattlefield, PickTeam, PickRing, UseAbility, UseLeaderAbility, UseItem, Swap,
                      StrikeLeader, EndTurn))
