"""The terminal client's application: one websocket and one session, shared by the
lobby, the table screens and the hand histories.

Frames from the server are handled here: ``ok`` and ``error`` answer requests by
their ``id``; a ``snapshot`` or an ``event`` goes to its table's ``TableModel``
(and the screen showing it redraws); a tournament channel's ``YourTable`` opens
the table, a table's private ``Moved`` follows the player to the new one and
``Finished`` shows the place. A frame or entry of an unknown type is logged and
kept in ``unknown``, never fatal. The first screen (log in) needs no network and
none of the heavy modules: they load when the player logs in.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from drawpoker.tui.i18n import Catalogue, pick_language
from drawpoker.tui.login import LoginScreen

if TYPE_CHECKING:
    from drawpoker.protocol.client import ClientMessage
    from drawpoker.tui.model import TableModel
    from drawpoker.tui.net import Link, Session

log = logging.getLogger("drawpoker.tui")

REQUEST_TIMEOUT_S = 10.0


class PokerApp(App[int]):
    """``drawpoker play``."""

    TITLE = "drawpoker"
    ENABLE_COMMAND_PALETTE = False  # the footer lists every key; ctrl+p is not needed
    CSS = """
    Screen { layout: vertical; }
    .bar { height: 1; }
    Button { height: 1; min-width: 6; border: none; margin: 0 1 0 0; padding: 0 1; }
    Input { height: 1; border: none; padding: 0 1; }
    #login-box { width: 60; height: auto; padding: 1 2; }
    #login-box Input { margin-bottom: 1; background: $boost; }
    #login-buttons { height: 1; margin-top: 1; }
    #lobby-table { height: 1fr; }
    #middle { height: 1fr; }
    #left { width: 1fr; }
    #right { width: 32; }
    #seats { height: auto; }
    #info { height: auto; min-height: 1; }
    #cards { height: 1; margin-top: 1; }
    #actions { height: 1; margin-top: 1; }
    #notice { height: auto; min-height: 1; color: $warning; }
    #log { height: 1fr; border-left: solid $primary; }
    #chat { height: 6; border-left: solid $accent; }
    #chat-input { height: 1; background: $boost; }
    CardWidget { width: 6; height: 1; margin-right: 1; }
    #replay-body { height: 1fr; }
    #sit-box { width: 50; height: auto; padding: 1 2; border: round $primary; background: $panel; }
    SitScreen { align: center middle; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+l", "language", "Language", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        server: str = "http://127.0.0.1:8000",
        *,
        user: str | None = None,
        lang: str | None = None,
        ascii_mode: bool = False,
        first_screen_only: bool = False,
    ) -> None:
        super().__init__()
        self.server = server
        self.user = user
        self.ascii_mode = ascii_mode
        self.first_screen_only = first_screen_only
        self.t = Catalogue(pick_language(lang))
        self.session: Session | None = None
        self.link: Link | None = None
        self.tables: dict[str, TableModel] = {}
        self.lobby_tables: dict[str, dict[str, Any]] = {}
        self.lobby_tournaments: dict[str, dict[str, Any]] = {}
        self.balance: int | None = None
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.unknown: list[dict[str, Any]] = []
        self.tournament_log: list[str] = []
        self.finished: dict[str, Any] | None = None
        self.current_table: str | None = None
        self.opened: list[str] = []  # the tables shown, in order (a move adds one)
        self.connection = "offline"
        self.first_screen_at: float | None = None  # time.time() of the first screen drawn
        self._action_prefix = os.urandom(3).hex()  # as secrets.token_hex(3), not importing it
        self._actions = 0

    # ------------------------------------------------------------------ start

    def on_mount(self) -> None:
        self.push_screen(LoginScreen())
        if self.first_screen_only:
            self.call_after_refresh(self._first_screen_painted)

    def _first_screen_painted(self) -> None:
        """``--first-screen`` (benchmarks/startup.py): note when the log-in screen has
        been drawn, and stop."""
        self.first_screen_at = time.time()
        self.exit(0)

    async def enter(self, how: str, name: str = "", password: str = "") -> None:
        """Log in (``login``), register (``register``) or take a guest account, then
        open the websocket and the lobby. Raises ``ServerRefused``."""
        from drawpoker.tui.net import Link, Session

        if self.session is None:
            self.session = Session(self.server)
        if how == "guest":
            await self.session.guest()
        elif how == "register":
            await self.session.register(name, password)
        else:
            await self.session.login(name, password)
        self.link = Link(self.session, self.on_frame, self.on_connection, self._resume)
        self.link.lobby = {}
        self.link.start()
        await self.refresh_balance()
        from drawpoker.tui.screens import LobbyScreen

        self.switch_screen(LobbyScreen())

    async def refresh_balance(self) -> None:
        from drawpoker.tui.net import ServerRefused

        if self.session is None:
            return
        try:
            me = await self.session.me()
        except ServerRefused as error:
            log.info("balance: %s", error)
            return
        self.balance = int(me.get("balance") or 0)

    def _resume(self) -> list[tuple[str, int | None, str | None]]:
        return [(tid, model.v, model.epoch) for tid, model in self.tables.items()]

    async def on_unmount(self) -> None:
        if self.link is not None:
            await self.link.close()
        if self.session is not None:
            await self.session.close()

    # ------------------------------------------------------------------ sending

    def action_id(self) -> str:
        self._actions += 1
        return f"{self._action_prefix}-{self._actions}"

    async def send(self, message: ClientMessage) -> dict[str, Any]:
        """Send a message with an ``id`` and wait for the ``ok`` or ``error`` answering
        it (``{"type": "error", "code": "offline"}`` when there is no connection)."""
        import msgspec

        assert self.link is not None
        ref = self.link.next_id()
        message = msgspec.structs.replace(message, id=ref)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[ref] = future
        try:
            if not await self.link.send(message):
                return {"type": "error", "code": "offline", "message": self.t.t("error.offline")}
            return await asyncio.wait_for(future, REQUEST_TIMEOUT_S)
        except TimeoutError:
            return {"type": "error", "code": "timeout", "message": self.t.t("error.offline")}
        finally:
            self.pending.pop(ref, None)

    async def say(self, message: ClientMessage) -> bool:
        """Send and report a refusal as a notification; True when done."""
        answer = await self.send(message)
        if answer.get("type") == "error":
            code = str(answer.get("code", ""))
            key = f"error.{code}"
            text = self.t.t(key) if self.t.has(key) else str(answer.get("message", code))
            self.notify(text, severity="warning")
            return False
        return True

    # ------------------------------------------------------------------ receiving

    def on_connection(self, state: str) -> None:
        self.connection = state
        self._redraw()

    def on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind in ("ok", "error"):
            future = self.pending.get(str(frame.get("ref")))
            if future is not None and not future.done():
                future.set_result(frame)
            elif kind == "error":
                log.info("error: %s", frame)
            return
        if kind == "welcome" or kind == "pong":
            return
        if kind == "lobby":
            self._lobby(frame)
        elif kind == "snapshot":
            model = self.model(str(frame["table"]))
            model.load_snapshot(frame["state"], int(frame["v"]))
        elif kind == "event":
            self._event(str(frame.get("table")), frame.get("event") or {}, frame.get("v"))
        else:
            log.warning("a frame this client does not know: %.300s", frame)
            self.unknown.append(frame)
            return
        self._redraw()

    def model(self, table: str) -> TableModel:
        from drawpoker.tui.model import TableModel

        model = self.tables.get(table)
        if model is None:
            model = self.tables[table] = TableModel(table=table, t=self.t)
            if self.session is not None:
                model.me = str(self.session.account.get("name") or "")
        return model

    def _lobby(self, frame: dict[str, Any]) -> None:
        if frame.get("full"):
            self.lobby_tables.clear()
            self.lobby_tournaments.clear()
        for rows, kind in ((self.lobby_tables, "tables"), (self.lobby_tournaments, "tournaments")):
            for row in frame.get(kind, []):
                if row.get("status") == "closed":  # an operator closed or cancelled it
                    rows.pop(str(row["id"]), None)
                else:
                    rows[str(row["id"])] = row

    def _event(self, table: str, entry: dict[str, Any], v: Any) -> None:
        kind = entry.get("type")
        model = self.tables.get(table)
        if model is not None:
            model.apply(entry, int(v) if isinstance(v, int) else None)
            if model.unknown:
                self.unknown.extend(model.unknown)
                model.unknown.clear()
        if kind == "YourTable" and entry.get("table"):
            self.call_later(self.open_table, str(entry["table"]))
        elif kind == "Moved":
            note = self.t.t("tour.moved", n=entry.get("table_no"))
            self.tournament_log.append(note)
            self.notify(note)
            self.call_later(self.open_table, str(entry["table"]), note)
        elif kind == "Finished":
            finished = {"places": list(entry.get("places", [])), "prize": entry.get("prize")}
            if finished == self.finished:  # told on the table and on the tournament's channel
                return
            self.finished = finished
            from drawpoker.tui.model import finishing

            note = finishing(self.t, [int(p) for p in self.finished["places"]])
            self.tournament_log.append(note)
            self.notify(note, timeout=10)
        elif model is None:
            from drawpoker.tui.model import describe

            line = describe(self.t, entry, lambda seat: "?")
            if line:
                self.tournament_log.append(line)

    def _redraw(self) -> None:
        if not self.screen_stack:
            return
        redraw = getattr(self.screen, "redraw", None)
        if callable(redraw):
            redraw()

    # ------------------------------------------------------------------ places

    async def open_table(self, table: str, notice: str = "") -> None:
        """Watch a table (subscribe) and show it."""
        from drawpoker.protocol.client import Subscribe, Unsubscribe
        from drawpoker.tui.table import TableScreen

        screen = self.screen
        if isinstance(screen, TableScreen) and screen.table == table:
            return  # already there (a repeated YourTable after a reconnection)
        self.model(table)  # the screen draws it from the first frame on
        old = self.current_table
        self.current_table = table
        if not self.opened or self.opened[-1] != table:
            self.opened.append(table)
        if isinstance(self.screen, TableScreen):
            self.pop_screen()
        if old and old != table and self.tables.get(old) and self.tables[old].tournament:
            await self.say(Unsubscribe(table=old))
            self.tables.pop(old, None)
        await self.push_screen(TableScreen(table, notice))
        await self.say(Subscribe(table=table))

    async def watch_tournament(self, tid: str) -> dict[str, Any]:
        from drawpoker.protocol.client import Subscribe

        assert self.link is not None
        self.link.channels.add(tid)
        answer = await self.send(Subscribe(table=tid))
        detail = answer.get("detail") or {}
        if answer.get("type") == "ok" and detail.get("table"):
            await self.open_table(str(detail["table"]))
        return answer

    def action_language(self) -> None:
        self.t.next_language()
        self.notify(self.t.t("lang.label") + ": " + self.t.lang)
        self.call_later(self._recompose)

    async def _recompose(self) -> None:
        recompose = getattr(self.screen, "recompose", None)
        if callable(recompose):
            await recompose()
        self._redraw()
