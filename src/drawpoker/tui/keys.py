"""The footer's key descriptions in the interface's language: each screen names the
catalogue key of each of its actions (``KEY_TEXT``), and its active bindings are
handed to the footer with the description translated."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from textual.binding import ActiveBinding
from textual.screen import Screen

APP_KEYS = {"language": "lang.label", "quit": "tui.key.quit"}


class TranslatedKeys(Screen[Any]):
    """A screen whose footer speaks the catalogue's language."""

    KEY_TEXT: ClassVar[dict[str, str]] = {}  # action -> catalogue key

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = super().active_bindings
        t = getattr(self.app, "t", None)
        if t is None:
            return bindings
        out: dict[str, ActiveBinding] = {}
        for key, active in bindings.items():
            text = self.KEY_TEXT.get(active.binding.action) or APP_KEYS.get(active.binding.action)
            if text:
                binding = dataclasses.replace(active.binding, description=t.t(text))
                active = active._replace(binding=binding)
            out[key] = active
        return out
