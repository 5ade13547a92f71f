"""A refusal the server sends back as an ``error`` frame (or an HTTP status)."""

from __future__ import annotations

from drawpoker.errors import DrawPokerError


class TableError(DrawPokerError, ValueError):
    """A request an actor refuses; ``code`` is machine-readable. Nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
