"""``bones rules``: placeholder until built."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rules", help="(not built yet)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    raise SystemExit("bones rules: not built yet")
