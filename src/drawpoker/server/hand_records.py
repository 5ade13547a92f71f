"""A hand's rows: written as it is dealt (``running``, its seed still secret),
completed when it ends (its history, pot and rake, and each player's net), and
a saved table's state -- the statements every hand runs, cash or tournament,
inside the transaction of the money move they belong to."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from drawpoker.server.store import Statement

_DEALT = Statement(
    "INSERT INTO hands (id, table_id, status, started_at, players, commitment, seed, pot, "
    "rake, tournament) VALUES (?, ?, 'running', ?, ?, ?, ?, 0, 0, ?)"
)
_FINISHED = Statement(
    "UPDATE hands SET status = 'finished', ended_at = ?, history = ?, pot = ?, rake = ? "
    "WHERE id = ?"
)
_NET = Statement("INSERT INTO hand_players (hand_id, account_id, net) VALUES (?, ?, ?)")
_TABLE_STATE = Statement("UPDATE tables SET state = ? WHERE id = ?")


def dealt(conn: Connection, row: dict[str, Any]) -> None:
    """The row of a hand just dealt (``TableActor.hand_row``)."""
    _DEALT.run(
        conn,
        row["id"],
        row["table_id"],
        row["started_at"],
        row["players"],
        row["commitment"],
        row["seed"],
        row.get("tournament"),
    )


def finished(
    conn: Connection,
    hand_id: str,
    *,
    ended_at: float,
    history: str,
    pot: int,
    rake: int,
    nets: dict[int, int],
) -> None:
    """The hand is over: its history, pot and rake, and each account's net."""
    _FINISHED.run(conn, ended_at, history, pot, rake, hand_id)
    _NET.many(conn, [(hand_id, account_id, net) for account_id, net in nets.items()])


def save_table(conn: Connection, table_id: str, state: str) -> None:
    """A cash table's room state (``CashTable.to_dict`` as JSON)."""
    _TABLE_STATE.run(conn, state, table_id)
