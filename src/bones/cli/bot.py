"""``bones bot --level L``: run one of our bots as a ``bones-bot/1`` process."""

from __future__ import annotations

import argparse
import io
import sys

from bones.ai.levels import LEVELS
from bones.cli.common import seconds, seed_value
from bones.protocol.server import serve


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bot", help="run a bot that speaks the bones-bot/1 protocol on stdin/stdout",
        description="Speak bones-bot/1 (JSON lines; see docs/bot-protocol.md): answer "
        "hello and move requests on standard input, one reply line each, until quit.",
    )
    p.add_argument("--level", default="greedy", choices=LEVELS,
                   help="which bot (default: greedy)")
    p.add_argument("--seed", type=seed_value, default=None, help="seed the bot's RNG")
    p.add_argument("--think", type=seconds, default=None, metavar="SECONDS",
                   help="at most this many seconds per move (each request carries the "
                   "referee's think time, which the bot otherwise spends; a request that "
                   "carries none gets this, or 0.1 without it)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # JSON between programs is UTF-8 (RFC 8259), whatever the locale says: a referee's
    # byte-order mark or a name in Latin-1 would otherwise be read as other characters. The
    # input is read as bytes (``serve`` reads at most a bounded line at a time, and counts
    # the limit in bytes) and each line as UTF-8: a byte that is not UTF-8 reads as a
    # replacement character, never the end of the bot; outside a string its line is not
    # JSON (an error reply); inside one (a name, say) the request is answered with that
    # character in the name.
    stdin = sys.stdin.buffer if isinstance(sys.stdin, io.TextIOWrapper) else sys.stdin
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8")
    return serve(args.level, stdin, sys.stdout, sys.stderr, seed=args.seed, think=args.think)
