"""Every event type of every ruleset, the engine and sets goes through every channel and comes
back as it was: chained (the bytes an auditor hashes from the JSON), stored and loaded by the
store's mapper, sent on the wire (whole, and redacted for a spectator) and decoded.

The events are real: taken from the coverage run's battles (`coverage.py`), a ring set played
in memory as a live set is decided, a skirmish forfeit (no bot ever forfeits), a clocked
battle lost on time after an outage's credit, and a queue's and a tournament's logs as their
services decide them. The same
run must reach every content entry but those listed below, each with the reason it cannot.
"""
from __future__ import annotations

import importlib
import uuid
from collections import defaultdict
from functools import cache

import orjson
import pytest

from domain.ai import get_policy
from domain.ai.match import play, seeded_bytes
from domain.engine import events as engine_events
from domain.engine.battle import decide_batch, open_battle
from domain.engine.chain import GENESIS, canonical_bytes, canonical_event, chain_events, chain_of
from domain.engine.clock import parse_clock
from domain.engine.events import EVENT_MODULES, OMNISCIENT, SPECTATOR, Event, Recorded, decode_record, wire_event
from domain.engine.ruleset import get_ruleset
from domain.engine.timeouts import credit_outage, decide_timeout, timeout_due
from domain.rulesets.ring.events import LpRestored
from domain.sets import BattleResult, SetCreated, decide_battle_end, start_battle
from domain.sets import chain_events as chain_set_events
from domain.matchmaking.decide import cancel_ticket, decide_wave, open_ticket
from domain.matchmaking.formats import queue_format
from domain.matchmaking.state import QueueState
from domain.matchmaking.state import chain_events as chain_queue_events
from domain.store import BattleMapper, StoredRecord
from domain.tournaments.decide import final_standings, next_pairings, result_of
from domain.tournaments.events import (Paired, PlayerJoined, RoundEnded, RoundPaired, TiebreakStarted,
                                       TournamentCreated, TournamentEnded)
from domain.tournaments.state import TournamentState
from domain.tournaments.state import chain_events as chain_tournament_events
from tests.replays.record import players_for

from .coverage import REACH, run, unreached

# Event types no battle can produce, each built by hand, with why no battle produces it.
BUILT: dict[str, tuple[Event, str]] = {
    "ring.LpRestored": (LpRestored(unit="p1.grizzlor", amount=1),
                        "the `lp` step restores LP at a positive power only, and no ability or item has one"),
}
# Content the coverage run cannot reach, by ruleset and kind, and why.
UNREACHABLE: dict[str, dict[str, dict[str, str]]] = {
    "rat": {"actions": {"siphon": "no member learns it and no enemy's moveset has it"}},
}


def event_types() -> dict[str, type[Event]]:
    """Every event class of the code base by topic (not those a test defines)."""
    for module in EVENT_MODULES:
        importlib.import_module(module)
    return {topic: cls for topic, cls in engine_events._TOPICS.items() if cls.__module__.startswith("domain.")}


def chained(records: list[Recorded]) -> list[tuple[str, Recorded]]:
    """Each record with the chain before it."""
    return list(zip([GENESIS, *(r.chain for r in records[:-1])], records))


def ring_set() -> list[tuple[str, Recorded]]:
    """A two-battle ring set, its battles played by random bots, its events decided and chained
    as a live set's are: SetCreated, then per battle SetBattleStarted and SetBattleFinished,
    then SetEnded."""
    ruleset = get_ruleset("ring")
    setup = ruleset.fresh_setup()
    players = players_for(ruleset, setup)
    created = SetCreated(set_id=str(uuid.UUID(int=1)), ruleset=ruleset.id, ruleset_version=ruleset.version,
                         content_hash=ruleset.content_hash, players=players, games=2, mode="all", public_setup=setup,
                         setup=setup, created_at="2026-01-01T00:00:00Z")
    state, records = chain_set_events(None, [created])
    decision = start_battle(state, ruleset, "set-battle-1")
    while decision.next_setup is not None:
        state, decided = chain_set_events(state, decision.events)
        records += decided
        n = len(state.battles)
        match = play(ruleset, {seat: get_policy("random", "ring") for seat in players},
                     battle_id=state.battles[-1].battle_id, setup=decision.next_setup, players=players,
                     revealed=seeded_bytes("set", n), bot_seed=seeded_bytes("set-bots", n))
        decision = decide_battle_end(state, BattleResult.of(match.state), ruleset, f"set-battle-{n + 1}")
    state, decided = chain_set_events(state, decision.events)
    return chained(records + decided)


def skirmish_forfeit() -> list[tuple[str, Recorded]]:
    """A skirmish battle p1 forfeits as soon as it opens (a forfeit is valid at any time)."""
    ruleset = get_ruleset("skirmish")
    setup = ruleset.fresh_setup()
    state, records = open_battle(ruleset, battle_id="forfeit", setup=setup, players=players_for(ruleset, setup),
                                 revealed=seeded_bytes("forfeit"), created_at="2026-01-01T00:00:00Z")
    _, batch = decide_batch(ruleset, state, "p1", {"type": "forfeit"})
    return chained(records + batch)


def clocked_battle() -> list[tuple[str, Recorded]]:
    """A deckduel battle on a clock that plays on (`auto`): both seats keep their hands, the
    server credits an outage, then p1 never moves again: the rules move for it until it has had
    `max_auto` in a row, and its next timeout forfeits."""
    ruleset, at = get_ruleset("deckduel"), 1_767_225_600_000
    setup = ruleset.fresh_setup()
    spec = parse_clock({"bank_ms": 10_000, "on_timeout": "auto", "max_auto": 2})
    state, records = open_battle(ruleset, battle_id="clocked", setup=setup, players=players_for(ruleset, setup),
                                 revealed=seeded_bytes("clocked"), created_at="2026-01-01T00:00:00Z",
                                 clock=spec, clock_at_ms=at)
    for seat in ("p1", "p2"):
        state, batch = decide_batch(ruleset, state, seat, {"type": "mulligan", "cards": []}, at_ms=at + 1_000)
        records += batch
    state, batch = credit_outage(ruleset, state, at + 2_000, at + 7_000, "outage")
    records += batch
    while state.outcome is None:
        due, seat = timeout_due(state) or (0, "")
        state, batch = decide_timeout(ruleset, state, seat, due)
        records += batch
    return chained(records)


def queue_log() -> list[tuple[str, Recorded]]:
    """A queue's log as its service decides it: three tickets (one with a setup part), one
    cancelled, a wave that pairs two of them, a ticket left to the house bot."""
    fmt, at = queue_format("deckduel-blitz"), 1_767_225_600_000
    state, records = QueueState(queue=fmt.id), []
    for i, (player, rating) in enumerate((("alice", 30.0), ("bob", 29.5), ("carol", 10.0))):
        opened = open_ticket(state, fmt, ticket=f"t{i}", player=player, rating=rating, at_ms=at + i,
                             setup={"character": "vex"} if i == 1 else None, seat_token_hash="ab" * 32)
        state, done = chain_queue_events(state, opened)
        records += done
    state, done = chain_queue_events(state, cancel_ticket(state, "t2", "carol", at + 5))
    records += done
    state, done = chain_queue_events(state, [decide_wave(state, fmt, at + 2_000, ["b1"])])
    records += done
    state, done = chain_queue_events(state, open_ticket(state, fmt, ticket="t3", player="dan", rating=25.0,
                                                        at_ms=at + 2_000, setup=None, seat_token_hash="cd" * 32))
    records += done
    _, done = chain_queue_events(state, [decide_wave(state, fmt, at + 70_000, ["b2"])])   # the house fills in
    return chained(records + done)


def tournament_log() -> list[tuple[str, Recorded]]:
    """An elimination tournament of three, its final drawn once and decided by a tiebreak set."""
    created = TournamentCreated(tournament_id="t", name="t", ruleset="deckduel", format="elimination", rounds=None,
                                games=1, mode="best_of", clock=None, created_at="2026-01-01T00:00:00Z")
    state, records = chain_tournament_events(TournamentState(tournament_id="t"), [created])
    joined = [PlayerJoined(player=p, rating=25.0 + i, bot=None if i else "greedy", token_hash="ef" * 32 if i else None)
              for i, p in enumerate(("house:greedy#1", "alice", "bob"))]
    state, done = chain_tournament_events(state, joined)
    records += done
    while (pairs := next_pairings(state)) is not None:
        paired = RoundPaired(round=len(state.ended_rounds) + 1,
                             pairings=[Paired(a=a, b=b, set_id=None if b is None else f"s{a}") for a, b in pairs])
        results = [result_of(created, a, b, ["p1"] if len(pairs) > 1 else [None, "p2"],
                             [] if b is None else [f"s{a}", *(["tb"] if len(pairs) == 1 else [])])
                   for a, b in pairs]
        extra = [TiebreakStarted(round=paired.round, a=pairs[0][0], set_id="tb")] if len(pairs) == 1 else []
        state, done = chain_tournament_events(state, [paired, *extra, RoundEnded(round=paired.round, results=results)])
        records += done
    placed, champion = final_standings(state)
    state, done = chain_tournament_events(state, [TournamentEnded(standings=placed, champion=champion)])
    return chained(records + done)


@cache
def played() -> dict[str, list[tuple[str, Recorded]]]:
    """Event topic -> records of it (each with the chain before it) from real battles and sets."""
    found: dict[str, list[tuple[str, Recorded]]] = defaultdict(list)
    for ruleset_id in sorted(REACH):
        for topic, kept in run(ruleset_id).samples.items():
            found[topic] += kept
    for previous, rec in ring_set() + skirmish_forfeit() + clocked_battle() + queue_log() + tournament_log():
        found[rec.event.TOPIC].append((previous, rec))
    return found


def samples(topic: str) -> list[tuple[str, Recorded]]:
    if topic in BUILT:
        out: list[Recorded] = []
        chain_events(GENESIS, 0, [BUILT[topic][0]], out)
        return chained(out)
    return played()[topic]


def test_every_event_type_comes_up_in_a_played_battle_or_set_but_those_built_by_hand():
    assert sorted(set(event_types()) - set(played())) == sorted(BUILT)


@pytest.mark.parametrize("topic", sorted(event_types()))
def test_an_event_type_goes_through_the_chain_the_store_and_the_wire_and_back(topic):
    mapper, battle = BattleMapper(), uuid.uuid4()
    assert samples(topic)
    for previous, rec in samples(topic):
        whole = orjson.loads(orjson.dumps(wire_event(rec, OMNISCIENT, True)))
        assert decode_record(whole["seq"], whole["type"], whole["data"], whole["chain"], whole.get("v", 1)) == rec
        # what an auditor hashes from the JSON line, and what the chain encoder hashed
        assert canonical_event(rec.seq, rec.event) == canonical_bytes(rec.seq, topic, whole["data"])
        assert chain_of(previous, rec.seq, topic, whole["data"]) == rec.chain
        assert mapper.to_domain_event(mapper.to_stored_event(StoredRecord(battle, rec))) == rec
        shown = orjson.loads(orjson.dumps(wire_event(rec, SPECTATOR, False)))
        assert shown["chain"] is None and (shown.get("redacted") or shown["data"] == whole["data"])


@pytest.mark.parametrize("ruleset_id", sorted(REACH))
def test_no_battle_of_the_coverage_run_fails(ruleset_id):
    assert run(ruleset_id).failed == {}


@pytest.mark.parametrize("ruleset_id", sorted(REACH))
def test_the_coverage_run_reaches_every_content_entry_but_the_unreachable_ones(ruleset_id):
    expected = {kind: sorted(ids) for kind, ids in UNREACHABLE.get(ruleset_id, {}).items()}
    assert unreached(ruleset_id) == expected
