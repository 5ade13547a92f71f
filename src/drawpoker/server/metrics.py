"""The process's figures for Prometheus (``GET /metrics``, text format).

Each process reports what it sees itself: its connections, the messages it
answered, the hands its tables finished, its database transactions, its ledger
checks and the errors it logged; ``drawpoker_units_held`` and
``drawpoker_cash_players_seated`` count what it owns. A room of many processes
is the sum over its processes: scrape each. The processes of ``serve --workers``
share one port, so they share their figures too (the client library's
multiprocess mode, in the directory ``PROMETHEUS_MULTIPROC_DIR`` their
supervisor makes): a scrape of any of them answers for all, gauges summed over
the live ones. The standard ``process_*`` and ``python_*`` figures come with the
client library in a single process only.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

SHARED = "PROMETHEUS_MULTIPROC_DIR"  # set: the processes of ``serve --workers``

_LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

MESSAGES = Histogram(
    "drawpoker_message_seconds",
    "Time to answer a client's websocket message, by its type (act and draw: actions)",
    ["type"],
    buckets=_LATENCY,
)
_by_type: dict[str, Histogram] = {}


def message_seconds(kind: str) -> Histogram:
    """``MESSAGES`` of one message type (the labelled child, looked up once)."""
    child = _by_type.get(kind)
    if child is None:
        child = _by_type[kind] = MESSAGES.labels(kind)
    return child


HANDS = Counter(
    "drawpoker_hands",
    "Hands played to the end, by table (a tournament's tables under the tournament)",
    ["table"],
)
TRANSACTIONS = Histogram(
    "drawpoker_db_transaction_seconds",
    "Database transactions, from the start to the commit (or the failure)",
    ["outcome"],
    buckets=_LATENCY,
)
ERRORS = Counter("drawpoker_log_errors", "Errors logged by the server, by logger", ["logger"])
LEDGER_CHECKS = Counter(
    "drawpoker_ledger_checks",
    "Checks of the books (every transaction sums to zero, every balance is its entries), "
    "by outcome: balanced, unbalanced or failed (the check could not run)",
    ["outcome"],
)
LEDGER_CHECK_SECONDS = Histogram(
    "drawpoker_ledger_check_seconds", "Time to check the books", buckets=_LATENCY
)
# Read from the room when scraped (and, with --workers, every few seconds).
_ROOM_GAUGES = {
    "connections": Gauge(
        "drawpoker_connections", "Websocket connections open", multiprocess_mode="livesum"
    ),
    "units": Gauge(
        "drawpoker_units_held",
        "Cash tables and tournaments this process owns",
        multiprocess_mode="livesum",
    ),
    "seated": Gauge(
        "drawpoker_cash_players_seated",
        "Players seated at the cash tables this process owns",
        multiprocess_mode="livesum",
    ),
}
_room: list[Callable[[], Mapping[str, float]]] = []


def watch_room(read: Callable[[], Mapping[str, float]]) -> None:
    """Report the room's figures from ``read`` (the last room started in the process)."""
    _room[:] = [read]
    refresh()


def unwatch_room() -> None:
    _room.clear()
    for gauge in _ROOM_GAUGES.values():
        gauge.set(0)


def refresh() -> None:
    """Read the room's figures into their gauges."""
    if _room:
        figures = _room[0]()
        for key, gauge in _ROOM_GAUGES.items():
            gauge.set(figures[key])


def shared() -> bool:
    """Whether this process shares its figures with the other workers."""
    return bool(os.environ.get(SHARED))


class CountErrors(logging.Handler):
    """Counts every record of ERROR and above (``ERRORS``)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        ERRORS.labels(record.name).inc()


def count_errors(logger: logging.Logger) -> None:
    if not any(isinstance(h, CountErrors) for h in logger.handlers):
        logger.addHandler(CountErrors())


def scrape() -> tuple[bytes, str]:
    """The figures in Prometheus text format, and its content type: this process's,
    or every worker's when they share them."""
    refresh()
    if not shared():
        return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return generate_latest(registry), CONTENT_TYPE_LATEST
