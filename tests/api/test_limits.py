"""Sizes: a JSON body past 1 MiB is refused with 413 as it arrives, a replay upload keeps its
own larger limit, a gzip that inflates past its limit is refused while inflating, and no
error echoes much of what it refuses."""
from __future__ import annotations

import gzip
import socket
import tracemalloc

import orjson
import pytest

from api.app import MAX_BODY_BYTES
from domain.engine.errors import PayloadTooLarge, ReplayError
from replays.format import MAX_TEXT_BYTES, Inflater, loads

from .helpers import PLAYERS, auth, create, play_to_end
from .server import uvicorn_server
from .test_errors import error, stored


def test_a_2mb_player_name_is_413_and_stores_nothing(client, app):
    before = stored(app)
    answer = client.post("/battles", json={"ruleset": "deckduel", "players": {"p1": "a" * 2_000_000, "p2": "b"}})
    refused = error(answer, 413)
    assert refused == {"code": "payload_too_large", "details": {"limit": MAX_BODY_BYTES},
                       "message": f"the request body is larger than the limit of {MAX_BODY_BYTES} bytes"}
    assert stored(app) == before


def test_an_18mb_command_is_413_with_a_small_answer(client, app):
    battle = create(client)
    bid, token = battle["battle_id"], battle["seat_tokens"]["p1"]
    before = stored(app)
    body = orjson.dumps({"command": {"type": "mulligan", "cards": ["jab"] * 3_000_000}})
    assert len(body) > 18_000_000
    answer = client.post(f"/battles/{bid}/commands", content=body,
                         headers={**auth(token), "content-type": "application/json"})
    assert error(answer, 413)["code"] == "payload_too_large"
    assert len(answer.content) < 300
    assert stored(app) == before


def test_a_body_without_a_length_is_counted_as_it_arrives(client, app):
    def chunks():
        yield b'{"ruleset": "deckduel", "players": {"p1": "'
        for _ in range(40):
            yield b"a" * 65_536
        yield b'", "p2": "b"}}'

    before = stored(app)
    answer = client.post("/battles", content=chunks(), headers={"content-type": "application/json"})
    assert error(answer, 413)["details"] == {"limit": MAX_BODY_BYTES}
    assert stored(app) == before


def raw_request(url: str, head: bytes, body_parts: list[bytes]) -> tuple[bytes, int]:
    """Send `head`, then body parts until the server answers; (the answer, parts sent)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(head)
        sent = 0
        sock.settimeout(0.05)
        answer = b""
        for part in body_parts:
            try:
                answer = sock.recv(65_536)
            except TimeoutError:
                pass
            if answer:
                break
            sock.sendall(part)
            sent += 1
        sock.settimeout(10)
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            more = sock.recv(65_536)
            if not more:
                break
            answer += more
        return answer, sent


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with uvicorn_server(f"sqlite:///{tmp_path_factory.mktemp('limits') / 'limits.db'}") as url:
        yield url


def test_a_chunked_upload_is_refused_before_the_rest_is_sent(server):
    chunk = b"a" * 65_536
    parts = [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * 320          # 20 MiB, if it were all sent
    head = (b"POST /battles HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n")
    answer, sent = raw_request(server, head, parts)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'"payload_too_large"' in answer
    assert sent < 40                                                # refused at about 1 MiB


def test_a_declared_length_past_the_limit_is_refused_before_any_body(server):
    for path, limit in (("/battles", MAX_BODY_BYTES), ("/replays/verify", 64 * 1024 * 1024)):
        head = b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (
            path.encode(), limit + 1)
        answer, sent = raw_request(server, head, [b"x"])
        assert answer.startswith(b"HTTP/1.1 413") and sent == 0
        assert orjson.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["details"] == {"limit": limit}


def test_replay_uploads_keep_their_larger_limit(client):
    battle = create(client, players=PLAYERS)
    play_to_end(client, battle)
    replay = client.get(f"/battles/{battle['battle_id']}/replay").content
    padded = replay + b"\n" * (2 * MAX_BODY_BYTES)              # blank lines: still the same replay
    for upload in (padded, gzip.compress(padded)):
        answer = client.post("/replays/verify", content=upload)
        assert answer.status_code == 200, answer.text[:300]
        assert answer.json()["status"] == "ok"


@pytest.mark.parametrize("path", ["/replays/verify", "/replays/at", "/replays/timeline"])
def test_a_gzip_bomb_is_refused_in_little_memory(client, path):
    bomb = gzip.compress(b"\n" * (4 * MAX_TEXT_BYTES), compresslevel=9)     # 256 MiB of text in 250 KB
    assert len(bomb) < 300_000
    tracemalloc.start()
    try:
        answer = client.post(path, content=bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    refused = error(answer, 413)
    assert refused["code"] == "payload_too_large" and refused["details"] == {"limit": MAX_TEXT_BYTES}
    assert "once inflated" in refused["message"]
    # Inflating stopped at the limit: the whole 256 MiB never existed at once.
    assert peak < MAX_TEXT_BYTES + 16 * 1024 * 1024, peak


def test_uploads_inflate_the_same_in_any_chunking_and_refuse_broken_gzip():
    text = b'{"format": "ringside-replay", "version": 1}\n' + b"".join(b'{"seq": %d}\n' % i for i in range(1, 3000))
    packed = gzip.compress(text[:20_000]) + gzip.compress(text[20_000:])      # two gzip members
    for size in (1, 7, 65_536):
        inflater = Inflater("upload")
        for i in range(0, len(packed), size):
            inflater.feed(packed[i:i + size])
        assert inflater.finish() == text
    assert len(loads(packed).events) == 2999
    with pytest.raises(ReplayError, match="truncated"):
        loads(packed[:-4])
    with pytest.raises(PayloadTooLarge, match="at most 100 bytes once inflated"):
        loads(packed, limit=100)
