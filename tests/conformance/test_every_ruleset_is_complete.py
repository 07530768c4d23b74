"""Every registered ruleset brings its whole kit (docs/adding-a-ruleset.md): a conformance
class that pytest runs, its golden battles, its README, replay fixtures recorded under its
installed version, and its entry in each shared test's table of games. A ruleset registered without one of them fails here, by name."""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from domain.engine.ruleset import Ruleset, all_rulesets

from .contract import RulesetContract

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = Path(__file__).parent
GOLDEN = ROOT / "tests" / "golden"
FIXTURES = ROOT / "tests" / "replays" / "fixtures"
RULESETS = ROOT / "domain" / "rulesets"


def contract_classes() -> dict[str, list[str]]:
    """Ruleset id -> the conformance classes pytest collects for it: subclasses of
    `RulesetContract` named `Test...` in a `test_*.py` module of this folder."""
    for path in sorted(CONFORMANCE.glob("test_*.py")):
        importlib.import_module(f"{__package__}.{path.stem}")
    found: dict[str, list[str]] = {}
    pending: list[type[Any]] = [RulesetContract]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        module = cls.__module__.rpartition(".")[2]
        ruleset_id = cls.__dict__.get("ruleset_id")
        if cls.__name__.startswith("Test") and module.startswith("test_") and isinstance(ruleset_id, str):
            found.setdefault(ruleset_id, []).append(f"{module}.{cls.__name__}")
    return found


def missing_parts(ruleset: Ruleset[Any], contracts: dict[str, list[str]]) -> list[str]:
    missing = []
    if ruleset.id not in contracts:
        missing.append("a conformance class (`class Test...(RulesetContract)` with "
                       f"`ruleset_id = {ruleset.id!r}` in tests/conformance/test_*.py)")
    golden = GOLDEN / f"{ruleset.id}_playthroughs.py"
    if not golden.is_file():
        missing.append(f"its golden battles ({golden.relative_to(ROOT)} with BATTLES)")
    elif not importlib.import_module(f"tests.golden.{golden.stem}").BATTLES:
        missing.append(f"a golden battle ({golden.relative_to(ROOT)} has an empty BATTLES)")
    readme = RULESETS / ruleset.id / "README.md"
    if not readme.is_file() or not readme.read_text().strip():
        missing.append(f"its README ({readme.relative_to(ROOT)})")
    fixtures = FIXTURES / f"{ruleset.id}_{ruleset.version}"
    if not any(fixtures.glob("*.jsonl")):
        missing.append(f"replays recorded under its installed version {ruleset.version} "
                       f"({fixtures.relative_to(ROOT)}/*.jsonl; tests/replays/record.py makes them)")
    missing.extend(f"an entry in {table}" for table, ids in shared_tables().items() if ruleset.id not in ids)
    return missing


def shared_tables() -> dict[str, set[str]]:
    """The tables of shared tests that hold one entry per game, by where they are."""
    from tests.conformance.coverage import REACH
    from tests.conformance.test_setup_bounds import EXTREME_SETUPS
    from tests.replays.test_release_drill import CHANGES
    return {"EXTREME_SETUPS (tests/conformance/test_setup_bounds.py: its most extreme setup)": set(EXTREME_SETUPS),
            "REACH (tests/conformance/coverage.py: setups whose playouts show every event type)": set(REACH),
            "CHANGES (tests/replays/test_release_drill.py: a content value and a param the drill changes)":
                set(CHANGES)}


@pytest.mark.parametrize("ruleset_id", list(all_rulesets()))
def test_the_ruleset_brings_its_whole_kit(ruleset_id: str) -> None:
    missing = missing_parts(all_rulesets()[ruleset_id], contract_classes())
    assert not missing, f"ruleset {ruleset_id} lacks: " + "; ".join(missing)


def test_a_ruleset_without_its_kit_is_named_with_every_missing_part() -> None:
    """The check itself: a ruleset nobody wrote the kit for is found wanting on every count."""
    class Stranger:
        id, version = "no_such_game", "0.0.1"

    missing = missing_parts(Stranger(), contract_classes())    # type: ignore[arg-type]
    assert [part.split(" (")[0] for part in missing] == [
        "a conformance class", "its golden battles", "its README",
        "replays recorded under its installed version 0.0.1",
        "an entry in EXTREME_SETUPS", "an entry in REACH", "an entry in CHANGES"]
