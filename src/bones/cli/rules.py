"""``bones rules [PRESET] [--json]``: the presets, where each comes from, and every option.

The option meanings are a short form of the options table of ``docs/rules.md``; they live
here, not in the engine, because they are words for people, not rules. A test checks that
every option of the engine has one.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from typing import Any

from bones.engine.rules import OPTION_NAMES, PRESET_SOURCES, PRESETS, Rules, allowed, preset

WIDTH = 80

#: option -> meaning, after the options table of ``docs/rules.md``; the values each takes
#: come from the engine (``allowed``).
MEANINGS: dict[str, str] = {
    "set": "highest pip value of the set (double-six, ...; 2 to 5: the small sets)",
    "players": "number of seats",
    "partnerships": "true: exactly 4 players, seats 0+2 against 1+3",
    "hand_size": '"standard": 7 for 2 players, 5 for 3 or 4 (double-six only); "pool": the '
                 "largest equal hands that leave at least 8 tiles undealt",
    "draw": "false: Block (undealt tiles stay out of play); true: Draw (a player who cannot "
            "play draws)",
    "reserve": "Draw only: tiles the boneyard keeps that are never drawn",
    "call_block": "Draw only: true ends the hand as blocked as soon as the layout is dead, "
                  "instead of drawing down to the reserve",
    "lead": "who leads the first hand: by drawing lots; the holder of the highest double dealt "
            "(else no_double decides); the holder of the heaviest tile dealt",
    "opening": "the tile the leader must set first: any; the highest double dealt; the set's "
               "top double (its holder leads)",
    "no_double": "when the opening needs a double that was not dealt: deal again; or the "
                 "heaviest tile's holder leads and sets it",
    "next_lead": "who leads later hands: the seat left of the previous leader; the previous "
                 "hand's winner; or the lead rule applied afresh",
    "spinner": "first-double: the first double on the layout opens up and down arms once both "
               "its sides are covered",
    "score": "points for the side that wins a hand: the others' counts minus its own; or the "
             "others' counts",
    "target": 'the game ends after the hand in which a side reaches it; "pagat": 100 with two '
              "sides, 61 with more",
    "ante": "chips each player puts in the pool; 0 means no pool",
    "pool": "when the pool is paid and refilled: every hand (its winner takes it), or once a "
            "game (the game's winner takes it)",
    "pool_tie": 'with pool "hand", a tied hand: the pool is divided among the tied sides; or it '
                "all stays for the next hand",
}


def values_in_words(name: str) -> str:
    """What option ``name`` may be, as ``bones rules`` and the flags' help say it:
    ``integer >= 1, "standard", "pool"``."""
    fixed, least = allowed(name)
    return ", ".join(([f"integer >= {least}"] if least is not None else [])
                     + [json.dumps(value) for value in fixed])


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rules", help="list the presets and options, or show one preset",
        description="Without PRESET: every preset (its source and the options it sets) and "
        "every option with its values, default and meaning. With PRESET: all its options.",
    )
    p.add_argument("preset", nargs="?", metavar="PRESET",
                   help=f"one of {', '.join(PRESETS)}")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (indented on a terminal, one line when piped)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.preset is None:
        print(_dumps(everything_json()) if args.json else everything_text())
        return 0
    rules = preset(args.preset)  # RulesError naming the known presets
    print(_dumps(preset_json(args.preset)) if args.json else preset_text(args.preset, rules))
    return 0


def _dumps(doc: dict[str, Any]) -> str:
    """JSON for a person when standard output is a terminal (indented by 2), else one line
    for a program or a pipe (``jq`` and ``grep`` read it either way)."""
    return json.dumps(doc, indent=2 if sys.stdout.isatty() else None)


def _value(value: object) -> str:
    """An option value as the spec and the records write it (``true``, ``"pool"``, 6)."""
    return json.dumps(value)


def changes(rules: Rules) -> dict[str, Any]:
    """The options a preset sets to something other than the default."""
    default = Rules()
    return {k: v for k, v in rules.options().items() if getattr(default, k) != v}


def _wrap(text: str, indent: int) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=" " * indent,
                         subsequent_indent=" " * indent)


def everything_text() -> str:
    """Presets, then options, for a person; fits 80 columns."""
    name_width = max(len(n) for n in PRESETS) + 2
    lines = ["Presets (bones rules PRESET shows all of one):", ""]
    for name, rules in PRESETS.items():
        lines.append(f"  {name:<{name_width}}{PRESET_SOURCES[name]}")
        set_here = ", ".join(f"{k} {_value(v)}" for k, v in changes(rules).items())
        lines += _wrap(f"sets: {set_here or 'nothing (every option at its default)'}",
                       2 + name_width)
    lines += ["", "Options (give any as a flag: --hand-size 5, --draw, --no-draw):", ""]
    default = Rules()
    for name in OPTION_NAMES:
        lines.append(f"  {name}: {values_in_words(name)}; "
                     f"default {_value(getattr(default, name))}")
        lines += _wrap(MEANINGS[name], 6)
    return "\n".join(lines)


def preset_text(name: str, rules: Rules) -> str:
    """One preset's every option; a ``*`` marks those it sets away from the default."""
    lines = [f"{name}: {PRESET_SOURCES.get(name, '')}", ""]
    set_here = changes(rules)
    width = max(len(n) for n in OPTION_NAMES) + 2
    for option, value in rules.options().items():
        mark = "*" if option in set_here else " "
        lines.append(f" {mark}{option:<{width}}{_value(value)}")
    lines += ["", "  * set by the preset; the others keep their defaults",
              f"  with {rules.players} players: {rules.dealt} tiles each, {rules.undealt} "
              f"undealt, target {rules.target_points}"]
    return "\n".join(lines)


def preset_json(name: str) -> dict[str, Any]:
    rules = PRESETS[name]
    return {"preset": name, "source": PRESET_SOURCES.get(name), "sets": changes(rules),
            "options": rules.options()}


def everything_json() -> dict[str, Any]:
    default = Rules()
    return {
        "presets": [preset_json(name) for name in PRESETS],
        "options": [{"name": name, "values": values_in_words(name),
                     "choices": list(choices), "least": least,
                     "default": getattr(default, name), "meaning": MEANINGS[name]}
                    for name in OPTION_NAMES for choices, least in [allowed(name)]],
    }
