"""A logging filter that lets a repeated warning or error through at most
``burst`` times a ``period`` and then says how many it held back.

Under attack a server repeats itself: "socket.accept() out of system
resource" for every connection it cannot take, "Invalid HTTP request received"
for every malformed request. Written out each time, they fill the disk and
cost more than the attack. Records are grouped by logger, level and message
template (digits and hex addresses folded, so that ports and file descriptors
do not make every line new); the first ``burst`` of a group in a period pass,
the rest are counted, and the first one let through in a later period carries
"(N similar messages were suppressed before this one)". Records below WARNING
pass untouched. At most ``max_keys`` groups are remembered.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable

_VARYING = re.compile(r"0x[0-9a-fA-F]+|\d+")


class RepeatFilter(logging.Filter):
    def __init__(
        self,
        burst: int = 10,
        period: float = 60.0,
        *,
        max_keys: int = 1000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.burst = burst
        self.period = period
        self.max_keys = max_keys
        self.clock = clock
        self._groups: OrderedDict[tuple[str, int, str], list[float]] = OrderedDict()
        self.suppressed_total = 0

    def _key(self, record: logging.LogRecord) -> tuple[str, int, str]:
        template = str(record.msg)[:300]
        if record.exc_info and record.exc_info[0] is not None:
            template += "|" + record.exc_info[0].__name__
        return record.name, record.levelno, _VARYING.sub("#", template)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        now = self.clock()
        key = self._key(record)
        group = self._groups.get(key)  # [period start, passed, suppressed]
        if group is None:
            group = [now, 0.0, 0.0]
            self._groups[key] = group
            while len(self._groups) > self.max_keys:
                self._groups.popitem(last=False)
        else:
            self._groups.move_to_end(key)
        held = 0
        if now - group[0] >= self.period:
            held = int(group[2])
            group[:] = [now, 0.0, 0.0]
        if group[1] >= self.burst:
            group[2] += 1
            self.suppressed_total += 1
            return False
        group[1] += 1
        if held:
            note = f"{held} similar messages were suppressed before this one"
            record.msg = f"{record.getMessage()} ({note})"
            record.args = None
        return True


def install(filter_: logging.Filter, *loggers: str) -> None:
    """Attach the filter to every handler of the root logger and of ``loggers``."""
    seen: set[int] = set()
    for name in ("", *loggers):
        for handler in logging.getLogger(name).handlers:
            if id(handler) not in seen:
                seen.add(id(handler))
                handler.addFilter(filter_)


class JsonLines(logging.Formatter):
    """One JSON object per record (``serve --log-format json``): ``time`` (UTC,
    ISO 8601), ``level``, ``logger``, ``message``, ``process`` and, with a
    traceback, ``exception`` -- for log collectors that read lines of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)
