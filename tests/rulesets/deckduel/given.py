"""Given/when/then helpers for deckduel rule tests: build a `Duel` directly, run one command."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from domain.engine.choices import PendingChoices
from domain.engine.events import Command, Event
from domain.engine.rng import Rng
from domain.rulesets.deckduel import RULESET
from domain.rulesets.deckduel.decide import decide
from domain.rulesets.deckduel.events import DamageFlipped
from domain.rulesets.deckduel.evolve import evolve
from domain.rulesets.deckduel.state import SEATS, Duel, Params, Side

E = TypeVar("E", bound=Event)
UNTOUCHED_DECK = ("straight", "straight", "straight")


def duel(*, phase: str = "combat", turn: str | None = "p1", active: str | None = "p1", round: int = 1,
         passes: int = 0, params: Params | None = None, first_player: str | None = None,
         choices: PendingChoices | None = None, p1_character: str = "kira", p2_character: str = "brom",
         **piles: Iterable[str]) -> Duel:
    """A duel mid-game. Piles are `p1_deck`, `p2_hand`, `p1_energy`, `p2_discard`, `p1_drills`...;
    decks and energy list their top card first, discard piles their top card last.
    A deck not given is `UNTOUCHED_DECK`: an empty deck would mean the duel is already over."""
    unknown = [name for name in piles if name[:3] not in ("p1_", "p2_")]
    if unknown:
        raise TypeError(f"unknown piles {unknown}")
    sides = {}
    for seat, character in zip(SEATS, (p1_character, p2_character)):
        mine = {"deck": UNTOUCHED_DECK}
        mine.update({name[3:]: tuple(cards) for name, cards in piles.items() if name.startswith(f"{seat}_")})
        sides[seat] = Side(character=character, **mine)
    return Duel(params=params or Params(), p1=sides["p1"], p2=sides["p2"], phase=phase, round=round,
                active=active, turn=turn, passes=passes, choices=choices, first_player=first_player)


def mulligan_pending(**piles: Iterable[str]) -> Duel:
    """Hands dealt, nobody has locked a mulligan yet."""
    return duel(phase="mulligan", turn=None, active=None, round=0,
                choices=PendingChoices(kind="mulligan", awaiting=SEATS), **piles)


def decide_after(state: Duel, seat: str, cmd: Command, seed: bytes = b"x") -> list[Event]:
    return list(decide(state, seat, cmd, Rng(seed)).events)


def after(state: Duel | None, events: Iterable[Event]) -> Duel:
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def play(state: Duel, seat: str, cmd: Command, seed: bytes = b"x") -> tuple[list[Event], Duel]:
    """Decide and apply: the events and the state they lead to."""
    events = decide_after(state, seat, cmd, seed)
    return events, after(state, events)


def flips(events: Iterable[Event]) -> list[tuple[str, bool]]:
    return [(e.card, e.perfect) for e in events if isinstance(e, DamageFlipped)]


def remaining(events: Iterable[Event]) -> list[int]:
    """The damage left after each flip."""
    return [e.remaining for e in events if isinstance(e, DamageFlipped)]


def of_type(events: Iterable[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def topics(events: Iterable[Event]) -> list[str]:
    """Event type names, without the `deckduel.`/`engine.` prefix."""
    return [e.TOPIC.split(".", 1)[1] for e in events]


def deck(*top: str, size: int = 30, filler: str = "jab") -> list[str]:
    """A setup deck list: these cards on top, then `filler` up to `size`."""
    return [*top, *[filler] * (size - len(top))]


def scripted_setup(p1_deck: Sequence[str], p2_deck: Sequence[str], *, first_player: str | None = "p1",
                   p1: str = "kira", p2: str = "brom", **params: Any) -> dict[str, Any]:
    setup: dict[str, Any] = {
        "p1": {"character": p1, "deck": list(p1_deck), "shuffle": False},
        "p2": {"character": p2, "deck": list(p2_deck), "shuffle": False},
        "first_player": first_player,
    }
    if params:
        setup["params"] = params
    return setup


def started(setup: dict[str, Any], seed: bytes = b"x") -> tuple[list[Event], Duel]:
    """The events `RULESET.start` deals and the duel they fold to (waiting for mulligans)."""
    events = list(RULESET.start(RULESET.parse_setup(setup), Rng(seed)))
    return events, after(None, events)
