"""Work spread over processes, results in submission order, so ``--jobs`` never changes them.

Spawned rather than forked (the caller may be running a progress bar's thread), and with
``concurrent.futures`` rather than ``multiprocessing.Pool``: a worker that dies raises
``BrokenProcessPool`` instead of leaving the caller waiting for ever.

Items are handed out a few chunks ahead of the results read (``AHEAD`` per worker), not all
at once: a caller that stops reading early (an arena whose sequential test has decided)
leaves little work to cancel, and a run of millions of items holds only a window of them.

Ctrl-C is the caller's to handle: workers ignore it (a terminal sends it to every process of
the group, and each worker would print its own traceback), and a run left by Ctrl-C
(``KeyboardInterrupt``) tells its workers to stop (``check_cancelled``, which the referee calls
before every move and each chunk before every item) instead of waiting for their chunks,
which could take minutes. They are not killed: a worker killed while writing a result
leaves half a message in the pipe the executor reads, and it then waits for the rest for
ever. Only one that has not stopped after ``GRACE`` seconds (a bot thinking for minutes) is
ended the hard way.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import signal
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Chunks handed to the pool ahead of the results read, per worker.
AHEAD = 4
#: Seconds a worker told to stop may take to finish its move before it is killed.
GRACE = 15.0

#: In a worker: the run's "stop now" flag (set by the parent on Ctrl-C); ``None`` in the
#: parent process, whose work stops by ``KeyboardInterrupt`` itself.
_stop_flag: Any = None


class Cancelled(Exception):
    """Raised in a worker whose run was stopped (``check_cancelled``): its result is not
    wanted."""


def check_cancelled() -> None:
    """In a worker of a run that has been stopped, give up the work in hand
    (``Cancelled``)."""
    if _stop_flag is not None and _stop_flag.is_set():
        raise Cancelled


class Workers:
    """``jobs`` worker processes (none for one job: the work runs in this process)."""

    def __init__(self, jobs: int) -> None:
        self._jobs = jobs
        self._pool: ProcessPoolExecutor | None = None
        if jobs > 1:
            context = multiprocessing.get_context("spawn")
            self._stop = context.Event()
            self._pool = ProcessPoolExecutor(jobs, mp_context=context,
                                             initializer=_start_worker, initargs=(self._stop,))

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        """``fn`` over ``items`` (read lazily), results in the order of ``items``; ``fn``
        must be picklable (a module-level function) when there are worker processes."""
        if self._pool is None:
            return map(fn, items)
        return self._ahead(self._pool, fn, items, max(1, chunksize))

    def _ahead(self, pool: ProcessPoolExecutor, fn: Callable[[T], R], items: Iterable[T],
               chunksize: int) -> Iterator[R]:
        source = iter(items)
        chunks = iter(lambda: list(itertools.islice(source, chunksize)), [])
        with _spawning():
            pending: deque[Future[list[R]]] = deque(
                pool.submit(run_chunk, fn, chunk)
                for chunk in itertools.islice(chunks, AHEAD * self._jobs))
        while pending:
            results = pending.popleft().result()
            for chunk in itertools.islice(chunks, 1):
                with _spawning():
                    pending.append(pool.submit(run_chunk, fn, chunk))
            yield from results

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._pool is None:
            return
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            # Ctrl-C: the results are not wanted, so the workers are told to stop and the
            # chunks not begun are dropped; each worker gives up its item at its next move
            # and exits. A caller that just stops reading (GeneratorExit) lets the chunks
            # begun finish.
            processes = list((getattr(self._pool, "_processes", None) or {}).values())
            self._stop.set()
            last_resort = threading.Timer(GRACE, _end, (processes,))
            last_resort.daemon = True
            last_resort.start()
            try:
                self._pool.shutdown(wait=True, cancel_futures=True)
            finally:
                last_resort.cancel()
            return
        self._pool.shutdown(wait=True, cancel_futures=True)


def stop(results: Iterator[Any]) -> None:
    """Stop a generator of results that a Ctrl-C reached outside it (in the caller's loop):
    its workers are ended at once, as when the Ctrl-C comes while it waits, rather than
    left to finish the chunks they began, which only closing it would do."""
    if isinstance(results, Generator):
        with contextlib.suppress(KeyboardInterrupt, StopIteration):
            results.throw(KeyboardInterrupt())


def _end(processes: list[Any]) -> None:
    """The last resort for workers that did not stop within ``GRACE``: end them."""
    for process in processes:
        with contextlib.suppress(Exception):  # one that exited meanwhile
            process.kill()  # workers do nothing on SIGTERM (``_start_worker``)


@contextlib.contextmanager
def _spawning() -> Iterator[None]:
    """Ctrl-C and SIGTERM held in this thread while work is handed out, which is when
    workers are started: a worker that got one before ``_start_worker`` set its handlers
    died with a traceback on the user's screen. The held mask passes to each worker, which
    lifts it once ready. (Only this thread's mask: with other threads running, the signal
    may still reach this process meanwhile, as before.)"""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _ignore(signum: int, frame: Any) -> None:
    """A worker's answer to Ctrl-C and SIGTERM: none (its parent stops it)."""


def _start_worker(stop_flag: Any) -> None:
    """In each worker: Ctrl-C and SIGTERM are for the process that started the run (see the
    module), and the run's stop flag is kept for ``check_cancelled``."""
    global _stop_flag
    # Handlers that do nothing, not SIG_IGN: an ignored signal stays ignored across exec,
    # so every outside bot a worker starts (and its children) would be deaf to SIGTERM.
    signal.signal(signal.SIGINT, _ignore)
    signal.signal(signal.SIGTERM, _ignore)  # as Ctrl-C: ``Terminated`` in the parent
    if hasattr(signal, "pthread_sigmask"):  # held while it was started (``_spawning``)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    _stop_flag = stop_flag


def run_chunk(fn: Callable[[T], R], chunk: list[T]) -> list[R]:
    """One worker's share: ``fn`` over a chunk of items (what runs in the worker, a process
    here or a task on a cluster: ``ray_workers``), given up between items once the run is
    stopped."""
    results = []
    for item in chunk:
        check_cancelled()
        results.append(fn(item))
    return results
