"""The opening: the enemies of the formation, the party as its seat built it, turn 1."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.engine.events import Event
from domain.engine.in_force import rules_in_force
from domain.engine.parsed import Reads, reads
from domain.engine.rng import Rng
from domain.engine.ruleset import Decision

from . import events as ev
from .content import Content, content
from .evolve import evolve
from .resolver import RESOLVING
from .setup import ENEMY_SEAT, PARTY_SEAT, MemberSetup, RatSetup
from .state import ENEMIES, PARTY, Entity, Params, Rat, Rules
from .turn import begin_turn


# Party members built so far, by everything each is built from: its setup (as exact JSON
# bytes), the params, and the content records it reads (by identity: the record objects are
# kept with the entity, so no other record can take an address while its entry lives).
# Entities are frozen, so battles of the same setup start from the same objects.
_BUILT: dict[tuple[Any, ...], tuple[tuple[Any, ...], Entity]] = {}
_BUILT_MAX = 512


def member_entity(m: MemberSetup, params: Params) -> Entity:
    """Seed 003, Stats: base + 10 per EV point + equipment, for each stat."""
    known = content()
    records = (known.members[m.member], *[known.equipment[e] for e in m.equipment],
               *[known.actions[mv] for mv in m.moves])
    key = (params, msgspec.json.encode(m), *[id(x) for x in records])
    found = _BUILT.get(key)
    if found is not None and all(a is b for a, b in zip(found[0], records)):
        return found[1]
    if len(_BUILT) >= _BUILT_MAX:
        _BUILT.clear()
    built = _member_entity(m, params)
    _BUILT[key] = (records, built)
    return built


def _member_entity(m: MemberSetup, params: Params) -> Entity:
    known = content()
    c = known.members[m.member]
    worn = [known.equipment[e] for e in m.equipment]

    def total(base: int, ev: str, bonus: int) -> int:
        return max(0, base + params.ev_points * m.evs.get(ev, 0) + bonus)
    max_hp = max(1, total(c.hp, "hp", sum(w.hp for w in worn)))
    levels: dict[str, int] = {}
    for w in worn:
        for stat_name, level in w.start_levels.items():
            levels[stat_name] = max(-4, min(4, levels.get(stat_name, 0) + level))
    intrinsic = ["strike", *(["protect"] if c.protect else []), *c.intrinsic, *(w.grants for w in worn if w.grants)]
    return Entity(
        id=c.id, name=c.name, side=PARTY, kind=c.id, hp=min(max_hp, m.hp or max_hp), max_hp=max_hp,
        atk=total(c.atk, "atk", sum(w.atk for w in worn)), defense=total(c.defense, "def", sum(w.defense for w in worn)),
        spd=total(c.spd, "spd", sum(w.spd for w in worn)), priority=c.priority, levels=levels,
        moves={mv: known.actions[mv].pp for mv in m.moves}, max_pp={mv: known.actions[mv].pp for mv in m.moves},
        intrinsic=tuple(dict.fromkeys(intrinsic)), items=dict(m.items), equipment=m.equipment)


def enemy_entities(setup: RatSetup) -> tuple[Entity, ...]:
    """The formation's enemies, `e1`, `e2`, ...; repeated kinds are named A, B, ..."""
    known = content()
    slots = known.formations[setup.formation].enemies
    kinds = [slot.enemy for slot in slots]
    out = []
    for i, slot in enumerate(slots):
        c = known.enemies[slot.enemy]
        ai = setup.enemy_ai or slot.ai
        repeat = kinds.count(slot.enemy) > 1
        name = f"{c.name} {chr(65 + kinds[:i].count(slot.enemy))}" if repeat else c.name
        worn = [known.equipment[e] for e in c.equipment]
        moves = c.moves[ai]
        out.append(Entity(
            id=f"e{i + 1}", name=name, side=ENEMIES, kind=c.id, hp=c.hp + sum(w.hp for w in worn),
            max_hp=c.hp + sum(w.hp for w in worn), atk=max(0, c.atk + sum(w.atk for w in worn)),
            defense=max(0, c.defense + sum(w.defense for w in worn)), spd=max(0, c.spd + sum(w.spd for w in worn)),
            priority=c.priority, moves={mv: known.actions[mv].pp for mv in moves},
            max_pp={mv: known.actions[mv].pp for mv in moves},
            intrinsic=tuple(dict.fromkeys(("strike", *c.intrinsic))), equipment=c.equipment, ai=ai))
    return tuple(out)


def _json(value: object) -> Any:
    """JSON-shaped (lists, not tuples), so an event equals its decoded copy."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _hp_apart(enemies: tuple[Entity, ...]) -> tuple[tuple[dict[str, Any], ...], dict[str, int]]:
    """Each enemy's entity without its HP, which everyone may see, and its HP, which only its
    side may: an enemy starts at its max HP."""
    shown = tuple(_without_hp(_json(e)) for e in enemies)
    return shown, {e.id: e.max_hp for e in enemies}


def _without_hp(entity: dict[str, Any]) -> dict[str, Any]:
    """An entity's JSON without its HP and max HP (every field of an entity is written)."""
    del entity["hp"], entity["max_hp"]
    return entity


def start(setup: RatSetup, rng: Rng) -> Decision[Rat]:
    """The opening batch, with the rule choices of the release in force (today's, or a kept
    one's), and the state it leads to (the opening's resolver applied every event)."""
    return _opening(setup, rules_in_force(Rules), rng)


# Openings worked out so far, by the setup object and the rules: each entry keeps the setup
# (so no other can take its address while it lives) and the content in force, both compared
# by identity, and the content records the opening read (`_reads`). Only an opening that drew
# nothing from the RNG is kept: it is then a function of these alone. Its events and state
# are frozen, so battles of the same setup share them.
_OPENINGS: dict[tuple[int, Rules], tuple[RatSetup, Any, Reads, Decision[Rat]]] = {}
_OPENINGS_MAX = 256


def _opening(setup: RatSetup, rules: Rules, rng: Rng) -> Decision[Rat]:
    """`_open`, once for the same setup object, rules, content and content records."""
    known = content()
    key = (id(setup), rules)
    found = _OPENINGS.get(key)
    if found is not None and found[0] is setup and found[1] is known and found[2].hold(known):
        return found[3]
    cursor = rng.cursor
    opened = _open(setup, rules, rng)
    if rng.cursor == cursor:
        if len(_OPENINGS) >= _OPENINGS_MAX:
            _OPENINGS.clear()
        _OPENINGS[key] = (setup, known, _reads(known, setup), opened)
    return opened


def _reads(known: Content, setup: RatSetup) -> Reads:
    """The content records an opening of `setup` reads: the formation; each enemy's record, its
    equipment and its moves; each member's record, its equipment and its moves; and the ailment
    of the kind a worn passive has, if any (a stat hook of that kind reads it for the queue)."""
    formation = known.formations[setup.formation]
    wanted = [("formations", setup.formation)]
    for slot in formation.enemies:
        enemy = known.enemies[slot.enemy]
        wanted.append(("enemies", slot.enemy))
        wanted += _worn(known, enemy.equipment)
        wanted += [("actions", mv) for mv in enemy.moves[setup.enemy_ai or slot.ai]]
    for m in setup.party:
        wanted.append(("members", m.member))
        wanted += _worn(known, m.equipment)
        wanted += [("actions", mv) for mv in m.moves]
    return reads(known, wanted)


def _worn(known: Content, equipment: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each equipment record's place, followed by that of the ailment of its passive's kind."""
    found: list[tuple[str, str]] = []
    for item in equipment:
        found += (("equipment", item), ("ailments", known.equipment[item].effect))
    return found


def _open(setup: RatSetup, rules: Rules, rng: Rng) -> Decision[Rat]:
    seats = {PARTY: PARTY_SEAT, ENEMIES: ENEMY_SEAT if setup.enemy_seat else None}
    members = tuple(member_entity(m, setup.params) for m in setup.party)
    enemies, enemy_hp = _hp_apart(enemy_entities(setup))
    opening: list[Event] = [
        ev.RatStarted(params=_json(setup.params), rules=_json(rules), formation=setup.formation, seats=seats,
                      enemies=enemies, enemy_seat=seats[ENEMIES], enemy_hp=enemy_hp),
        ev.PartyJoined(seat=PARTY_SEAT, members=tuple(_json(m) for m in members)),
        ev.PartyShown(members=tuple({"id": m.id, "name": m.name, "hp": m.hp, "max_hp": m.max_hp} for m in members)),
    ]
    state = None
    for event in opening:
        state = evolve(state, event)
    assert state is not None
    r = RESOLVING(state, rng)
    begin_turn(r)
    return Decision((*opening, *r.events), r.state)
