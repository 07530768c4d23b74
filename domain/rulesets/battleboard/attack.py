"""Seed 002, Resolving Attacks: hit dice, the Attack Value, the three bands, the defender's
choice of token, and the effects an attack applies."""
from __future__ import annotations

import re
from functools import cache

from domain.engine.errors import RuleViolation

from . import events as ev
from .board import best_origins, die_penalty, distance, origin_reaches
from .content import Action, content
from .hooks import DefenseQuery, EvasionQuery, defense_of
from .resolver import BoardResolver, lose_token
from .state import AttackPlan, Battleboard, Combatant, Pos
from .steps import apply_steps

EXPRESSION = re.compile(r"^(\d+)d\*(\d+)([+-]\d+)?$")


@cache
def parse_dice(expression: str) -> tuple[int, int, int]:
    """`Nd*M+K`: N twelve-sided dice; the Attack Value is hits x M + K (README: the seed's text
    says "multiplied by 3" of 3d*4+1, the notation says 4; the notation wins)."""
    found = EXPRESSION.match(expression)
    if found is None:
        raise ValueError(f"not a dice expression Nd*M+K: {expression!r}")
    return int(found[1]), int(found[2]), int(found[3] or 0)


def is_hit(s: Battleboard, die: int, evasion: int) -> bool:
    return die > evasion or die >= s.params.auto_hit


def band(av: int, defense: int) -> str:
    """Above Defense the defenses break; 0 or less the attack is ignored; else a token is tapped."""
    if av <= 0:
        return "ignored"
    return "break" if av > defense else "tap"


def best_origin(s: Battleboard, attacker: Combatant, target: Combatant, reach: int) -> Pos | None:
    """The origin within `reach` of the target that loses the fewest dice (the first on the path
    among equals), or None if none is in reach."""
    assert target.cell is not None
    table = best_origins(s, attacker, reach)
    if table is not None:
        return table.get(target.cell)
    return nearest_origin(origin_reaches(s, attacker), target.cell, reach)


def nearest_origin(options: tuple[tuple[Pos, int, dict[Pos, int] | None], ...], cell: Pos, reach: int) -> Pos | None:
    """`best_origin` from the attacker's `origin_reaches`. (The die the target's own cell costs
    is the same from every origin, so the origins compare by the attacker's share alone.)"""
    best, fewest = None, 0
    for origin, lost, spans in options:
        steps = distance(origin, cell) if spans is None else spans.get(cell)
        if steps is not None and steps <= reach and (best is None or lost < fewest):
            best, fewest = origin, lost
    return best


def run_attacks(b: BoardResolver, plan: AttackPlan) -> None:
    """Resolve the action's attacks in order, pausing where a defender has a choice to make."""
    targets, rerolls = plan.targets, plan.rerolls
    action = content().actions[plan.action]
    while targets and not b.over:
        key, targets = targets[0], targets[1:]
        target = b.state.units[key]
        if target.defeated or b.state.units[plan.attacker].defeated:
            continue
        origin = plan.origin if action.pattern in ("line", "burst", "wave", "path") else \
            best_origin(b.state, b.state.units[plan.attacker], target, action.range) or plan.origin
        av, used = roll(b, plan.attacker, action, key, origin, rerolls)
        rerolls -= used
        if b.over:                  # a stance's answer to the roll decided the battle
            return
        if av <= 0:
            b.emit(ev.AttackIgnored(unit=key))
            continue
        waiting = AttackPlan(attacker=plan.attacker, action=plan.action, targets=targets, rerolls=rerolls,
                             target=key, av=av, origin=origin)
        options = defenses(b.state, waiting)
        if len(options) > 1:
            t = b.state.units[key]
            b.emit(ev.DefenseAwaited(unit=key, chooser=t.seat, av=av, defense=b.query(DefenseQuery(
                target=key, defense=t.defense)).defense, attacker=plan.attacker, action=plan.action,
                origin=origin, remaining=list(targets), rerolls=rerolls))
            return
        take(b, waiting, *options[0])
    finish(b, plan.attacker, action)


def roll(b: BoardResolver, attacker_id: str, action: Action, key: str, origin: Pos, rerolls: int) -> tuple[int, int]:
    """Roll one attack's dice: (Attack Value, focus rerolls used)."""
    s = b.state
    attacker, target = s.units[attacker_id], s.units[key]
    count, times, plus = parse_dice(action.dice or "0d*0")
    lucky = attacker.count("lucky")
    count = max(0, count - die_penalty(s, attacker, origin, target) + lucky)
    evasion = b.query(EvasionQuery(target=key, evasion=target.evasion)).evasion
    dice = [b.rng.int(1, s.params.die_sides) for _ in range(count)]
    misses = sorted((d, i) for i, d in enumerate(dice) if not is_hit(s, d, evasion))
    redo = [[i, b.rng.int(1, s.params.die_sides)] for _, i in misses[:min(rerolls, attacker.focus)]]
    final = list(dice)
    for i, value in redo:
        final[i] = value
    hits = sum(1 for d in final if is_hit(s, d, evasion))
    weak, vulnerable = attacker.count("weakened"), target.count("vulnerable")
    av = hits * times + plus - weak + vulnerable if hits or not s.params.zero_hits_miss else 0
    defense = b.query(DefenseQuery(target=key, defense=target.defense)).defense
    b.emit(ev.DiceRolled(attacker=attacker_id, target=key, origin=origin, expression=action.dice or "",
                         dice=dice, rerolls=redo, evasion=evasion, hits=hits, av=av, defense=defense,
                         band=band(av, defense)))
    for token, holder in (("lucky", attacker_id), ("weakened", attacker_id), ("vulnerable", key)):
        if b.state.units[holder].count(token):
            b.emit(ev.TokenSpent(unit=holder, token=token, reason="used"))
    return av, len(redo)


def defenses(s: Battleboard, plan: AttackPlan) -> list[tuple[str, int]]:
    """The defender's choices as (lose, focus): which tokens to give up, and the focus that
    turns a break into a tap when it has enough. One choice means nothing to choose."""
    target = s.units[plan.target]
    if target.tokens_left == 0:
        return [("untapped", 0)]    # it falls whatever focus it spends: nothing to choose
    defense = defense_of(s, target)
    found = []
    needed = -(-(plan.av - defense) // s.params.focus_defense) if plan.av > defense else 0
    for focus in sorted({0, needed}):
        if focus > target.focus:
            continue
        broken = plan.av > defense + focus * s.params.focus_defense
        options = [lose for lose in ("untapped", "tapped") if _payable(target, lose, broken)]
        found += [(lose, focus) for lose in options or ["untapped"]]
    return found


def _payable(u: Combatant, lose: str, broken: bool) -> bool:
    if lose == "untapped":
        return u.untapped >= 1
    return u.tapped >= (2 if broken else 1)


def take(b: BoardResolver, plan: AttackPlan, lose: str, focus: int) -> None:
    """The defender gives up its tokens; the attack's effects follow on a break (attack actions)
    or on any loss (tactics actions)."""
    s = b.state
    target = s.units[plan.target]
    broken = plan.av > defense_of(s, target) + focus * s.params.focus_defense
    lose_token(b, plan.target, "break" if broken else "tap", prefer=lose, broken=broken)
    action = content().actions[plan.action]
    if b.state.units[plan.target].defeated or b.over or (action.kind == "attack" and not broken):
        return
    for token in action.effects:
        if content().tokens[token].immediate:
            lose_token(b, plan.target, token)
        else:
            b.emit(ev.TokenGiven(unit=plan.target, token=token, by=plan.attacker))


def defend(b: BoardResolver, seat: str, lose: str, focus: int) -> None:
    """The defender's answer to a waiting attack; then the action's other attacks go on."""
    plan = b.state.plan
    if plan is None:
        raise RuleViolation("no attack is waiting for a defense")
    if b.state.units[plan.target].seat != seat:
        raise RuleViolation(f"{b.state.units[plan.target].name}'s seat chooses how to take the attack")
    options = defenses(b.state, plan)
    if (lose, focus) not in options:
        shown = ", ".join(f"lose {x} with focus {f}" for x, f in options)
        raise RuleViolation(f"{b.state.units[plan.target].name} may {shown}", lose=lose, focus=focus)
    broken = plan.av > defense_of(b.state, b.state.units[plan.target]) + focus * b.state.params.focus_defense
    b.emit(ev.Defended(seat=seat, unit=plan.target, lose=lose, focus=focus, band="break" if broken else "tap"))
    take(b, plan, lose, focus)
    run_attacks(b, plan)


def finish(b: BoardResolver, attacker: str, action: Action) -> None:
    """An attack action's own steps (movement after a charge, say) apply to the attacker last."""
    if not b.over and not b.state.units[attacker].defeated:
        apply_steps(b, attacker, attacker, action)
