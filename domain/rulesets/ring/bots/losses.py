"""What a step takes from a side beyond its units' HP, as the greedy bot values it (seed
000): the enemy leader's HP, a unit's LP, its Ability Pools for the rest of the battle, and
its equipment while disabled. Each value is for the reading seat: what it takes from the
enemy counts for the seat, what it takes from the seat's own side counts against it.

The view shows all of it: leader HP, each unit's LP, pools, abilities in its slots, its
equipment and the Dynamics that equipment brings, and whether that equipment is disabled.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..content import content
from ..roster import bare_pools, slotted
from ..state import PoolSlot
from .reading import Reading

Unit = Mapping[str, Any]
WIN = 1000.0                # the enemy leader's last HP: the battle (seed 000, Choosing a Leader: HP)
LEADER_WORTH = 300.0        # all the HP the enemy leader has left; an HP is its share of them
REMOVAL = 60.0              # a unit out for good, beyond its HP: more than a KO, which a heal undoes
LP_WORTH = 30.0             # all the LP a unit has left; one LP is its share of them
KIT_TURN = 30.0             # a unit's whole kit (its Ability Slots) for one of its turns: about
                            # what a team does with a turn, 10 AP at 3 HP an AP
KIT_WORTH = 3 * KIT_TURN    # ... for the rest of the battle: about three turns in the Ring
DYNAMIC_TURN = 1.5          # one severity point of a Dynamic out of effect for one turn
BENCH = 0.5                 # a unit outside the Ring matters half as much this turn


def leader_hit(hp_left: int, amount: int) -> float:
    """HP off the enemy leader, a strike's or a step's: its share of the HP the leader has
    left, so each is worth more as the leader weakens, and the battle for the last of them."""
    if amount <= 0:
        return 0.0
    return WIN if amount >= hp_left else LEADER_WORTH * amount / hp_left


def lp_change(t: Unit, delta: int, mine: bool, hp: int) -> float:
    """Seed 000, LP: "at '0', the Unit is removed from the Team and Deck", and "a KO'd Unit
    cannot be targeted for HP or LP damage". A loss that leaves LP is worth its share of the
    LP the unit has; the last LP is the unit itself: the `hp` it has left, and more than a
    KO's worth."""
    if t["removed"] or delta == 0:
        return 0.0
    if delta > 0:
        worth = LP_WORTH * min(delta, t["max_lp"] - t["lp"]) / t["max_lp"]
    elif t["ko"]:
        return 0.0
    else:
        lost = min(-delta, t["lp"])
        worth = -(hp + REMOVAL if lost >= t["lp"] else LP_WORTH * lost / t["lp"])
    return worth if mine else -worth


def pools_lost(t: Unit, which: str | None, count: int) -> list[str]:
    """The pools a `lose_pool` step takes (`steps.lose_pool`): the named one, the
    highest-level one (the first on a tie) or the latest, `count` times; never the last."""
    lost: list[str] = []
    for _ in range(count):
        left = [p for p in t["pools"] if p["pool"] not in lost]
        if t["removed"] or len(left) <= 1:
            break
        if which == "highest":
            lost.append(max(left, key=lambda p: p["level"])["pool"])
        elif which == "latest":
            lost.append(left[-1]["pool"])
        elif any(p["pool"] == which for p in left):
            lost.append(str(which))
        else:
            break
    return lost


def pool_loss(read: Reading, t: Unit, which: str | None, count: int, mine: bool) -> float:
    """Seed 000, Ability Pools: the abilities a lost pool took from the slots are gone for the
    rest of the battle, worth the share of the unit's kit they were (`Reading.reliance`)."""
    lost = pools_lost(t, which, count)
    gone = [a for a in t["abilities"] if content().abilities[a].pool in lost]
    worth = KIT_WORTH * read.reliance(t, gone) * (1.0 if t["in_ring"] else BENCH)
    return -worth if mine else worth


def disarmed(t: Unit) -> list[str]:
    """The abilities the unit's slots lose while its equipment is disabled: those of the
    pools, levels and slots the equipment gives (seed 000, Choosing Equipment)."""
    pools = tuple(PoolSlot(p["pool"], p["level"], p["slots"] - (2 if p["level"] >= 3 else 1)) for p in t["pools"])
    kept = slotted(bare_pools(t["unit"], t["equipment"], pools), tuple(t["abilities"]))
    return [a for a in t["abilities"] if a not in kept]


def equipment_off(read: Reading, t: Unit, turns: int, mine: bool) -> float:
    """Disabling a unit's equipment for `turns` of its team's turns; disabling it again only
    adds the turns beyond those it has left. Each turn costs the wearer the share of its kit
    the equipment gives and the Dynamics it brings (one that works against the wearer's side
    is a relief)."""
    off = t["equipment_disabled"]
    added = turns - (off["turns"] if off else 0)
    if t["equipment"] is None or t["ko"] or t["removed"] or added <= 0:
        return 0.0
    key = f"{t['seat']}.{t['unit']}"
    brought: Sequence[Mapping[str, Any]] = [d for d in read.view["dynamics"]
                                            if d["unit"] == key and d["source"] == "equipment"]
    kit = 0.0 if off else read.reliance(t, disarmed(t))     # pools already bare while it is off
    per_turn = KIT_TURN * kit * (1.0 if mine else -1.0) + DYNAMIC_TURN * sum(d["severity"] * read.stance(d)
                                                                              for d in brought)
    return -per_turn * added
