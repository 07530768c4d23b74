"""A balance run: its counts add up, each pairing is played from both seats in equal numbers,
two bots swap sides in equal numbers, the same seed gives the same report, and the command
writes its report and picture or refuses bad input in one `error:` line."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from api.cli import app
from domain.balance import play_plan, plan, report
from domain.balance.harness import policy
from domain.engine.errors import InvalidInput
from domain.engine.ruleset import get_ruleset
from domain.rulesets.deckduel.matchups import matchups

DUEL = get_ruleset("deckduel")
PAIR = ["Kira v Brom", "Brom v Kira"]


def run(bots, battles=2, seed="7", only=PAIR):
    run_plan = plan(DUEL, bots, battles, seed, matchups=matchups(), only=only)
    return report(run_plan.as_json(), play_plan(run_plan))


@pytest.fixture(scope="module")
def one_bot():
    return run(["random"])


def test_the_counts_add_up(one_bot):
    assert one_bot["battles"] == 4
    assert one_bot["parameters"]["matchups"] == PAIR
    assert one_bot["parameters"]["battles_per_matchup"] == 2
    assert [(c["label"], c["battles"]) for c in one_bot["cells"]] == [("Kira v Brom", 2), ("Brom v Kira", 2)]
    for table in ("seats", "sides", "entries"):
        assert {name: score["battles"] for name, score in one_bot[table].items()} == \
            ({"p1": 4, "p2": 4} if table != "entries" else {"Kira": 4, "Brom": 4})
    p1, p2 = one_bot["sides"]["p1"], one_bot["sides"]["p2"]
    assert (p1["wins"], p1["draws"], p1["losses"]) == (p2["losses"], p2["draws"], p2["wins"])
    assert sum(r["count"] for r in one_bot["endings"]["reasons"]) == 4
    assert one_bot["endings"]["limit"]["count"] == 0        # deckduel has no turn limit


def test_each_entry_plays_each_seat_equally(one_bot):
    seated = [(c["entries"]["p1"], c["entries"]["p2"], c["battles"]) for c in one_bot["cells"]]
    assert seated == [("Kira", "Brom", 2), ("Brom", "Kira", 2)]


def test_the_matchup_table_counts_both_seatings(one_bot):
    table = one_bot["matchups"]
    assert table["rows"] == table["columns"] == ["Kira", "Brom"]
    cells = {(c["row"], c["column"]): c for c in table["cells"]}
    assert set(cells) == {("Kira", "Brom"), ("Brom", "Kira")}
    kira, brom = cells[("Kira", "Brom")], cells[("Brom", "Kira")]
    assert kira["battles"] == brom["battles"] == 4
    assert (kira["wins"], kira["draws"]) == (brom["losses"], brom["draws"])
    assert kira["wins"] == one_bot["entries"]["Kira"]["wins"]


def test_the_same_seed_gives_the_same_report(one_bot):
    assert orjson.dumps(run(["random"])) == orjson.dumps(one_bot)


def test_a_matchup_plays_the_same_battles_whichever_others_are_played(one_bot):
    alone = run(["random"], only=["Brom v Kira"])
    assert alone["cells"] == [c for c in one_bot["cells"] if c["label"] == "Brom v Kira"]


def test_two_bots_swap_sides_equally_and_the_first_bot_is_rated():
    figures = run(["random", "greedy"], battles=3)             # rounded up to 4 per matchup
    assert figures["parameters"]["battles_per_matchup"] == 4 and figures["battles"] == 8
    bot = figures["bot"]
    assert (bot["policy"], bot["against"]) == ("random", "greedy")
    assert bot["overall"]["battles"] == 8
    assert {side: s["battles"] for side, s in bot["sides"].items()} == {"p1": 4, "p2": 4}
    assert bot["overall"]["wins"] == sum(s["wins"] for s in bot["sides"].values())
    for cell in figures["cells"]:
        assert {side: s["battles"] for side, s in cell["bot"]["sides"].items()} == {"p1": 2, "p2": 2}


def test_first_on_plays_the_half_of_the_run_with_the_first_bot_on_that_side():
    both = plan(DUEL, ["random", "greedy"], 4, "7", matchups=matchups(), only=PAIR)
    kept = plan(DUEL, ["random", "greedy"], 4, "7", matchups=matchups(), only=PAIR, first_on="p2")
    # even battles seat the first bot on the first side (p1), odd ones on p2: battles 1 and 3 of each
    assert [kept.numbers(m) for m in kept.matchups] == [[1, 3], [1, 3]]
    full, half = play_plan(both), play_plan(kept)
    assert half == [f for f in full if f.policies["p2"] == "random"]      # the same battles a full run plays
    figures = report(kept.as_json(), half)
    assert figures["parameters"]["first_on"] == "p2" and "first_on" not in both.as_json()
    assert {side: s["battles"] for side, s in figures["bot"]["sides"].items()} == {"p2": 4}


@pytest.mark.parametrize(("bots", "side", "named"), [
    (["random"], "p1", "two"), (["random", "greedy"], "heroes", "heroes"),
])
def test_first_on_needs_two_bots_and_a_side_with_seats(bots, side, named):
    with pytest.raises(InvalidInput, match=named):
        plan(DUEL, bots, 2, "7", matchups=matchups(), only=PAIR, first_on=side)


def test_a_searching_bot_plays_at_the_iterations_named_after_its_at():
    run_plan = plan(DUEL, ["search@3", "greedy"], 2, "7", matchups=matchups(), only=PAIR[:1])
    assert policy("search@3", "deckduel").tuning.iterations == 3
    figures = report(run_plan.as_json(), play_plan(run_plan))
    assert (figures["bot"]["policy"], figures["bot"]["against"]) == ("search@3", "greedy")


def test_one_bot_has_no_bot_rate(one_bot):
    assert one_bot["bot"] is None


def test_the_command_writes_the_report_and_its_picture(tmp_path, monkeypatch):
    wired = dataclasses.replace(DUEL, matchups=matchups)
    monkeypatch.setattr("api.cli_balance.get_ruleset", lambda ruleset_id: wired)
    out = tmp_path / "out"
    done = CliRunner().invoke(app, ["balance", "--ruleset", "deckduel", "--bots", "random", "--battles", "2",
                                    "--matchups", "Kira v Brom", "--seed", "7", "--out", str(out)])
    assert done.exit_code == 0, done.output
    written = orjson.loads((out / "balance.json").read_bytes())
    assert written["battles"] == 2 and written["parameters"]["matchups"] == ["Kira v Brom"]
    assert (out / "balance.svg").read_text().startswith("<?xml")
    assert (out / "balance.png").read_bytes().startswith(b"\x89PNG")
    assert "ended by a turn or round limit: 0 of 2" in done.stdout
    assert "Kira v Brom" not in done.stderr


@pytest.mark.parametrize(("args", "named"), [
    (["--ruleset", "nosuchgame"], "nosuchgame"),
    (["--ruleset", "deckduel", "--bots", "nosuchbot"], "nosuchbot"),
    (["--ruleset", "deckduel", "--bots", "random,greedy,random"], "bots"),
    (["--ruleset", "deckduel", "--bots", "random,random"], "random twice"),
    (["--ruleset", "deckduel", "--matchups", "Nobody"], "Nobody"),
    (["--ruleset", "deckduel", "--bots", "search@many"], "search@many"),
    (["--ruleset", "deckduel", "--bots", "search@0"], "from 1 to"),
    (["--ruleset", "deckduel", "--bots", "greedy@50"], "does not search"),
    (["--ruleset", "deckduel", "--bots", "random,greedy", "--first-on", "foes"], "foes"),
])
def test_bad_input_is_one_error_line(args, named, tmp_path):
    done = CliRunner().invoke(app, ["balance", *args, "--battles", "1", "--out", str(tmp_path)])
    assert done.exit_code != 0
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and named in lines[0], done.stderr
    assert not (tmp_path / "balance.json").exists()


def test_the_command_line_loads_matplotlib_only_to_draw():
    loaded = subprocess.run([sys.executable, "-c", "import sys, api.cli; print('matplotlib' in sys.modules)"],
                            capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2])
    assert loaded.stdout.strip() == "False"
