"""Attacks on the REST API of a real server, as a hostile user would script them
(127.0.0.1 only; every loop bounded). Each test failed on the server before
the guard (``drawpoker.server.guard``) and the limits (``limits``) existed.

Client addresses: Linux routes all of 127.0.0.0/8 to the loopback, so a test
plays several clients by binding its sockets to 127.0.0.2, 127.0.0.3 ...
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .helpers import Server, table

pytestmark = pytest.mark.slow

EVIL = "http://evil.example"


def http_from(address: str, server: Server) -> httpx.Client:
    """A client whose connections come from ``address`` (a loopback address)."""
    return httpx.Client(
        base_url=server.url, timeout=30, transport=httpx.HTTPTransport(local_address=address)
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("http")
    server = Server(tmp, None, [table("t1")])
    tournament = {
        "id": "sng", "name": "test sit & go", "buy_in": 10, "fee": 1, "starting_stack": 500,
        "max_entries": 6, "level_minutes": 3, "bots": 0,
    }  # fmt: skip
    server.room.write_text(json.dumps({"tables": [table("t1")], "tournaments": [tournament]}))
    server.start()
    try:
        yield server
    finally:
        server.stop()
        log = server.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]


def register(client: httpx.Client, name: str, password: str = "correct horse battery") -> str:
    r = client.post("/api/register", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


# ----------------------------------------------------------------- 1. log-ins


def test_concurrent_wrong_passwords_cannot_outrun_the_limit(server: Server) -> None:
    """500 simultaneous log-ins for one name from one address, the right password
    among them: at most 5 are checked, the rest are refused before any work."""
    with http_from("127.0.1.1", server) as c:
        register(c, "victim1")

    async def storm() -> list[int]:
        transport = httpx.AsyncHTTPTransport(local_address="127.0.1.2")
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
        async with httpx.AsyncClient(
            base_url=server.url, timeout=60, transport=transport, limits=limits
        ) as c:

            async def one(password: str) -> int:
                body = {"name": "victim1", "password": password}
                return (await c.post("/api/login", json=body)).status_code

            passwords = ["wrong horse"] * 250 + ["correct horse battery"] + ["wrong horse"] * 249
            return list(await asyncio.gather(*(one(p) for p in passwords)))

    codes = asyncio.run(storm())
    checked = [c for c in codes if c != 429]
    assert len(checked) <= 5, {c: codes.count(c) for c in set(codes)}
    assert codes[250] == 429  # the right password came too late: counted, not checked
    assert set(codes) <= {401, 429, 200}
    # Another address is not locked out of that name.
    with http_from("127.0.1.3", server) as c:
        r = c.post("/api/login", json={"name": "victim1", "password": "correct horse battery"})
        assert r.status_code == 200, r.text


def test_a_name_cannot_be_locked_from_elsewhere(server: Server) -> None:
    with http_from("127.0.2.1", server) as c:
        register(c, "victim2")
    with http_from("127.0.2.2", server) as attacker:
        codes = [
            attacker.post(
                "/api/login", json={"name": "victim2", "password": f"guess {i} wrong"}
            ).status_code
            for i in range(8)
        ]
        assert codes[:5] == [401] * 5
        assert codes[5:] == [429] * 3
        r = attacker.post("/api/login", json={"name": "victim2", "password": "guess again"})
        assert 60 <= int(r.headers["retry-after"]) <= 61
        assert "try again in" in r.json()["error"]
    with http_from("127.0.2.3", server) as owner:  # the owner, at home
        r = owner.post("/api/login", json={"name": "victim2", "password": "correct horse battery"})
        assert r.status_code == 200, r.text


def test_an_address_trying_many_names_is_limited_and_forwarded_for_is_not_believed(
    server: Server,
) -> None:
    """Spraying names from one address: 20 failures in 10 minutes, then 429; a
    forged X-Forwarded-For (no proxy is trusted by default) changes nothing."""
    with http_from("127.0.3.1", server) as c:
        codes = [
            c.post(
                "/api/login",
                json={"name": f"sprayed{i}", "password": "wrong horse"},
                headers={"x-forwarded-for": f"10.0.{i}.1"},
            ).status_code
            for i in range(23)
        ]
    assert codes == [401] * 20 + [429] * 3


def test_a_wrong_password_takes_as_long_for_an_unknown_name(server: Server) -> None:
    """Names must not be told apart by the time of the answer (before: 119 ms for a
    name that exists, 2 ms for one that does not)."""
    with http_from("127.0.4.1", server) as c:
        for i in range(3):
            register(c, f"known{i}")
    known: list[float] = []
    unknown: list[float] = []
    for i in range(10):
        with http_from(f"127.0.4.{10 + i}", server) as c:
            c.get("/health")  # the connection is open before timing
            for name, times in ((f"known{i % 3}", known), (f"unknown{i}", unknown)):
                start = time.perf_counter()
                r = c.post("/api/login", json={"name": name, "password": "wrong horse"})
                times.append(time.perf_counter() - start)
                assert r.status_code == 401
    ratio = statistics.median(unknown) / statistics.median(known)
    assert 0.5 < ratio < 2.0, (statistics.median(known), statistics.median(unknown))


# ------------------------------------------------------------ 2. big bodies


def _raw(server: Server, request: bytes, *, address: str, then: bytes = b"") -> bytes:
    """Send a request's head (and ``then``) on a plain socket; the answer's bytes
    (waiting up to 30 s: longer than the server's 10 s for a body)."""
    with socket.create_connection(
        ("127.0.0.1", server.port), timeout=30, source_address=(address, 0)
    ) as s:
        s.sendall(request)
        if then:
            with contextlib.suppress(OSError):  # the server may close as soon as it answers
                s.sendall(then)
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except OSError:
            pass
        return answer


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


ROUTES = [
    ("POST", "/api/login"),
    ("POST", "/api/register"),
    ("POST", "/api/guest"),
    ("POST", "/api/daily-topup"),
    ("POST", "/api/tournaments/sng/register"),
    ("GET", "/api/tables"),
    ("GET", "/health"),
    ("GET", "/"),
    ("GET", "/static/app.js"),
    ("GET", "/openapi.json"),
    ("GET", "/no/such/page"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_an_announced_huge_body_is_refused_before_it_is_read(
    server: Server, method: str, path: str
) -> None:
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 314572800\r\n\r\n"
    ).encode()
    answer = _raw(server, head, address="127.0.5.1", then=b"{" * 65536)
    assert _status(answer) == 413, answer[:300]
    assert b"request body too large" in answer


def test_a_streamed_huge_body_is_cut_off_and_memory_stays_flat(server: Server) -> None:
    """300 MB chunked to /api/login (no login needed): refused after 10 kB, and the
    server's peak memory does not move (before: 141 -> 732 MB)."""
    peak_before = server.status("VmHWM")
    head = (
        f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunk = b"%x\r\n" % (1 << 20) + b"a" * (1 << 20) + b"\r\n"
    sent = 0
    answer = b""
    with socket.create_connection(
        ("127.0.0.1", server.port), timeout=10, source_address=("127.0.5.2", 0)
    ) as s:
        s.sendall(head)
        try:
            while sent < 300:
                s.sendall(chunk)
                sent += 1
        except OSError:
            pass
        try:
            while part := s.recv(65536):
                answer += part
        except OSError:
            pass
    assert _status(answer) == 413, answer[:300]
    assert sent < 300  # the server closed the connection long before the end
    assert server.status("VmHWM") - peak_before < 30_000  # kB


def test_a_body_that_trickles_in_times_out(server: Server) -> None:
    head = (
        f"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    ).encode()
    start = time.monotonic()
    answer = _raw(server, head, address="127.0.5.3", then=b'{"name": ')
    assert _status(answer) == 408, answer[:300]
    assert 9 < time.monotonic() - start < 25


# ------------------------------------------------- 5. guests, accounts, chips


def test_guests_are_limited_per_address(server: Server) -> None:
    """Before: 10,000 guests in 35 s (100 million chips) from one address."""
    with http_from("127.0.6.1", server) as c:
        codes = [c.post("/api/guest").status_code for _ in range(63)]
        assert codes[:60] == [200] * 60
        assert codes[60:] == [429] * 3
        r = c.post("/api/guest")
        assert int(r.headers["retry-after"]) >= 1
        assert "register a name" in r.json()["error"]
    with http_from("127.0.6.2", server) as other:
        assert other.post("/api/guest").status_code == 200


def test_accounts_are_limited_per_address(server: Server) -> None:
    with http_from("127.0.6.3", server) as c:
        codes = [
            c.post(
                "/api/register", json={"name": f"farm{i}", "password": "correct horse battery"}
            ).status_code
            for i in range(22)
        ]
    assert codes == [200] * 20 + [429] * 2


def test_daily_chips_are_for_registered_players(server: Server) -> None:
    with http_from("127.0.6.4", server) as c:
        guest = c.post("/api/guest").json()["token"]
        r = c.post("/api/daily-topup", headers={"authorization": f"Bearer {guest}"})
        assert r.status_code == 403
        assert "register" in r.json()["error"]
        player = register(c, "dailyplayer")
        r = c.post("/api/daily-topup", headers={"authorization": f"Bearer {player}"})
        assert r.status_code == 200
        assert r.json()["granted"] == 2000


# --------------------------------------------------------- 9. other origins


def test_other_sites_cannot_act_for_a_logged_in_player(server: Server) -> None:
    with http_from("127.0.7.1", server) as c:
        token = register(c, "csrfvictim")
        c.cookies.set("dp_session", token)
        tries: list[dict[str, Any]] = [
            {"headers": {"origin": EVIL, "content-type": "text/plain"}, "content": b"{}"},
            {"headers": {"origin": EVIL}, "json": {}},
            {"headers": {"origin": "null"}},
            {"headers": {"sec-fetch-site": "cross-site"}},
            {"headers": {"origin": f"http://127.0.0.1:{server.port}.evil.example"}},
        ]
        for kwargs in tries:
            for path in ("/api/daily-topup", "/api/tournaments/sng/register", "/api/logout"):
                r = c.post(path, **kwargs)
                assert r.status_code == 403, (path, kwargs, r.text)
                assert "cross-origin" in r.json()["error"]
        for content_type in ("text/plain", "application/x-www-form-urlencoded"):
            r = c.post("/api/daily-topup", headers={"content-type": content_type}, content=b"a=1")
            assert r.status_code == 415, r.text
        # Nothing happened: the chips were not claimed, no registration.
        me = c.get("/api/me").json()
        assert me["balance"] == 10_000
        assert c.get("/api/tournaments").json()["tournaments"][0]["you"]["registered"] is False
        # The site's own page may (the browser sends its Origin).
        same = {"origin": f"http://127.0.0.1:{server.port}"}
        r = c.post("/api/daily-topup", headers=same)
        assert r.status_code == 200, r.text


def test_login_csrf_is_refused(server: Server) -> None:
    with http_from("127.0.7.2", server) as c:
        register(c, "loginvictim")
        body = json.dumps({"name": "loginvictim", "password": "correct horse battery"})
        r = c.post(
            "/api/login", headers={"origin": EVIL, "content-type": "text/plain"}, content=body
        )
        assert r.status_code == 403
        r = c.post("/api/login", headers={"content-type": "text/plain"}, content=body)
        assert r.status_code == 415
        assert "set-cookie" not in r.headers
        preflight = c.options(
            "/api/login",
            headers={"origin": EVIL, "access-control-request-method": "POST"},
        )
        assert "access-control-allow-origin" not in preflight.headers


@pytest.mark.parametrize("path", ["/", "/api/session", "/static/app.js", "/api/tables"])
def test_every_answer_carries_the_security_headers(server: Server, path: str) -> None:
    r = httpx.get(server.url + path, timeout=10)
    assert r.status_code == 200
    policy = r.headers["content-security-policy"]
    for directive in ("script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"):
        assert directive in policy
    assert "unsafe-eval" not in policy
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-frame-options"] == "DENY"
    if path.startswith("/api/"):
        assert r.headers["cache-control"] == "no-store"


# ------------------------------------------------------- 10. weak passwords


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("password", "top-10 common password"),
        ("12345678", "top-10 common password"),
        ("qwertyuiop", "common password"),
        ("aaaaaaaaaa", "Repeats"),
        ("drawpoker1", "too easy to guess"),
    ],
)
def test_weak_passwords_are_refused_with_a_reason(
    server: Server, password: str, reason: str
) -> None:
    with http_from("127.0.8.1", server) as c:
        r = c.post("/api/register", json={"name": "weakling", "password": password})
    assert r.status_code == 400
    assert "too easy to guess" in r.json()["error"]
    assert reason in r.json()["error"], r.json()


# -------------------------------------------------------- 8. deep JSON bodies


@pytest.mark.parametrize(
    "body",
    [
        '{"name": ' + "[" * 4000 + "]" * 4000 + ', "password": "x"}',
        '{"x": ' + "[" * 4900 + "]" * 4900 + "}",
        '{"name": "a", "password": "b", "p": ' + '{"a":' * 1600 + "1" + "}" * 1600 + "}",
        "[" * 9000,
    ],
)
@pytest.mark.parametrize("path", ["/api/login", "/api/register"])
def test_deeply_nested_bodies_are_refused_cleanly(server: Server, body: str, path: str) -> None:
    with http_from("127.0.9.1", server) as c:
        r = c.post(path, content=body.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert "body" in r.json()["error"]
    assert "Traceback" not in Path(server.log).read_text(errors="replace")
