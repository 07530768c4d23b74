"""The rulesets this service hosts, with setup schemas, default setups and content."""
from __future__ import annotations

from fastapi import APIRouter
from starlette.responses import Response

from domain.ai import policy_names
from domain.engine.ruleset import all_rulesets

from ..json import json_response

router = APIRouter(tags=["rulesets"])


@router.get("/rulesets")
def list_rulesets() -> Response:
    return json_response({"rulesets": [
        {"id": r.id, "version": r.version, "content_hash": r.content_hash, "seats": list(r.default_table().seats),
         "sides": r.default_table().as_json(), "setup_schema": r.setup_schema, "default_setup": r.default_setup,
         "content": r.content.as_json(), "bots": policy_names(r.id), "earlier_versions": r.earlier_versions}
        for r in all_rulesets().values()]})
