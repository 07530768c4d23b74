"""battleboard passes the ruleset contract, with one to four hero seats against the foes' seat."""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.engine.rng import Rng
from domain.rulesets.battleboard.state import GM, Battleboard

from .contract import RulesetContract

CELLS = ([0, 0], [2, 1], [4, 2], [1, 3], [2, 4], [3, 5], [0, 6], [5, 0])


class TestBattleboardContract(RulesetContract):
    ruleset_id = "battleboard"
    policies = ("random", "greedy", "memory")
    setups_hide_nothing = True      # builds, foes and map are public from the start
    server_only_state = False       # every secret belongs to a side's seats
    # Seed 002, Initiative: a side's arrangement is hidden from the other side until both
    # sides have arranged (the side's own seats see it).
    hidden_by_rule = {
        "engine.BattleCreated": {"seed": None, "seat_token_hashes": None},
        "battleboard.Placed": {"cell": "team"},
    }

    def seat_setups(self) -> list[dict[str, Any]]:
        return [{"heroes": ["dorn"], "encounter": "goblin_ambush"},
                {"heroes": ["aria", "bram", "cass"], "encounter": "drake_lair"},
                {"heroes": ["aria", "bram", "cass", "dorn"], "encounter": "orc_warband"}]

    def hidden_setup_variants(self) -> list[tuple[dict[str, Any], dict[str, Any], str]]:
        return []

    def perturb_hidden(self, game: Battleboard, owner: str | None, rng: Rng) -> Battleboard | None:
        """The foes' seat hides its placements from the heroes until both sides have arranged.
        A hero seat hides nothing of its own: its side's seats share what they place."""
        if owner != GM:
            return None
        moved = {k: (c[0], 5 - c[1]) for k, c in game.placed.items() if game.units[k].seat == GM}
        if not moved:
            return None
        return replace(game, placed={**game.placed, **moved})

    def command_universe(self, game: Battleboard, seat: str) -> list[dict[str, Any]]:
        mine = [u for u in game.units.values() if u.seat == seat]
        others = [k for k, u in game.units.items() if u.seat != seat][:4]
        universe: list[dict[str, Any]] = [
            {"type": "end_turn"}, {"type": "advance"}, {"type": "choose", "go": "first"},
            {"type": "choose", "go": "second"}, {"type": "choose", "go": "last"},
            *({"type": "defend", "lose": lose, **({"focus": f} if f else {})} for lose in ("untapped", "tapped")
              for f in (0, 1, 2))]
        for u in mine:
            universe.append({"type": "convert", "unit": u.id})
            for cell in CELLS[:6]:
                universe.append({"type": "place", "unit": u.id, "cell": cell})
            if u.cell is not None:
                for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0), (0, 2), (2, 0), (0, 3)):
                    universe.append({"type": "move", "unit": u.id, "to": [u.cell[0] + dc, u.cell[1] + dr]})
            for action in u.actions:
                for target in [*others, u.id]:
                    universe.append({"type": "act", "unit": u.id, "action": action, "targets": [target]})
                universe.append({"type": "act", "unit": u.id, "action": action})
                universe.append({"type": "act", "unit": u.id, "action": action, "targets": others[:2]})
                universe += [{"type": "act", "unit": u.id, "action": action, "row": r} for r in (2, 3)]
                universe += [{"type": "act", "unit": u.id, "action": action, "col": c} for c in (1, 3)]
                universe += [{"type": "act", "unit": u.id, "action": action, "at": c} for c in CELLS[1:5]]
        return universe

    def refused_commands(self, game: Battleboard, seat: str) -> list[dict[str, Any]]:
        unit = next(u for u in game.units.values() if u.seat == seat)
        refused: list[dict[str, Any]] = [
            {"type": "move", "unit": "nobody", "to": [0, 0]},
            {"type": "move", "unit": unit.id, "to": [99, 0]},
            {"type": "act", "unit": unit.id, "action": "no_such_action"},
            {"type": "act", "unit": unit.id, "action": "strike", "targets": ["nobody"]},
            {"type": "place", "unit": unit.id, "cell": "a1"},
            {"type": "defend", "lose": "everything"},
            {"type": "end_turn", "extra": 1},
        ]
        if game.phase != "turn":
            refused.append({"type": "end_turn"})
        if game.phase != "order":
            refused.append({"type": "choose", "go": "first"})
        return refused
