"""Small pieces the sub-commands share: argument types, the progress bar, Ctrl-C held over
bookkeeping, rules in words."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import signal
import threading
from collections.abc import Iterator
from typing import Any

from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from bones.ai.levels import MAX_THINK
from bones.engine.errors import quoted
from bones.engine.rules import PRESETS, Rules
from bones.sim.ray_workers import Cluster, check_address

#: Fresh seeds are drawn below this: too many to find a run's seed by dealing every one
#: until one deals the hand a bot (or a person) holds (at a microsecond a deal, 30 years of
#: one core), and below 2**53, so a JSON reader in any language keeps it exact.
SEEDS = 10**15
#: The width every results table is made to read whole at (``print_tables``).
TABLE_WIDTH = 80


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, a service manager): the command stops as after
    Ctrl-C, so a run still reports and seals what it finished and every outside bot it
    started is ended (they run in sessions of their own, which a signal to the command's
    process group does not reach). ``bones play`` saves to ``--record`` without asking."""

    #: Set once SIGTERM has stopped the command (its status is then 143, not 130).
    happened = threading.Event()

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        Terminated.happened.set()


def stopped() -> str:
    """How a run that was stopped early was stopped, for its one line: ``interrupted``
    (Ctrl-C) or ``terminated`` (SIGTERM)."""
    return "terminated" if Terminated.happened.is_set() else "interrupted"


def counted(number: object, noun: str) -> str:
    """``3 deals``, ``1 game``."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


def fresh_seed() -> int:
    """A seed for a run given none (printed with its results, so the run can be repeated)."""
    return random.SystemRandom().randrange(SEEDS)


def _whole(text: str, least: int, said: str) -> int:
    """A whole number of at least ``least`` (``said`` in words), or argparse's refusal."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be {said}, not {value}")
    return value


def add_match_arguments(p: argparse.ArgumentParser) -> None:
    """``--think``, ``--jobs``, ``--cluster`` and ``--seed`` of a duplicate match (``arena``,
    ``league``)."""
    p.add_argument("--think", type=seconds, default=0.1, metavar="SECONDS",
                   help="time per move for search and outside bots (default 0.1)")
    add_jobs_arguments(p, "seeded results")
    p.add_argument("--seed", type=seed_value, default=None, help="seed (default: random, printed)")


def add_jobs_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """``--jobs`` and ``--cluster``: where a run's numbered deals (or chunks) are played,
    neither of which changes ``what`` it gives (docs/cluster.md)."""
    p.add_argument("--jobs", type=positive, default=None, metavar="J",
                   help=f"worker processes; {what} do not depend on it (default: every core "
                   "it may use); with --cluster, the most tasks in flight (default: twice "
                   "the cluster's CPUs)")
    p.add_argument("--cluster", type=check_address, default=None,
                   metavar="ray://HOST:PORT|HOST:PORT|auto",
                   help=f"play on a Ray cluster instead of this machine's cores; {what} are "
                   "the same as a local run's (needs pip install 'bones[cluster]')")


@contextlib.contextmanager
def jobs_and_cluster(args: argparse.Namespace) -> Iterator[tuple[int, Cluster | None]]:
    """``--jobs`` and the cluster of ``--cluster``, connected (so an address that cannot be
    reached fails before anything is played or written) and disconnected at the end."""
    if args.cluster is None:
        yield (args.jobs if args.jobs is not None else cores()), None
        return
    with Cluster(args.cluster) as cluster:
        yield (args.jobs if args.jobs is not None else 2 * cluster.cpus()), cluster


def cores() -> int:
    """The CPUs this process may run on, the default number of worker processes: its
    affinity where the system keeps one (a container or ``taskset`` may allow fewer than
    the machine has, and a worker more than that only waits its turn)."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13 and later
    if counted is not None:
        found: int | None = counted()
        return found or 1
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity here (macOS, Windows)
        return os.cpu_count() or 1


def positive(text: str) -> int:
    """An argument that must be a whole number of at least 1."""
    return _whole(text, 1, "at least 1")


def seed_value(text: str) -> int:
    """A ``--seed``: a whole number, 0 or more (Python's ``Random`` seeds ``-5`` as ``5``,
    so a negative seed would only be another name for a positive one)."""
    return _whole(text, 0, "0 or more")


def nonempty_path(text: str) -> str:
    """A file or folder to write or read: an empty name would silently do nothing, or
    name the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("needs a path, not an empty name")
    return text


def seconds(text: str) -> float:
    """An argument that must be a positive number of seconds, at most ``MAX_THINK`` (a think
    time)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of seconds") \
            from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, not {text}")
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    if value > MAX_THINK:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_THINK:g} seconds, not {text}")
    return value


@contextlib.contextmanager
def held_interrupts(then_raise: bool = True) -> Iterator[None]:
    """Ctrl-C (or SIGTERM) during one result's bookkeeping takes effect once it is done, so
    a run stopped by hand reports and saves whole results: every deal (or game) tallied has
    its records, and no record is of one left out of the tally. With ``then_raise`` false
    it is dropped instead: for the last bookkeeping of a run already played out (adding the
    seed to its records), where stopping would only lose the run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held = (signal.SIGINT, signal.SIGTERM)  # SIGTERM is Ctrl-C by another name (``main``)
    previous: dict[int, Any] = {
        signum: signal.signal(signum, lambda signum, frame: caught.append(signum))
        for signum in held}
    try:
        yield
    finally:
        for signum in held:
            signal.signal(signum, previous[signum])
        if caught and then_raise:
            first = caught[0]
            handler = previous[first]
            if callable(handler):
                handler(first, None)  # raises, as Python's and main's handlers do
            elif handler is signal.SIG_DFL:
                raise Terminated if first == signal.SIGTERM else KeyboardInterrupt


def progress_bar(console: Console, disable: bool) -> Progress:
    """The progress bar of long runs, on standard error; off when asked or not a terminal."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=console, disable=disable, transient=True)


def print_tables(console: Console, *tables: RenderableType) -> None:
    """Print each table as on an 80-column terminal at least: the tables are made to read
    whole at 80 columns (where they must give way, an option's value is shortened, never a
    number), and a narrower terminal would cut numbers (``66.…``) or squeeze whole columns
    out. There the lines run on and wrap instead. Wider terminals are used as they are."""
    for table in tables:
        natural = Measurement.get(console, console.options.update_width(10_000), table)
        width = console.width
        console.width = max(width, min(natural.maximum, TABLE_WIDTH))  # print clamps to it
        try:
            console.print(table)
        finally:
            console.width = width


def rules_name(rules: Rules) -> str:
    """The preset, then any options changed from it: ``pool + players 4, partnerships true``."""
    name = rules.preset if rules.preset in PRESETS else None
    base = PRESETS[name] if name is not None else Rules()
    changes = ", ".join(f"{k} {json.dumps(v)}" for k, v in rules.options().items()
                        if getattr(base, k) != v)
    title = name or "default rules"
    return f"{title} + {changes}" if changes else title
