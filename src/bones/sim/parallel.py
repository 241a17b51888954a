"""Work spread over processes, results in submission order, so ``--jobs`` never changes them.

Spawned rather than forked (the caller may be running a progress bar's thread), and with
``concurrent.futures`` rather than ``multiprocessing.Pool``: a worker that dies raises
``BrokenProcessPool`` instead of leaving the caller waiting for ever.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from types import TracebackType
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Workers:
    """``jobs`` worker processes (none for one job: the work runs in this process)."""

    def __init__(self, jobs: int) -> None:
        self._pool = (ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))
                      if jobs > 1 else None)

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        """``fn`` over ``items``, results in the order of ``items``."""
        if self._pool is None:
            return map(fn, items)
        return self._pool.map(fn, items, chunksize=chunksize)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
