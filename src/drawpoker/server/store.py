"""Storage: the schema (SQLAlchemy Core), migrations, and a one-thread runner.

SQLite file by default, PostgreSQL by URL (``postgresql://`` is driven by
psycopg 3). Every write happens on one worker thread, in order, so a table
actor can ``await store.run(fn, ...)`` without blocking the event loop and
without two writers racing on SQLite.

The statements every hand runs (its records, its ledger moves, the fencing
check) are ``Statement``s: SQL written once, in the dialect both databases
speak, and run on the transaction's own driver cursor. Building and compiling a
SQLAlchemy statement costs more than the database's work for such small rows.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    inspect,
    select,
    text,
)

from drawpoker.server import metrics

T = TypeVar("T")

metadata = MetaData()

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True),
    Column("applied_at", Float, nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False),
    Column("name_key", String(32), nullable=False, unique=True),  # lower-cased name
    Column("kind", String(8), nullable=False),  # player, guest, bot
    Column("password_hash", String(200)),
    Column("created_at", Float, nullable=False),
    Column("last_daily", String(10)),  # UTC date of the last free top-up
    # player, moderator, operator, administrator (migration 5; ``staff``)
    Column("role", String(16), nullable=False, server_default="player"),
    Column("muted_until", Float),  # chat refused until then (migration 5; ``staff.mute``)
    Column("suspended_until", Float),  # no log-in, no session until then (migration 5)
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the token
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

# Where each account has logged in from (``limits.address_key``), for the staff's
# signals of accounts that share an address (migration 5).
account_addresses = Table(
    "account_addresses",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("last_at", Float, nullable=False),
    Index("ix_account_addresses_address", "address"),
)

# Double-entry ledger: a transaction's entries sum to zero; balances are the
# running sum of entries per ledger account (``player:7``, ``stack:t1:7``,
# ``house:rake``, ``house:bank``, ``carry:t1``).
ledger_tx = Table(
    "ledger_tx",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(24), nullable=False),
    Column("ref", String(64), nullable=False, default=""),
    Column("created_at", Float, nullable=False),
    Column("memo", Text, nullable=False, default=""),
)

ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tx_id", Integer, ForeignKey("ledger_tx.id"), nullable=False),
    Column("account", String(64), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Index("ix_ledger_entries_account", "account"),
    Index("ix_ledger_entries_tx", "tx_id"),
)

ledger_balances = Table(
    "ledger_balances",
    metadata,
    Column("account", String(64), primary_key=True),
    Column("amount", BigInteger, nullable=False),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("config", Text, nullable=False),  # JSON
    Column("hand_number", Integer, nullable=False, default=0),
    Column("state", Text),  # the room's CashTable.to_dict() as JSON (migration 2)
    # "file": from the room file; "console": opened by an operator (migration 5)
    Column("origin", String(8), nullable=False, server_default="file"),
    # open, paused (no new hand), closing (players stood up), closed (migration 6)
    Column("status", String(8), nullable=False, server_default="open"),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    UniqueConstraint("table_id", "account_id", name="uq_seats_table_account"),
)

hands = Table(
    "hands",
    metadata,
    Column("id", String(48), primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("status", String(12), nullable=False),  # running, finished, cancelled
    Column("started_at", Float, nullable=False),
    Column("ended_at", Float),
    Column("players", Text, nullable=False),  # JSON {seat: [account_id, start stack]}
    Column("commitment", String(64), nullable=False),
    Column("seed", String(64), nullable=False),  # secret until the hand is over
    Column("history", Text),  # JSON events (server view), written at the end
    Column("pot", BigInteger, nullable=False, default=0),
    Column("rake", BigInteger, nullable=False, default=0),
    Column("tournament", Text),  # JSON: the tournament, level and rules of its hands (migration 3)
    Index("ix_hands_table_status", "table_id", "status"),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(48), primary_key=True),  # the instance
    Column("spec", String(24), nullable=False),  # the configured tournament it is a run of
    Column("status", String(12), nullable=False),  # registering, running, finished, cancelled
    Column("state", Text, nullable=False),  # JSON: tournament_serial.to_dict() and the entrants
    Column("updated_at", Float, nullable=False),
    Index("ix_tournaments_status", "status"),
)

# Tournaments operators scheduled or changed, and those they cancelled (migration 7).
tournament_specs = Table(
    "tournament_specs",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("spec", Text, nullable=False),  # JSON: a room file's tournament
    Column("status", String(12), nullable=False),  # open, cancelled
    Column("updated_at", Float, nullable=False),
)

hand_players = Table(
    "hand_players",
    metadata,
    Column("hand_id", String(48), ForeignKey("hands.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("net", BigInteger, nullable=False, default=0),
    Index("ix_hand_players_account", "account_id"),
)


def _v1(conn: Connection) -> None:
    metadata.create_all(conn)


def _v2(conn: Connection) -> None:
    """The saved room table (a database made by version 1 lacks the column)."""
    columns = {c["name"] for c in inspect(conn).get_columns("tables")}
    if "state" not in columns:
        conn.execute(text("ALTER TABLE tables ADD COLUMN state TEXT"))


def _v3(conn: Connection) -> None:
    """Tournament hands and saved tournaments (for resuming after a restart)."""
    columns = {c["name"] for c in inspect(conn).get_columns("hands")}
    if "tournament" not in columns:
        conn.execute(text("ALTER TABLE hands ADD COLUMN tournament TEXT"))
    tournaments.create(conn, checkfirst=True)


owners = Table(
    "owners",
    metadata,
    Column("unit", String(80), primary_key=True),  # t:<table>, s:<tournament>
    Column("epoch", BigInteger, nullable=False),  # bumped by every takeover
    Column("owner", String(128), nullable=False),  # the process that took it last
    Column("updated_at", Float, nullable=False),
)


def _v4(conn: Connection) -> None:
    """Owners of units, for fencing (a takeover bumps the epoch; writes check it)."""
    owners.create(conn, checkfirst=True)


# What moderators, operators and administrators did: appended, never changed
# (the database refuses UPDATE and DELETE on it; ``staff``).
audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("actor_id", Integer),  # None: the command line on the server's machine
    Column("actor", String(80), nullable=False),  # the name, as it was then
    Column("action", String(32), nullable=False),
    Column("target", String(80), nullable=False, default=""),
    Column("reason", Text, nullable=False),
    Column("detail", Text, nullable=False, default="{}"),  # JSON
    Index("ix_audit_log_at", "at"),
)

# What players report to the staff: a chat line or a hand (migration 5).
reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("reporter_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("kind", String(8), nullable=False),  # chat, hand
    Column("table_id", String(48), nullable=False, default=""),
    Column("hand_id", String(48), nullable=False, default=""),
    Column("about", String(32), nullable=False, default=""),  # the player reported, if named
    Column("text", Text, nullable=False, default=""),  # the chat line, as the reporter saw it
    Column("note", Text, nullable=False, default=""),  # the reporter's words
    Column("closed_at", Float),
    Column("closed_by", String(80)),
    Index("ix_reports_open", "closed_at", "id"),
    Index("ix_reports_reporter", "reporter_id", "at"),
)

_APPEND_ONLY_SQLITE = (
    "CREATE TRIGGER IF NOT EXISTS audit_log_no_{verb} BEFORE {verb} ON audit_log "
    "BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END"
)
_APPEND_ONLY_POSTGRESQL = (
    "CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS "
    "$fn$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $fn$",
    "DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log",
    "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON audit_log "
    "FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()",
)


def _v5(conn: Connection) -> None:
    """Roles, chat mutes and suspensions of accounts, tables opened by operators,
    players' reports, and the audit log, which the database keeps append-only."""
    columns = {c["name"] for c in inspect(conn).get_columns("accounts")}
    if "role" not in columns:
        conn.execute(
            text("ALTER TABLE accounts ADD COLUMN role VARCHAR(16) NOT NULL DEFAULT 'player'")
        )
    for column in ("muted_until", "suspended_until"):
        if column not in columns:
            conn.execute(text(f"ALTER TABLE accounts ADD COLUMN {column} FLOAT"))
    if "origin" not in {c["name"] for c in inspect(conn).get_columns("tables")}:
        conn.execute(
            text("ALTER TABLE tables ADD COLUMN origin VARCHAR(8) NOT NULL DEFAULT 'file'")
        )
    audit_log.create(conn, checkfirst=True)
    reports.create(conn, checkfirst=True)
    account_addresses.create(conn, checkfirst=True)
    if conn.dialect.name == "postgresql":
        for statement in _APPEND_ONLY_POSTGRESQL:
            conn.execute(text(statement))
    else:
        for verb in ("UPDATE", "DELETE"):
            conn.execute(text(_APPEND_ONLY_SQLITE.format(verb=verb)))


def _v6(conn: Connection) -> None:
    """Tables paused and closed by operators."""
    if "status" not in {c["name"] for c in inspect(conn).get_columns("tables")}:
        conn.execute(
            text("ALTER TABLE tables ADD COLUMN status VARCHAR(8) NOT NULL DEFAULT 'open'")
        )


def _v7(conn: Connection) -> None:
    """Tournaments scheduled, changed and cancelled by operators."""
    tournament_specs.create(conn, checkfirst=True)


# Migrations in order; each runs once inside a transaction.
MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_v1, _v2, _v3, _v4, _v5, _v6, _v7)


def migrate(engine: Engine) -> int:
    """Bring the schema up to date; return the version."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":  # processes starting together migrate once
            conn.execute(text("SELECT pg_advisory_xact_lock(7345128)"))
        schema_version.create(conn, checkfirst=True)
        current = conn.execute(select(schema_version.c.version)).scalars().all()
        done = max(current, default=0)
        for number, step in enumerate(MIGRATIONS, start=1):
            if number > done:
                step(conn)
                conn.execute(schema_version.insert().values(version=number, applied_at=time.time()))
                done = number
    return done


class Statement:
    """One SQL statement with ``?`` for its parameters, run on the driver's cursor
    within the caller's transaction (psycopg spells the parameters ``%s``)."""

    __slots__ = ("format", "qmark")

    def __init__(self, sql: str) -> None:
        self.qmark = sql
        self.format = sql.replace("?", "%s")

    def _cursor(self, conn: Connection) -> tuple[Any, str]:
        sql = self.qmark if conn.dialect.paramstyle == "qmark" else self.format
        return conn.connection.cursor(), sql

    def run(self, conn: Connection, *params: Any) -> int:
        """Execute once; the number of rows it changed."""
        cursor, sql = self._cursor(conn)
        try:
            cursor.execute(sql, params)
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def one(self, conn: Connection, *params: Any) -> Any:
        """Execute once; the first column of its first row (``RETURNING``), or None."""
        cursor, sql = self._cursor(conn)
        try:
            cursor.execute(sql, params)
            row = cursor.fetchone()
            return None if row is None else row[0]
        finally:
            cursor.close()

    def many(self, conn: Connection, rows: list[tuple[Any, ...]]) -> None:
        """Execute for each row of parameters."""
        if not rows:
            return
        cursor, sql = self._cursor(conn)
        try:
            cursor.executemany(sql, rows)
        finally:
            cursor.close()


def database_url(url: str | None, data_dir: Path) -> str:
    """The SQLAlchemy URL: a SQLite file in ``data_dir`` unless a URL is given."""
    if not url:
        data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{data_dir / 'drawpoker.db'}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")  # safe against a process crash
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """The database plus the single writer thread."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.version = migrate(self.engine)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` in one transaction on the writer thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self.call, fn, *args)

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        """The same, synchronously (start-up, tests)."""
        started = time.perf_counter()
        outcome = "failed"
        try:
            with self.engine.begin() as conn:
                result = fn(conn, *args)
            outcome = "committed"
            return result
        finally:
            metrics.TRANSACTIONS.labels(outcome).observe(time.perf_counter() - started)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.engine.dispose()

    def fenced(self, unit: str, on_stale: Callable[[], None] | None = None) -> FencedStore:
        """This store as one unit's owner writes to it (see ``FencedStore``);
        ``on_stale`` is called when a write is refused."""
        return FencedStore(self, unit, on_stale)


class Records(Protocol):
    """What a unit needs of the store: transactions (a ``Store``, or fenced)."""

    async def run(self, fn: Callable[..., T], *args: Any) -> T: ...

    def call(self, fn: Callable[..., T], *args: Any) -> T: ...


class StaleOwner(RuntimeError):
    """A write of an owner whose unit was taken over since: refused, rolled back."""


class FencedStore:
    """A unit's writes, fenced: ``take_over`` bumps the unit's epoch in the database
    (the unit is this process's now); every transaction of ``run`` first checks
    that the epoch is still the one taken, holding the owner row until it commits,
    and is refused (``StaleOwner``, nothing written) if another process has taken
    the unit over since -- so an owner that was paused or cut off and comes back
    can never write over its successor."""

    def __init__(self, store: Store, unit: str, on_stale: Callable[[], None] | None = None) -> None:
        self.store = store
        self.unit = unit
        self.on_stale = on_stale
        self.epoch: int | None = None

    async def take_over(
        self, owner: str, then: Callable[[Connection], T] | None = None
    ) -> T | None:
        """Become the unit's owner; ``then``: more of the same transaction (its
        result is returned)."""

        def txn(conn: Connection) -> tuple[int, T | None]:
            epoch = _bump(conn, self.unit, owner)
            return epoch, None if then is None else then(conn)

        self.epoch, result = await self.store.run(txn)
        return result

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            result: T = await self.store.run(self._fenced, fn, *args)
        except StaleOwner:
            self._stale()
            raise
        return result

    def call(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            result: T = self.store.call(self._fenced, fn, *args)
        except StaleOwner:
            self._stale()
            raise
        return result

    def _stale(self) -> None:
        if self.on_stale is not None:
            self.on_stale()

    def _fenced(self, conn: Connection, fn: Callable[..., T], *args: Any) -> T:
        if self.epoch is None:
            raise StaleOwner(f"{self.unit}: not taken over by this process")
        if _FENCE.run(conn, time.time(), self.unit, self.epoch) != 1:
            raise StaleOwner(f"{self.unit}: epoch {self.epoch} is stale (taken over since)")
        return fn(conn, *args)


_FENCE = Statement("UPDATE owners SET updated_at = ? WHERE unit = ? AND epoch = ?")


def _bump(conn: Connection, unit: str, owner: str) -> int:
    row = conn.execute(
        select(owners.c.epoch).where(owners.c.unit == unit).with_for_update()
    ).first()
    epoch = 1 if row is None else int(row[0]) + 1
    values = {"epoch": epoch, "owner": owner, "updated_at": time.time()}
    if row is None:
        conn.execute(owners.insert().values(unit=unit, **values))
    else:
        conn.execute(owners.update().where(owners.c.unit == unit).values(**values))
    return epoch
