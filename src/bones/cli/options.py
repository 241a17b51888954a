"""Rules from the command line: ``--rules PRESET|FILE`` plus one flag per option of the spec."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bones.cli.rules import MEANINGS, values_in_words
from bones.engine.errors import InputError, RulesError
from bones.engine.rules import (
    BOOLEANS,
    OPTION_NAMES,
    PRESETS,
    Rules,
    read_whole,
    rules_from_json,
)
from bones.record.reader import is_unreadable, json_fault, read_text, strict_json

_INTEGER = ("set", "players", "reserve", "ante")
_INT_OR_WORD = ("hand_size", "target")


def add_rules_arguments(parser: argparse.ArgumentParser, default: str = "block") -> None:
    """Add ``--rules`` and a flag for every option (``--hand-size``, ``--no-draw``, ...)."""
    group = parser.add_argument_group("rules", "a preset or rules file, then any option")
    group.add_argument(
        "--rules", default=default, metavar="PRESET|FILE",
        help=f"a preset ({', '.join(PRESETS)}) or a JSON rules file (default: {default})",
    )
    for name in OPTION_NAMES:
        flag = "--" + name.replace("_", "-")
        text = f"{MEANINGS[name]} ({values_in_words(name)})".replace("%", "%%")
        if name in BOOLEANS:
            group.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction,
                               default=None, help=text)
        else:
            group.add_argument(flag, dest=name, metavar="VALUE", default=None, help=text)


def _value(name: str, text: str) -> Any:
    if name in _INTEGER:
        number = read_whole(text)
        if number is None:
            raise RulesError(name, f"must be a whole number, not {text!r}")
        return number
    if name in _INT_OR_WORD:
        number = read_whole(text)
        return number if number is not None else text
    return text


def rules_from_args(args: argparse.Namespace) -> Rules:
    """Build the rules from ``--rules`` and the option flags; ``RulesError`` on bad input."""
    source: str = args.rules
    base: object = source
    if source not in PRESETS and (source.endswith(".json") or Path(source).exists()):
        # A file that cannot be read is refused with status 2, as a flag whose value
        # cannot be read; its options, once read, are checked as any rules are (status 1).
        text = read_text(source, "a rules file")
        try:
            base = strict_json(text)
        except ValueError as exc:
            what = "cannot be read" if is_unreadable(exc) else "is not JSON"
            raise InputError(f"rules file {source} {what}: {json_fault(exc)}") from None
        if isinstance(base, dict) and "rules" in base and "format" in base:
            base = base["rules"]  # a whole record: take its rules
    rules = rules_from_json(base)
    changes = {name: _value(name, v) if isinstance(v, str) else v
               for name in OPTION_NAMES if (v := getattr(args, name, None)) is not None}
    return rules.replace(**changes) if changes else rules
