"""`memory` for skirmish: a one-ply tactician that weighs each command by what the seat has
seen, from its redacted view and its AI memory only.

- Threat: an opponent unit's blow now plus the damage the seat remembers it dealing per
  opponent turn (attacks, forced ones included, at its power; skills at their damage, Storm
  counted). Attacks and skill damage go where they take the most threat off the board,
  finishing blows first; an attack the target would counter costs the counter.
- Danger: the tiles each opponent could strike next turn (its speed, then exactly its reach).
  Ending a walk there costs the blows that would land, unless the walk sets up a better attack.
  An opponent the seat Restrained this turn (remembered from its own cards) stays so through
  its turn; one Restrained by its own Channel is free again.
- Patience: danger weighs less, and the units close in, once nobody has struck for a few turns,
  when a stand-off would empty the seat's deck first, or while the opponent's Storm grows; it
  weighs less too while the seat's side is clearly the stronger.
- Defence: Concealed and Fortified are worth the blows they turn away, more on the units the
  opponent has been aiming at.

Preparation uses the greedy scorer it is given. Scores are rounded, so near-ties are broken by
the bot's own RNG.
"""
from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.engine.scoring import Scorer, Wire
from domain.ai.memory import Memory

from ..content import Card, Content, content
from ..state import Params
from .sight import Pos, Unit, cell, gap, hp, present, reach, ring, seat_of, speed, walkable

ATTACKS = ("skirmish.Attacked", "skirmish.AttackForced")
PLAYED = "skirmish.CardPlayed"

@functools.cache
def restrains(rules: Content) -> frozenset[str]:
    """The cards that restrain an enemy."""
    return frozenset(c.id for c in rules.cards.values()
                     if any(s.effect == "restrained" for s in c.effects + c.keyed) and c.target == "enemy")


KILL = 40.0
GATHERING = frozenset({"gathering_storm"})      # talents that make waiting the opponent's gain
TOUGH = 100                         # more armor left than this counts as this much
QUIET_TURNS = 3
BOLD = 0.2                          # the weight of danger once a stand-off must end
RACE = 0.0                          # ...and while the opponent's Storm counter grows
STEP = 0.25                         # a walk must gain at least this much


def strike(attacker: Unit, target: Unit, rnd: int, p: Params) -> int:
    """An attack's power as the rules compute it: Prowess, then Amplify, then Fortified."""
    power = int(attacker["power"])
    if "prowess" in attacker["effects"]:
        power += power * p.prowess_percent // 100
    if "amplify" in attacker["effects"]:
        power += p.amplify_per_round * rnd
    return min(power, p.fortified_power) if "fortified" in target["effects"] else power


@dataclass
class Reading:
    """The seat's view and memory, read once per choice."""
    view: Mapping[str, Any]
    seat: str
    rnd: int
    params: Params                  # the battle's numbers, as its view states them
    mine: dict[str, Unit]
    theirs: dict[str, Unit]
    threat: dict[str, float]
    aimed_at: Counter[str]
    held: frozenset[str]            # opponents the seat Restrained this turn
    caution: float
    close: bool
    danger: dict[Pos, list[str]] = field(default_factory=dict)

    def worth(self, key: str) -> float:
        unit = self.view["units"][key]
        return self.threat.get(key, float(unit["power"])) + 10.0


def read(view: Mapping[str, Any], memory: Memory) -> Reading:
    seat = seat_of(view)
    foe = "p2" if seat == "p1" else "p1"
    mine = {k: u for k, u in view["units"].items() if present(u) and u["seat"] == seat}
    theirs = {k: u for k, u in view["units"].items() if present(u) and u["seat"] == foe}
    care, close = caution(view, memory, seat, foe)
    params = msgspec.convert(view["params"], type=Params)
    r = Reading(view=view, seat=seat, rnd=int(view["round"]), params=params, mine=mine, theirs=theirs,
                threat=threats(view, memory, foe, len(mine), params), aimed_at=aims(memory, foe),
                held=held(view, memory, seat), caution=care, close=close)
    r.danger = danger_map(r)
    return r


def card_damage(card: Card, storm: int = 1) -> int:
    """A card's printed damage, its Storm steps counted `storm` times."""
    keyed = sum(s.amount for s in card.keyed if s.do == "damage")
    return sum(s.amount for s in card.effects if s.do == "damage") + keyed * (storm if card.keyword == "storm" else 1)


def threats(view: Mapping[str, Any], memory: Memory, foe: str, targets: int, p: Params) -> dict[str, float]:
    """Each opponent unit's blow now plus the damage remembered per opponent turn: its
    attacks at its power, its skills at their damage with the Storm counter of that turn."""
    dealt: Counter[str] = Counter()
    turns = [t for t in memory.turns if t["view"].get("active") == foe]
    for action in memory.used_by(foe):
        key = f"{foe}.{action['data'].get('character')}"
        if key not in view["units"]:
            continue
        if action["type"] in ATTACKS:
            dealt[key] += view["units"][key]["power"]
        elif action["type"] == PLAYED and action["data"]["card"] in content().cards:
            card = content().cards[action["data"]["card"]]
            then = [t["view"]["seats"][foe]["storm"] for t in turns if t["seq"] < action["seq"]]
            damage = card_damage(card, (then[-1] if then else 0) + 1)
            dealt[key] += damage * (max(1, targets) if card.target == "all_enemies" else 1)
    return {key: u["power"] * (1 + p.prowess_percent / 100 if "prowess" in u["effects"] else 1)
            + dealt[key] / max(1, len(turns)) for key, u in view["units"].items() if u["seat"] == foe}


def aims(memory: Memory, foe: str) -> Counter[str]:
    """How often the opponent has aimed attacks and skills at each of the seat's units."""
    return Counter(a["target"] for a in memory.used_by(foe)
                   if a["type"] in (*ATTACKS, PLAYED) and isinstance(a["target"], str))


def held(view: Mapping[str, Any], memory: Memory, seat: str) -> frozenset[str]:
    """Opponents Restrained by the seat's own cards this turn: that lasts through their turn."""
    if view["active"] != seat or not memory.turns:
        return frozenset()
    since = memory.turns[-1]["seq"]
    aimed = {a["target"] for a in memory.used_by(seat)
             if a["type"] == PLAYED and a["seq"] > since and a["data"]["card"] in restrains(content())}
    return frozenset(k for k in aimed if k in view["units"] and "restrained" in view["units"][k]["effects"])


def caution(view: Mapping[str, Any], memory: Memory, seat: str, foe: str) -> tuple[float, bool]:
    """How much danger counts, and whether to close in (see the module's Patience)."""
    fights = [a["seq"] for a in memory.actions if a["type"] in ATTACKS or
              (a["type"] == PLAYED and a["data"].get("card") in content().cards and card_damage(content().cards[a["data"]["card"]]))]
    last = fights[-1] if fights else 0
    quiet = sum(1 for t in memory.turns if t["seq"] > last and t["turn"] > 0)
    mine, theirs = view["seats"][seat]["deck_count"], view["seats"][foe]["deck_count"]
    if quiet >= QUIET_TURNS or (mine <= theirs and mine < 10):
        return BOLD, True
    gathering = any(u["talent"] in GATHERING and u["seat"] == foe and present(u) for u in view["units"].values())
    if gathering or view["seats"][foe]["storm"] > max(2, view["seats"][seat]["storm"]):
        return RACE, True           # the opponent's Storm counter outgrows the seat's, or rises on its own
    return (0.5 if strength(view, seat) > 1.25 * strength(view, foe) else 1.0), False


def strength(view: Mapping[str, Any], seat: str) -> float:
    return float(sum(u["power"] * hp(u) for u in view["units"].values() if u["seat"] == seat and present(u)))


def danger_map(r: Reading) -> dict[Pos, list[str]]:
    """For each tile, the opponents able to strike it next turn."""
    tiles = r.view["tiles"]
    found: dict[Pos, list[str]] = {}
    for key, u in r.theirs.items():
        if key in r.held:
            continue
        spots = {spot for x in walkable(tiles, u, r.seat) for spot in ring(x, reach(u), len(tiles[0]), len(tiles))}
        for spot in sorted(spots):
            found.setdefault(spot, []).append(key)
    return found


def loss(r: Reading, key: str, damage: float) -> float:
    """What taking `damage` costs the unit's side: all of it if the unit would faint, else its
    share of what the unit can take (counted up to TOUGH, so a boss's blows still count)."""
    unit = r.view["units"][key]
    if damage >= hp(unit):
        return KILL + 2 * r.worth(key)
    return r.worth(key) * damage / min(hp(unit), TOUGH) * 1.5


def exposure(r: Reading, me: Unit, at: Pos, spared: str | None = None) -> float:
    """The blows the opponent could land on `me` standing at `at` next turn."""
    if "concealed" in me["effects"]:
        return 0.0
    hits = sorted((strike(r.theirs[k], me, r.rnd, r.params) for k in r.danger.get(at, ()) if k != spared),
                  reverse=True)
    if hits and "fortified" in me["effects"]:
        hits[0] = r.params.fortified_power
    return float(sum(hits))


def hit_value(r: Reading, me: str, target: str, at: Pos) -> float:
    """An attack by `me` from `at`: the threat it removes, less the counter it invites."""
    attacker, defender = r.view["units"][me], r.theirs[target]
    dmg = strike(attacker, defender, r.rnd, r.params)
    value = loss(r, target, dmg)
    if dmg < hp(defender):
        if "fortified" in defender["effects"]:
            value += 4.0 - attacker["power"] / 10
        answers = (gap(at, defender["cell"]) == reach(defender) and not defender["countered"]
                   and "restrained" not in defender["effects"])
        if answers:
            answer = strike(defender, {**attacker, "effects": without(attacker)}, r.rnd, r.params)
            value -= min(0.7, r.caution + 0.2) * loss(r, me, answer)
    return value


def without(u: Unit) -> list[str]:
    """Effects left on an attacker once its strike consumes Prowess and Amplify and ends Concealed."""
    return [e for e in u["effects"] if e not in ("prowess", "amplify", "concealed")]


def kills(r: Reading, me: str, target: str) -> bool:
    return strike(r.view["units"][me], r.theirs[target], r.rnd, r.params) >= hp(r.theirs[target])


def best_hit(r: Reading, me: str, at: Pos) -> tuple[float, str | None]:
    """The best attack `me` could make from `at`, and its target."""
    unit = r.view["units"][me]
    options = [(hit_value(r, me, k, at), k) for k, t in r.theirs.items()
               if gap(at, t["cell"]) == reach(unit) and "concealed" not in t["effects"]]
    return max(options, default=(0.0, None))


def standing(r: Reading, me: str, at: Pos, spared: str | None, attacks: bool = False) -> float:
    """How good a tile is to end the turn on: out of danger (less the counter-attack the unit
    would answer with), yet near the opponents: at the edge of its own striking distance, or
    at its reach once the battle has gone quiet."""
    unit = r.view["units"][me]
    if attacks:
        unit = {**unit, "effects": without(unit)}
    risk = 0.0
    if r.danger.get(at):
        risk = loss(r, me, exposure(r, unit, at, spared))
        if "restrained" not in unit["effects"]:
            answers = [loss(r, k, strike(unit, r.theirs[k], r.rnd, r.params)) for k in r.danger[at]
                       if k != spared and reach(r.theirs[k]) == reach(unit)]
            risk -= 0.7 * max(answers, default=0.0)
    near = min((gap(at, t["cell"]) for t in r.theirs.values()), default=0)
    wanted = reach(unit) + (0 if r.close else speed(unit))
    return -r.caution * max(risk, 0.0) - 0.3 * abs(near - wanted)


def may_attack(unit: Unit) -> bool:
    return not unit["attacked"] and "restrained" not in unit["effects"]


def move_value(r: Reading, cmd: Wire) -> float:
    key = f"{r.seat}.{cmd['character']}"
    unit = r.view["units"][key]
    here, there = cell(unit), (cmd["to"][0], cmd["to"][1])
    if not may_attack(unit):
        return standing(r, key, there, None) - standing(r, key, here, None) - STEP
    hit_here, _ = best_hit(r, key, here)
    hit_there, victim = best_hit(r, key, there)
    spared = victim if victim is not None and kills(r, key, victim) else None
    before = max(hit_here, 0.0) + standing(r, key, here, None)
    return max(hit_there, 0.0) + standing(r, key, there, spared, attacks=hit_there > 0) - before - STEP


def attack_value(r: Reading, cmd: Wire) -> float:
    key = f"{r.seat}.{cmd['character']}"
    here = cell(r.view["units"][key])
    value = hit_value(r, key, cmd["target"], here)
    spared = cmd["target"] if kills(r, key, cmd["target"]) else None
    return value + standing(r, key, here, spared, attacks=True) - standing(r, key, here, None)


def keyed_times(r: Reading, card: Card, user: Unit, cmd: Wire) -> int:
    """How often the card's keyword runs its keyed steps, as the rules will decide."""
    me = r.view["seats"][r.seat]
    return {"storm": int(me["storm"]) + 1, "channel": int("restrained" not in user["effects"]),
            "exert": int(bool(cmd.get("exert"))),
            "aftermath": int(user["attacked"] and "adrenaline" not in user["effects"]),
            "threshold": int(me["ap"] - card.cost >= r.params.threshold_ap)}.get(card.keyword or "", 0)


def targets(r: Reading, card: Card, user: str, cmd: Wire) -> list[str]:
    every = {"self": [user], "all_allies": list(r.mine), "all_enemies": list(r.theirs)}
    return every.get(card.target, [cmd["target"]] if cmd.get("target") in r.view["units"] else [])


def effect_value(r: Reading, key: str, effect: str) -> float:
    """An effect given to a unit: worth the blows it adds or turns away."""
    unit = r.view["units"][key]
    if effect in unit["effects"]:
        return 0.0
    if unit["seat"] != r.seat:
        return 0.6 * r.threat.get(key, 0.0) + 2.0 if effect == "restrained" else 0.0
    here = cell(unit)
    risk = exposure(r, unit, here)
    aimed = 1.5 * r.aimed_at[key]
    if effect == "concealed":
        keeps = 0.4 if may_attack(unit) and best_hit(r, key, here)[1] is not None else 1.0
        return (0.8 * loss(r, key, risk) + aimed) * keeps
    if effect == "fortified":
        shielded = exposure(r, {**unit, "effects": [*unit["effects"], "fortified"]}, here)
        return 0.8 * (loss(r, key, risk) - loss(r, key, shielded)) + aimed / 2 + 1.0
    return {"prowess": 0.6 * unit["power"], "amplify": 0.8 * r.params.amplify_per_round * r.rnd + 1.0,
            "adrenaline": 6.0 if unit["attacked"] else 2.0,
            "aggression": 2.0 if hp(unit) > 40 and not unit["ranged"] else -3.0}.get(effect, 0.0)


def steps_value(r: Reading, card: Card, user: str, cmd: Wire, times: int) -> float:
    """The card's steps (keyed ones `times` over), damage and healing summed per unit first."""
    damage: Counter[str] = Counter()
    healing: Counter[str] = Counter()
    value = 0.0
    hand = int(r.view["seats"][r.seat]["hand_count"]) - 1
    for step, n in [(s, 1) for s in card.effects] + [(s, times) for s in card.keyed]:
        if n == 0:
            continue
        hit = [user] if step.do == "gain" else targets(r, card, user, cmd)
        if step.do == "damage":
            damage.update({k: step.amount * n for k in hit if k in r.theirs})
        elif step.do == "heal":
            healing.update({k: step.amount * n for k in hit if k in r.mine})
        elif step.do in ("gain", "give") and step.effect is not None:
            value += sum(effect_value(r, k, step.effect) for k in hit)
        elif step.do == "draw":
            drawn = min(step.count * n, r.params.hand_limit - hand)
            value += 2.5 * max(0, drawn) if r.view["seats"][r.seat]["deck_count"] > 6 else -2.0
    value += sum(loss(r, k, d) for k, d in damage.items())
    units = r.view["units"]
    return value + sum(r.worth(k) * min(h, units[k]["damage"]) / (units[k]["armor"] + 1) * 1.5
                       for k, h in healing.items())


def play_value(r: Reading, cmd: Wire) -> float:
    card = content().cards[cmd["card"]]
    key = f"{r.seat}.{cmd['character']}"
    user = r.view["units"][key]
    times = keyed_times(r, card, user, cmd)
    value = steps_value(r, card, key, cmd, times)
    if card.keyword == "aftermath" and not times and may_attack(user):
        value -= steps_value(r, card, key, cmd, 1) - value     # attacking first would add the keyed steps
    if card.keyword == "channel" and "restrained" not in user["effects"]:
        here = cell(user)
        spent = max(best_hit(r, key, here)[0], 0.0) if may_attack(user) else 0.0
        value -= 3.0 + spent + 0.3 * loss(r, key, exposure(r, user, here))
    if cmd.get("exert"):
        value -= 4.0
    return value - 0.5 * card.cost


COMBAT = {"attack": attack_value, "move": move_value, "play": play_value}      # ending the turn scores 0


def rate(base: Scorer, view: Mapping[str, Any], memory: Memory | None, legal: Sequence[Wire]) -> list[float]:
    """Combat from the reading of view and memory, rounded to quarters; the rest by `base`."""
    memory = memory or Memory(seat_of(view))
    if view["phase"] != "combat":
        return [round(base(view, cmd), 2) for cmd in legal]
    r = read(view, memory)
    scores = [COMBAT[cmd["type"]](r, cmd) if cmd["type"] in COMBAT else 0.0 for cmd in legal]
    return [round(v * 4) / 4 for v in scores]
