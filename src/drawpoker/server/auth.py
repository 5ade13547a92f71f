"""Accounts: registration, log-in (argon2), guests, session tokens, the daily top-up.

Session tokens come from ``secrets`` and are stored only as their SHA-256, so
a copy of the database does not let anyone log in. The web client gets the
token in an HttpOnly, SameSite=Lax cookie; other clients (bots, the load
benchmark) may pass it as ``?token=`` on the websocket URL.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
import time
from collections import deque
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, select

from drawpoker.errors import DrawPokerError
from drawpoker.server import ledger
from drawpoker.server.store import accounts, sessions

STARTING_CHIPS = 10_000
DAILY_TOPUP = 2_000
SESSION_DAYS = 30
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
_hasher = PasswordHasher()


class AuthError(DrawPokerError, ValueError):
    """Bad credentials, a taken name, an invalid name or password."""

    status = 400


class RateLimited(AuthError):
    status = 429


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    kind: str


def validate_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise AuthError(
            "a name is 3 to 20 characters: letters, digits, '_' or '-', starting with a letter"
        )
    if name.lower().startswith(("guest", "bot")):
        raise AuthError("names starting with 'guest' or 'bot' are reserved")
    return name


def validate_password(password: object, name: str) -> str:
    if not isinstance(password, str) or not 8 <= len(password) <= 128:
        raise AuthError("a password is 8 to 128 characters")
    if password.lower() == name.lower():
        raise AuthError("the password must not be the name")
    if not password.strip():
        raise AuthError("the password must not be blank")
    return password


def _create(conn: Connection, name: str, kind: str, password_hash: str | None) -> Account:
    key = name.lower()
    if conn.execute(select(accounts.c.id).where(accounts.c.name_key == key)).first():
        raise AuthError(f"the name {name!r} is taken")
    result = conn.execute(
        accounts.insert().values(
            name=name, name_key=key, kind=kind, password_hash=password_hash, created_at=time.time()
        )
    )
    assert result.inserted_primary_key is not None
    account = Account(int(result.inserted_primary_key[0]), name, kind)
    ledger.transfer(conn, "welcome", ledger.BANK, ledger.player(account.id), STARTING_CHIPS)
    return account


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def register(conn: Connection, name: str, password_hash: str) -> Account:
    """Create a player account (validate and hash first, outside the transaction)."""
    return _create(conn, name, "player", password_hash)


def create_guest(conn: Connection) -> Account:
    while True:
        name = f"guest-{secrets.token_hex(3)}"
        if not conn.execute(select(accounts.c.id).where(accounts.c.name_key == name)).first():
            return _create(conn, name, "guest", None)


def ensure_bot(conn: Connection, name: str) -> Account:
    row = conn.execute(
        select(accounts.c.id, accounts.c.name, accounts.c.kind).where(
            accounts.c.name_key == name.lower()
        )
    ).first()
    if row:
        return Account(int(row[0]), row[1], row[2])
    return _create(conn, name, "bot", None)


def password_hash_of(conn: Connection, name: str) -> tuple[Account, str] | None:
    row = conn.execute(
        select(accounts.c.id, accounts.c.name, accounts.c.kind, accounts.c.password_hash).where(
            accounts.c.name_key == name.lower()
        )
    ).first()
    if row is None or row[3] is None:
        return None
    return Account(int(row[0]), row[1], row[2]), row[3]


def verify_password(stored_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_session(conn: Connection, account_id: int) -> str:
    token = secrets.token_urlsafe(32)
    now = time.time()
    conn.execute(
        sessions.insert().values(
            token_hash=_token_hash(token),
            account_id=account_id,
            created_at=now,
            expires_at=now + SESSION_DAYS * 86400,
        )
    )
    return token


def end_session(conn: Connection, token: str) -> None:
    conn.execute(sessions.delete().where(sessions.c.token_hash == _token_hash(token)))


def account_for_token(conn: Connection, token: str) -> Account | None:
    if not token or len(token) > 100:
        return None
    row = conn.execute(
        select(accounts.c.id, accounts.c.name, accounts.c.kind, sessions.c.expires_at)
        .join(sessions, sessions.c.account_id == accounts.c.id)
        .where(sessions.c.token_hash == _token_hash(token))
    ).first()
    if row is None or row[3] < time.time():
        return None
    return Account(int(row[0]), row[1], row[2])


def account_by_id(conn: Connection, account_id: int) -> Account | None:
    row = conn.execute(
        select(accounts.c.id, accounts.c.name, accounts.c.kind).where(accounts.c.id == account_id)
    ).first()
    return None if row is None else Account(int(row[0]), row[1], row[2])


def daily_topup(conn: Connection, account_id: int, today: str | None = None) -> int:
    """Grant the free daily chips once per UTC day; return the chips granted."""
    today = today or dt.datetime.now(dt.UTC).date().isoformat()
    last = conn.execute(
        select(accounts.c.last_daily).where(accounts.c.id == account_id)
    ).scalar_one()
    if last == today:
        raise AuthError("the free top-up was already taken today (UTC); come back tomorrow")
    conn.execute(accounts.update().where(accounts.c.id == account_id).values(last_daily=today))
    ledger.transfer(conn, "daily-topup", ledger.BANK, ledger.player(account_id), DAILY_TOPUP)
    return DAILY_TOPUP


class LoginLimiter:
    """At most ``limit`` failed log-ins per name and per client address in ``window`` s."""

    def __init__(self, limit: int = 5, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def check(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            q = self._failures.get(key)
            while q and q[0] < now - self.window:
                q.popleft()
            if q and len(q) >= self.limit:
                wait = int(q[0] + self.window - now) + 1
                raise RateLimited(f"too many failed log-ins; try again in {wait} s")

    def failed(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            self._failures.setdefault(key, deque()).append(now)
