"""An actor's mailbox when its unit is let go: nothing sent to it is left
waiting, and the owner answers "moving" (the unit is closing or taken over
elsewhere), never an internal error."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from drawpoker.server.bus import LocalBus, Moving
from drawpoker.server.mailbox import Mailbox, MailboxClosed
from drawpoker.server.owner import Owner


class Slow:
    def __init__(self) -> None:
        self.mailbox = Mailbox("slow")
        self.started = asyncio.Event()

    async def work(self) -> str:
        self.started.set()
        await asyncio.sleep(30)
        return "done"

    def ops(self) -> dict[str, Any]:
        return {"work": self.work}


def test_commands_in_flight_and_queued_are_refused_when_the_mailbox_stops() -> None:
    async def run() -> None:
        actor = Slow()
        actor.mailbox.start()
        running = asyncio.create_task(actor.mailbox.call(actor.work))
        await actor.started.wait()
        queued = asyncio.create_task(actor.mailbox.call(actor.work))
        await asyncio.sleep(0)
        await asyncio.wait_for(actor.mailbox.stop(), 5)
        for task in (running, queued):  # answered at once, not cancelled, not hanging
            with pytest.raises(MailboxClosed):
                await asyncio.wait_for(task, 5)
        with pytest.raises(MailboxClosed):
            await actor.mailbox.call(actor.work)

    asyncio.run(run())


def test_the_owner_answers_moving_for_a_unit_being_let_go() -> None:
    async def run() -> None:
        owner = Owner(LocalBus())
        actor = Slow()
        actor.mailbox.start()
        owner.adopt("t:x", actor)
        asking = asyncio.create_task(owner.dispatch("t:x", "work", {}))
        await actor.started.wait()
        await actor.mailbox.stop()  # released: the unit is still listed a moment
        with pytest.raises(Moving):
            await asyncio.wait_for(asking, 5)
        with pytest.raises(Moving):
            await owner.dispatch("t:x", "work", {})

    asyncio.run(run())
