"""Rat content: every id resolves, every behaviour content names is registered (and every
registered one is used), and the issue's minimum counts hold (seed 003: 2.1.4 Example Status
Conditions, 2.2 Actions, 2.3 Consumables, 2.4.2 Equipment Slots, 2.4.3 Equipment Examples,
2.x AI)."""
from __future__ import annotations

import pytest

import domain.rulesets.rat  # noqa: F401  (imports every hook module, so HOOKS.kinds is complete)
from domain.rulesets.rat.content import AI_LEVELS, CONTENT, SLOT_KINDS, STATS, TARGETS, Action
from domain.rulesets.rat.hooks import HOOKS
from domain.rulesets.rat.legal import targets
from domain.rulesets.rat.steps import STEPS

from .given import battle, entity

SEED_AILMENTS = {"stunned", "bleeding", "poisoned", "burned", "chilled", "frozen", "blinded", "at_risk",
                 "accelerated_status", "decelerated_status", "paralyzed"}
SEED_EQUIPMENT = {"ultralight_boots": "clothing", "ball_and_chain": "trinket", "novelty_soda_hat": "clothing",
                  "long_night_knife": "weapon", "assault_vest": "clothing", "feathered_head": "special",
                  "mouse_sized_cheese": "special", "varifocal_glasses": "special"}


def moves_of(kind):
    return {k for k, a in CONTENT.actions.items() if a.kind == kind}


def effect_kinds():
    """Every hook kind content names: ailments' and equipment's `effect`."""
    return ({a.effect for a in CONTENT.ailments.values() if a.effect}
            | {e.effect for e in CONTENT.equipment.values() if e.effect})


# -- behaviour is registered ----------------------------------------------------------------

def test_every_step_content_names_is_registered_and_every_step_is_used():
    named = {(aid, step.do) for aid, a in CONTENT.actions.items() for step in a.steps}
    assert {do for _, do in named if do not in STEPS} == set()
    assert set(STEPS) - {do for _, do in named} == set()


def test_every_effect_content_names_is_a_registered_hook_kind_and_every_kind_is_used():
    assert effect_kinds() - HOOKS.kinds == set()
    assert HOOKS.kinds - effect_kinds() == set()


def test_every_ailment_names_its_own_hook():
    for aid, ailment in CONTENT.ailments.items():
        assert ailment.effect == aid, aid


# -- ids resolve ----------------------------------------------------------------------------

def test_action_steps_name_real_ailments_and_stats():
    for aid, action in CONTENT.actions.items():
        assert action.kind in ("move", "intrinsic", "consumable"), aid
        assert (action.pp > 0) == (action.kind == "move"), aid
        assert action.steps, aid
        for step in action.steps:
            if step.do == "ailment":
                assert step.ailment in CONTENT.ailments, (aid, step.ailment)
            if step.do == "cure":
                assert step.ailment in (*CONTENT.ailments, "all"), (aid, step.ailment)
            if step.do == "stat":
                assert step.stat in STATS and step.amount != 0, aid
            assert step.who in ("target", "user"), aid
            assert 0 < step.chance <= 100, aid


@pytest.mark.parametrize("aid", sorted(CONTENT.actions))
def test_every_actions_target_kind_is_one_the_rules_resolve(aid):
    action = CONTENT.actions[aid]
    s = battle([entity("mc"), entity("sc")])
    assert action.target in TARGETS
    assert targets(s, s.entities["mc"], action)         # someone to target (a ValueError for an unknown kind)


@pytest.mark.parametrize("kind", TARGETS)
def test_every_declared_target_kind_resolves(kind):
    # content.TARGETS is what content may name; legal.targets must resolve each of them
    action = Action(id="probe", name="Probe", kind="intrinsic", target=kind)
    s = battle([entity("mc"), entity("sc")])
    assert isinstance(targets(s, s.entities["mc"], action), list)


def test_members_name_real_moves_and_slots():
    for mid, m in CONTENT.members.items():
        assert set(m.moves) <= moves_of("move"), mid
        assert set(m.default_moves) <= set(m.moves), mid
        assert set(m.intrinsic) <= moves_of("intrinsic"), mid
        assert set(m.slots) <= set(SLOT_KINDS) - {"special"}, mid
        assert m.special in ("", "mouse", "backpack", "glasses", "hat"), mid


def test_enemies_name_real_moves_intrinsics_and_equipment_at_every_ai_level():
    for eid, e in CONTENT.enemies.items():
        assert set(e.moves) == set(AI_LEVELS), eid          # a moveset for random, no_memory and memory
        for level, moves in e.moves.items():
            assert moves and set(moves) <= moves_of("move"), (eid, level)
        assert set(e.intrinsic) <= moves_of("intrinsic"), eid
        assert set(e.equipment) <= set(CONTENT.equipment), eid
        assert set(e.immune) <= set(CONTENT.ailments), eid


def test_formations_name_real_enemies_and_ai_levels():
    for fid, f in CONTENT.formations.items():
        assert 1 <= len(f.enemies) <= 4, fid
        for slot in f.enemies:
            assert slot.enemy in CONTENT.enemies and slot.ai in AI_LEVELS, (fid, slot)


def test_equipment_names_real_slots_members_and_moves():
    specials = {m.special: mid for mid, m in CONTENT.members.items() if m.special}
    for qid, q in CONTENT.equipment.items():
        assert q.kind in SLOT_KINDS and q.hp >= 0, qid
        assert set(q.start_levels) <= set(STATS), qid
        assert q.analyze in ("", "varifocal", "all", "speed"), qid
        assert q.grants in ("", *moves_of("intrinsic")), qid
        if q.kind == "special":
            assert specials[q.special] == q.only, qid      # a special item fits its member's slot
        else:
            assert (q.special, q.only) == ("", ""), qid


# -- the issue's counts and the seed's examples --------------------------------------------

def test_the_issues_counts():
    assert len(CONTENT.members) == 6
    assert set(CONTENT.members) == {"mc", "rat", "girl", "prof", "scout", "wildcard"}
    assert len(CONTENT.enemies) >= 12
    assert sum(e.boss for e in CONTENT.enemies.values()) >= 2
    assert len(moves_of("move")) >= 30
    assert set(CONTENT.ailments) == SEED_AILMENTS
    assert len(CONTENT.equipment) >= 16
    assert len(moves_of("consumable")) >= 6
    assert len(CONTENT.formations) >= 6


def test_the_seeds_equipment_examples_are_content():
    assert {qid: CONTENT.equipment[qid].kind for qid in SEED_EQUIPMENT} == SEED_EQUIPMENT
    boots, knife = CONTENT.equipment["ultralight_boots"], CONTENT.equipment["long_night_knife"]
    assert (boots.defense, boots.spd, knife.atk) == (-25, 50, 50)
    assert CONTENT.equipment["assault_vest"].start_levels == {"def": 3}
    assert [(CONTENT.equipment[q].only) for q in ("feathered_head", "mouse_sized_cheese", "varifocal_glasses")] == \
        ["wildcard", "rat", "prof"]


def test_the_seeds_slot_table():
    # seed 003, 2.4.2: weapons, clothing, trinkets, and the special slot
    table = {mid: (m.slots.get("weapon", 0), m.slots.get("clothing", 0), m.slots.get("trinket", 0), m.special)
             for mid, m in CONTENT.members.items()}
    assert table == {"mc": (2, 1, 2, ""), "rat": (0, 0, 4, "mouse"), "girl": (0, 1, 1, "backpack"),
                     "prof": (1, 1, 2, "glasses"), "scout": (1, 1, 2, ""), "wildcard": (2, 1, 2, "hat")}


def test_the_seeds_intrinsic_moves():
    # seed 003, 2.2: everyone but WILDCARD and GIRL shares PROTECT; PROF has ANALYZE, GIRL WISH
    assert {mid for mid, m in CONTENT.members.items() if not m.protect} == {"girl", "wildcard"}
    assert (CONTENT.members["prof"].intrinsic, CONTENT.members["girl"].intrinsic) == (("analyze",), ("wish",))
    strike, wish = CONTENT.actions["strike"], CONTENT.actions["wish"]
    assert [(s.do, s.power) for s in strike.steps] == [("damage", 100)]
    assert [(s.do, s.pct) for s in wish.steps] == [("wish", 50)]


def test_no_move_just_heals_unless_its_pp_is_tiny():
    # seed 003, 2.2: "No move will just restore health, and if it does it's PP will be severly
    # limited, such as being exactly 1." An intrinsic move has infinite PP, so none just heals
    # (WISH, the seed's own, is a "wish" step, not a heal)
    just_heals = {k for k, a in CONTENT.actions.items()
                  if a.kind != "consumable" and {s.do for s in a.steps} <= {"heal", "cure"}
                  and any(s.do == "heal" for s in a.steps)}
    assert {k: (CONTENT.actions[k].kind, CONTENT.actions[k].pp) for k in just_heals} == {
        "first_aid": ("move", 1), "second_wind": ("move", 1), "field_dressing": ("move", 1)}
    nibble = CONTENT.actions["nibble"]
    assert (nibble.kind, nibble.target, [(s.do, s.power, s.pct, s.who) for s in nibble.steps]) == (
        "intrinsic", "enemy", [("damage", 50, 0, "target"), ("heal", 0, 5, "user")])


def test_the_seeds_consumables():
    potion, stutter = CONTENT.actions["potion"], CONTENT.actions["stutter_potion"]
    assert (potion.priority, [(s.do, s.amount) for s in potion.steps]) == (2, [("heal", 1)])
    assert [(s.do, s.amount) for s in stutter.steps] == [("stutter", 3)]
