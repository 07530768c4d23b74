"""The baseline of the HTTP benchmarks: a minimal FastAPI + orjson POST endpoint served by the
very server stack `ringside serve` runs (api/cli_serve.py), with the same worker count.

    python bench/minimal.py --port 8001 [--workers 1]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import orjson
from fastapi import FastAPI, Request
from starlette.responses import Response

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def create_app() -> FastAPI:
    app = FastAPI()

    @app.post("/echo")
    async def echo(request: Request) -> Response:
        body = orjson.loads(await request.body())
        return Response(orjson.dumps({"seq": 1, "events": [body]}), media_type="application/json")

    return app


def main() -> None:
    from uvicorn.supervisors.multiprocess import Multiprocess

    from api.cli_serve import AnnouncingServer, listening_socket, server_config

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    sock = listening_socket("127.0.0.1", args.port)
    config = server_config(create_app() if args.workers == 1 else "bench.minimal:create_app", args.workers)
    if args.workers == 1:
        AnnouncingServer(config, lambda: None).run(sockets=[sock])
    else:
        Multiprocess(config, [sock]).run()


if __name__ == "__main__":
    main()
