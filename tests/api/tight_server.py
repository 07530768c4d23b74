"""`ringside serve`'s server stack (uvicorn, uvloop, httptools, one worker) on a listening socket
with small kernel send buffers, which the sockets it accepts inherit: a client that stops reading
stalls the server's sends after tens of kilobytes instead of megabytes.

    python -m tests.api.tight_server PORT       (the environment picks the store, as for serve)
"""
from __future__ import annotations

import socket
import sys

import uvicorn

from api import streams
from api.app import server_app
from api.cli_serve import server_config

SEND_BUFFER = 4096      # the kernel doubles it, and stops tuning it once set
# A stalled test client reads its 4408 only once the test's other steps are done, which can
# take longer than the 10 s a server gives a stalled socket to drain to its close frame.
CLOSE_SECONDS = 120.0


def main() -> None:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    sock.bind(("127.0.0.1", int(sys.argv[1])))
    sock.listen(128)
    streams.CLOSE_SECONDS = CLOSE_SECONDS
    uvicorn.Server(server_config(server_app(), 1)).run(sockets=[sock])


if __name__ == "__main__":
    main()
