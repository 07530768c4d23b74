"""One decision's reading of a ring seat's view, which every score of the `greedy` bot starts
from: whose seat is whose, the enemy units a pick will likely meet, each own unit's matchup
against them, and whether a Dynamic in play works for the seat."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..content import content
from .matchup import Fighter, fighter, matchup, mp_cap

View = Mapping[str, Any]
LAST_LP = 0.9               # a unit one KO from removal (seed 000, LP) is worth 10% less
# Dynamics that work for the side they belong to; the others are burdens on their carrier.
HELPFUL = frozenset(("regeneration", "nurturing", "fortify", "rage", "brutality", "shadow", "counter_stance",
                     "retaliation", "keen_eye", "mana_spring", "quick_hands", "tailwind", "fire_ward", "soul_anchor"))


def me_and_foe(view: View) -> tuple[str, str]:
    mine = next(seat for seat, side in view["seats"].items() if side["items"] is not None)
    return mine, next(seat for seat in view["seats"] if seat != mine)


def unit(view: View, key: str | None) -> Mapping[str, Any] | None:
    if key is None:
        return None
    return view["seats"][key.split(".", 1)[0]]["units"].get(key)


class Reading:
    """One decision's reading of the view: which seat is whose, the enemy units a pick will
    likely meet, and each own unit's matchup against them (computed once per view)."""

    def __init__(self, view: View):
        self.view = view
        self.seat, self.foe = me_and_foe(view)
        self.mine, self.theirs = view["seats"][self.seat], view["seats"][self.foe]
        self.cap = mp_cap(view)
        self._values: dict[str, float] = {}
        self._foes: list[tuple[Fighter, int, float]] | None = None

    def foe_fighter(self, u: Mapping[str, Any]) -> Fighter:
        return fighter(u)

    def likely_foes(self) -> list[tuple[str, float]]:
        """Enemy unit keys and weights: before teams are revealed, the previewed team (seed
        000, Initiative: preview) or every deck unit with LP left; for the first Ring pick,
        the revealed team; in battle, the enemy Ring unit, or its standing units while that
        one is down."""
        theirs = self.theirs
        if self.view["phase"] == "team":
            previewed = (theirs.get("pick") or {}).get("units")
            keys = [f"{self.foe}.{u}" for u in previewed] if previewed else theirs["deck"]
        elif self.view["phase"] == "ring":
            keys = theirs["team"]
        else:
            ring = unit(self.view, theirs["ring"])
            keys = [theirs["ring"]] if ring is not None and not ring["ko"] else \
                [k for k in theirs["team"] if not theirs["units"][k]["ko"]]
        return [(k, 1.0) for k in keys if not theirs["units"][k]["removed"]]

    def value(self, unit_id: str) -> float:
        if unit_id not in self._values:
            self._values[unit_id] = self.appraise(self.mine["units"][f"{self.seat}.{unit_id}"])
        return self._values[unit_id]

    def appraise(self, u: Mapping[str, Any]) -> float:
        """How an own unit fares against the likely enemy units, its LP risk counted."""
        if self._foes is None:
            self._foes = [(self.foe_fighter(self.theirs["units"][k]), self.theirs["units"][k]["hp"], w)
                          for k, w in self.likely_foes()]
        return matchup(fighter(u), u["hp"], self._foes, self.cap) * (LAST_LP if u["lp"] == 1 else 1.0)

    def reliance(self, u: Mapping[str, Any], abilities: Iterable[str]) -> float:
        """The share of a unit's kit (the abilities in its slots) that `abilities` are."""
        kit, taken = u["abilities"], set(abilities)
        return sum(1 for a in kit if a in taken) / len(kit) if kit else 0.0

    def stance(self, dyn: Mapping[str, Any]) -> float:
        """+1 when a Dynamic in play works for this seat, -1 when against it, 0 when the view
        cannot tell (a field Dynamic has no side). A Dynamic-on-Dynamic works for its placer."""
        if dyn["seat"] is None:
            return 0.0
        mine = dyn["seat"] == self.seat
        helps = content().dynamics[dyn["kind"]].on == "dynamic" or dyn["kind"] in HELPFUL
        return 1.0 if helps == mine else -1.0
