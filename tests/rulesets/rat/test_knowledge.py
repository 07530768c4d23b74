"""What a seat knows (seed 003, In-Battle UI and AI) and the battles `determinize` draws from it
(`knowledge.py`): an enemy's HP reaches the party only as ANALYZE's bar, its other stats are
the bestiary's; the party's build is its seat's alone.

The default setup (given.started): the party mc (210 HP, ATK 135), rat (100), girl (170) and
prof (130), whose mean max HP is 610 / 4 = 152; sewer_ambush's enemies e1, e2, e3 (Sewer Rat:
261 HP, ATK 80, DEF 25) and e4 (Gutter Roach: 348 HP, DEF 35), played by the rules' AI.
"""
from __future__ import annotations

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.rat.knowledge import UNKNOWN, UNKNOWN_PLAN, determinize, hits_taken, hp_band, knowledge
from domain.rulesets.rat.legal import options
from domain.rulesets.rat.setup import DEFAULT_SETUP
from domain.rulesets.rat.state import Plan, Rat, Status, TurnLog
from domain.rulesets.rat.stats import fraction_pct

from .given import started

MC_STRIKES_E3 = TurnLog(turn=1, actions=(Plan(actor="mc", action="strike", target="e3"),), party_hp={})


def hurt(s: Rat, key: str, hp: int, *, analyzed: bool = False) -> Rat:
    entities = {**s.entities, key: replace(s.entities[key], hp=hp)}
    effects = s.effects + ((Status(kind="analyzed", owner=key, source="analyze:varifocal"),) if analyzed else ())
    return replace(s, entities=entities, effects=effects)


def draws(known: Rat, seat: str, n: int = 12) -> list[Rat]:
    rng = Rng(b"rat knowledge")
    return [determinize(known, seat, rng) for _ in range(n)]


# -- knowledge ------------------------------------------------------------------------------

def test_the_party_knows_no_enemy_hp_and_the_bestiarys_stats():
    # given: e1 at 30 of 261 HP, not analyzed, its ATK changed to what no bestiary says
    s = hurt(started(), "e1", 30)
    s = replace(s, entities={**s.entities, "e1": replace(s.entities["e1"], atk=99)})
    # when: the party's seat's knowledge is taken
    e1 = knowledge(s, "p1").entities["e1"]
    # then: HP and max HP are marks; ATK, DEF, SPD are the Sewer Rat's; its moves at full PP
    assert (e1.hp, e1.max_hp) == (UNKNOWN, UNKNOWN)
    assert (e1.atk, e1.defense, e1.spd) == (80, 25, 60)
    assert e1.moves == {"bite": 10, "quick_jab": 10}
    assert knowledge(s, "p1").entities["mc"] == s.entities["mc"]


def test_an_analyzed_enemy_shows_its_bar_as_hp_out_of_100():
    # given: e1 analyzed at 157 of 261 HP, e2 knocked out
    s = hurt(started(), "e1", 157, analyzed=True)
    s = replace(s, entities={**s.entities, "e2": replace(s.entities["e2"], hp=0, ko=True)})
    known = knowledge(s, "p1").entities
    # then: e1 is 157 x 100 // 261 = 60 of 100; e2 is down at 0, its max HP unknown
    assert (known["e1"].hp, known["e1"].max_hp) == (60, 100)
    assert (known["e2"].hp, known["e2"].max_hp) == (0, UNKNOWN)


def test_the_enemies_seat_sees_the_party_without_its_build_or_plans():
    # given: seat p2 plays the enemies, mc has planned a STRIKE on e1
    s = started({**DEFAULT_SETUP, "enemy_seat": True})
    s = replace(s, plans={"mc": Plan(actor="mc", action="strike", target="e1")})
    known = knowledge(s, "p2")
    mc = known.entities["mc"]
    # then: mc's base stats (Ash: ATK 45, DEF 30, SPD 55), no moves it has not used, nothing
    # carried or worn, no passive of the party's equipment; its plan is a mark
    assert (mc.atk, mc.defense, mc.spd, mc.moves, mc.items, mc.equipment) == (45, 30, 55, {}, {}, ())
    assert [(x.kind, x.owner) for x in known.effects if x.source == "equipment"] == []
    assert known.plans == {"mc": Plan(actor="mc", action=UNKNOWN_PLAN)}
    assert known.entities["e1"] == s.entities["e1"]


# -- determinize ----------------------------------------------------------------------------

def test_an_enemy_never_hit_is_drawn_at_full_hp_around_a_party_members():
    known = knowledge(started(), "p1")
    drawn = [d.entities["e1"] for d in draws(known, "p1")]
    # then: max HP within 152 // 2 = 76 .. 152 x 3 // 2 = 228, HP full; not always the same
    assert all(76 <= e.max_hp <= 228 and e.hp == e.max_hp for e in drawn)
    assert len({e.max_hp for e in drawn}) > 1


def test_the_partys_hits_and_the_bar_give_the_max_hp():
    # given: mc struck e3 last turn; e3 is analyzed at 87 of 261 HP (a bar of 87 x 100 // 261 = 33)
    s = replace(hurt(started(), "e3", 87, analyzed=True), history=(MC_STRIKES_E3,))
    # hits: 100 x 135 x 100 x 92 // (100 x (100 + 25) x 100) = 99 HP, 100 - 33 = 67 % of the bar
    assert hits_taken(s, s.entities["e3"]) == 99
    drawn = draws(knowledge(s, "p1"), "p1", 3)
    # then: max HP 99 x 100 // 67 = 147, and the only HP with a bar of 33 there is 49
    # (49 x 100 // 147 = 33, 50 x 100 // 147 = 34)
    assert [(d.entities["e3"].hp, d.entities["e3"].max_hp) for d in drawn] == [(49, 147)] * 3


def test_an_unanalyzed_enemy_is_drawn_as_its_max_hp_less_the_hits():
    s = replace(hurt(started(), "e3", 60), history=(MC_STRIKES_E3,))
    drawn = [d.entities["e3"] for d in draws(knowledge(s, "p1"), "p1")]
    # then: it stood 99 HP of hits, so its max HP is at least 100 (and at most 228)
    assert all(100 <= e.max_hp <= 228 and e.hp == e.max_hp - 99 for e in drawn)


def test_an_analyzed_enemy_is_drawn_within_its_band():
    s = hurt(started(), "e1", 157, analyzed=True)             # a bar of 157 x 100 // 261 = 60
    known = knowledge(s, "p1")
    drawn = [d.entities["e1"] for d in draws(known, "p1")]
    # then: every draw shows the bar of 60, and knows what the party knows
    assert {fraction_pct(e) for e in drawn} == {60}
    assert all(knowledge(d, "p1") == known for d in draws(known, "p1"))


def test_hp_bands():
    # 60 % of 50: 30 only; 1 % of 300: 1 .. 5 (6 is 2 %); 100 %: the max alone; 1 % of 50: none
    assert [hp_band(60, 50), hp_band(1, 300), hp_band(100, 50)] == [(30, 30), (1, 5), (50, 50)]
    assert hp_band(1, 50)[0] > hp_band(1, 50)[1]


def test_the_enemies_seat_draws_a_party_build_and_plan():
    s = started({**DEFAULT_SETUP, "enemy_seat": True})
    s = replace(s, plans={"mc": Plan(actor="mc", action="strike", target="e1")})
    known = knowledge(s, "p2")
    for d in draws(known, "p2"):
        mc = d.entities["mc"]
        # mc's 210 HP is 150 + 10 x 6 HP EVs, so 10 - 6 = 4 EVs go to ATK, DEF and SPD:
        # 45 + 30 + 55 + 10 x 4 = 170 in all; its default moves at full PP
        assert mc.atk + mc.defense + mc.spd == 170
        assert mc.moves == {"heavy_swing": 5, "quick_jab": 10, "shield_bash": 8, "war_cry": 6}
        plan = d.plans["mc"]
        assert any((o.action, o.target, o.move) == (plan.action, plan.target, plan.move)
                   for o in options(d, mc))
        assert knowledge(d, "p2") == known
