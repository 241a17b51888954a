"""Tiles, the layout and a hand as Rich ``Text`` lines that never run past a given width.

A tile is drawn as it lies on the table, ``[6|5]``, the half on the left first, so every arm
reads towards its open number, which is printed beside the arm in bold. The spinner is
drawn ``{6|6}`` so it stands out without colour. Everything here is ASCII: a glyph whose
width the terminal guesses differently would break the 80-column promise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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


def wrapped(line: Text, width: int, indent: int = 2) -> list[Text]:
    """A sentence (a result, a count, a turn's news) wrapped at word breaks to ``width``,
    its later lines indented (a hanging indent): never cut, since its end is what it says
    (the points, the count). Its styles are kept; a word longer than a line is folded."""
    if line.cell_len <= width:
        return [line]
    out: list[Text] = []
    current = Text()
    continuing = False  # a new line that holds no word yet: spaces at a break are dropped
    for number, word in enumerate(line.split(" ", allow_blank=True)):
        if continuing and not word.plain:
            continue
        space = "" if number == 0 or continuing else " "
        if current.plain.strip() and word.plain \
                and current.cell_len + len(space) + word.cell_len > width:
            current.rstrip()
            out.append(current)
            current, continuing, space = Text(" " * indent), True, ""
        current.append(space)
        current.append_text(word)
        continuing = continuing and not word.plain
        while current.cell_len > width:  # a word wider than a line
            out.append(current[:width])
            current = Text(" " * indent) + current[width:]
    current.rstrip()
    out.append(current)
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
    long: the open ends are what a player plays on, the middle is history (and the ``line``
    command shows it)."""
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


@dataclass(frozen=True, slots=True)
class Lying:
    """A tile as it lies in a line read left to right: its left half, its right half, and
    whether it is the spinner."""

    left: int
    right: int
    spinner: bool = False

    def piece(self, backwards: bool = False) -> Piece:
        """Drawn as read left to right, or (``backwards``) in a row of the snake that runs
        right to left, where the tile lies turned round."""
        left, right = (self.right, self.left) if backwards else (self.left, self.right)
        return face(left, right, self.spinner), SPINNER if self.spinner else ""


def _is_spinner(layout: Layout, arm: Arm, index: int) -> bool:
    return layout.spinner is not None and layout.spinner_at == (arm, index)


def _inward(layout: Layout, arm: Arm, links: Sequence[Link]) -> list[Lying]:
    """An arm drawn from its open end towards the centre (as the left arm is seen)."""
    return [Lying(out, touching, _is_spinner(layout, arm, i))
            for i, (touching, out) in reversed(list(enumerate(links)))]


def _line_tiles(layout: Layout) -> list[Lying]:
    """The line through the first tile, from the left arm's open end to the right's."""
    first = layout.first
    assert first is not None
    tiles = _inward(layout, "left", layout.chain("left"))
    tiles.append(Lying(first.high, first.low,
                       layout.spinner is not None and layout.spinner_at is None))
    tiles += [Lying(touching, out, _is_spinner(layout, "right", i))
              for i, (touching, out) in enumerate(layout.chain("right"))]
    return tiles


def _label(arm: Arm, number: int | None, pointing: str) -> Text:
    """An arm's name and open number with an arrow towards the number: ``left 4 <``
    (``pointing`` ``"<"``, the tiles to its right) or ``> 1 right``."""
    if pointing == "<":
        return Text.assemble(f"{arm} ", (str(number), OPEN), " < ")
    return Text.assemble(" > ", (str(number), OPEN), f" {arm}")


def snake(tiles: Sequence[Lying], start: Text, end: Text | None, end_back: Text | None,
          width: int, indent: int = 2) -> list[Text]:
    """A line of tiles laid as on a real table that runs out of room: it goes right, turns
    at the edge and comes back, and turns again, each row within ``width``. ``start`` (the
    first open end's label) begins the first row; the last row ends with ``end`` when it
    runs right, or starts with ``end_back`` when it runs left (``None``: nothing there, as
    at a spinner). A turn is drawn ``-.`` above ``-'`` (or ``.-`` above ``'-``), and a
    tile in a row that runs left lies turned round, so touching halves still meet."""
    end_width = end.cell_len if end is not None else 0
    back_width = end_back.cell_len if end_back is not None else 0
    left = indent + max(start.cell_len, back_width, 2)  # where each row's tiles may start
    body = max(1, width - 2 - left)  # room for tiles between the turns
    whole = sum(len(t.piece()[0]) for t in tiles)
    if indent + start.cell_len + whole + end_width <= width:  # one row: no turn at all
        line = Text(" " * indent) + start
        for t in tiles:
            line.append(*t.piece())
        if end is not None:
            line.append_text(end)
        return [line]
    rows = _rows(tiles, body, end_width)
    # as even as the same number of rows allows, so the turns come where the tiles end
    even = max(len(t.piece()[0]) for t in tiles)
    even = max(even, -(-whole // len(rows)))
    while even < body:
        tried = _rows(tiles, even, end_width)
        if len(tried) <= len(rows):
            rows = tried
            break
        even += 1
    turning = rows if len(rows) % 2 == 0 else rows[:-1]  # rows that end at a turn
    body = max(sum(len(t.piece()[0]) for t in row) for row in turning)
    out = []
    for number, row in enumerate(rows):
        backwards = number % 2 == 1
        last = number == len(rows) - 1
        pieces = [t.piece(backwards) for t in (reversed(row) if backwards else row)]
        used = sum(len(p[0]) for p in pieces)
        line = Text(" " * indent)
        if not backwards:
            if number == 0:
                line.append(" " * (left - indent - start.cell_len))
                line.append_text(start)
            else:
                line.append(" " * (left - indent - 2) + "'-", QUIET)
            for piece in pieces:
                line.append(*piece)
            if not last:
                line.append("-" * (body - used) + "-.", QUIET)
            elif end is not None:
                line.append_text(end)
        else:
            if last:
                line.append(" " * (left - indent + body - used - back_width))
                if end_back is not None:
                    line.append_text(end_back)
            else:
                line.append(" " * (left - indent - 2) + ".-" + "-" * (body - used), QUIET)
            for piece in pieces:
                line.append(*piece)
            line.append("-'", QUIET)
        line.rstrip()
        out.append(line)
    return out


def _rows(tiles: Sequence[Lying], room: int, end_width: int) -> list[list[Lying]]:
    """The snake's rows, each as many tiles as ``room`` columns take, the last with room
    for the end's label when it runs right (a row that is not the last leaves the next
    at least one tile, beside which that label goes)."""
    rows: list[list[Lying]] = []
    i = 0
    while i < len(tiles):
        backwards = len(rows) % 2 == 1
        rest = sum(len(t.piece()[0]) for t in tiles[i:])
        if rest <= room and (backwards or rest + end_width <= room + 2):
            rows.append(list(tiles[i:]))
            break
        row: list[Lying] = []
        used = 0
        while i < len(tiles) - (1 if row else 0) \
                and (not row or used + len(tiles[i].piece()[0]) <= room):
            used += len(tiles[i].piece()[0])
            row.append(tiles[i])
            i += 1
        rows.append(row)
    return rows


def _line(layout: Layout, width: int, whole: bool) -> list[Text]:
    """The line through the first tile: ``left 4 < [4|2]...[5|1] > 1 right``, as a snake
    (``whole``) or on one row with its middle hidden."""
    tiles = _line_tiles(layout)
    head = Text("  ") + _label("left", layout.shows("left"), "<")
    tail = _label("right", layout.shows("right"), ">")
    if whole:
        return snake(tiles, head[2:], tail, _label("right", layout.shows("right"), "<"), width)
    budget = width - len(head.plain) - len(tail.plain)
    return [Text.assemble(head, *_fit([t.piece() for t in tiles], budget), tail)]


def _branch(layout: Layout, arm: Arm, width: int, whole: bool) -> list[Text]:
    """A spinner arm: ``up   2 < [2|3][3|6]{6|6}``, open end first, the spinner last."""
    spinner = layout.spinner
    assert spinner is not None
    tiles = _inward(layout, arm, layout.chain(arm))
    tiles.append(Lying(spinner.high, spinner.low, True))
    head = Text.assemble(f"{arm:<4} ", (str(layout.shows(arm)), OPEN), " < ")
    if whole:
        return snake(tiles, head, None, None, width)
    line = Text("  ") + head
    return [Text.assemble(line, *_fit([t.piece() for t in tiles], width - len(line.plain)))]


def hidden(layout: Layout, width: int) -> int:
    """How many tiles the one-row layout (``layout_lines(..., whole=False)``) hides."""
    lines = layout_lines(layout, width, whole=False)
    return sum(int(m) for line in lines for m in re.findall(r" \.\.(\d+)\.\. ", line.plain))


def layout_lines(layout: Layout, width: int, whole: bool = True) -> list[Text]:
    """The layout: the line with its left and right arms, then the spinner's up and down.
    ``whole`` lays every tile, a long line snaking over several rows; else each arm takes
    one row and a long one hides its middle (``..5..``)."""
    if layout.is_empty:
        return [Text("  empty: the leader sets the first tile", QUIET)]
    lines = _line(layout, width, whole)
    spinner = layout.spinner
    if spinner is not None and layout.shows("up") is None:
        note = (f"  spinner {face(spinner.high, spinner.low, True)}: up and down open "
                "once both its sides have tiles")
        lines += wrapped(Text(note, QUIET), width, indent=4)
    elif spinner is not None:
        lines += _branch(layout, "up", width, whole) + _branch(layout, "down", width, whole)
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
