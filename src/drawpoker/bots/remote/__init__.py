"""Remote bots: ``drawpoker.bots``' policies playing on a drawpoker server over the
same websocket protocol as people (docs/bots.md, "Remote bots").

    from drawpoker.bots.remote import RemoteBot

    async with RemoteBot("http://127.0.0.1:8000", kind="shark") as bot:
        result = await bot.play_tournament("sng-6")
        print(result.places, result.prize)
"""

from __future__ import annotations

from drawpoker.bots.remote.client import CashResult, RemoteBot, RemoteBotError, TournamentResult

__all__ = ["CashResult", "RemoteBot", "RemoteBotError", "TournamentResult"]
