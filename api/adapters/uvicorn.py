"""uvicorn's WebSocket protocol, with a direct way out for frames encoded once for many sockets.

A live batch is encoded once per kind of viewer, and a thousand spectators of a battle are
sent the same bytes (projections/live.py). Through ASGI, each of those sends still costs a
task wake-up, the app's `send` chain and the frame built again per socket. This protocol offers
the stream an ASGI extension instead, `ringside.frames`, whose `write(frame)` puts an already
framed WebSocket message (`binary_frame`) straight on the connection's transport, from the
event loop's own thread, or declines when it cannot: the connection is not open, the app has
begun closing it, an extension such as compression was agreed, or the socket is not taking
data (the transport has paused writing). A stream whose write is declined sends through ASGI
as before, where a stalled socket makes its client fall behind and be dropped.

Only whole, unfragmented data frames are written, and only while the protocol is between
frames of its own (it writes nothing of a frame in more than one call), so the connection's
frames stay intact. A server without the extension (another ASGI server, the test client) is
sent everything through ASGI.

This subclasses a private uvicorn class and reads its connection state, so uvicorn is pinned
to the minor version it was written against (pyproject.toml), and tests/adapters/test_uvicorn.py
names whichever of those internals a new version changes.
"""
from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

EXTENSION = "ringside.frames"
BINARY = 0x82               # FIN, binary data frame


def binary_frame(payload: bytes) -> bytes:
    """One unmasked (server-to-client) binary WebSocket frame holding `payload` (RFC 6455 5.2)."""
    size = len(payload)
    if size < 126:
        head = bytes((BINARY, size))
    elif size < 1 << 16:
        head = bytes((BINARY, 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((BINARY, 127)) + size.to_bytes(8, "big")
    return head + payload


class FramesProtocol(WebSocketsSansIOProtocol):
    """`WebSocketsSansIOProtocol` plus the `ringside.frames` extension in each connection's scope."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None and not self.close_sent:
            scope["extensions"][EXTENSION] = {"write": self.write_frame}

    def write_frame(self, frame: bytes) -> bool:
        """Write `frame` (from `binary_frame`) now; False, writing nothing, if it may not go out
        this way."""
        if (self.close_sent or self.disconnected or not self.handshake_complete or self.conn.extensions
                or self.conn.state is not State.OPEN or not self.writable.is_set() or self.transport.is_closing()):
            return False
        self.transport.write(frame)
        return True
