"""Canonical encoding and the per-battle hash chain (DESIGN.md non-negotiable 6)."""
from __future__ import annotations

from collections.abc import Mapping
from hashlib import blake2b

import orjson

GENESIS = "0" * 64

# Copying a ready hasher is cheaper than building one from its keyword arguments each time;
# the digest is the same as `blake2b(data, digest_size=32)`.
_BLAKE2B_32 = blake2b(digest_size=32)
_SORT_KEYS = orjson.OPT_SORT_KEYS


def canonical_bytes(seq: int, topic: str, data: Mapping[str, object]) -> bytes:
    return orjson.dumps({"seq": seq, "type": topic, "data": data}, option=orjson.OPT_SORT_KEYS)


def link(previous: str, canonical: bytes) -> str:
    digest = _BLAKE2B_32.copy()
    digest.update(bytes.fromhex(previous))
    digest.update(canonical)
    return digest.hexdigest()


def chain_of(previous: str, seq: int, topic: str, data: Mapping[str, object]) -> str:
    # canonical_bytes and link, inlined: this runs once for every event of every battle.
    digest = _BLAKE2B_32.copy()
    digest.update(bytes.fromhex(previous))
    digest.update(orjson.dumps({"seq": seq, "type": topic, "data": data}, option=_SORT_KEYS))
    return digest.hexdigest()
