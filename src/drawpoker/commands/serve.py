"""``drawpoker serve``: run the poker room (HTTP + websocket server)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FILE_RESERVE = 128  # descriptors kept free for the database, logs and files served
HEADER_LIMIT = 16_384  # bytes of a request's line and headers


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
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="json: one JSON object per line (time, level, logger, message, process)",
    )
    scale = parser.add_argument_group("many processes (docs/deployment.md)")
    scale.add_argument(
        "--bus",
        default=None,
        metavar="URL",
        help="a Redis URL, e.g. redis://127.0.0.1:6379/0: serve one room with every process "
        "started with the same --bus and --database (PostgreSQL)",
    )
    scale.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="start N processes sharing the port (needs --bus and a PostgreSQL --database)",
    )
    scale.add_argument(
        "--bus-namespace",
        default="dp",
        metavar="NAME",
        help="the prefix of the room's Redis keys and channels (default dp): rooms can "
        "share a Redis",
    )
    scale.add_argument("--fd", type=int, default=None, help=argparse.SUPPRESS)
    limits = parser.add_argument_group("limits (docs/security.md)")
    limits.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin whose pages may use this server, e.g. https://play.example.com "
        "(repeatable; the server's own origin is always allowed)",
    )
    limits.add_argument(
        "--trust",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a client address with no per-address limit (a load generator, your own bots; "
        "repeatable)",
    )
    limits.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help="comma-separated addresses of reverse proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (default: none)",
    )
    limits.add_argument(
        "--max-connections-per-address",
        type=int,
        default=256,
        metavar="N",
        help="open connections per client address (default 256)",
    )
    limits.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time for a request's headers to arrive (default 10)",
    )
    parser.add_argument(
        "--metrics-from",
        default="",
        metavar="ADDRESSES",
        help="comma-separated client addresses besides loopback that may read /metrics",
    )
    parser.set_defaults(handler=run)


def raise_file_limit() -> int:
    """Raise the soft limit of open files to the hard limit; the soft limit now."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        return 1 << 16
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for target in (hard, 1 << 20, 1 << 16, 10_240):
        if target == resource.RLIM_INFINITY or soft >= target:
            continue
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            continue
        break
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _check_scale(args: argparse.Namespace) -> str | None:
    """What is wrong with the options of a room of many processes, if anything."""
    if args.workers < 1:
        return "--workers must be at least 1"
    if args.workers > 1 and not args.bus:
        return "--workers needs --bus redis://...: the processes share the room through Redis"
    if args.bus:
        if not args.bus.startswith(("redis://", "rediss://", "unix://")):
            return f"--bus must be a Redis URL (redis://host:port/db), not {args.bus!r}"
        if not (args.database or "").startswith(("postgresql://", "postgres://")):
            return "--bus needs a PostgreSQL --database: every process must share the record"
    return None


def _child_argv(args: argparse.Namespace, fd: int) -> list[str]:
    """The command line of one worker: this one, on the parent's socket."""
    argv = [sys.executable, "-m", "drawpoker.cli", "serve", "--fd", str(fd)]
    argv += ["--data-dir", str(args.data_dir), "--log-level", args.log_level]
    argv += ["--log-format", args.log_format]
    argv += ["--database", args.database, "--bus", args.bus]
    argv += ["--bus-namespace", args.bus_namespace]
    if args.room is not None:
        argv += ["--room", str(args.room)]
    for origin in args.allow_origin:
        argv += ["--allow-origin", origin]
    for address in args.trust:
        argv += ["--trust", address]
    argv += ["--forwarded-allow-ips", args.forwarded_allow_ips]
    argv += ["--max-connections-per-address", str(args.max_connections_per_address)]
    argv += ["--header-timeout", str(args.header_timeout)]
    argv += ["--metrics-from", args.metrics_from]
    return argv


def run_workers(args: argparse.Namespace) -> int:
    """Bind the port, start ``--workers`` processes on it and keep them running:
    a worker that dies is started again; SIGTERM or SIGINT stops them all."""
    listener = socket.create_server((args.host, args.port), backlog=2048)
    listener.set_inheritable(True)
    argv = _child_argv(args, listener.fileno())
    workers: list[subprocess.Popen[bytes]] = []
    stopping = False
    figures = tempfile.TemporaryDirectory(prefix="drawpoker-metrics-")  # shared by the workers
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": figures.name}

    def start() -> subprocess.Popen[bytes]:
        return subprocess.Popen(argv, pass_fds=(listener.fileno(),), env=env)

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print(
        f"drawpoker serving on http://{args.host}:{args.port}/  ({args.workers} workers)",
        flush=True,
    )
    workers = [start() for _ in range(args.workers)]
    started = [time.monotonic()] * len(workers)
    while not stopping:
        time.sleep(0.2)
        for i, worker in enumerate(workers):
            if worker.poll() is None or stopping:
                continue
            quick = time.monotonic() - started[i] < 5
            print(f"worker {worker.pid} exited ({worker.returncode}); starting another", flush=True)
            from prometheus_client import multiprocess

            multiprocess.mark_process_dead(worker.pid, figures.name)  # type: ignore[no-untyped-call]
            time.sleep(2.0 if quick else 0.0)  # a worker that cannot start: not in a tight loop
            workers[i] = start()
            started[i] = time.monotonic()
    for worker in workers:
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
    listener.close()
    figures.cleanup()
    return 0


def run(args: argparse.Namespace) -> int:
    problem = _check_scale(args)
    if problem is not None:
        print(f"drawpoker serve: {problem}", file=sys.stderr)
        return 2
    if args.workers > 1:
        return run_workers(args)
    import uvicorn

    from drawpoker.server.app import create_app
    from drawpoker.server.guard import MAX_WS_MESSAGE, GuardPolicy
    from drawpoker.server.limits import Limits, address_key
    from drawpoker.server.logfilter import JsonLines, RepeatFilter, install
    from drawpoker.server.roomfile import load_tables
    from drawpoker.server.store import Store, database_url
    from drawpoker.server.tournament.spec import load_tournaments
    from drawpoker.server.transport import ConnectionLimits, protocols

    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    as_json = args.log_format == "json"
    if as_json:  # uvicorn's loggers too: they pass their records to these handlers
        for handler in logging.getLogger().handlers:
            handler.setFormatter(JsonLines())
    files = raise_file_limit()
    configs = load_tables(args.room)
    for config in configs:
        config.build_rules()
    tournaments = load_tournaments(args.room)
    store = Store(database_url(args.database, args.data_dir))
    trusted = frozenset(address_key(a) for a in args.trust)
    proxies = [a.strip() for a in args.forwarded_allow_ips.split(",") if a.strip()]
    origins = frozenset(o.rstrip("/").lower() for o in args.allow_origin)
    bus = None
    if args.bus:
        from drawpoker.server.redis_bus import RedisBus

        bus = RedisBus(args.bus, namespace=args.bus_namespace)
    app = create_app(
        store,
        configs,
        tournaments,
        bus=bus,
        policy=GuardPolicy(allowed_origins=origins, trusted=trusted),
        limits=Limits(trusted=trusted),
        metrics_from=[a.strip() for a in args.metrics_from.split(",") if a.strip()],
    )
    # The accept loop takes up to ``backlog`` connections at a time before any is
    # refused: keep that many descriptors free below the cap on open connections.
    backlog = max(64, min(2048, files // 4))
    connections = ConnectionLimits(
        per_address=args.max_connections_per_address,
        total=max(16, files - FILE_RESERVE - backlog),
        header_timeout=args.header_timeout,
        trusted=trusted | frozenset(address_key(p) for p in proxies if p != "*"),
    )
    http_protocol, ws_protocol = protocols(connections)
    kind = "PostgreSQL" if store.url.startswith("postgresql") else "SQLite"
    if args.fd is None:
        started = (
            f"drawpoker serving on http://{args.host}:{args.port}/  "
            f"({kind}{', Redis bus' if bus else ''}, {len(configs)} tables)"
        )
        if as_json:
            record = logging.LogRecord("drawpoker.server", logging.INFO, "", 0, started, None, None)
            started = JsonLines().format(record)
        print(started, flush=True)
    uv_config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        fd=args.fd,
        log_level=args.log_level,
        log_config=None if as_json else uvicorn.config.LOGGING_CONFIG,
        http=http_protocol,
        ws=ws_protocol,
        ws_max_size=MAX_WS_MESSAGE,  # the guard's cap, enforced as frames arrive
        ws_per_message_deflate=False,  # small JSON frames: compression costs more than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
        backlog=backlog,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=HEADER_LIMIT,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        server_header=False,
    )
    install(RepeatFilter(), "uvicorn", "uvicorn.error", "uvicorn.access")
    server = uvicorn.Server(uv_config)
    server.run()
    return 0
