"""House seats: the service plays a seat with a bot, through the same submit path as a client."""
from __future__ import annotations

import random
import threading

import pytest

from domain.battles import Battles
from domain.engine.battle import BattleEnded
from domain.engine.errors import InvalidInput
from domain.house import HouseSeats, LocalClaims, RedisClaims
from replays import format as replay_format
from replays.verify import verify
from tests.storage.helpers import next_seat

RULESETS = ["deckduel", "ring"]


def verified(battles: Battles, battle_id: str) -> None:
    state = battles.load(battle_id)
    report = verify(replay_format.build(state, battles.records(battle_id)))
    assert report.ok, report.reason


def actions_by(battles: Battles, battle_id: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for rec in battles.records(battle_id):
        if rec.event.starts_batch():
            actor = rec.event.acting_seat() or ""
            counts[actor] = counts.get(actor, 0) + 1
    return counts


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_house_seat_answers_every_move_of_a_human_seat(sqlite_url, ruleset):
    # given a battle whose p2 is a house bot, and the house worker running
    with Battles(sqlite_url) as battles:
        house = HouseSeats(battles, sweep_seconds=0.05)
        house.start()
        try:
            made = battles.create(ruleset, {"p1": "alice", "p2": {"bot": "greedy"}})
            rng = random.Random(5)
            # when p1 plays random legal moves whenever it is awaited
            for _ in range(3000):
                state = battles.load(made.battle_id)
                if state.outcome is not None:
                    break
                if "p1" in battles.ruleset_of(state).awaiting(state.game):
                    battles.submit(made.battle_id, "p1", rng.choice(battles.legal(made.battle_id, "p1")))
                else:
                    threading.Event().wait(0.002)
        finally:
            house.close()
        # then the battle ends, p2's moves are ordinary action events, and the replay verifies
        state = battles.load(made.battle_id)
        assert state.outcome is not None
        assert isinstance(battles.records(made.battle_id)[-1].event, BattleEnded)
        assert actions_by(battles, made.battle_id)["p2"] == house.moves > 0
        assert state.created.players == {"p1": "alice", "p2": {"bot": "greedy"}}
        verified(battles, made.battle_id)


@pytest.mark.parametrize("ruleset,policies", [("deckduel", ("random", "greedy")), ("ring", ("greedy", "memory"))])
def test_two_house_seats_play_a_battle_to_the_end_alone(sqlite_url, ruleset, policies):
    with Battles(sqlite_url) as battles:
        made = battles.create(ruleset, {"p1": {"bot": policies[0]}, "p2": {"bot": policies[1]}})
        house = HouseSeats(battles, sweep_seconds=3600)
        # when the worker sweeps once (no thread: the sweep plays until nobody is awaited)
        moved = house.sweep()
        # then the battle has ended with every move made by the house
        state = battles.load(made.battle_id)
        assert state.outcome is not None
        assert sum(actions_by(battles, made.battle_id).values()) == moved
        verified(battles, made.battle_id)


def test_a_house_seat_due_when_the_service_stopped_moves_after_a_restart(sqlite_url):
    # given a battle created while no house worker ran: both seats owe a mulligan, p2 is house
    with Battles(sqlite_url) as battles:
        made = battles.create("deckduel", {"p1": "alice", "p2": {"bot": "random"}})
        assert next_seat(battles, made.battle_id) == "p1"
        before = battles.load(made.battle_id).seq
    # when the service starts again on the same database
    with Battles(sqlite_url) as battles:
        house = HouseSeats(battles, sweep_seconds=3600)
        house.sweep()
        # then p2 has locked its mulligan and only p1 is awaited
        state = battles.load(made.battle_id)
        assert state.seq == before + 1
        assert battles.ruleset_of(state).awaiting(state.game) == frozenset({"p1"})
        assert actions_by(battles, made.battle_id) == {"p2": 1}


def test_two_workers_sharing_claims_never_move_twice(db_url, redis_url):
    # given two services on one database, each with its own house worker and a shared Redis
    prefix = f"house-test-{random.randrange(1 << 30)}"
    with Battles(db_url) as a, Battles(db_url) as b:
        made = a.create("deckduel", {"p1": {"bot": "random"}, "p2": {"bot": "greedy"}})
        workers = [HouseSeats(battles, RedisClaims(redis_url, prefix), sweep_seconds=3600) for battles in (a, b)]
        # when both sweep at the same time until the battle ends
        done = threading.Barrier(2)

        def run(worker: HouseSeats) -> None:
            done.wait()
            for _ in range(200):
                worker.sweep()
                if worker.battles.load(made.battle_id).outcome is not None:
                    return

        threads = [threading.Thread(target=run, args=(w,)) for w in workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        for w in workers:
            w.close()
        # then the battle ended (no stall), each seat's move landed once (no double moves),
        # and the moves made add up to the action events in the log
        state = a.load(made.battle_id)
        assert state.outcome is not None
        assert sum(actions_by(a, made.battle_id).values()) == workers[0].moves + workers[1].moves
        verified(a, made.battle_id)


def test_a_claim_is_won_once_until_it_lapses():
    claims = LocalClaims()
    assert claims.claim("b:p2:7") is True
    assert claims.claim("b:p2:7") is False
    assert claims.claim("b:p2:8") is True


def test_an_unknown_house_policy_is_refused_and_nothing_is_stored(sqlite_url):
    with Battles(sqlite_url) as battles:
        with pytest.raises(InvalidInput, match="players.p2: no bot policy 'nope' for deckduel"):
            battles.create("deckduel", {"p1": "alice", "p2": {"bot": "nope"}})
        with pytest.raises(InvalidInput, match="players.p2: a house seat is"):
            battles.create("deckduel", {"p1": "alice", "p2": {"bot": "random", "x": 1}})
        assert list(battles.battle_ids()) == []
