"""After a crash, or a takeover: cancel the hands left running."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, select

from drawpoker.server import ledger
from drawpoker.server.store import hands


def cancel_unfinished(
    conn: Connection, tables: Callable[[str], bool] | None = None, reason: str = "server restart"
) -> list[dict[str, Any]]:
    """Cancel the hands left running by a crashed owner: every one at start-up
    of the embedded room, or those of the ``tables`` a process takes over. No
    chip moved in the ledger during the hand, so each seat's stack is already
    what it was before the hand (every wagered chip back to its seat); record that."""
    cancelled = []
    for hand_id, table_id, players_json in conn.execute(
        select(hands.c.id, hands.c.table_id, hands.c.players).where(hands.c.status == "running")
    ).all():
        if tables is not None and not tables(table_id):
            continue
        players = json.loads(players_json)
        returned = {seat: stack for seat, (_, stack) in players.items()}
        conn.execute(
            hands.update()
            .where(hands.c.id == hand_id)
            .values(status="cancelled", ended_at=time.time())
        )
        ledger.post(
            conn,
            "hand-cancelled",
            [],
            ref=hand_id,
            memo={"reason": reason, "stacks_restored": returned},
        )
        cancelled.append({"hand_id": hand_id, "stacks": returned})
    return cancelled
