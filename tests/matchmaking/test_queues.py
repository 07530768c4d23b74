"""Queues: tickets, waves that pair them into clocked battles, and refusals that store nothing."""
from __future__ import annotations

import msgspec
import pytest

from domain.battles import Battles
from domain.engine.battle import record
from domain.engine.chain import GENESIS
from domain.engine.clock import PRESETS
from domain.engine.errors import InvalidInput, SetupError
from domain.matchmaking.audit import audit_queue
from domain.matchmaking.decide import TicketClosed, TicketExists, UnknownTicket
from domain.matchmaking.events import TicketsPaired
from domain.matchmaking.formats import UnknownQueue
from domain.matchmaking.service import Queues
from domain.players import Players, UnknownPlayerToken
from tests.clocktime import T0

QUEUE = "deckduel-blitz"


@pytest.fixture
def world(sqlite_url, clock):
    with Battles(sqlite_url, now_ms=clock) as battles:
        players = Players(battles.store)
        ratings = {"alice": 30.0, "bob": 29.0, "carol": 10.0}
        queues = Queues(battles, players, lambda ruleset, player: ratings.get(player))
        tokens = {name: players.register(name).player_token for name in ("alice", "bob", "carol")}
        yield battles, queues, tokens


def test_a_wave_pairs_two_close_tickets_into_a_clocked_battle_each_owner_can_play(world, clock):
    battles, queues, tokens = world
    # given alice's ticket at T0 and bob's a second later (ratings 30 and 29: within the window of 2)
    alice = queues.open(QUEUE, tokens["alice"])["ticket"]
    clock.advance(1_000)
    bob = queues.open(QUEUE, tokens["bob"], {"character": "vex"})["ticket"]
    # when a wave runs at T0 + 2 s
    clock.advance(1_000)
    paired = queues.wave(QUEUE)
    # then one battle seats alice first (her ticket opened first) and bob second, with his character
    assert isinstance(paired, TicketsPaired) and paired.at_ms == T0 + 2_000
    [pairing] = paired.pairings
    assert pairing.seats == {"p1": alice, "p2": bob} and pairing.house == {}
    battle = battles.load(pairing.battle_id)
    assert battle.created.players == {"p1": "alice", "p2": "bob"}
    assert battle.created.setup["p2"] == {"character": "vex"}
    assert battle.clock is not None and battle.clock.spec == PRESETS["blitz"] and battle.clock.at_ms == T0 + 2_000
    # and each owner learns its seat and a seat token that acts for exactly that seat
    for name, ticket, seat in (("alice", alice, "p1"), ("bob", bob, "p2")):
        shown = queues.ticket(ticket, tokens[name])
        assert (shown["status"], shown["battle_id"], shown["seat"]) == ("paired", pairing.battle_id, seat)
        assert battles.seat_for_token(pairing.battle_id, shown["seat_token"]) == seat
    # and nobody else is told anything of a ticket
    with pytest.raises(UnknownTicket):
        queues.ticket(alice, tokens["bob"])
    assert queues.state(QUEUE).waiting == {} and queues.state(QUEUE).last_opponent == {"alice": "bob", "bob": "alice"}


def test_refusals_store_nothing(world):
    battles, queues, tokens = world
    queues.open(QUEUE, tokens["alice"])
    before = len(queues.records(QUEUE))
    with pytest.raises(UnknownQueue):
        queues.open("chess-bullet", tokens["bob"])
    with pytest.raises(TicketExists):                   # one ticket per player per queue
        queues.open(QUEUE, tokens["alice"])
    with pytest.raises(SetupError) as refused:          # the ruleset's own setup rules, naming the field
        queues.open(QUEUE, tokens["bob"], {"character": "nobody"})
    assert refused.value.field == "character"
    with pytest.raises(UnknownPlayerToken):
        queues.open(QUEUE, "forged")
    assert len(queues.records(QUEUE)) == before


def test_only_the_owner_cancels_and_a_cancelled_ticket_is_never_paired(world, clock):
    _, queues, tokens = world
    alice = queues.open(QUEUE, tokens["alice"])["ticket"]
    queues.open(QUEUE, tokens["bob"])
    with pytest.raises(UnknownTicket):                  # another player's token
        queues.cancel(alice, tokens["bob"])
    assert queues.cancel(alice, tokens["alice"])["status"] == "cancelled"
    with pytest.raises(TicketClosed):
        queues.cancel(alice, tokens["alice"])
    clock.advance(2_000)
    assert queues.wave(QUEUE) is None                   # bob alone, not yet due a house bot
    assert queues.ticket(alice, tokens["alice"])["status"] == "cancelled"


def test_a_ticket_left_waiting_plays_the_house_bot_after_backfill_after_s(world, clock):
    battles, queues, tokens = world
    # given alice (30) and carol (10): 20 points apart, far outside a fresh window of 2
    alice = queues.open(QUEUE, tokens["alice"])["ticket"]
    carol = queues.open(QUEUE, tokens["carol"])["ticket"]
    clock.advance(2_000)
    assert queues.wave(QUEUE) is None
    # when both have waited 60 s (the window then: 2 + 0.4 * 60 = 26 points, enough for 20) they
    # pair with each other, not with the house
    clock.advance(58_000)
    [pairing] = queues.wave(QUEUE).pairings
    assert set(pairing.seats.values()) == {alice, carol} and pairing.house == {}
    # and a lone ticket that has waited 60 s plays the queue's house bot in the second seat
    bob = queues.open(QUEUE, tokens["bob"])["ticket"]
    clock.advance(60_000)
    [house] = queues.wave(QUEUE).pairings
    assert house.seats == {"p1": bob} and house.house == {"p2": "greedy"}
    assert battles.load(house.battle_id).created.players == {"p1": "bob", "p2": {"bot": "greedy"}}


def test_two_workers_racing_a_wave_pair_each_ticket_once(sqlite_url, clock):
    # given two services on one store, and four waiting tickets
    with Battles(sqlite_url, now_ms=clock) as one, Battles(sqlite_url, now_ms=clock) as two:
        players = Players(one.store)
        tokens = {n: players.register(n).player_token for n in ("a", "b", "c", "d")}
        first, second = Queues(one, players), Queues(two, Players(two.store))
        for name in tokens:
            first.open(QUEUE, tokens[name])
        second.state(QUEUE)                         # the second has read the queue as it was
        clock.advance(2_000)
        # when both run the wave
        ran = [first.wave(QUEUE), second.wave(QUEUE)]
        # then one wave is recorded: the second found the tickets paired and made no battle
        assert ran[0] is not None and ran[1] is None
        waves = [r for r in first.records(QUEUE) if isinstance(r.event, TicketsPaired)]
        assert len(waves) == 1 and len(waves[0].event.pairings) == 2


def test_the_audit_re_derives_every_wave_and_catches_a_hand_edited_pairing(world, clock):
    battles, queues, tokens = world
    # given a queue whose wave paired alice and bob
    for name in ("alice", "bob"):
        queues.open(QUEUE, tokens[name])
        clock.advance(500)
    clock.advance(2_000)
    queues.wave(QUEUE)
    records = queues.records(QUEUE)
    report = audit_queue(QUEUE, records)
    assert report["status"] == "ok" and (report["waves"], report["battles"]) == (1, 1)
    assert report["head"] == records[-1].chain and len(report["digest"]) == 64
    # when the wave is edited to seat bob first, and the log re-chained so every hash still links
    wave = records[-1]
    [pairing] = wave.event.pairings
    swapped = msgspec.structs.replace(pairing, seats={"p1": pairing.seats["p2"], "p2": pairing.seats["p1"]})
    edited = msgspec.structs.replace(wave.event, pairings=[swapped])
    forged = [*records[:-1], record(records[-2].chain, wave.seq, edited)]
    # then the audit fails at that wave, saying what the rules pair instead
    failed = audit_queue(QUEUE, forged)
    assert failed["status"] == "fail" and failed["failure"]["seq"] == wave.seq and failed["digest"] is None
    assert "the rules pair" in failed["failure"]["reason"]
    # and an edit left unchained fails at its hash
    broken = [*records[:-1], msgspec.structs.replace(wave, event=edited)]
    assert "chain" in audit_queue(QUEUE, broken)["failure"]["reason"]


def test_rat_queues_a_player_against_a_player_who_plays_the_enemies(world, clock):
    battles, queues, tokens = world
    alice = queues.open("rat-duel", tokens["alice"])["ticket"]
    clock.advance(1)                                            # alice's ticket opened first: p1
    bob = queues.open("rat-duel", tokens["bob"])["ticket"]
    with pytest.raises(InvalidInput) as refused:                # the battle starts from the queue's setup
        queues.open("rat-duel", tokens["carol"], {"party": []})
    assert refused.value.field == "setup"
    clock.advance(2_000)
    [pairing] = queues.wave("rat-duel").pairings
    assert pairing.seats == {"p1": alice, "p2": bob} and pairing.house == {}
    created = battles.load(pairing.battle_id).created
    assert created.players == {"p1": "alice", "p2": "bob"} and created.setup["enemy_seat"] is True


def test_two_heroes_queue_into_one_side_against_the_house_game_master(world, clock):
    battles, queues, tokens = world
    # given alice and bob (30 and 29: close) as single seats of battleboard's heroes side
    alice = queues.open("battleboard-heroes", tokens["alice"])["ticket"]
    clock.advance(1)                                            # alice's ticket opened first: h1
    bob = queues.open("battleboard-heroes", tokens["bob"])["ticket"]
    clock.advance(2_000)
    # then a wave seats them as h1 and h2, and the house's game master plays the foes
    [pairing] = queues.wave("battleboard-heroes").pairings
    assert pairing.seats == {"h1": alice, "h2": bob} and pairing.house == {"gm": "memory"}
    assert battles.load(pairing.battle_id).created.players == {"h1": "alice", "h2": "bob", "gm": {"bot": "memory"}}
    # and a hero left alone for 60 s gets a house partner as well
    carol = queues.open("battleboard-heroes", tokens["carol"])["ticket"]
    clock.advance(60_000)
    [alone] = queues.wave("battleboard-heroes").pairings
    assert alone.seats == {"h1": carol} and alone.house == {"h2": "memory", "gm": "memory"}


def test_the_audit_holds_tickets_and_times_to_the_rules_though_every_hash_links(world, clock):
    _, queues, tokens = world
    # given alice's ticket, cancelled, then bob's and carol's, paired by a wave
    alice = queues.open(QUEUE, tokens["alice"])["ticket"]
    clock.advance(100)
    queues.cancel(alice, tokens["alice"])
    for name in ("bob", "alice"):
        clock.advance(100)
        queues.open(QUEUE, tokens[name])
    clock.advance(2_000)
    queues.wave(QUEUE)
    events = [r.event for r in queues.records(QUEUE)]
    assert [type(e).__name__ for e in events] == ["TicketOpened", "TicketCancelled", "TicketOpened", "TicketOpened",
                                                   "TicketsPaired"]

    def audited(edited):
        out = []
        for seq, event in enumerate(edited, start=1):
            out.append(record(out[-1].chain if out else GENESIS, seq, event))
        return audit_queue(QUEUE, out)["failure"]

    assert audited(events) is None
    # alice's second ticket while her first still waits (the cancellation dropped)
    assert audited([events[0], *events[2:]]) == {"seq": 3, "reason": f"alice already waits in {QUEUE} with "
                                                                      f"ticket {alice}"}
    # a ticket cancelled twice
    assert audited([*events[:2], events[1], *events[2:]])["seq"] == 3
    # the wave's time moved before the last ticket's
    early = msgspec.structs.replace(events[-1], at_ms=events[-2].at_ms - 1)
    assert audited([*events[:-1], early])["reason"].startswith("its time")
