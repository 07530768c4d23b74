"""`python -O` skips every `assert` statement, with whatever it calls: a call inside an assert
in the rules (a query that logs an event, a draw from the RNG) would make a battle's events,
and so its chain, depend on how Python was started. So the domain code calls nothing inside
an assert, except the builtin `isinstance`, which is pure."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PURE = {"isinstance"}


def calls_in_asserts(source: str) -> list[int]:
    """The lines of the calls made inside assert statements, but for calls to `PURE` names."""
    return sorted({call.lineno for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Assert)
                   for call in ast.walk(node)
                   if isinstance(call, ast.Call) and not (isinstance(call.func, ast.Name) and call.func.id in PURE)})


def test_no_assert_in_the_domain_code_calls_anything():
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sorted((ROOT / "domain").rglob("*.py"))
             for line in calls_in_asserts(path.read_text())]
    assert found == []


def test_a_call_inside_an_assert_is_found_at_its_line():
    source = "x = 1\nassert isinstance(x, int)\nassert x == f(x), g()\nassert len([x]) == 1\nassert x.y()\n"
    # f and g on line 3 (listed once), len on line 4, a method on line 5; isinstance is allowed
    assert calls_in_asserts(source) == [3, 4, 5]
