"""The shortcuts of rat's full path give exactly what the long way gives: a plan decided with
the answers carried from the state before (`legal.planned`), the hooks a query cannot have (`hooks.in_play`), the queue's
sort and the keys it keeps (`stats.queue`, `stats.kept_keys`), the next action sought among
the plans still to act (`turn.resolve`), who the runner awaits (`legal.awaiting`), a
reaction's effect still held (`RatResolver.holds`), the equipment that forbids PROTECT
(`legal.forbids_protect`) and the end of a turn's boosts."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from msgspec.structs import replace

from domain.engine.decision import Decision
from domain.engine.hooks import Hooks, Phase, Resolver, modify
from domain.engine.rng import Rng
from domain.rulesets.rat import RULESET
from domain.rulesets.rat import turn as turns
from domain.rulesets.rat.content import CONTENT
from domain.rulesets.rat.decide import COMMANDS, decide
from domain.rulesets.rat.events import TurnEnded
from domain.rulesets.rat.evolve import evolve
from domain.rulesets.rat.hooks import HOOKS, Affliction, Aging, CanAct, KoCheck, Selectable, StatQuery, \
    StrikeQuery, in_play
from domain.rulesets.rat.legal import awaiting, choosers, forbids_protect, legal_commands, stopped
from domain.rulesets.rat.resolver import RESOLVING
from domain.rulesets.rat.state import Rat, Rules, Status
from domain.rulesets.rat.stats import order_key, queue
from domain.rulesets.rat.turn import next_up

from .given import ailment, battle, enemy, entity, passive, started, turn

QUERIES = (StatQuery, CanAct, Aging, Affliction, KoCheck, Selectable, StrikeQuery)


def the_long_way(s: Rat, seat: str, cmd: Any, seed: bytes) -> Decision[Rat]:
    """The command's decision as a resolver makes it (given a copy of the state, every answer
    about it is worked out afresh)."""
    r = RESOLVING(s, Rng(seed))
    COMMANDS.handler(cmd)(r, seat, cmd)
    return r.decision()


def battle_states(enemy_seat: bool, battles: int = 4) -> Iterator[tuple[Rat, str, Any, bytes]]:
    """States of random battles from the default setup, each with the seat to move, the command
    drawn from its options and the seed of its batch; the battle goes on from `decide`'s state."""
    for n in range(battles):
        s = started({**RULESET.default_setup, "enemy_seat": enemy_seat}, seed=b"shortcuts-%d" % n)
        draws = Rng(b"picks-%d" % n)
        for i in range(400):
            if s.result is not None:
                break
            seat = sorted(awaiting(s))[0]
            options = legal_commands(s, seat)
            cmd = options[draws.int(1, len(options)) - 1]
            seed = b"batch-%d-%d" % (n, i)
            yield s, seat, cmd, seed
            after = decide(s, seat, cmd, Rng(seed)).state
            assert after is not None
            s = after


@pytest.mark.parametrize("enemy_seat", [False, True])
def test_a_plan_decided_on_carried_answers_is_the_decision_made_afresh(enemy_seat):
    compared = 0
    for s, seat, cmd, seed in battle_states(enemy_seat):
        long = the_long_way(replace(s), seat, cmd, seed)      # a copy: every answer worked out afresh
        short = decide(s, seat, cmd, Rng(seed))
        assert short.events == long.events
        assert short.state == long.state
        compared += 1
    assert compared > 40


@pytest.mark.parametrize("enemy_seat", [False, True])
def test_each_action_is_the_next_among_all_the_turn_s_plans(monkeypatch, enemy_seat):
    real, acted = turns.act, []

    def act(r: Any, plan: Any) -> None:
        fresh = next_up(r.state)            # every plan of the turn, no key kept from before
        assert plan == fresh
        acted.append(plan)
        real(r, plan)
    monkeypatch.setattr(turns, "act", act)
    for _ in battle_states(enemy_seat):
        pass
    assert len(acted) > 40
    # A priority move puts a slow actor before a fast one listed first in the turn's plans.
    jabber = entity("mc", spd=10, moves={"quick_jab": 10})
    turn(battle([jabber], [enemy("e1", spd=90)]), {"mc": ("quick_jab", "e1"), "e1": ("strike", "mc")})
    turn(battle([jabber, entity("sc", spd=20)], [enemy("e1", spd=90)]),
         {"mc": ("quick_jab", "e1"), "sc": ("strike", "e1"), "e1": ("strike", "sc")})
    assert [p.actor for p in acted[-5:]] == ["mc", "e1", "mc", "e1", "sc"]


def test_the_hooks_in_play_are_those_the_registry_plans():
    kinds = sorted(HOOKS.kinds | {"protected", "analyzed", "wish"})
    draws, empty = Rng(b"effects"), 0
    for _ in range(400):
        effects = tuple(Status(kind=kinds[draws.int(1, len(kinds)) - 1], owner=("mc", "e1")[draws.int(1, 2) - 1],
                               source="ailment") for _ in range(draws.int(0, 6)))
        for query in QUERIES:
            found = in_play(query, effects)
            planned = Hooks.plan(HOOKS, Phase.BEFORE, query, effects) if effects else []
            assert found == planned
            empty += bool(effects) and not found
    assert empty > 100             # the kinds in play answered many without a plan


def test_a_query_no_hook_in_play_answers_comes_back_as_it_is():
    # `act` asks STRIKE's hooks, `begin_turn` the counters' and `reveal` what stops an entity
    # only where one is in play: with none, the query is what the resolver would hand back.
    for effects in [(), (passive("regen_scarf", "mc"),), (ailment("bleeding", "mc"), passive("thorn_mail", "e1"))]:
        for query in (StrikeQuery(entity="mc"), Aging(entity="mc", kind="bleeding", turn=2),
                      CanAct(entity="mc", turn=1)):
            assert not in_play(type(query), effects)
            assert modify(HOOKS, effects, None, query) == (query, [])
    given = battle([entity("mc"), entity("sc", ko=True)], [enemy("e1")])
    for e in given.entities.values():
        found = stopped(given, e, [])
        assert found == ("knocked_out" if e.ko else "")


def test_the_queue_is_the_pool_sorted_by_the_keys_equal_keys_in_the_pool_s_order():
    given = battle([entity("mc", name="TWIN"), entity("sc", name="TWIN"), entity("ann", spd=70, levels={"spd": -1}),
                    entity("bo", priority=1), entity("cy", dead=True, hp=0), entity("di", levels={"spd": -4}),
                    entity("ed", spd=0)],
                   [enemy("e1", spd=55), enemy("e2", spd=50, name="TWIN")],
                   effects=(ailment("chilled", "e1"), ailment("paralyzed", "ann")))
    # The keys kept for the same entities hold for their effects and rules only: SPD at -infinity
    # is 0 today and was -infinity before 1.2.0.
    older = Rules(spd_at_minus_infinity="minus_infinity")
    for s in (given, replace(given, effects=()), replace(given, rules=older), given):
        hooks = in_play(StatQuery, s.effects)
        for ids in (None, ["e2", "sc", "mc"], ["sc", "e2", "mc", "ann"]):
            pool = [e for e in s.entities.values() if not e.dead] if ids is None else [s.entities[i] for i in ids]
            expected = tuple(e.id for e in sorted(pool, key=lambda e: order_key(s, e, hooks)))
            assert queue(s, ids) == expected


@pytest.mark.parametrize("enemy_seat", [False, True])
def test_who_is_awaited_follows_each_state_asked(enemy_seat):
    seen: list[Rat] = []
    for s, *_ in battle_states(enemy_seat, battles=1):
        seen.append(s)
    for before, s in zip(seen, seen[1:]):
        awaiting(before)
        found = awaiting(s)
        assert found == awaiting(s)
        assert found == frozenset(seat for side, seat in s.seats.items() if seat is not None and choosers(s, side))


def test_a_reaction_s_effect_is_held_as_the_engine_says():
    given = battle([entity("mc")], [enemy("e1")], effects=(ailment("bleeding", "mc"), passive("thorn_mail", "e1")))
    r = RESOLVING(given, Rng(b"held"))
    for effect in (ailment("bleeding", "mc", turns=3), ailment("bleeding", "e1"), passive("thorn_mail", "e1"),
                   passive("regen_scarf", "mc")):
        assert r.holds(effect) == Resolver.holds(r, effect)


def test_protect_is_forbidden_by_the_equipment_that_forbids_it():
    for qid, q in CONTENT.equipment.items():
        assert forbids_protect(entity("mc", equipment=(qid,))) == q.forbids_protect
    assert forbids_protect(entity("mc", equipment=tuple(CONTENT.equipment)))
    assert not forbids_protect(entity("mc"))


def test_the_end_of_a_turn_ends_every_boost_and_keeps_the_rest():
    for boosts in ({}, {"sc": 2}, {"mc": 1, "e1": 3}):
        given = battle([entity("mc", boost=boosts.get("mc", 0)), entity("sc", boost=boosts.get("sc", 0))],
                       [enemy("e1", boost=boosts.get("e1", 0))])
        after = evolve(given, TurnEnded(turn=1, party_hp={"mc": 100, "sc": 100}))
        assert after.entities == {k: replace(x, boost=0) for k, x in given.entities.items()}
        assert after.history[-1].party_hp == {"mc": 100, "sc": 100}
