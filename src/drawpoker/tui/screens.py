"""The lobby: cash tables and tournaments, filters, sorting (the log-in screen, the
first one, is ``login``: it does not load the lobby's widgets)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from drawpoker.tui.keys import TranslatedKeys

if TYPE_CHECKING:
    from drawpoker.tui.app import PokerApp


# (key, column label key, how a row sorts)
CASH_COLUMNS: tuple[tuple[str, str], ...] = (
    ("name", "lobby.col.name"),
    ("game", "lobby.col.game"),
    ("stakes", "lobby.col.stakes"),
    ("players", "lobby.col.players"),
    ("average_pot", "lobby.col.avg_pot"),
    ("hands_per_hour", "lobby.col.hands_hour"),
)
TOUR_COLUMNS: tuple[tuple[str, str], ...] = (
    ("name", "tour.col.name"),
    ("buy_in", "tour.col.buy_in"),
    ("starting_chips", "tour.col.chips"),
    ("registered", "tour.col.players"),
    ("prize_pool", "tour.col.prize_pool"),
    ("status", "tour.col.status"),
)
GAMES = (None, "draw", "italian")
STRUCTURES = (None, "fixed-limit", "pot-limit", "no-limit")


class LobbyScreen(TranslatedKeys, Screen[None]):
    """The tables and tournaments; Enter joins a table or registers for a tournament."""

    KEY_TEXT: ClassVar[dict[str, str]] = {
        "open": "tui.key.open", "kind": "tui.key.kind", "game": "lobby.filter.game",
        "structure": "lobby.filter.structure", "sort": "tui.key.sort",
        "unregister": "tour.unregister", "history": "nav.history",
        "back_to_table": "tui.key.my_table",
    }  # fmt: skip

    app: PokerApp

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", "Join / register", show=True, priority=True),
        Binding("t", "kind", "Cash / tournaments"),
        Binding("g", "game", "Game"),
        Binding("l", "structure", "Limit"),
        Binding("o", "sort", "Sort"),
        Binding("u", "unregister", "Unregister"),
        Binding("h", "history", "My hands"),
        Binding("b", "back_to_table", "My table"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.kind = "cash"
        self.game: str | None = None
        self.structure: str | None = None
        self.sort_by: dict[str, int] = {"cash": 0, "tournament": 0}
        self.shown: list[str] = []  # row keys in order

    def compose(self) -> ComposeResult:
        yield Static("", id="lobby-head", classes="bar")
        yield Static("", id="lobby-filters", classes="bar")
        yield DataTable(id="lobby-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="lobby-status", classes="bar")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.redraw()

    def columns(self) -> tuple[tuple[str, str], ...]:
        return CASH_COLUMNS if self.kind == "cash" else TOUR_COLUMNS

    def rows(self) -> list[dict[str, Any]]:
        app = self.app
        if self.kind == "cash":
            rows = [
                r
                for r in app.lobby_tables.values()
                if (self.game is None or r.get("game") == self.game)
                and (self.structure is None or r.get("structure") == self.structure)
            ]
        else:
            rows = [
                r
                for r in app.lobby_tournaments.values()
                if self.structure is None or r.get("structure") == self.structure
            ]
        key = self.columns()[self.sort_by[self.kind]][0]

        def sort_key(row: dict[str, Any]) -> Any:
            value = row.get(key)
            if key == "players":
                value = row.get("seats_taken", 0)
            if isinstance(value, int | float):
                return (0, -value, "")
            return (1, 0, str(value or "").lower())

        return sorted(rows, key=sort_key)

    def cells(self, row: dict[str, Any]) -> list[str]:
        t = self.app.t
        if self.kind == "cash":
            return [
                str(row.get("name", "")),
                t.t(f"game.{row.get('game')}") + " · " + t.t(f"structure.{row.get('structure')}"),
                str(row.get("stakes", "")),
                t.t("lobby.players_of", n=row.get("seats_taken", 0), of=row.get("seats_total", 0)),
                f"{row.get('average_pot', 0):,}",
                str(row.get("hands_per_hour", 0)),
            ]
        you = row.get("you") or {}
        status = t.t(f"tour.status.{row.get('status')}")
        if you.get("registered"):
            status += " · " + t.t("tour.you_in")
        return [
            f"{row.get('name', '')} ({t.t('tour.kind.' + str(row.get('kind')))})",
            t.t("tour.buy_in_fee", buy_in=row.get("buy_in", 0), fee=row.get("fee", 0)),
            f"{row.get('starting_chips', 0):,}",
            f"{row.get('registered', 0)}/{row.get('max_entries', 0)}",
            f"{row.get('prize_pool', 0):,}",
            status,
        ]

    def redraw(self) -> None:
        app = self.app
        t = app.t
        name = (app.session.account.get("name") if app.session else "") or ""
        balance = f"{app.balance:,}" if app.balance is not None else "…"
        head = f"[b]{t.t('nav.lobby')}[/b] · {name} · {t.t('account.balance')} {balance}"
        online = t.t("conn.online") if app.connection == "online" else t.t("conn.offline")
        self.query_one("#lobby-head", Static).update(f"{head} · {online}")
        tab = t.t("lobby.tab.cash") if self.kind == "cash" else t.t("lobby.tab.tournament")
        game = t.t(f"game.{self.game}") if self.game else t.t("lobby.all")
        structure = t.t(f"structure.{self.structure}") if self.structure else t.t("lobby.all")
        sort_label = t.t(self.columns()[self.sort_by[self.kind]][1])
        self.query_one("#lobby-filters", Static).update(
            f"[b]{tab}[/b] · {t.t('lobby.filter.game')}: {game} · "
            f"{t.t('lobby.filter.structure')}: {structure} · ↓ {sort_label}"
        )
        table = self.query_one(DataTable)
        rows = self.rows()
        keys = [str(r["id"]) for r in rows]
        cells = [self.cells(r) for r in rows]
        labels = [t.t(label) for _key, label in self.columns()]
        if [str(c.label) for c in table.columns.values()] != labels:
            table.clear(columns=True)
            table.add_columns(*labels)
            self.shown = []
        selected = self.selected()
        if keys != self.shown or any(
            [str(x) for x in table.get_row(k)] != c for k, c in zip(keys, cells, strict=True)
        ):
            cursor = table.cursor_row
            table.clear()
            for key, row_cells in zip(keys, cells, strict=True):
                table.add_row(*(Text(cell) for cell in row_cells), key=key)  # no markup
            self.shown = keys
            if rows:  # the cursor stays on the row it was on, wherever that row went
                row = keys.index(selected) if selected in keys else min(cursor, len(rows) - 1)
                table.move_cursor(row=row)
        empty = t.t("lobby.no_tables") if self.kind == "cash" else t.t("lobby.no_tournaments")
        status = "" if rows else empty
        if app.finished:
            from drawpoker.tui.model import finishing

            status = finishing(t, [int(p) for p in app.finished["places"]])
        self.query_one("#lobby-status", Static).update(status)

    def selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not self.shown or table.cursor_row < 0 or table.cursor_row >= len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def action_kind(self) -> None:
        self.kind = "tournament" if self.kind == "cash" else "cash"
        self.redraw()

    def action_game(self) -> None:
        self.game = GAMES[(GAMES.index(self.game) + 1) % len(GAMES)]
        self.redraw()

    def action_structure(self) -> None:
        self.structure = STRUCTURES[(STRUCTURES.index(self.structure) + 1) % len(STRUCTURES)]
        self.redraw()

    def action_sort(self) -> None:
        self.sort_by[self.kind] = (self.sort_by[self.kind] + 1) % len(self.columns())
        self.redraw()

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        self.sort_by[self.kind] = event.column_index
        self.redraw()

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        await self.action_open()

    async def action_open(self) -> None:
        key = self.selected()
        if key is None:
            return
        if self.kind == "cash":
            await self.app.open_table(key)
        else:
            await self.register(key)

    async def register(self, tid: str) -> None:
        from drawpoker.tui.net import ServerRefused

        app = self.app
        assert app.session is not None
        row = app.lobby_tournaments.get(tid, {})
        you = row.get("you") or {}
        if not you.get("registered") and not you.get("playing"):
            try:
                await app.session.register_tournament(tid)
            except ServerRefused as refused:
                if refused.status != 409:  # 409: already registered
                    self.notify(refused.message, severity="warning")
                    return
            self.notify(app.t.t("tour.registered_ok", name=row.get("name", tid)))
            await app.refresh_balance()
        app.finished = None
        await app.watch_tournament(tid)
        self.redraw()

    async def action_unregister(self) -> None:
        from drawpoker.tui.net import ServerRefused

        key = self.selected()
        app = self.app
        if self.kind != "tournament" or key is None or app.session is None:
            return
        try:
            answer = await app.session.unregister_tournament(key)
        except ServerRefused as refused:
            self.notify(refused.message, severity="warning")
            return
        name = app.lobby_tournaments.get(key, {}).get("name", key)
        self.notify(app.t.t("tour.unregistered_ok", name=name, n=answer.get("refund", 0)))
        await app.refresh_balance()
        self.redraw()

    async def action_history(self) -> None:
        from drawpoker.tui.history import HistoryScreen

        await self.app.push_screen(HistoryScreen())

    async def action_back_to_table(self) -> None:
        if self.app.current_table:
            await self.app.open_table(self.app.current_table)
