"""The matchups a balance run plays (`ringside balance`): every encounter of the content
against a party of its recommended size. The content makes each encounter for a party of three
(`content/maps.toml`), so the heroes are the first three presets, in the content's order; their
entry is "3 heroes", and the foes' entry (and the cell's name) is the encounter's name.

`tally` counts how a side used the board: its combatant turns, moves, rows taken, charges
along a Path, attacks from an elevated cell and moves onto terrain that is not plain, and
whether it took a row or charged at all in the battle; the tokens fatigue's toll took from it
(`fatigue taps`), and whether it took any; whether it fielded a combatant with a
Path action, and whether one of them could charge (a charge was among its legal commands at
some point of its turns: the battles in which it could)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.engine.events import Event
from domain.engine.ruleset import Matchup

from .content import content
from .events import BattleboardStarted, Charged, DiceRolled, Moved, Readied, RowTaken, TokenDiscarded, TokenTapped
from .evolve import evolve
from .offers import offers
from .patterns import charges
from .state import FOES, HEROES, Battleboard

RECOMMENDED_HEROES = 3


def matchups() -> list[Matchup]:
    heroes = list(content().presets)[:RECOMMENDED_HEROES]
    return [Matchup(setup={"heroes": list(heroes), "encounter": encounter.id},
                    entries={HEROES: f"{len(heroes)} heroes", FOES: encounter.name}, label=encounter.name)
            for encounter in content().encounters.values()]


def tally(events: Sequence[Event], seats: Sequence[str]) -> dict[str, int]:
    """How `seats` used the board in one battle's events."""
    started = next(e for e in events if isinstance(e, BattleboardStarted))
    board = content().maps[started.map]
    owner = {unit["id"]: unit["seat"] for unit in started.units}
    mine = set(seats)
    counts: Counter[str] = Counter()
    for e in events:
        if isinstance(e, Readied) and owner.get(e.unit) in mine:
            counts["combatant turns"] += 1
        elif isinstance(e, Moved) and e.seat in mine:
            counts["moves"] += 1
            counts["moves onto terrain"] += board.terrain(*e.to) != "plain"
        elif isinstance(e, RowTaken) and e.seat in mine:
            counts["rows taken"] += 1
        elif isinstance(e, Charged) and owner.get(e.unit) in mine:
            counts["path charges"] += 1
        elif isinstance(e, (TokenTapped, TokenDiscarded)) and e.reason == "fatigue" and owner.get(e.unit) in mine:
            counts["fatigue taps"] += 1
        elif isinstance(e, DiceRolled) and owner.get(e.attacker) in mine:
            counts["attacks"] += 1
            counts["attacks from elevation"] += board.level(*e.origin) > 0
    counts["battles with a row taken"] = int(counts["rows taken"] > 0)
    counts["battles with a fatigue tap"] = int(counts["fatigue taps"] > 0)
    counts["battles with a path charge"] = int(counts["path charges"] > 0)
    actions = content().actions
    chargers = {unit["id"] for unit in started.units if owner.get(unit["id"]) in mine
                and any(actions[a].pattern == "path" for a in unit["actions"] if a in actions)}
    counts["battles with a path action"] = int(bool(chargers))
    counts["battles able to charge"] = int(bool(chargers) and could_charge(events, chargers))
    return dict(counts)


def could_charge(events: Sequence[Event], chargers: set[str]) -> bool:
    """Whether one of `chargers` had a charge among its legal commands at some point of its
    turns: the events replayed, each charger asked after each event of its side's turn."""
    s: Battleboard | None = None
    for e in events:
        if s is None and not isinstance(e, BattleboardStarted) or type(e) not in evolve.handlers:
            continue
        s = evolve(s, e)
        if s.phase != "turn" or s.plan is not None:
            continue
        for key in chargers:
            unit = s.units[key]
            if unit.side == s.active and not unit.defeated and unit.cell is not None and unit.seat not in s.done \
                    and any(offer.action.pattern == "path" for offer in offers(s, unit)) and charges(s, unit):
                return True
    return False
