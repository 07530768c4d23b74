"""The greedy bot uses the board (README, Bots): it walks its movement path to where its attack
reaches, takes an open row, charges first when it can still double down, and ends its turn
where the enemy reaches it least. And an arrangement reads only the arranging side's cells."""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.engine.events import Viewer
from domain.rulesets.battleboard import RULESET
from domain.rulesets.battleboard.bots.greedy import ADVANCE, FOLLOW_UP, score
from domain.rulesets.battleboard.bots.search import worth
from domain.rulesets.battleboard.commands import Act
from domain.rulesets.battleboard.turns import free_cells

from .given import battle, legal, unit


def scored(state: Any, seat: str) -> list[tuple[float, dict[str, Any]]]:
    """Each legal command of `seat` with the greedy bot's score, best first (ties in listed order)."""
    view = RULESET.view(state, Viewer(seat=seat))
    wires = [RULESET.codec.wire(c) for c in RULESET.legal_commands(state, seat)]
    return sorted(((score(view, w), w) for w in wires), key=lambda pair: -pair[0])


def test_greedy_steps_toward_the_cell_its_strike_reaches_from():
    # given h1 (Strike, range 0, speed 4) at (2, 0) and f1 at (2, 3): no origin of the path
    # [(2, 0)] (it and its neighbours) holds f1
    state = battle(unit("h1", (2, 0)), unit("f1", (2, 3)))
    ranked = scored(state, "h1")
    # when the bot rates its commands, then the best is the step to (2, 1): from there (2, 2)
    # costs 1 + f1's zone of control = 2, 3 of its 4 points, and (2, 3) is next to (2, 2)
    best = ranked[0][1]
    assert (best["type"], best.get("to")) == ("move", (2, 1))
    # and no Strike is listed yet, nor does ending the turn score above the step
    assert all(w.get("action") != "strike" for _, w in ranked)
    assert ranked[0][0] > dict((w["type"], s) for s, w in ranked)["end_turn"]


def test_greedy_strikes_once_the_path_reaches():
    # given h1 has walked (2, 0) -> (2, 1) -> (2, 2), so f1 at (2, 3) is next to its path
    h1 = unit("h1", (2, 2), mp=1, path=((2, 0), (2, 1), (2, 2)), origin=(2, 0))
    state = battle(h1, unit("f1", (2, 3)))
    # when the bot rates its commands, then the Strike on f1 comes first
    best = scored(state, "h1")[0][1]
    assert (best["type"], best.get("action"), tuple(best.get("targets", ()))) == ("act", "strike", ("f1",))


def test_greedy_takes_the_row_the_enemy_left_open():
    # given the foes left their row 3 empty at the end of their turn
    state = battle(unit("h1", (2, 0)), unit("f1", (2, 5)), row_open=3)
    # when the bot rates its commands, then taking the row comes first, at ADVANCE (5.0)
    best_score, best = scored(state, "h1")[0]
    assert best == {"type": "advance"} and best_score == ADVANCE


def test_a_charge_comes_first_while_a_double_down_is_left_for_another_attack():
    # given f1 (Charge: 2d*3, energy 1; Strike) has 2 energy, 1 for the charge and 1 to double
    # down, and h1 stands between f1 and an empty cell
    f1 = unit("f1", (2, 3), energy=2, actions=("strike", "charge"), movement=("bull_rush",))
    state = battle(unit("h1", (2, 2)), f1, active="foes")
    ranked = {(w.get("action"), tuple(w.get("at") or ())): s for s, w in scored(state, "gm") if w["type"] == "act"}
    # when the bot rates the charge through h1 to (2, 1) and the Strike on h1,
    # then the charge scores FOLLOW_UP (2.0) more than it would with no energy left to double down
    spent = replace(state, units={**state.units, "f1": replace(f1, energy=1)})
    alone = {(w.get("action"), tuple(w.get("at") or ())): s for s, w in scored(spent, "gm") if w["type"] == "act"}
    assert round(ranked[("charge", (2, 1))] - alone[("charge", (2, 1))], 6) == FOLLOW_UP
    # and it comes before the Strike
    assert ranked[("charge", (2, 1))] > ranked[("strike", ())]


def test_the_bots_value_an_aid_only_for_an_ally_that_may_still_be_untapped():
    # given h2 and h3 each have 2 tapped tokens next to h1 (Aid); h2 has had its 1 untap this
    # round (untaps_per_round 1), h3 none
    state = battle(unit("h1", (2, 1), actions=("aid",)), unit("h2", (1, 1), tapped=2, untapped=1, mended=1),
                   unit("h3", (3, 1), tapped=2, untapped=1), unit("f1", (2, 5)))
    ranked = {tuple(w["targets"]): s for s, w in scored(state, "h1") if w.get("action") == "aid"}
    # when the bot rates its Aids, then h3's is worth one token more than h2's, which untaps none
    assert round(ranked[("h3",)] - ranked[("h2",)], 6) == 1.0
    # and the search's playouts, rating from the state, weigh them alike
    aid = {t: worth(state, "h1", Act(unit="h1", action="aid", targets=(t,))) for t in ("h2", "h3")}
    assert round(aid["h3"] - aid["h2"], 6) == 1.0


def test_greedy_ends_its_turn_out_of_the_enemys_reach():
    # given h1 has taken its two actions and stands at (2, 2), next to the border; f1 at (2, 4)
    # (speed 1, Strike) walks, with a move action's 2 points, to 3 cells from where it is
    h1 = unit("h1", (2, 2), taken=("strike", "recover"), kinds=("attack", "guard"))
    state = battle(h1, unit("f1", (2, 4), speed=1))
    # when the bot rates its commands, then its best is a step back toward row 0 (away from f1)
    best = scored(state, "h1")[0][1]
    assert best["type"] == "move" and best["to"][1] < 2


def test_an_arrangement_reads_only_its_own_sides_cells():
    # given a foe's placement recorded on a cell of the heroes' section (as a perturbed hidden
    # truth may hold it), when the heroes arrange, then that cell is still free to them:
    # their free cells read only their own side's placements
    state = replace(battle(unit("h1"), unit("f1")), phase="arrange", arranging="heroes", placed={"f1": (1, 1)})
    assert (1, 1) in free_cells(state, "heroes")
    assert {"type": "place", "unit": "h1", "cell": [1, 1]} in legal(state, "h1")
