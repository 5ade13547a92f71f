"""The room's staff: roles, the audit log, and what staff may do to accounts.

Roles, lowest first: player, moderator, operator, administrator; each may do
what the roles below it may. Only registered players hold staff roles (never
guests or bots). Every change a member of staff makes is written to the audit
log (``audit``) in the same transaction as the change itself.

A balance is corrected only with a reason, as a ledger transaction between the
player and the house account ``house:adjustments``: the books stay balanced and
the player's history shows it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, func, select

from drawpoker.deck import commitment
from drawpoker.server import auth, ledger
from drawpoker.server.audit import reason_of, record
from drawpoker.server.auth import Account, AuthError, Forbidden
from drawpoker.server.store import (
    account_addresses,
    accounts,
    audit_log,
    hand_players,
    hands,
    ledger_tx,
    seats,
    sessions,
    tables,
    tournaments,
)
from drawpoker.server.tableconfig import TableConfig

ROLES = ("player", "moderator", "operator", "administrator")
ADJUSTMENTS = "house:adjustments"  # where corrected chips come from and go to
MAX_ADJUSTMENT = 1_000_000_000
MAX_MUTE_MINUTES = 60 * 24 * 365
MAX_SUSPENSION_DAYS = 3650


class NotFound(AuthError):
    status = 404


class Conflict(AuthError):
    status = 409


def rank(role: str) -> int:
    """The role's place in ``ROLES`` (-1 if it is none of them)."""
    return ROLES.index(role) if role in ROLES else -1


def may(account: Account | None, role: str) -> bool:
    """Whether ``account`` holds ``role`` or one above it."""
    return account is not None and account.kind == "player" and rank(account.role) >= rank(role)


def require_role(account: Account, role: str) -> None:
    if not may(account, role):
        raise Forbidden(f"this needs the {role} role")


def audit_entries(
    conn: Connection, limit: int = 100, before: int | None = None
) -> list[dict[str, Any]]:
    """The latest entries, newest first (``before``: entries older than that id)."""
    query = select(audit_log).order_by(audit_log.c.id.desc()).limit(max(1, min(limit, 500)))
    if before is not None:
        query = query.where(audit_log.c.id < before)
    return [
        {
            "id": row.id,
            "at": row.at,
            "actor": row.actor,
            "actor_id": row.actor_id,
            "action": row.action,
            "target": row.target,
            "reason": row.reason,
            "detail": json.loads(row.detail),
        }
        for row in conn.execute(query)
    ]


def _named(conn: Connection, name: str) -> Account:
    account = auth.account_by_name(conn, name)
    if account is None:
        raise NotFound(f"there is no account {name!r}")
    return account


def set_role(conn: Connection, name: str, role: str, *, by: Account | None, reason: str) -> Account:
    """Give ``name`` the role ``role`` (audited). The room keeps at least one
    administrator: the last one can be demoted only from the command line."""
    if role not in ROLES:
        raise AuthError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
    reason = reason_of(reason)
    account = _named(conn, name)
    if role != "player" and account.kind != "player":
        raise AuthError(f"{account.name} is a {account.kind}: only registered players hold roles")
    if account.role == "administrator" and role != "administrator" and by is not None:
        admins = conn.execute(
            select(func.count()).select_from(accounts).where(accounts.c.role == "administrator")
        ).scalar_one()
        if admins <= 1:
            raise AuthError("the room keeps at least one administrator")
    conn.execute(accounts.update().where(accounts.c.id == account.id).values(role=role))
    record(conn, by, "set-role", account.name, reason, {"from": account.role, "to": role})
    return Account(account.id, account.name, account.kind, role)


def create_staff(
    conn: Connection, name: str, password_hash: str, role: str, *, reason: str
) -> Account:
    """A new registered account holding ``role``, from the command line (audited)."""
    if role not in ROLES:
        raise AuthError(f"a role is one of {', '.join(ROLES)}, not {role!r}")
    account = auth.register(conn, auth.validate_name(name), password_hash)
    record(conn, None, "create-user", account.name, reason, {"role": role})
    if role != "player":
        conn.execute(accounts.update().where(accounts.c.id == account.id).values(role=role))
    return Account(account.id, account.name, account.kind, role)


def adjust(conn: Connection, name: str, amount: int, *, by: Account | None, reason: str) -> int:
    """Add ``amount`` chips to a player's balance (take them, if negative) from
    the house's adjustments account, with a reason (audited). A balance never
    goes below zero. Returns the ledger transaction's id."""
    if type(amount) is not int or amount == 0 or abs(amount) > MAX_ADJUSTMENT:
        raise AuthError(
            f"an adjustment is a whole number of chips, not 0, at most {MAX_ADJUSTMENT:,}"
        )
    reason = reason_of(reason)
    account = _named(conn, name)
    if account.kind == "bot":
        raise AuthError("a bot's balance is the house's own; it is not adjusted")
    player = ledger.player(account.id)
    try:
        tx = ledger.post(
            conn,
            "adjustment",
            [(ADJUSTMENTS, -amount), (player, amount)],
            ref=f"audit:{by.name if by else 'command line'}",
            memo={"reason": reason},
            no_overdraft=(player,),
        )
    except ledger.InsufficientFunds:
        have = ledger.balance(conn, player)
        raise AuthError(f"{account.name} holds {have} chips; {-amount} cannot be taken") from None
    record(conn, by, "adjust-balance", account.name, reason, {"amount": amount, "tx": tx})
    return tx


def mute(
    conn: Connection, name: str, minutes: int, *, by: Account | None, reason: str
) -> float | None:
    """Refuse ``name``'s chat for ``minutes`` from now (0: lift a mute), audited.
    Returns the end of the mute (None: lifted)."""
    if type(minutes) is not int or not 0 <= minutes <= MAX_MUTE_MINUTES:
        raise AuthError(f"a mute lasts 0 (lifted) to {MAX_MUTE_MINUTES} minutes")
    reason = reason_of(reason)
    account = _named(conn, name)
    until = time.time() + minutes * 60 if minutes else None
    conn.execute(accounts.update().where(accounts.c.id == account.id).values(muted_until=until))
    action = "mute" if minutes else "unmute"
    record(conn, by, action, account.name, reason, {"minutes": minutes, "until": until})
    return until


def muted_until(conn: Connection, account_id: int, now: float | None = None) -> float | None:
    """When the account's chat mute ends, if it is muted now."""
    return auth.in_force_until(conn, accounts.c.muted_until, account_id, now)


def order_seat(
    conn: Connection, name: str, table: str, action: str, *, by: Account | None, reason: str
) -> Account:
    """Audit a moderator's order to sit ``name`` out at ``table`` or stand them up
    (the table carries it out); the account, for the table's message."""
    reason = reason_of(reason)
    account = _named(conn, name)
    if by is not None and rank(account.role) >= rank(by.role):
        raise Forbidden(f"{account.name} is {account.role}: only a higher role may do that")
    record(conn, by, "kick" if action == "kick" else "sit-out", account.name, reason,
           {"table": table})  # fmt: skip
    return account


def suspend(
    conn: Connection, name: str, days: int | None, *, by: Account | None, reason: str
) -> tuple[Account, float | None, list[str]]:
    """Suspend ``name`` for ``days`` (None: for good, a ban; 0: lift it), audited.
    Its sessions end at once and it cannot log in meanwhile. Returns the
    account, the end (None: lifted) and the cash tables where it has a seat,
    which the caller stands it up from."""
    if days is not None and (type(days) is not int or not 0 <= days <= MAX_SUSPENSION_DAYS):
        raise AuthError(f"a suspension lasts 0 (lifted) to {MAX_SUSPENSION_DAYS} days, or null")
    reason = reason_of(reason)
    account = _named(conn, name)
    if account.kind == "bot":
        raise AuthError("the room's bots are not suspended")
    if by is not None and rank(account.role) >= rank(by.role):
        raise Forbidden(f"{account.name} is {account.role}: only a higher role may suspend them")
    until = None if days == 0 else auth.FOREVER if days is None else time.time() + days * 86400
    conn.execute(accounts.update().where(accounts.c.id == account.id).values(suspended_until=until))
    if until is not None:
        conn.execute(sessions.delete().where(sessions.c.account_id == account.id))
    seated = [
        str(table)
        for (table,) in conn.execute(
            select(seats.c.table_id).where(seats.c.account_id == account.id)
        )
    ]
    action = "reinstate" if until is None else "ban" if days is None else "suspend"
    detail = {"days": days, "until": until, "tables": seated}
    record(conn, by, action, account.name, reason, detail)
    return account, until, seated


def suspended(conn: Connection, account_ids: list[int]) -> list[int]:
    """Those of ``account_ids`` suspended now."""
    if not account_ids:
        return []
    rows = conn.execute(
        select(accounts.c.id).where(
            accounts.c.id.in_(account_ids), accounts.c.suspended_until > time.time()
        )
    )
    return [int(account_id) for (account_id,) in rows]


def open_table(conn: Connection, config: TableConfig, *, by: Account | None, reason: str) -> None:
    """Store a cash table an operator opens (``origin`` console), audited. Its
    config must have been checked (``TableConfig.build_rules``) and its id be
    new to the room file, which the caller knows."""
    reason = reason_of(reason)
    if conn.execute(select(tables.c.id).where(tables.c.id == config.id)).first():
        raise Conflict(f"there is already a table {config.id!r}")
    conn.execute(
        tables.insert().values(
            id=config.id, config=config.to_json(), hand_number=0, origin="console"
        )
    )
    record(conn, by, "open-table", config.id, reason, json.loads(config.to_json()))


def console_tables(
    conn: Connection, known: Collection[str] = ()
) -> tuple[list[TableConfig], set[str]]:
    """The cash tables operators opened or changed and did not close, by id, but
    those ``known`` already; and the ids of those they closed, which the room
    does not open again. (The console's config of a room file's table wins over
    the file's from the first change on.)"""
    rows = conn.execute(
        select(tables.c.id, tables.c.config, tables.c.origin, tables.c.status).order_by(tables.c.id)
    ).all()
    configs = [
        TableConfig.from_dict(json.loads(row.config))
        for row in rows
        if row.origin == "console" and row.status != "closed" and row.id not in known
    ]
    return configs, {str(row.id) for row in rows if row.status == "closed"}


def stored_table(conn: Connection, table_id: str) -> tuple[TableConfig | None, str]:
    """A cash table's config as the console left it (None: the room file's holds)
    and its status (``open`` for a table the database does not know yet)."""
    row = conn.execute(
        select(tables.c.config, tables.c.origin, tables.c.status).where(tables.c.id == table_id)
    ).first()
    if row is None:
        return None, "open"
    config = TableConfig.from_dict(json.loads(row.config)) if row.origin == "console" else None
    return config, str(row.status)


def table_list(conn: Connection) -> list[dict[str, Any]]:
    """Every cash table the room has played or opened, for the console's editor:
    its config (a room file's fields), where it comes from and its status."""
    rows = conn.execute(
        select(tables.c.id, tables.c.config, tables.c.origin, tables.c.status).order_by(tables.c.id)
    )
    found = [(row, json.loads(row.config)) for row in rows]
    return [
        {"id": row.id, "origin": row.origin, "status": row.status, "config": config}
        for row, config in found
        if config.get("kind", "cash") == "cash"
    ]


def any_hand(conn: Connection, hand_id: str) -> dict[str, Any]:
    """A finished or cancelled hand with every card, for operators: who sat
    where, every event as the server recorded it, and whether its seed matches
    the commitment published before the deal. A hand in play is refused: its
    cards are nobody's business until it is over."""
    row = conn.execute(select(hands).where(hands.c.id == hand_id)).first()
    if row is None:
        raise NotFound(f"there is no hand {hand_id!r}")
    if row.status == "running":
        raise Conflict("the hand is still in play")
    seated: dict[str, list[int]] = json.loads(row.players)
    wanted = [int(who[0]) for who in seated.values()]
    names = {
        int(i): str(n)
        for i, n in conn.execute(
            select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(wanted))
        )
    }
    return {
        "id": row.id,
        "table": row.table_id,
        "status": row.status,
        "started_at": row.started_at,
        "ended_at": row.ended_at,
        "players": {
            seat: {"name": names.get(int(who[0]), str(who[0])), "stack": who[1]}
            for seat, who in sorted(seated.items(), key=lambda item: int(item[0]))
        },
        "pot": row.pot,
        "rake": row.rake,
        "events": [event for _visible, event in json.loads(row.history or "[]")],
        "commitment": row.commitment,
        "seed": row.seed,
        "seed_matches_commitment": bool(row.commitment)
        and commitment(bytes.fromhex(row.seed)) == row.commitment,
    }


def find_players(conn: Connection, text: str, limit: int = 20) -> list[dict[str, Any]]:
    """Accounts whose name starts with ``text`` (any case), those named exactly
    first, then by name; bots left out."""
    text = text.strip().lower()[:32]
    if not text:
        return []
    name = func.lower(accounts.c.name)
    rows = conn.execute(
        select(accounts.c.name, accounts.c.kind, accounts.c.role)
        .where(name.startswith(text, autoescape=True), accounts.c.kind != "bot")
        .order_by((name != text), name)
        .limit(max(1, min(limit, 50)))
    )
    return [{"name": row.name, "kind": row.kind, "role": row.role} for row in rows]


def player_card(conn: Connection, name: str) -> dict[str, Any]:
    """What staff see of an account: who, role, balance, ledger, hands played."""
    account = _named(conn, name)
    row = conn.execute(
        select(accounts.c.created_at).where(accounts.c.id == account.id)
    ).scalar_one()
    played = conn.execute(
        select(func.count())
        .select_from(hand_players)
        .where(hand_players.c.account_id == account.id)
    ).scalar_one()
    return {
        "id": account.id,
        "name": account.name,
        "kind": account.kind,
        "role": account.role,
        "created_at": row,
        "balance": ledger.balance(conn, ledger.player(account.id)),
        "muted_until": muted_until(conn, account.id),
        "suspended_until": auth.suspended_until(conn, account.id),
        "transactions": ledger.history(conn, ledger.player(account.id), 50),
        "hands": int(played),
        "sessions": [
            {"created_at": created, "expires_at": expires}
            for created, expires in conn.execute(
                select(sessions.c.created_at, sessions.c.expires_at)
                .where(sessions.c.account_id == account.id, sessions.c.expires_at > time.time())
                .order_by(sessions.c.created_at.desc())
                .limit(20)
            )
        ],
        "addresses": [
            {"address": address, "last_at": last}
            for address, last in conn.execute(
                select(account_addresses.c.address, account_addresses.c.last_at)
                .where(account_addresses.c.account_id == account.id)
                .order_by(account_addresses.c.last_at.desc())
                .limit(20)
            )
        ],
    }


def overview(conn: Connection, now: float | None = None) -> dict[str, Any]:
    """The room's figures from its record: hands in the last minute and hour,
    rake and hands since midnight UTC, tournaments running, players at tables."""
    now = time.time() if now is None else now
    midnight = now - now % 86400

    def ended_since(since: float) -> int:
        return int(
            conn.execute(
                select(func.count())
                .select_from(hands)
                .where(hands.c.status == "finished", hands.c.ended_at >= since)
            ).scalar_one()
        )

    rake = conn.execute(
        select(func.coalesce(func.sum(hands.c.rake), 0)).where(
            hands.c.status == "finished", hands.c.ended_at >= midnight
        )
    ).scalar_one()
    running = conn.execute(
        select(func.count()).select_from(tournaments).where(tournaments.c.status == "running")
    ).scalar_one()
    stacks = ledger.balances(conn, "stack:")  # stack:<table>:<account>, cash tables
    seated = sum(1 for amount in stacks.values() if amount > 0)
    adjustments = conn.execute(
        select(func.count()).select_from(ledger_tx).where(ledger_tx.c.kind == "adjustment")
    ).scalar_one()
    return {
        "hands_last_minute": ended_since(now - 60),
        "hands_last_hour": ended_since(now - 3600),
        "hands_today": ended_since(midnight),
        "rake_today": int(rake),
        "tournaments_running": int(running),
        "players_seated": seated,
        "adjustments": int(adjustments),
    }
