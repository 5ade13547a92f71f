"""The web client's files as the server serves them: the page, its modules, the
manifest and the service worker (no browser needed)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from .helpers import ROOT

WEB = ROOT / "src" / "drawpoker" / "web"


def test_the_page_loads_its_modules_and_manifest(server: Any) -> None:
    page = httpx.get(server.url + "/", timeout=10)
    assert page.status_code == 200
    assert '<script type="module" src="/static/app.js">' in page.text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page.text
    app = httpx.get(server.url + "/static/app.js", timeout=10)
    assert app.headers["content-type"].startswith("text/javascript")
    assert app.headers["cache-control"] == "no-cache"
    # Every module imported by another is served.
    for path in WEB.glob("*.js"):
        for name in re.findall(r'from "\./([\w.]+)"', path.read_text("utf-8")):
            assert httpx.get(f"{server.url}/static/{name}", timeout=10).status_code == 200, name


def test_the_app_is_installable(server: Any) -> None:
    response = httpx.get(server.url + "/manifest.webmanifest", timeout=10)
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"].startswith("/")
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert httpx.get(server.url + icon["src"], timeout=10).status_code == 200
    worker = httpx.get(server.url + "/sw.js", timeout=10)
    assert worker.status_code == 200
    assert worker.headers["service-worker-allowed"] == "/"
    # Everything the service worker keeps for offline start exists.
    shell = json.loads(
        re.search(r"const SHELL = (\[.*?\]);", worker.text, re.S).group(1).replace(",\n]", "]")
    )
    modules = {f"/static/{p.name}" for p in WEB.glob("*.js")} - {"/static/sw.js"}
    assert modules <= set(shell), modules - set(shell)
    assert {f"/static/i18n/{p.name}" for p in (WEB / "i18n").glob("*.json")} <= set(shell)
    for path in shell:
        assert httpx.get(server.url + path, timeout=10).status_code == 200, path


def test_session_answers_a_newcomer_without_an_error(server: Any) -> None:
    nobody = httpx.get(server.url + "/api/session", timeout=10)
    assert nobody.status_code == 200
    assert nobody.json() == {"account": None}
    guest = httpx.post(server.url + "/api/guest", timeout=10).json()
    me = httpx.get(server.url + "/api/session", cookies={"dp_session": guest["token"]}).json()
    assert me["name"] == guest["name"]
    assert me["balance"] > 0
