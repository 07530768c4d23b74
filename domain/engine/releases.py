"""Rule evolution: a ruleset as an earlier version played it, from today's code.

Each release a ruleset still plays is a complete snapshot in its `releases/` folder, cut
(`python -m replays.release RULESET`) before the version goes up and never edited after:

- `releases/<version>.json`: the version, its content hash, and the defaults of its rule
  parameters: `params` (what a setup may set) and `rules` (what a release fixes);
- `releases/content/<hash>/`: every content file the release had, found by that hash (two
  releases with the same content share one folder).

`earlier_release` gives back the declared `Ruleset` with that version and that content, every
call of the rules (every function it declares, and the sealing) made while the release is in force: the content
through the ruleset's `playing(content)`, and the parameters through `parse_params` (a setup
that leaves a param out gets the release's default) and `rules_in_force` (the rule choices a
battle starts with). A field added after a release was cut is missing from its snapshot: it
declares `Older(value)`, the value every such release played by, so a new version never edits
an older one. Set rules read only a finished battle's state, and bots only pick among the
legal commands, so both run as today's.
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from .in_force import Release, in_force
from .ruleset import Content, Ruleset, Sealing

S = TypeVar("S")
F = TypeVar("F", bound=Callable[..., Any])


def earlier_release(ruleset: Ruleset[S], *, release: Release, content: Content,
                    playing: Callable[[Any], AbstractContextManager[None]], **parts: Any) -> Ruleset[S]:
    """`ruleset` as `release` played it: its content and parameters in force in every call,
    `parts` replaced."""
    if content.hash != release.content:
        raise ValueError(f"{ruleset.id} {release.version}: its content hashes to {content.hash}, "
                         f"not the {release.content} it was cut with")

    def pinned(fn: F) -> F:
        @functools.wraps(fn)
        def call(*args: Any, **kwargs: Any) -> Any:
            with playing(content), in_force(release):
                return fn(*args, **kwargs)
        return call  # type: ignore[return-value]

    declared = dataclasses.replace(ruleset, **parts)
    sealing = declared.sealing and Sealing(pinned(declared.sealing.seal), pinned(declared.sealing.unseal))
    return dataclasses.replace(
        declared, version=release.version, content=content, sealing=sealing, releases=None,
        parse_setup=pinned(declared.parse_setup), start=pinned(declared.start), evolve=pinned(declared.evolve),
        awaiting=pinned(declared.awaiting), legal_commands=pinned(declared.legal_commands),
        decide=pinned(declared.decide), view=pinned(declared.view), outcome=pinned(declared.outcome),
        table=pinned(declared.table), withhold_setup=pinned(declared.withhold_setup), turn=pinned(declared.turn),
        memory_known=pinned(declared.memory_known), knowledge=pinned(declared.knowledge),
        determinize=pinned(declared.determinize), tally=pinned(declared.tally),
        default_command=declared.default_command and pinned(declared.default_command))


class Kept(Mapping[str, Release]):
    """A ruleset's kept releases (`Ruleset.releases`), by version: the snapshots in its
    `releases/` folder (see the module's docstring), with what it takes to play and to cut one."""

    def __init__(self, folder: Path, *, content: Callable[[Path], Content],
                 playing: Callable[[Any], AbstractContextManager[None]],
                 params: type[msgspec.Struct] | None = None, rules: type[msgspec.Struct] | None = None):
        self.folder, self.content, self.playing, self.params, self.rules = folder, content, playing, params, rules

    def __getitem__(self, version: str) -> Release:
        path = self.folder / f"{version}.json"
        if not path.is_file():
            raise KeyError(version)
        release = msgspec.json.decode(path.read_bytes(), type=Release)
        if release.version != version:
            raise ValueError(f"{path} holds release {release.version}")
        return release

    def __iter__(self) -> Iterator[str]:
        found = [p.stem for p in self.folder.glob("*.json")] if self.folder.is_dir() else []
        return iter(sorted(found, key=version_key))

    def __len__(self) -> int:
        return len(list(iter(self)))

    def content_dir(self, content_hash: str) -> Path:
        return self.folder / "content" / content_hash

    def content_of(self, version: str) -> Any:
        """The content the kept `version` played with."""
        return self.content(self.content_dir(self[version].content))

    def build(self, today: Ruleset[S], version: str) -> Ruleset[S]:
        """`today`'s ruleset as the kept `version` played it."""
        release = self[version]
        return earlier_release(today, release=release, content=self.content(self.content_dir(release.content)),
                               playing=self.playing)


def version_key(version: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        raise ValueError(f"release {version!r} is not a version like 1.2.0") from None
