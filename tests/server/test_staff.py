"""Staff roles, the audit log and balance adjustments, on SQLite and PostgreSQL:
every change is audited in its own transaction, the audit log cannot be changed
or deleted, and adjustments keep the books balanced and never overdraw."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection, func, select, text
from sqlalchemy.exc import DBAPIError

from drawpoker.server import audit, auth, ledger, staff
from drawpoker.server.auth import AuthError, Forbidden
from drawpoker.server.store import MIGRATIONS, Store, audit_log, database_url, migrate

PASSWORD = "Tr0ub4dor&3-horse"
_HASH = auth.hash_password(PASSWORD)
_NAMES = itertools.count()


@pytest.fixture
def store(tmp_path: Path, database: str | None) -> Iterator[Store]:
    made = Store(database_url(database, tmp_path / "data"))
    yield made
    made.close()


def _player(store: Store, name: str) -> auth.Account:
    return store.call(auth.register, name, _HASH)


def _audit_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(audit_log)).scalar_one())


def test_roles_change_only_with_a_reason_and_every_change_is_audited(store: Store) -> None:
    alice, _bob = _player(store, "alice"), _player(store, "bob")
    guest = store.call(auth.create_guest)
    admin = store.call(lambda c: staff.set_role(c, "alice", "administrator", by=None, reason="x"))
    assert admin.role == "administrator"
    assert store.call(auth.account_by_id, alice.id).role == "administrator"
    for name, role, reason, said in (
        ("bob", "moderator", "  ", "a reason is required"),
        ("bob", "boss", "why not", "a role is one of"),
        (guest.name, "moderator", "helps", "only registered players hold roles"),
        ("nobody", "moderator", "helps", "no account 'nobody'"),
        ("alice", "player", "steps down", "at least one administrator"),
    ):
        before = store.call(_audit_count)
        with pytest.raises(AuthError, match=said):
            store.call(
                lambda c, n=name, r=role, why=reason: staff.set_role(c, n, r, by=admin, reason=why)
            )
        assert store.call(_audit_count) == before  # nothing half-done
    assert store.call(auth.account_by_name, "bob").role == "player"
    moderator = store.call(
        lambda c: staff.set_role(c, "bob", "moderator", by=admin, reason="evening chat")
    )
    assert staff.may(moderator, "moderator")
    assert not staff.may(moderator, "operator")
    with pytest.raises(Forbidden):
        staff.require_role(moderator, "operator")
    assert not staff.may(guest, "player")  # guests are not even players to staff routes
    entries = store.call(staff.audit_entries)
    assert [(e["action"], e["target"], e["actor"]) for e in entries[:2]] == [
        ("set-role", "bob", "alice"),
        ("set-role", "alice", audit.command_line()),
    ]
    assert entries[0]["detail"] == {"from": "player", "to": "moderator"}
    assert entries[0]["reason"] == "evening chat"
    # The command line may demote the last administrator (the room's owner can).
    store.call(lambda c: staff.set_role(c, "alice", "operator", by=None, reason="handover"))


def test_the_audit_log_refuses_updates_and_deletes(store: Store) -> None:
    _player(store, "carol")
    store.call(lambda c: staff.set_role(c, "carol", "operator", by=None, reason="hired"))
    statements = ["UPDATE audit_log SET reason = 'nothing happened'", "DELETE FROM audit_log"]
    if store.engine.dialect.name == "postgresql":
        statements.append("TRUNCATE audit_log")
    for statement in statements:
        with pytest.raises(DBAPIError, match="append-only"):
            store.call(lambda c, s=statement: c.execute(text(s)))
    [entry] = store.call(staff.audit_entries)
    assert entry["reason"] == "hired"


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(amounts=st.lists(st.integers(-15_000, 15_000).filter(bool), min_size=1, max_size=8))
def test_adjustments_keep_the_books_and_never_overdraw(store: Store, amounts: list[int]) -> None:
    operator = store.call(auth.ensure_bot, "bot-ops")  # any account id will do as the actor
    name = f"player{next(_NAMES)}"  # the store is shared by the examples
    player = _player(store, name)
    balance = auth.STARTING_CHIPS
    for amount in amounts:
        audited = store.call(_audit_count)
        if balance + amount < 0:
            with pytest.raises(AuthError, match="cannot be taken"):
                store.call(lambda c, a=amount: staff.adjust(c, name, a, by=operator, reason="r"))
            assert store.call(_audit_count) == audited
        else:
            tx = store.call(lambda c, a=amount: staff.adjust(c, name, a, by=operator, reason="r"))
            balance += amount
            entry = store.call(staff.audit_entries, 1)[0]
            assert entry["detail"] == {"amount": amount, "tx": tx}
            assert entry["target"] == name
        assert store.call(ledger.balance, ledger.player(player.id)) == balance
    store.call(ledger.check_books)
    for bad in (0, 1.5, True, staff.MAX_ADJUSTMENT + 1):
        with pytest.raises(AuthError):
            store.call(lambda c, a=bad: staff.adjust(c, name, a, by=operator, reason="r"))
    with pytest.raises(AuthError, match="reason"):
        store.call(lambda c: staff.adjust(c, name, 5, by=operator, reason=""))


def test_the_admin_command(tmp_path: Path, database: str | None) -> None:
    def admin(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        where = ["--database", database] if database else ["--data-dir", str(tmp_path / "data")]
        return subprocess.run(
            [sys.executable, "-m", "drawpoker.cli", "admin", *where, *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )

    made = admin("create-user", "Opsy", "--role", "operator", "--password-stdin", stdin=PASSWORD)
    assert made.returncode == 0, made.stderr
    assert "as operator" in made.stdout
    weak = admin("create-user", "Weak", "--password-stdin", stdin="password1")
    assert weak.returncode == 2
    assert "too easy to guess" in weak.stderr
    again = admin("create-user", "opsy", "--password-stdin", stdin=PASSWORD)
    assert again.returncode == 2
    assert "taken" in again.stderr
    no_reason = admin("set-role", "Opsy", "administrator", "--reason", " ")
    assert no_reason.returncode == 2
    assert "reason" in no_reason.stderr
    promoted = admin("set-role", "Opsy", "administrator", "--reason", "runs the room")
    assert promoted.returncode == 0
    assert "now administrator" in promoted.stdout
    log = admin("audit").stdout.splitlines()
    assert len(log) == 2
    assert "set-role Opsy" in log[0]
    assert "runs the room" in log[0]
    assert "create-user Opsy" in log[1]


def test_a_database_from_before_roles_gains_them(store: Store) -> None:
    """Migration 5 on a database made before it: accounts become players, the
    audit log appears, append-only."""
    old = _player(store, "dave")
    with store.engine.begin() as conn:
        conn.execute(text("DROP TABLE audit_log"))
        conn.execute(text("ALTER TABLE accounts DROP COLUMN role"))
        conn.execute(text("DELETE FROM schema_version WHERE version >= 5"))  # 5 and after
    assert migrate(store.engine) == len(MIGRATIONS)
    assert store.call(auth.account_by_id, old.id).role == "player"
    store.call(lambda c: staff.set_role(c, "dave", "moderator", by=None, reason="promoted"))
    with pytest.raises(DBAPIError, match="append-only"):
        store.call(lambda c: c.execute(text("DELETE FROM audit_log")))


def test_a_mute_ends_when_it_says(store: Store) -> None:
    erin = _player(store, "erin")
    until = store.call(lambda c: staff.mute(c, "erin", 10, by=None, reason="spam"))
    assert until is not None
    assert store.call(staff.muted_until, erin.id) == until
    assert store.call(staff.muted_until, erin.id, until - 1) == until
    assert store.call(staff.muted_until, erin.id, until + 1) is None  # over by then
    for bad in (-1, staff.MAX_MUTE_MINUTES + 1, 1.5, True, "5"):
        with pytest.raises(AuthError, match="a mute lasts"):
            store.call(lambda c, m=bad: staff.mute(c, "erin", m, by=None, reason="x"))
    assert store.call(lambda c: staff.mute(c, "erin", 0, by=None, reason="over")) is None
    assert store.call(staff.muted_until, erin.id) is None
    assert [e["action"] for e in store.call(staff.audit_entries)][:2] == ["unmute", "mute"]


def test_a_suspension_ends_sessions_and_keeps_to_the_roles(store: Store) -> None:
    frank = _player(store, "frank")
    token = store.call(auth.new_session, frank.id)
    operator = store.call(lambda c: staff.set_role(c, "frank", "operator", by=None, reason="x"))
    _player(store, "gina")
    gina_token = store.call(auth.new_session, store.call(auth.account_by_name, "gina").id)
    with pytest.raises(Forbidden, match="only a higher role"):
        store.call(lambda c: staff.suspend(c, "frank", 3, by=operator, reason="self"))
    account, until, tables = store.call(
        lambda c: staff.suspend(c, "gina", 3, by=operator, reason="abuse")
    )
    assert until is not None
    assert until == pytest.approx(time.time() + 3 * 86400, abs=60)
    assert tables == []
    assert store.call(auth.account_for_token, gina_token) is None  # the session is over
    with pytest.raises(Forbidden, match="suspended until"):
        store.call(auth.new_session, account.id)
    assert store.call(auth.account_for_token, token) is not None  # frank's is untouched
    for bad in (-1, staff.MAX_SUSPENSION_DAYS + 1, 2.5, True):
        with pytest.raises(AuthError, match="a suspension lasts"):
            store.call(lambda c, d=bad: staff.suspend(c, "gina", d, by=operator, reason="x"))
    _, forever, _ = store.call(lambda c: staff.suspend(c, "gina", None, by=None, reason="ring"))
    assert forever == auth.FOREVER
    assert auth.until_text(forever) == "for good"
    store.call(lambda c: staff.suspend(c, "gina", 0, by=operator, reason="appeal"))
    assert store.call(auth.new_session, account.id)
    actions = [e["action"] for e in store.call(staff.audit_entries)][:3]
    assert actions == ["reinstate", "ban", "suspend"]


def test_reports_of_hands_are_for_those_dealt_in_and_a_day_has_a_limit(store: Store) -> None:
    from drawpoker.server import reports
    from drawpoker.server.auth import RateLimited
    from drawpoker.server.store import hand_players, hands

    hal, ida = _player(store, "hal"), _player(store, "ida")
    moderator = store.call(lambda c: staff.set_role(c, "ida", "moderator", by=None, reason="x"))

    def deal(conn: Connection) -> None:
        conn.execute(
            hands.insert().values(
                id="h1", table_id="t9", status="finished", started_at=time.time(),
                players="{}", commitment="", seed="",
            )
        )  # fmt: skip
        conn.execute(hand_players.insert().values(hand_id="h1", account_id=hal.id, net=0))

    store.call(deal)
    first = store.call(lambda c: reports.file(c, hal, "hand", hand="h1", note="collusion?"))
    with pytest.raises(staff.NotFound):
        store.call(lambda c: reports.file(c, ida, "hand", hand="h1"))
    with pytest.raises(staff.NotFound):
        store.call(lambda c: reports.file(c, hal, "hand", hand="nope"))
    [queued] = store.call(reports.queue)
    assert (queued["id"], queued["table"], queued["reporter"]) == (first, "t9", "hal")
    for _ in range(reports.MAX_PER_DAY - 1):
        store.call(lambda c: reports.file(c, hal, "chat", table="t9", about="x", text="y"))
    with pytest.raises(RateLimited):
        store.call(lambda c: reports.file(c, hal, "chat", table="t9", about="x", text="y"))
    store.call(lambda c: reports.close(c, first, by=moderator, reason="looked: no pattern"))
    with pytest.raises(staff.NotFound):
        store.call(lambda c: reports.close(c, first, by=moderator, reason="again"))
    assert first not in [r["id"] for r in store.call(reports.queue)]
    assert first in [r["id"] for r in store.call(reports.queue, False)]
    entry = store.call(staff.audit_entries, 1)[0]
    assert (entry["action"], entry["target"]) == ("close-report", f"report #{first}")


def test_signals_rank_a_chip_dumping_pair_first(store: Store) -> None:
    """A dumps chips to B: A folds to every bet of B's and loses to B; B and A
    log in from one address. C plays honestly against both."""
    from drawpoker.server import signals
    from drawpoker.server.store import hand_players, hands

    a, b, c = _player(store, "dumper"), _player(store, "taker"), _player(store, "honest")
    bot = store.call(auth.ensure_bot, "bot-house")
    store.call(auth.new_session, a.id, "198.51.100.7")
    store.call(auth.new_session, b.id, "198.51.100.7")
    store.call(auth.new_session, c.id, "203.0.113.9")

    def bet(seat: int) -> list[Any]:
        return [None, {"type": "BetPlaced", "seat": seat, "amount": 20, "all_in": False}]

    def act(kind: str, seat: int) -> list[Any]:
        return [None, {"type": kind, "seat": seat}]

    def record(conn: Connection) -> None:
        now = time.time()
        for i in range(12):
            dump = i % 3 != 0  # two hands in three: A folds to B
            history = (
                [bet(2), act("Folded", 1), act("Folded", 3), act("Folded", 4)]
                if dump
                else [bet(3), act("Called", 1), act("Called", 2), act("Folded", 4),
                      [None, {"type": "BettingRoundEnded"}], bet(1), act("Folded", 3)]
            )  # fmt: skip
            nets = {a.id: -100, b.id: 100, c.id: 0} if dump else {a.id: 40, b.id: -20, c.id: -20}
            players = {"1": [a.id, 500], "2": [b.id, 500], "3": [c.id, 500], "4": [bot.id, 500]}
            conn.execute(
                hands.insert().values(
                    id=f"hs{i}", table_id="t", status="finished", started_at=now - 60,
                    ended_at=now - 60 + i, players=json.dumps(players), commitment="", seed="",
                    history=json.dumps(history),
                )
            )  # fmt: skip
            conn.execute(
                hand_players.insert(),
                [{"hand_id": f"hs{i}", "account_id": k, "net": v} for k, v in nets.items()],
            )

    store.call(record)
    ranked = store.call(signals.pairs)
    assert [(p["a"], p["b"]) for p in ranked] == [
        ("dumper", "taker"), ("dumper", "honest"), ("taker", "honest")
    ]  # fmt: skip
    top = ranked[0]
    assert top["hands"] == 12
    assert top["shared_addresses"] == 1
    assert (top["a_faced_b"], top["a_folded_to_b"]) == (8, 8)  # every bet of B's, folded
    assert top["net_a_to_b"] == 8 * 100 - 4 * 20  # 800 dumped, 80 won back
    assert len(top["sample"]) == signals.SAMPLE
    assert all(p["shared_addresses"] == 0 for p in ranked[1:])
    assert not any("bot-house" in (p["a"], p["b"]) for p in ranked)
    assert store.call(signals.pairs, 0.00001) == []  # nothing that recent


def test_an_operator_sees_every_card_of_a_finished_hand_only(store: Store) -> None:
    from drawpoker.deck import commitment, new_seed
    from drawpoker.server.store import hands

    jo = _player(store, "jo")
    seed = new_seed()
    history = [[1, {"type": "CardsReceived", "seat": 1, "cards": ["Ah", "Kh", "Qh", "Jh", "Th"]}]]

    def deal(conn: Connection, hand_id: str, status: str, root: str) -> None:
        conn.execute(
            hands.insert().values(
                id=hand_id, table_id="t", status=status, started_at=time.time(),
                players=json.dumps({"1": [jo.id, 300]}), commitment=root, seed=seed.hex(),
                history=json.dumps(history),
            )
        )  # fmt: skip

    store.call(deal, "done", "finished", commitment(seed))
    store.call(deal, "forged", "finished", "0" * 64)
    store.call(deal, "live", "running", commitment(seed))
    shown = store.call(staff.any_hand, "done")
    assert shown["players"] == {"1": {"name": "jo", "stack": 300}}
    assert shown["events"][0]["cards"] == ["Ah", "Kh", "Qh", "Jh", "Th"]  # a private card
    assert shown["seed_matches_commitment"] is True
    assert store.call(staff.any_hand, "forged")["seed_matches_commitment"] is False
    with pytest.raises(staff.Conflict, match="still in play"):
        store.call(staff.any_hand, "live")
    with pytest.raises(staff.NotFound):
        store.call(staff.any_hand, "nope")


def test_players_are_found_by_the_start_of_their_name(store: Store) -> None:
    for name in ("alice", "Alicia", "al_x", "alxander", "bob"):
        _player(store, name)
    store.call(auth.ensure_bot, "alibot")

    def names(text: str) -> list[str]:
        return [found["name"] for found in store.call(staff.find_players, text)]

    assert names("ALI") == ["alice", "Alicia"]  # any case; bots left out
    assert names("alicia") == ["Alicia"]
    assert names("al_") == ["al_x"]  # "_" is a letter here, not a wildcard
    assert names("al") == ["al_x", "alice", "Alicia", "alxander"]
    assert names("%") == names("") == []
    assert names("bob")[0] == "bob"


def test_a_player_card_lists_the_sessions_in_force(store: Store) -> None:
    alice = _player(store, "alice")
    for _ in range(2):
        store.call(auth.new_session, alice.id)
    card = store.call(staff.player_card, "alice")
    assert len(card["sessions"]) == 2
    assert all(s["expires_at"] > time.time() for s in card["sessions"])
