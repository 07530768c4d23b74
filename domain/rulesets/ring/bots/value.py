"""Ring heuristic: the immediate expected value of a command, read from the seat's view
and the public content. Damage is weighed by the effectiveness odds the seed gives
(SKL against PRY), a KO and the enemy leader count most, AP spent counts against."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.ai.greedy import Wire

from ..content import Ability, content
from ..formulas import chances, damage

View = Mapping[str, Any]
KO_BONUS = 40.0


def me_and_foe(view: View) -> tuple[str, str]:
    mine = next(seat for seat, side in view["seats"].items() if side["items"] is not None)
    return mine, next(seat for seat in view["seats"] if seat != mine)


def unit(view: View, key: str | None) -> Mapping[str, Any] | None:
    if key is None:
        return None
    return view["seats"][key.split(".", 1)[0]]["units"].get(key)


def score(view: View, cmd: Wire) -> float:
    kind = cmd["type"]
    seat, foe = me_and_foe(view)
    if kind == "pick_team":
        return sum(strength(view["seats"][seat]["units"][f"{seat}.{u}"]) for u in cmd["units"])
    if kind == "pick_ring":
        return strength(view["seats"][seat]["units"][f"{seat}.{cmd['unit']}"])
    if kind in ("choose_battlefield", "end_turn"):
        return 0.0
    if kind == "strike_leader":
        hp = view["seats"][foe]["leader"]["hp"]
        return 1000.0 if cmd["ap"] >= hp else 4.0 * cmd["ap"]
    if kind == "swap":
        return swap_value(view, seat, cmd["unit"])
    if kind == "use_item":
        ability = content().item_abilities[cmd["item"]]
        return ability_value(view, seat, foe, ability, cmd.get("target")) - 6.0
    ability = content().abilities[cmd["ability"]]
    return ability_value(view, seat, foe, ability, cmd.get("target")) - 1.5 * ability.ap


def strength(u: Mapping[str, Any]) -> float:
    if u["removed"]:
        return -1000.0
    stats = u["stats"]
    return (u["hp"] + 2 * stats["atk"] + stats["def"] + stats["skl"] + stats["pry"]) * (1 + 0.1 * u["lp"])


def swap_value(view: View, seat: str, unit_id: str) -> float:
    side = view["seats"][seat]
    incoming = side["units"][f"{seat}.{unit_id}"]
    current = unit(view, side["ring"])
    if view["swap_required"] or current is None or current["ko"]:
        return 50.0 + incoming["hp"] / 10
    if current["hp"] * 4 < current["max_hp"] and incoming["hp"] * 2 > incoming["max_hp"]:
        return 12.0
    return -8.0


def base_stat(u: Mapping[str, Any], attr: str | None) -> int:
    """The attribute without this battle's augments, as far as the view shows it."""
    return max(1, u["stats"][attr or "atk"] - u.get("aug", {}).get(attr or "atk", 0))


def odds(view: View, user: Mapping[str, Any] | None, ability: Ability, foes: list[Mapping[str, Any]]) -> tuple:
    if ability.effectiveness == "sure" or user is None:
        return (0.0, 1.0, 0.0)
    skl = user["stats"]["skl"]
    found = chances(skl, [f["stats"]["pry"] for f in foes] or [skl])
    glance = 0 if ability.effectiveness == "friendly" else found.glancing
    return (glance / 10_000, (found.normal + found.glancing - glance) / 10_000, found.critical / 10_000)


def ability_value(view: View, seat: str, foe: str, ability: Ability, target: str | None) -> float:
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
    targets = [t for t in named if t is not None]
    foes = [t for t in targets if t is not user and (kind.startswith("enemy"))]
    weights = odds(view, user, ability, foes)
    value = 0.0
    for step in ability.steps:
        for tier, weight in enumerate(weights):
            if weight:
                value += weight * step_value(view, seat, user, ability, step, tier, targets, target)
    return value


def step_value(view: View, seat: str, user: Any, ability: Ability, step: Any, tier: int, targets: list,
               target: str | None) -> float:
    power = step.power[tier]
    hit = [user] if step.to == "self" else targets
    if step.do in ("damage", "true_damage"):
        total = 0.0
        for t in hit:
            dealt = power * step.hits if step.do == "true_damage" or user is None else \
                damage(power, user["stats"]["atk"], t["stats"]["def"], step.penetration) * step.hits
            if not t["in_ring"] and ability.target in ("enemy_unit", "enemy_team"):
                dealt //= 2
            own = t["unit"] and any(t is u for u in view["seats"][seat]["units"].values())
            gain = min(dealt, t["hp"]) + (KO_BONUS if dealt >= t["hp"] > 0 else 0.0)
            total += -gain if own else gain
        return total
    if step.do == "heal":
        return sum(0.8 * min(power, t["max_hp"] - t["hp"]) + (KO_BONUS if t["ko"] else 0.0) for t in hit)
    if step.do == "inflict":
        if not step.dynamic or not step.severity[tier]:
            return 0.0
        friendly = all(any(t is u for u in view["seats"][seat]["units"].values()) for t in hit) if hit else True
        helps = content().dynamics[step.dynamic].id in ("regeneration", "nurturing", "fortify", "rage", "brutality",
                                                      "shadow", "counter_stance", "retaliation", "keen_eye",
                                                      "mana_spring", "quick_hands", "tailwind", "fire_ward",
                                                      "soul_anchor")
        sign = 1.0 if helps == friendly else -1.0 if helps else 1.0
        keys = {f"{t['seat']}.{t['unit']}" for t in hit} if hit else set()
        present = any(d["kind"] == step.dynamic and (d["unit"] in keys or not keys) for d in view["dynamics"])
        return sign * (0.5 if present else 2.0) * step.severity[tier] * step.chance[tier] / 10_000
    if step.do == "augment":
        # Stacking the same attribute pays less and less: a tank that only buffs never wins.
        return sum(power * (1.5 if t["stats"][step.attr or "atk"] < 1.5 * base_stat(t, step.attr) else 0.1)
                   * (1 if t["in_ring"] else 0.5) for t in hit)
    if step.do in ("leader_damage",):
        return 4.0 * power
    if step.do in ("leader_heal",):
        return 2.0 * power
    if step.do in ("remove", "severity"):
        dyn = next((d for d in view["dynamics"] if d["id"] == target), None)
        if dyn is None:
            return 0.0
        theirs = dyn["seat"] not in (seat, None)
        delta = -dyn["severity"] if step.do == "remove" else power
        return (-delta if theirs else delta) * 1.5
    if step.do == "mp":
        return 0.2 * power
    if step.do == "ap":
        return 1.5 * power
    return 0.5
