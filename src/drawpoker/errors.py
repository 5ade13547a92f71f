"""The exceptions drawpoker raises: one root, narrow subclasses."""

from __future__ import annotations


class DrawPokerError(Exception):
    """Root of every error drawpoker raises on purpose."""


class InvalidCards(DrawPokerError, ValueError):
    """A card token that is not a card, or a card given twice."""


class InvalidDeck(DrawPokerError, ValueError):
    """A deck order or seed that cannot be used."""


class InvalidConfig(DrawPokerError, ValueError):
    """A rules configuration that cannot be played; the message names the field."""


class InvalidAction(DrawPokerError, ValueError):
    """A malformed action: wrong shape, unknown kind, bad amount type."""


class IllegalAction(DrawPokerError, ValueError):
    """A well-formed action that is not allowed now: wrong turn, amount out of range."""
