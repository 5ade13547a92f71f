"""Start-up after a crash: cancel the hands left running."""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import Connection, select

from drawpoker.server import ledger
from drawpoker.server.store import hands


def cancel_unfinished(conn: Connection) -> list[dict[str, Any]]:
    """Start-up: cancel every hand left running by a crash. No chip moved in the
    ledger during the hand, so each seat's stack is already what it was before
    the hand (every wagered chip back to its seat); record that."""
    cancelled = []
    for hand_id, players_json in conn.execute(
        select(hands.c.id, hands.c.players).where(hands.c.status == "running")
    ).all():
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
            memo={"reason": "server restart", "stacks_restored": returned},
        )
        cancelled.append({"hand_id": hand_id, "stacks": returned})
    return cancelled
