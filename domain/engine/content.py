"""Helpers every ruleset's content and setup share: the content hash, the field path of a
msgspec validation error, the checks every setup starts with, and the declared range of each
param."""
from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, cached_property
from hashlib import blake2b
from pathlib import Path
import typing
from types import MappingProxyType
from typing import Annotated, Any, Generic, NamedTuple, TypeVar

import msgspec

from .errors import SetupError, quote
from .in_force import param_defaults

P = TypeVar("P", bound=msgspec.Struct)
# A game number (a hand size, a deck size, basis points) no ruleset needs more of. It keeps
# every param, and sums and products of a few, exact in any client language (2**53 in JS).
# Each param declares its own, much smaller range (`param_bounds`); this caps those ranges.
PARAM_MAX = 1_000_000


class ContentFiles:
    """A ruleset's content: TOML files read once, hashed by name and bytes (replays pin the
    hash), and shown as JSON table by table. A subclass names its `TABLES` (attributes that
    hold `{id: record}`) and loads them from `self.files`. An earlier release's content is
    the complete folder kept under its hash (`domain.engine.releases`)."""
    TABLES: tuple[str, ...] = ()

    def __init__(self, directory: Path):
        self.files = toml_files(directory)

    def toml(self, name: str) -> dict[str, Any]:
        return tomllib.loads(self.files[name].decode())

    @cached_property
    def hash(self) -> str:
        return files_hash(self.files)

    def as_json(self) -> dict[str, object]:
        return {table: {k: msgspec.to_builtins(v) for k, v in vars(self)[table].items()}
                for table in self.TABLES}


C = TypeVar("C", bound=ContentFiles)


class InForce(Generic[C]):
    """A ruleset's content in force: today's, unless a kept release (`domain.engine.releases`)
    pins its own for a call. The rules read it through `get` at every step, never through a
    module global, so an old battle plays by its own content (this thread or task only)."""

    def __init__(self, today: C, name: str):
        self._var: ContextVar[C] = ContextVar(name, default=today)
        self.get: Callable[[], C] = self._var.get

    @contextmanager
    def playing(self, pinned: C) -> Iterator[None]:
        token = self._var.set(pinned)
        try:
            yield
        finally:
            self._var.reset(token)


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


# Re-simulating a recorded battle (verify, a set's audit): the limits on new inputs below do
# not apply, so a limit that narrows never refuses a battle created before it did.
_RECORDED: ContextVar[bool] = ContextVar("recorded_inputs", default=False)


@contextmanager
def recorded_inputs() -> Iterator[None]:
    """Within it, setups and players are read as recorded: a param is held to its declared lower
    end and to PARAM_MAX, what every version accepted, not to today's upper end; the other
    limits on new battles (`new_inputs()` says which apply) are not checked."""
    token = _RECORDED.set(True)
    try:
        yield
    finally:
        _RECORDED.reset(token)


def new_inputs() -> bool:
    """Whether the inputs being read are a new battle's, held to today's limits."""
    return not _RECORDED.get()


class Bound(NamedTuple):
    """An integer param's declared range, `Annotated[int, Bound(lo, hi)]`. It binds the setups
    a battle is created with (`parse_params`). Decoding the log ignores it, and a recorded setup
    re-simulated (`recorded_inputs`) is held to `lo`..PARAM_MAX only: a battle recorded before
    the upper end narrowed still folds, verifies and shows, and no replay of any age gets a
    value past what the engine ever took."""
    lo: int
    hi: int


@cache
def param_bounds(cls: type[msgspec.Struct]) -> Mapping[str, tuple[int, int]]:
    """Each integer param's declared range (`Bound`), by name. A ruleset declares one for every
    integer param, within 0..PARAM_MAX: TypeError names the first that has not, so an
    unbounded param fails on the first setup parsed."""
    hints = typing.get_type_hints(cls, include_extras=True)
    bounds = {}
    for name in cls.__struct_fields__:
        hint = hints[name]
        base = typing.get_origin(hint) is Annotated and typing.get_args(hint)[0]
        if hint is not int and base is not int:
            continue
        found = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Bound)]
        if not found or not 0 <= found[0].lo <= found[0].hi <= PARAM_MAX:
            raise TypeError(f"{cls.__module__}.{cls.__qualname__}.{name} declares no range within "
                            f"0..{PARAM_MAX}: annotate it Annotated[int, Bound(lo, hi)]")
        bounds[name] = (found[0].lo, found[0].hi)
    return MappingProxyType(bounds)      # cached: shared by every caller


def parse_params(raw: Any, cls: type[P]) -> P:
    """A ruleset's `params` Struct from setup JSON: typed, every integer within its declared range."""
    bounds = param_bounds(cls)
    if isinstance(raw, Mapping):         # an earlier release's defaults for what the setup leaves out
        raw = {**param_defaults(cls), **raw}
    try:
        params = msgspec.convert(raw, type=cls)
    except msgspec.ValidationError as exc:
        path = error_path(str(exc))
        given = raw.get(path) if isinstance(raw, Mapping) else None
        if path in bounds and isinstance(given, int) and not isinstance(given, bool):
            out_of_range(path, bounds[path], given)
        raise SetupError(f"params.{path}".rstrip("."), str(exc)) from None
    recorded = not new_inputs()
    for name, (lo, hi) in bounds.items():
        bound = (lo, PARAM_MAX) if recorded else (lo, hi)
        if not bound[0] <= getattr(params, name) <= bound[1]:
            out_of_range(name, bound, getattr(params, name))
    return params


def out_of_range(name: str, bound: tuple[int, int], given: int) -> typing.NoReturn:
    raise SetupError(f"params.{name}", f"must be between {bound[0]} and {bound[1]}, not {quote(given)}")
