"""Seed 003, 2.4 Equipment: the eight examples of 2.4.3 (ULTRALIGHT_BOOTS, BALL_AND_CHAIN,
NOVELTY_SODA_HAT, LONG_NIGHT_KNIFE, ASSAULT_VEST, FEATHERED_HEAD, MOUSE_SIZED_CHEESE,
VARIFOCAL_GLASSES), the passives of 2.4.1 (THORN_MAIL, GUARDIAN_LOCKET, STEADY_BOOTS), and
2.4.1's rule that a passive is off while its wearer is knocked out.

Entities come from given.py (100 HP, ATK 40, DEF 20, SPD 50); `wearing` puts the items on
and their passives into play, as `evolve` does when a battle starts.
"""
from __future__ import annotations

import pytest

from domain.engine.events import Viewer
from domain.engine.hooks import EffectTriggered
from domain.rulesets.rat.content import CONTENT
from domain.rulesets.rat.events import (ActionSkipped, ActionTaken, Analyzed, EnemyHpChanged, HpChanged, KnockedOut,
                                        KnockOutAverted, StatLevelChanged, StatusGained, TurnStarted)
from domain.rulesets.rat.legal import options
from domain.rulesets.rat.setup import MemberSetup
from domain.rulesets.rat.start import member_entity
from domain.rulesets.rat.state import Params
from domain.rulesets.rat.stats import NEG_INF, stat
from domain.rulesets.rat.view import view

from .given import battle, enemy, entity, of_type, passive, started, started_turn, turn

EXACT = Params(roll_min_pct=100)


def wearing(key, *items, **fields):
    return entity(key, equipment=items, **fields)


def geared(party, enemies=(), **kw):
    """A battle whose party's worn passives are in play (evolve's `_passives`, by hand)."""
    worn = [passive(CONTENT.equipment[i].effect, m.id) for m in party for i in m.equipment
            if CONTENT.equipment[i].effect]
    return battle(party, enemies, effects=worn, **kw)


def built(member, *items):
    """A member as `start` builds it: base + EVs (none here) + equipment."""
    moves = CONTENT.members[member].default_moves[:1]
    return member_entity(MemberSetup(member=member, evs={}, equipment=items, moves=moves, items={}), Params())


def actions(s, key):
    return list(dict.fromkeys(o.action for o in options(s, s.entities[key])))


# -- the seed's examples (2.4.3) ----------------------------------------------------------

def test_ultralight_boots_trade_25_def_for_50_spd():
    bare, booted = built("mc"), built("mc", "ultralight_boots")
    # Ash: DEF 30 - 25 = 5, SPD 55 + 50 = 105
    assert (bare.defense, bare.spd) == (30, 55)
    assert (booted.defense, booted.spd) == (5, 105)


def test_ball_and_chain_sorts_the_fastest_wearer_last():
    given = geared([wearing("mc", "ball_and_chain", spd=999)], [enemy("e1", spd=1)])
    then, _ = started_turn(given)
    assert stat(given, given.entities["mc"], "spd") == NEG_INF
    assert then[-1] == TurnStarted(turn=2, queue=("e1", "mc"))


@pytest.mark.parametrize("when, healed", [(1, [10]), (5, [10]), (6, [])])
def test_novelty_soda_hat_heals_a_sixteenth_at_the_end_of_the_first_5_turns(when, healed):
    given = geared([wearing("mc", "novelty_soda_hat", hp=100, max_hp=160, spd=60)], [enemy("e1", spd=40)], turn=when)
    then, _ = turn(given, {"mc": ("protect", "mc"), "e1": ("strike", "mc")})
    # 160 / 16 = 10, in turns 1..5 (params.soda_turns)
    assert [e.delta for e in of_type(then, HpChanged) if e.cause == "novelty_soda_hat"] == healed


def test_long_night_knife_adds_50_atk():
    assert (built("mc").atk, built("mc", "long_night_knife").atk) == (45, 95)


def test_long_night_knife_makes_a_strike_bleed():
    given = geared([wearing("mc", "long_night_knife", spd=60)], [enemy("e1", spd=40)], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert of_type(then, StatusGained) == [StatusGained(target="e1", kind="bleeding", turn=1, by="mc")]
    # the end of turn 1 already bleeds: 33 from the strike, then 100 / 8 = 12
    assert [(e.delta, e.cause) for e in of_type(then, EnemyHpChanged)] == [(-33, "strike"), (-12, "bleeding")]


def test_long_night_knife_leaves_other_moves_alone():
    given = geared([wearing("mc", "long_night_knife", spd=60, moves={"quick_jab": 10})], [enemy("e1", spd=40)])
    then, state = turn(given, {"mc": ("quick_jab", "e1"), "e1": ("strike", "mc")})
    assert of_type(then, StatusGained) == []
    assert not state.has("e1", "bleeding")


def test_assault_vest_starts_the_battle_at_def_plus_3():
    s = started({"party": [{"member": "mc", "equipment": ["assault_vest"]}], "formation": "sewer_ambush"})
    mc = s.entities["mc"]
    # level +3 doubles DEF: 30 x 2 = 60
    assert mc.levels == {"def": 3}
    assert stat(s, mc, "def") == 60
    assert s.has("mc", "assault_vest")


def test_assault_vest_forbids_moves_that_deal_no_damage_but_not_intrinsic_moves():
    moves = {"heavy_swing": 5, "war_cry": 6, "armor_break": 8}
    vested = geared([wearing("mc", "assault_vest", moves=moves)])
    bare = battle([entity("mc", moves=moves)])
    assert actions(bare, "mc") == ["heavy_swing", "war_cry", "armor_break", "strike", "protect"]
    assert actions(vested, "mc") == ["heavy_swing", "armor_break", "strike", "protect"]


def test_feathered_head_raises_atk_a_level_at_each_turn_end():
    given = geared([wearing("wc", "feathered_head", spd=60, levels={"atk": 1})], [enemy("e1", spd=40)])
    then, state = turn(given, {"wc": ("strike", "e1"), "e1": ("strike", "wc")})
    assert of_type(then, StatLevelChanged) == [StatLevelChanged(target="wc", stat="atk", level=2, by="wc")]
    assert state.entities["wc"].levels == {"atk": 2}


def test_feathered_head_takes_protect_off_the_options():
    given = geared([wearing("wc", "feathered_head"), entity("mc")])
    assert actions(given, "wc") == ["strike"]
    assert actions(given, "mc") == ["strike", "protect"]


def test_mouse_sized_cheese_turns_the_first_strike_into_a_heal():
    given = geared([wearing("rat", "mouse_sized_cheese", hp=40, max_hp=100, spd=60)], [enemy("e1", atk=0, spd=40)])
    then, state = turn(given, {"rat": ("strike", "e1"), "e1": ("strike", "rat")})
    # 0.5 x 100 = 50: 40 -> 90; e1 is not hit
    assert of_type(then, HpChanged) == [HpChanged(target="rat", delta=50, hp=90, cause="mouse_sized_cheese", by="rat")]
    assert of_type(then, EnemyHpChanged) == []
    assert state.entities["rat"].strikes == 1


def test_mouse_sized_cheese_lets_the_second_strike_hit():
    given = geared([wearing("rat", "mouse_sized_cheese", hp=40, max_hp=100, spd=60, strikes=1)],
                   [enemy("e1", atk=0, spd=40)], params=EXACT)
    then, _ = turn(given, {"rat": ("strike", "e1"), "e1": ("strike", "rat")})
    assert [(e.delta, e.cause) for e in of_type(then, EnemyHpChanged)] == [(-33, "strike")]
    assert [e for e in of_type(then, HpChanged) if e.cause == "mouse_sized_cheese"] == []


def test_mouse_sized_cheese_grants_nibble():
    assert built("rat", "mouse_sized_cheese").intrinsic == ("strike", "protect", "nibble")


def test_nibble_bites_an_enemy_and_heals_the_user_a_little():
    # seed 003, 2.2: "No move will just restore health, and if it does it's PP will be severly
    # limited". NIBBLE is intrinsic (infinite PP), so it bites as it heals (README, choices)
    # given: rat (50 / 100 HP, ATK 40) with NIBBLE, e1 (DEF 20, 100 HP) deals no damage
    given = battle([entity("rat", hp=50, max_hp=100, spd=60, intrinsic=("strike", "protect", "nibble"))],
                   [enemy("e1", atk=0, spd=40)], params=EXACT)
    # when: rat NIBBLEs e1
    then, state = turn(given, {"rat": ("nibble", "e1"), "e1": ("strike", "rat")})
    # then: 50% x 40 x 100/120 = 16.7 -> 16 to e1 (100 -> 84); rat heals 5% x 100 = 5 (50 -> 55)
    assert then[4:7] == [ActionTaken(actor="rat", action="nibble", target="e1", pp=None),
                         EnemyHpChanged(target="e1", seat="p2", delta=-16, hp=84, healed=False, cause="nibble",
                                        by="rat"),
                         HpChanged(target="rat", delta=5, hp=55, cause="nibble", by="rat")]
    assert (state.entities["e1"].hp, state.entities["rat"].hp) == (84, 55)


@pytest.mark.parametrize("glasses, mode, seen", [
    ((), "", {}),
    (("varifocal_glasses",), "varifocal", {"bite": 10, "tail_whip": 7}),
])
def test_varifocal_glasses_make_analyze_show_every_move_pp(glasses, mode, seen):
    prof = wearing("prof", *glasses, spd=60, intrinsic=("strike", "protect", "analyze"))
    given = geared([prof], [enemy("e1", atk=0, spd=40, moves={"bite": 10, "tail_whip": 7})])
    then, state = turn(given, {"prof": ("analyze", "e1"), "e1": ("strike", "prof")})
    assert of_type(then, Analyzed) == [Analyzed(target="e1", by="prof", mode=mode)]
    e1 = view(state, Viewer(seat="p1"))["enemies"][0]
    assert (e1["moves"], e1["hp_pct"]) == (seen, 100)


# -- passives of 2.4.1 --------------------------------------------------------------------

def test_a_knocked_out_wearers_soda_hat_does_not_heal():
    given = geared([wearing("mc", "novelty_soda_hat", hp=0, max_hp=160, ko=True, ko_turn=1), entity("sc", spd=60)],
                   [enemy("e1", spd=40)], turn=2)
    then, state = turn(given, {"sc": ("protect", "sc"), "e1": ("strike", "sc")})
    assert of_type(then, HpChanged) == []
    assert (state.entities["mc"].hp, state.entities["mc"].ko) == (0, True)


def test_thorn_mail_lowers_the_attackers_atk():
    given = geared([wearing("mc", "thorn_mail", spd=60)], [enemy("e1", spd=40)], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert of_type(then, StatLevelChanged) == [StatLevelChanged(target="e1", stat="atk", level=-1, by="mc")]
    assert state.entities["e1"].levels == {"atk": -1}


def test_guardian_locket_turns_the_first_knock_out_into_1_hp():
    given = geared([wearing("mc", "guardian_locket", hp=10, max_hp=100, spd=60)], [enemy("e1", spd=40)], params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    # 33 damage on 10 HP would knock out; the locket leaves 1
    assert [e for e in then if isinstance(e, (EffectTriggered, KnockOutAverted, HpChanged, KnockedOut))] == [
        EffectTriggered(kind="guardian_locket", owner="mc", on="KoCheck"),
        KnockOutAverted(target="mc", by="guardian_locket"),
        HpChanged(target="mc", delta=-9, hp=1, cause="strike", by="e1")]
    assert (state.entities["mc"].hp, state.entities["mc"].saved) == (1, True)


def test_guardian_locket_is_spent_after_one_save():
    given = geared([wearing("mc", "guardian_locket", hp=10, max_hp=100, spd=60, saved=True)], [enemy("e1", spd=40)],
                   params=EXACT)
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    assert of_type(then, KnockOutAverted) == []
    assert of_type(then, KnockedOut) == [KnockedOut(target="mc", turn=1)]


STUNS = b"stun-1"       # this seed's CRUSHING_BLOW lands its 50% stun on a bare target


@pytest.mark.parametrize("items, stunned", [((), True), (("steady_boots",), False)])
def test_steady_boots_keep_the_wearer_from_being_stunned(items, stunned):
    given = geared([wearing("mc", *items, hp=300, spd=40)], [enemy("e1", spd=70, moves={"crushing_blow": 3})],
                   params=EXACT)
    then, _ = turn(given, {"mc": ("strike", "e1"), "e1": ("crushing_blow", "mc")}, STUNS)
    # e1 acts first, so a stun stops mc's STRIKE this very turn
    assert of_type(then, StatusGained) == ([StatusGained(target="mc", kind="stunned", turn=1, by="e1")]
                                           if stunned else [])
    assert of_type(then, ActionSkipped) == ([ActionSkipped(actor="mc", reason="stunned")] if stunned else [])
