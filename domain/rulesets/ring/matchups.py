"""The matchups a balance run plays (`ringside balance`): every ordered pair of two different
preset decks, so each pairing is played from both seats. An entry is a preset's id.

`tally` counts, for a side, whether it used each of `MECHANICS` in the battle (so a run shows
the battles per 100 in which a deck's side brought each about), the leader damage its
`strike_leader` dealt and the leader damage it dealt in all."""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.engine.events import Event
from domain.engine.ruleset import Matchup, every_pairing

from .content import content
from .events import (AbilityUsed, EquipmentDisabled, ItemUsed, LeaderAbilityUsed, LeaderHpReduced, LeaderStruck,
                     LpLost, PoolLost, UnitKnockedOut)
from .state import opponent

# What an ability or item can do beyond HP damage, by the event it leaves: the enemy
# leader's HP lost with no KO (`leader_damage`), LP lost to LP damage, not to a KO (`lp_loss`),
# an Ability Pool lost (`pool_loss`) and equipment disabled (`equipment_disabled`).
MECHANICS = ("leader_damage", "lp_loss", "pool_loss", "equipment_disabled")
USES = (AbilityUsed, LeaderAbilityUsed, ItemUsed)


def matchups() -> list[Matchup]:
    return every_pairing({deck: {"deck": deck} for deck in content().decks})


def mechanics_used(events: Iterable[Event]) -> set[tuple[str, str]]:
    """(seat, mechanic) for each of `MECHANICS` a seat's abilities and items brought about."""
    found: set[tuple[str, str]] = set()
    user: str | None = None                 # the seat whose ability or item is resolving
    previous: Event | None = None
    for e in events:
        if isinstance(e, USES):
            user = e.seat
        elif e.starts_batch():
            user = None
        if user is not None:
            if isinstance(e, LeaderHpReduced):
                found.add((user, "leader_damage"))
            elif isinstance(e, LpLost) and not (isinstance(previous, UnitKnockedOut) and previous.unit == e.unit):
                found.add((user, "lp_loss"))
            elif isinstance(e, PoolLost):
                found.add((user, "pool_loss"))
            elif isinstance(e, EquipmentDisabled):
                found.add((user, "equipment_disabled"))
        previous = e
    return found


def tally(events: Sequence[Event], seats: Sequence[str]) -> dict[str, int]:
    """For `seats`: 1 for each mechanic they used, and the enemy leader's HP they took, by
    `strike_leader` and in all."""
    used = {mechanic for seat, mechanic in mechanics_used(events) if seat in seats}
    counts = {mechanic: int(mechanic in used) for mechanic in MECHANICS}
    counts["strike_leader AP"] = sum(e.ap for e in events if isinstance(e, LeaderStruck) and e.seat in seats)
    counts["enemy leader HP taken"] = sum(e.amount for e in events
                                          if isinstance(e, LeaderHpReduced) and opponent(e.seat) in seats)
    return counts
