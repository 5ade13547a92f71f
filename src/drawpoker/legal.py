"""What the player to act may do now: ``LegalActions``.

A plain class with final attributes rather than a frozen dataclass: the engine
builds one for every turn, and compiled (``drawpoker._native``) it is a native
class, built in a few instructions and read-only at run time (mypy enforces
``Final`` on the Python source). It compares, hashes and prints by value.
"""

from __future__ import annotations

from typing import Any, Final

from drawpoker.cards import format_cards
from drawpoker.events import Street

_FIELDS = (
    "seat",
    "street",
    "fold",
    "check",
    "call",
    "call_all_in",
    "min_to",
    "max_to",
    "bet_label",
    "draw",
    "max_discard",
    "hand",
    "ask_openers",
    "opener",
    "penalty",
)


class LegalActions:
    """Exactly what the player to act may do now.

    Betting: ``fold`` and ``check`` are allowed or not; ``call`` is the chips a
    call adds (0: no call); a bet or raise may go TO any total from ``min_to`` to
    ``max_to`` (both 0: none allowed; equal in fixed limit). ``bet_label`` says
    what the wager is called: bet, raise, open or complete. The draw: discard
    up to ``max_discard`` cards of ``hand``, or stand pat. At the end of a hand
    played with openers on request (R48, street ``openers``): ``ask_openers`` —
    ask to see the openers of seat ``opener`` or decline; an opener found without
    openers pays ``penalty`` (already capped by the opener's stack).
    """

    __slots__ = _FIELDS

    def __init__(
        self,
        seat: int,
        street: Street,
        fold: bool = False,
        check: bool = False,
        call: int = 0,
        call_all_in: bool = False,
        min_to: int = 0,
        max_to: int = 0,
        bet_label: str = "",
        draw: bool = False,
        max_discard: int = 0,
        hand: tuple[int, ...] = (),
        ask_openers: bool = False,
        opener: int = 0,
        penalty: int = 0,
    ) -> None:
        self.seat: Final = seat
        self.street: Final = street
        self.fold: Final = fold
        self.check: Final = check
        self.call: Final = call
        self.call_all_in: Final = call_all_in
        self.min_to: Final = min_to
        self.max_to: Final = max_to
        self.bet_label: Final = bet_label
        self.draw: Final = draw
        self.max_discard: Final = max_discard
        self.hand: Final = hand
        self.ask_openers: Final = ask_openers
        self.opener: Final = opener
        self.penalty: Final = penalty

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in _FIELDS])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LegalActions):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        pairs = ", ".join(f"{n}={v!r}" for n, v in zip(_FIELDS, self._values(), strict=True))
        return f"LegalActions({pairs})"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (cards as text)."""
        data = dict(zip(_FIELDS, self._values(), strict=True))
        data["street"] = str(self.street)
        data["hand"] = format_cards(self.hand).split() if self.hand else []
        return data

    def describe(self) -> str:
        """``fold, call 3, raise to 12-24``."""
        if self.draw:
            return f"stand pat or discard 1–{self.max_discard}"
        if self.ask_openers:
            return f"ask to see the openers of seat {self.opener} or decline"
        parts = []
        if self.fold:
            parts.append("fold")
        if self.check:
            parts.append("check")
        if self.call:
            parts.append(f"call {self.call}" + (" (all in)" if self.call_all_in else ""))
        if self.max_to:
            to = "" if self.bet_label in ("bet", "open") else " to"
            span = (
                f"{self.min_to}" if self.min_to == self.max_to else f"{self.min_to}–{self.max_to}"
            )
            parts.append(f"{self.bet_label}{to} {span}")
        return ", ".join(parts)
