"""What a seat knows of a rat battle, and battles consistent with it, for the `search` bot
(seed 003, In-Battle UI and AI; README "What is hidden from whom").

`knowledge(state, seat)` keeps the seat's own side whole and the public board (the queue,
levels, ailments, KO, wishes, the revealed history) as it is. Of every entity of the other
side it replaces what the seat may not see with a mark:

- an enemy's HP and max HP (hidden from the party): `hp = 0` once knocked out or dead (public);
  else, while ANALYZE shows its bar, `hp` is the bar's whole percent and `max_hp` is 100, so
  that the mark's own bar is the one shown; without the bar both are `UNKNOWN`. An analyzed
  enemy's `max_hp` is 100 even when down, an unanalyzed one's `UNKNOWN`;
- its ATK, DEF and SPD: an enemy's are its bestiary's (content other than HP is public, README);
  a party member's, seen by the enemies' seat, are its member's base stats, without EVs or
  equipment;
- its moves: an enemy's whole moveset is public (the bestiary per AI level), at full PP but for
  the moves used, whose PP is public; a party member keeps only the moves it used;
- a party member's consumables, equipment and worn passives (seen by the enemies' seat): none;
- the other side's plans for the turn (only the fact of having planned is seen): `Plan(actor,
  action=UNKNOWN_PLAN)`.

`determinize(knowledge, seat, rng)` fills every mark:

- an enemy's max HP: guessed from what the party sees. While its bar shows how much of its HP
  is gone (`100 - pct`) and the party's hits on it (the public history: its own ATK, the
  enemy's public DEF, the mean roll) say how much HP that was, the guess is their ratio; else
  the party's mean max HP (four times it for a boss), between half and one and a half times
  that. It is at least one more than the hits took from a standing enemy. Then its HP: drawn
  uniformly within the band of its bar, or, with no bar, its max HP less the hits;
- a party member's stats: its base plus EVs drawn within its budget, after those its max HP
  implies; its other moves: its member's default moves at full PP; no consumables, no equipment;
- a plan of the other side: one of that entity's options, drawn uniformly.

The enemy AI reads the enemies' side of whichever state it is given (rules, not knowledge), so
in a determinized state it plays from the sampled HP; its knowledge of the board (the public
history, the AI levels) is kept as it is.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from domain.engine.rng import Rng

from .content import Content, content
from .legal import options
from .state import ENEMIES, PARTY, Entity, Plan, Rat, foe

UNKNOWN = -1                    # a number the seat may not see
UNKNOWN_PLAN = "?"              # a plan of the other side, made but not revealed
BOSS_FACTOR = 4                 # a boss is guessed four times as tough as a party member
MEAN_ROLL_PCT = 92              # the middle of the 85..100 % damage roll


def knowledge(state: Rat, seat: str) -> Rat:
    """`state` as `seat` knows it: the other side's hidden parts replaced by marks."""
    side = state.seat_side(seat)
    if side is None:
        return state
    other = foe(side)
    known = content()
    entities = {k: e if e.side == side else _marked(state, e, known) for k, e in state.entities.items()}
    plans = {k: p if entities[k].side == side else Plan(actor=k, action=UNKNOWN_PLAN) for k, p in state.plans.items()}
    effects = state.effects
    if other == PARTY:          # worn passives of the party are its seat's secret
        effects = tuple(x for x in effects if not (x.source == "equipment" and entities[x.owner].side == PARTY))
    return replace(state, entities=entities, plans=plans, effects=effects)


def _marked(s: Rat, e: Entity, known: Content) -> Entity:
    levels = {k: v for k, v in e.levels.items() if v}
    if e.side == ENEMIES:
        c = known.enemies[e.kind]
        worn = [known.equipment[q] for q in c.equipment]
        hp, max_hp = _hp_mark(s, e)
        return replace(e, hp=hp, max_hp=max_hp, levels=levels, atk=max(0, c.atk + sum(w.atk for w in worn)),
                       defense=max(0, c.defense + sum(w.defense for w in worn)),
                       spd=max(0, c.spd + sum(w.spd for w in worn)),
                       moves={m: pp if m in e.used else e.max_pp[m] for m, pp in e.moves.items()})
    m = known.members[e.kind]
    return replace(e, atk=m.atk, defense=m.defense, spd=m.spd, levels=levels, items={}, equipment=(),
                   moves={k: pp for k, pp in e.moves.items() if k in e.used},
                   max_pp={k: pp for k, pp in e.max_pp.items() if k in e.used})


def _hp_mark(s: Rat, e: Entity) -> tuple[int, int]:
    """(hp, max_hp) as the party sees them: the bar's percent of 100, 0 when down, else unknown."""
    analyzed = s.has(e.id, "analyzed")
    if e.ko or e.dead:
        return 0, 100 if analyzed else UNKNOWN
    if analyzed:
        return max(1, e.hp * 100 // e.max_hp), 100
    return UNKNOWN, UNKNOWN


def determinize(knowledge: Rat, seat: str, rng: Rng) -> Rat:
    """A full state `seat` could be in: every mark of `knowledge` filled by a draw."""
    side = knowledge.seat_side(seat)
    if side is None:
        return knowledge
    known = content()
    entities = dict(knowledge.entities)
    for k, e in knowledge.entities.items():
        if e.side == side:
            continue
        if e.side == ENEMIES:
            entities[k] = _enemy_drawn(knowledge, e, rng)
        else:
            entities[k] = _member_drawn(knowledge, e, known, rng)
    drawn = replace(knowledge, entities=entities)
    if any(p.action == UNKNOWN_PLAN for p in knowledge.plans.values()):
        plans = {k: _plan_drawn(drawn, p, rng) for k, p in knowledge.plans.items()}
        drawn = replace(drawn, plans=plans)
    return drawn


def _plan_drawn(s: Rat, plan: Plan, rng: Rng) -> Plan:
    if plan.action != UNKNOWN_PLAN:
        return plan
    act = rng.choice(options(s, s.entities[plan.actor]))
    return Plan(actor=act.actor, action=act.action, target=act.target, move=act.move)


def _enemy_drawn(s: Rat, e: Entity, rng: Rng) -> Entity:
    """An enemy with its max HP guessed and its HP drawn (see the module's docstring)."""
    hits = hits_taken(s, e)
    pct = e.hp if e.max_hp == 100 and not (e.ko or e.dead) else None
    if pct is not None and pct < 100 and hits > 0:
        max_hp = max(1, hits * 100 // (100 - pct))
    else:
        guess = _guess(s, e)
        max_hp = rng.int(max(1, guess // 2), max(1, guess * 3 // 2))
    if not (e.ko or e.dead):
        max_hp = max(max_hp, hits + 1)
    if e.ko or e.dead:
        hp = 0
    elif pct is None:
        hp = max(1, max_hp - hits)
    else:
        max_hp = _with_band(pct, max_hp)
        hp = rng.int(*hp_band(pct, max_hp))
    return replace(e, hp=hp, max_hp=max_hp)


def _guess(s: Rat, e: Entity) -> int:
    """An enemy's max HP as the party guesses it: a party member's mean max HP, a boss's four times."""
    members = s.side(PARTY)
    mean = sum(m.max_hp for m in members) // max(1, len(members))
    return mean * BOSS_FACTOR if content().enemies[e.kind].boss else mean


def hp_band(pct: int, max_hp: int) -> tuple[int, int]:
    """The HPs whose bar shows `pct` at `max_hp` (`stats.fraction_pct`): lowest, highest."""
    if pct >= 100:
        return max_hp, max_hp
    lo = 1 if pct <= 1 else -(-pct * max_hp // 100)
    return lo, -(-(pct + 1) * max_hp // 100) - 1


def _with_band(pct: int, max_hp: int) -> int:
    """`max_hp`, or the least above it whose HPs can show `pct` (a small max HP skips some)."""
    while hp_band(pct, max_hp)[0] > hp_band(pct, max_hp)[1]:
        max_hp += 1
    return max_hp


def hits_taken(s: Rat, e: Entity) -> int:
    """The HP the party's revealed damaging actions took from enemy `e`, as the party works it
    out: power x its member's ATK x scale / (scale + the enemy's DEF) x the mean roll."""
    return _hits(s).get(e.id, 0)


# The knowledge last asked about and its hits by enemy: a search draws from one knowledge
# object many times. A strong reference, so no other object can take its address meanwhile.
_HITS: list[Any] = [None, {}]


def _hits(s: Rat) -> dict[str, int]:
    """`hits_taken` of every enemy, in one pass over the revealed actions."""
    if _HITS[0] is s:
        found: dict[str, int] = _HITS[1]
        return found
    actions, scale, found = content().actions, s.params.defense_scale, {}
    enemies = [e for e in s.entities.values() if e.side == ENEMIES]
    for plan in _revealed(s):
        user = s.entities.get(plan.actor)
        action = actions[plan.action]
        power = sum(step.power for step in action.steps if step.do == "damage")
        if user is None or user.side != PARTY or not power:
            continue
        for e in enemies:
            if plan.target == e.id or action.target == "all_enemies":
                hit = power * user.atk * scale * MEAN_ROLL_PCT // (100 * (scale + e.defense) * 100)
                found[e.id] = found.get(e.id, 0) + hit
    _HITS[0], _HITS[1] = s, found
    return found


def _revealed(s: Rat) -> Iterable[Plan]:
    for log in s.history:
        yield from log.actions
    yield from s.this_turn


def _member_drawn(s: Rat, e: Entity, known: Content, rng: Rng) -> Entity:
    """A party member as the enemies' seat may guess it: EVs drawn within its budget after
    those its max HP implies, its default moves besides those used, nothing carried or worn."""
    m, params = known.members[e.kind], s.params
    per = max(1, params.ev_points)
    evs = {"atk": 0, "def": 0, "spd": 0}
    left = m.ev_budget - min(params.ev_max, max(0, (e.max_hp - m.hp) // per))
    for _ in range(max(0, left)):
        open_stats = [k for k, v in evs.items() if v < params.ev_max]
        if not open_stats:
            break
        evs[rng.choice(open_stats)] += 1
    moves = dict(e.moves)
    for mv in m.default_moves:
        if mv not in moves and len(moves) < params.max_moves:
            moves[mv] = known.actions[mv].pp
    return replace(e, atk=e.atk + per * evs["atk"], defense=e.defense + per * evs["def"], spd=e.spd + per * evs["spd"],
                   moves=moves, max_pp={**{k: known.actions[k].pp for k in moves}, **e.max_pp})
