"""What a set carries from battle to battle (seed 003, Consumables and Knocked Out):

- each member's HP (a knocked-out or killed member leaves the battle at 1 HP);
- each consumable stack that is left; a stack at durability 0 is discarded at the end of
  the battle it was used in;
- then the set saves (`params.save_between_battles`): every stack loses one durability,
  and PP are restored (each battle builds its moves afresh);
- `stage` moves on, so a route of formations (`"formation": [...]`) is played in order.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .setup import DEFAULT_SETUP
from .state import PARTY, Rat


def apply_carry(setup: Mapping[str, Any], carry: Mapping[str, Any] | None) -> dict[str, Any]:
    if not carry:
        return dict(setup)
    out = dict(setup)
    held = carry.get("party", {})
    out["party"] = [{**m, **held.get(m.get("member"), {})} for m in setup.get("party", DEFAULT_SETUP["party"])]
    out["stage"] = carry.get("stage", 0)
    return out


def next_carry(carry: Mapping[str, Any] | None, setup: Mapping[str, Any], game: Rat,
               winner: str | None) -> dict[str, Any]:
    save = game.params.save_between_battles
    party: dict[str, Any] = {}
    for m in game.side(PARTY):
        items = {}
        for item, stack in m.items.items():
            if stack.count > 0 and stack.durability > 0:
                items[item] = {"count": stack.count, "durability": stack.durability - 1 if save else stack.durability}
        party[m.id] = {"hp": m.hp if m.standing else 1, "items": items}
    return {"party": party, "stage": int(setup.get("stage", 0)) + 1}


class SetRules:
    """Rat's `set_rules`: what the set decider applies between battles."""
    apply_carry = staticmethod(apply_carry)
    next_carry = staticmethod(next_carry)
