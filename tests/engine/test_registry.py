"""Every registry refuses an id registered twice, naming both places; tables and sides."""
from __future__ import annotations

import re

import pytest

from domain.engine.bots import Bot
from domain.engine.events import Event
from domain.engine.hooks import Hooks, Phase
from domain.engine.reducer import Reducer
from domain.engine.registry import DuplicateId, Registry
from domain.engine.ruleset import get_ruleset, register
from domain.engine.table import Table, one_seat_sides, player_id

HERE = __file__


class Ping(Event, frozen=True, kw_only=True):
    TOPIC = "test.RegistryPing"
    n: int = 0


def places(error: DuplicateId) -> list[str]:
    return re.findall(r"at (\S+:\d+)", str(error))


def test_a_registry_names_both_places_of_a_duplicate():
    steps: Registry[str, int] = Registry("step")
    steps.add("jab", 1)
    with pytest.raises(DuplicateId, match="step 'jab' is registered twice") as twice:
        steps.add("jab", 2)
    first, second = places(twice.value)
    assert first.startswith(HERE) and second.startswith(HERE) and first != second
    assert steps["jab"] == 1 and len(steps) == 1


def test_a_decorated_duplicate_is_refused_at_import_time():
    effects: Registry[str, object] = Registry("attack effect")

    @effects.register("pierce")
    def pierce() -> None: ...

    with pytest.raises(DuplicateId, match="attack effect 'pierce'"):
        @effects.register("pierce")
        def pierce_again() -> None: ...


def test_hooks_refuse_a_second_handler_for_the_same_kind_phase_and_event():
    hooks = Hooks()
    hooks.hook(Phase.BEFORE, on=Ping, kind="armor")(lambda ctx, s, e: e)
    hooks.hook(Phase.AFTER, on=Ping, kind="armor")(lambda ctx, s, e: [])     # another phase: fine
    with pytest.raises(DuplicateId, match=r"hook \('armor', <Phase.BEFORE: 0>, 'Ping'\)"):
        hooks.hook(Phase.BEFORE, on=Ping, kind="armor")(lambda ctx, s, e: e)


def test_an_evolve_handler_registered_twice_is_refused():
    evolve: Reducer[int] = Reducer("demo")

    @evolve.on()
    def _(e: Ping, s: int) -> int:
        return s + e.n

    assert evolve(1, Ping(n=2)) == 3
    with pytest.raises(DuplicateId, match="demo evolve handler for"):
        @evolve.on(Ping)
        def again(e: Ping, s: int) -> int:
            return s


def test_a_second_ruleset_with_a_known_id_is_refused():
    with pytest.raises(DuplicateId, match="ruleset 'deckduel' is registered twice"):
        register(get_ruleset("deckduel"))


def test_a_tables_sides_and_seats():
    table = Table((("heroes", ("h1", "h2")), ("foes", ("gm",)), ("rules", ())))
    assert table.seats == ("h1", "h2", "gm")
    assert table.side_ids == ("heroes", "foes", "rules")
    assert (table.side_of("h2"), table.side_of("gm")) == ("heroes", "foes")
    assert one_seat_sides("p1", "p2").as_json() == {"p1": ["p1"], "p2": ["p2"]}
    assert (player_id("alice"), player_id({"bot": "greedy"})) == ("alice", "house:greedy")


def test_a_bot_must_say_how_it_chooses():
    with pytest.raises(TypeError):
        Bot()  # type: ignore[abstract]


class EnemyStruck(Event, frozen=True, kw_only=True):
    """A choice the rules make for a side no seat plays, inside another command's batch."""
    TOPIC = "test.EnemyStruck"
    RULES_ACTION = True
    actor: str
    target: str


def test_the_rules_choices_are_actions_the_ai_memory_records():
    from domain.ai.memory import Memory

    # given a seat's memory, when it sees an enemy's move chosen by the rules (not a batch start)
    memory = Memory("p1")
    event = EnemyStruck(actor="goblin_1", target="p1.hero")
    assert event.is_action() and not event.starts_batch() and not Ping().is_action()
    memory.observe({"seq": 7, "type": event.TOPIC, "data": {"actor": "goblin_1", "target": "p1.hero"}},
                   event.is_action())
    # then it is remembered with its actor and target
    assert [(a["seq"], a["actor"], a["target"]) for a in memory.actions] == [(7, "goblin_1", "p1.hero")]
