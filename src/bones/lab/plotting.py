"""Figures of the lab's metrics with their 95% intervals as error bars, as PNG and SVG.

One figure per metric: the first varied option along x, one line per value of the other
varied options. Chips are drawn by seat instead (x is the seat, one line per rule set),
since what a pool rule changes is who wins the chips. Only this module imports matplotlib,
and it draws on a ``Figure`` with the Agg canvas rather than through ``pyplot``, so nothing
global (backend, open figures) is touched and no display is needed.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from bones.engine.errors import BonesError
from bones.lab.grid import Value, Variation, show
from bones.lab.metrics import Estimate, Metrics
from bones.lab.running import Row
from bones.record.files import check_place, probe, reason, write_whole

#: File stem, axis label, scale (100 for a share shown in percent) and the field of
#: ``Metrics`` of each figure drawn against the varied options.
FIGURES: tuple[tuple[str, str, float, Callable[[Metrics], Estimate | None]], ...] = (
    ("leader-advantage", "leader's side: share of decided hands - 1/sides (%)", 100,
     lambda m: m.leader_advantage),
    ("blocked", "blocked hands (%)", 100, lambda m: m.blocked),
    ("tied", "tied hands (%)", 100, lambda m: m.tied),
    ("points-per-hand", "points per hand", 1, lambda m: m.points_per_hand),
    ("hands-per-game", "hands per game", 1, lambda m: m.hands_per_game),
)

#: The figure drawn by seat, when some rule set has a pool.
CHIPS = "chips-per-game"
#: The formats each figure is saved in.
FORMATS = ("png", "svg")

#: How far apart, in category widths, the lines of one x value are drawn.
SPREAD = 0.2


def prepare(directory: Path) -> None:
    """Make ``directory`` (and its parents) and check that files can be written in it, so
    that a folder that cannot take the plots is refused before any hand is played, not
    after a long run."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BonesError(f"cannot make plot directory {directory}: {exc.strerror}") from None
    try:
        probe(directory)
    except OSError as exc:
        raise BonesError(f"cannot write plots in {directory}: {exc.strerror}") from None
    for stem in (*(figure[0] for figure in FIGURES), CHIPS):
        for suffix in FORMATS:
            path = directory / f"lab-{stem}.{suffix}"
            try:  # a device, a pipe, a link where a plot goes: refused, never replaced
                check_place(path)
            except OSError as exc:
                raise BonesError(f"cannot write plot {path}: {reason(exc)}") from None


def plot(rows: Sequence[Row], variations: Sequence[Variation], directory: Path,
         title: str) -> list[Path]:
    """Write ``lab-<metric>.png`` and ``.svg`` for every metric into ``directory`` (made if
    missing); return the paths written. Skipped grid points leave gaps."""
    prepare(directory)
    written: list[Path] = []
    for stem, label, scale, field in FIGURES:
        fig, ax = _figure(title)
        _draw_against_options(ax, rows, variations, scale, field)
        ax.set_ylabel(label)
        written += _save(fig, directory, stem)
    if any(r.metrics is not None and r.metrics.chips_per_game is not None for r in rows):
        fig, ax = _figure(title)
        _draw_chips(ax, rows)
        written += _save(fig, directory, CHIPS)
    return written


def _figure(title: str) -> tuple[Figure, Axes]:
    fig = Figure(figsize=(7, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_title(title, fontsize="medium")
    ax.grid(True, axis="y", alpha=0.3)
    return fig, ax


def _draw_against_options(ax: Axes, rows: Sequence[Row], variations: Sequence[Variation],
                          scale: float, field: Callable[[Metrics], Estimate | None]) -> None:
    """x: the first option's values (or one point, the rules, when nothing is varied); one
    line per combination of the other options' values."""
    first = variations[0] if variations else None
    xs: tuple[Value, ...] = first.values if first else ("",)
    rest = list(itertools.product(*(v.values for v in variations[1:])))
    by_values = {tuple(value for _, value in r.point.changes): r for r in rows}
    for k, combo in enumerate(rest):
        offset = (k - (len(rest) - 1) / 2) * SPREAD / max(1, len(rest) - 1)
        points = []
        for i, x in enumerate(xs):
            row = by_values.get(((x,) if first else ()) + combo)
            estimate = field(row.metrics) if row and row.metrics else None
            if estimate is not None:
                points.append((i + offset, estimate))
        label = ", ".join(f"{v.option} {show(value)}"
                          for v, value in zip(variations[1:], combo, strict=True))
        _errorbar(ax, points, scale, label or None)
    ax.set_xticks(range(len(xs)), [show(x) for x in xs])
    ax.set_xlabel(first.option if first else "rules")
    if len(rest) > 1:
        _legend(ax)


def _draw_chips(ax: Axes, rows: Sequence[Row]) -> None:
    """x: the seat; one line per rule set with a pool."""
    drawn = [r for r in rows if r.metrics is not None and r.metrics.chips_per_game is not None]
    seats = max(len(r.metrics.chips_per_game or ()) for r in drawn if r.metrics)
    for k, row in enumerate(drawn):
        assert row.metrics is not None and row.metrics.chips_per_game is not None
        offset = (k - (len(drawn) - 1) / 2) * SPREAD / max(1, len(drawn) - 1)
        points = [(seat + offset, e) for seat, e in enumerate(row.metrics.chips_per_game)
                  if e is not None]
        _errorbar(ax, points, 1, row.point.label or None)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(range(seats), [str(s) for s in range(seats)])
    ax.set_xlabel("seat")
    ax.set_ylabel("net chips per finished game")
    if len(drawn) > 1:
        _legend(ax)


def _legend(ax: Axes) -> None:
    """Beside the axes, not over them: error bars fill the whole plot."""
    ax.figure.legend(loc="outside right upper", fontsize="small")


def _errorbar(ax: Axes, points: Sequence[tuple[float, Estimate]], scale: float,
              label: str | None) -> None:
    if not points:
        return
    x = [p for p, _ in points]
    y = [e.value * scale for _, e in points]
    below = [(e.value - e.low) * scale for _, e in points]
    above = [(e.high - e.value) * scale for _, e in points]
    ax.errorbar(x, y, yerr=[below, above], marker="o", markersize=4, capsize=3,
                label=label)


def _save(fig: Figure, directory: Path, stem: str) -> list[Path]:
    """PNG for looking at, SVG for documents; the SVG carries no date so a rerun gives the
    same file. Drawn in memory, then written whole as a record is (``write_whole``): never
    into a device, a pipe or the file a link points to."""
    paths = [directory / f"lab-{stem}.{suffix}" for suffix in FORMATS]
    options: tuple[dict[str, Any], ...] = ({"dpi": 120}, {"metadata": {"Date": None}})
    for path, suffix, settings in zip(paths, FORMATS, options, strict=True):
        image = io.BytesIO()
        fig.savefig(image, format=suffix, **settings)
        try:
            write_whole(path, image.getvalue())
        except OSError as exc:
            raise BonesError(f"cannot write plot {path}: {reason(exc)}") from None
    return paths
