"""A tournament played live: registered and house entrants, sets opened round by round, each
registered entrant acting with its entrant token, the house seats played by the house worker."""
from __future__ import annotations

import threading

import pytest

from domain.battles import Battles
from domain.engine.errors import InvalidInput
from domain.house import HouseSeats
from domain.players import Players
from domain.sets import Sets
from domain.tournaments.decide import TournamentClosed
from domain.tournaments.events import RoundEnded, RoundPaired
from domain.tournaments.service import Tournaments, entrant_token
from replays.tournament_audit import audit_tournament


def test_registered_entrants_act_with_their_entrant_token_in_their_sets(sqlite_url):
    with Battles(sqlite_url) as battles:
        sets = Sets(battles)
        # alice rated 30 in deckduel, bob not rated yet (openskill's new mu, 25)
        tournaments = Tournaments(battles, sets, lambda ruleset, player: {"alice": 30.0}.get(player))
        players = Players(battles.store)
        created = tournaments.create("deckduel", "swiss", rounds=2)
        tokens = {name: players.register(name).player_token for name in ("alice", "bob")}
        entered = {name: tournaments.enter(created.tournament_id, name, token) for name, token in tokens.items()}
        assert entered["alice"]["entrant_token"] == entrant_token(tokens["alice"], created.tournament_id)
        assert [(e.id, e.rating) for e in tournaments.load(created.tournament_id).entrants] == \
            [("alice", 30.0), ("bob", 25.0)]
        with pytest.raises(InvalidInput):           # once each
            tournaments.enter(created.tournament_id, "alice", tokens["alice"])
        # when the tournament starts
        started = tournaments.start(created.tournament_id)
        [pairing] = started.paired[0].pairings
        # then each entrant's token opens its own seat in the pairing's set's battle, and no other
        battle_id = sets.load(pairing.set_id).in_progress.battle_id
        seats = {pairing.a: "p1", pairing.b: "p2"}
        for name, shown in entered.items():
            assert battles.seat_for_token(battle_id, shown["entrant_token"]) == seats[name]
        with pytest.raises(TournamentClosed):
            tournaments.enter_house(created.tournament_id, "greedy")
        with pytest.raises(TournamentClosed):
            tournaments.start(created.tournament_id)
        assert tournaments.advance(created.tournament_id).current is not None     # its set is still on


def test_a_house_tournament_played_live_runs_to_the_end_and_audits(sqlite_url):
    with Battles(sqlite_url) as battles:
        sets = Sets(battles)
        tournaments = Tournaments(battles, sets)
        house = HouseSeats(battles, sweep_seconds=0.05)
        house.start()
        try:
            created = tournaments.create("deckduel", "elimination", rounds=None)
            for bot in ("greedy", "random", "greedy", "random", "greedy"):
                tournaments.enter_house(created.tournament_id, bot)
            state = tournaments.start(created.tournament_id)
            for _ in range(6000):
                state = tournaments.advance(created.tournament_id)
                if state.ended is not None:
                    break
                threading.Event().wait(0.01)
        finally:
            house.close()
        # 5 entrants in a bracket of 8: 3 rounds, a champion, and an audit that re-derives it all
        assert state.ended is not None and len(state.ended_rounds) == 3
        report = audit_tournament(battles, sets, created.tournament_id)
        assert report["status"] == "ok" and report["champion"] == state.ended.champion


def test_a_tournament_with_fewer_than_two_entrants_does_not_start(sqlite_url):
    with Battles(sqlite_url) as battles:
        tournaments = Tournaments(battles, Sets(battles))
        created = tournaments.create("deckduel", "swiss", rounds=1)
        tournaments.enter_house(created.tournament_id, "greedy")
        with pytest.raises(InvalidInput) as refused:
            tournaments.start(created.tournament_id)
        assert refused.value.field == "entrants"
        assert len(tournaments.records(created.tournament_id)) == 2


def test_two_workers_advancing_at_once_record_each_round_once(sqlite_url):
    with Battles(sqlite_url) as one, Battles(sqlite_url) as two:
        first, second = Tournaments(one, Sets(one)), Tournaments(two, Sets(two))
        house = HouseSeats(one, sweep_seconds=0.05)
        house.start()
        try:
            created = first.create("deckduel", "swiss", rounds=3)
            for bot in ("greedy", "random", "greedy", "random"):
                first.enter_house(created.tournament_id, bot)
            first.start(created.tournament_id)
            for _ in range(6000):
                results = []
                workers = [threading.Thread(target=lambda t=t: results.append(t.advance(created.tournament_id)))
                           for t in (first, second)]
                for worker in workers:
                    worker.start()
                for worker in workers:
                    worker.join()
                if all(r.ended is not None for r in results):
                    break
                threading.Event().wait(0.01)
        finally:
            house.close()
        records = first.records(created.tournament_id)
        rounds = [r.event.round for r in records if isinstance(r.event, RoundEnded)]
        paired = [r.event.round for r in records if isinstance(r.event, RoundPaired)]
        assert rounds == paired == [1, 2, 3]
        assert audit_tournament(one, Sets(one), created.tournament_id)["status"] == "ok"


def test_a_set_opened_by_another_worker_while_start_opens_it_is_taken_not_refused(sqlite_url):
    """Given the sweep of another worker opens round 1's set between `start` recording the
    pairing and opening the set, when `start` opens it too, then `start` answers with the round
    (the other worker's set stands) instead of failing on the set's version."""
    with Battles(sqlite_url) as one, Battles(sqlite_url) as two:
        first, second = Tournaments(one, Sets(one)), Tournaments(two, Sets(two))
        created = first.create("deckduel", "swiss", rounds=1)
        for bot in ("greedy", "random"):
            first.enter_house(created.tournament_id, bot)
        create = first.sets.create

        def after_the_sweep(*args, **kwargs):
            second.advance(created.tournament_id)       # finds the pairing, opens its set
            return create(*args, **kwargs)
        first.sets.create = after_the_sweep             # type: ignore[method-assign]
        started = first.start(created.tournament_id)
        [paired] = started.paired
        [pairing] = paired.pairings
        assert pairing.set_id is not None and second.sets.load(pairing.set_id).created.games == 1
        assert [r.event.round for r in first.records(created.tournament_id) if isinstance(r.event, RoundPaired)] == [1]
