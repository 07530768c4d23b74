"""Tournaments played by house entrants, stored, and audited from their logs."""
from __future__ import annotations

import msgspec
import pytest

from domain.battles import Battles
from domain.engine.battle import record
from domain.engine.chain import GENESIS
from domain.engine.errors import InvalidInput
from domain.sets import Sets
from domain.tournaments.decide import final_standings
from domain.tournaments.events import RoundEnded, RoundPaired, TournamentEnded
from domain.tournaments.service import Tournaments
from domain.tournaments.state import fold_tournament
from replays.tournament_audit import audit_tournament


@pytest.fixture
def world(sqlite_url):
    with Battles(sqlite_url) as battles:
        sets = Sets(battles)
        yield battles, sets, Tournaments(battles, sets)


def rechained(records, at, event):
    """The log with the event at index `at` replaced, every hash after it chained again."""
    out = list(records[:at])
    for rec in [msgspec.structs.replace(records[at], event=event), *records[at + 1:]]:
        out.append(record(out[-1].chain, rec.seq, rec.event))
    return out


def test_a_sixteen_player_swiss_runs_to_the_end_and_audits(world):
    battles, sets, tournaments = world
    # given 16 house entrants, greedy and random in turn, over 4 rounds of one-battle sets
    done = tournaments.simulate("deckduel", "swiss", players=16, rounds=4, seed="5", bots=("greedy", "random"))
    # then every entrant played (or had a bye) once a round, and nobody met anyone twice
    assert len(done.ended_rounds) == 4 and done.ended is not None
    for ended in done.ended_rounds:
        assert sorted(x for p in ended.results for x in (p.a, p.b) if x) == sorted(e.id for e in done.entrants)
    met = [frozenset((p.a, p.b)) for r in done.ended_rounds for p in r.results if p.b]
    assert len(met) == len(set(met)) == 32
    # the points given out: 2 half-points a pairing (a win 2-0, a draw 1-1), 8 pairings a round
    assert sum(p.points for p in done.ended.standings) == 4 * 8 * 2
    assert [p.rank for p in done.ended.standings] == list(range(1, 17))
    assert done.ended.champion == done.ended.standings[0].id
    report = audit_tournament(battles, sets, done.tournament_id)
    assert (report["status"], report["rounds"], report["sets"]) == ("ok", 4, 32) and len(report["digest"]) == 64


def test_a_hand_edited_pairing_or_result_fails_the_audit_at_its_round(world):
    battles, sets, tournaments = world
    done = tournaments.simulate("deckduel", "swiss", players=8, rounds=3, seed="7")
    records = tournaments.records(done.tournament_id)
    # when round 2's pairing swaps two players' opponents, the log re-chained
    at = next(i for i, r in enumerate(records) if isinstance(r.event, RoundPaired) and r.event.round == 2)
    first, second = records[at].event.pairings[:2]
    swapped = [msgspec.structs.replace(first, b=second.b), msgspec.structs.replace(second, b=first.b),
               *records[at].event.pairings[2:]]
    forged = rechained(records, at, msgspec.structs.replace(records[at].event, pairings=swapped))
    failed = audit_tournament(battles, sets, done.tournament_id, forged)
    assert failed["status"] == "fail" and failed["failure"]["seq"] == records[at].seq
    assert "the rules pair" in failed["failure"]["reason"] and failed["digest"] is None
    # and when round 1's first result is turned around
    at = next(i for i, r in enumerate(records) if isinstance(r.event, RoundEnded))
    result = records[at].event.results[0]
    turned = msgspec.structs.replace(result, points_a=result.points_b, points_b=result.points_a)
    if turned == result:            # a draw turned around is the same draw: make it a win
        turned = msgspec.structs.replace(result, points_a=2, points_b=0)
    forged = rechained(records, at, msgspec.structs.replace(records[at].event,
                                                              results=[turned, *records[at].event.results[1:]]))
    failed = audit_tournament(battles, sets, done.tournament_id, forged)
    assert failed["failure"]["seq"] == records[at].seq and "its sets say otherwise" in failed["failure"]["reason"]


def test_an_elimination_bracket_gives_the_top_seeds_the_byes_and_ends_with_a_champion(world):
    battles, sets, tournaments = world
    done = tournaments.simulate("deckduel", "elimination", players=6, rounds=None, seed="3")
    first = done.ended_rounds[0].results
    # 6 entrants in a bracket of 8: seeds 1 and 2 (the first two in initial order) advance on byes
    assert sorted(p.a for p in first if p.b is None) == sorted(e.id for e in done.entrants)[:2]
    assert len(done.ended_rounds) == 3 and len(done.ended_rounds[-1].results) == 1
    final = done.ended_rounds[-1].results[0]
    assert done.ended.champion == (final.a if final.points_a > final.points_b else final.b)
    assert audit_tournament(battles, sets, done.tournament_id)["status"] == "ok"


@pytest.mark.parametrize(("fmt", "rounds", "field"), [("swiss", 0, "rounds"), ("swiss", None, "rounds"),
                                                      ("knockout", 3, "format")])
def test_a_bad_tournament_is_refused_naming_the_field_and_stores_nothing(world, fmt, rounds, field):
    battles, _, tournaments = world
    with pytest.raises(InvalidInput) as refused:
        tournaments.simulate("deckduel", fmt, players=4, rounds=rounds, seed="1")
    assert refused.value.field == field
    assert list(battles.store.recorder.select_notifications(None, 10, inclusive_of_start=True)) == []


def test_the_tournament_page_links_its_sets_and_its_audit_gives_the_digest(sqlite_url):
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.services import Settings, bootstrap

    services = bootstrap(Settings(database_url=sqlite_url))
    done = Tournaments(services.battles, services.sets).simulate("deckduel", "swiss", players=5, rounds=2, seed="2")
    with TestClient(create_app(services=services)) as client:
        page = client.get(f"/tournaments/{done.tournament_id}").json()
        assert page["finished"] and page["champion"] == done.ended.champion and len(page["rounds"]) == 2
        assert [s["id"] for s in page["standings"]] == [p.id for p in done.ended.standings]
        paired = [p for r in page["rounds"] for p in r["pairings"] if p["set_id"]]
        assert len(paired) == 4                     # 5 entrants: 2 sets and a bye a round
        assert client.get(f"/sets/{paired[0]['set_id']}").json()["finished"]
        audit = client.get(f"/tournaments/{done.tournament_id}/audit").json()
        assert audit["status"] == "ok" and audit["sets"] == 4 and len(audit["digest"]) == 64
        assert client.get("/tournaments/nope").status_code == 404


def relogged(events):
    """A log of `events`, seqs from 1 and every hash chained anew from the genesis."""
    out = []
    for seq, event in enumerate(events, start=1):
        out.append(record(out[-1].chain if out else GENESIS, seq, event))
    return out


def test_a_log_the_rules_could_not_have_written_fails_the_audit_though_every_hash_links(world):
    battles, sets, tournaments = world
    done = tournaments.simulate("deckduel", "swiss", players=4, rounds=3, seed="9")
    events = [r.event for r in tournaments.records(done.tournament_id)]
    first_end = next(i for i, e in enumerate(events) if isinstance(e, RoundEnded))

    def audited(edited):
        return audit_tournament(battles, sets, done.tournament_id, relogged(edited))

    # as written, it audits
    assert audited(events)["status"] == "ok"
    # ended after round 1 of 3, with the standings round 1 makes
    placed = final_standings(fold_tournament("x", relogged(events[:first_end + 1])))
    cut = audited([*events[:first_end + 1], TournamentEnded(standings=placed[0], champion=placed[1])])
    assert cut["status"] == "fail" and cut["failure"]["reason"] == "the tournament ended before its last round"
    # round 1's results without its first pairing's
    round_one = events[first_end]
    dropped = msgspec.structs.replace(round_one, results=round_one.results[1:])
    short = audited([*events[:first_end], dropped, *events[first_end + 1:]])
    assert short["failure"]["reason"] == "round 1's results are not those of its pairings and their sets"
    # a log that does not open with the tournament's creation
    headless = audited(events[1:])
    assert headless["failure"] == {"seq": 1,
                                   "reason": "a tournament's log opens with its TournamentCreated, and has one"}
    # an entrant joining once the rounds have begun
    late = audited([*events[:first_end + 1], events[1], *events[first_end + 1:]])
    assert late["failure"]["seq"] == first_end + 2 and "has started" in late["failure"]["reason"]
