"""``drawpoker admin``: staff accounts and the audit log, on the server's machine.

    drawpoker admin create-user NAME --role operator [--password-stdin]
    drawpoker admin set-role NAME moderator --reason "runs the evening tables"
    drawpoker admin audit [--limit 50]

It works on the database ``drawpoker serve`` uses (the same ``--data-dir`` or
``--database``), and may run while the server does. Every change is written to
the audit log with the command line as its actor.
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from pathlib import Path

from drawpoker.server import auth, staff
from drawpoker.server.auth import AuthError
from drawpoker.server.store import Store, database_url


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "admin", help="staff accounts and roles, the audit log (on the server's database)"
    )
    parser.add_argument(
        "--data-dir", type=Path, default=Path("data"), help="where the SQLite file lives (./data)"
    )
    parser.add_argument("--database", default=None, help="a database URL (as for serve)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    create = actions.add_parser("create-user", help="create a registered account with a role")
    create.add_argument("name")
    create.add_argument("--role", choices=staff.ROLES, default="player")
    create.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from the first line of standard input (else it is asked twice)",
    )
    create.add_argument("--reason", default="created on the command line")

    change = actions.add_parser("set-role", help="give an account a role")
    change.add_argument("name")
    change.add_argument("role", choices=staff.ROLES)
    change.add_argument("--reason", required=True, help="why (kept in the audit log)")

    audit = actions.add_parser("audit", help="the audit log, newest first")
    audit.add_argument("--limit", type=int, default=50)
    parser.set_defaults(handler=run)


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass(f"password for {args.name}: ")
    if getpass.getpass("the same again: ") != first:
        raise AuthError("the two passwords differ")
    return first


def run(args: argparse.Namespace) -> int:
    store = Store(database_url(args.database, args.data_dir))
    try:
        if args.action == "create-user":
            name = auth.validate_name(args.name)
            password = auth.validate_password(_password(args), name)
            hashed = auth.hash_password(password)
            account = store.call(
                lambda conn: staff.create_staff(conn, name, hashed, args.role, reason=args.reason)
            )
            print(f"created {account.name} (account {account.id}) as {account.role}")
        elif args.action == "set-role":
            account = store.call(
                lambda conn: staff.set_role(conn, args.name, args.role, by=None, reason=args.reason)
            )
            print(f"{account.name} is now {account.role}")
        else:
            for entry in store.call(staff.audit_entries, args.limit):
                when = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(entry["at"]))
                print(
                    f"#{entry['id']} {when} UTC  {entry['actor']}  {entry['action']} "
                    f"{entry['target']}  {entry['detail']}  -- {entry['reason']}"
                )
    finally:
        store.close()
    return 0
