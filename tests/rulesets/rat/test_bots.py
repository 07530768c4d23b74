"""Rat's greedy bot reads its side's plans for the turn so far (`bots/greedy.py`): one hit is
enough to kill a knocked-out foe, one shield, revival or WISH enough for a knocked-out ally; and
it wastes no ailment on an enemy its (public) content makes immune.

Each test builds the state, reads the party's view (`side_view`, as the bot gets it) and asserts
the exact worth of a command, or the command the bot picks."""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.engine.scoring import GreedyPolicy
from domain.rulesets.rat.bots.greedy import DONE, KILL, SHIELD_DOWN, WISH_DOWN, score
from domain.rulesets.rat.state import PARTY, Plan, Rat
from domain.rulesets.rat.view import side_view

from .given import battle, enemy, entity


def act(actor: str, action: str, target: str | None = None) -> dict[str, Any]:
    return {"type": "act", "actor": actor, "action": action, "target": target}


def planned(s: Rat, *plans: Plan) -> Rat:
    return replace(s, plans={p.actor: p for p in plans})


def party_of_two(**girl: Any) -> Rat:
    return battle([entity("mc"), entity("girl", moves={"pocket_sand": 5}, **girl)],
                  [enemy("e1", hp=0, ko=True, ko_turn=0), enemy("e2")])


def test_a_knocked_out_foe_is_killed_once():
    # given e1 knocked out (last turn: a hit now kills it)
    given = party_of_two()
    # when nobody has planned on it yet, then a STRIKE on it is the kill
    assert score(side_view(given, PARTY), act("girl", "strike", "e1")) == KILL
    # when mc already plans a STRIKE on it, then the girl's is worth nothing more than DONE
    then = side_view(planned(given, Plan(actor="mc", action="strike", target="e1")), PARTY)
    assert score(then, act("girl", "strike", "e1")) == DONE
    # and she strikes the standing e2 instead: STRIKE 100 power x ATK 40 / 400 = 10, + 20 - 100 / 5 = 0 (no bar)
    assert score(then, act("girl", "strike", "e2")) == 10.0
    assert GreedyPolicy(score).choose(then, [act("girl", "strike", "e1"), act("girl", "strike", "e2")],
                                      Rng(b"t")) == act("girl", "strike", "e2")


def test_a_knocked_out_ally_is_shielded_and_wished_on_once():
    # given the girl knocked out
    given = battle([entity("mc"), entity("girl", hp=0, ko=True, ko_turn=0), entity("prof")])
    view = side_view(given, PARTY)
    # then PROTECT and WISH on her are worth SHIELD_DOWN (40) and WISH_DOWN (35)
    assert score(view, act("mc", "protect", "girl")) == SHIELD_DOWN
    assert score(view, act("mc", "wish", "girl")) == WISH_DOWN
    # when mc plans to shield her, then prof's shield is worth DONE, and his WISH still WISH_DOWN
    shielded = side_view(planned(given, Plan(actor="mc", action="protect", target="girl")), PARTY)
    assert score(shielded, act("prof", "protect", "girl")) == DONE
    assert score(shielded, act("prof", "wish", "girl")) == WISH_DOWN


def test_no_ailment_is_wasted_on_an_immune_boss():
    # given e2 is the Rat King (content: immune to BLINDED), and e1 a Sewer Rat
    given = battle([entity("girl", moves={"pocket_sand": 5})],
                   [replace(enemy("e1"), kind="sewer_rat"), replace(enemy("e2"), kind="rat_king")])
    view = side_view(given, PARTY)
    # then POCKET_SAND (BLINDED, 100%) is worth 6 x 100 / 100 = 6 on the rat and 0 on the king
    assert score(view, act("girl", "pocket_sand", "e1")) == 6.0
    assert score(view, act("girl", "pocket_sand", "e2")) == 0.0
