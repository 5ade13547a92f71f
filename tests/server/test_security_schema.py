"""Schemathesis against a live server's ``/openapi.json``: every operation, with
generated and mutated requests, logged in (a bearer token) and not; no answer
may be a 5xx, a status the document does not list, break its documented schema
or content type, or carry a traceback. Schema-valid bodies the server refuses
for reasons the schema cannot express (a reserved name, a weak password) are
answered with a documented 400.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from drawpoker.server import openapi

from .helpers import Server, table

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    tmp = tmp_path_factory.mktemp("schema")
    server = Server(tmp, None, [table("t1", bots=2), table("t2")])
    server.start()
    try:
        r = httpx.post(
            server.url + "/api/register",
            json={"name": "fuzzer", "password": "schema fuzzing all day"},
            timeout=10,
        )
        assert r.status_code == 200, r.text
        yield server, r.json()["token"]
    finally:
        server.stop()
        log = server.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]


@pytest.fixture(scope="module")
def api_schema(live: tuple[Server, str]) -> Any:
    server, _ = live
    document = httpx.get(server.url + "/openapi.json", timeout=10).json()
    loaded = schemathesis.openapi.from_dict(document)
    loaded.config.update(base_url=server.url)
    return loaded


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    content_type_conformance,
]
OPERATIONS = [
    (method.upper(), path)
    for path, operations in openapi.document()["paths"].items()
    for method in operations
]


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_no_operation_fails_or_breaks_its_schema(
    api_schema: Any, live: tuple[Server, str], method: str, path: str
) -> None:
    """Generated requests for one operation, logged in with a bearer token (but
    ``/api/logout``, which would end that session)."""
    _, token = live
    headers = {"Authorization": f"Bearer {token}"} if path != "/api/logout" else None
    operation = api_schema[path][method]

    @given(case=operation.as_strategy())
    @settings(
        max_examples=40,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def fuzz(case: Any) -> None:
        response = case.call_and_validate(headers=headers, checks=CHECKS, timeout=15)
        assert "Traceback" not in response.text

    fuzz()


def test_the_document_is_served(live: tuple[Server, str]) -> None:
    server, _ = live
    document = httpx.get(server.url + "/openapi.json", timeout=10).json()
    assert document["openapi"].startswith("3.")
    assert "/api/login" in document["paths"]
    assert Path(server.log).exists()
