"""Work spread over processes, results in submission order, so ``--jobs`` never changes them.

Spawned rather than forked (the caller may be running a progress bar's thread), and with
``concurrent.futures`` rather than ``multiprocessing.Pool``: a worker that dies raises
``BrokenProcessPool`` instead of leaving the caller waiting for ever.

Items are handed out a few chunks ahead of the results read (``AHEAD`` per worker), not all
at once: a caller that stops reading early (an arena whose sequential test has decided)
leaves little work to cancel, and a run of millions of items holds only a window of them.

Ctrl-C is the caller's to handle: workers ignore it (a terminal sends it to every process of
the group, and each worker would print its own traceback), and a run left by Ctrl-C
(``KeyboardInterrupt``) stops its workers at once instead of waiting for their chunks, which
could take minutes and, interrupted inside the executor's own bookkeeping, could wait for
ever.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Chunks handed to the pool ahead of the results read, per worker.
AHEAD = 4


class Workers:
    """``jobs`` worker processes (none for one job: the work runs in this process)."""

    def __init__(self, jobs: int) -> None:
        self._jobs = jobs
        self._pool = (ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                          initializer=_ignore_interrupts)
                      if jobs > 1 else None)

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
        pending: deque[Future[list[R]]] = deque(
            pool.submit(_run_chunk, fn, chunk)
            for chunk in itertools.islice(chunks, AHEAD * self._jobs))
        while pending:
            results = pending.popleft().result()
            for chunk in itertools.islice(chunks, 1):
                pending.append(pool.submit(_run_chunk, fn, chunk))
            yield from results

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._pool is None:
            return
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            # Ctrl-C: the results are not wanted, so the workers are stopped rather than
            # waited for (no public way to do this before Python 3.14's terminate_workers);
            # the wait below then only sees the executor notice they are gone. A caller
            # that just stops reading (GeneratorExit) lets the chunks begun finish.
            processes = getattr(self._pool, "_processes", None) or {}
            for process in list(processes.values()):
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


def stop(results: Iterator[Any]) -> None:
    """Stop a generator of results that a Ctrl-C reached outside it (in the caller's loop):
    its workers are ended at once, as when the Ctrl-C comes while it waits, rather than
    left to finish the chunks they began, which only closing it would do."""
    if isinstance(results, Generator):
        with contextlib.suppress(KeyboardInterrupt, StopIteration):
            results.throw(KeyboardInterrupt())


def _ignore_interrupts() -> None:
    """In each worker: Ctrl-C is for the process that started the run (see the module)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_chunk(fn: Callable[[T], R], chunk: list[T]) -> list[R]:
    """One worker's share: ``fn`` over a chunk of items (what runs in the worker)."""
    return [fn(item) for item in chunk]
