"""HP changes and their consequences (seed 003, Knocked Out): damage, healing, knock-outs,
kills, the ANALYZE bar, and the end of the battle."""
from __future__ import annotations

from domain.engine.events import Event
from domain.engine.hooks import EffectTriggered

from . import events as ev
from .content import content
from .hooks import Affliction, KoCheck
from .resolver import RatResolver
from .state import ENEMIES, PARTY, Entity, Rat
from .stats import POS_INF, fraction_pct


def hp_event(s: Rat, target: str, delta: int, hp: int, cause: str, by: str | None, *, heal: bool) -> Event:
    """A party member's HP change, public; or an enemy's, whose numbers its side keeps, and
    whose public part says whether it was a heal (`heal`) without telling how much HP moved."""
    entity = s.entities[target]
    if entity.side == PARTY:
        return ev.HpChanged(target=target, delta=delta, hp=hp, cause=cause, by=by)
    healed = heal if s.rules.enemy_hp_changes == "made" else delta > 0
    return ev.EnemyHpChanged(target=target, seat=s.seats.get(ENEMIES), delta=delta, hp=hp, healed=healed,
                             cause=cause, by=by)


def gauge(r: RatResolver, target: str) -> None:
    s = r.state
    if s.entities[target].side == ENEMIES and s.has(target, "analyzed"):
        r.emit(ev.HpGauge(target=target, pct=fraction_pct(s.entities[target])))


def deal_damage(r: RatResolver, target: str, amount: int, cause: str, by: str | None) -> None:
    """Damage: nothing while knocked out this turn; a kill once knocked out earlier; else HP
    falls, and at 0 the entity is knocked out (or killed, or spared, as its effects say)."""
    s = r.state
    entity = s.entities[target]
    if amount <= 0 or entity.dead or s.result is not None:
        return
    if entity.ko:
        if entity.ko_turn == s.turn:
            r.emit(ev.DamageIgnored(target=target, reason="knocked_out", by=by))
        else:
            kill(r, target, cause)
        return
    hp = max(0, entity.hp - min(amount, POS_INF))
    result = r.query(KoCheck(entity=target)).result if hp == 0 else ""
    if result.startswith("spared:"):
        spared_by = result.split(":", 1)[1]
        r.emit(ev.KnockOutAverted(target=target, by=spared_by))
        hp = 1
    r.emit(hp_event(s, target, hp - entity.hp, hp, cause, by, heal=False))
    if result == "killed":
        kill(r, target, cause)
    elif result == "knocked_out":
        knock_out(r, target)
    else:
        if result == "spared:poisoned":
            r.emit(ev.StatusRemoved(target=target, kind="poisoned", reason="averted_knock_out"))
        gauge(r, target)


def knock_out(r: RatResolver, target: str) -> None:
    """Every other ailment is cured, then KNOCKED_OUT (invulnerable for the rest of the turn)."""
    for status in list(r.state.statuses(target)):
        if status.source == "ailment":
            r.emit(ev.StatusRemoved(target=target, kind=status.kind, reason="knocked_out"))
    r.emit(ev.KnockedOut(target=target, turn=r.state.turn))
    gauge(r, target)
    decide_end(r)


def kill(r: RatResolver, target: str, cause: str) -> None:
    r.emit(ev.Killed(target=target, cause=cause))
    decide_end(r)


def heal(r: RatResolver, target: str, amount: int, cause: str, by: str | None) -> None:
    """Healing: a knocked-out entity comes back with HP equal to the amount healed."""
    s = r.state
    entity = s.entities[target]
    if amount <= 0 or entity.dead or s.result is not None:
        return
    if entity.ko:
        hp = min(entity.max_hp, amount)
        r.emit(hp_event(s, target, hp, hp, cause, by, heal=True))
        r.emit(ev.Revived(target=target))
    else:
        hp = min(entity.max_hp, entity.hp + amount)
        r.emit(hp_event(s, target, hp - entity.hp, hp, cause, by, heal=True))
    gauge(r, target)


def afflict(r: RatResolver, target: str, kind: str, by: str | None) -> None:
    """Add an ailment, unless the target already has it, is down, is immune to it (an enemy's
    content `immune`, STEADY_BOOTS), or an interaction turns it into a cure (BURNED and CHILLED
    cure each other; CHILLED twice freezes)."""
    s = r.state
    entity = s.entities[target]
    if not entity.standing or s.result is not None or immune(entity, kind):
        return
    query = r.query(Affliction(entity=target, kind=kind))
    result = query.result
    if result == "gain":
        if not s.has(target, kind):
            r.emit(ev.StatusGained(target=target, kind=kind, turn=s.turn, by=by))
    elif result == "freeze":
        r.emit(ev.StatusRemoved(target=target, kind=kind, reason="replaced"))
        if not r.state.has(target, "frozen"):
            r.emit(ev.StatusGained(target=target, kind="frozen", turn=s.turn, by=by))
    elif result == "cure":
        for cured in dict.fromkeys(query.cures):
            r.emit(ev.StatusRemoved(target=target, kind=cured, reason=f"cured_by_{kind}"))


def immune(entity: Entity, ailment: str) -> bool:
    """Whether its content makes `entity`, an enemy, immune to `ailment`."""
    return entity.side == ENEMIES and content().immune(entity.kind, ailment)


def triggered(r: RatResolver, kind: str, owner: str, on: str) -> None:
    """Leave the log's explanation for a hook that acted through the rules' own functions."""
    r.emit(EffectTriggered(kind=kind, owner=owner, on=on))


def decide_end(r: RatResolver) -> None:
    """Seed 003: a killed party member is a game over; the battle is won when every enemy is
    dead, and ends the non-standard way when every living enemy is knocked out and none died."""
    s = r.state
    if s.result is not None:
        return
    member_dead, enemies_dead, enemies_ko = False, True, True
    for e in s.entities.values():
        if e.side == PARTY:
            member_dead = member_dead or e.dead
        elif not e.dead:
            enemies_dead = False
            enemies_ko = enemies_ko and e.ko
    if member_dead:
        r.emit(ev.BattleDecided(winner=ENEMIES, reason="party_member_killed"))
    elif enemies_dead:
        r.emit(ev.BattleDecided(winner=PARTY, reason="enemies_defeated"))
    elif not s.killed and enemies_ko:
        r.emit(ev.BattleDecided(winner=PARTY, reason="all_enemies_knocked_out"))
