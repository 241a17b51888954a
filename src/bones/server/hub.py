"""Every live table of the server, taken up from the database when first asked for and
dropped from memory when it has sat idle a while, and the threads the tables share: one
for the database (SQLite has one writer; the event loop never waits on a disk) and a pool
for the bots' thinking and hints."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from bones.engine.errors import BonesError
from bones.server.restore import restore
from bones.server.round import Round
from bones.server.settings import Settings
from bones.server.spec import spec_from_json
from bones.server.store import Append, Finished, LogRow, Store

log = logging.getLogger("bones.server")

T = TypeVar("T")


class Hub:
    """The tables. Made inside the running server (its thread limiters belong to the event
    loop)."""

    def __init__(self, store: Store, settings: Settings,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.settings = settings
        #: What idle time is measured by (a test may turn it by hand).
        self.clock = clock
        self.rounds: dict[int, Round] = {}
        #: When each live table was first found idle, since it last was not.
        self._quiet: dict[int, float] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._loading: dict[int, asyncio.Lock] = {}
        self._db = anyio.CapacityLimiter(1)
        self._thinkers = anyio.CapacityLimiter(max(1, settings.workers))
        #: Appends waiting for the next commit, and the task that commits them.
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a ``Store`` method in the database's thread."""
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._db)

    async def append(self, table_id: int, rows: list[LogRow],
                     new_game: tuple[int, int] | None = None,
                     finished: Finished | None = None) -> None:
        """Append rows to a table's log and commit them; returns once they are committed
        (a client may then be told). What tables append while a commit is going on is
        committed together next, in one transaction: one sync to disk for a whole batch of
        moves, where a commit each would have them queue for a sync each."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((Append(table_id, rows, new_game, finished), done))
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        await done

    async def _flush(self) -> None:
        """Commit what is waiting, batch after batch, until nothing is."""
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    faults = await self.db(self.store.append_many, [a for a, _ in batch])
                except Exception as exc:
                    faults = [exc] * len(batch)
                for (_, done), fault in zip(batch, faults, strict=True):
                    if done.done():  # its table was closed meanwhile
                        continue
                    if fault is None:
                        done.set_result(None)
                    else:
                        done.set_exception(fault)
        finally:
            self._flusher = None

    async def think(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a bot's (or a hint's) thinking in the pool: the table's actor waits for it,
        every other table goes on."""
        return await anyio.to_thread.run_sync(fn, *args, limiter=self._thinkers)

    async def round(self, table_id: int) -> Round | None:
        """The live table ``table_id``, taken up from its log if it is not live (or could
        not save, and must be taken up again); ``None`` if there is no such table or its
        log cannot be replayed (said in the server's log)."""
        self._quiet.pop(table_id, None)  # asked for: not idle
        live = self.rounds.get(table_id)
        if live is not None and live.broken is None:
            return live
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            live = self.rounds.get(table_id)
            if live is not None and live.broken is None:
                return live
            if live is not None:
                await live.close()
                del self.rounds[table_id]
            loaded = await self.db(self.store.load, table_id)
            if loaded is None:
                return None
            try:
                spec = spec_from_json(loaded.spec)
                restored = restore(loaded, spec.rules)
                started = loaded.games[-1].started if loaded.games else None
                live = Round(self, table_id, spec, restored, started)
            except (BonesError, KeyError, TypeError, ValueError) as exc:
                log.error("table %d cannot be taken up from its log: %s", table_id, exc)
                return None
            self.rounds[table_id] = live
        live.kick()  # a bot to move, a timer to start: the table goes on where it stood
        return live

    # -- idle tables ----------------------------------------------------------------------

    def start(self) -> None:
        """Look for idle tables every so often (a quarter of the idle time, at least every
        minute), while the server runs."""
        idle = self.settings.idle_seconds
        if idle is None or self._sweeper is not None:
            return
        every = min(60.0, max(0.05, idle / 4))

        async def sweep() -> None:
            while True:
                await asyncio.sleep(every)
                await self.evict_idle()

        self._sweeper = asyncio.get_running_loop().create_task(sweep())

    def idle(self, live: Round) -> bool:
        """Whether a table is idle now: no socket connected, no bot's or forced move, deal
        or turn timer under way (each is one of its tasks), nothing holding its lock."""
        return not live.conns and not live.tasks and not live.lock.locked()

    async def evict_idle(self) -> list[int]:
        """Drop from memory every table that has been idle for ``settings.idle_seconds``
        (since it was first found idle, by ``clock``); the ids dropped. Everything of a
        table is in its log, so the next client or request that asks for one takes it up
        again from there (``round``), as after a restart."""
        most = self.settings.idle_seconds
        if most is None:
            return []
        now = self.clock()
        dropped = []
        for table_id, live in list(self.rounds.items()):
            if not self.idle(live):
                self._quiet.pop(table_id, None)
                continue
            since = self._quiet.setdefault(table_id, now)
            if now - since >= most:
                dropped.append(live)
                del self.rounds[table_id]
                del self._quiet[table_id]
                lock = self._loading.get(table_id)
                if lock is not None and not lock.locked():
                    del self._loading[table_id]
        for live in dropped:
            await live.close()
        if dropped:
            log.info("%d idle table(s) dropped from memory; %d live", len(dropped),
                     len(self.rounds))
        return [live.id for live in dropped]

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.gather(self._sweeper, return_exceptions=True)
            self._sweeper = None
        for live in list(self.rounds.values()):
            await live.close()
        self.rounds.clear()
        if self._flusher is not None:  # what is being committed is let finish
            await asyncio.gather(self._flusher, return_exceptions=True)
