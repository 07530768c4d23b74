"""The rule parameters in force: today's defaults, or those of the kept release a call plays
(`domain.engine.releases` puts one in force around every call of an earlier version's rules)."""
from __future__ import annotations

import typing
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NamedTuple, TypeVar

import msgspec

R = TypeVar("R", bound=msgspec.Struct)


class Older(NamedTuple):
    """Metadata on a field of a ruleset's `Params` or `Rules`, `Annotated[T, Older(value)]`:
    the value every release cut before the field existed played by."""
    value: Any


class Release(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One kept release: its version, its content hash and its parameter defaults."""
    version: str
    content: str                                   # the content hash; files in content/<hash>/
    params: dict[str, Any] = {}
    rules: dict[str, Any] = {}


_IN_FORCE: ContextVar[Release | None] = ContextVar("release_in_force", default=None)


def with_older(cls: type[msgspec.Struct], given: Mapping[str, Any]) -> dict[str, Any]:
    """`given` with each field of `cls` it lacks that declares `Older` set to that value."""
    hints = typing.get_type_hints(cls, include_extras=True)
    filled = dict(given)
    for name in cls.__struct_fields__:
        older = [m for m in getattr(hints[name], "__metadata__", ()) if isinstance(m, Older)]
        if name not in filled and older:
            filled[name] = older[0].value
    return filled


def rules_in_force(cls: type[R]) -> R:
    """The rule choices a new battle starts with: today's defaults, or the release's."""
    release = _IN_FORCE.get()
    return cls() if release is None else msgspec.convert(with_older(cls, release.rules), type=cls)


def param_defaults(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """The param values a setup that leaves them out gets, where they are not today's."""
    release = _IN_FORCE.get()
    return {} if release is None else with_older(cls, release.params)


@contextmanager
def in_force(release: Release) -> Iterator[None]:
    token = _IN_FORCE.set(release)
    try:
        yield
    finally:
        _IN_FORCE.reset(token)
