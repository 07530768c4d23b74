"""JSON request bodies: their nesting is measured before any parser recurses into them.

The engine stores values nested at most `MAX_DEPTH` levels deep (`check_wire`), but that check
reads what a parser has built, and every parser here (the stdlib's under FastAPI, msgspec on the
fast path) recurses once per level: a body nested a thousand deep ends in a `RecursionError`
before any check runs. So a body's depth is read from its text first, and one nested more than
`MAX_DEPTH` levels is refused with 422 (`details.field` "body") on every route that reads JSON.
"""
from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from domain.engine.wire import MAX_DEPTH, nested_deeper

from .errors import BodyTooDeep


class DepthCheckedRequest(Request):
    async def json(self) -> Any:
        if nested_deeper(await self.body()):
            raise BodyTooDeep(MAX_DEPTH)
        return await super().json()


class JsonBodyRoute(APIRoute):
    """A route whose JSON body is refused (422) when nested past `MAX_DEPTH`, before it is parsed."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            return await handler(DepthCheckedRequest(request.scope, request.receive))
        return checked
