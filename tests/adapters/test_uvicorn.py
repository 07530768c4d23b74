"""api/adapters/uvicorn.py subclasses uvicorn's private `WebSocketsSansIOProtocol` and reads its
connection state. These tests drive the real protocol over an in-memory transport and fail,
naming the internal, when a uvicorn (or websockets) release changes what the adapter assumes:
the base class and `handle_connect(event)`, the scope it builds there with an `extensions`
dict before the app runs, its attributes (`close_sent`, `disconnected`, `handshake_complete`,
`conn.state`, `conn.extensions`, `writable`, `transport`), and that it writes each of its own
frames in one `transport.write`, so a frame written between them stays whole."""
from __future__ import annotations

import asyncio
import importlib
import inspect
from typing import Any

import pytest

BASE = "uvicorn.protocols.websockets.websockets_sansio_impl.WebSocketsSansIOProtocol"
HANDSHAKE = (b"GET /stream HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")
DEFLATE = b"Sec-WebSocket-Extensions: permessage-deflate\r\n"


def base_class() -> type:
    module, _, name = BASE.rpartition(".")
    try:
        found: type = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        pytest.fail(f"uvicorn no longer has {BASE}, the base of api/adapters/uvicorn.py: {exc}")
    return found


class Transport(asyncio.Transport):
    """A socket's transport as the protocol sees it: each `write` call kept as it was made."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name, default)


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accepts, writes one frame through the extension between two sent through ASGI, then
    waits for the end of the connection."""
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "bytes": b"[1]"})
    from api.adapters.uvicorn import EXTENSION, binary_frame

    scope["state"]["wrote"] = scope["extensions"][EXTENSION]["write"](binary_frame(b"[2]"))
    await send({"type": "websocket.send", "bytes": b"[3]"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def connected(request: bytes, deflate: bool = False) -> tuple[Any, Transport, dict[str, Any]]:
    """A `FramesProtocol` of a real uvicorn config, sent `request`, once the app has run; with
    the state of the connection's scope, where the app notes whether its frame was taken."""
    import uvicorn
    from uvicorn.server import ServerState

    from api.adapters.uvicorn import FramesProtocol

    config = uvicorn.Config(app, ws=FramesProtocol, ws_per_message_deflate=deflate, lifespan="off",
                            log_level="warning")
    config.load()
    protocol = FramesProtocol(config=config, server_state=ServerState(), app_state={})
    transport = Transport()
    protocol.connection_made(transport)
    protocol.data_received(request + b"\r\n")
    for _ in range(20):                 # the app's task runs on the loop, a step at a time
        await asyncio.sleep(0)
    return protocol, transport, getattr(protocol, "scope", {}).get("state", {})


def test_the_base_class_and_the_method_the_adapter_overrides_are_as_assumed():
    base = base_class()
    from api.adapters.uvicorn import FramesProtocol

    assert issubclass(FramesProtocol, base)
    assert list(inspect.signature(base.__init__).parameters)[:4] == ["self", "config", "server_state", "app_state"], \
        f"{BASE}.__init__ no longer takes (config, server_state, app_state)"
    assert list(inspect.signature(base.handle_connect).parameters) == ["self", "event"], \
        f"{BASE}.handle_connect no longer takes (event): the adapter overrides it"


def test_a_frame_written_through_the_extension_goes_out_whole_between_the_protocols_own():
    async def run() -> None:
        protocol, transport, state = await connected(HANDSHAKE)
        assert state.get("wrote") is True, \
            f"{BASE}: the scope built in handle_connect has no 'extensions' dict, or the frame was declined"
        response, *frames = transport.written
        assert response.startswith(b"HTTP/1.1 101"), f"{BASE} no longer writes its handshake response in one call"
        assert frames == [b"\x82\x03[1]", b"\x82\x03[2]", b"\x82\x03[3]"], \
            f"{BASE} no longer writes each of its frames in one transport.write call: {frames!r}"
        protocol.connection_lost(None)
        await asyncio.sleep(0)

    asyncio.run(run())


def test_the_connection_state_the_adapter_reads_is_where_and_what_it_assumes():
    async def run() -> None:
        from websockets.protocol import State

        protocol, transport, _ = await connected(HANDSHAKE)
        for name, expected in (("close_sent", False), ("disconnected", False), ("handshake_complete", True)):
            assert getattr(protocol, name, None) is expected, f"{BASE}.{name} is not {expected} on an open connection"
        assert protocol.transport is transport, f"{BASE}.transport is no longer the connection's transport"
        assert protocol.conn.state is State.OPEN, f"{BASE}.conn.state is not websockets' State.OPEN once accepted"
        assert protocol.conn.extensions == [], f"{BASE}.conn.extensions is not an empty list without compression"
        assert isinstance(protocol.writable, asyncio.Event) and protocol.writable.is_set(), \
            f"{BASE}.writable is no longer an asyncio.Event set while the transport takes data"
        protocol.pause_writing()
        assert not protocol.writable.is_set(), f"{BASE}.pause_writing no longer clears {BASE}.writable"
        assert protocol.write_frame(b"\x82\x00") is False
        protocol.resume_writing()
        assert protocol.write_frame(b"\x82\x00") is True
        protocol.connection_lost(None)
        assert protocol.disconnected is True, f"{BASE}.connection_lost no longer sets {BASE}.disconnected"
        assert protocol.write_frame(b"\x82\x00") is False
        await asyncio.sleep(0)

    asyncio.run(run())


def test_a_compressed_connection_declines_frames_encoded_once_for_all():
    async def run() -> None:
        protocol, _, state = await connected(HANDSHAKE + DEFLATE, deflate=True)
        assert protocol.conn.extensions, f"{BASE}.conn.extensions no longer lists the agreed permessage-deflate"
        assert state.get("wrote") is False
        protocol.connection_lost(None)
        await asyncio.sleep(0)

    asyncio.run(run())


def test_a_refused_handshake_builds_no_scope_and_offers_nothing():
    async def run() -> None:
        protocol, transport, _ = await connected(HANDSHAKE.replace(b"Sec-WebSocket-Version: 13", b"X-Nothing: 1"))
        assert protocol.close_sent is True, f"{BASE}.handle_connect no longer sets close_sent on a refused handshake"
        assert not hasattr(protocol, "scope")
        assert transport.written[0].startswith(b"HTTP/1.1 4")

    asyncio.run(run())
