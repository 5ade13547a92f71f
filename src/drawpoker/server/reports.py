"""Players' reports to the staff: a chat line ("spam", "abuse") or a hand they
played ("possible collusion"). A report lands in the console's queue until a
moderator closes it, saying what was done (audited).

A hand can be reported only by someone dealt into it (as for its history), and
a chat line only by someone who could see it: it must still be among the
table's recent lines. An account files at most ``MAX_PER_DAY`` reports a day.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection, func, select

from drawpoker.server import audit, staff
from drawpoker.server.auth import Account, AuthError, RateLimited
from drawpoker.server.store import accounts, hand_players, hands, reports

MAX_PER_DAY = 20


def file(
    conn: Connection,
    reporter: Account,
    kind: str,
    *,
    table: str = "",
    hand: str = "",
    about: str = "",
    text: str = "",
    note: str = "",
) -> int:
    """Store one report (checked by the caller: a chat line is the table's)."""
    since = time.time() - 86400
    filed = conn.execute(
        select(func.count())
        .select_from(reports)
        .where(reports.c.reporter_id == reporter.id, reports.c.at > since)
    ).scalar_one()
    if filed >= MAX_PER_DAY:
        raise RateLimited(f"at most {MAX_PER_DAY} reports a day; the staff has yours", 3600)
    if kind == "hand":
        dealt = conn.execute(
            select(hands.c.table_id)
            .join(hand_players, hand_players.c.hand_id == hands.c.id)
            .where(hands.c.id == hand, hand_players.c.account_id == reporter.id)
        ).first()
        if dealt is None:
            raise staff.NotFound("you can report only a hand you played")
        table = str(dealt[0])
    elif kind != "chat":
        raise AuthError("a report is about a chat line or a hand")
    row = conn.execute(
        reports.insert().values(
            at=time.time(),
            reporter_id=reporter.id,
            kind=kind,
            table_id=table,
            hand_id=hand,
            about=about,
            text=text,
            note=note,
        )
    ).inserted_primary_key
    assert row is not None
    return int(row[0])


def queue(conn: Connection, open_only: bool = True, limit: int = 100) -> list[dict[str, Any]]:
    """Reports, newest first (only those not closed yet, unless ``open_only`` is False)."""
    query = (
        select(reports, accounts.c.name.label("reporter"))
        .join(accounts, accounts.c.id == reports.c.reporter_id)
        .order_by(reports.c.id.desc())
        .limit(max(1, min(limit, 500)))
    )
    if open_only:
        query = query.where(reports.c.closed_at.is_(None))
    return [
        {
            "id": row.id,
            "at": row.at,
            "reporter": row.reporter,
            "kind": row.kind,
            "table": row.table_id,
            "hand": row.hand_id,
            "about": row.about,
            "text": row.text,
            "note": row.note,
            "closed_at": row.closed_at,
            "closed_by": row.closed_by,
        }
        for row in conn.execute(query)
    ]


def close(conn: Connection, report_id: int, *, by: Account, reason: str) -> None:
    """Close a report, saying what was done (audited)."""
    done = conn.execute(
        reports.update()
        .where(reports.c.id == report_id, reports.c.closed_at.is_(None))
        .values(closed_at=time.time(), closed_by=by.name)
    )
    if done.rowcount != 1:
        raise staff.NotFound(f"there is no open report #{report_id}")
    audit.record(conn, by, "close-report", f"report #{report_id}", reason)
