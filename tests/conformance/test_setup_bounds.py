"""Setup bounds are declared, not assumed. For every ruleset:
- every param is an integer with a declared range (`param_bounds`), a bool or a choice;
- a param one past either end of its range is refused, naming it;
- the largest setup the ruleset accepts (each param at the end that makes the game biggest, the
  largest decks, teams and parties) plays to its end, or to `MAX_DECISIONS`, with every awaited
  seat offered at most `MAX_LEGAL` commands and no event encoded larger than `MAX_EVENT_BYTES`.

The slowest single decision (listing a seat's commands, or deciding one) of each battle is
printed (`pytest -s`), never asserted: timings depend on the machine."""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import msgspec
import pytest

from domain.ai import get_policy
from domain.ai.match import bot_choice, seeded_bytes
from domain.engine.battle import decide_batch, open_battle
from domain.engine.chain import canonical_event
from domain.engine.content import param_bounds
from domain.engine.errors import SetupError
from domain.engine.rng import Rng
from domain.engine.ruleset import Ruleset, all_rulesets, get_ruleset
from domain.rulesets.battleboard.content import AFFINITIES
from domain.rulesets.battleboard.content import CONTENT as BOARD_CONTENT
from domain.rulesets.battleboard.setup import MAX_LEVEL as BOARD_MAX_LEVEL
from domain.rulesets.deckduel.content import CARDS as DUEL_CARDS
from domain.rulesets.rat.content import CONTENT as RAT_CONTENT
from domain.rulesets.ring.content import content as ring_content
from domain.rulesets.ring.roster import MAX_LEVEL as RING_MAX_LEVEL
from domain.rulesets.ring.roster import equipped_pools
from domain.rulesets.ring.setup import deck_json as ring_deck_json

MAX_LEGAL = 10_000
MAX_EVENT_BYTES = 64 * 1024
# A battle at `max_turns` 1000 (ring) or `round_limit` 100 (battleboard) may run to tens of
# thousands of decisions when neither side presses; the first 3,000 cover every phase and keep
# this module well under a minute.
MAX_DECISIONS = 3_000
RULESETS = sorted(all_rulesets())
POLICIES = ("random", "greedy")


def upper(ruleset_id: str, name: str) -> int:
    return param_bounds(params_type(get_ruleset(ruleset_id)))[name][1]


def at_bounds(ruleset_id: str, low: tuple[str, ...] = (), **between: int) -> dict[str, int]:
    """Every integer param at its upper bound, but those named in `low` at their lower bound and
    those given a value in `between` at that value."""
    bounds = param_bounds(params_type(get_ruleset(ruleset_id)))
    return {name: between.get(name, lo if name in low else hi) for name, (lo, hi) in bounds.items()}


def deckduel_setup() -> dict[str, Any]:
    """60-card decks in a scripted order whose top 10 cards differ: the mulligan offers all 2**10
    subsets of the initial hand."""
    deck = [sorted(DUEL_CARDS)[i % len(DUEL_CARDS)] for i in range(60)]
    return {"p1": {"character": "kira", "deck": deck, "shuffle": False},
            "p2": {"character": "brom", "deck": deck[::-1], "shuffle": False}, "params": at_bounds("deckduel")}


def skirmish_setup() -> dict[str, Any]:
    """Duels field up to five a side, so both decks hold five characters' pools, on the largest board."""
    return {"mode": "duel", "board": "colosseum",
            "p1": {"team": ["ember", "cinder", "flint", "wisp", "brick"]},
            "p2": {"team": ["wisp", "sable", "thorn", "bramble", "sigil"]},
            "params": at_bounds("skirmish", low=("raid_field_min", "prowess_percent", "amplify_per_round",
                                                 "fortified_power", "intimidate_armor"))}


def ring_deck(units: list[str], leader: str) -> dict[str, Any]:
    """Every pool at its top level and every extra slot, bought at a cost of 0 GP; every unit
    ability ranked; every GP left buys items, each kind once, then the cheapest."""
    rules = ring_content()
    ranked = sorted(a for a, ability in rules.abilities.items() if ability.pool != "leader")
    entries = []
    for unit in units:
        pools = equipped_pools(unit, None)
        entries.append({"unit": unit, "levels": {p.pool: RING_MAX_LEVEL - p.level for p in pools},
                        "slots": {p.pool: upper("ring", "max_extra_slots") for p in pools}, "priorities": ranked})
    budget = sum(rules.units[u].gp for u in units)
    items = []
    for item in sorted(rules.items, key=lambda i: (rules.items[i].price, i)):
        if rules.items[item].price <= budget:
            items.append(item)
            budget -= rules.items[item].price
    cheapest = min(rules.items, key=lambda i: (rules.items[i].price, i))
    items += [cheapest] * (budget // rules.items[cheapest].price)
    return {"leader": leader, "units": entries, "items": items}


def ring_setup() -> dict[str, Any]:
    units = sorted(ring_content().units)
    params = at_bounds("ring", low=("gp_slot_cost", "gp_level_cost", "bench_damage_bp"))
    return {"p1": {"deck": ring_deck(units[:15], "ignis")}, "p2": {"deck": ring_deck(units[-15:], "vesper")},
            "params": {**params, "linear_variation": True}}


def battleboard_setup() -> dict[str, Any]:
    """Four heroes at the top level, with three secondary weapons each, against eight foes."""
    archetypes = sorted(BOARD_CONTENT.archetypes)
    weapons = sorted(w for w, weapon in BOARD_CONTENT.weapons.items() if weapon.slot == "secondary")
    points = upper("battleboard", "affinity_points") + BOARD_MAX_LEVEL
    affinities = {a: points // 4 + (i < points % 4) for i, a in enumerate(AFFINITIES)}
    heroes = []
    for i in range(4):
        cls = [archetypes[i], archetypes[(i + 1) % 4]]
        upgrades = [u for a in cls for u in BOARD_CONTENT.archetypes[a].upgrades]
        heroes.append({"class": cls, "affinities": affinities, "weapons": weapons[i:i + 3], "armor": "heavy",
                       "level": BOARD_MAX_LEVEL, "upgrades": upgrades[:BOARD_MAX_LEVEL]})
    params = at_bounds("battleboard", low=("min_section_rows", "double_down_energy", "confused_fail"),
                       section_rows=3)
    return {"heroes": heroes, "foes": sorted(BOARD_CONTENT.foes), "map": "training_ground", "params": params}


def rat_member(member: str) -> dict[str, Any]:
    spec, most = RAT_CONTENT.members[member], upper("rat", "ev_max")
    evs, left = {}, spec.ev_budget
    for stat in ("hp", "atk", "def", "spd"):
        evs[stat], left = min(left, most), left - min(left, most)
    consumables = sorted(a for a, action in RAT_CONTENT.actions.items() if action.kind == "consumable")
    stack = {"count": upper("rat", "stack_size"), "durability": 3}
    return {"member": member, "evs": evs, "moves": list(spec.moves[:upper("rat", "max_moves")]),
            "items": {item: stack for item in consumables[:spec.consumable_slots]}}


def rat_setup() -> dict[str, Any]:
    """A party of six against a second seat playing the enemies, on a route of 64 battles."""
    route = [sorted(RAT_CONTENT.formations)[i % len(RAT_CONTENT.formations)] for i in range(64)]
    return {"party": [rat_member(m) for m in sorted(RAT_CONTENT.members)], "formation": route, "stage": 63,
            "enemy_seat": True, "params": at_bounds("rat", low=("roll_min_pct",))}


EXTREME_SETUPS: dict[str, Callable[[], dict[str, Any]]] = {
    "battleboard": battleboard_setup, "deckduel": deckduel_setup, "rat": rat_setup, "ring": ring_setup,
    "skirmish": skirmish_setup}
# The most commands one seat is offered, where the extreme setups reach a known peak: the opening
# mulligan of 10 different cards (2**10 subsets), the team pick of 8 from 15 units (C(15, 8)).
PEAK_COMMANDS = {"deckduel": 1024, "ring": 6435}
# Params the extreme setups cannot hold at a bound: the heroes' section takes 3 of the 6 rows,
# since the foes' section needs room for eight foes (battleboard setup).
BETWEEN_BOUNDS = {"battleboard": {"section_rows": 3}}


def params_type(ruleset: Ruleset[Any]) -> type[msgspec.Struct]:
    """The Struct a ruleset parses `params` into, read from its default setup."""
    return type(ruleset.parse_setup(ruleset.fresh_setup()).params)


def test_every_ruleset_has_an_extreme_setup():
    assert sorted(EXTREME_SETUPS) == RULESETS


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_param_is_a_bounded_integer_a_bool_or_a_choice(ruleset_id):
    fields = msgspec.inspect.type_info(params_type(get_ruleset(ruleset_id))).fields
    kinds = (msgspec.inspect.IntType, msgspec.inspect.BoolType, msgspec.inspect.LiteralType)
    assert [f.name for f in fields if not isinstance(f.type, kinds)] == []
    integers = [f.name for f in fields if isinstance(f.type, msgspec.inspect.IntType)]
    assert list(param_bounds(params_type(get_ruleset(ruleset_id)))) == integers


def past_each_bound() -> list[tuple[str, str, int]]:
    return [(rid, name, value) for rid in RULESETS
            for name, (lo, hi) in param_bounds(params_type(get_ruleset(rid))).items() for value in (lo - 1, hi + 1)]


@pytest.mark.parametrize("ruleset_id, name, value", past_each_bound())
def test_a_param_one_past_its_bound_is_refused_naming_it(ruleset_id, name, value):
    ruleset = get_ruleset(ruleset_id)
    lo, hi = param_bounds(params_type(ruleset))[name]
    with pytest.raises(SetupError) as refused:
        ruleset.parse_setup({**ruleset.fresh_setup(), "params": {name: value}})
    assert refused.value.field == f"params.{name}"
    assert refused.value.message == f"setup.params.{name}: must be between {lo} and {hi}, not {value}"


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_extreme_setup_holds_each_param_at_a_bound(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    params = ruleset.parse_setup(EXTREME_SETUPS[ruleset_id]()).params
    off = {name: getattr(params, name) for name, (lo, hi) in param_bounds(type(params)).items()
           if getattr(params, name) not in (lo, hi)}
    assert off == BETWEEN_BOUNDS.get(ruleset_id, {})


def ring_deck_ranking_twice() -> dict[str, Any]:
    deck = ring_deck_json("ember_rush")
    deck["units"][0]["priorities"] = ["fireball", "fireball"]
    return {"p1": {"deck": deck}, "p2": {"deck": "iron_wall"}}


@pytest.mark.parametrize("ruleset_id, setup, field, message", [
    ("ring", ring_deck_ranking_twice(), "p1.deck.units[0].priorities[1]",
     "fireball is already listed; each ability once"),
    ("skirmish", {**skirmish_setup(), "params": {"starting_hand": 8, "hand_limit": 7}}, "params.starting_hand",
     "must be at most the hand limit (hand_limit 7), not 8"),
    ("battleboard", {"heroes": ["aria"], "encounter": "goblin_ambush", "params": {"height": 4, "section_rows": 4}},
     "params.section_rows", "must leave the foes a row: below height 4, not 4"),
    ("battleboard", {"heroes": ["aria", "bram"], "encounter": "orc_warband", "params": {"width": 1}}, "params.width",
     "the foes' section of thornwood (1 wide, rows 3-5) has room for 3 of its 4 combatants"),
])
def test_a_setup_part_past_what_the_rules_hold_is_refused(ruleset_id, setup, field, message):
    with pytest.raises(SetupError) as refused:
        get_ruleset(ruleset_id).parse_setup(setup)
    assert (refused.value.field, refused.value.message) == (field, f"setup.{field}: {message}")


class Measured:
    """The most commands offered to one seat, the largest event, and the slowest listing and
    decision of a battle."""

    def __init__(self) -> None:
        self.legal = self.event = self.decisions = 0
        self.slowest_legal = self.slowest_decide = 0.0

    def offered(self, ruleset: Ruleset[Any], game: Any, seat: str) -> list[Any]:
        started = time.perf_counter()
        legal = list(ruleset.legal_commands(game, seat))
        self.slowest_legal = max(self.slowest_legal, time.perf_counter() - started)
        assert len(legal) <= MAX_LEGAL, (seat, len(legal))
        self.legal = max(self.legal, len(legal))
        return legal

    def recorded(self, records: list[Any]) -> None:
        for rec in records:
            size = len(canonical_event(rec.seq, rec.event))
            assert size <= MAX_EVENT_BYTES, (rec.seq, rec.event.TOPIC, size)
            self.event = max(self.event, size)

    def timed(self, decide: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        result = decide()
        self.slowest_decide = max(self.slowest_decide, time.perf_counter() - started)
        self.decisions += 1
        return result


def play_measured(ruleset: Ruleset[Any], setup: Mapping[str, Any], policy: str) -> tuple[Any, Measured]:
    """`domain.ai.match.play` with every awaited seat's listing and every event measured."""
    bots = {seat: get_policy(policy, ruleset.id) for seat in ruleset.table(setup).seats}
    state, records = open_battle(ruleset, battle_id="00000000-0000-4000-8000-00000000b0d5", setup=setup,
                                 players={seat: {"bot": policy} for seat in bots},
                                 revealed=seeded_bytes("bounds", ruleset.id), created_at="1970-01-01T00:00:00Z")
    measured = Measured()
    measured.recorded(records)
    rng = Rng(seeded_bytes("bounds-bots", ruleset.id, policy))
    while state.outcome is None and measured.decisions < MAX_DECISIONS:
        waiting = sorted(ruleset.awaiting(state.game))
        offered = {seat: measured.offered(ruleset, state.game, seat) for seat in waiting}
        seat = waiting[0]
        choice = bot_choice(bots[seat], ruleset, state.game, seat, offered[seat], rng)
        state, batch = measured.timed(lambda: decide_batch(ruleset, state, seat, choice))
        measured.recorded(batch)
    return state, measured


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_extreme_setup_plays_within_the_limits(ruleset_id, policy):
    ruleset = get_ruleset(ruleset_id)
    state, measured = play_measured(ruleset, EXTREME_SETUPS[ruleset_id](), policy)
    assert state.outcome is not None or measured.decisions == MAX_DECISIONS
    if ruleset_id in PEAK_COMMANDS:
        assert measured.legal == PEAK_COMMANDS[ruleset_id]
    print(f"\n{ruleset_id} {policy}: {measured.decisions} decisions, ended {state.outcome is not None}, "
          f"most commands {measured.legal}, largest event {measured.event} bytes, slowest listing "
          f"{measured.slowest_legal * 1000:.1f} ms, slowest decision {measured.slowest_decide * 1000:.1f} ms")
