"""The audit log: who of the staff did what, to whom, when and why.

Every change a member of staff makes is appended in the same transaction as
the change itself (``record``), so neither lands without the other; the
database refuses to update or delete audit rows (``store.audit_log``). A change
made on the server's machine with ``drawpoker admin`` has the command line as
its actor.
"""

from __future__ import annotations

import getpass
import json
import socket
import time
from typing import Any

from sqlalchemy import Connection

from drawpoker.server.auth import Account, AuthError
from drawpoker.server.store import audit_log

MAX_REASON = 500


def changes(before: str, after: str) -> dict[str, list[Any]]:
    """What an edit changed, field by field, from two JSON objects (a config as it
    was and as it is): ``{field: [before, after]}``, for an audit entry."""
    old, new = json.loads(before), json.loads(after)
    return {key: [old.get(key), value] for key, value in new.items() if old.get(key) != value}


def command_line() -> str:
    """The actor of a change made with ``drawpoker admin``."""
    return f"command line ({getpass.getuser()}@{socket.gethostname()})"[:80]


def reason_of(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise AuthError("say why: a reason is required and is kept in the audit log")
    if len(reason) > MAX_REASON:
        raise AuthError(f"a reason is at most {MAX_REASON} characters")
    return reason.strip()


def record(
    conn: Connection,
    actor: Account | None,
    action: str,
    target: str,
    reason: str,
    detail: dict[str, Any] | None = None,
) -> int:
    """Append one entry to the audit log (``actor`` None: the command line)."""
    row = conn.execute(
        audit_log.insert().values(
            at=time.time(),
            actor_id=None if actor is None else actor.id,
            actor=command_line() if actor is None else actor.name,
            action=action,
            target=target,
            reason=reason_of(reason),
            detail=json.dumps(detail or {}, sort_keys=True),
        )
    ).inserted_primary_key
    assert row is not None
    return int(row[0])
