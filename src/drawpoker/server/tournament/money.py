"""A tournament's money in the ledger, and its saved state.

Registering moves ``buy_in + fee`` from ``player:<id>`` to ``pool:<run>`` (the
buy-in) and ``house:fees`` (the fee) in one transaction; unregistering before
the start reverses it; a prize moves from the pool to the player's balance in
the transaction that records the hand they busted in, the winner's at the end,
so the pool ends at exactly 0. A run that cannot go on is refunded: every
registration and fee booked to it, exactly as it was paid.

Tournament chips are not ledger chips: they live in the ``Tournament``, saved
(``tournaments`` table) in the transaction of each registration, of each order
to deal and of each finished hand.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping

from sqlalchemy import Connection, select

from drawpoker.server import ledger
from drawpoker.server.auth import Account
from drawpoker.server.store import ledger_balances, ledger_entries, ledger_tx, tournaments
from drawpoker.server.tournament.spec import spec_of_run

FEES = "house:fees"
REGISTER = "sng-register"
UNREGISTER = "sng-unregister"
PRIZES = "sng-prizes"
REFUND = "sng-refund"


def pool(instance: str) -> str:
    """The prize pool account of one tournament run."""
    return f"pool:{instance}"


def register(conn: Connection, instance: str, account: Account, buy_in: int, fee: int) -> None:
    ledger.post(
        conn,
        REGISTER,
        [(ledger.player(account.id), -(buy_in + fee)), (pool(instance), buy_in), (FEES, fee)],
        ref=instance,
        memo={"buy_in": buy_in, "fee": fee},
        no_overdraft=(ledger.player(account.id),),
    )


def unregister(conn: Connection, instance: str, account: Account, buy_in: int, fee: int) -> None:
    ledger.post(
        conn,
        UNREGISTER,
        [(pool(instance), -buy_in), (FEES, -fee), (ledger.player(account.id), buy_in + fee)],
        ref=instance,
        no_overdraft=(pool(instance),),
    )


def credit(
    conn: Connection,
    instance: str,
    prizes: Mapping[int, int],
    places: Mapping[int, list[int]] | None = None,
) -> None:
    """Prizes (account id -> chips) from the pool, in the caller's transaction."""
    if not any(prizes.values()):
        return
    entries = [(pool(instance), -sum(prizes.values()))]
    entries += [(ledger.player(a), prize) for a, prize in prizes.items() if prize]
    memo = {"places": {str(a): p for a, p in (places or {}).items()}}
    ledger.post(conn, PRIZES, entries, ref=instance, memo=memo, no_overdraft=(pool(instance),))


def credited(conn: Connection, instance: str) -> dict[int, int]:
    """What the ledger credited to players as prizes of one run, by account id."""
    rows = conn.execute(
        select(ledger_entries.c.account, ledger_entries.c.amount)
        .join(ledger_tx, ledger_tx.c.id == ledger_entries.c.tx_id)
        .where(ledger_tx.c.ref == instance, ledger_tx.c.kind == PRIZES)
    ).all()
    out: dict[int, int] = {}
    for account, amount in rows:
        if str(account).startswith("player:"):
            key = int(str(account).split(":", 1)[1])
            out[key] = out.get(key, 0) + int(amount)
    return out


def pay_rest(conn: Connection, instance: str, won: Mapping[int, int]) -> None:
    """Credit what the ledger has not credited yet of each prize (``won``: account
    id -> every prize won); the pool must end at 0."""
    owed = dict(won)
    for account, amount in credited(conn, instance).items():
        owed[account] = owed.get(account, 0) - amount
    if any(amount < 0 for amount in owed.values()):
        raise ledger.LedgerError(f"{instance}: more credited than won: {owed}")
    credit(conn, instance, {a: amount for a, amount in owed.items() if amount})
    held = ledger.balance(conn, pool(instance))
    if held:
        raise ledger.LedgerError(f"{pool(instance)} holds {held} after the prizes")


def refund(conn: Connection, instance: str, reason: str) -> None:
    """Cancel one run: reverse, in one transaction, the net of its registrations
    and unregistrations (each player's buy-in and fee back; its pool to 0)."""
    moves = conn.execute(
        select(ledger_entries.c.account, ledger_entries.c.amount)
        .join(ledger_tx, ledger_tx.c.id == ledger_entries.c.tx_id)
        .where(ledger_tx.c.ref == instance, ledger_tx.c.kind.in_((REGISTER, UNREGISTER)))
    ).all()
    net: dict[str, int] = {}
    for account, amount in moves:
        net[account] = net.get(account, 0) + int(amount)
    entries = [(account, -amount) for account, amount in net.items() if amount]
    if entries:
        ledger.post(conn, REFUND, entries, ref=instance, memo={"rule": reason})


def refund_abandoned(conn: Connection, resumed: set[str], spec_id: str | None = None) -> list[str]:
    """Cancel the runs a previous owner left with chips in their pool that did not
    resume (``resumed``), of one tournament (``spec_id``) or all: reverse every
    registration (buy-in and fee) booked to them."""
    prefix = "pool:" if spec_id is None else f"pool:{spec_id}-"
    rows = conn.execute(
        select(ledger_balances.c.account).where(
            ledger_balances.c.account.startswith(prefix, autoescape=True),
            ledger_balances.c.amount != 0,
        )
    ).all()
    cancelled = []
    for (account,) in rows:
        instance = account.split(":", 1)[1]
        if instance in resumed or (spec_id is not None and spec_of_run(instance) != spec_id):
            continue
        refund(conn, instance, "server restarted")
        conn.execute(
            tournaments.update()
            .where(tournaments.c.id == instance)
            .values(status="cancelled", updated_at=time.time())
        )
        cancelled.append(instance)
    return cancelled


def save(conn: Connection, instance: str, spec_id: str, state: str, status: str) -> None:
    """Save a run in the caller's transaction (the money move or hand it goes with)."""
    values = {"status": status, "state": state, "updated_at": time.time()}
    done = conn.execute(tournaments.update().where(tournaments.c.id == instance).values(**values))
    if done.rowcount == 0:
        conn.execute(tournaments.insert().values(id=instance, spec=spec_id, **values))


def is_saved(conn: Connection, instance: str) -> bool:
    """Whether a run was ever saved (someone registered for it)."""
    return (
        conn.execute(select(tournaments.c.id).where(tournaments.c.id == instance)).first()
        is not None
    )


def saved_runs(conn: Connection, spec_id: str) -> list[tuple[str, str]]:
    """The runs of ``spec_id`` a previous server left unfinished: (id, state JSON)."""
    rows = conn.execute(
        select(tournaments.c.id, tournaments.c.state)
        .where(
            tournaments.c.spec == spec_id,
            tournaments.c.status.in_(("registering", "running", "finished")),
        )
        .order_by(tournaments.c.updated_at)
    ).all()
    return [(str(i), str(s)) for i, s in rows]


def state_json(
    tournament: dict[str, object], accounts: Mapping[str, Account], paid: Mapping[int, int]
) -> str:
    """A run as saved: the tournament, its entrants' accounts, the prizes credited."""
    return json.dumps(
        {
            "tournament": tournament,
            "accounts": {key: [a.id, a.name, a.kind] for key, a in accounts.items()},
            "paid": {str(e): prize for e, prize in paid.items()},
        }
    )
