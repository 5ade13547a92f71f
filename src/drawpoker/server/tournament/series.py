"""A configured tournament (``TournamentSpec``) as an actor: the run open for
registration, the runs being played, the last finished ones, the schedule, the
bots that register, and the tournament's lobby row.

A sit & go opens its next run the moment one starts; a scheduled tournament
starts its run at its time (or cancels and refunds it under ``min_entries``) and
opens the next. Operators change a tournament (from its next run; the run open
for registration too while nobody has registered) or cancel it (the run open
for registration is refunded, no other opens, runs in play finish). The series
asks its runs by message and waits for their answer (a run never waits for its
series: it only posts to it), so no two actors ever wait for each other.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec
from sqlalchemy import Connection

from drawpoker.protocol.server import LevelInfo, RunRow, TournamentRow
from drawpoker.room import tournament_serial
from drawpoker.room.tournament import Status, Tournament
from drawpoker.room.tournament_orders import HandFinished
from drawpoker.server import audit, ledger
from drawpoker.server.auth import Account, ensure_bot
from drawpoker.server.bus import Bus
from drawpoker.server.mailbox import Mailbox
from drawpoker.server.store import Records
from drawpoker.server.table.tournament import HandRecord
from drawpoker.server.tournament import money
from drawpoker.server.tournament.run import Refused, RunActor, level_dict
from drawpoker.server.tournament.spec import TournamentSpec
from drawpoker.server.tournament.stored import save_spec

if TYPE_CHECKING:
    from drawpoker.server.owner import Owner

log = logging.getLogger("drawpoker.server.tournaments")
KEEP_FINISHED = 20  # finished runs kept for the API


class Series:
    """See the module docstring."""

    def __init__(self, spec: TournamentSpec, store: Records, bus: Bus, owner: Owner) -> None:
        self.spec = spec
        self.store = store
        self.bus = bus
        self.owner = owner  # the process's: it adopts the runs' tables
        self.unit = f"s:{spec.id}"  # the series answers for its runs too
        self.mailbox = Mailbox(f"series-{spec.id}")
        self.running: dict[str, RunActor] = {}
        self.finished: list[RunActor] = []
        self.facts: dict[str, dict[str, Any]] = {}
        self.last_start = 0.0
        self.retired = False  # cancelled by an operator: no new run opens
        self.on_closed: Callable[[], None] | None = None  # the room lets it go
        self.current = self._new_run()

    def post(self, fn: Any, *args: Any) -> None:
        self.mailbox.post(fn, *args)

    async def call(self, fn: Any, *args: Any) -> Any:
        return await self.mailbox.call(fn, *args)

    # ------------------------------------------------------------ lifecycle

    def _new_run(self) -> RunActor:
        spec = self.spec
        instance_id = f"{spec.id}-{secrets.token_hex(3)}"
        start_at = 0.0
        if spec.scheduled:
            now = time.time()
            every = spec.start_every_minutes * 60
            start_at = (
                now + spec.first_start_s
                if not self.last_start
                else max(self.last_start + every, now + min(every, 60.0))
            )
            self.last_start = start_at
        tournament = Tournament(spec.tournament_config(start_at), name=instance_id)
        return self._adopt(RunActor(self, instance_id, tournament))

    def _adopt(self, run: RunActor) -> RunActor:
        run.start()
        self.facts[run.id] = run.facts()
        return run

    def start(self) -> None:
        self.mailbox.start()
        if self.spec.scheduled:
            self.mailbox.later(1.0, self._clock)
        if self.spec.bots:
            self.mailbox.later(self.spec.bot_register_s, self._bots)
        self._row_changed()

    async def stop(self) -> None:
        await self.mailbox.stop()
        for run in self.runs():
            await run.mailbox.stop()
            for desk in run.desks.values():
                await desk.actor.mailbox.stop()
                self.owner.drop(f"t:{desk.actor.id}")

    def runs(self) -> list[RunActor]:
        return [self.current, *self.running.values(), *self.finished]

    async def restore(self) -> list[str]:
        """Resume the runs a previous owner left: a registering one keeps its
        entrants; a running one continues from its last finished hand (a hand in
        play is cancelled, every chip back to its seat); a finished one not yet
        paid is paid; one that cannot resume is refunded. Returns their ids
        (before ``start``)."""
        restored = []
        for instance_id, state in await self.store.run(money.saved_runs, self.spec.id):
            data = json.loads(state)
            tournament, cancelled = tournament_serial.from_dict(data["tournament"])
            accounts = {
                key: Account(int(a), str(name), str(kind))
                for key, (a, name, kind) in data["accounts"].items()
            }
            paid = {int(e): int(p) for e, p in data.get("paid", {}).items()}
            run = RunActor(self, instance_id, tournament, accounts, paid)
            restored.append(instance_id)
            status = tournament.status
            if status is Status.REGISTERING:
                if self.spec.scheduled:
                    self.last_start = max(self.last_start, tournament.config.start_at)
                await self.current.mailbox.stop()
                self.current = self._adopt(run)
            elif status is Status.RUNNING:
                log.warning("tournament %s resumes after a restart", instance_id)
                self.running[run.id] = self._adopt(run)
                await run.call(run.begin, cancelled)
            elif status is Status.FINISHED:
                self.running[run.id] = self._adopt(run)
                run.post(run.finish_restored)
            else:  # cancelled for too few entries before it could be saved so
                self._adopt(run)
                await run.call(run.cancel, "too few entries")
        for instance in await self.store.run(money.refund_abandoned, set(restored), self.spec.id):
            log.warning("tournament %s could not resume; entries refunded", instance)
        return restored

    # ------------------------------------------------------------ messages from runs

    async def run_started(self, run: RunActor) -> None:
        self.running[run.id] = run
        if run is self.current and self.spec.repeat and not self.retired:
            self.current = self._new_run()
        self._row_changed()

    async def run_changed(self, run: RunActor, facts: dict[str, Any]) -> None:
        self.facts[run.id] = facts
        self._row_changed()

    async def run_over(self, run: RunActor) -> None:
        """A run finished (paid) or was cancelled."""
        self.running.pop(run.id, None)
        self.facts[run.id] = run.facts()
        if run not in self.finished:
            self.finished.insert(0, run)
        for old in self.finished[KEEP_FINISHED:]:
            self.facts.pop(old.id, None)
            await old.mailbox.stop()
        del self.finished[KEEP_FINISHED:]
        if self.retired:
            self._closed_if_over()
        elif run is self.current and (run.cancelled or self.spec.repeat):
            self.current = self._new_run()  # e.g. a scheduled run cancelled at its time
        self._row_changed()

    async def hand_done(
        self, run: str, table_no: int, finished: HandFinished, record: HandRecord
    ) -> None:
        """A table's result, for its run."""
        target = self.run_named(run)
        if target is not None:
            target.post(target.hand_done, table_no, finished, record)

    async def table_gone(self, run: str, table: str) -> None:
        target = self.run_named(run)
        if target is not None:
            target.post(target.table_gone, table)

    # ------------------------------------------------------------ registration

    async def register(self, account: Account, name: str | None = None) -> dict[str, Any]:
        """Register for the run open for registration (``name``: the spec's id or that
        run's; another run's id is refused)."""
        run = self._open_run(name)
        result: dict[str, Any] = await run.call(run.register, account)
        if result["status"] != "registering":  # a sit & go just filled: it started
            await self.run_started(run)
        return result

    async def unregister(self, account: Account, name: str | None = None) -> dict[str, Any]:
        run = self._open_run(name)
        result: dict[str, Any] = await run.call(run.unregister, account)
        return result

    def _open_run(self, name: str | None) -> RunActor:
        run = self.current
        if name is not None and name not in (self.spec.id, run.id):
            other = self.run_named(name)
            state = "has started" if other is not None and other.finished_at is None else "is over"
            raise Refused(409, f"{name} {state}; the next one is {run.id}")
        return run

    async def watch(self, name: str, account: Account | None) -> dict[str, Any]:
        """Subscribing to a tournament's channel (``name``: the spec's id or a run's):
        where the run seats this account; the run's id is ``detail.tournament``."""
        run = self.run_named(name, account.id if account else None)
        if run is None:
            raise Refused(404, f"there is no tournament {name!r}")
        detail: dict[str, Any] = await run.call(run.watch, account.id if account else None)
        return detail

    async def table_for(self, name: str, account: Account | None) -> str | None:
        run = self.run_named(name, account.id if account else None)
        if run is None:
            return None
        table: str | None = await run.call(run.table_for, account.id if account else None)
        return table

    async def you_op(self, account: Account) -> dict[str, Any]:
        return await self.you(account.id)

    def ops(self) -> dict[str, Any]:
        """Every message the series takes, by name (``Owner.dispatch``)."""
        return {
            "register": self.register,
            "unregister": self.unregister,
            "you": self.you_op,
            "detail": self.detail,
            "watch": self.watch,
            "table_for": self.table_for,
            "hand_done": self.hand_done,
            "table_gone": self.table_gone,
            "reconfigure": self.reconfigure,
            "cancel": self.cancel,
        }

    # ------------------------------------------------------------ operators

    async def reconfigure(self, by: Account, reason: str, spec: dict[str, Any]) -> dict[str, Any]:
        """An operator's change (checked by the caller): stored and audited; the runs
        opened from now on follow it, and so does the run open for registration if
        nobody has registered yet (a run keeps the terms its players paid)."""
        if self.retired:
            raise Refused(409, f"{self.spec.id} is cancelled")
        new = TournamentSpec.from_dict(spec)
        if new.id != self.spec.id:
            raise Refused(400, f"this is tournament {self.spec.id}, not {new.id}")
        if new.kind != self.spec.kind:
            raise Refused(400, "a tournament's kind does not change: schedule a new one")
        changed = audit.changes(self.spec.to_json(), new.to_json())
        await self.store.run(
            lambda c: save_spec(c, new, "open", by=by, reason=reason, action="edit-tournament",
                                detail={"changed": changed})
        )  # fmt: skip
        self.spec = new
        run = self.current
        if self.facts[run.id]["registered"] or run.tournament.status is not Status.REGISTERING:
            return {"changed": sorted(changed), "applies": "from the next run"}
        self.last_start = 0.0  # a scheduled run: its time from the new spec
        self.current = self._new_run()
        if await self.store.run(money.is_saved, run.id):  # registered once, then left
            await run.call(run.cancel, "replaced by the tournament's new terms")
        else:
            await run.mailbox.stop()
            self.facts.pop(run.id, None)
        self._row_changed()
        return {"changed": sorted(changed), "applies": "now", "run": self.current.id}

    async def cancel(self, by: Account, reason: str) -> dict[str, Any]:
        """Cancel the tournament: the run open for registration is cancelled, every
        entry refunded; no run opens again; the runs in play are played out."""
        if self.retired:
            raise Refused(409, f"{self.spec.id} is cancelled already")
        await self.store.run(
            lambda c: save_spec(c, self.spec, "cancelled", by=by, reason=reason,
                                action="cancel-tournament")
        )  # fmt: skip
        self.retired = True
        run = self.current
        refunded = self.facts[run.id]["registered"]
        if run.tournament.status is Status.REGISTERING and not run.cancelled:
            await run.call(run.cancel, f"cancelled by the room: {reason}")
        self._row_changed()
        self._closed_if_over()
        return {"refunded": refunded, "playing": sorted(self.running)}

    def _closed_if_over(self) -> None:
        if self.retired and not self.running and self.on_closed is not None:
            self.on_closed()

    async def _clock(self) -> None:
        """A scheduled tournament starts (or is cancelled and refunded) at its time."""
        run = self.current
        if time.time() >= run.tournament.config.start_at:
            status = await run.call(run.start_at_time)
            if status == "running":
                await self.run_started(run)
            elif status == "cancelled":
                await self.run_over(run)
        self.mailbox.later(1.0, self._clock)

    async def _bots(self) -> None:
        """Bots register one at a time (leaving any places beyond ``bots`` to people)."""
        spec = self.spec
        self.mailbox.later(spec.bot_register_s, self._bots)
        facts = self.facts.get(self.current.id) or {}
        if facts.get("status") != "registering" or facts.get("bots", 0) >= spec.bots:
            return
        if facts.get("registered", 0) >= spec.max_entries:
            return
        taken = facts.get("names", set())
        n = next(k for k in range(1, spec.max_entries + 2) if f"bot-{spec.id}-{k}" not in taken)
        name = f"bot-{spec.id}-{n}"
        cost = spec.buy_in + spec.fee

        def refill(c: Connection) -> Account:
            account = ensure_bot(c, name)
            ledger.refill_bot(c, account.id, cost)
            return account

        try:
            account = await self.store.run(refill)
            await self.register(account)
        except Refused as error:
            log.info("bot %s not registered: %s", name, error)
        except Exception:
            log.exception("bot %s could not register", name)

    # ------------------------------------------------------------ answers

    def run_named(self, name: str, account_id: int | None = None) -> RunActor | None:
        """A run by id, or by the spec's id: the run this account plays in (or is
        registered for), else the one open for registration."""
        if name != self.spec.id:
            return next((r for r in self.runs() if r.id == name), None)
        for run in [*self.running.values(), self.current]:
            if account_id is not None and account_id in self.facts.get(run.id, {}).get(
                "members", ()
            ):
                return run
        return self.current

    async def you(self, account_id: int) -> dict[str, Any]:
        """Where this account stands: registered for the open run, and the runs it
        still plays in (with its table)."""
        playing = []
        for run in list(self.running.values()):
            if account_id in self.facts.get(run.id, {}).get("members", ()):
                place = await run.call(run.where, account_id)
                if place is not None:
                    playing.append(place)
        registered = account_id in self.facts.get(self.current.id, {}).get("members", ())
        return {"registered": registered, "playing": playing}

    async def detail(self, name: str) -> dict[str, Any] | None:
        run = self.run_named(name)
        if run is None:
            return None
        detail: dict[str, Any] = await run.call(run.detail)
        row = self.row()
        keep = {
            k: v
            for k, v in _builtins(row).items()
            if k not in ("instance", "running", "finished", "you")
        }
        return {**keep, **detail, "tournament": self.spec.id, "sit_and_go": self.spec.id}

    def _row_changed(self) -> None:
        self.bus.put_tournament(self.row())

    def row(self) -> TournamentRow:
        """The lobby row: the run open for registration, and the runs in play."""
        spec = self.spec
        run = self.current
        facts = self.facts[run.id]
        cfg = facts["config"]
        return TournamentRow(
            id=spec.id,
            instance=run.id,
            name=spec.name,
            kind=spec.kind,
            game="draw",
            structure=str(cfg.structure),
            buy_in=cfg.buy_in,
            fee=cfg.fee,
            starting_chips=cfg.starting_stack,
            level_minutes=cfg.levels[0].minutes,
            levels=[LevelInfo(**level_dict(lv, i)) for i, lv in enumerate(cfg.levels[:12])],
            registered=facts["registered"],
            max_entries=cfg.max_entries,
            min_entries=cfg.min_entries if spec.scheduled else cfg.max_entries,
            seats_per_table=cfg.seats_per_table,
            starts="at a time" if spec.scheduled else "when full",
            starts_at=cfg.start_at if spec.scheduled else None,
            prize_pool=facts["prize_pool"],
            status="closed" if self.retired else facts["status"],
            running=[
                RunRow(
                    instance=r.id,
                    players_left=self.facts.get(r.id, {}).get("players_left", 0),
                    entries=self.facts.get(r.id, {}).get("registered", 0),
                    status=self.facts.get(r.id, {}).get("status", "running"),
                )
                for r in self.running.values()
            ],
            finished=[r.id for r in self.finished],
        )


def _builtins(row: TournamentRow) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(row)
    return data
