"""Entry point of the ``bones`` command: dispatch to a sub-command, turn every refusal into one
line on standard error and a non-zero status, never a traceback."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from types import FrameType
from typing import NoReturn

from bones import __version__
from bones.cli.common import Terminated
from bones.engine.errors import BonesError, InputError


class Parser(argparse.ArgumentParser):
    """A parser whose refusals are one line, naming the command's help (argparse's own
    print the whole usage block, ten lines and more, before the line that matters)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """``bones`` and its sub-commands (each sub-command's parser is a ``Parser`` too)."""
    from bones.cli import arena, bot, lab, league, play, replay, rules, serve, simulate, verify

    parser = Parser(
        prog="bones",
        description="Dominoes: Draw, Block and Domino Pool. Play in the terminal, replay and "
        "check game records, verify fair deals, list the rules, simulate and measure bots in "
        "duplicate matches and leagues, "
        "study rule sets in the lab, serve a web table, and run a bot for other programs.",
    )
    parser.add_argument("--version", action="version", version=f"bones {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (play, replay, verify, rules, simulate, lab, arena, league, bot, serve):
        module.add_parser(sub)
    return parser




def _escape_what_cannot_be_written() -> None:
    """Text the output cannot encode (a record's player name holding a lone surrogate,
    which JSON allows; any non-ASCII name on an ASCII console) is written escaped
    (``\\ud800``) rather than failing the command."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _parser_of(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    """The parser of sub-command ``command`` (``parser`` itself when there is none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser


def _stand_in_for_closed_streams() -> None:
    """A standard stream closed by the caller (``<&-``, ``2>&-``) is ``None`` in Python:
    input reads as ended, and errors go nowhere, rather than an internal error. Input the
    console's encoding cannot decode reads as replacement characters (an unclear move),
    not a crash."""
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 (lives as long as we do)
    elif isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115


def _quiet_stdout() -> None:
    """Point standard output at the null device, so Python's own flush at exit does not
    fail on the output that just failed (and print a traceback of its own)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())


@contextlib.contextmanager
def _one_interrupt(active: bool) -> Iterator[None]:
    """For the long runs (``long_run``: simulate, arena, league, lab): the first Ctrl-C (or
    SIGTERM, as ``Terminated``) stops the run as ``KeyboardInterrupt`` does, and any later
    one is ignored, so the tidying up it sets off (stopping the worker processes, the progress
    bar giving the terminal its cursor back) is not itself interrupted into a traceback or
    a hidden cursor. That tidying is quick: the workers are told to stop at their next
    move (``bones.sim.parallel``)."""
    if not active or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    interrupted = False

    def first(signum: int, frame: FrameType | None) -> None:
        nonlocal interrupted
        interrupted = True
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    signal.signal(signal.SIGINT, first)
    signal.signal(signal.SIGTERM, first)
    try:
        yield
    finally:
        if not interrupted:  # once interrupted, stay deaf to both until the process ends
            signal.signal(signal.SIGINT, previous[0])
            signal.signal(signal.SIGTERM, previous[1])


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bones``; returns the exit status (0 ok, 1 refused input, 2 usage or unreadable,
    3 internal error, 130 after Ctrl-C, 143 after SIGTERM)."""
    _escape_what_cannot_be_written()
    _stand_in_for_closed_streams()
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    args, extra = parser.parse_known_args(words)
    if extra:  # said by the sub-command whose usage it is, or by ``bones`` if before it
        before = args.command in words and words.index(extra[0]) < words.index(args.command)
        (parser if before else _parser_of(parser, args.command)).error(
            f"unrecognized arguments: {' '.join(extra)}")
    if getattr(args, "run", None) is None:
        parser.print_help()
        return 2
    if sys.stdout is None:
        print("bones: cannot write the output: standard output is closed", file=sys.stderr)
        return 1
    on_main = threading.current_thread() is threading.main_thread()
    previous = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    Terminated.happened.clear()
    try:
        if on_main:
            signal.signal(signal.SIGTERM, _terminate)
        return _run(args)
    finally:
        # As the program (``argv`` None) a stopped long run stays deaf to a second Ctrl-C
        # until the process ends (``_one_interrupt``). Called in-process with ``argv`` (by
        # tests, by other programs), both handlers are put back as they were: the caller
        # goes on, and its later children would inherit them.
        if on_main and argv is not None:
            signal.signal(signal.SIGINT, previous[0])
            signal.signal(signal.SIGTERM, previous[1])


def _run(args: argparse.Namespace) -> int:
    """Run the sub-command, every refusal one line on standard error; after SIGTERM the
    status is 143 wherever Ctrl-C's would have been 130."""
    try:
        with _one_interrupt(getattr(args, "long_run", False)):
            status: int = args.run(args)
        sys.stdout.flush()  # a failed write shows here, not at exit past every handler
        return 143 if status == 130 and Terminated.happened.is_set() else status
    except InputError as exc:  # a file that cannot be read at all: as a flag that cannot be
        print(f"bones: {exc}", file=sys.stderr)
        return 2
    except BonesError as exc:
        print(f"bones: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if Terminated.happened.is_set():
            print("\nbones: terminated", file=sys.stderr)
            return 143
        print("\nbones: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the last line of defence: users never see a traceback
        if isinstance(exc, OSError) and exc.filename is None:
            # the output could not be written (a full disk, /dev/full); a named file's
            # fault is caught where it is opened, so one reaching here is a bug
            _quiet_stdout()
            print(f"bones: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
            return 1
        if os.environ.get("BONES_DEBUG"):
            raise
        print(f"bones: internal error: {type(exc).__name__}: {exc} "
              "(set BONES_DEBUG=1 for details)", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
