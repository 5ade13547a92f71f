"""Rate limits kept in memory, bounded, keyed by client address (or by name and
address): how many guests and accounts an address may create, how many log-in
attempts a name may take from an address.

Nothing here is stored: a restart forgets every count, which costs an attacker
nothing they could not get by waiting, and keeps a flood of requests out of the
database. Every table of keys has a size limit and forgets its least recently
used keys first, so no sequence of requests can grow the server's memory
without bound.

Client addresses are keys as they are, except IPv6 addresses, which count by
their /64 network (one subscriber usually holds a whole /64), and IPv4-mapped
IPv6 addresses, which count as the IPv4 address they carry.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]


def address_key(host: str | None) -> str:
    """The key a client address is counted under (``?`` when unknown)."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # not an IP (a unix socket, a test client): as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def wait_text(seconds: float) -> str:
    """``'in 42 s'``, ``'in 3 min'``, ``'in 2 h'``: when to come back."""
    s = max(1, math.ceil(seconds))
    if s < 120:
        return f"in {s} s"
    if s < 2 * 3600:
        return f"in {math.ceil(s / 60)} min"
    return f"in {math.ceil(s / 3600)} h"


class Bucket:
    """A token bucket per key: ``capacity`` at once, refilled at ``capacity`` per
    ``period`` seconds. ``take`` spends one token and answers 0, or answers how
    many seconds until one is there. At most ``max_keys`` keys are remembered
    (a forgotten key starts full, which is where an idle key would be anyway)."""

    def __init__(
        self,
        capacity: int,
        period: float,
        *,
        max_keys: int = 50_000,
        clock: Clock = time.monotonic,
    ) -> None:
        if capacity < 1 or period <= 0:
            raise ValueError("a bucket needs a capacity of at least 1 and a positive period")
        self.capacity = capacity
        self.period = period
        self.max_keys = max_keys
        self.clock = clock
        self._rate = capacity / period
        self._keys: OrderedDict[str, list[float]] = OrderedDict()  # key -> [tokens, stamp]

    def __len__(self) -> int:
        return len(self._keys)

    def _level(self, key: str, now: float) -> list[float]:
        entry = self._keys.get(key)
        if entry is None:
            entry = [float(self.capacity), now]
            self._keys[key] = entry
            while len(self._keys) > self.max_keys:
                self._keys.popitem(last=False)
        else:
            self._keys.move_to_end(key)
            entry[0] = min(float(self.capacity), entry[0] + (now - entry[1]) * self._rate)
            entry[1] = now
        return entry

    def take(self, key: str) -> float:
        """Spend a token: 0.0, or the seconds until one is there (nothing spent)."""
        entry = self._level(key, self.clock())
        if entry[0] >= 1.0:
            entry[0] -= 1.0
            return 0.0
        return (1.0 - entry[0]) / self._rate

    def give_back(self, key: str) -> None:
        """Return a token taken for work that was not done."""
        entry = self._keys.get(key)
        if entry is not None:
            entry[0] = min(float(self.capacity), entry[0] + 1.0)


@dataclass(slots=True)
class _Attempts:
    count: int = 0  # attempts in the current window (failed or still being checked)
    start: float = 0.0  # when the window began
    until: float = 0.0  # locked until then
    strikes: int = 0  # locks so far: each lasts twice as long as the one before


class AttemptLimiter:
    """At most ``limit`` attempts per key in ``window`` seconds, counted when an
    attempt begins (before the work that can fail), so that concurrent attempts
    cannot slip past the limit while the first ones are still being checked.

    Reaching the limit locks the key for ``window`` seconds; each further lock of
    the same key doubles, up to ``max_lock`` (exponential back-off). A success
    forgives the key (``succeeded``). Keys idle for ``forget`` seconds are
    dropped; at most ``max_keys`` keys are kept, least recently used first out."""

    def __init__(
        self,
        limit: int,
        window: float,
        *,
        max_lock: float = 3600.0,
        forget: float = 6 * 3600.0,
        max_keys: int = 50_000,
        clock: Clock = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self.max_lock = max_lock
        self.forget = forget
        self.max_keys = max_keys
        self.clock = clock
        self._keys: OrderedDict[str, _Attempts] = OrderedDict()

    def __len__(self) -> int:
        return len(self._keys)

    def _entry(self, key: str, now: float, create: bool = True) -> _Attempts | None:
        entry = self._keys.get(key)
        if entry is not None and now - max(entry.start, entry.until) > self.forget:
            del self._keys[key]
            entry = None
        if entry is None:
            if not create:
                return None
            entry = _Attempts(start=now)
            self._keys[key] = entry
            while len(self._keys) > self.max_keys:
                self._keys.popitem(last=False)
        else:
            self._keys.move_to_end(key)
        if entry.until <= now and now - entry.start >= self.window:
            entry.count, entry.start = 0, now  # a new window
        return entry

    def blocked(self, key: str) -> float:
        """Seconds until ``key`` may try again (0.0: it may now). Asking about a key
        never seen stores nothing."""
        now = self.clock()
        entry = self._entry(key, now, create=False)
        if entry is None:
            return 0.0
        if entry.until > now:
            return entry.until - now
        if entry.count >= self.limit:
            return self._lock(entry, now)
        return 0.0

    def _lock(self, entry: _Attempts, now: float) -> float:
        length = min(self.max_lock, self.window * (1 << entry.strikes))
        entry.strikes = min(entry.strikes + 1, 30)
        entry.until = now + length
        entry.count, entry.start = 0, entry.until
        return length

    def attempt(self, *keys: str) -> float:
        """Begin an attempt under every key: 0.0 and counted, or the seconds to
        wait (nothing counted) if any key is locked or at its limit."""
        wait = max((self.blocked(key) for key in keys), default=0.0)
        if wait:
            return wait
        now = self.clock()
        for key in keys:
            entry = self._entry(key, now)
            assert entry is not None
            entry.count += 1
        return 0.0

    def failed(self, *keys: str) -> None:
        """Count a failure not begun with ``attempt``."""
        now = self.clock()
        for key in keys:
            entry = self._entry(key, now)
            assert entry is not None
            entry.count += 1

    def succeeded(self, key: str) -> None:
        """The attempt under ``key`` succeeded: forget its failures and locks."""
        self._keys.pop(key, None)

    def refund(self, key: str) -> None:
        """Uncount one attempt under ``key`` (one that succeeded, where the key's
        other failures still count)."""
        entry = self._keys.get(key)
        if entry is not None and entry.count > 0:
            entry.count -= 1


@dataclass(slots=True)
class Limits:
    """The account-related limits of one server, per client address unless said:
    log-in attempts per (name, address) and per address, guest and account
    creation per address. The figures are the defaults; ``docs/security.md``
    lists them with their reasons."""

    login_per_name: AttemptLimiter = field(
        default_factory=lambda: AttemptLimiter(5, 60.0, max_keys=20_000)
    )
    login_per_address: AttemptLimiter = field(
        default_factory=lambda: AttemptLimiter(20, 600.0, max_keys=20_000)
    )
    guests: Bucket = field(default_factory=lambda: Bucket(60, 3600.0))
    registrations: Bucket = field(default_factory=lambda: Bucket(20, 3600.0))
    trusted: frozenset[str] = frozenset()

    def exempt(self, address: str) -> bool:
        """A trusted address (``drawpoker serve --trust``) has no per-address limit."""
        return address in self.trusted
