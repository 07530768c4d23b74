"""The rulesets this service hosts, with setup schemas, default setups and content, and the
clock presets a battle or set may be created with (`clock`), each with its values."""
from __future__ import annotations

import msgspec
from fastapi import APIRouter
from starlette.responses import Response

from domain.ai import policy_names
from domain.engine.clock import PRESETS
from domain.engine.ruleset import all_rulesets

from ..json import json_response

router = APIRouter(tags=["rulesets"])


@router.get("/rulesets")
def list_rulesets() -> Response:
    """Every ruleset, with the clock preset it recommends (`recommended_clock`, null for none:
    advice only, as no battle runs a clock unless created with one), and every clock preset's
    fields by name (`clock_presets`)."""
    return json_response({"rulesets": [
        {"id": r.id, "version": r.version, "content_hash": r.content_hash, "seats": list(r.default_table().seats),
         "sides": r.default_table().as_json(), "setup_schema": r.setup_schema, "default_setup": r.default_setup,
         "content": r.content.as_json(), "bots": policy_names(r.id), "earlier_versions": r.earlier_versions,
         "recommended_clock": r.recommended_clock}
        for r in all_rulesets().values()],
        "clock_presets": {name: msgspec.to_builtins(spec) for name, spec in PRESETS.items()}})
