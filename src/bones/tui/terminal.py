"""The one place that reads from and writes to the terminal.

Screens are lists of ``Text`` lines built elsewhere; this module prints them, clears between
screens and reads answers. ``ask`` lets ``EOFError`` and ``KeyboardInterrupt`` through on
purpose: leaving the game is decided by ``bones play``, which knows about the record.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from bones.tui.faces import wrapped

#: The screen drawn where output is not a terminal (a pipe, a file): a compact game fits
#: 80x24. On a terminal every screen takes the terminal's own size.
WIDTH = 80
HEIGHT = 24
#: The least a screen is drawn for: below it lines are cut (``Terminal.too_small`` says so).
MIN_WIDTH = 40
MIN_HEIGHT = 16
#: Piped answers are echoed (the transcript reads like a session) up to this many characters.
ECHOED = 200
#: Home the cursor, clear the screen, and clear the scrollback too (xterm's ``3J``), so the
#: next person at a shared keyboard cannot scroll back to the last player's hand.
_CLEAR = "\x1b[H\x1b[2J\x1b[3J"


class Terminal:
    """A Rich console and ``input``, sized to the terminal (80x24 where output is not one)."""

    def __init__(self, console: Console, echo: bool | None = None) -> None:
        self.console = console
        #: Print each answer after reading it: a terminal echoes what is typed, a pipe does
        #: not, and a transcript of piped answers should still read like a session.
        self.echo = not sys.stdin.isatty() if echo is None else echo
        #: The status line on display (``status``), and a lock, as a thread writes it.
        self._status: str | None = None
        self._lock = threading.Lock()

    def _size(self) -> tuple[int, int] | None:
        """The terminal's columns and lines as the terminal itself says them now (a window
        resized during the game is drawn for at its new size), or ``None`` where output is
        not a terminal. The terminal is asked, not ``COLUMNS``, which may be stale."""
        if not self.console.is_terminal:
            return None
        try:
            size = os.get_terminal_size(self.console.file.fileno())
        except (AttributeError, OSError, ValueError):
            return self.console.width, self.console.height
        return size.columns or self.console.width, size.lines or self.console.height

    @property
    def width(self) -> int:
        """Columns a screen may use: the terminal's (at least 40), or 80 off a terminal."""
        size = self._size()
        return max(MIN_WIDTH, size[0] if size is not None else min(self.console.width, WIDTH))

    @property
    def height(self) -> int:
        """Lines a screen may use: the terminal's (at least 16), or 24 off a terminal."""
        size = self._size()
        return max(MIN_HEIGHT, size[1] if size is not None else min(self.console.height,
                                                                    HEIGHT))

    def status(self, text: str | None) -> None:
        """Show ``text`` on a status line below the screen, or with ``None`` take it away
        (``Expert is thinking...``); only on a terminal, where it can be erased."""
        if not self.console.is_terminal:
            return
        with self._lock:
            out = self.console.file
            if text is None:
                if self._status is not None:
                    out.write("\r\x1b[2K")
            else:
                out.write("\r\x1b[2K" + text[:max(0, self.width - 1)])
            self._status = text
            out.flush()

    def lines_of(self, text: str) -> int:
        """How many lines ``text`` and what is typed after it take at ``width`` (a prompt
        wraps on a narrow screen; one that fills the line puts the answer on the next)."""
        return len(text) // self.width + 1

    def too_small(self) -> str | None:
        """A warning when the terminal is smaller than any screen is drawn for (40 columns,
        16 lines), where lines are cut or scroll away; ``None`` when it is big enough."""
        if not self.console.is_terminal:
            return None
        columns, lines = self._size() or (self.console.width, self.console.height)
        if columns >= MIN_WIDTH and lines >= MIN_HEIGHT:
            return None
        return (f"This terminal is {columns}x{lines}; bones play is drawn for at least "
                f"{MIN_WIDTH}x{MIN_HEIGHT} (80x24 is best), so some of the table will be "
                "cut off. Make the window bigger for the whole table.")

    def clear(self) -> None:
        """Start a fresh screen (only on a real terminal: piped output keeps every screen)."""
        if self.console.is_terminal:
            self.console.file.write(_CLEAR)
            self.console.file.flush()

    def show(self, lines: Iterable[Text]) -> None:
        """Print a screen's lines, which are already cut to ``width``."""
        for line in lines:
            self.console.print(line, no_wrap=True, overflow="crop", width=self.width)

    def say(self, text: str, style: str = "", wrap: bool = True, indent: int = 0) -> None:
        """A line of news or a refusal, wrapped (never cut) at ``width`` between words, its
        later lines ``indent`` deep: a path or a reason must be read whole. A command to
        copy is not wrapped (``wrap=False``): a break in it would be copied too."""
        if wrap:
            self.show(wrapped(Text(text, style), self.width, indent))
        else:
            self.console.print(Text(text, style), soft_wrap=True)

    def ask(self, prompt: str) -> str:
        """Read one line after ``prompt``."""
        answer = self.console.input(Text(prompt, "bold"))
        if self.echo:  # a pasted page is not written back whole
            shown = answer if len(answer) <= ECHOED else answer[:ECHOED - 1] + "~"
            self.console.print(Text(shown), overflow="fold", width=self.width)
        return answer

    def confirm(self, question: str) -> bool:
        """A yes/no question whose default (just Enter) is no."""
        return self.ask(f"{question} [y/N] ").strip().lower() in ("y", "yes")
