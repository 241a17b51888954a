"""Rules from the command line: ``--rules PRESET|FILE`` plus one flag per option of the spec."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bones.cli.rules import MEANINGS, values_in_words
from bones.engine.errors import InputError, RulesError, quoted
from bones.engine.rules import (
    BOOLEANS,
    OPTION_NAMES,
    PRESETS,
    Rules,
    allowed,
    read_whole,
    rules_from_json,
)
from bones.record.reader import is_unreadable, json_fault, read_text, strict_json

_INTEGER = ("set", "players", "reserve", "ante")
_INT_OR_WORD = ("hand_size", "target")


def add_rules_arguments(parser: argparse.ArgumentParser, default: str = "block") -> None:
    """Add ``--rules`` and a flag for every option (``--hand-size``, ``--no-draw``, ...).
    A value no rule set could have (``--target abc``, ``--set 7``, ``--rules nosuch``) is
    refused by argparse, status 2, as ``--seed abc`` is; values that each could be but do
    not make rules together (``--players 9`` with the standard hand size) are refused
    once the rules are built, status 1, naming the option."""
    group = parser.add_argument_group("rules", "a preset or rules file, then any option")
    group.add_argument(
        "--rules", default=default, metavar="PRESET|FILE", type=rules_source,
        help=f"a preset ({', '.join(PRESETS)}) or a JSON rules file (default: {default})",
    )
    for name in OPTION_NAMES:
        flag = "--" + name.replace("_", "-")
        text = f"{MEANINGS[name]} ({values_in_words(name)})".replace("%", "%%")
        if name in BOOLEANS:
            group.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction,
                               default=None, help=text)
        else:
            group.add_argument(flag, dest=name, metavar="VALUE", default=None, help=text,
                               type=option_value(name))


def rules_source(text: str) -> str:
    """A ``--rules``: a preset, or a file (read later); anything else is refused."""
    if text in PRESETS or text.endswith(".json") or Path(text).exists():
        return text
    raise argparse.ArgumentTypeError(f"{quoted(text)} is neither a preset "
                                     f"({', '.join(PRESETS)}) nor a file")


def option_value(name: str) -> Callable[[str], Any]:
    """The reading of option ``name``'s flag: one of its fixed values (a set, a word) or a
    whole number from its least up, as ``allowed`` lists them; ``ArgumentTypeError``
    saying which values it takes for anything else."""
    fixed, least = allowed(name)

    def read(text: str) -> Any:
        number = read_whole(text)
        if number is not None and ((least is not None and number >= least)
                                   or number in fixed):
            return number
        if number is None and text in fixed:
            return text
        kinds = ([f"a whole number of at least {least}"] if least is not None else []) \
            + [json.dumps(value) for value in fixed]
        said = kinds[0] if len(kinds) == 1 else f"{', '.join(kinds[:-1])} or {kinds[-1]}"
        given = quoted(number if number is not None else text)
        raise argparse.ArgumentTypeError(f"must be {said}, not {given}")

    read.__name__ = name  # argparse names the type in some messages
    return read


def _value(name: str, text: str) -> Any:
    if name in _INTEGER:
        number = read_whole(text)
        if number is None:
            raise RulesError(name, f"must be a whole number, not {quoted(text)}")
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
