"""The server's WebSocket protocol (api/adapters/uvicorn.py): frames encoded once for many sockets
are well-formed WebSocket frames, and are written straight to a connection only while it is open,
uncompressed and taking data."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.streams import StreamReader

from api.adapters.uvicorn import FramesProtocol, binary_frame


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536])
def test_a_binary_frame_of_any_size_parses_back_as_one_whole_unmasked_message(size):
    payload = bytes(i % 251 for i in range(size))
    reader = StreamReader()
    reader.feed_data(binary_frame(payload))
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
        raise AssertionError("the frame was cut short")
    except StopIteration as done:
        frame = done.value
    assert (frame.opcode, frame.fin, frame.rsv1, frame.data) == (Opcode.BINARY, True, False, payload)


class Transport:
    def __init__(self):
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


def open_protocol() -> tuple[FramesProtocol, Transport]:
    """A connection as `write_frame` sees it once the app has accepted it."""
    protocol = FramesProtocol.__new__(FramesProtocol)
    protocol.transport = transport = Transport()
    protocol.close_sent = protocol.disconnected = False
    protocol.handshake_complete = True
    protocol.conn = SimpleNamespace(state=State.OPEN, extensions=[])
    protocol.writable = asyncio.Event()
    protocol.writable.set()
    return protocol, transport


def test_an_open_connection_taking_data_is_written_the_frame_as_it_is():
    protocol, transport = open_protocol()
    assert protocol.write_frame(b"\x82\x02[]") is True
    assert transport.written == [b"\x82\x02[]"]


@pytest.mark.parametrize("state", ["paused", "closing", "close_sent", "disconnected", "not_accepted",
                                   "compressed", "conn_closing"])
def test_a_connection_that_may_not_take_a_frame_now_declines_it_and_is_written_nothing(state):
    protocol, transport = open_protocol()
    if state == "paused":
        protocol.writable.clear()               # the transport paused writing: its buffer is full
    elif state == "closing":
        transport.closing = True
    elif state == "close_sent":
        protocol.close_sent = True
    elif state == "disconnected":
        protocol.disconnected = True
    elif state == "not_accepted":
        protocol.handshake_complete = False
    elif state == "compressed":
        protocol.conn.extensions = ["permessage-deflate"]
    else:
        protocol.conn.state = State.CLOSING
    assert protocol.write_frame(b"\x82\x02[]") is False
    assert transport.written == []
