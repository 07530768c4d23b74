"""What a set carries from battle to battle (seed 000, Post-Battle; issue: Sets of battles).

HP and MP are restored and augments cleared simply because each battle builds its units
afresh from the deck; LP and EXS carry over through each seat's `condition`:
- a unit that took part gains 15% EXS; one that sat out loses 10% (never below 0);
- a winner's unit that took part and still has LP gains 1 LP (up to its maximum);
- a unit at 0 LP stays at 0: it cannot be picked again in the set.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .state import SEATS, Ring


def apply_carry(setup: Mapping[str, Any], carry: Mapping[str, Any] | None) -> dict[str, Any]:
    if not carry:
        return dict(setup)
    out = dict(setup)
    for seat in SEATS:
        out[seat] = {**setup[seat], "condition": carry.get(seat, {})}
    return out


def next_carry(carry: Mapping[str, Any] | None, setup: Mapping[str, Any], game: Ring,
               winner: str | None) -> dict[str, Any]:
    params = game.params
    out: dict[str, Any] = {}
    for seat in SEATS:
        side = game.side(seat)
        condition = {}
        for key in side.deck:
            unit = game.units[key]
            if key in side.team:
                lp = unit.lp
                if winner == seat and lp > 0:
                    lp = min(unit.max_lp, lp + params.winner_lp)
                exs = min(10_000, unit.exs + params.exs_battle_bp)
            else:
                lp, exs = unit.lp, max(0, unit.exs - params.exs_rest_bp)
            condition[unit.unit] = {"lp": lp, "exs": exs}
        out[seat] = condition
    return out


class SetRules:
    """Ring's `set_rules`: what the set decider (domain/sets/decide.py) applies between battles."""
    apply_carry = staticmethod(apply_carry)
    next_carry = staticmethod(next_carry)

