import pytest

from domain.engine.choices import ChoiceLocked, ChoicesRevealed, PendingChoices, lock_choice
from domain.engine.errors import RuleViolation
from domain.engine.events import Command


class Pick(Command, tag="pick"):
    unit: str


def test_first_lock_is_secret_and_the_last_reveals_in_seat_order():
    pending = PendingChoices(kind="pick", awaiting=("p1", "p2"))
    events, everyone = lock_choice(pending, "p2", Pick(unit="wolf"), lambda seat, c: c)
    assert events == [ChoiceLocked(seat="p2", kind="pick", choice={"unit": "wolf"})] and everyone is None
    pending = pending.with_lock("p2", {"unit": "wolf"})
    assert pending.waiting_for() == frozenset({"p1"})
    events, everyone = lock_choice(pending, "p1", Pick(unit="owl"), lambda seat, c: {"len": len(c["unit"])})
    assert events[1] == ChoicesRevealed(kind="pick", choices={"p1": {"len": 3}, "p2": {"len": 4}})
    assert list(everyone) == ["p1", "p2"]
    assert events[0].command_wire() == {"type": "pick", "unit": "owl"} and events[0].starts_batch()


def test_locking_twice_or_out_of_turn_is_refused():
    pending = PendingChoices(kind="pick", awaiting=("p1", "p2"), locked={"p1": {"unit": "x"}})
    with pytest.raises(RuleViolation, match="already locked"):
        lock_choice(pending, "p1", Pick(unit="y"), lambda s, c: c)
    with pytest.raises(RuleViolation, match="no pick choice"):
        lock_choice(pending, "p3", Pick(unit="y"), lambda s, c: c)
