"""Seed 003, 2.1.x Stats: how far a stat level steps (`Params.level_cap`, README "Choices").

By default (since 1.3.0) a level stops at +3 and -3, so nothing in the content makes an
entity impossible to damage (DEF +infinity) or harmless (ATK -infinity); a setup with
`level_cap: 4` lets a fourth step reach the seed's +infinity and -infinity, which every
release before 1.3.0 played by. `params=EXACT` makes every roll 100%: a hit is
power% x ATK x 100 / (100 + DEF), floored once.
"""
from __future__ import annotations

import pytest

from domain.engine.rng import Rng
from domain.rulesets.rat import RULESET
from domain.rulesets.rat.content import CONTENT
from domain.rulesets.rat.events import EnemyHpChanged, RatStarted, StatLevelChanged
from domain.rulesets.rat.setup import DEFAULT_SETUP
from domain.rulesets.rat.state import Params
from domain.rulesets.rat.stats import POS_INF, clamp_level, stat

from .given import SEED, battle, enemy, entity, of_type, passive, turn

EXACT = Params(roll_min_pct=100)
INFINITE = Params(roll_min_pct=100, level_cap=4)


@pytest.mark.parametrize("level, step, after", [(3, 1, 3), (2, 2, 3), (-3, -1, -3), (-2, -2, -3), (0, 1, 1)])
def test_a_level_stops_at_three_under_a_cap_of_three(level, step, after):
    assert clamp_level(level + step, 3) == after


def test_war_cry_on_atk_plus_three_leaves_it_at_plus_three():
    # given: mc at ATK +3 (ATK 40), the default cap
    given = battle([entity("mc", spd=90, levels={"atk": 3}, moves={"war_cry": 6})], params=EXACT)
    # when: mc uses WAR_CRY on itself
    then, state = turn(given, {"mc": ("war_cry", "mc"), "e1": ("strike", "mc")})
    # then: no level changes; ATK stays 40 x 2 = 80
    assert of_type(then, StatLevelChanged) == []
    assert (state.entities["mc"].levels, stat(state, state.entities["mc"], "atk")) == ({"atk": 3}, 80)


def test_a_second_brace_stops_def_at_plus_three_so_the_bracer_still_takes_damage():
    # given: e1 (DEF 20) braced once (+2), faster than mc (ATK 40)
    given = battle([entity("mc", spd=10)], [enemy("e1", spd=90, levels={"def": 2}, moves={"brace": 5})],
                   params=EXACT)
    # when: e1 braces again (+2 more) and mc strikes it
    then, state = turn(given, {"e1": ("brace", "e1"), "mc": ("strike", "e1")})
    # then: DEF stops at +3 (2 + 2 = 4, capped): 20 x 2 = 40; 100% x 40 x 100 / (100 + 40) = 28.57 -> 28
    assert of_type(then, StatLevelChanged) == [StatLevelChanged(target="e1", stat="def", level=3, by="e1")]
    assert [e.delta for e in of_type(then, EnemyHpChanged)] == [-28]
    assert state.entities["e1"].hp == 72


def test_thorn_mail_stops_the_attackers_atk_at_minus_three():
    # given: the wearer e1 (THORN_MAIL), struck by mc at ATK -3 (ATK 40 x 1/4 = 10)
    given = battle([entity("mc", spd=90, levels={"atk": -3})], [enemy("e1", spd=10, equipment=("thorn_mail",))],
                   effects=[passive(CONTENT.equipment["thorn_mail"].effect, "e1")], params=EXACT)
    # when: mc strikes e1
    then, state = turn(given, {"mc": ("strike", "e1"), "e1": ("strike", "mc")})
    # then: 10 x 100 / (100 + 20) = 8.33 -> 8 damage, and mc's ATK stays at -3: no fourth step to -infinity
    assert [e.delta for e in of_type(then, EnemyHpChanged)] == [-8]
    assert of_type(then, StatLevelChanged) == []
    assert state.entities["mc"].levels == {"atk": -3}


def test_a_cap_of_four_lets_a_fourth_step_reach_plus_infinity():
    # given: the same mc at ATK +3, in a battle set up with level_cap 4
    given = battle([entity("mc", spd=90, levels={"atk": 3}, moves={"war_cry": 6})], params=INFINITE)
    # when: mc uses WAR_CRY on itself
    then, state = turn(given, {"mc": ("war_cry", "mc"), "e1": ("strike", "mc")})
    # then: +3 -> +infinity, as the seed's table allows
    assert StatLevelChanged(target="mc", stat="atk", level=4, by="mc") in then
    assert stat(state, state.entities["mc"], "atk") == POS_INF


def test_a_setup_may_choose_the_cap_of_four_but_not_beyond():
    assert RULESET.parse_setup({**DEFAULT_SETUP, "params": {"level_cap": 4}}).params.level_cap == 4
    assert RULESET.parse_setup(DEFAULT_SETUP).params.level_cap == 3
    with pytest.raises(Exception, match="params.level_cap"):
        RULESET.parse_setup({**DEFAULT_SETUP, "params": {"level_cap": 5}})


def test_the_1_2_0_release_still_reaches_infinity():
    # given: rat 1.2.0 as this code still plays it, on its kept content
    old = RULESET.release("1.2.0", RULESET.releases["1.2.0"].content)    # type: ignore[index]
    assert old is not None
    # when: it opens the default battle
    started = of_type(list(old.start(old.parse_setup(DEFAULT_SETUP), Rng(SEED)).events), RatStarted)[0]
    # then: it plays by the values from before the cap and the new planning AIs
    assert (started.params["level_cap"], started.rules["ai_version"]) == (4, 1)


def test_a_1_2_0_opening_upcasts_to_the_values_it_played_by():
    # given: a RatStarted as 1.2.0 wrote it (class version 3), without level_cap or ai_version
    data = {"params": {"max_turns": 60}, "rules": {"enemy_hp_changes": "made"}}
    # when: it is read today
    read = RatStarted.upcast_v3_v4(data)
    # then: the fields added since carry their Older values
    assert (read["params"]["level_cap"], read["rules"]["ai_version"]) == (4, 1)
