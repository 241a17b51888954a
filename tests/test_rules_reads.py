"""The rules are read once: outside the engine (``bones.engine``) and the fast paths
(``bones.fast``, which turn the options into codes for C), nothing reads a rules option to
decide a rule. Front ends and bots ask the engine's helpers instead (``empty_layout``,
``would_draw``, ``drawable``, ``reserve_of``, ``called_block``, ``opening_named``,
``has_pool``, ``score_terms``, ...), so a new option value is taught to the engine once.

A read is ``<anything>.rules.<option>``, ``rules.<option>`` or ``getattr(<either>,
"<option>")`` for an option of ``bones.engine.rules``. The reads that remain only size
things (seats, the set's tiles) or label them; each is listed below with its reason, and
any other read fails the test with its file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bones.engine.rules import OPTION_NAMES

SRC = Path(__file__).resolve().parent.parent / "src" / "bones"
#: Where the options are read by design.
OWNERS = ("engine/", "fast/")

#: (file under src/bones, option): why the read is not a rule decided outside the engine.
ALLOWED: dict[tuple[str, str], str] = {
    ("ai/basic.py", "players"): "walks the seats to weigh each opponent's voids",
    ("ai/basic.py", "partnerships"): "seat arithmetic: a partner's seat (i + 2) exists only "
                                     "with partnerships",
    ("ai/beliefs.py", "players"): "sizes the per-seat lists of what each seat lacks",
    ("ai/beliefs.py", "set"): "lists the set's tiles to find those not yet seen",
    ("ai/position.py", "players"): "the number of seats, for turn order",
    ("ai/position.py", "set"): "the set's tile tables (one bit per tile)",
    ("protocol/codec.py", "players"): "the length of a request's per-seat lists",
    ("protocol/codec.py", "set"): "refuses a request's tiles outside the set",
    ("protocol/public.py", "players"): "per-seat tile counts and turn order",
    ("protocol/public.py", "set"): "refuses a request's tiles outside the set",
    ("ai/sampling.py", "players"): "sizes a sampled deal's hands",
    ("cli/lab.py", "players"): "reports the number of players in --json",
    ("cli/play.py", "players"): "one place at the table per seat",
    ("cli/replay.py", "players"): "lists every seat",
    ("cli/rules.py", "players"): "says how many players the rules deal for",
    ("cli/simulate.py", "players"): "one bot level fills every seat",
    ("cli/simulate.py", "partnerships"): "labels the table's rows as sides (teams) or seats",
    ("lab/metrics.py", "players"): "sizes the per-seat chip sums",
    ("record/listing.py", "players"): "names every seat",
    ("record/writer.py", "players"): "a record's players list has one name per seat",
    ("sim/arena.py", "players"): "one bot per seat",
    ("sim/fastsim.py", "players"): "per-seat statistics",
    ("sim/referee.py", "players"): "one bot per seat",
    ("sim/stats.py", "players"): "per-seat statistics",
    ("table/resume.py", "players"): "seats of the resumed game",
    ("tui/screens.py", "players"): "names custom rules in the header",
    ("tui/screens.py", "set"): "names custom rules in the header",
    ("tui/game.py", "set"): "reads a typed tile up to the set's highest number",
    ("ai/expert.py", "players"): "sizes per-seat lists and the cost of a deal",
    ("ai/expert_deals.py", "set"): "the set's tile index, one bit per tile",
    ("ai/expert_deals.py", "players"): "sizes a deal's hands",
    ("ai/explain.py", "players"): "names each seat",
    ("ai/judge.py", "players"): "per-seat sides and preferences",
    ("table/table.py", "players"): "one seat per player",
    ("table/fair.py", "players"): "one player seed and one hand per seat",
    ("table/fair.py", "set"): "the set's tiles, in the order the shuffle starts from",
    ("cli/verify.py", "players"): "one player seed per seat",
    ("table/wire.py", "players"): "a view's rules always name the players",
    ("research/core.py", "set"): "the set's tiles and numbers, which number the actions",
    ("research/core.py", "players"): "sizes the per-seat lists and tensors",
    ("research/gym.py", "players"): "one bot per seat but the agent's",
    ("research/openspiel.py", "players"): "OpenSpiel's number of players",
    ("research/pettingzoo.py", "players"): "one agent per seat",
}

def _is_rules(node: ast.expr) -> bool:
    """``rules`` itself, or ``<anything>.rules``."""
    return (isinstance(node, ast.Name) and node.id == "rules") or \
        (isinstance(node, ast.Attribute) and node.attr == "rules")


def scan(source: str) -> list[tuple[int, str]]:
    """Every read of a rules option in ``source``: (line, option)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in OPTION_NAMES \
                and _is_rules(node.value):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "getattr" and len(node.args) >= 2 \
                and _is_rules(node.args[0]) and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in OPTION_NAMES:
            found.append((node.lineno, str(node.args[1].value)))
    return sorted(found)


def reads() -> list[tuple[str, int, str]]:
    """Every read outside the engine and the fast paths: (file, line, option)."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        name = path.relative_to(SRC).as_posix()
        if name.startswith(OWNERS):
            continue
        out += [(name, line, option) for line, option in scan(path.read_text())]
    return out


def test_the_scanner_finds_every_form_of_read():
    source = ("a = view.rules.draw\n"
              "b = rules.reserve + len(rules.sides_of)\n"
              "c = self.game.rules.spinner == 'none'\n"
              "d = getattr(rules, 'call_block')\n"
              "e = other.draw + rules.dealt + rules.side_of(0)\n")
    assert scan(source) == [(1, "draw"), (2, "reserve"), (3, "spinner"), (4, "call_block")]


def test_no_rule_is_read_outside_the_engine_but_the_allowed_reads():
    unexpected = [f"src/bones/{name}:{line}: reads rules.{option}"
                  for name, line, option in reads() if (name, option) not in ALLOWED]
    assert not unexpected, (
        "rules options read outside bones.engine: ask an engine helper, or (for a read that "
        "only sizes or labels something) add it to ALLOWED with its reason:\n"
        + "\n".join(unexpected))


def test_every_allowed_read_still_happens():
    """An entry whose read is gone is removed, so the list stays the list of reads."""
    found = {(name, option) for name, _, option in reads()}
    assert not sorted(set(ALLOWED) - found)


def test_every_allowed_read_names_an_option_and_a_reason():
    for (name, option), reason in ALLOWED.items():
        assert (SRC / name).is_file() and option in OPTION_NAMES and reason.strip()
