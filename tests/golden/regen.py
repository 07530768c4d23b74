"""Rewrite the golden logs: `python -m tests.golden.regen` (after bumping the ruleset version)."""
from __future__ import annotations

from .golden import all_battles, golden_path, log_lines


def main() -> None:
    for name, battle in all_battles().items():
        _, records = battle()
        path = golden_path(name)
        path.write_text("\n".join(log_lines(records)) + "\n")
        print(f"wrote {path} ({len(records)} events)")


if __name__ == "__main__":
    main()
