"""Tiles, the layout and a hand as Rich ``Text`` lines that never run past a given width.

A tile is drawn as it lies on the table, ``[6|5]``, the half on the left first, so every arm
reads towards its open number, which is printed beside the arm in bold. The spinner is
drawn ``{6|6}`` so it stands out without colour. Everything here is ASCII: a glyph whose
width the terminal guesses differently would break the 80-column promise.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.text import Text

from bones.engine.layout import Layout, Link
from bones.engine.moves import Arm, Play
from bones.engine.tiles import Tile

#: A run of text and its Rich style.
Piece = tuple[str, str]

OPEN = "bold yellow"
SPINNER = "bold magenta"
PLAYABLE = "bold green"
QUIET = "dim"


def face(left: int, right: int, spinner: bool = False) -> str:
    """A tile as it lies, left half first: ``[6|5]``, or ``{6|6}`` for the spinner."""
    return f"{{{left}|{right}}}" if spinner else f"[{left}|{right}]"


def tile_face(t: Tile) -> str:
    """A tile in a hand, high half first."""
    return face(t.high, t.low)


#: Measures text for ``wrapped`` (Rich wraps a ``Text`` against a console's settings);
#: nothing is ever printed to it.
_MEASURE = Console(file=io.StringIO(), color_system=None, width=200)


def wrapped(line: Text, width: int, indent: int = 2) -> list[Text]:
    """A sentence (a result, a count, a turn's news) wrapped at word breaks to ``width``,
    its later lines indented: never cut, since its end is what it says (the points, the
    count). Its styles are kept."""
    if line.cell_len <= width:
        return [line]
    first, *rest = line.wrap(_MEASURE, width - indent)
    first.rstrip()
    out = [first]
    for part in rest:
        part.rstrip()
        out.append(Text(" " * indent) + part)
    return out


def flow(items: Iterable[Text], width: int, indent: int = 2, gap: int = 2,
         first: Text | None = None) -> list[Text]:
    """Lay ``items`` out left to right, wrapping to indented lines, none wider than ``width``.

    ``first`` starts the first line (a label such as ``Scores:``). An item wider than a line
    is cut rather than allowed to push the screen past ``width``.
    """
    lines: list[Text] = []
    line = first.copy() if first is not None else Text(" " * indent)
    fresh = True
    for item in items:
        needed = item.cell_len + (0 if fresh else gap)
        if not fresh and line.cell_len + needed > width:
            lines.append(line)
            line, fresh = Text(" " * indent), True
        if not fresh:
            line.append(" " * gap)
        line.append_text(item)
        fresh = False
    lines.append(line)
    for text in lines:
        text.truncate(width)
    return lines


def _fit(pieces: Sequence[Piece], budget: int) -> list[Piece]:
    """Keep both ends of a line of tiles and hide the middle behind ``..N..`` if it is too
    long: the open ends are what a player plays on, the middle is history."""
    if sum(len(p[0]) for p in pieces) <= budget:
        return list(pieces)
    room = budget - len(f" ..{len(pieces)}.. ")
    head: list[Piece] = []
    tail: list[Piece] = []
    i, j, used, from_tail = 0, len(pieces) - 1, 0, False
    while i <= j:
        piece = pieces[j] if from_tail else pieces[i]
        if used + len(piece[0]) > room:
            break
        used += len(piece[0])
        if from_tail:
            tail.append(piece)
            j -= 1
        else:
            head.append(piece)
            i += 1
        from_tail = not from_tail
    return head + [(f" ..{j - i + 1}.. ", QUIET)] + tail[::-1]


def _is_spinner(layout: Layout, arm: Arm, index: int) -> bool:
    return layout.spinner is not None and layout.spinner_at == (arm, index)


def _inward(layout: Layout, arm: Arm, links: Sequence[Link]) -> list[Piece]:
    """An arm drawn from its open end towards the centre (as the left arm is seen)."""
    return [(face(out, touching, _is_spinner(layout, arm, i)), SPINNER if
             _is_spinner(layout, arm, i) else "")
            for i, (touching, out) in reversed(list(enumerate(links)))]


def _line(layout: Layout, width: int) -> Text:
    """The line through the first tile: ``left 4 < [4|2]...[5|1] > 1 right``."""
    first = layout.first
    assert first is not None
    centre_is_spinner = layout.spinner is not None and layout.spinner_at is None
    pieces = _inward(layout, "left", layout.chain("left"))
    pieces.append((face(first.high, first.low, centre_is_spinner),
                   SPINNER if centre_is_spinner else ""))
    for i, (touching, out) in enumerate(layout.chain("right")):
        spin = _is_spinner(layout, "right", i)
        pieces.append((face(touching, out, spin), SPINNER if spin else ""))
    head = Text.assemble("  left ", (str(layout.shows("left")), OPEN), " < ")
    tail = Text.assemble(" > ", (str(layout.shows("right")), OPEN), " right")
    budget = width - len(head.plain) - len(tail.plain)
    return Text.assemble(head, *_fit(pieces, budget), tail)


def _branch(layout: Layout, arm: Arm, width: int) -> Text:
    """A spinner arm: ``up   2 < [2|3][3|6]{6|6}``, open end first, the spinner last."""
    spinner = layout.spinner
    assert spinner is not None
    pieces = _inward(layout, arm, layout.chain(arm))
    pieces.append((face(spinner.high, spinner.low, True), SPINNER))
    head = Text.assemble(f"  {arm:<4} ", (str(layout.shows(arm)), OPEN), " < ")
    return Text.assemble(head, *_fit(pieces, width - len(head.plain)))


def layout_lines(layout: Layout, width: int) -> list[Text]:
    """The layout: the line with its left and right arms, then the spinner's up and down."""
    if layout.is_empty:
        return [Text("  empty: the leader sets the first tile", QUIET)]
    lines = [_line(layout, width)]
    spinner = layout.spinner
    if spinner is not None and layout.shows("up") is None:
        note = (f"  spinner {face(spinner.high, spinner.low, True)}: up and down open "
                "once both its sides have tiles")
        lines.append(Text(note, QUIET))
    elif spinner is not None:
        lines.extend(_branch(layout, arm, width) for arm in ("up", "down"))
    for line in lines:
        line.truncate(width)
    return lines


def hand_lines(hand: Sequence[Tile], playable: Iterable[Tile], width: int) -> list[Text]:
    """A hand in the order it is held, each playable tile marked ``*`` and in green."""
    can = set(playable)
    items = [Text.assemble(("*", PLAYABLE) if t in can else " ",
                           (tile_face(t), PLAYABLE if t in can else ""))
             for t in hand]
    return flow(items, width, indent=1, gap=1)


def play_label(play: Play, short: bool = False) -> str:
    """A legal play as listed: the tile and the arm it goes on (``lead`` for a first tile).
    ``short`` writes the arm as its first letter, as typed in ``65r``, for a crowded screen;
    a first tile is then the tile alone."""
    if short:
        return tile_face(play.tile) + (f" {play.end[0]}" if play.end else "")
    return f"{tile_face(play.tile)} {play.end or 'lead'}"


def plays_lines(legal: Sequence[Play], width: int, short: bool = False) -> list[Text]:
    """The legal plays, numbered from 1, in columns (narrower ones with ``short`` labels)."""
    entries = [Text.assemble((f"{n:>2})", "bold"), " ", play_label(p, short))
               for n, p in enumerate(legal, start=1)]
    column = max(len(e.plain) for e in entries) + 2 if entries else 1
    per_row = max(1, (width - 1) // column)
    lines = []
    for start in range(0, len(entries), per_row):
        line = Text(" ")
        for entry in entries[start:start + per_row]:
            line.append_text(entry)
            line.append(" " * (column - len(entry.plain)))
        line.rstrip()
        line.truncate(width)
        lines.append(line)
    return lines
