"""The hottest routes, served in front of the framework: a command (`POST
/battles/{id}/commands`), the legal commands (`GET /battles/{id}/legal`) and a new battle
(`POST /battles`).

A request that goes through FastAPI pays for route matching, dependency solving, a pydantic
model and about ten layers of middleware: most of what a command costs the event loop. Here
a plain ASGI layer takes the common case of those routes: a JSON body msgspec decodes into
exactly the shape the route declares, whose values are storable JSON. It answers them with
the very functions the routes call (api/routes/battles.py), errors included.

Everything else, and any request of those routes that is not plainly well formed, goes on
to FastAPI with its body replayed, so every refusal reads exactly as the documented route's:
the routes, their OpenAPI schema and their error answers stay as they are.
"""
from __future__ import annotations

from typing import Annotated, Any

import msgspec
from eventsourcing.persistence import PersistenceError
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domain.engine.errors import RingsideError
from domain.engine.wire import INT_MAX, check_wire, nested_deeper

from .auth import bearer_of
from .errors import bug_response, ringside_response, store_down_response
from .routes.battles import create, legal_of, submit
from .routes.models import MAX_SEATS
from .services import Services

MAX_ID = 64                 # the routes' `battle_id` limit (longer ids go on, to be refused there)
SeatKey = Annotated[str, msgspec.Meta(min_length=1, max_length=32)]


class CommandBody(msgspec.Struct, forbid_unknown_fields=True):
    """`SubmitCommand` (api/routes/models.py), for msgspec."""
    command: dict[str, Any]
    expected_seq: Annotated[int, msgspec.Meta(ge=0, le=INT_MAX)] | None = None


class CreateBody(msgspec.Struct, forbid_unknown_fields=True):
    """`CreateBattle` (api/routes/models.py), for msgspec: the same fields and bounds."""
    ruleset: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    players: Annotated[dict[SeatKey, Any], msgspec.Meta(max_length=MAX_SEATS)]
    setup: dict[str, Any] | None = None
    seed_nonces: Annotated[dict[SeatKey, Annotated[str, msgspec.Meta(max_length=128)]],
                           msgspec.Meta(max_length=16)] | None = None
    private: bool = False
    spectator_delay: Annotated[int, msgspec.Meta(ge=0, le=1000)] | None = None
    clock: str | dict[str, Any] | None = None


_DECODERS: dict[type, Any] = {CommandBody: msgspec.json.Decoder(CommandBody).decode,
                              CreateBody: msgspec.json.Decoder(CreateBody).decode}


class FastRoutes:
    def __init__(self, app: ASGIApp, services: Services, body_limit: int):
        self.app = app
        self.services = services
        self.battles = services.battles
        self.body_limit = body_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            if scope["path"] == "/battles" and scope["method"] == "POST":
                await self._create(scope, receive, send)
                return
            parts = scope["path"].split("/")
            if len(parts) == 4 and parts[1] == "battles" and 0 < len(parts[2]) <= MAX_ID:
                if parts[3] == "commands" and scope["method"] == "POST":
                    await self._command(scope, receive, send, parts[2])
                    return
                if parts[3] == "legal" and scope["method"] == "GET":
                    headers = _headers(scope)
                    await self._answer(scope, receive, send, lambda: legal_of(
                        self.battles, parts[2], bearer_of(headers.get("authorization"))))
                    return
        await self.app(scope, receive, send)

    async def _command(self, scope: Scope, receive: Receive, send: Send, battle_id: str) -> None:
        headers = _headers(scope)
        body = await self._body(scope, receive, send, headers, CommandBody)
        if body is not None:
            await self._answer(scope, receive, send, lambda: submit(
                self.battles, battle_id, body.command, body.expected_seq,
                bearer_of(headers.get("authorization")), headers.get("idempotency-key")))

    async def _create(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        body = await self._body(scope, receive, send, headers, CreateBody)
        if body is not None:
            await self._answer(scope, receive, send, lambda: create(
                self.services, body, headers.get("authorization")))

    async def _body(self, scope: Scope, receive: Receive, send: Send, headers: dict[str, str],
                    shape: type[Any]) -> Any:
        """The request's body as `shape`, when it is plainly that; otherwise the app has
        answered the request (with the body replayed), or the client left: None."""
        declared = headers.get("content-length", "")
        if not (declared.isascii() and declared.isdigit() and int(declared) <= self.body_limit
                and headers.get("content-type", "").split(";")[0].strip().lower() == "application/json"):
            await self.app(scope, receive, send)
            return None
        raw = await _read_body(receive)
        if raw is None:
            return None                     # the client left
        # A body nested too deep would take msgspec past the recursion limit: the route refuses it.
        found = None if nested_deeper(raw) else _well_formed(raw, shape)
        if found is None:
            await self.app(scope, _replay(raw, receive), send)
        return found

    async def _answer(self, scope: Scope, receive: Receive, send: Send, make: Any) -> None:
        """Run the route's function; its refusals answer as the app's handlers would."""
        try:
            response: Response = await make()
        except RingsideError as exc:
            response = ringside_response(exc)
        except PersistenceError as exc:
            response = store_down_response(exc)
        except Exception:
            response = bug_response(scope["method"], scope["path"])
        await response(scope, receive, send)


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name, the first of each (as Starlette reads them)."""
    found: dict[str, str] = {}
    for name, value in scope["headers"]:
        found.setdefault(name.decode("latin-1"), value.decode("latin-1"))
    return found


async def _read_body(receive: Receive) -> bytes | None:
    """The whole body, or None if the client disconnected first."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _well_formed(body: bytes, shape: type[Any]) -> Any:
    """The body as `shape`, if it plainly is one whose values are storable JSON; else None."""
    try:
        found = _DECODERS[shape](body)
        for name in found.__struct_fields__:
            check_wire(getattr(found, name), name)
    except (msgspec.DecodeError, RingsideError):
        return None
    return found


def _replay(body: bytes, receive: Receive) -> Receive:
    """`receive` for the app, giving it the body already read, then the rest as it comes."""
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()
    return replayed
