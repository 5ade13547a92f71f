"""My hand histories (``GET /api/hands``) and a step-through replayer of one hand
(``GET /api/hands/{id}``: its events as I may see them, and who sat where): each
step applies one more event to a fresh ``TableModel`` and draws it as the table
screen does."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, RichLog, Static

from drawpoker.tui.keys import TranslatedKeys
from drawpoker.tui.model import Seat, TableModel
from drawpoker.tui.net import ServerRefused
from drawpoker.tui.render import cards_text, info_line, seat_lines

if TYPE_CHECKING:
    from drawpoker.tui.app import PokerApp


class HistoryScreen(TranslatedKeys, Screen[None]):
    """My hands, newest first; Enter replays one."""

    KEY_TEXT: ClassVar[dict[str, str]] = {"replay": "tui.key.replay", "back": "tui.key.back"}

    app: PokerApp

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "replay", "Replay", priority=True),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.hands: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        yield Static(f"[b]{self.app.t.t('history.title')}[/b]", classes="bar")
        yield DataTable(id="hands", cursor_type="row", zebra_stripes=True)
        yield Static("", id="history-status", classes="bar")
        yield Footer()

    async def on_mount(self) -> None:
        t = self.app.t
        table = self.query_one(DataTable)
        table.add_columns("#", t.t("lobby.col.name"), t.t("side.log"), "±", t.t("table.pot", n=""))
        assert self.app.session is not None
        try:
            self.hands = await self.app.session.hands()
        except ServerRefused as refused:
            self.query_one("#history-status", Static).update(refused.message)
            return
        for row in self.hands:
            if row.get("folded"):
                what = t.t("history.folded")
            elif row.get("shown"):
                what = t.t("history.showed", desc=row["shown"])
            else:
                what = " ".join(row.get("cards") or []) or t.t("history.no_cards")
            cells = (
                str(row["id"]),
                str(row.get("table_name") or row.get("table")),
                what,
                f"{int(row.get('net') or 0):+,}",
                f"{int(row.get('pot') or 0):,}",
            )
            table.add_row(*(Text(cell) for cell in cells), key=str(row["id"]))  # no markup
        if not self.hands:
            self.query_one("#history-status", Static).update(t.t("history.none"))
        table.focus()

    async def action_replay(self) -> None:
        table = self.query_one(DataTable)
        if not self.hands or not 0 <= table.cursor_row < len(self.hands):
            return
        await self.app.push_screen(ReplayScreen(str(self.hands[table.cursor_row]["id"])))

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        await self.action_replay()

    def action_back(self) -> None:
        self.app.pop_screen()


class ReplayScreen(TranslatedKeys, Screen[None]):
    """One finished hand, step by step (← →, Home, End)."""

    KEY_TEXT: ClassVar[dict[str, str]] = {
        "step(1)": "replay.forward", "step(-1)": "replay.back", "first": "replay.start",
        "last": "replay.end", "back": "tui.key.back",
    }  # fmt: skip

    app: PokerApp

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "Step forward", priority=True),
        Binding("left", "step(-1)", "Step back", priority=True),
        Binding("home", "first", "First step", priority=True),
        Binding("end", "last", "Last step", priority=True),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, hand_id: str) -> None:
        super().__init__()
        self.hand_id = hand_id
        self.events: list[dict[str, Any]] = []
        self.you: int | None = None
        self.names: dict[int, str] = {}
        self.step = 0
        self.model: TableModel | None = None

    def compose(self) -> ComposeResult:
        yield Static(f"[b]{self.app.t.t('replay.title', id=self.hand_id)}[/b]", id="replay-head",
                     classes="bar")  # fmt: skip
        with Horizontal(id="replay-body"):
            yield Static("", id="replay-table")
            yield RichLog(id="replay-log", wrap=True, markup=False, min_width=16)
        yield Static("", id="replay-step", classes="bar")
        yield Footer()

    async def on_mount(self) -> None:
        assert self.app.session is not None
        try:
            detail, seats = await self.app.session.hand(self.hand_id)
        except ServerRefused as refused:
            self.query_one("#replay-step", Static).update(refused.message)
            return
        self.events = [e for e in detail.get("events", []) if isinstance(e, dict)]
        self.you = seats.get("you")
        self.names = {int(k): str(v) for k, v in (seats.get("names") or {}).items()}
        self.step = 0
        self.show()

    def state_at(self, step: int) -> TableModel:
        """The table after the first ``step`` events."""
        model = TableModel(table=self.hand_id, t=self.app.t, name=self.hand_id)
        model.you = self.you
        started = next((e for e in self.events if e.get("type") == "HandStarted"), None)
        if started is not None:
            model.max_seats = max([6, *(int(s) for s, _ in started.get("stacks", []))])
            model.seats = {
                int(s): Seat(seat=int(s), name=self.names.get(int(s), "?"), stack=int(chips))
                for s, chips in started.get("stacks", [])
            }
        for entry in self.events[:step]:
            model.apply(entry, None)
        return model

    def show(self) -> None:
        t = self.app.t
        model = self.model = self.state_at(self.step)
        ascii_mode = self.app.ascii_mode
        body = seat_lines(model, ascii_mode)
        body.append_text(info_line(model))
        cards = model.my_cards()
        if cards:
            body.append("\n" + t.t("table.your_cards") + ": ")
            body.append_text(cards_text(cards, ascii_mode))
        self.query_one("#replay-table", Static).update(body)
        log = self.query_one("#replay-log", RichLog)
        log.clear()
        for line in model.log:
            log.write(line)
        label = (
            t.t("replay.begin")
            if self.step == 0
            else t.t("replay.step", n=self.step, of=len(self.events))
        )
        self.query_one("#replay-step", Static).update(label)

    def action_step(self, delta: int) -> None:
        self.step = max(0, min(len(self.events), self.step + delta))
        self.show()

    def action_first(self) -> None:
        self.step = 0
        self.show()

    def action_last(self) -> None:
        self.step = len(self.events)
        self.show()

    def action_back(self) -> None:
        self.app.pop_screen()
