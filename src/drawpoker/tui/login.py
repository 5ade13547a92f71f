"""The log-in screen, the client's first: no network until a button is pressed.

It is drawn before anything else loads, so it imports only the Textual widgets it
shows (not the lobby's ``DataTable``, nor the protocol, the network or the engine;
``benchmarks/tui_startup.py`` measures it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Static

from drawpoker.tui.keys import TranslatedKeys

if TYPE_CHECKING:
    from drawpoker.tui.app import PokerApp


class LoginScreen(TranslatedKeys, Screen[None]):
    """Log in, register, or play as a guest."""

    KEY_TEXT: ClassVar[dict[str, str]] = {}

    app: PokerApp

    def compose(self) -> ComposeResult:
        t = self.app.t
        with Vertical(id="login-box"):
            yield Static(f"[b]{t.t('auth.title')}[/b]", id="login-title")
            yield Static(t.t("auth.intro"))
            yield Static("")
            yield Input(value=self.app.user or "", placeholder=t.t("auth.name"), id="name")
            yield Input(placeholder=t.t("auth.password"), password=True, id="password")
            with Horizontal(id="login-buttons"):
                yield Button(t.t("auth.login"), id="login", variant="primary")
                yield Button(t.t("auth.register"), id="register")
                yield Button(t.t("auth.guest"), id="guest", variant="success")
            yield Static("", id="login-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#password" if self.app.user else "#name", Input).focus()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        await self._enter(str(event.button.id))

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "name":
            self.query_one("#password", Input).focus()
        else:
            await self._enter("login")

    async def _enter(self, how: str) -> None:
        from drawpoker.tui.net import ServerRefused

        name = self.query_one("#name", Input).value.strip()
        password = self.query_one("#password", Input).value
        error = self.query_one("#login-error", Static)
        error.update(self.app.t.t("conn.connecting"))
        try:
            await self.app.enter(how, name, password)
        except ServerRefused as refused:
            t = self.app.t
            text = t.t("error.wrong_password") if refused.status == 401 else refused.message
            error.update(f"[red]{text}[/red]")
