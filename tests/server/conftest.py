"""Server test fixtures: every database-backed test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

PG_HOST = "127.0.0.1"
PG_PORT = 5432
REDIS_HOST = "127.0.0.1"
REDIS_PORT = 6379


def _pg_admin() -> tuple[object, str] | None:
    """A connection to the local PostgreSQL (database ``test``) and its user, or None."""
    import psycopg

    for user in ("postgres", "root"):
        try:
            conn = psycopg.connect(
                host=PG_HOST, port=PG_PORT, user=user, dbname="test", autocommit=True,
                connect_timeout=3,
            )  # fmt: skip
        except psycopg.Error:
            continue
        return conn, user
    return None


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None (SQLite in the data directory) or the URL of a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield None
        return
    yield from _fresh_postgresql()


@pytest.fixture
def postgresql() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database."""
    yield from _fresh_postgresql()


@pytest.fixture
def redis_url() -> str:
    """The local Redis (tests keep to a namespace of their own)."""
    import socket

    try:
        socket.create_connection((REDIS_HOST, REDIS_PORT), timeout=3).close()
    except OSError:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is not reachable at {REDIS_HOST}:{REDIS_PORT} and CI is set")
        pytest.skip(f"Redis tests skipped: no server reachable at {REDIS_HOST}:{REDIS_PORT}")
    return f"redis://{REDIS_HOST}:{REDIS_PORT}/0"


def _fresh_postgresql() -> Iterator[str]:
    found = _pg_admin()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not reachable at {PG_HOST}:{PG_PORT} and CI is set")
        pytest.skip(f"PostgreSQL tests skipped: no server reachable at {PG_HOST}:{PG_PORT}")
    conn, user = found
    name = f"dp_test_{secrets.token_hex(6)}"
    conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[attr-defined]
    try:
        yield f"postgresql://{user}@{PG_HOST}:{PG_PORT}/{name}"
    finally:
        conn.execute(  # type: ignore[attr-defined]
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')  # type: ignore[attr-defined]
        conn.close()  # type: ignore[attr-defined]


@pytest.fixture
def store_url(database: str | None, tmp_path: object) -> str:
    """A SQLAlchemy URL for in-process store tests."""
    from pathlib import Path

    from drawpoker.server.store import database_url

    return database_url(database, Path(str(tmp_path)) / "data")
