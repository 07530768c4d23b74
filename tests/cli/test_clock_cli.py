"""Clocks on the command line: `ringside simulate --clock` plays clocked battles and sets in
deterministic virtual time (`--think-ms` per move), whose replays verify, timeouts included;
bad values are one `error:` line; `ringside rulesets` lists the presets; `ringside bot` reads
its seat's time from the view's clock."""
from __future__ import annotations

import dataclasses
import os
import subprocess
from typing import Any

import httpx
import msgspec
import orjson
import pytest

from api import cli_bot
from api.cli_bot import move_timeout, others_wait, play_seat, time_left_ms
from api.routes.rulesets import list_rulesets
from domain.battles import Battles
from domain.engine.battle import BattleState
from domain.engine.clock import PRESETS, ClockSpec
from domain.engine.events import Recorded
from domain.engine.ruleset import get_ruleset
from domain.engine.timeouts import ABORTED, NO_FIRST_MOVE, TIME_FORFEIT
from domain.engine.timing import Clocked, TimedOut
from domain.sets import Sets
from tests.api.helpers import PLAYERS
from tests.api.server import free_port, serving
from tests.cli.helpers import RINGSIDE, assert_clean_error, assert_every_replay_verifies, run, run_json

DB = "sqlite:///sim.db"


def simulate(work, *args: str) -> Any:
    return run_json("simulate", "--ruleset", "deckduel", "--db", DB, "--json", *args, cwd=work)


def loaded(work) -> Battles:
    return Battles(f"sqlite:///{work / 'sim.db'}")


def stored(work, out: Any) -> list[tuple[BattleState, list[Recorded]]]:
    """Each battle a simulation names, as stored: its state and its log."""
    with loaded(work) as battles:
        return [(battles.load(bid), battles.records(bid)) for bid in out["battle_ids"]]


def test_simulate_with_a_preset_plays_clocked_battles_that_verify(tmp_path):
    # given three blitz battles of bots thinking the default second a move
    out = simulate(tmp_path, "--battles", "3", "--seed", "4", "--clock", "blitz")
    # then each battle ran the clock in virtual time from 0, and none ran out of time
    assert out["timeouts"] == 0
    for state, records in stored(tmp_path, out):
        assert state.clock.spec == PRESETS["blitz"] and not state.clock.first_move_loses
        times = [r.event.at_ms for r in records if isinstance(r.event, Clocked)]
        # every move takes its second: accept times are whole seconds, never going back
        assert times == sorted(times) and all(t % 1000 == 0 for t in times) and times[0] == 1000
    assert_every_replay_verifies(tmp_path, out["battle_ids"])


def test_the_same_seed_plays_the_same_clocks(tmp_path):
    first = simulate(tmp_path, "--battles", "2", "--seed", "9", "--clock", "rapid")
    again = run_json("simulate", "--ruleset", "deckduel", "--db", "sqlite:///again.db", "--json", "--battles", "2",
                     "--seed", "9", "--clock", "rapid", cwd=tmp_path)
    with loaded(tmp_path) as one, Battles(f"sqlite:///{tmp_path / 'again.db'}") as two:
        for a, b in zip(first["battle_ids"], again["battle_ids"], strict=True):
            # after BattleCreated (battle id, time) every event is the same, clock events included
            assert [r.event for r in one.records(a)[1:]] == [r.event for r in two.records(b)[1:]]


def test_a_bot_that_never_moves_in_time_aborts_the_battle(tmp_path):
    # given p2 thinking 40 s over its first move, past blitz's 30 s first-move limit
    out = simulate(tmp_path, "--battles", "2", "--clock", "blitz", "--think-ms", "1000,40000")
    # then each battle aborts at 30 s + 1 s of grace, unrated, with no winner
    assert out["timeouts"] == 2
    for state, records in stored(tmp_path, out):
        timed_out = [r.event for r in records if isinstance(r.event, TimedOut)]
        assert timed_out == [TimedOut(seat="p2", at_ms=31_000, consequence="abort")]
        assert (state.outcome.winner, state.outcome.reason) == (None, ABORTED)
    assert_every_replay_verifies(tmp_path, out["battle_ids"])


def test_a_bot_past_its_bank_loses_on_time_or_gets_automatic_moves(tmp_path):
    # given a 5 s bank, no first-move limit, and p2 thinking 6 s a move
    forfeit = simulate(tmp_path, "--clock", '{"bank_ms": 5000}', "--think-ms", "1000,6000")
    with loaded(tmp_path) as battles:
        bid = forfeit["battle_ids"][0]
        # then p2's mulligan would arrive at 6 s, when its 5 s bank and 1 s of grace are gone
        assert [r.event for r in battles.records(bid) if isinstance(r.event, TimedOut)] == \
            [TimedOut(seat="p2", at_ms=6000, consequence="forfeit")]
        assert battles.load(bid).outcome.reason == TIME_FORFEIT
    # and with auto the rules move for p2 instead, until its third automatic move in a row
    auto = simulate(tmp_path, "--clock", '{"bank_ms": 5000, "on_timeout": "auto"}', "--think-ms", "1000,6000")
    with loaded(tmp_path) as battles:
        bid = auto["battle_ids"][0]
        found = [r.event.consequence for r in battles.records(bid) if isinstance(r.event, TimedOut)]
        assert found[0] == "auto" and found[-1] in ("auto", "forfeit")
    assert_every_replay_verifies(tmp_path, [forfeit["battle_ids"][0], auto["battle_ids"][0]])


def test_a_clock_from_a_file_and_simulated_sets(tmp_path):
    (tmp_path / "clock.json").write_text('{"preset": "blitz", "grace_ms": 500}')
    out = simulate(tmp_path, "--set", "3", "--clock", "@clock.json", "--think-ms", "1000,40000")
    # then in a set a seat that never moves loses the battle: p1 wins 2-0 at 30.5 s each time
    with loaded(tmp_path) as battles:
        found = Sets(battles).get(out["set_ids"][0])
        assert found["score"] == {"p1": 2, "p2": 0}
        assert found["clock"] == msgspec.to_builtins(ClockSpec(bank_ms=180_000, increment_ms=2000, grace_ms=500,
                                                                first_move_ms=30_000))
    for state, _ in stored(tmp_path, out):
        assert (state.outcome.reason, state.clock.at_ms) == (NO_FIRST_MOVE, 30_500)


@pytest.mark.parametrize(("args", "needle"), [
    (["--clock", "bullet"], "--clock: unknown preset 'bullet'; presets: blitz, rapid, bank, correspondence"),
    (["--clock", '{"bank_ms": 0}'], "--clock.bank_ms: an integer from 1 to"),
    (["--clock", '{"preset": "blitz", "tempo": 1}'], "--clock.tempo: unknown clock field"),
    (["--clock", '{"bank_ms": null}'], "--clock.turn_max_ms: a clock with no bank needs a turn maximum"),
    (["--clock", "{bad"], "--clock is not valid JSON"),
    (["--clock", "@missing.json"], "--clock: cannot read missing.json"),
    (["--think-ms", "500"], "--think-ms paces clocked battles: give --clock too"),
    (["--clock", "blitz", "--think-ms", "fast"], "--think-ms: 'fast' is not a whole number of milliseconds"),
    (["--clock", "blitz", "--think-ms", "1,2,3"], "--think-ms needs one time, or 2, one per seat (p1,p2)"),
])
def test_a_bad_clock_is_one_error_line_and_nothing_stored(tmp_path, args, needle):
    done = run("simulate", "--ruleset", "deckduel", "--db", DB, *args, cwd=tmp_path)
    assert_clean_error(done, needle)
    assert not (tmp_path / "sim.db").exists()


def test_rulesets_lists_the_recommended_clock_and_the_presets(tmp_path):
    out = run_json("rulesets", "--json", cwd=tmp_path)
    assert out["clock_presets"]["bank"] == {"bank_ms": 150_000, "increment_ms": 10_000, "turn_max_ms": 150_000,
                                            "grace_ms": 1000, "first_move_ms": 60_000, "on_timeout": "forfeit",
                                            "max_auto": 3}
    assert list(out["clock_presets"]) == list(PRESETS)
    assert all("recommended_clock" in row for row in out["rulesets"])
    text = run("rulesets", cwd=tmp_path).stdout.splitlines()
    at = text.index("clock presets:")
    assert text[at + 2].split() == ["blitz", "3min", "2s", "-", "1s", "30s", "forfeit", "(3)"]
    assert text[at + 5].split() == ["correspondence", "-", "0", "1d", "1min", "1d", "forfeit", "(3)"]


def test_a_ruleset_may_recommend_a_preset_and_only_a_preset(tmp_path, monkeypatch):
    duel = dataclasses.replace(get_ruleset("deckduel"), recommended_clock="blitz")
    with pytest.raises(ValueError, match="recommended_clock 'bullet' is not a clock preset"):
        dataclasses.replace(duel, recommended_clock="bullet")
    # and the recommendation is listed by ringside rulesets and GET /rulesets
    monkeypatch.setattr("api.cli.all_rulesets", lambda: {"deckduel": duel})
    monkeypatch.setattr("api.routes.rulesets.all_rulesets", lambda: {"deckduel": duel})
    assert run_json("rulesets", "--json", cwd=tmp_path)["rulesets"][0]["recommended_clock"] == "blitz"
    assert run("rulesets", cwd=tmp_path).stdout.splitlines()[0].endswith("clock blitz")
    listed = orjson.loads(list_rulesets().body)
    assert listed["rulesets"][0]["recommended_clock"] == "blitz"
    assert listed["clock_presets"]["blitz"] == msgspec.to_builtins(PRESETS["blitz"])


# -- ringside bot ---------------------------------------------------------------------------
# A view's clock, as of at_ms 10,000: p1's runs with 8 s left then, p2's is stopped at 60 s.
CLOCK = {"at_ms": 10_000,
         "seats": {"p1": {"remaining_ms": 8000, "running": True}, "p2": {"remaining_ms": 60_000, "running": False}}}


def test_the_bot_reads_its_time_left_from_the_views_clock():
    # a running clock ticks down from at_ms: 8 s - (12 s - 10 s) = 6 s; a stopped one does not
    assert time_left_ms(CLOCK, "p1", 12_000) == 6000
    assert time_left_ms(CLOCK, "p2", 12_000) == 60_000
    assert time_left_ms(None, "p1", 12_000) is None
    # a request of p1's move may take half its time left (3 s), at most --wait, at least 0.5 s
    assert move_timeout(CLOCK, "p1", 12_000, wait=60) == 3.0
    assert move_timeout(CLOCK, "p1", 17_900, wait=60) == 0.5
    assert move_timeout(None, "p1", 12_000, wait=60) == 60
    # p2 waits for p1 as long as p1's 6 s and 1 s of grace last, plus 5 s: 12 s, or --wait if longer
    assert others_wait(CLOCK, "p2", 12_000, wait=1, grace_ms=1000) == 12.0
    assert others_wait(CLOCK, "p2", 12_000, wait=60, grace_ms=1000) == 60
    assert others_wait(CLOCK, "p1", 12_000, wait=1, grace_ms=1000) == 1     # nobody else's clock runs


class FakeSeat:
    """A seat client whose first move is refused with `time_out`; then the server has
    recorded the timeout, and the battle has ended."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.ended = False
        self.battle_id = "b"

    def get(self, path: str, timeout: float | None = None) -> Any:
        self.calls.append(("get", path))
        if path == "/legal":
            return {"seat": "p1", "seq": 7, "ended": self.ended, "legal": [{"type": "pass"}]}
        return {"ruleset": "deckduel", "state": {}, "outcome": {"winner": "p2"} if self.ended else None,
                "clock": {**CLOCK, "at_ms": cli_bot.wall_ms()}}

    def act(self, command: dict[str, Any], expected_seq: int, timeout: float | None = None) -> httpx.Response:
        self.calls.append(("act", timeout))
        return httpx.Response(409, json={"error": {"code": "time_out", "message": "p1's time ran out"}})

    def wait_after(self, seq: int, timeout: float) -> None:
        self.calls.append(("wait", seq))
        self.ended = True


def test_a_move_refused_for_time_waits_for_the_servers_timeout():
    seat = FakeSeat()
    final = play_seat(seat, "random", "0", 60.0)   # type: ignore[arg-type]
    # then the bot tried once, with half its 8 s as the request's limit, then waited for the
    # timeout batch after seq 7 instead of trying again, and returned the ended battle
    acts = [call for call in seat.calls if call[0] == "act"]
    assert len(acts) == 1 and acts[0][1] == pytest.approx(4.0, abs=0.1)
    assert ("wait", 7) in seat.calls and final["outcome"] == {"winner": "p2"}


def test_a_lone_bot_waits_out_the_absent_seats_clock_on_a_live_server(tmp_path):
    # given a server, and a battle whose absent p2 has 2 s (and 0.2 s of grace) for its first move
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGSIDE_")}
    serve = [RINGSIDE, "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'r.db'}"]
    with serving(serve, env, port, cwd=tmp_path) as url, httpx.Client(base_url=url, timeout=10) as http:
        clock = {"bank_ms": 60_000, "first_move_ms": 2000, "grace_ms": 200}
        made = http.post("/battles", json={"ruleset": "deckduel", "players": PLAYERS, "clock": clock}).json()
        # when only p1's bot plays, told to give the other side 1 s
        done = subprocess.run([RINGSIDE, "bot", "--url", url, "--battle", made["battle_id"], "--token",
                               made["seat_tokens"]["p1"], "--wait", "1"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
        # then it waited past those 1 s for p2's clock, which the server ran out: the battle aborted
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().endswith("ended: winner none (draw) (aborted_no_first_move)")
        final = http.get(f"/battles/{made['battle_id']}").json()
        assert final["outcome"] == {"winner": None, "reason": ABORTED}
        assert not any(seat["running"] for seat in final["clock"]["seats"].values())
