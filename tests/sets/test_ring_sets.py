"""A ring set through `domain.sets.Sets`: a live set whose battles bots play command by
command moves on by itself, carries LP and EXS from battle to battle by ring's own rules,
and audits to one digest; a simulated set plays exactly the golden set."""
from __future__ import annotations

import pytest

from domain.ai import get_policy
from domain.battles import Battles
from domain.engine.events import Viewer
from domain.engine.rng import Rng
from domain.engine.ruleset import get_ruleset
from domain.rulesets.ring.carry import apply_carry, next_carry
from domain.rulesets.ring.events import DeckBuilt
from domain.sets import SetBattleFinished, SetBattleStarted, SetCreated, SetEnded, Sets
from replays.audit import audit_set
from tests.golden.ring_playthroughs import PLAYERS, SET_SEED, SET_SETUP, ring_set

RING = get_ruleset("ring")
BOTS = {"p1": get_policy("greedy", "ring"), "p2": get_policy("random", "ring")}


@pytest.fixture
def sets(sqlite_url):
    with Battles(sqlite_url) as battles:
        yield Sets(battles)


def play_battle(battles: Battles, battle_id: str, rng: Rng, limit: int = 5000) -> None:
    """The bots play a stored battle to its end, one `submit` at a time, each seeing only its
    seat's view and legal commands."""
    for _ in range(limit):
        state = battles.load(battle_id)
        if state.outcome is not None:
            return
        seat = sorted(RING.awaiting(state.game))[0]
        bot = BOTS[seat]
        view = battles.view(battle_id, Viewer(seat=seat))["state"] if bot.needs_view else None
        battles.submit(battle_id, seat, bot.choose(view, battles.legal(battle_id, seat, state), rng))
    raise AssertionError(f"battle {battle_id} did not end within {limit} commands")


@pytest.fixture
def live_set(sets):
    """A set of three ring battles (teams of two, so units sit out), played to its end."""
    made = sets.create("ring", PLAYERS, SET_SETUP, games=3, mode="all")
    rng = Rng(b"ring-live-set")
    for _ in range(3):
        found = sets.get(made.set_id)
        assert not found["finished"]
        play_battle(sets.battles, found["current_battle"], rng)
    return made.set_id


def test_a_live_ring_set_plays_three_battles_and_ends(sets, live_set):
    found = sets.get(live_set)
    assert found["finished"] and found["current_battle"] is None
    assert [b["index"] for b in found["battles"]] == [0, 1, 2]
    winners = [sets.battles.load(b["battle_id"]).outcome.winner for b in found["battles"]]
    assert [b["winner"] for b in found["battles"]] == winners
    assert found["score"] == {seat: winners.count(seat) for seat in PLAYERS}
    events = [r.event for r in sets.records(live_set)]
    assert [type(e) for e in events] == [SetCreated] + [SetBattleStarted, SetBattleFinished] * 3 + [SetEnded]


def test_each_recorded_carry_is_rings_next_carry_of_that_battle(sets, live_set):
    events = [r.event for r in sets.records(live_set)]
    base = events[0].setup
    started = [e for e in events if isinstance(e, SetBattleStarted)]
    finished = [e for e in events if isinstance(e, SetBattleFinished)]
    assert started[0].carry is None
    for start, done in zip(started, finished, strict=True):
        battle = sets.battles.load(done.battle_id)
        expected = next_carry(start.carry, apply_carry(base, start.carry), battle.game, battle.outcome.winner)
        assert done.carry == expected
        assert (done.battle_id, done.winner, done.head) == (start.battle_id, battle.outcome.winner, battle.chain)
    # Each battle starts from the carry the one before it ended with.
    assert [s.carry for s in started[1:]] == [f.carry for f in finished[:-1]]


def test_battle_two_is_built_from_battle_ones_carry(sets, live_set):
    events = [r.event for r in sets.records(live_set)]
    carry = next(e for e in events if isinstance(e, SetBattleFinished)).carry
    second = next(e for e in events if isinstance(e, SetBattleStarted) and e.index == 1).battle_id
    records = sets.battles.records(second)
    # The carry-over is public: it is in the battle's setup as each seat's condition.
    assert {seat: records[0].event.setup[seat]["condition"] for seat in PLAYERS} == carry
    built = {r.event.seat: r.event.fighters for r in records if isinstance(r.event, DeckBuilt)}
    for seat in PLAYERS:
        assert {f["unit"]: {"lp": f["lp"], "exs": f["exs"]} for f in built[seat]} == carry[seat]
        # A unit out of LP enters removed; every other enters at full (exhausted) HP.
        assert all(f["removed"] == (f["lp"] == 0) and f["hp"] == (0 if f["lp"] == 0 else f["max_hp"])
                   for f in built[seat])


def test_the_live_ring_set_audits_ok_to_its_head_hash(sets, live_set):
    report = audit_set(sets.battles, sets, live_set)
    assert (report["status"], report["problems"], report["games"], report["mode"]) == ("ok", [], 3, "all")
    assert [row["status"] for row in report["battles"]] == ["ok", "ok", "ok"]
    head = sets.records(live_set)[-1].chain
    assert report["digest"] == sets.get(live_set)["head"] == head
    assert report["carry"] == sets.load(live_set).carry


def test_a_simulated_ring_set_plays_the_golden_set(sets):
    done = sets.simulate("ring", BOTS, games=3, mode="all", seed=SET_SEED, setup=SET_SETUP, players=PLAYERS)
    golden = ring_set()
    for i, (entry, pinned) in enumerate(zip(done.battles, golden, strict=True)):
        stored = sets.battles.records(entry.battle_id)
        # After BattleCreated (its id and time), every event is the pinned one.
        assert [r.event for r in stored[1:]] == [r.event for r in pinned.records[1:]]
        assert entry.carry == (golden[i - 1].carry if i else None)
    assert done.carry == golden[-1].carry
