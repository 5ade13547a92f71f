"""Hand histories: PHH (TOML) and PokerStars-style text, replay and verification.

- ``phh``: write (``dumps``, ``dumps_all``) and read (``loads``, ``loads_all``) PHH.
- ``replay``: rebuild a hand from its history through the engine, from any point.
- ``pokerstars``: PokerStars-style text, for one player or for the archive.
- ``verify``: check a history against its revealed deck seed (provably fair).
- ``pokerkit_codes``: the variant codes registered on a ``pokerkit.HandHistory``
  subclass (needs the optional ``pokerkit`` package).
"""

from drawpoker.history.info import HandInfo, Tournament
from drawpoker.history.phh import HistoryError, dumps, dumps_all, loads, loads_all
from drawpoker.history.replay import Replayed, replay

__all__ = [
    "HandInfo",
    "HistoryError",
    "Replayed",
    "Tournament",
    "dumps",
    "dumps_all",
    "loads",
    "loads_all",
    "replay",
]
