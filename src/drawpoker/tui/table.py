"""A table: the seats, the pot and the clock drawn in text, my cards (click or
1–5 to mark them for the draw), the actions by key or mouse, pre-actions, the
hand log and the chat.

Keys: ``f`` fold, ``c`` check or call, ``r`` bet or raise (to the amount typed
with the digits, else the minimum), digits type the amount while it is my turn
to bet and mark cards 1–5 otherwise, ``d`` discard the marked cards, ``p``
stand pat; out of turn ``f`` holds check/fold, ``c`` call any, ``d``/``p`` the
draw (R25) and ``x`` drops the held pre-action. ``s`` sits down, ``L`` leaves,
``i`` sits in again, ``t`` chats, ``escape`` goes back to the lobby.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, RichLog, Static

from drawpoker.protocol.client import Act, Chat, Draw, Leave, PreAction, Sit, SitIn
from drawpoker.tui.keys import TranslatedKeys
from drawpoker.tui.model import finishing
from drawpoker.tui.render import as_text, asciify, card_text, header_line, info_line, seat_lines

if TYPE_CHECKING:
    from drawpoker.tui.app import PokerApp
    from drawpoker.tui.model import TableModel

BETTING = ("pre-draw", "post-draw")


class CardWidget(Static):
    """One of my cards; a click marks it for the draw (or unmarks it)."""

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"card{index + 1}")
        self.index = index

    async def on_click(self, event: events.Click) -> None:
        screen = self.screen
        if isinstance(screen, TableScreen):
            await screen.toggle_mark(self.index)


class TableScreen(TranslatedKeys, Screen[None]):
    KEY_TEXT: ClassVar[dict[str, str]] = {
        "fold": "action.fold", "call": "tui.key.call", "raise": "tui.key.raise",
        "discard": "tui.key.discard", "pat": "action.stand_pat", "clear": "tui.key.clear",
        "sit": "table.sit", "sit_in": "table.sit_in", "leave": "table.leave",
        "chat": "side.chat", "history": "nav.history", "lobby": "nav.lobby",
    }  # fmt: skip

    app: PokerApp

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "fold", "Fold"),
        Binding("c", "call", "Check/Call"),
        Binding("r", "raise", "Bet/Raise"),
        Binding("d", "discard", "Discard"),
        Binding("p", "pat", "Stand pat"),
        Binding("x", "clear", "Clear pre-action", show=False),
        Binding("s", "sit", "Sit"),
        Binding("i", "sit_in", "Sit in", show=False),
        Binding("L", "leave", "Leave"),
        Binding("t", "chat", "Chat"),
        Binding("h", "history", "My hands", show=False),
        Binding("escape", "lobby", "Lobby"),
    ]

    def __init__(self, table: str, notice: str = "") -> None:
        super().__init__()
        self.table = table
        self.amount = ""  # digits typed for a bet or raise
        self.notice = notice
        self._logged = 0  # lines of the model's log already written
        self._chatted = 0

    @property
    def model(self) -> TableModel:
        return self.app.model(self.table)

    def compose(self) -> ComposeResult:
        t = self.app.t
        yield Static("", id="header", classes="bar")
        with Horizontal(id="middle"):
            with Vertical(id="left"):
                yield Static("", id="seats")
                yield Static("", id="info")
                with Horizontal(id="cards"):
                    for i in range(5):
                        yield CardWidget(i)
                with Horizontal(id="actions"):
                    yield Button(t.t("action.fold"), id="fold", variant="error")
                    yield Button(t.t("action.check"), id="call", variant="primary")
                    yield Button(t.t("action.bet", n=""), id="raise", variant="warning")
                    yield Button(t.t("action.discard.other", n=""), id="discard")
                    yield Button(t.t("action.stand_pat"), id="pat")
                    yield Button(t.t("table.sit"), id="sit", variant="success")
                yield Static("", id="notice")
            with Vertical(id="right"):
                yield RichLog(id="log", wrap=True, markup=False, min_width=16)
                yield RichLog(id="chat", wrap=True, markup=False, min_width=16)
                yield Input(placeholder=t.t("chat.placeholder"), id="chat-input", max_length=280)
        yield Footer()

    def on_mount(self) -> None:
        self._logged = 0
        self._chatted = 0
        self.set_interval(0.5, self.redraw)
        self.redraw()

    # ------------------------------------------------------------------ drawing

    def redraw(self) -> None:
        if not self.is_attached:
            return
        app = self.app
        model = self.model
        t = app.t
        ascii_mode = app.ascii_mode
        header = header_line(model)
        header.append(" · ")
        header.append(
            t.t("conn.online") if app.connection == "online" else t.t("conn.offline"),
            style="green" if app.connection == "online" else "bold red",
        )
        plain = asciify if ascii_mode else as_text
        self.query_one("#header", Static).update(plain(header))
        self.query_one("#seats", Static).update(plain(seat_lines(model, ascii_mode)))
        self.query_one("#info", Static).update(plain(info_line(model)))
        cards = model.my_cards() if model.in_hand else []
        for i in range(5):
            widget = self.query_one(f"#card{i + 1}", CardWidget)
            if i < len(cards):
                text = Text(f"{i + 1}", style="dim")
                text.append_text(card_text(cards[i], ascii_mode, marked=i in model.marks))
                widget.update(text)
            else:
                widget.update("")
        self._buttons(model)
        notice = self.notice
        if model.finished:
            notice = finishing(t, [int(p) for p in model.finished["places"]])
            if model.finished.get("prize"):
                notice += " " + t.t("tour.your_prize", n=model.finished["prize"])
        elif self.amount:
            notice = f"{t.t('action.amount')}: {self.amount}"
        elif (
            (mine := model.seats.get(model.you or 0)) and mine.sitting_out and not model.tournament
        ):
            notice = t.t("table.you_sit_out") + " [i]"
        self.query_one("#notice", Static).update(plain(notice))
        log = self.query_one("#log", RichLog)
        if self._logged > len(model.log):  # a snapshot rebuilt the log
            log.clear()
            self._logged = 0
        for line in model.log[self._logged :]:
            log.write(plain(line))
        self._logged = len(model.log)
        chat = self.query_one("#chat", RichLog)
        if self._chatted > len(model.chat):
            chat.clear()
            self._chatted = 0
        for who, said in model.chat[self._chatted :]:
            chat.write(Text.assemble((who, "bold"), ": ", said))
        self._chatted = len(model.chat)

    def _buttons(self, model: TableModel) -> None:
        t = self.app.t
        legal = model.legal if model.my_turn else None
        street = model.street
        seated = model.you is not None
        show: dict[str, str | None] = {"fold": None, "call": None, "raise": None,
                                       "discard": None, "pat": None, "sit": None}  # fmt: skip
        if not seated:
            if model.tournament is None and model.free_seats():
                show["sit"] = t.t("table.sit")
        elif legal is not None and legal.get("draw"):
            n = len(model.marks)
            if n:
                show["discard"] = t.t(
                    "action.discard.one" if n == 1 else "action.discard.other", n=n
                )
            show["pat"] = t.t("action.stand_pat")
        elif legal is not None:
            if legal.get("fold"):
                show["fold"] = t.t("action.fold")
            if legal.get("check"):
                show["call"] = t.t("action.check")
            elif legal.get("call"):
                key = "action.call_all_in" if legal.get("call_all_in") else "action.call"
                show["call"] = t.t(key, n=legal["call"])
            if legal.get("max_to"):
                to = self._raise_to(legal)
                label = "action.raise" if self._raise_kind(legal) == "raise" else "action.bet"
                show["raise"] = t.t(label, n=to)
        elif model.in_hand and street in BETTING:
            show["fold"] = t.t("pre.check_fold")
            show["call"] = t.t("pre.call_any")
        elif model.in_hand and street == "draw":
            mine = model.hand_seat(model.you or 0)
            if mine is not None and mine.get("drew") is None:
                n = len(model.marks)
                show["discard"] = t.t("pre.draw.one" if n == 1 else "pre.draw.other", n=n)
                show["pat"] = t.t("pre.draw_pat")
        for key, shown in show.items():
            button = self.query_one(f"#{key}", Button)
            button.display = shown is not None
            if shown is not None and str(button.label) != shown:
                button.label = shown

    # ------------------------------------------------------------------ actions

    def _raise_kind(self, legal: dict[str, Any]) -> str:
        return "raise" if legal.get("call") or legal.get("bet_label") == "raise" else "bet"

    def _raise_to(self, legal: dict[str, Any]) -> int:
        low, high = int(legal.get("min_to") or 0), int(legal.get("max_to") or 0)
        wanted = int(self.amount) if self.amount else low
        return max(low, min(high, wanted))

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        action = getattr(self, f"action_{event.button.id}", None)
        if action is not None:
            await action()

    async def on_key(self, event: events.Key) -> None:
        if isinstance(self.focused, Input):
            return
        model = self.model
        legal = model.legal if model.my_turn else None
        betting = legal is not None and not legal.get("draw") and bool(legal.get("max_to"))
        if event.character and event.character.isdigit():
            event.stop()
            if betting:
                self.amount = (self.amount + event.character)[:12]
                self.redraw()
            elif event.character in "12345":
                await self.toggle_mark(int(event.character) - 1)
        elif event.key == "backspace" and self.amount:
            event.stop()
            self.amount = self.amount[:-1]
            self.redraw()

    async def toggle_mark(self, index: int) -> None:
        model = self.model
        if not model.in_hand or model.street not in ("pre-draw", "draw"):
            return
        mine = model.hand_seat(model.you or 0)
        if mine is not None and mine.get("drew") is not None:
            return  # R27: after my draw nothing can be marked
        if index >= len(model.my_cards()):
            return
        model.marks ^= {index}
        self.redraw()
        held = model.pre_action or {}
        if held.get("pre") == "draw" and not model.my_turn:  # keep the held draw in step
            await self._pre("draw", model.marked_cards())

    async def _act(self, action: str, amount: int | None = None) -> None:
        model = self.model
        sent = await self.app.say(
            Act(table=self.table, hand_id=model.legal_hand, action_id=self.app.action_id(),
                action=action, amount=amount)  # type: ignore[arg-type]
        )  # fmt: skip
        if sent:
            self.amount = ""
        self.redraw()

    async def _pre(self, pre: str, discard: list[str] | None = None) -> None:
        model = self.model
        if model.hand is None:
            return
        message = PreAction(table=self.table, hand_id=model.hand.hand_id, pre=pre,  # type: ignore[arg-type]
                            discard=list(discard or []))  # fmt: skip
        if await self.app.say(message):
            model.pre_action = None if pre == "clear" else {"pre": pre, "discard": discard or []}
        self.redraw()

    async def action_fold(self) -> None:
        model = self.model
        if model.my_turn and model.legal and model.legal.get("fold"):
            await self._act("fold")
        elif model.in_hand and model.street in BETTING and not model.my_turn:
            held = (model.pre_action or {}).get("pre")
            await self._pre("clear" if held == "check_fold" else "check_fold")

    async def action_call(self) -> None:
        model = self.model
        legal = model.legal if model.my_turn else None
        if legal is not None and not legal.get("draw"):
            if legal.get("check"):
                await self._act("check")
            elif legal.get("call"):
                await self._act("call")
        elif model.in_hand and model.street in BETTING and not model.my_turn:
            held = (model.pre_action or {}).get("pre")
            await self._pre("clear" if held == "call_any" else "call_any")

    async def action_raise(self) -> None:
        model = self.model
        legal = model.legal if model.my_turn else None
        if legal is not None and legal.get("max_to"):
            await self._act(self._raise_kind(legal), self._raise_to(legal))

    async def _draw(self, discard: list[str]) -> None:
        model = self.model
        legal = model.legal if model.my_turn else None
        if legal is not None and legal.get("draw"):
            message = Draw(table=self.table, hand_id=model.legal_hand,
                           action_id=self.app.action_id(), discard=discard)  # fmt: skip
            await self.app.say(message)  # my Discarded or StoodPat ends the turn
            self.redraw()
        elif model.in_hand and model.street in ("pre-draw", "draw"):
            await self._pre("draw", discard)

    async def action_discard(self) -> None:
        cards = self.model.marked_cards()
        if cards:
            await self._draw(cards)

    async def action_pat(self) -> None:
        await self._draw([])

    async def action_clear(self) -> None:
        await self._pre("clear")

    def action_chat(self) -> None:
        self.query_one("#chat-input", Input).focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            await self.app.say(Chat(table=self.table, text=text[:280]))
        self.set_focus(None)

    async def action_lobby(self) -> None:
        if isinstance(self.focused, Input):
            self.set_focus(None)
            return
        self.app.pop_screen()

    async def action_sit(self) -> None:
        model = self.model
        if model.you is not None or model.tournament is not None or not model.free_seats():
            return
        await self.app.push_screen(SitScreen(self.table), self._sit_answer)

    async def _sit_answer(self, choice: tuple[int, int] | None) -> None:
        if choice is None:
            return
        seat, buy_in = choice
        if await self.app.say(Sit(table=self.table, seat=seat, buy_in=buy_in)):
            self.model.sat_at(seat)
            await self.app.refresh_balance()
        self.redraw()

    async def action_sit_in(self) -> None:
        model = self.model
        seat = model.seats.get(model.you or 0)
        if seat is not None and seat.sitting_out and model.tournament is None:
            await self.app.say(SitIn(table=self.table))

    async def action_leave(self) -> None:
        model = self.model
        if model.you is None or model.tournament is not None:
            return
        if await self.app.say(Leave(table=self.table)):
            self.notify(self.app.t.t("table.leaving"))
            await self.app.refresh_balance()

    async def action_history(self) -> None:
        from drawpoker.tui.history import HistoryScreen

        await self.app.push_screen(HistoryScreen())


class SitScreen(TranslatedKeys, ModalScreen[tuple[int, int] | None]):
    """The seat and the buy-in."""

    KEY_TEXT: ClassVar[dict[str, str]] = {"cancel": "common.cancel"}

    app: PokerApp

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, table: str) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> ComposeResult:
        app = self.app
        t = app.t
        model = app.model(self.table)
        seat = model.free_seats()[0]
        high = model.max_buy_in
        if app.balance is not None:
            high = min(high, app.balance)
        with Vertical(id="sit-box"):
            yield Static(f"[b]{t.t('table.sit_title', n=seat)}[/b]")
            yield Static(t.t("table.buy_in_range", min=model.min_buy_in, max=model.max_buy_in))
            yield Static(t.t("seat.number", n=""))
            yield Input(str(seat), id="sit-seat", type="integer")
            yield Static(t.t("table.buy_in"))
            yield Input(str(max(high, model.min_buy_in)), id="sit-buy-in", type="integer")
            with Horizontal(classes="bar"):
                yield Button(t.t("table.sit_down"), id="sit-ok", variant="success")
                yield Button(t.t("common.cancel"), id="sit-cancel")

    def on_mount(self) -> None:
        self.query_one("#sit-buy-in", Input).focus()

    def _choice(self) -> tuple[int, int] | None:
        try:
            seat = int(self.query_one("#sit-seat", Input).value)
            buy_in = int(self.query_one("#sit-buy-in", Input).value)
        except ValueError:
            return None
        return seat, buy_in

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self._choice() if event.button.id == "sit-ok" else None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(self._choice())

    def action_cancel(self) -> None:
        self.dismiss(None)
