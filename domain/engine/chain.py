"""Canonical encoding and the per-battle hash chain (DESIGN.md non-negotiable 6)."""
from __future__ import annotations

from collections.abc import Mapping
from hashlib import blake2b

import orjson

GENESIS = "0" * 64


def canonical_bytes(seq: int, topic: str, data: Mapping[str, object]) -> bytes:
    return orjson.dumps({"seq": seq, "type": topic, "data": data}, option=orjson.OPT_SORT_KEYS)


def link(previous: str, canonical: bytes) -> str:
    return blake2b(bytes.fromhex(previous) + canonical, digest_size=32).hexdigest()


def chain_of(previous: str, seq: int, topic: str, data: Mapping[str, object]) -> str:
    # canonical_bytes and link, inlined: this runs once for every event of every battle.
    canonical = orjson.dumps({"seq": seq, "type": topic, "data": data}, option=orjson.OPT_SORT_KEYS)
    return blake2b(bytes.fromhex(previous) + canonical, digest_size=32).hexdigest()
