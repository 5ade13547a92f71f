"""The security building blocks on their own: the limiters (counting, back-off,
bounded memory), the log filter, origins, the guard as plain ASGI, passwords."""

from __future__ import annotations

import asyncio
import logging
import tracemalloc
from typing import Any

import pytest

from drawpoker.server import auth
from drawpoker.server.guard import Guard, GuardPolicy, same_site_origin
from drawpoker.server.limits import AttemptLimiter, Bucket, address_key, wait_text
from drawpoker.server.logfilter import RepeatFilter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_attempts_are_counted_when_they_begin() -> None:
    limiter = AttemptLimiter(5, 60.0, clock=Clock())
    assert [limiter.attempt("k") for _ in range(5)] == [0.0] * 5  # none finished yet
    assert limiter.attempt("k") == 60.0  # the sixth waits, though no failure is recorded
    assert limiter.attempt("other") == 0.0


def test_locks_back_off_and_a_success_forgives() -> None:
    clock = Clock()
    limiter = AttemptLimiter(2, 60.0, max_lock=600.0, clock=clock)
    locks = []
    for _ in range(6):
        limiter.attempt("k")
        limiter.attempt("k")
        locks.append(limiter.attempt("k"))
        clock.now += locks[-1]  # wait the lock out
    assert locks == [60.0, 120.0, 240.0, 480.0, 600.0, 600.0]
    limiter.attempt("k")
    limiter.succeeded("k")
    assert [limiter.attempt("k") for _ in range(3)] == [0.0, 0.0, 60.0]  # back to the start


def test_a_window_passes_without_a_lock() -> None:
    clock = Clock()
    limiter = AttemptLimiter(3, 60.0, clock=clock)
    limiter.failed("k", "k")
    clock.now += 61
    assert [limiter.attempt("k") for _ in range(4)] == [0.0, 0.0, 0.0, 60.0]


def test_refund_gives_back_one_attempt() -> None:
    limiter = AttemptLimiter(2, 60.0, clock=Clock())
    limiter.attempt("k")
    limiter.attempt("k")
    limiter.refund("k")
    assert limiter.attempt("k") == 0.0
    assert limiter.attempt("k") == 60.0


def test_asking_does_not_store_anything() -> None:
    limiter = AttemptLimiter(5, 60.0)
    for i in range(1000):
        assert limiter.blocked(f"name{i}|1.2.3.4") == 0.0
    assert len(limiter) == 0


def test_failed_log_in_records_are_bounded_in_memory() -> None:
    """20,000 names per round, ten rounds: the table keeps at most ``max_keys``
    (before: every name's failures kept for ever, +36-39 MB per 20,000 names)."""
    limiter = AttemptLimiter(5, 60.0, max_keys=20_000)
    tracemalloc.start()
    try:
        for i in range(200_000):
            limiter.attempt(f"victim{i:06d}|10.{i % 250}.{i // 250 % 250}.1")
        size, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(limiter) == 20_000
    assert size < 12_000_000


def test_forgotten_keys_start_afresh() -> None:
    clock = Clock()
    limiter = AttemptLimiter(1, 60.0, forget=3600.0, clock=clock)
    limiter.attempt("k")
    assert limiter.attempt("k") == 60.0
    clock.now += 3700
    assert limiter.attempt("k") == 0.0


def test_the_old_login_limiter_interface_still_holds() -> None:
    limiter = auth.LoginLimiter(limit=3, window=60)
    for _ in range(3):
        limiter.check("name:x")
        limiter.failed("name:x")
    with pytest.raises(auth.RateLimited, match="too many failed log-ins; try again in 60 s"):
        limiter.check("name:x")
    limiter.check("name:y")


def test_buckets_refill_and_are_bounded() -> None:
    clock = Clock()
    bucket = Bucket(3, 60.0, max_keys=100, clock=clock)
    assert [bucket.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take("a") == pytest.approx(20.0)
    clock.now += 20
    assert bucket.take("a") == 0.0
    bucket.give_back("a")
    assert bucket.take("a") == 0.0
    for i in range(1000):
        bucket.take(f"k{i}")
    assert len(bucket) == 100


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),
        (None, "?"),
        ("testclient", "testclient"),
    ],
)
def test_addresses_are_keyed_by_subscriber(host: str | None, key: str) -> None:
    assert address_key(host) == key


def test_waits_are_said_in_words() -> None:
    assert wait_text(0.2) == "in 1 s"
    assert wait_text(60) == "in 60 s"
    assert wait_text(600) == "in 10 min"
    assert wait_text(3 * 3600) == "in 3 h"


def test_repeated_errors_are_suppressed_and_counted() -> None:
    clock = Clock()
    repeat = RepeatFilter(burst=3, period=60.0, clock=clock)
    logger = logging.getLogger("test.repeat")

    def record(msg: str, level: int = logging.ERROR) -> logging.LogRecord:
        return logger.makeRecord(logger.name, level, __file__, 1, msg, None, None)

    passed = [repeat.filter(record(f"accept failed on fd {i}")) for i in range(100)]
    assert passed == [True] * 3 + [False] * 97  # digits do not make a message new
    assert repeat.filter(record("something else"))
    assert all(repeat.filter(record("chatty", logging.INFO)) for _ in range(50))
    clock.now += 61
    summary = record("accept failed on fd 7")
    assert repeat.filter(summary)
    assert summary.getMessage() == (
        "accept failed on fd 7 (97 similar messages were suppressed before this one)"
    )


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "ok"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "http", True),
        ("https://play.example", "play.example", "https", True),
        ("https://play.example", "play.example:443", "https", True),
        ("https://play.example", "play.example", "http", True),  # TLS ended at a proxy
        ("http://play.example", "play.example", "https", False),  # no downgrade
        ("http://evil.example", "127.0.0.1:8000", "http", False),
        ("http://127.0.0.1:8000.evil.example", "127.0.0.1:8000", "http", False),
        ("http://127.0.0.1:9000", "127.0.0.1:8000", "http", False),
        ("null", "127.0.0.1:8000", "http", False),
        ("file://", "127.0.0.1:8000", "http", False),
        ("http://127.0.0.1:8000", "", "http", False),
    ],
)
def test_origins(origin: str, host: str, scheme: str, ok: bool) -> None:
    assert same_site_origin(origin, host, scheme, frozenset()) is ok


def test_allowed_origins() -> None:
    allowed = frozenset({"https://club.example"})
    assert same_site_origin("https://club.example", "play.example", "https", allowed)
    assert not same_site_origin("https://other.example", "play.example", "https", allowed)


def _websocket_scope() -> dict[str, Any]:
    return {
        "type": "websocket",
        "path": "/ws",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1:8000")],
        "client": ("127.0.0.9", 5000),
        "app": None,
    }


def test_the_guard_closes_an_oversized_websocket_message_under_any_server() -> None:
    """Behind a server that does not cap websocket messages itself, the guard does."""
    seen: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            seen.append(message)
            if message["type"] == "websocket.disconnect":
                return
            await send({"type": "websocket.send", "text": "echo"})

    incoming = [
        {"type": "websocket.connect"},
        {"type": "websocket.receive", "text": "small"},
        {"type": "websocket.receive", "text": "x" * 200},
        {"type": "websocket.receive", "text": "never read"},
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    guard = Guard(app, GuardPolicy(max_ws_message=100))
    asyncio.run(guard(_websocket_scope(), receive, send))
    assert [m["type"] for m in seen] == ["websocket.receive", "websocket.disconnect"]
    assert sent == [
        {"type": "websocket.accept"},
        {"type": "websocket.send", "text": "echo"},
        {"type": "websocket.close", "code": 1009, "reason": "too large"},
    ]
    assert guard.websockets == {}  # the count went back


@pytest.mark.parametrize(
    ("password", "ok"),
    [
        ("password", False),
        ("12345678", False),
        ("iloveyou123", False),
        ("annabella1", False),  # the name and a digit
        ("correct horse battery", True),
        ("Tr0ub4dor&3x", True),
        ("jacks or better to open", True),
    ],
)
def test_passwords_too_easy_to_guess(password: str, ok: bool) -> None:
    assert (auth.password_weakness(password, "annabella") is None) is ok


def test_unknown_names_cost_a_real_verification() -> None:
    assert auth.verify_password(None, "anything") is False
    stored = auth.hash_password("correct horse battery")
    assert auth.verify_password(stored, "correct horse battery")
    assert not auth.verify_password(stored, "wrong horse battery")


def test_the_body_clock_stops_once_the_body_is_in() -> None:
    """A response may wait for the client to leave long after the body arrived
    (a streamed answer): the body's deadline does not apply to that wait."""
    answered: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        assert (await receive())["body"] == b"{}"
        await send({"type": "http.response.start", "status": 200, "headers": []})
        assert (await receive())["type"] == "http.disconnect"  # comes after the deadline
        await send({"type": "http.response.body", "body": b"done"})

    async def receive_from(messages: list[dict[str, Any]]) -> dict[str, Any]:
        message = messages.pop(0)
        if message["type"] == "http.disconnect":
            await asyncio.sleep(0.3)
        return message

    async def send(message: dict[str, Any]) -> None:
        answered.append(message)

    messages = [
        {"type": "http.request", "body": b"{}", "more_body": False},
        {"type": "http.disconnect"},
    ]
    scope = {
        "type": "http", "method": "POST", "path": "/api/x", "query_string": b"",
        "headers": [(b"host", b"h"), (b"content-type", b"application/json"),
                    (b"content-length", b"2")],
        "client": ("127.0.0.9", 5000), "scheme": "http",
    }  # fmt: skip
    guard = Guard(app, GuardPolicy(body_timeout=0.1))
    asyncio.run(guard(scope, lambda: receive_from(messages), send))
    assert answered[0]["status"] == 200
    assert answered[-1]["body"] == b"done"
    assert guard.requests == {}
