"""The packages of ``bones`` are layers: each imports only from its own layer and those below,
and no modules import each other round in a loop.

Every module under ``src/bones`` is read with ``ast`` (not imported), and every import in it
counts: at the top, inside functions, under ``TYPE_CHECKING``. ``from bones.x import y``
imports the module ``bones.x.y`` when there is one, else ``bones.x``. A package's
``__init__`` may import its own submodules; a submodule that imports its package's
``__init__`` back (``from bones.x import name``) closes a loop, and fails here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = "bones"
SOURCE = Path(__file__).resolve().parent.parent / "src" / ROOT

#: The layers, lowest first, each the top-level packages in it (``bones`` itself is
#: ``bones/__init__.py``). A module may import from its own package and from any package of
#: a lower layer, never a higher one.
LAYERS: tuple[tuple[str, ...], ...] = (
    (ROOT,),
    ("engine",),
    ("fast",),
    ("record",),
    ("ai",),
    ("table",),          # the table every front end drives: seats, bots, events, views
    ("protocol",),       # the bot protocol bones-bot/1: codec, outside bots, ``bones bot``
    ("sim", "lab", "research"),  # research: OpenSpiel, PettingZoo and Gymnasium adapters
    ("server",),         # the web front end (to come)
    ("tui", "cli"),
)
#: (importer, imported) packages of one layer that may import across it: the lab measures
#: with the simulation's statistics and workers, and the command line runs the terminal
#: game. Not the other way round.
ACROSS: frozenset[tuple[str, str]] = frozenset({("lab", "sim"), ("cli", "tui")})


@dataclass(frozen=True, slots=True)
class Import:
    """One import of one module of ``bones`` by another."""

    importer: str
    file: Path
    line: int
    module: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.importer} imports {self.module}"


def module_names(source: Path, root: str = ROOT) -> dict[str, Path]:
    """Every module under ``source`` (the package ``root``) by dotted name: its ``.py``, or
    the ``.pyi`` stub of a compiled extension."""
    found: dict[str, Path] = {}
    for path in sorted(source.rglob("*.py*")):
        if path.suffix not in (".py", ".pyi") or "__pycache__" in path.parts:
            continue
        parts = [root, *path.relative_to(source).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found.setdefault(".".join(parts), path)  # the .py sorts before its .pyi
    return found


def _known(name: str, modules: Mapping[str, Path]) -> str | None:
    """The module ``name`` names: itself, or the longest known module it is inside."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, path: Path, modules: Mapping[str, Path],
               root: str = ROOT) -> list[Import]:
    """Every import of a module of ``root`` in the module ``name`` read from ``path``."""
    found = []
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up one per dot after the first
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        for target in targets:
            if target != root and not target.startswith(root + "."):
                continue
            module = _known(target, modules)
            if module is not None and module != name:
                found.append(Import(name, path, node.lineno, module))
    return sorted(set(found), key=lambda f: (f.line, f.module))  # once per line and module


def all_imports(source: Path = SOURCE, root: str = ROOT) -> list[Import]:
    modules = module_names(source, root)
    return [found for name, path in modules.items()
            for found in imports_of(name, path, modules, root)]


def package_of(module: str) -> str:
    """The top-level package a module belongs to (``bones`` for ``bones/__init__.py``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def layer_faults(imports: Iterable[Import],
                 layers: tuple[tuple[str, ...], ...] = LAYERS,
                 across: frozenset[tuple[str, str]] = ACROSS) -> list[str]:
    """Why each import that reaches a higher layer, or across one, is wrong; and each
    module in a package no layer names."""
    level = {package: n for n, layer in enumerate(layers) for package in layer}
    faults = []
    for found in imports:
        mine, theirs = package_of(found.importer), package_of(found.module)
        unplaced = [p for p in (mine, theirs) if p not in level]
        if unplaced:
            faults.append(f"{found}: the package {unplaced[0]!r} is in no layer (add it to "
                          "LAYERS in tests/test_layers.py)")
        elif mine != theirs and level[theirs] > level[mine]:
            faults.append(f"{found}: {mine} (layer {level[mine]}) may not import from "
                          f"{theirs} (layer {level[theirs]}, higher)")
        elif mine != theirs and level[theirs] == level[mine] and (mine, theirs) not in across:
            faults.append(f"{found}: {mine} may not import from {theirs} (the same layer, "
                          "and not one of ACROSS)")
    return faults


def cycles(imports: Iterable[Import], most: int = 5) -> list[list[Import]]:
    """Loops of modules that import each other round, each as its imports in the order they
    go round: for each group of modules that do (each strongly connected component of more
    than one module), the shortest loop through each of its modules, each loop once, at most
    ``most`` of them, shortest first."""
    edges: dict[str, list[Import]] = {}
    for found in imports:
        edges.setdefault(found.importer, []).append(found)
        edges.setdefault(found.module, [])
    loops = []
    for group in _components(edges):
        seen: dict[frozenset[Import], list[Import]] = {}
        for start in sorted(group):
            loop = _shortest_loop(start, group, edges)
            seen.setdefault(frozenset(loop), loop)
        loops += sorted(seen.values(), key=len)[:most]
    return loops


def _components(edges: Mapping[str, list[Import]]) -> list[set[str]]:
    """Tarjan's strongly connected components of more than one module, without recursion
    (a long chain of imports stays within Python's limits)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, next_edge = work.pop()
            if next_edge == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            out = edges[node]
            while next_edge < len(out):
                target = out[next_edge].module
                next_edge += 1
                if target not in index:
                    work.append((node, next_edge))
                    work.append((target, 0))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return groups


def _shortest_loop(start: str, group: set[str],
                   edges: Mapping[str, list[Import]]) -> list[Import]:
    """The imports of a shortest loop from ``start`` back to it within ``group`` (breadth
    first)."""
    came: dict[str, list[Import]] = {start: []}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for found in edges[node]:
                if found.module == start:
                    return [*came[node], found]
                if found.module in group and found.module not in came:
                    came[found.module] = [*came[node], found]
                    following.append(found.module)
        frontier = following
    raise AssertionError(f"{start} is on no loop of its component")


def _cycle_report(loops: list[list[Import]]) -> str:
    return "\n\n".join("modules that import each other round in a loop (break it at one of "
                       "these imports):\n" + "\n".join(f"  {found}" for found in loop)
                       for loop in loops)


# -- bones itself ---------------------------------------------------------------------------


def test_the_source_is_where_the_check_looks():
    """A check that read nothing would pass: the modules and imports it reads are there."""
    modules = module_names(SOURCE)
    assert {"bones", "bones.engine.rules", "bones.protocol.external",
            "bones.fast._search"} <= modules.keys()
    found = {(f.importer, f.module) for f in all_imports()}
    assert ("bones.protocol.external", "bones.protocol.codec") in found
    assert ("bones.sim.referee", "bones.protocol.bots") in found


def test_every_package_is_in_a_layer():
    packages = {package_of(name) for name in module_names(SOURCE)}
    placed = {package for layer in LAYERS for package in layer}
    assert packages <= placed, f"packages in no layer: {sorted(packages - placed)}"


def test_no_import_reaches_a_higher_layer():
    faults = layer_faults(all_imports())
    assert not faults, "\n".join(faults)


def test_no_modules_import_each_other_in_a_loop():
    loops = cycles(all_imports())
    assert not loops, _cycle_report(loops)


# -- the check itself, on a made-up package ---------------------------------------------------


def _package(tmp_path: Path, files: Mapping[str, str]) -> Path:
    source = tmp_path / ROOT
    for name, text in {"__init__.py": "", **files}.items():
        path = source / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return source


def test_an_import_from_above_is_named_with_its_file_line_and_module(tmp_path):
    source = _package(tmp_path, {
        "engine/__init__.py": "",
        "engine/rules.py": "import json\n\n\ndef late():\n    from bones.sim import referee\n",
        "sim/__init__.py": "",
        "sim/referee.py": "from bones.engine.rules import late\n",
    })
    faults = layer_faults(all_imports(source))
    assert faults == [f"{source / 'engine/rules.py'}:5: bones.engine.rules imports "
                      "bones.sim.referee: engine (layer 1) may not import from sim (layer 7, "
                      "higher)"]


def test_imports_under_type_checking_across_a_layer_or_from_no_layer_count(tmp_path):
    source = _package(tmp_path, {
        "sim/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                           "    import bones.lab.grid\n",
        "lab/__init__.py": "",
        "lab/grid.py": "from bones.sim import parallel\n",
        "sim/parallel.py": "",
        "tui/__init__.py": "from bones import cli\n",
        "cli/__init__.py": "from bones.tui import *\n",
        "engine/__init__.py": "",
        "weird/__init__.py": "import bones.engine\n",
    })
    faults = layer_faults(all_imports(source))
    assert len(faults) == 3, faults
    assert faults[0].startswith(f"{source / 'sim/__init__.py'}:3: bones.sim imports "
                                "bones.lab.grid: sim may not import from lab")
    assert faults[1].startswith(f"{source / 'tui/__init__.py'}:1: bones.tui imports "
                                "bones.cli: tui may not import from cli")
    assert faults[2] == (f"{source / 'weird/__init__.py'}:1: bones.weird imports bones.engine: "
                         "the package 'weird' is in no layer (add it to LAYERS in "
                         "tests/test_layers.py)")


def test_a_package_may_import_its_submodules_but_not_be_imported_back(tmp_path):
    source = _package(tmp_path, {
        "ai/__init__.py": "from bones.ai.levels import make_bot\n",
        "ai/levels.py": "from bones.ai import expert\n",  # the submodule, not __init__
        "ai/expert.py": "from . import budget\n",
        "ai/budget.py": "",
    })
    assert cycles(all_imports(source)) == []
    (source / "ai/budget.py").write_text("def net():\n    from bones.ai import make_bot\n")
    loops = cycles(all_imports(source))
    assert [[str(found) for found in loop] for loop in loops] == [[
        f"{source / 'ai/__init__.py'}:1: bones.ai imports bones.ai.levels",
        f"{source / 'ai/levels.py'}:1: bones.ai.levels imports bones.ai.expert",
        f"{source / 'ai/expert.py'}:1: bones.ai.expert imports bones.ai.budget",
        f"{source / 'ai/budget.py'}:2: bones.ai.budget imports bones.ai",
    ]]


@pytest.mark.parametrize("lazy", [False, True])
def test_two_modules_that_import_each_other_are_a_loop(tmp_path, lazy):
    back = "def f():\n    import bones.ai.base\n" if lazy else "import bones.ai.base\n"
    source = _package(tmp_path, {
        "ai/__init__.py": "",
        "ai/base.py": "from bones.ai.expert import ExpertBot\n",
        "ai/expert.py": back,
    })
    loops = cycles(all_imports(source))
    assert len(loops) == 1
    assert [(found.importer, found.module) for found in loops[0]] == [
        ("bones.ai.base", "bones.ai.expert"), ("bones.ai.expert", "bones.ai.base")]
    assert "bones.ai.expert imports bones.ai.base" in _cycle_report(loops)
