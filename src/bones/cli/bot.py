"""``bones bot --level L``: run one of our bots as a ``bones-bot/1`` process."""

from __future__ import annotations

import argparse
import sys

from bones.ai.base import LEVELS
from bones.ai.server import serve


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bot", help="run a bot that speaks the bones-bot/1 protocol on stdin/stdout",
        description="Speak bones-bot/1 (JSON lines; see docs/bot-protocol.md): answer "
        "hello and move requests on standard input, one reply line each, until quit.",
    )
    p.add_argument("--level", default="greedy", choices=LEVELS, help="which bot")
    p.add_argument("--seed", type=int, default=None, help="seed the bot's RNG")
    p.add_argument("--think", type=float, default=None,
                   help="seconds per move (requests carry their own think time)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return serve(args.level, sys.stdin, sys.stdout, sys.stderr, seed=args.seed)
