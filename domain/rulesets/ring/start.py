"""Seed 000, Pre-Battle, as a battle starts: decks enter, each side's inventory, initiative,
and the battlefield when the setup or the RNG decides it (`picks` runs the rest)."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.engine.rng import Rng
from domain.engine.ruleset import Decision

from . import events as ev
from .content import ATTRIBUTES, DeckUnit, content
from .evolve import evolve
from .moves import RESOLVING, RingResolver
from .picks import open_team_pick
from .roster import build_fighter
from .setup import RingSetup, as_json
from .state import SEATS, Params, Ring


def start(setup: RingSetup, rng: Rng) -> Decision[Ring]:
    started = ev.RingStarted(params=msgspec.to_builtins(setup.params),
                             leaders={seat: setup.decks[seat].leader for seat in SEATS},
                             fixed_battlefield=setup.battlefield)
    b = RESOLVING(evolve(None, started), rng)
    for seat in SEATS:
        fighters, variation = [], {}
        for entry in setup.decks[seat].units:
            cond = setup.condition[seat].get(entry.unit, {})
            shift = linear_variation(setup, rng)
            if shift:
                variation[entry.unit] = shift
            fighters.append(fighter_json(seat, entry, setup.params, lp=cond.get("lp"), exs=cond.get("exs", 0),
                                         variation=shift))
        b.emit(ev.DeckBuilt(seat=seat, fighters=tuple(fighters), variation=variation))
        b.emit(ev.InventoryPacked(seat=seat, items=setup.decks[seat].items))
    roll_initiative(b)
    return Decision((started, *b.events), b.state)


def fighter_json(seat: str, entry: DeckUnit, params: Params, *, lp: int | None, exs: int,
                 variation: dict[str, int]) -> Any:
    """`build_fighter` as JSON, as `DeckBuilt` carries it. Battles from the same decks build the
    same fighters, so without linear variation each is kept by what it is built from, encoded:
    every event gets its own decoded copy."""
    if variation:
        return as_json(build_fighter(seat, entry, params, lp=lp, exs=exs, variation=variation))
    key = (content(), seat, msgspec.json.encode(entry), params, lp, exs)
    found = _FIGHTERS.get(key)
    if found is None:
        if len(_FIGHTERS) >= 4096:
            _FIGHTERS.clear()
        found = _FIGHTERS[key] = msgspec.json.encode(build_fighter(seat, entry, params, lp=lp, exs=exs))
    return msgspec.json.decode(found)


_FIGHTERS: dict[tuple[object, ...], bytes] = {}


def linear_variation(setup: RingSetup, rng: Rng) -> dict[str, int]:
    """Off in the alpha (seed 000); when on, each attribute shifts by up to the spread."""
    spread = setup.params.linear_spread_bp
    if not setup.params.linear_variation or spread == 0:
        return {}
    return {attr: rng.int(-spread, spread) for attr in ATTRIBUTES}


def roll_initiative(b: RingResolver) -> None:
    """Both sides roll 1..die plus their leader's initiative; a tie rolls again."""
    s = b.state
    bonus = {seat: content().leaders[s.side(seat).leader].initiative for seat in SEATS}
    rolls: dict[str, list[int]] = {seat: [] for seat in SEATS}
    while True:
        for seat in SEATS:
            rolls[seat].append(b.rng.int(1, s.params.initiative_die))
        totals = {seat: rolls[seat][-1] + bonus[seat] for seat in SEATS}
        if totals["p1"] != totals["p2"]:
            break
    winner = max(SEATS, key=totals.__getitem__)
    advantage = content().leaders[s.side(winner).leader].advantage
    b.emit(ev.InitiativeRolled(rolls=rolls, bonus=bonus, winner=winner, advantage=advantage))
    if b.state.battlefield is not None:
        b.emit(ev.BattlefieldDrawn(battlefield=b.state.battlefield, by="setup"))
    elif advantage == "battlefield":
        return                      # the winner chooses (ChooseBattlefield)
    else:
        b.emit(ev.BattlefieldDrawn(battlefield=b.rng.choice(sorted(content().battlefields)), by="rng"))
    open_team_pick(b)
