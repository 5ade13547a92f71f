"""Tournaments as the console leaves them: scheduled, changed or cancelled by
operators, kept in the database (``tournament_specs``) beside the room file.
From an operator's first change on, the database's spec of a tournament wins
over the room file's; a cancelled one is not run again."""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, select

from drawpoker.server.audit import reason_of, record
from drawpoker.server.auth import Account
from drawpoker.server.store import tournament_specs
from drawpoker.server.tournament.spec import TournamentSpec


def save_spec(
    conn: Connection,
    spec: TournamentSpec,
    status: str,
    *,
    by: Account | None,
    reason: str,
    action: str,
    detail: dict[str, Any] | None = None,
) -> None:
    """Store a tournament as the console leaves it (``status`` open or cancelled),
    audited as ``action``. From then on the database's spec wins over a room file's."""
    reason = reason_of(reason)
    values = {"spec": spec.to_json(), "status": status, "updated_at": time.time()}
    done = conn.execute(
        tournament_specs.update().where(tournament_specs.c.id == spec.id).values(**values)
    )
    if done.rowcount == 0:
        conn.execute(tournament_specs.insert().values(id=spec.id, **values))
    record(conn, by, action, spec.id, reason, detail or json.loads(spec.to_json()))


def console_tournaments(
    conn: Connection, known: Collection[str] = ()
) -> tuple[list[TournamentSpec], set[str]]:
    """The tournaments operators scheduled or changed and did not cancel, but those
    ``known`` already; and the ids of those they cancelled."""
    rows = conn.execute(
        select(tournament_specs.c.id, tournament_specs.c.spec, tournament_specs.c.status)
    ).all()
    specs = [
        TournamentSpec.from_dict(json.loads(row.spec))
        for row in sorted(rows)
        if row.status == "open" and row.id not in known
    ]
    return specs, {str(row.id) for row in rows if row.status == "cancelled"}


def stored_spec(conn: Connection, spec_id: str) -> tuple[TournamentSpec | None, str]:
    """A tournament as the console left it (None: the room file's holds) and its status."""
    row = conn.execute(
        select(tournament_specs.c.spec, tournament_specs.c.status).where(
            tournament_specs.c.id == spec_id
        )
    ).first()
    if row is None:
        return None, "open"
    return TournamentSpec.from_dict(json.loads(row.spec)), str(row.status)
