"""Battleboard events. Topics are stable (`battleboard.<Name>`); cells are [col, row]."""
from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.engine.events import Event, secret
from domain.engine.in_force import with_older

from . import commands as cmd
from .state import Params, Rules

# An action event leads with the acting seat, then repeats its command's fields, taken from the
# command's field base, then adds what the rules decided. Each echo base below declares the
# seat (and a defense its unit) as a positional field: msgspec orders positional fields ahead
# of the keyword-only ones, so the seat stays first, as every recorded event has it.


class _ChooseEcho(cmd.ChooseFields, frozen=True, kw_only=False, gc=False):
    seat: str


class _MoveEcho(cmd.MoveFields, frozen=True, kw_only=False, gc=False):
    seat: str


class _ConvertEcho(cmd.ConvertFields, frozen=True, kw_only=False, gc=False):
    seat: str


class _ActEcho(cmd.ActFields, frozen=True, kw_only=False, gc=False):
    seat: str


class _DefendEcho(cmd.DefendFields, frozen=True, kw_only=False, gc=False):
    seat: str
    unit: str


class BattleboardStarted(Event, frozen=True, kw_only=True):
    """The battle's params and rule choices, the map, and every combatant's sheet."""
    TOPIC = "battleboard.Started"
    class_version = 4
    params: dict[str, Any]
    rules: dict[str, Any]
    map: str
    heroes: list[str]
    units: list[dict[str, Any]]

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
        """Battleboard 1.0.0 recorded no rule choices: it played each one's older value."""
        return {**data, "rules": with_older(Rules, {})}

    @staticmethod
    def upcast_v2_v3(data: dict[str, Any]) -> dict[str, Any]:
        """Battleboard 1.2.0 and before had no `untaps_per_round` nor `fatigue_round`: untapping
        had no limit and no end."""
        return {**data, "params": with_older(Params, data["params"])}

    # Battleboard 1.3.0 and before had no `fatigue_toll` (fatigue cost no token): the same
    # filling of every param a release lacked with its `Older` value
    upcast_v3_v4 = upcast_v2_v3


class InitiativeRolled(Event, frozen=True, kw_only=True):
    """Each side's d12, rerolled on a match: `rolls` is [heroes, foes] per roll."""
    TOPIC = "battleboard.InitiativeRolled"
    rolls: list[list[int]]
    winner: str


class OrderChosen(_ChooseEcho, Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.OrderChosen"
    COMMAND = cmd.Choose
    first: str


class ArrangingBegan(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.ArrangingBegan"
    side: str


class Placed(Event, frozen=True, kw_only=True):
    """Where a combatant was arranged: seen by its own side's seats until every side has arranged.
    Its cell is the command's, but secret (null for those who may not see it), so the event
    declares its own fields."""
    TOPIC = "battleboard.Placed"
    COMMAND = cmd.Place
    seat: str
    unit: str
    cell: Annotated[tuple[int, int] | None, secret(owner="team")]
    team: list[str]                 # the seats of the placing side, who see the cell


class ArrangementRevealed(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.ArrangementRevealed"
    cells: dict[str, list[int]]


class TurnBegan(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.TurnBegan"
    side: str
    round: int
    turn: int
    half: bool
    row_open: int | None = None


class Readied(Event, frozen=True, kw_only=True):
    """A combatant's start of turn: its movement points, focus, and regular actions."""
    TOPIC = "battleboard.Readied"
    unit: str
    mp: int
    focus: int
    slots: int
    teleport: int


class TokenSpent(Event, frozen=True, kw_only=True):
    """An effect token discarded after it acted (or eliminated by Heroic)."""
    TOPIC = "battleboard.TokenSpent"
    unit: str
    token: str
    reason: str


class TokenGiven(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.TokenGiven"
    unit: str
    token: str
    by: str


class Moved(_MoveEcho, Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.Moved"
    COMMAND = cmd.Move
    cost: int
    skipped: int = 0                # cells a teleport jump skipped


class Converted(_ConvertEcho, Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.Converted"
    COMMAND = cmd.Convert
    mp: int


class ActionTaken(_ActEcho, Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.ActionTaken"
    COMMAND = cmd.Act
    kind: str
    double_down: bool = False
    energy: int = 0                 # energy spent (doubling down and the action's cost)
    focus: int = 0                  # focus spent on the action's cost
    invigorated: bool = False


class ConfusionRolled(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.ConfusionRolled"
    unit: str
    dice: list[int]
    lost: bool


class Charged(Event, frozen=True, kw_only=True):
    """A path attack's charge: the cells entered, in order, and the movement points spent."""
    TOPIC = "battleboard.Charged"
    unit: str
    cells: list[list[int]]
    cost: int


class DiceRolled(Event, frozen=True, kw_only=True):
    """One attack: every die, the rerolls (index, new value), the hits and the Attack Value."""
    TOPIC = "battleboard.DiceRolled"
    attacker: str
    target: str
    origin: tuple[int, int]
    expression: str
    dice: list[int]
    rerolls: list[list[int]]
    evasion: int
    hits: int
    av: int
    defense: int
    band: str                       # ignored, tap or break (before any focus)


class DefenseAwaited(Event, frozen=True, kw_only=True):
    """An attack waits for its target's seat to choose which token to lose, and whether to
    spend focus on its Defense; `remaining` are the action's attacks still to come."""
    TOPIC = "battleboard.DefenseAwaited"
    unit: str
    chooser: str                    # the seat that chooses
    av: int
    defense: int
    attacker: str
    action: str
    origin: tuple[int, int]
    remaining: list[str]
    rerolls: int


class Defended(_DefendEcho, Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.Defended"
    COMMAND = cmd.Defend
    band: str


class TokenTapped(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.TokenTapped"
    unit: str
    reason: str


class TokenDiscarded(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.TokenDiscarded"
    unit: str
    tapped: bool                    # a tapped token (else an untapped one)
    reason: str


class AttackIgnored(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.AttackIgnored"
    unit: str


class Defeated(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.Defeated"
    unit: str


class Untapped(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.Untapped"
    unit: str
    count: int


class Restored(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.Restored"
    unit: str
    count: int


class Gained(Event, frozen=True, kw_only=True):
    """Resources an action gave: movement points, focus, energy or teleport points."""
    TOPIC = "battleboard.Gained"
    unit: str
    resource: str
    amount: int


class Granted(Event, frozen=True, kw_only=True):
    """A movement type (or `lift`: challenging terrain) a move action gave for this turn."""
    TOPIC = "battleboard.Granted"
    unit: str
    movement: str


class MovementLapsed(Event, frozen=True, kw_only=True):
    """The movement types move actions gave (`lift` among them) end with the side's turn."""
    TOPIC = "battleboard.MovementLapsed"
    unit: str
    movement: list[str]


class StanceTaken(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.StanceTaken"
    unit: str
    stance: str
    amount: int


class StanceEnded(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.StanceEnded"
    unit: str
    stance: str


class SeatDone(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.SeatDone"
    COMMAND = cmd.EndTurn
    seat: str


class SnappedBack(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.SnappedBack"
    unit: str
    to: list[int]


class TurnEnded(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.TurnEnded"
    side: str


class RowTaken(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.RowTaken"
    COMMAND = cmd.Advance
    seat: str
    side: str
    row: int
    border: int


class CombatEnded(Event, frozen=True, kw_only=True):
    TOPIC = "battleboard.CombatEnded"
    winner: str | None
    reason: str
