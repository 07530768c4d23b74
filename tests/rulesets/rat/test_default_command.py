"""Seed silent: clocks. The plan the rules make for a seat whose clock ran out
(`on_timeout: "auto"`): its next entity in queue order PROTECTs itself, seed 003 2.2's
"traditional jRPG block command"; an entity without PROTECT STRIKEs the first foe in entity
order, spending no PP and no consumable. Whatever the battle, it is one of the seat's legal
commands and `decide` accepts it.

Entities come from given.py: 100 HP, ATK 40, DEF 20, SPD 50, STRIKE (and PROTECT for the party).
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.engine.errors import RuleViolation
from domain.engine.rng import Rng
from domain.rulesets.rat import RULESET
from domain.rulesets.rat.commands import Act
from domain.rulesets.rat.content import AI_LEVELS, CONTENT
from domain.rulesets.rat.decide import decide
from domain.rulesets.rat.legal import default_command, legal_commands
from domain.rulesets.rat.setup import DEFAULT_SETUP
from domain.rulesets.rat.state import Stack
from tests.rulesets.defaults import bot_matches, checked_defaults

from .given import SEED, battle, enemy, entity


def test_a_member_with_protect_protects_itself():
    given = battle([entity("mc", moves={"heavy_swing": 5}, items={"potion": Stack(count=2, durability=3)})])
    assert default_command(given, "p1") == Act(actor="mc", action="protect", target="mc")


def test_a_member_without_protect_strikes_the_first_enemy_and_keeps_its_pp():
    # Jester (WILDCARD) has no PROTECT (seed 003, 2.4.2); his move has PP and is listed first
    given = battle([entity("wildcard", intrinsic=("strike",), moves={"reckless_charge": 3})],
                   [enemy("e1"), enemy("e2")])
    assert legal_commands(given, "p1")[0].action == "reckless_charge"
    assert default_command(given, "p1") == Act(actor="wildcard", action="strike", target="e1")


def test_feathered_head_forbids_protect_so_its_wearer_strikes():
    # seed 003, 2.4.3: FEATHERED_HEAD "User may not choose the PROTECT intrinsic move"
    given = battle([entity("wildcard", equipment=("feathered_head",))], [enemy("e1")])
    assert default_command(given, "p1") == Act(actor="wildcard", action="strike", target="e1")


def test_a_knocked_out_first_enemy_is_still_the_target():
    # a single target may be knocked out (README, 2.2 Targets): e1 stays first in entity order
    given = battle([entity("wildcard", intrinsic=("strike",))], [enemy("e1", ko=True, ko_turn=1), enemy("e2")])
    assert default_command(given, "p1") == Act(actor="wildcard", action="strike", target="e1")


def test_the_seat_plans_its_entities_in_queue_order():
    # mc SPD 60 sorts before rat SPD 50: the first timeout plans mc, the next one rat
    given = battle([entity("mc", spd=60), entity("rat", spd=50)])
    first = default_command(given, "p1")
    assert first == Act(actor="mc", action="protect", target="mc")
    after = decide(given, "p1", first, Rng(SEED)).state
    assert after is not None
    assert default_command(after, "p1") == Act(actor="rat", action="protect", target="rat")


def test_the_enemies_seat_strikes_the_first_party_member():
    # seat p2 plays the enemies; an enemy has STRIKE and no PROTECT
    given = battle([entity("mc"), entity("rat")], [enemy("e1", moves={"bite": 4})])
    assert default_command(given, "p2") == Act(actor="e1", action="strike", target="mc")


def test_a_seat_with_nothing_to_plan_is_refused():
    # the rules' AI plays the enemies: no seat p2 is awaited
    given = battle(ai=True)
    with pytest.raises(RuleViolation, match="p2 has nothing to choose now"):
        default_command(given, "p2")


# -- every awaited seat of random battles -------------------------------------------------

ROSTER: list[dict[str, Any]] = [*DEFAULT_SETUP["party"], {"member": "wildcard", "equipment": ["feathered_head"]},
                                {"member": "scout"}]


def setups(n: int) -> list[dict[str, Any]]:
    """Parties of 1 to 4 from ROSTER, every formation, each AI level, and every other battle
    the enemies given to seat p2."""
    formations = list(CONTENT.formations)
    found = []
    for i in range(n):
        party = [ROSTER[(i + k) % len(ROSTER)] for k in range(1 + i % 4)]
        found.append({"party": party, "formation": formations[i % len(formations)],
                      "enemy_ai": [None, *AI_LEVELS][i % (len(AI_LEVELS) + 1)], "enemy_seat": i // 4 % 2 == 1})
    return found


def test_the_default_is_legal_and_accepted_wherever_a_seat_is_awaited():
    checked = [wire for state in bot_matches(RULESET, setups(30)) for wire in checked_defaults(RULESET, state)]
    assert len(checked) > 300
