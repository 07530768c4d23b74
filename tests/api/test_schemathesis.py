"""Property-based fuzzing of the whole HTTP API from its OpenAPI schema, against a real
uvicorn server: at least 1,000 generated requests, no 5xx, and every response conforms to
the documented schema."""
from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from .server import uvicorn_server

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES = 90


def test_generated_requests_never_fail_and_conform_to_the_schema(sqlite_url):
    with uvicorn_server(sqlite_url) as url:
        # Streams never end for a live battle; they have tests of their own.
        schema = schemathesis.openapi.from_url(url + "/openapi.json").exclude(path_regex="stream")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 14
        sent = 0
        for operation in operations:

            @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
                      derandomize=True, database=None)
            @given(case=operation.as_strategy())
            def fuzz(case) -> None:
                nonlocal sent
                sent += 1
                case.call_and_validate(checks=CHECKS, timeout=10)

            fuzz()
        assert sent >= 1000, sent
