"""Who waits after a plan is carried from the state before it (`legal.planned`), not worked
out again: across the states of random battles, with the rules' AI or a seat playing the
enemies, and with an entity stunned, the carried answers are exactly what `choosers` and a
fresh `awaiting` give for the state after the plan."""
from __future__ import annotations

import uuid
from collections.abc import Iterator

from msgspec.structs import replace

from domain.ai.match import seeded_bytes
from domain.engine.battle import open_battle
from domain.engine.rng import Rng
from domain.rulesets.rat import RULESET
from domain.rulesets.rat import events as ev
from domain.rulesets.rat.commands import Act
from domain.rulesets.rat.decide import decide
from domain.rulesets.rat.legal import awaiting, choosers, legal_commands, planned, waiting
from domain.rulesets.rat.state import ENEMIES, PARTY, Plan, Rat

from .given import ailment, battle, enemy, entity


def planned_states(enemy_seat: bool, battles: int = 4, most: int = 300) -> Iterator[tuple[Rat, Rat]]:
    """(state, state after one plan that resolved nothing) of each such decision of a few
    random battles, the answers about the later state as `decide` left them."""
    setup = {**RULESET.fresh_setup(), "enemy_seat": enemy_seat}
    seats = RULESET.table(setup).seats
    for i in range(battles):
        state, _ = open_battle(RULESET, battle_id=str(uuid.UUID(int=i)), setup=setup,
                               players={seat: {"bot": "random"} for seat in seats},
                               revealed=seeded_bytes("carried", i), created_at="1970-01-01T00:00:00Z")
        s: Rat = state.game
        rng = Rng(seeded_bytes("carried-bots", i))
        for step in range(most):
            if s.result is not None:
                break
            seat = min(awaiting(s))
            decision = decide(s, seat, rng.choice(legal_commands(s, seat)), Rng(seeded_bytes("turn", i, step)))
            after = decision.state
            assert after is not None
            if len(decision.events) == 1 and isinstance(decision.events[0], ev.ActionPlanned):
                yield s, after
            s = after


def fresh(s: Rat) -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """Who is awaited and who waits on each side of `s`, worked out on a copy that has no answers."""
    copy = replace(s)
    return awaiting(copy), {side: choosers(copy, side) for side in (PARTY, ENEMIES)}


def test_who_waits_after_a_plan_is_what_the_queue_gives_afresh():
    found = 0
    for enemy_seat in (False, True):
        for _, after in planned_states(enemy_seat):
            seats, sides = fresh(after)
            assert awaiting(after) == seats
            assert {side: waiting(after, side) for side in sides} == sides
            found += 1
    assert found > 20


def test_a_stunned_entity_stays_out_of_who_waits_after_a_plan():
    given = battle([entity("mc", spd=90), entity("sc", spd=60), entity("ann", spd=30)],
                   [enemy("e1"), enemy("e2")], effects=(ailment("stunned", "sc"),))
    assert waiting(given, PARTY) == ("mc", "ann") and awaiting(given) == {"p1", "p2"}
    then = decide(given, "p1", Act(actor="mc", action="strike", target="e1"), Rng(b"x")).state
    assert then is not None
    assert waiting(then, PARTY) == ("ann",) and waiting(then, ENEMIES) == choosers(replace(then), ENEMIES)
    assert awaiting(then) == {"p1", "p2"} == fresh(then)[0]


def test_a_plan_by_another_entity_than_the_first_carries_nothing():
    given = battle([entity("mc", spd=90), entity("sc", spd=60)], [enemy("e1")])
    after = replace(given, plans={"sc": Plan(actor="sc", action="strike", target="e1")})
    assert waiting(given, PARTY) == ("mc", "sc")
    assert planned(given, after, PARTY, "sc") is False
    assert waiting(after, PARTY) == ("mc",)            # worked out afresh, not carried
