"""The hook registry of ring's Dynamics (`kind` in content), and the numbers and permissions
they modify. BEFORE hooks change these queries (or, for `AbilityCheck`, return None to
block); they are not events. The hooks themselves are in `effects/`."""
from __future__ import annotations

import msgspec

from domain.engine.hooks import Hooks

HOOKS = Hooks()

# Kinds whose every hook is about the turn of its carrier's team (`subject="seat"`): the effect
# of such a Dynamic names that seat as its subject (`moves.active_effects`), so the turns of
# the other team skip the call. Every other carried Dynamic's subject is its carrier.
SEAT_BOUND = frozenset({"burning", "venom", "regeneration"})

# Kinds whose every hook is about its own team's seat (`subject="seat"`): each tests `covers`
# (or its team) first, so a Dynamic that sits with a team changes nothing on the other team's
# turn or query, and the call is skipped. One on the battlefield (no seat) covers both teams:
# its effect is bound to nothing, and every such event calls it (`moves.active_effects`).
TEAM_BOUND = frozenset({"keen_eye", "erosion", "mana_spring", "scorched_earth", "tailwind", "quick_hands"})


class AbilityCheck(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    seat: str
    unit: str | None
    ability: str
    mp: int


class SwapCost(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    seat: str
    amount: int


class ApRestore(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    seat: str
    amount: int


class Odds(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Effectiveness chances in basis points for `seat`'s ability."""
    seat: str
    ability: str
    glancing: int
    normal: int
    critical: int
