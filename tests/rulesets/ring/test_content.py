"""Ring content: every id resolves, every pool has the seed's shape, and the issue's minimum
counts hold (seed 000: Ability Pools, Techniques, Choosing a Leader, Choosing Equipment,
Battlefield Dynamic, Limitations of the Alpha)."""
from __future__ import annotations

from collections import Counter

import pytest

from domain.rulesets.ring.content import CONTENT, TARGETS, TIERS
from domain.rulesets.ring.effects import registered_dynamics
from domain.rulesets.ring.setup import parse_deck
from domain.rulesets.ring.state import Params
from domain.rulesets.ring.steps import STEPS

ALL_ABILITIES = {**CONTENT.abilities, **CONTENT.item_abilities}


def _grants():
    """Every (where, Dynamic kind) a unit, leader, equipment or battlefield brings."""
    for uid, u in CONTENT.units.items():
        yield from ((f"units.{uid}", g.kind) for g in u.dynamics)
    for lid, lead in CONTENT.leaders.items():
        yield from ((f"leaders.{lid}", g.kind) for g in lead.dynamics)
        if lead.advantage_dynamic is not None:
            yield f"leaders.{lid}.advantage_dynamic", lead.advantage_dynamic.kind
    for eid, eq in CONTENT.equipment.items():
        yield from ((f"equipment.{eid}", g.kind) for g in eq.dynamics)
    for bid, bf in CONTENT.battlefields.items():
        yield from ((f"battlefields.{bid}", g.kind) for g in bf.dynamics)


def _inflicted(ability):
    return {st.dynamic for st in ability.steps if st.dynamic is not None}


# -- every id resolves -------------------------------------------------------------------

def test_unit_pools_and_unit_dynamics_resolve():
    for uid, u in CONTENT.units.items():
        assert set(u.pools) <= set(CONTENT.pools), uid
        assert all(1 <= lvl <= 3 for lvl in u.pools.values()), uid
        assert {g.kind for g in u.dynamics} <= set(CONTENT.dynamics), uid


def test_every_granted_dynamic_is_content_with_a_severity_from_1_to_10():
    for where, kind in _grants():
        assert kind in CONTENT.dynamics, where
    severities = [g.severity for x in (*CONTENT.units.values(), *CONTENT.leaders.values(),
                                       *CONTENT.equipment.values(), *CONTENT.battlefields.values())
                  for g in x.dynamics]
    assert severities and all(1 <= s <= 10 for s in severities)


def test_leader_abilities_resolve_and_belong_to_no_pool():
    for lid, lead in CONTENT.leaders.items():
        for aid in lead.abilities:
            assert CONTENT.abilities[aid].pool == "leader", (lid, aid)
    assert {a.id for a in CONTENT.abilities.values() if a.pool == "leader"} == \
        {aid for lead in CONTENT.leaders.values() for aid in lead.abilities}


def test_equipment_pool_changes_name_real_pools():
    for eid, eq in CONTENT.equipment.items():
        assert set(eq.add_pool) <= set(CONTENT.pools), eid
        assert set(eq.replace_pool) | set(eq.replace_pool.values()) <= set(CONTENT.pools), eid
        assert eq.upgrade_pool in (None, "lowest", "third", *CONTENT.pools), eid


def test_battlefields_bring_dynamics():
    for bid, bf in CONTENT.battlefields.items():
        assert bf.dynamics and {g.kind for g in bf.dynamics} <= set(CONTENT.dynamics), bid


def test_ability_and_item_steps_are_registered_and_name_real_content():
    for aid, ability in ALL_ABILITIES.items():
        assert ability.target in TARGETS, aid
        assert ability.effectiveness in ("default", "friendly", "sure"), aid
        assert ability.pool in (*CONTENT.pools, "leader", "item"), aid
        for st in ability.steps:
            assert st.do in STEPS, (aid, st.do)
            assert st.to in ("target", "self", "user_leader", "enemy_leader"), aid
            assert st.dynamic is None or st.dynamic in CONTENT.dynamics, (aid, st.dynamic)
            picks = ("highest", "latest") if st.do == "lose_pool" else ()
            assert st.pool is None or st.pool in (*CONTENT.pools, *picks), (aid, st.pool)
            if st.do == "inflict":
                assert st.dynamic is not None, aid


def test_deck_presets_name_real_content():
    for name, deck in CONTENT.decks.items():
        assert deck.leader in CONTENT.leaders, name
        assert set(deck.items) <= set(CONTENT.items), name
        for entry in deck.units:
            assert entry.unit in CONTENT.units, (name, entry.unit)
            assert entry.equipment is None or entry.equipment in CONTENT.equipment, (name, entry.unit)
            assert all(CONTENT.abilities[a].pool in CONTENT.pools for a in entry.priorities), (name, entry.unit)


@pytest.mark.parametrize("name", sorted(CONTENT.decks))
def test_every_preset_deck_parses(name):
    # Seed 000, Deck Construction: ten distinct units and one leader, within the GP budgets.
    deck = parse_deck(f"{name}", name, Params())
    assert deck == CONTENT.decks[name]
    assert len({e.unit for e in deck.units}) == 10


# -- Dynamic kinds: content and behaviour match one to one -------------------------------

def test_every_dynamic_kind_in_content_is_registered_and_every_registered_kind_has_content():
    assert set(CONTENT.dynamics) == registered_dynamics()


def test_dynamic_records_are_well_formed():
    for did, d in CONTENT.dynamics.items():
        assert d.phase in ("before", "after"), did
        assert d.on in ("unit", "team", "field", "dynamic"), did
        assert d.text, did


# -- pools: 6 arts x 3 children, 6 per tier (seed 000, Ability Pools and Techniques) -----

@pytest.mark.parametrize("pid", sorted(CONTENT.pools))
def test_a_pool_is_six_arts_of_three_children_six_per_tier(pid):
    pool = CONTENT.pools[pid]
    abilities = CONTENT.pool_abilities[pid]
    assert len(abilities) == 18
    assert len(pool.arts) == 6
    assert Counter(a.art for a in abilities) == {art: 3 for art in pool.arts}
    assert Counter(a.tier for a in abilities) == {t: 6 for t in TIERS}
    for art in pool.arts:
        assert len({a.tier for a in abilities if a.art == art}) == 1, art   # children share the tier
    # "6 abilities (split evenly between 2 Arts) at each of 3 Ability Tiers"
    assert Counter(next(a.tier for a in abilities if a.art == art) for art in pool.arts) == {1: 2, 2: 2, 3: 2}


@pytest.mark.parametrize("pid", sorted(CONTENT.pools))
def test_pool_abilities_inflict_only_their_pools_three_dynamics(pid):
    pool = CONTENT.pools[pid]
    assert len(set(pool.dynamics)) == 3 and set(pool.dynamics) <= set(CONTENT.dynamics)
    for ability in CONTENT.pool_abilities[pid]:
        assert _inflicted(ability) <= set(pool.dynamics), ability.id


def test_pool_dynamics_are_unique_to_their_pool():
    # "any of 3 Dynamics unique to that Pool"
    owners = Counter(d for pool in CONTENT.pools.values() for d in pool.dynamics)
    assert max(owners.values()) == 1


# -- the minimum counts ---------------------------------------------------------

def test_at_least_sixteen_units_each_with_its_own_role():
    roles = [u.role for u in CONTENT.units.values()]
    assert len(roles) >= 16
    assert len(set(roles)) == len(roles)


def test_at_least_four_pools_of_eighteen():
    assert len(CONTENT.pools) >= 4
    assert all(len(CONTENT.pool_abilities[p]) == 18 for p in CONTENT.pools)


def test_at_least_four_leaders_that_differ():
    # Seed 000, Choosing a Leader: AP, swap cost, Leader Dynamics and initiative advantages vary.
    leaders = list(CONTENT.leaders.values())
    assert len(leaders) >= 4
    assert len({lead.ap for lead in leaders}) >= 2
    assert len({lead.swap_cost for lead in leaders}) >= 2
    kinds = [tuple(sorted(g.kind for g in lead.dynamics)) for lead in leaders]
    assert all(kinds) and len(set(kinds)) == len(kinds)
    assert {lead.advantage for lead in leaders} == {"preview", "boost", "dynamic", "battlefield"}
    for lead in leaders:
        if lead.advantage == "boost":
            assert lead.boost_attr in ("hp", "mp", "atk", "def", "skl", "pry") and lead.boost_bp > 0, lead.id
        if lead.advantage == "dynamic":
            assert lead.advantage_dynamic is not None, lead.id


def test_at_least_eight_items_all_sure():
    assert len(CONTENT.items) >= 8
    assert all(a.effectiveness == "sure" for a in CONTENT.item_abilities.values())


def test_at_least_eight_equipment_that_add_replace_and_upgrade_pools():
    eq = CONTENT.equipment.values()
    assert len(CONTENT.equipment) >= 8
    assert any(e.add_pool for e in eq)
    assert any(e.replace_pool for e in eq)
    # "a precise pool" and "pool-by-reference" (lowest-level, third)
    assert {e.upgrade_pool for e in eq} >= {"lowest", "third"}
    assert any(e.upgrade_pool in CONTENT.pools for e in eq)
    assert any(e.dynamics for e in eq)


def test_at_least_three_battlefields():
    assert len(CONTENT.battlefields) >= 3


def test_at_least_fifteen_dynamics_with_the_named_ones():
    assert len(CONTENT.dynamics) >= 15
    assert {"casters_bane", "nurturing", "rage", "brutality", "shadow", "fire_ward", "mana_lock",
            "stunned"} <= set(CONTENT.dynamics)
    # The seed's Check Phase examples: brutality BEFORE, shadow AFTER.
    assert CONTENT.dynamics["brutality"].phase == "before"
    assert CONTENT.dynamics["shadow"].phase == "after"


# -- seed 000, Limitations of the Alpha / Techniques: the Slap variants -----------------

def _damage_step(aid):
    return next(st for st in CONTENT.abilities[aid].steps if st.do == "damage")


def test_slap_deals_even_damage_across_effectiveness():
    power = _damage_step("slap").power
    assert power[0] == power[1] == power[2] > 0


def test_heavy_slap_deals_nothing_on_glancing_and_more_than_slap_otherwise():
    heavy, plain = _damage_step("heavy_slap").power, _damage_step("slap").power
    assert heavy[0] == 0
    assert heavy[1] > plain[1] and heavy[2] > plain[2]


def test_double_slap_splits_its_damage_over_two_hits_with_penetration():
    # "better scaling against low DEF, worse scaling against high DEF": penetration does that.
    st = _damage_step("double_slap")
    assert st.hits == 2 and st.penetration > 0


def test_stun_slap_gains_no_damage_on_a_critical_but_a_chance_to_stun():
    # "average damage at Glancing and Normal Effectiveness -- but, instead of gaining damage at
    # Critical Effectiveness, it has a chance to inflict a 'Stunned' Dynamic"
    steps = CONTENT.abilities["stun_slap"].steps
    damage = next(st for st in steps if st.do == "damage")
    stun = next(st for st in steps if st.do == "inflict")
    assert damage.power[0] > 0 and damage.power[2] == damage.power[1] > 0
    assert stun.dynamic == "stunned"
    assert stun.severity[0] == stun.severity[1] == 0 and stun.severity[2] > 0
    assert 0 < stun.chance[2] < 10_000          # "a chance to inflict"


def test_the_brawler_slap_art_holds_the_three_variants():
    assert {a.id for a in CONTENT.pool_abilities["brawler"] if a.art == "slap"} == \
        {"heavy_slap", "double_slap", "stun_slap"}
