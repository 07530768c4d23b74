"""`python -m replays.release RULESET`: keep the installed version of RULESET as a release.

Run it before raising the ruleset's version (docs/adding-a-ruleset.md, Rule evolution). It
writes the complete snapshot `domain.engine.releases` plays the version from: every content
file under `releases/content/<hash>/` (left as it is if a release with that content was cut
before) and `releases/<version>.json` with the content hash and the defaults of the rule
parameters. Cutting a kept version again changes nothing; it never rewrites a kept release.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec

from domain.engine.content import ContentFiles
from domain.engine.errors import RingsideError
from domain.engine.releases import Kept, Release
from domain.engine.ruleset import Ruleset, all_rulesets, get_ruleset


class CutError(RingsideError):
    code = "cannot_cut_release"


def snapshot(kept: Kept, version: str, files: dict[str, bytes], content_hash: str,
             params: dict[str, Any], rules: dict[str, Any]) -> Path:
    """Write release `version` (its content files, hashing to `content_hash`, and its
    parameter defaults) into `kept`'s folder. Cutting it again as it is changes nothing;
    CutError if it is kept with anything else."""
    target = kept.folder / f"{version}.json"
    release = Release(version=version, content=content_hash, params=params, rules=rules)
    written = msgspec.json.format(msgspec.json.encode(release), indent=2) + b"\n"
    if target.exists():
        if target.read_bytes() != written:
            raise CutError(f"{target} keeps {version} otherwise: a kept release is never rewritten; "
                           "raise the version before changing the rules")
        return target
    folder = kept.content_dir(content_hash)
    if not folder.exists():
        for name, body in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(body)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(written)
    return target


def cut(ruleset: Ruleset[Any]) -> Path:
    """Keep `ruleset` (installed today) as a release of its version."""
    kept = ruleset.releases
    if not isinstance(kept, Kept):
        raise CutError(f"{ruleset.id} declares no releases folder (Ruleset.releases)")
    if not isinstance(ruleset.content, ContentFiles):
        raise CutError(f"{ruleset.id}'s content is not read from files: a release keeps its files")
    params = msgspec.to_builtins(kept.params()) if kept.params else {}
    rules = msgspec.to_builtins(kept.rules()) if kept.rules else {}
    return snapshot(kept, ruleset.version, ruleset.content.files, ruleset.content_hash, params, rules)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in all_rulesets():
        print(f"usage: python -m replays.release RULESET  ({' | '.join(all_rulesets())})", file=sys.stderr)
        return 2
    try:
        print(f"kept {cut(get_ruleset(argv[0]))}")
    except CutError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
