"""Ring's `greedy` bot: the immediate expected value of a command, read from the seat's view
and the public content. Damage is weighed by the effectiveness odds the seed gives (SKL
against PRY), a KO and the enemy leader count most, AP spent counts against. What a step
takes beyond a unit's HP (the enemy leader's HP, LP, Ability Pools, equipment) is valued in
`losses.py`; the reading of the view every score starts from, in `reading.py`.

Its picks are counter-picks (`matchup.py`): a team and a Ring unit (at the start, and when
a KO'd one must be swapped out) are scored by how each unit fares against the enemy units
it will likely meet, and any pick within `NEAR_TIE` of the best is drawn by the bot's own
RNG, so battles vary and still replay from the seed.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from domain.engine.scoring import Wire, best
from domain.engine.bots import Bot
from domain.engine.rng import Rng

from ..content import Ability, Step, content
from ..formulas import BASIS, chances, damage
from .losses import equipment_off, leader_hit, lp_change, pool_loss
from .matchup import Fighter as MatchupFighter
from .matchup import fighter, magnitude, pressure
from .reading import HELPFUL, Reading, View, unit

KO_BONUS = 40.0
NEAR_TIE = 0.03             # picks scoring within 3% of the best are drawn by the RNG
AUGMENT_WORTH = 60.0        # an attribute doubled is worth more than a KO: it lasts the battle
AP_WORTH = 1.5              # what an AP spent could do elsewhere
SWAP_GAIN = 5.0            # the HP a swap for a stronger attacker must add over the rest of the turn
LEFTOVER = 0.01             # the share of its value a weak ability keeps when nothing better is left


class ValuePolicy(Bot):
    name = "greedy"
    needs_view = True

    def choose(self, view: View | None, legal: Sequence[Any], rng: Rng, memory: Any = None) -> Wire:
        assert view is not None
        read = self.reading(view, memory)
        if legal[0]["type"] == "pick_team":
            return near_best([sum(read.value(u) for u in cmd["units"]) for cmd in legal], legal, rng)
        if legal[0]["type"] == "pick_ring" or view["swap_required"]:
            return near_best([read.value(cmd["unit"]) for cmd in legal], legal, rng)
        return best([self.score(read, cmd) for cmd in legal], legal, rng)

    def reading(self, view: View, memory: Any) -> Reading:
        return Reading(view)

    def score(self, read: Reading, cmd: Wire) -> float:
        return score(read, cmd)


def near_best(scored: Sequence[float], legal: Sequence[Wire], rng: Rng) -> Wire:
    """A command scoring within `NEAR_TIE` of the best, drawn by the bot's RNG."""
    top = max(scored)
    floor = top - NEAR_TIE * abs(top)
    return legal[rng.choice([i for i, s in enumerate(scored) if s >= floor])]


def score(read: Reading, cmd: Wire) -> float:
    """The value of an in-battle command."""
    kind, view, foe = cmd["type"], read.view, read.foe
    if kind in ("choose_battlefield", "end_turn"):
        return 0.0
    if kind == "strike_leader":
        return leader_hit(view["seats"][foe]["leader"]["hp"], cmd["ap"])
    if kind == "swap":
        return swap_value(read, cmd["unit"])
    if kind == "use_item":
        ability = content().item_abilities[cmd["item"]]
        return ability_value(read, ability, cmd.get("target")) - 6.0
    ability = content().abilities[cmd["ability"]]
    value = ability_value(read, ability, cmd.get("target")) - bane(view, ability)
    # AP left at the end of a turn is lost: an ability that does any good beats ending the
    # turn, even where its AP would be better spent on something stronger.
    return max(value - AP_WORTH * ability.ap, LEFTOVER * value)


def bane(view: View, ability: Ability) -> float:
    """The HP a Caster's Bane in play takes from the user for the MP this ability takes."""
    if not ability.mp:
        return 0.0
    book = content()
    return sum(ability.mp * magnitude(book, d["kind"], d["severity"]) / BASIS
               for d in view["dynamics"] if d["active"] and d["kind"] == "casters_bane")


def swap_value(read: Reading, unit_id: str) -> float:
    """A KO'd Ring unit must go; a worn-out one may go for a healthy one; and a healthy unit
    that would take more HP from the enemy in the Ring with the AP left after the swap than
    the Ring unit with all of it comes in (seed 000, Swapping Units: a swap opens another
    unit's abilities), so a wall that cannot hurt its opponent does not hold the Ring all battle."""
    view, seat = read.view, read.seat
    side = view["seats"][seat]
    incoming = side["units"][f"{seat}.{unit_id}"]
    current = unit(view, side["ring"])
    if current is None or current["ko"]:
        return swap_rule(None, (incoming["hp"], incoming["max_hp"]), lambda: 0.0)
    return swap_rule((current["hp"], current["max_hp"]), (incoming["hp"], incoming["max_hp"]),
                     lambda: attack_gain(read, current, incoming))


def swap_rule(current: tuple[int, int] | None, incoming: tuple[int, int], gain: Callable[[], float]) -> float:
    """The greedy and search bots' swap, from (HP, max HP) of the Ring unit (None: it is down)
    and of the incoming one, and `gain`, the HP a swap adds (`attack_gain`, `swap_gain`), asked
    only of an incoming unit above half HP."""
    if current is None:
        return 50.0 + incoming[0] / 10
    if incoming[0] * 2 <= incoming[1]:      # an incoming unit at half HP or less gains nothing
        return -8.0
    if current[0] * 4 < current[1]:
        return 12.0
    more = gain()
    return more if more > SWAP_GAIN else -8.0


def attack_gain(read: Reading, current: Mapping[str, Any], incoming: Mapping[str, Any]) -> float:
    """The HP `incoming` would take from the enemy Ring unit over the AP left after the swap,
    less what `current` would over all of it (`swap_gain`), from the seat's view."""
    foe = unit(read.view, read.theirs["ring"])
    if foe is None or foe["ko"]:
        return 0.0
    leader = read.mine["leader"]
    return swap_gain(fighter(current), fighter(incoming), fighter(foe), leader["ap"], leader["swap_cost"], read.cap)


def swap_gain(current: MatchupFighter, incoming: MatchupFighter, foe: MatchupFighter, ap: int, swap_ap: int,
              cap: int) -> float:
    """What `incoming` would deal `foe` with `ap - swap_ap` AP, less what `current` would with
    `ap`, each at its best attack's rate (`matchup.pressure`): the greedy and search bots' swap."""
    book = content()
    now = pressure(current, foe, cap, book).dealt * ap
    then = pressure(incoming, foe, cap, book).dealt * (ap - swap_ap)
    return then - now


def base_stat(u: Mapping[str, Any], attr: str | None) -> int:
    """The attribute without this battle's augments, as far as the view shows it."""
    return max(1, u["stats"][attr or "atk"] - u.get("aug", {}).get(attr or "atk", 0))


def odds(user: Mapping[str, Any] | None, ability: Ability, foes: list[Mapping[str, Any]]) -> tuple[float, ...]:
    if ability.effectiveness == "sure" or user is None:
        return (0.0, 1.0, 0.0)
    skl = user["stats"]["skl"]
    found = chances(skl, [f["stats"]["pry"] for f in foes] or [skl])
    glance = 0 if ability.effectiveness == "friendly" else found.glancing
    return (glance / BASIS, (found.normal + found.glancing - glance) / BASIS, found.critical / BASIS)


def ability_value(read: Reading, ability: Ability, target: str | None) -> float:
    view, seat, foe = read.view, read.seat, read.foe
    me = view["seats"][seat]
    user = unit(view, me["ring"])
    kind = ability.target
    named: list[Mapping[str, Any] | None]    # None: an empty Ring, or a unit the view does not show
    if target is not None and kind != "dynamic":
        named = [unit(view, target)]
    elif kind == "enemy_ring":
        named = [unit(view, view["seats"][foe]["ring"])]
    elif kind in ("enemy_team", "ally_team"):
        side = view["seats"][foe if kind == "enemy_team" else seat]
        named = [side["units"][k] for k in side["team"] if not side["units"][k]["ko"]]
    elif kind == "self":
        named = [user]
    else:
        named = []
    targets = [t for t in named if t is not None and (ability.needs_tag is None or ability.needs_tag in t["tags"])]
    foes = [t for t in targets if t is not user and (kind.startswith("enemy"))]
    weights = odds(user, ability, foes)
    value = 0.0
    for step in ability.steps:
        for tier, weight in enumerate(weights):
            if weight:
                value += weight * step_value(read, user, ability, step, tier, targets, target)
    return value


def augment_value(t: Mapping[str, Any], attr: str | None, power: int, mine: bool) -> float:
    """A point is worth its share of the attribute: a raise helps an own unit, a cut an
    enemy one. Stacking pays less and less past half the base either way: a tank that only
    buffs never wins, nor a hexer that only curses."""
    base, now = base_stat(t, attr), t["stats"][attr or "atk"]
    stacked = now >= 1.5 * base if power > 0 else now <= base // 2
    worth = AUGMENT_WORTH * power / base * (0.1 if stacked else 1.0) * (1 if t["in_ring"] else 0.5)
    return worth if mine else -worth


def owned(view: View, seat: str, hit: Iterable[Mapping[str, Any]]) -> bool:
    return all(any(t is u for u in view["seats"][seat]["units"].values()) for t in hit)


def step_value(read: Reading, user: Any, ability: Ability, step: Step, tier: int, targets: list,
               target: str | None) -> float:
    view, seat = read.view, read.seat
    power = step.power[tier]
    hit = [user] if step.to == "self" else targets
    if step.do in ("damage", "true_damage"):
        total = 0.0
        for t in hit:
            dealt = hit_damage(user, ability, step, power, t)
            gain = min(dealt, t["hp"]) + (KO_BONUS if dealt >= t["hp"] > 0 else 0.0)
            total += -gain if owned(view, seat, [t]) else gain
        return total
    if step.do == "heal":
        return sum(0.8 * min(power, t["max_hp"] - t["hp"]) + (KO_BONUS if t["ko"] else 0.0) for t in hit)
    aimed = next((d for d in view["dynamics"] if d["id"] == target), None)
    if step.do == "inflict":
        if not step.dynamic or not step.severity[tier]:
            return 0.0
        chance = step.chance[tier] / BASIS
        if content().dynamics[step.dynamic].on == "dynamic":
            # A seal or an erosion is worth what it takes from the Dynamic it aims at.
            return -read.stance(aimed) * aimed["severity"] * chance if aimed is not None else 0.0
        helps = step.dynamic in HELPFUL
        friendly = owned(view, seat, hit) if hit else True
        sign = 1.0 if helps == friendly else -1.0 if helps else 1.0
        keys = {f"{t['seat']}.{t['unit']}" for t in hit} if hit else set()
        present = any(d["kind"] == step.dynamic and (d["unit"] in keys or not keys) for d in view["dynamics"])
        return sign * (0.5 if present else 2.0) * step.severity[tier] * chance
    if step.do == "augment":
        return sum(augment_value(t, step.attr, power, owned(view, seat, [t])) for t in hit)
    if step.do in LOSSES:
        return LOSSES[step.do](read, user, ability, step, tier, hit)
    if step.do == "leader_heal":
        return 2.0 * power
    if step.do in ("remove", "severity"):
        if aimed is None:
            return 0.0
        delta = -aimed["severity"] if step.do == "remove" else power
        return read.stance(aimed) * delta * 1.5
    if step.do == "mp":
        return 0.2 * power
    if step.do == "ap":
        return 1.5 * power
    return 0.5


def hit_damage(user: Mapping[str, Any] | None, ability: Ability, step: Step, power: int, t: Mapping[str, Any]) -> int:
    """The HP a damage step deals `t` at `power`, as far as the view can tell."""
    dealt = power * step.hits if step.do == "true_damage" or user is None else \
        damage(power, user["stats"]["atk"], t["stats"]["def"], step.penetration) * step.hits
    if not t["in_ring"] and ability.target in ("enemy_unit", "enemy_team"):
        dealt //= 2
    return dealt


def dealt_before(user: Any, ability: Ability, step: Step, tier: int, t: Mapping[str, Any]) -> int:
    """The HP the ability's damage steps before `step` deal `t` at this effectiveness."""
    dealt = 0
    for earlier in ability.steps:
        if earlier is step:
            break
        if earlier.do in ("damage", "true_damage"):
            dealt += hit_damage(user, ability, earlier, earlier.power[tier], t)
    return dealt


def leader_damage_value(read: Reading, user: Any, ability: Ability, step: Step, tier: int, hit: list) -> float:
    return leader_hit(read.theirs["leader"]["hp"], step.power[tier])


def lp_value(read: Reading, user: Any, ability: Ability, step: Step, tier: int, hit: list) -> float:
    """LP damage meets the unit with the HP the ability's earlier steps leave it; it does not
    reach one they knock out: the KO's LP is all it loses, valued with the damage."""
    total = 0.0
    for t in hit:
        hp = t["hp"] - dealt_before(user, ability, step, tier, t)
        if hp <= 0 < t["hp"]:
            continue
        total += lp_change(t, step.power[tier], owned(read.view, read.seat, [t]), hp=max(0, hp))
    return total


def pool_value(read: Reading, user: Any, ability: Ability, step: Step, tier: int, hit: list) -> float:
    return sum(pool_loss(read, t, step.pool, step.power[tier], owned(read.view, read.seat, [t])) for t in hit)


def disable_value(read: Reading, user: Any, ability: Ability, step: Step, tier: int, hit: list) -> float:
    return sum(equipment_off(read, t, step.power[tier], owned(read.view, read.seat, [t])) for t in hit)


# Steps that take something beyond a unit's HP (`losses.py`), by content `do`.
LOSSES = {"leader_damage": leader_damage_value, "lp": lp_value, "lose_pool": pool_value,
          "disable_equipment": disable_value}
