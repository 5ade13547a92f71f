"""The chip ledger: double-entry transactions that sum to zero.

Ledger accounts are strings: ``player:<id>`` (a player's balance),
``stack:<table>:<id>`` (chips in front of a player at a table),
``carry:<table>`` (an Italian pot left on the table), ``house:rake`` and
``house:bank`` (where free play chips come from; it goes negative). Every
function takes an open connection and is called inside the caller's database
transaction, so a ledger move commits together with the record it belongs to
(a buy-in with its seat, a finished hand with its history).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, func, select

from drawpoker.errors import DrawPokerError
from drawpoker.server.store import Statement, ledger_balances, ledger_entries, ledger_tx

BANK = "house:bank"
RAKE = "house:rake"


class LedgerError(DrawPokerError, ValueError):
    """A transaction that does not balance, or would overdraw an account."""


class InsufficientFunds(LedgerError):
    pass


def player(account_id: int) -> str:
    return f"player:{account_id}"


def stack(table_id: str, account_id: int) -> str:
    return f"stack:{table_id}:{account_id}"


def carry(table_id: str) -> str:
    return f"carry:{table_id}"


def balance(conn: Connection, account: str) -> int:
    value = conn.execute(
        select(ledger_balances.c.amount).where(ledger_balances.c.account == account)
    ).scalar()
    return int(value or 0)


def balances(conn: Connection, prefix: str) -> dict[str, int]:
    rows = conn.execute(
        select(ledger_balances.c.account, ledger_balances.c.amount).where(
            ledger_balances.c.account.like(prefix + "%")
        )
    )
    return {account: int(amount) for account, amount in rows}


def post(
    conn: Connection,
    kind: str,
    entries: Iterable[tuple[str, int]],
    *,
    ref: str = "",
    memo: Mapping[str, Any] | None = None,
    no_overdraft: Iterable[str] = (),
) -> int:
    """Write one transaction; return its id. Entries must sum to zero; the
    accounts in ``no_overdraft`` must not go below zero."""
    merged: dict[str, int] = {}
    for account, amount in entries:
        if type(amount) is not int:
            raise LedgerError(f"{kind}: amount for {account} is not an integer: {amount!r}")
        merged[account] = merged.get(account, 0) + amount
    if sum(merged.values()) != 0:
        raise LedgerError(f"{kind}: entries sum to {sum(merged.values())}, not 0: {merged}")
    guarded = {a for a in no_overdraft if merged.get(a, 0) < 0}
    for account in sorted(guarded):  # first, and atomically: two writers cannot overdraw
        delta = merged[account]
        if _WITHDRAW.run(conn, delta, account, delta) != 1:
            have = balance(conn, account)
            raise InsufficientFunds(
                f"{account} holds {have} chips, {-delta} are needed"
                if not account.startswith("player:")
                else f"your balance is {have} chips, {-delta} are needed"
            )
    memo_text = json.dumps(dict(memo), sort_keys=True) if memo else "{}"
    tid = int(_TX.one(conn, kind, ref, time.time(), memo_text))
    _ENTRY.many(conn, [(tid, a, d) for a, d in merged.items() if d])
    # in the order of the accounts, so that two writers never wait for each other
    _ADD.many(conn, [(a, d) for a, d in sorted(merged.items()) if d and a not in guarded])
    return tid


_WITHDRAW = Statement(
    "UPDATE ledger_balances SET amount = amount + ? WHERE account = ? AND amount + ? >= 0"
)
_TX = Statement(
    "INSERT INTO ledger_tx (kind, ref, created_at, memo) VALUES (?, ?, ?, ?) RETURNING id"
)
_ENTRY = Statement("INSERT INTO ledger_entries (tx_id, account, amount) VALUES (?, ?, ?)")
# onto an account's balance, creating its row if it has none (two writers creating it
# at once both count)
_ADD = Statement(
    "INSERT INTO ledger_balances (account, amount) VALUES (?, ?) ON CONFLICT (account) "
    "DO UPDATE SET amount = ledger_balances.amount + excluded.amount"
)


def transfer(
    conn: Connection, kind: str, source: str, target: str, amount: int, *, ref: str = ""
) -> int:
    """Move ``amount`` chips from ``source`` (which must hold them) to ``target``."""
    if type(amount) is not int or amount <= 0:
        raise LedgerError(f"{kind}: the amount must be a positive whole number, not {amount!r}")
    guard = () if source == BANK else (source,)
    return post(conn, kind, [(source, -amount), (target, amount)], ref=ref, no_overdraft=guard)


def refill_bot(conn: Connection, account_id: int, at_least: int) -> None:
    """Give a bot's balance play chips from the bank up to ``at_least``."""
    have = balance(conn, player(account_id))
    if have < at_least:
        transfer(conn, "bot-refill", BANK, player(account_id), at_least - have)


def history(conn: Connection, account: str, limit: int = 100) -> list[dict[str, Any]]:
    """The latest transactions touching ``account``, newest first."""
    rows = conn.execute(
        select(
            ledger_tx.c.id,
            ledger_tx.c.kind,
            ledger_tx.c.ref,
            ledger_tx.c.created_at,
            ledger_entries.c.amount,
        )
        .join(ledger_entries, ledger_entries.c.tx_id == ledger_tx.c.id)
        .where(ledger_entries.c.account == account)
        .order_by(ledger_tx.c.id.desc())
        .limit(limit)
    )
    return [
        {"id": i, "kind": k, "ref": r, "at": at, "amount": int(amount)}
        for i, k, r, at, amount in rows
    ]


def check_books(conn: Connection) -> None:
    """Raise unless every transaction sums to zero and the balances match the entries.
    Each question is one statement, so it sees one snapshot of the books even while
    hands are being recorded (a transaction is never half-seen)."""
    bad = conn.execute(
        select(ledger_entries.c.tx_id)
        .group_by(ledger_entries.c.tx_id)
        .having(func.sum(ledger_entries.c.amount) != 0)
    ).first()
    if bad is not None:
        raise LedgerError(f"transaction {bad[0]} does not sum to zero")
    sums = (
        select(ledger_entries.c.account, func.sum(ledger_entries.c.amount).label("total"))
        .group_by(ledger_entries.c.account)
        .subquery()
    )
    total = func.coalesce(sums.c.total, 0)
    wrong = conn.execute(
        select(ledger_balances.c.account, ledger_balances.c.amount, total)
        .select_from(ledger_balances.outerjoin(sums, sums.c.account == ledger_balances.c.account))
        .where(ledger_balances.c.amount != total)
        .limit(1)
    ).first()
    if wrong is not None:
        account, amount, entries = wrong
        raise LedgerError(f"{account}: balance {amount} but entries sum to {entries}")
    orphan = conn.execute(
        select(sums.c.account, sums.c.total)
        .where(sums.c.total != 0, sums.c.account.not_in(select(ledger_balances.c.account)))
        .limit(1)
    ).first()
    if orphan is not None:
        raise LedgerError(f"{orphan[0]}: entries sum to {orphan[1]} but it has no balance")
