"""What every REST route shares: a table or tournament nobody answers for is
404 when it is not the room's and 503 (with ``Retry-After``) while its owner
changes, on every route that asks an owner."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from drawpoker.server import app as server_app
from drawpoker.server.bus import Moving, NoOwner
from drawpoker.server.store import Store, database_url


class Unanswered:
    """A bus on which every ask finds nobody (``problem``)."""

    def __init__(self, problem: NoOwner) -> None:
        self.problem = problem

    async def ask(self, unit: str, op: str, args: dict[str, Any]) -> Any:
        raise type(self.problem)(unit)


@pytest.mark.parametrize("problem", [NoOwner("x"), Moving("x")], ids=["gone", "moving"])
def test_a_unit_nobody_answers_for_is_404_or_503_on_every_route(
    tmp_path: Path, problem: NoOwner
) -> None:
    app = server_app.create_app(Store(database_url(None, tmp_path)), [])
    app.state.room = SimpleNamespace(
        lobby=SimpleNamespace(table_rows={"a": object()}),
        bus=Unanswered(problem),
        series_unit=lambda name: f"s:{name}",
    )
    moving = isinstance(problem, Moving)

    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            return [await c.get("/api/tables/a"), await c.get("/api/tournaments/weekly")]

    for answer, named in zip(asyncio.run(run()), ("table 'a'", "tournament 'weekly'"), strict=True):
        assert answer.status_code == (503 if moving else 404)
        message = answer.json()["error"]
        assert named in message
        if moving:
            assert "try again" in message
            assert answer.headers["retry-after"] == "2"
