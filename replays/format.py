"""Replay format v1: JSON Lines; a header, then one `{seq, type, data, chain}` line per event.

A `.jsonl.gz` file is read and written gzip-compressed.
"""
from __future__ import annotations

import gzip
import zlib
from pathlib import Path
from typing import Any

import orjson

from domain.engine.errors import PayloadTooLarge, ReplayError, quote
from domain.engine.wire import MAX_DEPTH, nested_deeper
from domain.replay import FORMAT, VERSION, Replay
from domain.replay import build as build    # a replay is built by the read path; the format's users build here too

MAX_TEXT_BYTES = 64 * 1024 * 1024       # a replay's JSON Lines, however it arrives; 10,000 events are ~5 MB
CHUNK_BYTES = 64 * 1024
INFLATE_STEP = 1024 * 1024
GZIP_MAGIC = b"\x1f\x8b"
GZIP_WBITS = 16 + zlib.MAX_WBITS          # a gzip header and trailer around a deflate stream
# An event line holds its data, which holds a setup or a command of up to MAX_DEPTH levels;
# far past that, hashing the line (orjson stops at 255 levels) would fail instead of refusing it.
MAX_LINE_DEPTH = 2 * MAX_DEPTH


def dumps(replay: Replay) -> bytes:
    lines = [orjson.dumps(replay.header)] + [orjson.dumps(e) for e in replay.events]
    return b"\n".join(lines) + b"\n"


def write(replay: Replay, path: Path) -> None:
    body = dumps(replay)
    path.write_bytes(gzip.compress(body, mtime=0) if path.name.endswith(".gz") else body)


def read(path: Path) -> Replay:
    """A replay file, read and inflated in chunks under the same limit as an upload."""
    inflater = Inflater(str(path))
    try:
        with path.open("rb") as file:
            while chunk := file.read(CHUNK_BYTES):
                inflater.feed(chunk)
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse(inflater.finish(), str(path))


def loads(raw: bytes, name: str = "replay", limit: int = MAX_TEXT_BYTES) -> Replay:
    """A replay from its file's bytes: JSON Lines, or gzip of them."""
    inflater = Inflater(name, limit)
    inflater.feed(raw)
    return parse(inflater.finish(), name)


class Inflater:
    """A replay file's bytes as they arrive, in chunks, into its JSON Lines text; a gzip stream
    (of one or more members) is inflated on the fly. A text longer than `limit` bytes is
    refused as soon as it passes the limit, so a small gzip that would inflate to gigabytes
    costs no more memory than `limit`."""

    def __init__(self, name: str, limit: int = MAX_TEXT_BYTES):
        self.name = name
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self.head = b""                         # the first bytes, until there are two to sniff
        self.gzip: Any = None                   # a zlib decompressor once the magic is seen
        self.sniffed = False

    def feed(self, chunk: bytes) -> None:
        if not self.sniffed:
            if self.head or len(chunk) < len(GZIP_MAGIC):
                self.head, chunk = self.head + chunk, b""
                if len(self.head) < len(GZIP_MAGIC):
                    return
                chunk, self.head = self.head, b""
            self.sniffed = True
            if chunk.startswith(GZIP_MAGIC):
                self.gzip = zlib.decompressobj(GZIP_WBITS)
        if self.gzip is None:
            self._keep(chunk)
        else:
            self._inflate(chunk)

    def finish(self) -> bytes:
        """The whole text; a gzip stream must have ended."""
        if not self.sniffed:
            self._keep(self.head)
        elif self.gzip is not None and not self.gzip.eof:
            raise ReplayError(f"{self.name}: broken gzip data (the stream is truncated)")
        return b"".join(self.parts)

    def _inflate(self, data: bytes) -> None:
        """Inflate in steps of at most `INFLATE_STEP` bytes, stopping as soon as the limit passes."""
        pending = False                         # the last step filled up: more may be waiting
        try:
            while data or pending:
                if self.gzip.eof:               # more data after a member: the next member
                    self.gzip = zlib.decompressobj(GZIP_WBITS)
                step = min(INFLATE_STEP, self.limit - self.size + 1)
                text = self.gzip.decompress(data, step)
                self._keep(text)
                pending = len(text) == step and not self.gzip.eof
                data = self.gzip.unused_data if self.gzip.eof else self.gzip.unconsumed_tail
        except zlib.error as exc:
            raise ReplayError(f"{self.name}: broken gzip data ({exc})") from None

    def _keep(self, text: bytes) -> None:
        self.size += len(text)
        if self.size > self.limit:
            self.parts.clear()
            inflated = " once inflated" if self.gzip is not None else ""
            raise PayloadTooLarge(f"{self.name}: a replay may be at most {self.limit} bytes{inflated}",
                                  limit=self.limit)
        if text:
            self.parts.append(text)


def parse(text: bytes, name: str = "replay") -> Replay:
    """A replay from its JSON Lines text: the header line, then one line per event."""
    # Valid lines close every bracket they open, so the text is as deep as its deepest line.
    if nested_deeper(text, MAX_LINE_DEPTH):
        raise ReplayError(f"{name}: a line is nested more than {MAX_LINE_DEPTH} levels deep", max_depth=MAX_LINE_DEPTH)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise ReplayError(f"{name}: empty file, no replay header")
    header = _line(lines[0], 1, name)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ReplayError(f"{name}: line 1 is not a {FORMAT} header")
    if header.get("version") != VERSION:
        raise ReplayError(f"{name}: replay format version {quote(header.get('version'))} is not supported")
    events = []
    for number, line in enumerate(lines[1:], start=2):
        if line.strip():
            events.append(_line(line, number, name))
    return Replay(header, events)


def _line(line: bytes, number: int, name: str) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        raise ReplayError(f"{name}: line {number} is not valid JSON (truncated or corrupted)") from None
