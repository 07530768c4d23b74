"""Helpers every ruleset's content and setup share: the content hash and the field path of
a msgspec validation error."""
from __future__ import annotations

from collections.abc import Mapping
from hashlib import blake2b


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
