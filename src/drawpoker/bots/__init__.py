"""Bots that play 5-Card Draw through the same interface as humans.

``make_bot(name, seed=...)`` builds one by name: ``random``, ``calling-station``,
``tag`` or ``shark`` (strongest). See ``docs/bots.md``.
"""

from __future__ import annotations

from drawpoker.bots.base import Bot
from drawpoker.bots.shark import Shark
from drawpoker.bots.simple import CallingStation, RandomBot, TightAggressive
from drawpoker.errors import DrawPokerError

BOTS: dict[str, type[Bot]] = {
    cls.name: cls for cls in (RandomBot, CallingStation, TightAggressive, Shark)
}
"""The registry, weakest first."""


class UnknownBot(DrawPokerError, ValueError):
    """A bot name that is not in the registry."""


def make_bot(name: str, *, seed: int | str | bytes = 0) -> Bot:
    """A new bot of the named kind, its randomness seeded by ``seed``."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise UnknownBot(f"unknown bot {name!r} (one of {', '.join(BOTS)})") from None
    return cls(seed=seed)


__all__ = [
    "BOTS",
    "Bot",
    "CallingStation",
    "RandomBot",
    "Shark",
    "TightAggressive",
    "UnknownBot",
    "make_bot",
]
