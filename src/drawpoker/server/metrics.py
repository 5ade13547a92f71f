"""The process's figures for Prometheus (``GET /metrics``, text format).

Each process reports what it sees itself: its connections, the messages it
answered, the hands its tables finished, its database transactions and the
errors it logged; ``drawpoker_units_held`` and ``drawpoker_cash_players_seated``
count what it owns. A room of many processes is the sum over its processes:
scrape each (run one process per address; with ``--workers`` the processes
share one port and a scrape reaches whichever accepts it). The standard
``process_*`` and ``python_*`` figures come with the client library.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

_LATENCY = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

MESSAGES = Histogram(
    "drawpoker_message_seconds",
    "Time to answer a client's websocket message, by its type (act and draw: actions)",
    ["type"],
    buckets=_LATENCY,
)
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


class RoomFigures(Collector):
    """Figures read when scraped: connections open, units held, players seated."""

    def __init__(self, read: Callable[[], Mapping[str, float]]) -> None:
        self.read = read

    def collect(self) -> Iterator[GaugeMetricFamily]:
        figures = self.read()
        yield GaugeMetricFamily(
            "drawpoker_connections", "Websocket connections open", value=figures["connections"]
        )
        yield GaugeMetricFamily(
            "drawpoker_units_held",
            "Cash tables and tournaments this process owns",
            value=figures["units"],
        )
        yield GaugeMetricFamily(
            "drawpoker_cash_players_seated",
            "Players seated at the cash tables this process owns",
            value=figures["seated"],
        )


_figures: list[RoomFigures] = []


def watch_room(read: Callable[[], Mapping[str, float]]) -> None:
    """Report the room's figures from ``read`` (the last room started in the process)."""
    unwatch_room()
    figures = RoomFigures(read)
    REGISTRY.register(figures)
    _figures.append(figures)


def unwatch_room() -> None:
    while _figures:
        REGISTRY.unregister(_figures.pop())


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
    """The figures in Prometheus text format, and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
