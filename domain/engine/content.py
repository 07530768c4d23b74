"""Helpers every ruleset's content and setup share: the content hash, the field path of a
msgspec validation error, and the checks every setup starts with."""
from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cached_property
from hashlib import blake2b
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from .errors import SetupError

P = TypeVar("P", bound=msgspec.Struct)
# A game number (a hand size, a deck size, basis points) no ruleset needs more of. It keeps
# every param, and sums and products of a few, exact in any client language (2**53 in JS).
PARAM_MAX = 1_000_000


class ContentFiles:
    """A ruleset's content: TOML files read once, hashed by name and bytes (replays pin the
    hash), and shown as JSON table by table. A subclass names its `TABLES` (attributes that
    hold `{id: record}`) and loads them from `self.files`.

    An earlier release's content is today's files overlaid by a `release` folder that keeps
    only what differs: the files as that release had them, and in `absent.txt` the names of
    files it did not have. Its hash proves the overlay is exact."""
    TABLES: tuple[str, ...] = ()

    def __init__(self, directory: Path, release: Path | None = None):
        self.files = toml_files(directory)
        if release is not None:     # an earlier release: the files it changed, and those it lacked
            self.files.update(toml_files(release))
            absent = release / ABSENT
            for name in absent.read_text().split() if absent.exists() else ():
                self.files.pop(name, None)
            self.files = dict(sorted(self.files.items()))

    def toml(self, name: str) -> dict[str, Any]:
        return tomllib.loads(self.files[name].decode())

    @cached_property
    def hash(self) -> str:
        return files_hash(self.files)

    def as_json(self) -> dict[str, object]:
        return {table: {k: msgspec.to_builtins(v) for k, v in vars(self)[table].items()}
                for table in self.TABLES}


ABSENT = "absent.txt"


def toml_files(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*.toml"))}


def files_hash(files: Mapping[str, bytes]) -> str:
    """One hash over the content files, by name and bytes: replays pin it."""
    digest = blake2b(digest_size=16)
    for name, body in files.items():
        digest.update(name.encode() + b"\0" + body + b"\0")
    return digest.hexdigest()


def error_path(message: str) -> str:
    """`x.y[2]` from msgspec's "... at `$.x.y[2]`" or "unknown field `x`" messages ("" if none)."""
    for marker in ("at `$.", "unknown field `"):
        if marker in message:
            return message.split(marker, 1)[1].split("`", 1)[0]
    return ""


def check_keys(raw: object, allowed: set[str]) -> None:
    """A setup is a JSON object with only the keys a ruleset knows; SetupError names the first other."""
    if not isinstance(raw, Mapping):
        raise SetupError("", "a setup must be a JSON object")
    unknown = set(raw) - allowed
    if unknown:
        raise SetupError(sorted(unknown)[0], "unknown setup field")


def seat_part(raw: Mapping[str, Any], seat: str, allowed: set[str], needs: str) -> Mapping[str, Any]:
    """A seat's part of a setup: an object with only the keys a ruleset knows. SetupError names
    the seat (saying what it `needs`), or the first unknown key under it."""
    part = raw.get(seat)
    if not isinstance(part, Mapping):
        raise SetupError(seat, f"needs an object with {needs}")
    unknown = set(part) - allowed
    if unknown:
        raise SetupError(f"{seat}.{sorted(unknown)[0]}", "unknown field")
    return part


def parse_params(raw: Any, cls: type[P], upper: int = PARAM_MAX) -> P:
    """A ruleset's `params` Struct from setup JSON: typed, every integer within 0..`upper`."""
    try:
        params = msgspec.convert(raw, type=cls)
    except msgspec.ValidationError as exc:
        raise SetupError(f"params.{error_path(str(exc))}".rstrip("."), str(exc)) from None
    for name in cls.__struct_fields__:
        value = getattr(params, name)
        if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= upper:
            raise SetupError(f"params.{name}", f"must be between 0 and {upper}")
    return params
