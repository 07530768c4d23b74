"""What the rules keep between the states of a battle gives what working it out afresh gives:
the battle actions a state lists (each seat's menu, the Dynamics' ability checks taken as one
test) are those the rules' own checks allow; the effects in play and the Dynamics by id, kept
while only severities change, are those of the state itself; the seat-bound turn-start hooks
skip only calls that change nothing; events applied without `emit` chain as emitted ones do."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from msgspec.structs import replace

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine.hooks import BoundEffect, Effect, HookContext, Phase
from domain.engine.ruleset import get_ruleset
from domain.rulesets.ring import events as ev
from domain.rulesets.ring import moves, targets
from domain.rulesets.ring.commands import RingCommand, StrikeLeader, Swap, UseAbility, UseItem, UseLeaderAbility
from domain.rulesets.ring.content import content
from domain.rulesets.ring.effects.dynamics import OPEN, ability_blocks, keen_eye
from domain.rulesets.ring.hooks import HOOKS, SEAT_BOUND, TEAM_BOUND, AbilityCheck, Odds, SwapCost
from domain.rulesets.ring.moves import RingResolver, active_effects, dynamics_by_id, effective, modifiers
from domain.rulesets.ring.roster import loadout
from domain.rulesets.ring.state import Ring
from domain.rulesets.ring.targets import (battle_actions, bench, can_strike, item_cost, leader_ability_ok,
                                          target_options, unit_ability_ok)

from .build import dyn, ring, unit
from .test_legal_cache import random_battle


def by_the_rules(s: Ring, seat: str) -> list[RingCommand]:
    """The battle actions straight from the rules' checks, one ability at a time, nothing kept."""
    side, ring_unit, rules = s.side(seat), s.ring_unit(seat), content()
    found: list[RingCommand] = []
    if ring_unit is not None and ring_unit.key not in s.down:
        for aid in loadout(ring_unit):
            if unit_ability_ok(s, seat, ring_unit, aid) is None:
                found += [UseAbility(ability=aid, target=t)
                          for t in target_options(s, seat, ring_unit, rules.abilities[aid])]
    for aid in rules.leaders[side.leader].abilities:
        if leader_ability_ok(s, seat, aid) is None:
            found += [UseLeaderAbility(ability=aid, target=t)
                      for t in target_options(s, seat, ring_unit, rules.abilities[aid])]
    if side.items and item_cost(s, seat) <= side.ap:
        for item in sorted(set(side.items)):
            found += [UseItem(item=item, target=t)
                      for t in target_options(s, seat, ring_unit, rules.item_abilities[item])]
    cost = 0                    # the swap cost through every hook, nothing kept
    if not s.swap_required:
        changed = effective(s, SwapCost(seat=seat, amount=rules.leaders[side.leader].swap_cost))
        assert changed is not None
        cost = max(0, changed.amount)
    if cost <= side.ap:
        found += [Swap(unit=s.units[k].unit) for k in bench(s, seat)]
    if can_strike(s, seat):
        found += [StrikeLeader(ap=n) for n in range(1, side.ap + 1)]
    return found


def battle_states(*names: str) -> Iterator[Ring]:
    for name in names:
        for game in random_battle(name):
            if game.phase == "battle" and game.active is not None and not game.swap_required:
                yield game


def test_the_listed_battle_actions_are_those_the_rules_allow_throughout_random_battles():
    compared = 0
    for game in battle_states("listing-1", "listing-2", "listing-3"):
        for seat in ("p1", "p2"):
            assert list(battle_actions(game, seat)) == by_the_rules(game, seat)
            compared += 1
    assert compared > 300


def test_with_a_check_the_one_test_does_not_know_each_ability_goes_through_the_hooks(monkeypatch):
    monkeypatch.setattr(targets, "ability_blocks", lambda s, checks: None)
    compared = 0
    for game in battle_states("listing-unknown-check"):
        assert list(battle_actions(game, game.active)) == by_the_rules(game, game.active)
        compared += 1
    assert compared > 100


@pytest.mark.parametrize("ap", range(0, 11))
@pytest.mark.parametrize("mp", [0, 6, 9, 10, 40])
@pytest.mark.parametrize("stunned", [None, "p1.ember_wisp", "p1.shellback", "p2.hex_lich"])
@pytest.mark.parametrize("lock", [None, 1, 3, 5])
def test_mana_locks_and_stuns_taken_as_one_test_block_what_each_hook_blocks(ap, mp, stunned, lock):
    dynamics = []
    if lock is not None:
        dynamics.append(dyn("d1", "mana_lock", source="battlefield", severity=lock))
    if stunned is not None:
        dynamics.append(dyn("d2", "stunned", unit=stunned, severity=2))
    if lock == 3:
        dynamics.append(dyn("d3", "mana_lock", seat="p1", source="ability", severity=5))    # two locks
    s = ring([unit("p1", "ember_wisp", abilities=("fireball", "umbral_strike"), mp=mp), unit("p1", "shellback")],
             [unit("p2", "hex_lich")], dynamics=dynamics, ap=ap, items={"p1": ["potion"]})
    assert list(battle_actions(s, "p1")) == by_the_rules(s, "p1")
    checks = modifiers(s, AbilityCheck)
    assert (ability_blocks(s, checks) if checks else OPEN) is not None


def test_the_one_test_knows_only_the_hooks_that_only_block():
    s = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], dynamics=[dyn("d1", "keen_eye", seat="p1")])
    ctx = HookContext(BoundEffect(kind="keen_eye", owner="d1"), None)
    assert ability_blocks(s, [(ctx, keen_eye)]) is None


def test_the_effects_and_the_index_kept_across_a_battle_are_those_of_each_state():
    compared = 0
    for game in random_battle("effects-kept"):
        assert active_effects(game) == moves._active(game.dynamics, game.down, game.disabled)
        assert dynamics_by_id(game) == {d.id: d for d in game.dynamics}
        compared += bool(game.dynamics)
    assert compared > 100


def test_a_severity_change_keeps_the_effects_and_updates_the_index():
    rage = dyn("d1", "rage", unit="p1.grizzlor", source="unit")
    ward = dyn("d2", "fire_ward", seat="p2", source="leader")
    given = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], dynamics=[rage, ward])
    effects, index = active_effects(given), dynamics_by_id(given)
    stronger = replace(given, dynamics=(rage, replace(ward, severity=7)))
    assert active_effects(stronger) is effects
    assert dynamics_by_id(stronger) == {"d1": rage, "d2": replace(ward, severity=7)} and index["d2"] == ward
    other = replace(given, dynamics=(rage, replace(ward, id="d3")))     # another Dynamic in its place
    assert [e.owner for e in active_effects(other)] == ["d1", "d3"]
    assert set(dynamics_by_id(other)) == {"d1", "d3"}


def test_seat_bound_kinds_hook_only_the_start_of_their_carriers_team_turn():
    types = HOOKS.before | HOOKS.after
    for kind in HOOKS.kinds:
        effect = BoundEffect(kind=kind, owner="d1", subject="p1")
        rows = [(phase, on, bound) for phase in Phase for on in types
                for _, _, bound in HOOKS.plan(phase, on, (effect,))]
        if kind in SEAT_BOUND:
            assert rows == [(Phase.AFTER, ev.TurnStarted, "seat")]
        elif kind in TEAM_BOUND:
            assert rows and all(bound == "seat" for _, _, bound in rows)
        else:
            assert all(bound != "seat" for _, _, bound in rows)
    carried = dyn("d1", "burning", unit="p2.iron_boar", source="ability")
    s = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], dynamics=[carried])
    assert active_effects(s) == (BoundEffect(kind="burning", owner="d1", subject="p2"),)


def test_events_applied_without_emit_chain_as_emitted_ones(monkeypatch):
    def chains() -> list[str]:
        ruleset, bot = get_ruleset("ring"), get_policy("random", "ring")
        match = play(ruleset, {"p1": bot, "p2": bot}, battle_id="applied", revealed=seeded_bytes("applied", 1),
                     bot_seed=seeded_bytes("applied", 2))
        return [rec.chain for rec in match.records]

    applied: set[type] = set()
    direct = RingResolver.apply

    def noting(self: RingResolver, event: ev.Event) -> None:
        applied.add(type(event))
        direct(self, event)

    monkeypatch.setattr(RingResolver, "apply", noting)
    kept = chains()
    assert applied and not applied & (RingResolver.SETTLES | RingResolver.FOLLOWS)
    monkeypatch.setattr(RingResolver, "apply", RingResolver.emit)
    assert chains() == kept


def test_command_lists_are_shared_and_equal_to_the_commands_made_afresh():
    """Given an ability, a leader ability and an item with their targets, when their command
    lists are asked for twice, then they are the commands made one by one, and the same list."""
    for kind, name, field in ((UseAbility, "fire_bolt", "ability"), (UseLeaderAbility, "rally", "ability"),
                              (UseItem, "potion", "item")):
        listed = targets.commands(kind, name, ["p2.a", None])
        assert listed == (kind(**{field: name, "target": "p2.a"}), kind(**{field: name, "target": None}))
        assert targets.commands(kind, name, ("p2.a", None)) is listed


def test_a_team_bound_dynamic_is_asked_on_its_own_teams_events_and_a_field_one_on_both():
    """Given Keen Eye with the p1 team and Keen Eye on the battlefield (no seat), when each
    team's effectiveness odds are modified, then p1's go through both and p2's through the
    battlefield's alone: a team's Dynamic changes nothing for the other team (`covers`)."""
    team, field = dyn("d1", "keen_eye", source="leader", seat="p1"), dyn("d2", "keen_eye", source="battlefield")
    s = ring([unit("p1", "grizzlor")], [unit("p2", "iron_boar")], dynamics=[team, field])
    assert active_effects(s) == (BoundEffect(kind="keen_eye", owner="d1", subject="p1"),
                                 Effect(kind="keen_eye", owner="d2"))
    for seat, owners in (("p1", ["d1", "d2"]), ("p2", ["d2"])):
        asked = [e.owner for e, _, bound in HOOKS.plan(Phase.BEFORE, Odds, active_effects(s))
                 if bound is None or e.subject == seat]
        assert asked == owners
        odds = effective(s, Odds(seat=seat, ability="x", glancing=1500, normal=7000, critical=1500))
        # keen_eye at severity 5: value 0 + scale 200 x 5 = 1,000 basis points from Normal to Critical each
        assert odds is not None and odds.critical == 1500 + 1000 * len(owners)
