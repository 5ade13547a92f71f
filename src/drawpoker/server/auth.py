"""Accounts: registration, log-in (argon2), guests, session tokens, the daily top-up.

Session tokens come from ``secrets`` and are stored only as their SHA-256, so
a copy of the database does not let anyone log in. The web client gets the
token in an HttpOnly, SameSite=Lax cookie; other clients (bots, the load
benchmark) pass it as ``Authorization: Bearer`` or ``?token=``.

A password must be 8 to 128 characters, not the name, and not easy to guess:
zxcvbn (the estimator Dropbox published) must rate it at least 2 of 4, which
refuses the common passwords, keyboard walks, repeats and dictionary words
with digits that online guessing tries first. Checking a password for a name
that does not exist costs the same argon2 verification as for one that does,
so the answer's time does not tell which names exist.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from zxcvbn import zxcvbn

from drawpoker.errors import DrawPokerError
from drawpoker.server import ledger
from drawpoker.server.limits import AttemptLimiter, wait_text
from drawpoker.server.store import account_addresses, accounts, sessions

STARTING_CHIPS = 10_000
DAILY_TOPUP = 2_000
SESSION_DAYS = 30
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
MIN_STRENGTH = 2  # zxcvbn's score, 0-4: 2 is "somewhat guessable" (10^6 to 10^8 guesses)
STRENGTH_PREFIX = 64  # characters zxcvbn looks at (its time grows fast with the length)
_WORDS = ("drawpoker", "poker", "draw", "cards", "chips")  # guessed first on this site
_hasher = PasswordHasher()


class AuthError(DrawPokerError, ValueError):
    """Bad credentials, a taken name, an invalid name or password."""

    status = 400


class RateLimited(AuthError):
    status = 429

    def __init__(self, message: str, retry_after: float = 60.0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Forbidden(AuthError):
    status = 403


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    kind: str
    role: str = "player"  # or moderator, operator, administrator (``staff``)


_ACCOUNT = (accounts.c.id, accounts.c.name, accounts.c.kind, accounts.c.role)


def _account(row: Any) -> Account:
    return Account(int(row[0]), row[1], row[2], row[3])


def validate_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise AuthError(
            "a name is 3 to 20 characters: letters, digits, '_' or '-', starting with a letter"
        )
    if name.lower().startswith(("guest", "bot")):
        raise AuthError("names starting with 'guest' or 'bot' are reserved")
    return name


def validate_password(password: object, name: str) -> str:
    """The password, or an ``AuthError`` saying what is wrong with it and what to
    do instead. Takes up to a few tens of milliseconds (zxcvbn): call it off the
    event loop."""
    if not isinstance(password, str) or not 8 <= len(password) <= 128:
        raise AuthError("a password is 8 to 128 characters")
    if password.lower() == name.lower():
        raise AuthError("the password must not be the name")
    if not password.strip():
        raise AuthError("the password must not be blank")
    weakness = password_weakness(password, name)
    if weakness:
        raise AuthError(weakness)
    return password


def password_weakness(password: str, name: str) -> str | None:
    """Why the password is too easy to guess (None: it is not)."""
    result = zxcvbn(password[:STRENGTH_PREFIX], user_inputs=[name, *_WORDS])
    if result["score"] >= MIN_STRENGTH:
        return None
    feedback = result["feedback"]
    why = str(feedback.get("warning") or "")
    if not why and any(word in password.lower() for word in (name.lower(), *_WORDS)):
        why = "It contains your name or the site's name."
    hints = " ".join(str(s) for s in feedback.get("suggestions") or ())
    detail = " ".join(part for part in (why, hints) if part)
    return "this password is too easy to guess" + (f": {detail}" if detail else ".")


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
        select(*_ACCOUNT, accounts.c.password_hash).where(accounts.c.name_key == name.lower())
    ).first()
    if row is None or row[4] is None:
        return None
    return _account(row), row[4]


def verify_password(stored_hash: str | None, password: str) -> bool:
    """Whether the password matches. Without a hash (no such name, a guest, a bot)
    the answer is False after the same work as a real check, so that the time of
    the answer does not tell whether a name exists."""
    dummy = _dummy_hash()  # made by the first check, whichever it is
    try:
        if stored_hash is None:
            _hasher.verify(dummy, password)
            return False
        return _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


_DUMMY: list[str] = []


def _dummy_hash() -> str:
    """An argon2 hash with the hasher's parameters, of a password nobody knows."""
    if not _DUMMY:
        _DUMMY.append(_hasher.hash(secrets.token_urlsafe(32)))
    return _DUMMY[0]


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


FOREVER = 253_402_300_799.0  # 9999-12-31: a suspension without an end (a ban)


def until_text(until: float) -> str:
    if until >= FOREVER:
        return "for good"
    return "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


def in_force_until(
    conn: Connection, column: Any, account_id: int, now: float | None = None
) -> float | None:
    """The end kept in an account's ``column`` (a mute, a suspension), if it is
    still ahead."""
    until = conn.execute(select(column).where(accounts.c.id == account_id)).scalar_one_or_none()
    now = time.time() if now is None else now
    return until if until is not None and until > now else None


def suspended_until(conn: Connection, account_id: int, now: float | None = None) -> float | None:
    """When the account's suspension ends, if it is suspended now."""
    return in_force_until(conn, accounts.c.suspended_until, account_id, now)


def new_session(conn: Connection, account_id: int, address: str = "") -> str:
    """A session token for the account (``Forbidden`` while it is suspended);
    ``address``: the client's (``limits.address_key``), kept for the staff's
    signals of accounts that share one."""
    until = suspended_until(conn, account_id)
    if until is not None:
        raise Forbidden(f"this account is suspended {until_text(until)}")
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
    if address:
        _seen_at(conn, account_id, address[:64], now)
    return token


def _seen_at(conn: Connection, account_id: int, address: str, now: float) -> None:
    """Note that the account logged in from ``address`` (two writers at once both count)."""
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    conn.execute(
        insert(account_addresses)
        .values(account_id=account_id, address=address, last_at=now)
        .on_conflict_do_update(
            index_elements=[account_addresses.c.account_id, account_addresses.c.address],
            set_={"last_at": now},
        )
    )


def end_session(conn: Connection, token: str) -> None:
    conn.execute(sessions.delete().where(sessions.c.token_hash == _token_hash(token)))


def account_for_token(conn: Connection, token: str) -> Account | None:
    if not token or len(token) > 100:
        return None
    row = conn.execute(
        select(*_ACCOUNT, sessions.c.expires_at, accounts.c.suspended_until)
        .join(sessions, sessions.c.account_id == accounts.c.id)
        .where(sessions.c.token_hash == _token_hash(token))
    ).first()
    now = time.time()
    if row is None or row[4] < now or (row[5] is not None and row[5] > now):
        return None
    return _account(row)


def account_by_id(conn: Connection, account_id: int) -> Account | None:
    row = conn.execute(select(*_ACCOUNT).where(accounts.c.id == account_id)).first()
    return None if row is None else _account(row)


def account_by_name(conn: Connection, name: str) -> Account | None:
    row = conn.execute(select(*_ACCOUNT).where(accounts.c.name_key == name.lower())).first()
    return None if row is None else _account(row)


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


class LoginLimiter(AttemptLimiter):
    """At most ``limit`` log-in attempts per key in ``window`` s, then locks that
    double each time (``AttemptLimiter``); the server keys it by (name, address)
    and by address, so that nobody can lock anybody else out."""

    def __init__(self, limit: int = 5, window: float = 60.0, **options: Any) -> None:
        super().__init__(limit, window, **options)

    def check(self, *keys: str) -> None:
        """Raise ``RateLimited`` if any key may not try now."""
        wait = max((self.blocked(key) for key in keys), default=0.0)
        if wait:
            raise RateLimited(f"too many failed log-ins; try again {wait_text(wait)}", wait)
