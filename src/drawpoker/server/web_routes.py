"""Routes for the browser client: the page (``/``), its static files, the web app
manifest and the service worker (served from ``/`` so that its scope is the
whole site).

Everything the client loads lives under ``/static/`` (``src/drawpoker/web``),
with ``Cache-Control: no-cache`` so that a new release is picked up at once
(ETags keep it cheap).
"""

from __future__ import annotations

import os
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
_TYPES = {".webmanifest": "application/manifest+json", ".js": "text/javascript; charset=utf-8"}


class _Static(StaticFiles):
    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        suffix = Path(full_path).suffix
        if suffix in _TYPES:
            response.headers["content-type"] = _TYPES[suffix]
        response.headers["cache-control"] = "no-cache"
        return response


def _file(name: str) -> Route:
    path = WEB_DIR / name
    media = _TYPES.get(path.suffix)

    async def serve(request: Request) -> Response:
        headers = {"cache-control": "no-cache"}
        if name == "sw.js":
            headers["service-worker-allowed"] = "/"
        return FileResponse(path, media_type=media, headers=headers)

    return Route(f"/{name}", serve)


async def index(request: Request) -> Response:
    return HTMLResponse((WEB_DIR / "index.html").read_text("utf-8"))


async def console(request: Request) -> Response:
    """The staff's console (its data comes from ``/api/admin/``, which checks roles)."""
    return HTMLResponse((WEB_DIR / "console" / "console.html").read_text("utf-8"))


def routes() -> list[BaseRoute]:
    """The browser client's routes."""
    static = _Static(directory=WEB_DIR)
    return [
        Route("/", index),
        Route("/console", console),
        _file("manifest.webmanifest"),
        _file("sw.js"),
        Mount("/static", app=static, name="static"),
    ]
