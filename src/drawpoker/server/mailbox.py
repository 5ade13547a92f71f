"""An actor's mailbox: the one queue through which everything that changes the
actor's state passes, handled one command at a time, in order.

``call`` sends a command and waits for its result (a refusal raises in the
caller); ``post`` sends one whose result nobody waits for (a refusal is logged);
``later`` posts one after a delay (timers are messages too).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from drawpoker.errors import DrawPokerError

log = logging.getLogger("drawpoker.server")


class MailboxClosed(DrawPokerError):
    """The actor stopped (its unit is let go): the command was not carried out."""


Command = tuple[Callable[..., Awaitable[Any]], tuple[Any, ...], "asyncio.Future[Any] | None"]


class Mailbox:
    def __init__(self, name: str) -> None:
        self.name = name
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.stopped = False
        self._timers: set[asyncio.TimerHandle] = set()

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name=self.name)

    async def stop(self) -> None:
        """Stop handling commands (the one being handled is cancelled) and timers;
        those still queued are refused (``MailboxClosed``), none left waiting."""
        self.stopped = True
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        while not self.queue.empty():
            _fn, _args, fut = self.queue.get_nowait()
            if fut is not None and not fut.done():
                fut.set_exception(MailboxClosed(f"{self.name} stopped"))
        task = self.task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        elif task is not None:
            task.cancel()  # stopped from one of its own commands: ends when it returns

    async def call(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        if self.stopped:
            raise MailboxClosed(f"{self.name} is closed")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((fn, args, fut))
        return await fut

    def post(self, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        if not self.stopped:
            self.queue.put_nowait((fn, args, None))

    def later(
        self, delay: float, fn: Callable[..., Awaitable[Any]], *args: Any
    ) -> asyncio.TimerHandle:
        """Post ``fn(*args)`` in ``delay`` seconds (the handle cancels it)."""
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(handle)
            self.post(fn, *args)

        handle = loop.call_later(max(delay, 0.0), fire)
        self._timers.add(handle)
        return handle

    def cancel(self, handle: asyncio.TimerHandle | None) -> None:
        if handle is not None:
            handle.cancel()
            self._timers.discard(handle)

    async def _loop(self) -> None:
        while True:
            fn, args, fut = await self.queue.get()
            try:
                result = await fn(*args)
            except asyncio.CancelledError:  # stopped in the middle of it
                if fut is not None and not fut.done():
                    fut.set_exception(MailboxClosed(f"{self.name} stopped"))
                raise
            except (DrawPokerError, ValueError) as error:
                if fut is not None and not fut.done():
                    fut.set_exception(error)
                elif fut is None:
                    log.warning("%s: %s", self.name, error)
            except Exception as error:  # keep the actor alive; report to the caller
                log.exception("%s: internal error", self.name)
                if fut is not None and not fut.done():
                    fut.set_exception(error)
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)
