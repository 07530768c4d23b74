"""Seed 000, Battle: a turn spends AP on abilities, leader abilities, items and swaps; a
KO'd Ring unit opens the enemy leader to AP damage; the turn ends at 0 AP, when nothing
is affordable, or by choice."""
from __future__ import annotations

from fractions import Fraction

from domain.engine.errors import RuleViolation

from . import events as ev
from .commands import EndTurn, StrikeLeader, Swap, UseAbility, UseItem, UseLeaderAbility
from .content import Ability, content
from .formulas import Chances, chances
from .hooks import ApRestore, Odds, SwapCost
from .moves import RingResolver, change_mp
from .state import Ring, opponent
from .steps import STEPS, TIER_INDEX, Use
from .targets import (bench, can_act, can_strike, checked_target, item_cost, leader_ability_ok, swap_cost,
                      target_options, unit_ability_ok)


def start_turn(b: RingResolver, seat: str) -> None:
    s = b.state
    turn = s.turn + 1
    if turn > s.params.max_turns:
        time_limit(b, turn)
        return
    leader = content().leaders[s.side(seat).leader]
    ap = max(0, b.query(ApRestore(seat=seat, amount=leader.ap)).amount)
    b.emit(ev.TurnStarted(seat=seat, turn=turn, ap=ap))
    ring = b.state.ring_unit(seat)
    if not b.state.over() and ring is not None and ring.down and bench(b.state, seat):
        b.emit(ev.SwapRequired(seat=seat, unit=ring.key))


def time_limit(b: RingResolver, turn: int) -> None:
    """The time limit (README): the leader that lost the smaller share of its HP wins, then
    the team that lost the smaller share of its HP, then the initiative winner, so every
    battle has a winner. Ring 1.0.0 (`time_tiebreak = "hp_left"`) counted HP left instead."""
    s = b.state
    shares = s.params.time_tiebreak == "share_lost"

    def standing(seat: str) -> tuple[Fraction, Fraction, bool]:
        side, team = s.side(seat), [s.units[k] for k in s.side(seat).team]
        leader, team_hp = Fraction(side.leader_hp), Fraction(sum(u.hp for u in team))
        if shares:      # the share kept: 1 - the share lost
            leader, team_hp = leader / side.leader_max_hp, team_hp / max(1, sum(u.max_hp for u in team))
        return leader, team_hp, seat == s.initiative
    winner = max(("p1", "p2"), key=standing)
    loser = opponent(winner)
    if standing(winner)[0] != standing(loser)[0]:
        reason = "time limit: smaller share of leader HP lost" if shares else "time limit: more leader HP"
    elif standing(winner)[1] != standing(loser)[1]:
        reason = "time limit: smaller share of team HP lost" if shares else "time limit: more team HP"
    else:
        reason = "time limit: initiative"
    b.emit(ev.TimeLimitReached(turn=turn, winner=winner, reason=reason))


def end_turn(b: RingResolver, seat: str, reason: str) -> None:
    b.emit(ev.TurnEnded(seat=seat, reason=reason))
    if not b.state.over():
        start_turn(b, opponent(seat))


def settle(b: RingResolver, seat: str) -> None:
    """After an action: the turn is over at 0 AP (seed 000, Ending the Turn), even with
    free actions left, or once nothing more is affordable."""
    s = b.state
    if not s.over() and s.active == seat and (s.side(seat).ap <= 0 or not can_act(s, seat)):
        end_turn(b, seat, "out_of_ap")


def spend(b: RingResolver, seat: str, amount: int) -> None:
    if amount > 0:
        b.apply(ev.ApSpent(seat=seat, amount=amount))


def roll(b: RingResolver, use_seat: str, user: str | None, ability: Ability, targets: list[str]) -> int:
    """Seed 000, SKL and PRY: the user's SKL against the targets' average PRY; friendly
    abilities cannot glance; `sure` ones are always Normal. Dynamics may shift the odds of
    the others."""
    s = b.state
    if ability.effectiveness == "sure" or user is None:
        # Always Normal: no Dynamic shifts the odds of a sure ability (every item).
        b.apply(ev.EffectivenessRolled(ability=ability.id, effectiveness="normal", chances=(0, 10_000, 0)))
        return TIER_INDEX["normal"]
    units = s.units
    skl = units[user].stat("skl")
    odds = chances(skl, [units[k].stat("pry") for k in targets if units[k].seat != use_seat] or [skl])
    if ability.effectiveness == "friendly":
        odds = Chances(0, odds.normal + odds.glancing, odds.critical)
    q = b.query(Odds(seat=use_seat, ability=ability.id, glancing=odds.glancing, normal=odds.normal,
                     critical=odds.critical))
    odds = Chances(q.glancing, q.normal, q.critical)
    tier = odds.roll(b.rng) if (odds.glancing, odds.critical) != (0, 0) else "normal"
    b.apply(ev.EffectivenessRolled(ability=ability.id, effectiveness=tier,
                                   chances=(odds.glancing, odds.normal, odds.critical)))
    return TIER_INDEX[tier]


def resolve(b: RingResolver, seat: str, user: str | None, ability: Ability, target: str | None,
            earlier_uses: int = 0) -> None:
    s = b.state
    enemy, kind = opponent(seat), ability.target
    targets: list[str | None]         # an empty Ring or no user names nobody
    if target is not None:
        targets = [target]
    elif kind == "enemy_ring":
        targets = [s.side(enemy).ring]
    elif kind in ("enemy_team", "ally_team"):
        side = enemy if kind == "enemy_team" else seat
        targets = [k for k in s.side(side).team if k not in s.down]
    elif kind == "self":
        targets = [user] if user else []
    else:
        targets = []
    units = [] if kind == "dynamic" else [k for k in targets if k]
    tier = roll(b, seat, user, ability, units)
    use = Use(seat=seat, user=user, by=user if ability.pool not in ("leader", "item") else None, ability=ability,
              targets=tuple([t for t in targets if t]), tier=tier,
              earlier_uses=earlier_uses)
    for st in ability.steps:
        if b.state.over():
            return
        STEPS[st.do](b, use, st)


# Each battle action comes as a pair: `check_*` raises RuleViolation for a command the
# rules refuse, and the action itself runs a command that passed (`decide` skips the check
# for a command found among the state's listed battle actions, which made the same checks).

def check_ability(s: Ring, seat: str, cmd: UseAbility) -> None:
    ring = s.ring_unit(seat)
    problem = unit_ability_ok(s, seat, ring, cmd.ability)
    if problem:
        raise RuleViolation(problem)
    assert ring is not None, "unit_ability_ok refuses an empty Ring"
    ability = content().abilities[cmd.ability]
    checked_target(target_options(s, seat, ring, ability), cmd.target, ability)


def use_ability(b: RingResolver, seat: str, cmd: UseAbility) -> None:
    ring = b.state.ring_unit(seat)
    assert ring is not None, "check_ability refuses an empty Ring"
    ability = content().abilities[cmd.ability]
    earlier = ring.uses.get(ability.id, 0)
    b.apply(ev.AbilityUsed(seat=seat, ability=ability.id, target=cmd.target, unit=ring.key))
    spend(b, seat, ability.ap)
    if ability.mp:
        change_mp(b, ring.key, -ability.mp, ability=ability.id)
    if ring.key not in b.state.down:
        resolve(b, seat, ring.key, ability, cmd.target, earlier)
    settle(b, seat)


def check_leader_ability(s: Ring, seat: str, cmd: UseLeaderAbility) -> None:
    problem = leader_ability_ok(s, seat, cmd.ability)
    if problem:
        raise RuleViolation(problem)
    ability = content().abilities[cmd.ability]
    checked_target(target_options(s, seat, s.ring_unit(seat), ability), cmd.target, ability)


def use_leader_ability(b: RingResolver, seat: str, cmd: UseLeaderAbility) -> None:
    ability = content().abilities[cmd.ability]
    ring = b.state.ring_unit(seat)
    b.apply(ev.LeaderAbilityUsed(seat=seat, ability=ability.id, target=cmd.target))
    spend(b, seat, ability.ap)
    resolve(b, seat, ring.key if ring else None, ability, cmd.target)
    settle(b, seat)


def check_item(s: Ring, seat: str, cmd: UseItem) -> None:
    """Seed 000, Using Abilities and Items: once per item per battle, at the leader's cost."""
    if cmd.item not in s.side(seat).items:
        raise RuleViolation(f"{cmd.item!r} is not in your inventory")
    cost = item_cost(s, seat)
    if cost > s.side(seat).ap:
        raise RuleViolation(f"using an item costs {cost} AP; you have {s.side(seat).ap}")
    item = content().item_abilities[cmd.item]
    checked_target(target_options(s, seat, s.ring_unit(seat), item), cmd.target, item)


def use_item(b: RingResolver, seat: str, cmd: UseItem) -> None:
    item = content().item_abilities[cmd.item]
    ring = b.state.ring_unit(seat)
    cost = item_cost(b.state, seat)
    b.apply(ev.ItemUsed(seat=seat, item=cmd.item, target=cmd.target))
    spend(b, seat, cost)
    resolve(b, seat, ring.key if ring else None, item, cmd.target)
    settle(b, seat)


def swap(b: RingResolver, seat: str, cmd: Swap) -> None:
    s = b.state
    if s.phase != "battle":
        raise RuleViolation(f"the battle has not begun: {s.phase} comes first")
    key = f"{seat}.{cmd.unit}"
    if key not in bench(s, seat):
        raise RuleViolation(f"{cmd.unit!r} is not a unit on your bench that can enter the Ring")
    cost = swap_cost(s, seat)
    if cost > s.side(seat).ap:
        raise RuleViolation(f"Swap Unit costs {cost} AP; you have {s.side(seat).ap}")
    b.apply(ev.UnitSwapped(seat=seat, unit=cmd.unit, out=s.side(seat).ring, cost=cost))
    if not s.swap_required:
        # The same cost again, through the resolver, so a Dynamic that changed it is logged.
        # The query records events: it must run under `python -O` too, never inside an assert.
        base = content().leaders[s.side(seat).leader].swap_cost
        logged = max(0, b.query(SwapCost(seat=seat, amount=base)).amount)
        if logged != cost:
            raise RuntimeError(f"the swap cost logged ({logged} AP) differs from the one charged ({cost} AP)")
    spend(b, seat, cost)
    settle(b, seat)


def check_strike(s: Ring, seat: str, cmd: StrikeLeader) -> None:
    """Seed 000: with the enemy Ring unit KO'd, remaining AP converts 1:1 into leader damage."""
    if not can_strike(s, seat):
        raise RuleViolation("the enemy leader is open only while the enemy unit in the Ring is KO'd"
                            if s.params.strike_window == "down" else
                            "the enemy leader is open only in the turn you knock out the enemy unit in the Ring")
    if not 1 <= cmd.ap <= s.side(seat).ap:
        raise RuleViolation(f"convert between 1 and {s.side(seat).ap} AP")


def strike_leader(b: RingResolver, seat: str, cmd: StrikeLeader) -> None:
    b.apply(ev.LeaderStruck(seat=seat, ap=cmd.ap))
    spend(b, seat, cmd.ap)
    b.emit(ev.LeaderHpReduced(seat=opponent(seat), amount=cmd.ap, by=seat))
    settle(b, seat)


def check_end(s: Ring, seat: str, cmd: EndTurn) -> None:
    """Ending the turn takes nothing beyond the battle being under way (`in_battle`)."""


def yield_turn(b: RingResolver, seat: str, cmd: EndTurn) -> None:
    b.apply(ev.TurnYielded(seat=seat))
    end_turn(b, seat, "chosen")


def in_battle(s: Ring) -> None:
    if s.phase != "battle":
        raise RuleViolation(f"the battle has not begun: {s.phase} comes first")
    if s.swap_required:
        raise RuleViolation("your unit in the Ring is KO'd: swap it out first")
