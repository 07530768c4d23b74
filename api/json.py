"""orjson on every path: responses are rendered by orjson, never by the stdlib encoder."""
from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import JSONResponse, Response


class OrjsonResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


def json_response(content: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A ready response: skips FastAPI's jsonable_encoder pass over the body."""
    return Response(orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS), status_code=status,
                    media_type="application/json", headers=headers)
