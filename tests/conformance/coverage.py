"""The coverage run: seeded bot battles of every ruleset, in memory, and the content entries
(abilities, items, cards, actions, moves and the steps they run) that no battle reached.

Each ruleset plays its recorded setups (the default and `tests/replays/record.py`'s
scenarios) under each of its bot policies, then setups varied from its content (decks,
parties, teams and heroes drawn by a seeded `Rng`) under the random policy, so that every
entry a player can bring comes into play and any legal use of it may be tried.

An entry is reached when an event shows it used: an ability, item, card or action played, a
defence trigger, talent or keyword fired, an effect given; a step is reached when an entry
that runs it is. `python -m tests.conformance.coverage [RULESET ...]` prints the run.
"""
from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from domain.ai import get_policy, policy_names
from domain.ai.match import play, seeded_bytes
from domain.engine.chain import GENESIS
from domain.engine.events import Event, Recorded
from domain.engine.rng import Rng
from domain.engine.ruleset import get_ruleset
from domain.rulesets.battleboard.content import AFFINITIES
from domain.rulesets.battleboard.content import CONTENT as BOARD
from domain.rulesets.deckduel.content import CONTENT as DUEL
from domain.rulesets.rat.content import AI_LEVELS
from domain.rulesets.rat.content import CONTENT as RAT
from domain.rulesets.ring.content import CONTENT as RING
from domain.rulesets.skirmish.content import CONTENT as SKIRMISH
from tests.replays.record import SCENARIOS, players_for

Found = Iterator[tuple[str, str]]           # (kind, content id) pairs an event shows reached
SAMPLES = 2                                 # records kept of each event type


@dataclass(frozen=True)
class Reach:
    """How a ruleset's content shows in its battles."""
    entries: Callable[[], dict[str, set[str]]]       # kind -> every id of that kind
    reached: Callable[[Event], Found]
    setup: Callable[[Rng], dict[str, Any]]           # a setup varied from the content
    varied: int                                      # how many varied setups the run plays


@dataclass
class Run:
    battles: int = 0
    failed: dict[int, str] = field(default_factory=dict)      # battle number -> the error it raised
    reached: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # topic -> its first records, each with the chain before it
    samples: dict[str, list[tuple[str, Recorded]]] = field(default_factory=lambda: defaultdict(list))


def steps_of(steps: Sequence[Any]) -> Found:
    return (("steps", s.do) for s in steps)


# -- ring: abilities (units' and leaders'), items and their steps -----------------------------

def ring_entries() -> dict[str, set[str]]:
    return {"abilities": set(RING.abilities), "items": set(RING.items),
            "steps": {s.do for spec in (*RING.abilities.values(), *RING.items.values()) for s in spec.steps}}


def ring_reached(e: Event) -> Found:
    topic = e.TOPIC
    if topic in ("ring.AbilityUsed", "ring.LeaderAbilityUsed"):
        yield "abilities", e.ability
        yield from steps_of(RING.abilities[e.ability].steps)
    elif topic == "ring.ItemUsed":
        yield "items", e.item
        yield from steps_of(RING.items[e.item].steps)


def ring_setup(rng: Rng) -> dict[str, Any]:
    """Two decks of ten units drawn from every unit, each with a random piece of equipment (or
    none), its pools' abilities in a random priority, and items its spare Growth Points buy."""
    units = rng.shuffle(sorted(RING.units))
    setup: dict[str, Any] = {"battlefield": rng.choice((None, *sorted(RING.battlefields)))}
    for i, seat in enumerate(("p1", "p2")):
        drawn = units[10 * i:10 * i + 10]
        budget, items = sum(RING.units[u].gp for u in drawn), []
        for item in rng.shuffle(sorted(RING.items))[:5]:
            if RING.items[item].price <= budget:
                items.append(item)
                budget -= RING.items[item].price
        deck = [ring_unit(rng, unit) for unit in drawn]
        setup[seat] = {"deck": {"leader": rng.choice(sorted(RING.leaders)), "units": deck, "items": items}}
    return setup


def ring_unit(rng: Rng, unit: str) -> dict[str, Any]:
    pools = RING.units[unit].pools
    abilities = sorted(a for a, spec in RING.abilities.items() if spec.pool in pools)
    return {"unit": unit, "equipment": rng.choice((None, *sorted(RING.equipment))),
            "priorities": list(rng.shuffle(abilities))}


# -- deckduel: cards, and the attack effects, defence triggers and drills they bring -----------

def duel_entries() -> dict[str, set[str]]:
    return {"cards": set(DUEL.cards),
            "steps": {s for c in DUEL.cards.values() for s in (c.effect, c.trigger, c.drill) if s}}


def duel_reached(e: Event) -> Found:
    if e.TOPIC in ("deckduel.AttackPlayed", "deckduel.DrillPlayed"):
        card = DUEL.cards[e.card]
        yield "cards", e.card
        yield from (("steps", s) for s in (card.effect, card.drill) if s)
    elif e.TOPIC == "deckduel.DefenseTriggered":
        yield "steps", e.trigger


def duel_setup(rng: Rng) -> dict[str, Any]:
    """Two characters; every other battle a deck of thirty drawn from every card."""
    setup: dict[str, Any] = {seat: {"character": rng.choice(sorted(DUEL.characters))} for seat in ("p1", "p2")}
    if rng.chance(1, 2):
        setup["p1"]["deck"] = [rng.choice(sorted(DUEL.cards)) for _ in range(30)]
    return setup


# -- rat: moves, intrinsic moves and consumables (all "actions"), and their steps --------------

def rat_entries() -> dict[str, set[str]]:
    return {"actions": set(RAT.actions), "steps": {s.do for a in RAT.actions.values() for s in a.steps}}


def rat_reached(e: Event) -> Found:
    action = e.action if e.TOPIC == "rat.ActionTaken" else e.item if e.TOPIC == "rat.ConsumableUsed" else None
    if action in RAT.actions:
        yield "actions", action
        yield from steps_of(RAT.actions[action].steps)


def rat_setup(rng: Rng) -> dict[str, Any]:
    """A party of four from every member, each with random moves it can learn, equipment
    for its slots and consumables for its slots, against a random formation and enemy AI; or,
    one battle in three, against a seat that plays the enemies (a bot that may choose any
    move of their movesets, where the rules' AI values some too little ever to choose them)."""
    party = [rat_member(rng, member) for member in rng.shuffle(sorted(RAT.members))[:4]]
    return {"party": party, "formation": rng.choice(sorted(RAT.formations)), "enemy_ai": rng.choice(AI_LEVELS),
            "enemy_seat": rng.chance(1, 3)}


def rat_member(rng: Rng, name: str) -> dict[str, Any]:
    """`name` with four of the moves it learns (the default `max_moves`), random equipment in
    its slots and two of a consumable in each consumable slot."""
    member = RAT.members[name]
    equipment = []
    for kind, slots in member.slots.items():
        equipment += rng.shuffle(sorted(e for e, spec in RAT.equipment.items() if spec.kind == kind))[:slots]
    special = sorted(e for e, spec in RAT.equipment.items() if spec.only == name)
    if special:
        equipment.append(rng.choice(special))
    slots = member.consumable_slots + sum(RAT.equipment[e].consumable_slots for e in equipment)
    consumables = sorted(a for a, spec in RAT.actions.items() if spec.kind == "consumable")
    return {"member": name, "moves": list(rng.shuffle(member.moves)[:4]), "equipment": equipment,
            "items": {item: {"count": 2, "durability": 3} for item in rng.shuffle(consumables)[:slots]}}


# -- skirmish: cards (and their steps), talents, keywords and effects --------------------------

def skirmish_entries() -> dict[str, set[str]]:
    return {"cards": set(SKIRMISH.cards), "talents": set(SKIRMISH.talents), "keywords": set(SKIRMISH.keywords),
            "effects": set(SKIRMISH.effects),
            "steps": {s.do for c in SKIRMISH.cards.values() for s in (*c.effects, *c.keyed)}}


def skirmish_reached(e: Event) -> Found:
    topic = e.TOPIC
    if topic == "skirmish.CardPlayed":
        yield "cards", e.card
        yield from steps_of(SKIRMISH.cards[e.card].effects)
    elif topic == "skirmish.KeywordActivated":
        yield "keywords", e.keyword
        yield from steps_of(SKIRMISH.cards[e.card].keyed)
    elif topic == "skirmish.TalentTriggered":
        yield "talents", e.talent
    elif topic == "skirmish.EffectGiven":
        yield "effects", e.effect


def skirmish_setup(rng: Rng) -> dict[str, Any]:
    """A duel on a random board between teams of a whole party plus one more character, or
    (one battle in two) a raid of such a team against the boss."""
    parties = rng.shuffle(sorted(p for p, spec in SKIRMISH.parties.items() if not spec.raid_only))
    teams = [skirmish_team(rng, party, parties) for party in parties[:2]]
    if rng.chance(1, 2):
        return {"mode": "raid", "p1": {"team": teams[0]}, "p2": {"boss": rng.choice(sorted(SKIRMISH.bosses))}}
    return {"mode": "duel", "board": rng.choice(sorted(SKIRMISH.boards)), "p1": {"team": teams[0]},
            "p2": {"team": teams[1]}}


def skirmish_team(rng: Rng, party: str, parties: Sequence[str]) -> list[str]:
    members = sorted(c for c, spec in SKIRMISH.characters.items() if spec.party == party)
    others = sorted(c for c, spec in SKIRMISH.characters.items() if spec.party in parties and spec.party != party)
    return [*members, rng.choice(others)]


# -- battleboard: actions (and their steps) and effect tokens ----------------------------------

def board_entries() -> dict[str, set[str]]:
    return {"actions": set(BOARD.actions), "tokens": set(BOARD.tokens),
            "steps": {s.do for a in BOARD.actions.values() for s in a.steps}}


def board_reached(e: Event) -> Found:
    if e.TOPIC == "battleboard.ActionTaken":
        action = BOARD.actions[e.action]
        yield "actions", e.action
        yield from steps_of(action.steps)
        # a token that acts as it lands (Wound) is never given: it is reached as its action is
        yield from (("tokens", t) for t in action.effects if BOARD.tokens[t].immediate)
    elif e.TOPIC == "battleboard.TokenGiven":
        yield "tokens", e.token


def board_setup(rng: Rng) -> dict[str, Any]:
    """Two level-10 heroes, each with a primary and a secondary weapon, against four foes of
    different kinds drawn from every foe (few heroes, so the foes live to use their actions)."""
    first = rng.int(0, 19)
    return {"heroes": [board_hero(rng, first + k) for k in range(2)],
            "foes": list(rng.shuffle(sorted(BOARD.foes))[:4]), "map": rng.choice(sorted(BOARD.maps))}


def board_hero(rng: Rng, k: int) -> dict[str, Any]:
    """The `k`-th hero: its first archetype, primary and secondary weapon taken in turn (so
    that consecutive heroes carry different ones), the rest at random; ten upgrades of its
    class's twenty, and its 16 affinity points (6, and one a level) spread at random."""
    archetypes = sorted(BOARD.archetypes)
    cls = [archetypes[k % len(archetypes)], archetypes[(k + rng.int(1, len(archetypes) - 1)) % len(archetypes)]]
    primaries = sorted(w for w, spec in BOARD.weapons.items() if spec.slot == "primary")
    secondaries = sorted(w for w, spec in BOARD.weapons.items() if spec.slot == "secondary")
    affinities = dict.fromkeys(AFFINITIES, 0)
    for _ in range(16):
        affinities[rng.choice(sorted(affinities))] += 1
    return {"class": cls, "affinities": affinities,
            "weapons": [primaries[k % len(primaries)], secondaries[k % len(secondaries)]],
            "armor": rng.choice(sorted(BOARD.armor)), "level": 10,
            "upgrades": list(rng.shuffle([u for a in cls for u in BOARD.archetypes[a].upgrades])[:10])}


REACH: dict[str, Reach] = {
    "ring": Reach(ring_entries, ring_reached, ring_setup, 80),
    "deckduel": Reach(duel_entries, duel_reached, duel_setup, 60),
    "rat": Reach(rat_entries, rat_reached, rat_setup, 120),
    "skirmish": Reach(skirmish_entries, skirmish_reached, skirmish_setup, 50),
    "battleboard": Reach(board_entries, board_reached, board_setup, 40),
}


def battles(ruleset_id: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(bot policy, setup) of each battle of the run: the recorded setups under every policy
    but a searching one (it only picks among the legal commands, as the others do, at far more
    cost), then the varied ones under the random policy, which tries whatever is legal."""
    ruleset = get_ruleset(ruleset_id)
    for setup in (ruleset.fresh_setup(), *SCENARIOS.get(ruleset_id, {}).values()):
        for policy in policy_names(ruleset_id):
            if not get_policy(policy, ruleset_id).searches:
                yield policy, dict(setup)
    reach = REACH[ruleset_id]
    for n in range(reach.varied):
        yield "random", reach.setup(Rng(seeded_bytes("coverage", ruleset_id, n)))


@cache
def run(ruleset_id: str) -> Run:
    """Every battle of the ruleset's coverage run: what it reached, and sample records of each
    event type it produced."""
    ruleset, reach, found = get_ruleset(ruleset_id), REACH[ruleset_id], Run()
    for n, (policy, setup) in enumerate(battles(ruleset_id)):
        players = players_for(ruleset, setup)
        found.battles += 1
        try:
            match = play(ruleset, {seat: get_policy(policy, ruleset_id) for seat in players},
                         battle_id=f"coverage-{ruleset_id}-{n}", setup=setup, players=players,
                         revealed=seeded_bytes("coverage", ruleset_id, n), bot_seed=seeded_bytes("coverage-bots", n))
        except Exception as exc:        # a defect of the rules: reported, and the run goes on
            found.failed[n] = f"{type(exc).__name__}: {exc}"
            continue
        previous = GENESIS
        for rec in match.records:
            kept = found.samples[rec.event.TOPIC]
            if len(kept) < SAMPLES:
                kept.append((previous, rec))
            previous = rec.chain
            for kind, entry in reach.reached(rec.event):
                found.reached[kind].add(entry)
    return found


def unreached(ruleset_id: str) -> dict[str, list[str]]:
    """Per kind, the content entries no battle of the run reached (kinds with none left out)."""
    reached = run(ruleset_id).reached
    missing = {kind: sorted(ids - reached[kind]) for kind, ids in REACH[ruleset_id].entries().items()}
    return {kind: ids for kind, ids in missing.items() if ids}


def report(ruleset_ids: Sequence[str]) -> Mapping[str, object]:
    return {rid: {"battles": run(rid).battles, "failed": run(rid).failed, "unreached": unreached(rid)}
            for rid in ruleset_ids}


if __name__ == "__main__":
    for rid, found in report(sys.argv[1:] or sorted(REACH)).items():
        print(rid, found)
