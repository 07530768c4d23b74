"""What listing legal commands keeps, and what it relies on. The legal commands a ring state
lists are kept per state object and per content, so an earlier release never reads an answer
worked out under today's content, or the reverse; target lists are kept across the states of
a battle; the down set stands for every unit's flags."""
from __future__ import annotations

from collections.abc import Iterator

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.battle import fold
from domain.engine.ruleset import get_ruleset
from domain.rulesets.ring import RULESET
from domain.rulesets.ring.content import CONTENT, playing
from domain.rulesets.ring.state import Ring
from domain.rulesets.ring import targets
from domain.rulesets.ring.targets import battle_actions, battle_options, listed

from .build import ring, unit


def test_a_state_lists_its_battle_actions_once_per_content():
    given = ring([unit("p1", "shadow_cat", abilities=("brittle_hex",))], [unit("p2", "shellback")])
    today = battle_options(given, "p1")
    assert battle_options(given, "p1") is today                     # worked out once
    assert listed(given, "p1", today[0])
    older = RULESET.releases.content_of("1.1.0")
    with playing(older):
        assert not listed(given, "p1", today[0])                     # nothing kept for 1.1.0 yet
        assert battle_options(given, "p1") is not today
    assert older is not CONTENT and battle_options(given, "p1") is today


def test_only_the_last_state_asked_about_keeps_its_battle_actions():
    # settle, legal_commands and decide ask about one state after another: the next state
    # asked about takes the place of the last, whose answers no other state can read
    first = ring([unit("p1", "shadow_cat", abilities=("brittle_hex",))], [unit("p2", "shellback")])
    second = ring([unit("p1", "shellback")], [unit("p2", "shadow_cat", abilities=("brittle_hex",))])
    kept = battle_options(first, "p1")
    assert listed(first, "p1", kept[0])
    assert battle_options(second, "p1") != kept
    assert not listed(first, "p1", kept[0]) and not listed(second, "p1", kept[0])
    assert battle_options(first, "p1") == kept                      # worked out again, the same
    assert battle_options(first, "p1") is battle_options(first, "p1")


def random_battle(name: str) -> Iterator[Ring]:
    """Every game state of a battle between random bots, in order, as folding its log gives."""
    ruleset = get_ruleset("ring")
    bot = get_policy("random", "ring")
    match = play(ruleset, {"p1": bot, "p2": bot}, battle_id=name, revealed=seeded_bytes(name, 1),
                 bot_seed=seeded_bytes(name, 2))
    state = None
    for rec in match.records:
        state = fold(ruleset, state, rec)
        if state.game is not None:
            yield state.game


def test_the_down_set_the_legal_actions_read_matches_every_units_flags_throughout_a_battle():
    # alive, bench and the Ring checks read `Ring.down`, which evolve keeps with the flags
    checked = 0
    for game in random_battle("down-set"):
        assert game.down == {key for key, f in game.units.items() if f.ko or f.removed}
        checked += bool(game.down)
    assert checked > 0                       # some unit went down in this battle


def test_target_lists_kept_from_the_last_state_give_the_actions_a_fresh_start_gives():
    # battle_actions reuses each seat's menu while the teams, the Ring unit and its slots, the
    # items and down set are the same objects; every state must list what it lists from nothing
    compared = 0
    for game in random_battle("kept-targets"):
        if game.phase != "battle" or game.active is None or game.swap_required:
            continue
        kept = battle_actions(game, game.active)             # the menu of an earlier state, if still right
        targets._MENUS.clear()
        assert battle_actions(game, game.active) == kept
        compared += 1
    assert compared > 100


def test_what_a_dynamic_target_ability_asks_of_its_target_is_read_from_its_own_steps_and_content():
    for rules in (CONTENT, RULESET.releases.content_of("1.0.0")):
        with playing(rules):
            for ability in [*rules.abilities.values(), *rules.item_abilities.values()]:
                removes = any(step.do == "remove" for step in ability.steps)
                on_dynamic = any(step.do == "inflict" and step.dynamic and rules.dynamics[step.dynamic].on == "dynamic"
                                 for step in ability.steps)
                for _ in range(2):                          # worked out, then kept
                    assert targets._dynamic_target_rules(ability) == (removes, on_dynamic)
