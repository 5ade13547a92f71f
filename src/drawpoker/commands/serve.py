"""``drawpoker serve``: run the poker room (HTTP + websocket server)."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from drawpoker.errors import InvalidConfig

if TYPE_CHECKING:
    from drawpoker.server.actor import TableConfig


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the poker room server",
        description="Serve the lobby, accounts and cash tables over HTTP and websockets. "
        "With no options: an SQLite file in the data directory and a ready room with bots.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--data-dir", type=Path, default=Path("data"), help="where the SQLite file lives (./data)"
    )
    parser.add_argument(
        "--database", default=None, help="a database URL, e.g. postgresql://user@host/db"
    )
    parser.add_argument(
        "--room", type=Path, default=None, help="a JSON file listing the tables (default: built-in)"
    )
    parser.add_argument("--log-level", default="warning")
    parser.set_defaults(handler=run)


def load_room(path: Path | None) -> list[TableConfig]:
    from drawpoker.server.actor import TableConfig
    from drawpoker.server.lobby import default_room

    if path is None:
        return list(default_room())
    try:
        data = json.loads(path.read_text())
        return [TableConfig.from_dict(t) for t in data["tables"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InvalidConfig(f"room file {path}: {error}") from None


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from drawpoker.server.app import create_app
    from drawpoker.server.store import Store, database_url

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    from drawpoker.server.tournament_spec import load_tournaments

    configs = load_room(args.room)
    for config in configs:
        config.build_rules()
    tournaments = load_tournaments(args.room)
    store = Store(database_url(args.database, args.data_dir))
    app = create_app(store, configs, tournaments)
    kind = "PostgreSQL" if store.url.startswith("postgresql") else "SQLite"
    print(
        f"drawpoker serving on http://{args.host}:{args.port}/  ({kind}, {len(configs)} tables)",
        flush=True,
    )
    uv_config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,  # small JSON frames: compression costs more than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
    )
    server = uvicorn.Server(uv_config)
    server.run()
    return 0
