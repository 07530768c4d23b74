"""The release drill: in a copy of the code, every ruleset goes through the documented steps of
a new release (docs/adding-a-ruleset.md, Rule evolution): its installed version is cut
(`python -m replays.release`), then its version goes up, a content value changes and a param
default changes. Every committed fixture of every older version must still verify there,
the ones of the version just cut included, and no kept release may have been touched."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from domain.engine.ruleset import all_rulesets

ROOT = Path(__file__).parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
# ruleset -> (content file, a line "key = N" whose N goes up by one, a param whose default changes to)
CHANGES = {
    "deckduel": ("cards.toml", r"cost = (\d+)", ("starting_energy", 4)),
    "ring": ("units.toml", r"gp = (\d+)", ("initiative_die", 12)),
    "rat": ("members.toml", r"hp = (\d+)", ("roll_min_pct", 80)),
    "skirmish": ("cards.toml", r"cost = (\d+)", ("ap_cap", 9)),
    "battleboard": ("foes.toml", r"speed = (\d+)", ("round_limit", 29)),
}
# Run in the copy after the changes: what is installed and kept, and how each fixture verifies.
VERIFY = """
import json
from pathlib import Path
import msgspec
import domain
from domain.engine.ruleset import all_rulesets
from replays.format import read
from replays.verify import verify
out = {"code": domain.__file__, "fixtures": {}, "installed": {}}
for r in all_rulesets().values():
    params = r.parse_setup(r.default_setup).params
    out["installed"][r.id] = [r.version, r.content_hash, r.earlier_versions, msgspec.to_builtins(params)]
for path in sorted(Path("fixtures").rglob("*.jsonl")):
    report = verify(read(path))
    out["fixtures"][path.parent.name + "/" + path.name] = [report.status, report.reason]
print(json.dumps(out))
"""


def run(code: list[str], cwd: Path) -> str:
    done = subprocess.run([sys.executable, *code], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def copy_of_the_code(into: Path) -> Path:
    for part in ("domain", "replays", "projections", "api"):
        shutil.copytree(ROOT / part, into / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(FIXTURES, into / "fixtures")
    return into


def release(copy: Path, ruleset_id: str) -> str:
    """The documented steps after the cut: the version up, a content value and a param default changed."""
    package = copy / "domain" / "rulesets" / ruleset_id
    content_file, line, (param, value) = CHANGES[ruleset_id]
    declared = package / "__init__.py"
    major, minor = map(int, re.search(r'version="(\d+)\.(\d+)\.\d+"', declared.read_text()).groups())
    bumped = f"{major}.{minor + 1}.0"
    declared.write_text(re.sub(r'version="[0-9.]+"', f'version="{bumped}"', declared.read_text(), count=1))
    path = package / "content" / content_file
    path.write_text(re.sub(line, lambda m: m.group(0).replace(m.group(1), str(int(m.group(1)) + 1)),
                           path.read_text(), count=1))
    state = package / "state.py"
    state.write_text(re.sub(rf"(\n    {param}: [^\n]*?= )\d+", rf"\g<1>{value}", state.read_text(), count=1))
    return bumped


def test_a_release_of_every_ruleset_keeps_every_older_fixture_verifying(tmp_path):
    copy = copy_of_the_code(tmp_path / "ringside")
    before = {r.id: (r.version, r.content_hash) for r in all_rulesets().values()}
    for ruleset_id in CHANGES:
        assert "kept" in run(["-m", "replays.release", ruleset_id], copy)
    kept_files = {p: p.read_bytes() for p in copy.glob("domain/rulesets/*/releases/**/*") if p.is_file()}
    bumped = {ruleset_id: release(copy, ruleset_id) for ruleset_id in CHANGES}

    found = json.loads(run(["-c", VERIFY], copy))

    assert Path(found["code"]).is_relative_to(copy)                 # the copy's code ran, not this tree's
    for ruleset_id, (version, content_hash) in before.items():
        now_version, now_hash, earlier, params = found["installed"][ruleset_id]
        assert now_version == bumped[ruleset_id] and version in earlier
        assert now_hash != content_hash                              # the content value changed
        param, value = CHANGES[ruleset_id][2]
        assert params[param] == value                                # and so did the param default
    failed = {name: result for name, result in found["fixtures"].items() if result != ["ok", None]}
    assert failed == {}
    assert len(found["fixtures"]) == len(list(FIXTURES.rglob("*.jsonl")))
    assert {p: p.read_bytes() for p in kept_files} == kept_files      # no kept release was touched
