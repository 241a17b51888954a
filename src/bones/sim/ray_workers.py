"""Work spread over a Ray cluster (``--cluster``), results in submission order, so a run on
a cluster gives what the same run gives on this machine.

Nothing here decides a result: the work is the same numbered items ``parallel.Workers``
hands its processes (a deal, or a lab chunk, whose RNGs are derived from the run's seed and
its number, never drawn from a stream shared between items), cut into the same chunks, and
read back in the order they were handed out. Which node plays which chunk, and when, is
Ray's choice and changes nothing; a caller that stops reading early (the arena's SPRT,
judged over the deals in number order) stops at the same deal as it would locally.

``jobs`` means something else here than locally: it is the most chunks in flight (handed to
the cluster and not yet read back), by default twice the cluster's CPUs, so every CPU has one
chunk queued behind the one it plays. Chunks left unread when the caller stops are
cancelled.

Ray is an optional extra (``pip install 'bones[cluster]'``), imported only here and only
when a cluster is asked for; every node must have the same bones installed (the work is
sent as references to bones's functions, not as code).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import re
import signal
import threading
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any, TypeVar

from bones.engine.errors import InputError
from bones.sim.parallel import Workers, run_chunk

T = TypeVar("T")
R = TypeVar("R")

#: ``--cluster auto``: the cluster this machine is part of (``ray start`` ran here), or the
#: one ``RAY_ADDRESS`` names.
AUTO = "auto"
#: What to install for ``--cluster``.
INSTALL = "pip install 'bones[cluster]'"

_ADDRESS = re.compile(r"(ray://)?[A-Za-z0-9_.\-]+:[0-9]{1,5}|\[[0-9A-Fa-f:]+\]:[0-9]{1,5}")


class ClusterError(InputError):
    """A cluster that cannot be used: Ray missing, the address unreachable, a node lost.
    Exit status 2, as for a flag whose value cannot be used."""


def check_address(text: str) -> str:
    """A ``--cluster`` value: ``auto``, ``ray://HOST:PORT`` (Ray Client, from any machine
    that can reach the head) or ``HOST:PORT`` (the head's own address, from a node of the
    cluster). Read as an argument type, so a typo costs no connection attempt.

    >>> check_address("ray://10.0.0.5:10001")
    'ray://10.0.0.5:10001'
    >>> check_address("10.0.0.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '10.0.0.5' is not auto, ray://HOST:PORT or HOST:PORT
    """
    import argparse

    text = text.strip()
    if text == AUTO or _ADDRESS.fullmatch(text):
        return text
    raise argparse.ArgumentTypeError(f"{text!r} is not auto, ray://HOST:PORT or HOST:PORT")


def _ray() -> Any:
    """The ``ray`` module, or the one-line reason there is none."""
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ClusterError(f"--cluster needs Ray: {INSTALL}") from None
    return ray


class Cluster:
    """A connection to a Ray cluster for one run, closed when the run is over. Connecting
    is the step that fails when the address is wrong, so a command makes this before it
    plays or writes anything."""

    def __init__(self, address: str) -> None:
        ray = _ray()
        self.address = address
        if ray.is_initialized():  # a caller (a notebook, a test) that connected already
            self._ours = False
            return
        # Ray's driver takes SIGTERM for itself (``sys.exit``); bones's own handler (stop
        # the run, report what is done) is put back.
        on_main = threading.current_thread() is threading.main_thread()
        previous = signal.getsignal(signal.SIGTERM) if on_main else None
        try:
            with warnings.catch_warnings():  # Ray Client warns before it raises
                warnings.simplefilter("ignore")
                ray.init(address=address, logging_level=logging.ERROR,
                         configure_logging=False)
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            with contextlib.suppress(Exception):  # half connected: a later try starts clean
                ray.shutdown()
            raise ClusterError(f"--cluster {address}: cannot connect to the Ray cluster: "
                               f"{_first_line(exc)}") from None
        finally:
            if on_main and previous is not None:
                signal.signal(signal.SIGTERM, previous)
        self._ours = True

    def cpus(self) -> int:
        """The cluster's CPUs (at least 1)."""
        return max(1, int(_ray().cluster_resources().get("CPU", 1)))

    def workers(self, jobs: int | None = None) -> ClusterWorkers:
        """A map over the cluster with at most ``jobs`` chunks in flight (by default twice
        the cluster's CPUs)."""
        return ClusterWorkers(jobs if jobs is not None else 2 * self.cpus())

    def close(self) -> None:
        """Disconnect, if this object connected."""
        if self._ours:
            self._ours = False
            with contextlib.suppress(Exception):
                _ray().shutdown()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class ClusterWorkers:
    """``parallel.Workers``'s ``map`` on a cluster: the same chunks, the same order."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)

    def map(self, fn: Callable[[T], R], items: Iterable[T], chunksize: int = 1) -> Iterator[R]:
        """``fn`` over ``items`` (read lazily), results in the order of ``items``; ``fn``
        must be a module-level function of bones (it is sent by name)."""
        ray = _ray()
        remote = ray.remote(run_chunk)
        source = iter(items)
        chunks = iter(lambda: list(itertools.islice(source, max(1, chunksize))), [])
        pending: deque[Any] = deque(remote.remote(fn, chunk)
                                    for chunk in itertools.islice(chunks, self.jobs))
        try:
            while pending:
                results = _get(ray, pending.popleft())
                for chunk in itertools.islice(chunks, 1):
                    pending.append(remote.remote(fn, chunk))
                yield from results
        finally:
            # Stopped early (a verdict, Ctrl-C, a failure): the chunks not read are not
            # wanted, whether begun or not.
            for ref in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(ref)

    def __enter__(self) -> ClusterWorkers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        """Nothing to close: the chunks in flight are cancelled by ``map`` itself."""


def executor(jobs: int, cluster: Cluster | None = None) -> Workers | ClusterWorkers:
    """Where a run's items are played: ``jobs`` local worker processes, or with a cluster
    its tasks, at most ``jobs`` chunks in flight. The results are the same either way."""
    return Workers(jobs) if cluster is None else cluster.workers(jobs)


def _get(ray: Any, ref: Any) -> Any:
    """A chunk's results; a chunk that raised raises what it raised (a refusal stays a
    refusal, as locally), and the cluster's own failures become one ``ClusterError`` line."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, ModuleNotFoundError) and (cause.name or "").startswith("bones"):
            raise ClusterError("the cluster's workers cannot import bones: install the same "
                               "bones on every node") from None
        if isinstance(cause, BaseException):
            raise cause from None
        raise ClusterError(f"a task failed on the cluster: {_first_line(exc)}") from None
    except ray.exceptions.RayError as exc:
        raise ClusterError(f"the cluster failed: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    """An exception as one line: Ray's messages run to tracebacks and advice. The first line,
    and where that only introduces what follows (``Initialization failure from server:``,
    then the server's traceback), the last, which names the error.

    >>> _first_line(ConnectionError("Failed:\\nTraceback ...\\n  File x\\nOSError: no route"))
    'Failed: OSError: no route'
    """
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[-1]}"
    return lines[0]
