"""Ledger, accounts and storage against a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import Connection, func, select

from drawpoker.server import auth, ledger
from drawpoker.server.recovery import cancel_unfinished
from drawpoker.server.store import Store, hands, ledger_balances, ledger_entries, ledger_tx


@pytest.fixture
def store(store_url: str) -> Store:
    s = Store(store_url)
    yield s  # type: ignore[misc]
    s.close()


def test_migrations_are_idempotent(store: Store) -> None:
    from drawpoker.server.store import MIGRATIONS, migrate

    assert store.version == len(MIGRATIONS) >= 4
    assert migrate(store.engine) == len(MIGRATIONS)


def test_every_transaction_sums_to_zero(store: Store) -> None:
    a = store.call(auth.create_guest)
    b = store.call(auth.create_guest)
    assert store.call(ledger.balance, ledger.player(a.id)) == auth.STARTING_CHIPS
    store.call(ledger.transfer, "buy-in", ledger.player(a.id), ledger.stack("t", a.id), 300)
    with pytest.raises(ledger.LedgerError, match="sum to 5"):
        store.call(ledger.post, "bad", [(ledger.player(a.id), -5), (ledger.player(b.id), 10)])
    with pytest.raises(ledger.LedgerError, match="not an integer"):
        store.call(ledger.post, "bad", [(ledger.player(a.id), 0.5), (ledger.player(b.id), -0.5)])
    with pytest.raises(ledger.InsufficientFunds, match="your balance is 9700 chips"):
        store.call(ledger.transfer, "buy-in", ledger.player(a.id), ledger.stack("t", a.id), 10**6)
    with pytest.raises(ledger.LedgerError, match="positive"):
        store.call(ledger.transfer, "x", ledger.player(a.id), ledger.player(b.id), -3)
    assert store.call(ledger.balance, ledger.player(a.id)) == auth.STARTING_CHIPS - 300
    store.call(ledger.check_books)

    def total(c: Connection) -> int:
        return int(c.execute(select(func.sum(ledger_balances.c.amount))).scalar_one())

    assert store.call(total) == 0
    kinds = [row["kind"] for row in store.call(ledger.history, ledger.player(a.id))]
    assert kinds == ["buy-in", "welcome"]


def test_names_and_passwords_are_validated(store: Store) -> None:
    for bad in ("ab", "1abc", "a b c", "x" * 21, "guest-1", "bot7", 5):
        with pytest.raises(auth.AuthError):
            auth.validate_name(bad)
    assert auth.validate_name("Alice_1") == "Alice_1"
    with pytest.raises(auth.AuthError, match="8 to 128"):
        auth.validate_password("short", "alice")
    with pytest.raises(auth.AuthError, match="not be the name"):
        auth.validate_password("Alicealice", "alicealice")
    account = store.call(auth.register, "Alice", auth.hash_password("correct horse"))
    with pytest.raises(auth.AuthError, match="taken"):
        store.call(auth.register, "alice", auth.hash_password("whatever12"))
    found = store.call(auth.password_hash_of, "ALICE")
    assert found is not None
    assert found[0] == account
    assert auth.verify_password(found[1], "correct horse")
    assert not auth.verify_password(found[1], "wrong horse")
    assert found[1].startswith("$argon2")
    token = store.call(auth.new_session, account.id)
    assert store.call(auth.account_for_token, token) == account
    assert store.call(auth.account_for_token, token + "x") is None
    store.call(auth.end_session, token)
    assert store.call(auth.account_for_token, token) is None


def test_daily_topup_once_a_day(store: Store) -> None:
    a = store.call(auth.create_guest)
    assert store.call(auth.daily_topup, a.id, "2030-01-01") == auth.DAILY_TOPUP
    with pytest.raises(auth.AuthError, match="already"):
        store.call(auth.daily_topup, a.id, "2030-01-01")
    assert store.call(auth.daily_topup, a.id, "2030-01-02") == auth.DAILY_TOPUP
    assert (
        store.call(ledger.balance, ledger.player(a.id))
        == auth.STARTING_CHIPS + 2 * auth.DAILY_TOPUP
    )


def test_login_limiter() -> None:
    limiter = auth.LoginLimiter(limit=3, window=60)
    for _ in range(3):
        limiter.check("name:x")
        limiter.failed("name:x")
    with pytest.raises(auth.RateLimited, match="too many failed"):
        limiter.check("name:x")
    limiter.check("name:y")


def test_cancel_unfinished_records_and_restores(store: Store) -> None:
    a = store.call(auth.create_guest)

    def start(c: Connection) -> None:
        c.execute(
            hands.insert().values(
                id="t-1", table_id="t", status="running", started_at=0.0,
                players=json.dumps({"1": [a.id, 300]}), commitment="c", seed="s",
            )
        )  # fmt: skip

    store.call(start)
    cancelled = store.call(cancel_unfinished)
    assert cancelled == [{"hand_id": "t-1", "stacks": {"1": 300}}]

    def check(c: Connection) -> tuple[str, str]:
        status = c.execute(select(hands.c.status).where(hands.c.id == "t-1")).scalar_one()
        kind = c.execute(select(ledger_tx.c.kind).where(ledger_tx.c.ref == "t-1")).scalar_one()
        return status, kind

    assert store.call(check) == ("cancelled", "hand-cancelled")
    assert store.call(cancel_unfinished) == []


def test_a_stale_owner_cannot_write(store: Store) -> None:
    """Fencing: once another process takes a unit over, the old owner's writes are
    refused and leave nothing behind."""
    import asyncio

    from drawpoker.server.store import StaleOwner

    player = store.call(auth.create_guest)
    old, new = store.fenced("t:cash-1"), store.fenced("t:cash-1")
    pay = (ledger.transfer, "buy-in", ledger.player(player.id), ledger.stack("cash-1", player.id))

    async def scenario() -> None:
        with pytest.raises(StaleOwner, match="not taken over"):
            await old.run(*pay, 10)
        await old.take_over("process-a")
        assert old.epoch == 1
        await old.run(*pay, 10)
        assert await new.take_over("process-b", lambda conn: "then") == "then"
        assert new.epoch == 2
        with pytest.raises(StaleOwner, match="epoch 1 is stale"):
            await old.run(*pay, 20)
        with pytest.raises(StaleOwner):
            old.call(*pay, 20)
        await new.run(*pay, 30)

    asyncio.run(scenario())
    assert store.call(ledger.balance, ledger.stack("cash-1", player.id)) == 40
    assert store.call(ledger.balance, ledger.player(player.id)) == auth.STARTING_CHIPS - 40


def test_concurrent_debits_never_overdraw(store: Store) -> None:
    """Many writers debiting one guarded account at once: exactly as many succeed as
    the balance covers, and the books still sum to zero."""
    from concurrent.futures import ThreadPoolExecutor

    player = store.call(auth.create_guest)
    source = ledger.player(player.id)
    each = auth.STARTING_CHIPS // 7 + 1  # 6 of 12 attempts fit, 7 would not

    def debit(n: int) -> bool:
        try:
            store.call(ledger.transfer, "buy-in", source, ledger.stack(f"t{n}", player.id), each)
        except ledger.InsufficientFunds:
            return False
        return True

    with ThreadPoolExecutor(max_workers=6) as pool:
        done = list(pool.map(debit, range(12)))
    assert sum(done) == auth.STARTING_CHIPS // each
    assert store.call(ledger.balance, source) == auth.STARTING_CHIPS - sum(done) * each
    with store.engine.connect() as conn:
        assert conn.execute(select(func.sum(ledger_balances.c.amount))).scalar() == 0


def test_the_books_check_finds_each_kind_of_damage(store: Store) -> None:
    """A balance that is not its entries, an entry without a balance, a
    transaction that does not sum to zero: each is named."""
    a = store.call(auth.create_guest)
    store.call(ledger.transfer, "buy-in", ledger.player(a.id), ledger.stack("t", a.id), 300)
    store.call(ledger.check_books)
    stack = ledger.stack("t", a.id)

    def damage(statement: Any) -> None:
        store.call(lambda c: c.execute(statement))

    damage(ledger_balances.update().where(ledger_balances.c.account == stack).values(amount=299))
    with pytest.raises(ledger.LedgerError, match=f"{stack}: balance 299 but entries sum to 300"):
        store.call(ledger.check_books)
    damage(ledger_balances.update().where(ledger_balances.c.account == stack).values(amount=300))
    damage(ledger_balances.delete().where(ledger_balances.c.account == stack))
    with pytest.raises(ledger.LedgerError, match="entries sum to 300 but it has no balance"):
        store.call(ledger.check_books)
    damage(ledger_balances.insert().values(account=stack, amount=300))
    store.call(ledger.check_books)
    tx = store.call(lambda c: c.execute(select(func.max(ledger_tx.c.id))).scalar_one())
    entry = (ledger_entries.c.tx_id == tx) & (ledger_entries.c.account == stack)
    damage(ledger_entries.update().where(entry).values(amount=301))
    with pytest.raises(ledger.LedgerError, match=f"transaction {tx} does not sum to zero"):
        store.call(ledger.check_books)
