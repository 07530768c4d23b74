"""Rewrite the golden logs: `python -m tests.golden.regen [RULESET]` (after bumping the
ruleset's version; with RULESET, only that ruleset's logs)."""
from __future__ import annotations

import sys

from .golden import all_battles, golden_path, log_lines


def main(only: str | None = None) -> None:
    for name, battle in all_battles().items():
        if only is not None and not name.startswith(f"{only}_"):
            continue
        _, records = battle()
        path = golden_path(name)
        path.write_text("\n".join(log_lines(records)) + "\n")
        print(f"wrote {path} ({len(records)} events)")


if __name__ == "__main__":
    main(*sys.argv[1:2])
