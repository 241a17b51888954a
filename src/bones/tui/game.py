"""The terminal game: a table (``bones.table``) driven from the keyboard, with a screen at
every turn of a person and at the end of every hand.

The table makes every bot's move and every forced draw and pass; this module asks people for
theirs, shows what happened, and offers hint, undo, review and quit. Randomness comes from
the seed alone (``bones.table.seeds``): the deals from ``Random(seed)``, each bot from its own
generator derived from the seed and its seat, so the same seed deals the same game whoever
sits where.
"""

from __future__ import annotations

import io
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from bones.ai.review import COST_LEGEND, deep_text, mistake_text, review
from bones.engine.errors import IllegalMove
from bones.engine.game import Game
from bones.engine.moves import Draw, Pass, Play
from bones.engine.rules import Rules
from bones.engine.view import SeatView
from bones.protocol.bots import make_seat_bot
from bones.table import seeds
from bones.table.advice import hint
from bones.table.events import Undone
from bones.table.seats import Seating
from bones.table.table import Dealer, Table, TableError
from bones.tui.commands import (
    Command,
    Forced,
    Help,
    Hint,
    Pick,
    Quit,
    ShowLine,
    Sort,
    TileCode,
    Undo,
    Unreadable,
    read_arm,
    read_command,
)
from bones.tui.faces import layout_lines
from bones.tui.screens import (
    ORDER_WORDS,
    ORDERS,
    choices,
    command_lines,
    game_end_screen,
    hand_end_screen,
    help_lines,
    pass_screen,
    play_words,
    turn_screen,
    waiting_screen,
)
from bones.tui.terminal import Terminal


class QuitGame(Exception):
    """The person at the keyboard typed ``quit`` and confirmed it."""


class _TakenBack(Exception):
    """``undo`` was accepted: the person's turn starts again, further back."""


#: Seconds a bot may think before the screen says so.
THINKING_AFTER = 0.3


class TerminalGame:
    """One game at one terminal. ``game`` always holds the game as played so far, so whoever
    stops the loop (quit, Ctrl-C, end of input) can still save its record."""

    def __init__(self, rules: Rules, seating: Seating, seed: int, terminal: Terminal,
                 after_hand: Callable[[Game], None] | None = None,
                 think: float = 0.5, game: Game | None = None,
                 deals: random.Random | Dealer | None = None,
                 played_for: list[dict[str, object]] | None = None,
                 replayable: bool = True, undone: int = 0) -> None:
        """A new game, or with ``game`` one taken up where it was left (``bones play
        --resume``): ``deals`` then shuffles the hands still to come (else ``Random(seed)``
        does), ``played_for`` lists the plays made for outside bots before, and
        ``replayable`` says whether ``seed`` dealt the hands before too."""
        self.rules = rules
        self.seating = seating
        self.seed = seed
        self.think = think
        #: The seed that deals this whole game again, if one does.
        self.replay_seed = seed if replayable else None
        self.terminal = terminal
        self.after_hand = after_hand
        #: What outside bots did wrong this hand, held until the hand is over: a fault
        #: quotes the bot's reply, which names a tile it holds ("illegal reply: 6-4 ...").
        self._bot_faults = io.StringIO()
        # undo for one person against our bots only: at a shared keyboard it would take
        # back another's move, and an outside bot's faults would name moves undone
        undo = len(seating.humans) == 1 and not any(
            kind.startswith("cmd:") for kind in seating.kinds)
        self.table = Table(
            rules, seating, deals if deals is not None else seeds.play_deals(seed),
            bot=lambda seat: make_seat_bot(seating.kinds[seat], seeds.play_bot(seed, seat),
                                           think, self._bot_faults),
            game=game, played_for=played_for or (), undo=undo, undone=undone)
        #: The person who may be looking at the screen; ``None`` after a public screen.
        self._viewer: int | None = None
        #: Said once the next turn is on the screen (after ``undo``).
        self._notice: str | None = None
        #: The order each person's hand is shown in (``sort``), kept for the game.
        self._order: dict[int, str] = {}

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def played_for(self) -> list[dict[str, object]]:
        return self.table.played_for

    def replay_command(self) -> list[str] | None:
        """The ``bones play`` command that deals this game again, if a seed does, as lines
        to print: broken, where the screen is narrow, as a shell continues a line."""
        if self.replay_seed is None:
            return None
        return command_lines(play_words(self.rules, self.seating, self.replay_seed,
                                        self.think), self.terminal.width)

    # -- the loop ------------------------------------------------------------------------

    def play_game(self) -> Game:
        """Play hands until a side reaches the target; return the finished game."""
        try:
            return self._play_game()
        finally:
            self.table.close()
            self._tell_bot_faults()  # a game left mid-hand, or a bot that would not close

    def _play_game(self) -> Game:
        table = self.table
        while not table.finished:
            if self.game.current is None:  # a resumed game may be in the middle of a hand
                table.deal()
            self._advance()
            while (seat := table.waiting) is not None:
                self._turn(seat)
                self._advance()
            if self.after_hand is not None:
                self.after_hand(self.game)
            self._show_hand_end()
            self._tell_bot_faults()
            if self.seating.humans:
                self._between_hands()
        self.terminal.show(game_end_screen(self.game, self.seating, self.replay_seed,
                                           self.terminal.width, self.table.undone))
        for line in self.replay_command() or ():
            self.terminal.say(line, wrap=False)
        return self.game

    def _advance(self) -> None:
        """The table's bots and forced moves, with a sign on the screen while a bot thinks
        for more than a moment."""
        with self._thinking():
            self.table.advance()

    @contextmanager
    def _thinking(self) -> Iterator[None]:
        """While the table plays on, watch whose move it is: a bot still on the same move
        after ``THINKING_AFTER`` seconds is said to be thinking, on a status line that goes
        once it has moved. Only on a terminal (a transcript would keep the line), and only
        with a person at the table to read it."""
        if not self.terminal.console.is_terminal or not self.seating.humans:
            yield
            return
        done = threading.Event()
        watcher = threading.Thread(target=self._watch, args=(done,), daemon=True)
        watcher.start()
        try:
            yield
        finally:
            done.set()
            watcher.join()

    def _watch(self, done: threading.Event) -> None:
        shown: str | None = None
        since, at = time.monotonic(), None
        while not done.wait(0.05):
            state = self.table.game.current
            where = None if state is None else (len(self.table.game.hands), len(state.moves))
            if where != at:
                since, at = time.monotonic(), where
                if shown is not None:
                    self.terminal.status(None)
                    shown = None
            if state is None or self.seating.is_human(state.to_move) \
                    or time.monotonic() - since < THINKING_AFTER:
                continue
            text = f"{self.seating.names[state.to_move]} is thinking..."
            if text != shown:
                self.terminal.status(text)
                shown = text
        if shown is not None:
            self.terminal.status(None)

    def _turn(self, seat: int) -> None:
        """A person's turn: asked until the table takes a play (or takes one back)."""
        try:
            self._ask(seat)
        except _TakenBack:
            return
        self._hide_hand(seat)

    def _tell_bot_faults(self) -> None:
        """Say what the outside bots did wrong in the hand just over (the deal is open now)."""
        told = self._bot_faults.getvalue()
        self._bot_faults.seek(0)
        self._bot_faults.truncate()
        for line in told.splitlines():
            self.terminal.say(line)

    # -- screens -------------------------------------------------------------------------

    def _you(self) -> int | None:
        """Whom a public screen may call "you": the only person at the table, if one."""
        humans = self.seating.humans
        return humans[0] if len(humans) == 1 else None

    def _between_hands(self) -> None:
        """Wait for the next hand (after the last, for the game's result); ``r`` first
        reviews the people's plays of this one, ``help`` says so, and ``quit`` leaves as
        during a hand. Any other answer goes on, as Enter does, so piped answers never stall
        here."""
        last = self.game.finished
        prompt = self._between_prompt()
        while True:
            try:
                answer = self.terminal.ask(prompt).strip().lower()
            except EOFError:
                if last:  # input ended with the game: its result is still shown
                    self.terminal.say("")  # below the prompt, not on its line
                    return
                raise
            if answer in ("r", "review"):
                self._review()
            elif answer in ("help", "h", "?"):
                self.terminal.say("Enter: go on;  r: review your plays of this hand"
                                  + ("" if last else ";  quit: leave the game"))
            elif answer in ("q", "quit") and not last:
                self._confirm_quit()
            else:
                return

    def _confirm_quit(self) -> None:
        """Leave the game (``QuitGame``) if the person confirms it."""
        if self.terminal.confirm("Quit this game?"):
            raise QuitGame

    def _review(self) -> None:
        """List each person's costliest plays of the last hand, by an exact solve of the
        revealed deal."""
        hand = self.game.hands[-1]
        before = tuple(s - p for s, p in zip(self.game.scores, self.game.results[-1].points,
                                             strict=True))
        self.terminal.say(f"Judged by an exact solve of the revealed deal ({COST_LEGEND}).")
        for seat in self.seating.humans:
            mistakes, skipped = review(hand, seat, before)
            name = self.seating.names[seat]
            if not mistakes:
                self.terminal.say(f"{name}: no play could have done better"
                                  + (f" ({deep_text(skipped)})" if skipped else "."), indent=2)
                continue
            self.terminal.say(f"{name}: the plays that cost the most (and the better play):")
            for m in mistakes[:3]:
                self.terminal.say(f"  {mistake_text(m, own=True)}", indent=4)
            if skipped:
                self.terminal.say(f"  ({deep_text(skipped)})", indent=4)

    def _between_prompt(self) -> str:
        if self.terminal.width < 64:  # on one line of a narrow screen
            return ("Press Enter for the result of the game (r: review) "
                    if self.game.finished else "Press Enter for the next hand (r: review) ")
        return ("Press Enter for the result of the game (r: review your plays) "
                if self.game.finished
                else "Press Enter for the next hand (r: review your plays, quit) ")

    def _show_hand_end(self) -> None:
        """The hand-end screen, fitted to the terminal with room below it for the outside
        bots' faults and the prompt; piped output, never cleared, keeps it whole."""
        if self.seating.humans:
            self.terminal.clear()
        elif len(self.game.hands) > 1:
            self.terminal.say("")  # bots only: screens follow one another, uncleared
        below = sum(self.terminal.lines_of(line)
                    for line in self._bot_faults.getvalue().splitlines())
        if self.seating.humans:
            below += self.terminal.lines_of(self._between_prompt())
        height = self.terminal.height if self.terminal.console.is_terminal else None
        self.terminal.show(hand_end_screen(self.game, self.seating, self.terminal.width,
                                           self._you(), height, below))
        self._viewer = None

    def _hide_hand(self, seat: int) -> None:
        """With several people at one keyboard, take a hand off the screen as soon as its
        move is made: the next person may be looking while the bots play."""
        if len(self.seating.humans) < 2:
            return
        self.terminal.clear()
        self.terminal.show(waiting_screen(self.seating.names[seat]))
        self._viewer = None  # whoever comes to the keyboard next is asked who they are

    def _hand_over_keyboard(self, seat: int) -> None:
        """With several people at one keyboard, blank the screen and wait for the right one
        before showing a hand."""
        if len(self.seating.humans) < 2 or self._viewer == seat:
            return
        self.terminal.clear()
        self.terminal.show(pass_screen(self.seating.names[seat]))
        self.terminal.ask(f"{self.seating.names[seat]}, press Enter ")

    def _draw_turn(self, view: SeatView, prompt: str) -> None:
        self.terminal.clear()
        self.terminal.show(turn_screen(view, self.seating, len(self.game.hands),
                                       self.terminal.width, self.terminal.height,
                                       self.terminal.lines_of(prompt),
                                       self._order.get(view.seat, "dealt")))

    # -- a person's move -----------------------------------------------------------------

    def _prompt(self, plays: Sequence[Play]) -> str:
        """The move prompt, naming what may be typed (hint and undo too) as far as the
        screen's width allows: the longest form that leaves room for the answer."""
        undo = ", undo" if self.table.undo_allowed else ""
        if len(plays) == 1:
            play = plays[0]
            named = f"{play.tile}" + (f" on the {play.end}" if play.end else "")
            forms = [f"Your move (Enter plays {named}; hint{undo}, help, quit): ",
                     f"Your move (Enter plays {named}; hint{undo}, help): ",
                     f"Your move (Enter plays {named}; help): ",
                     "Your move (Enter plays it; help): "]
        else:
            n = len(plays)
            forms = [f"Your move (1-{n}, a tile like 6-5 or 65r, hint{undo}, help, quit): ",
                     f"Your move (1-{n} or a tile; hint{undo}, help, quit): ",
                     f"Your move (1-{n}, hint{undo}, help): ",
                     f"Your move (1-{n}, help): "]
        room = self.terminal.width - 8  # room to type the answer on the same line
        return next((form for form in forms if len(form) <= room), forms[-1])

    def _ask(self, seat: int) -> None:
        """Ask the person at ``seat`` for a play until the table takes one (``_TakenBack``
        when it takes one back instead)."""
        self._hand_over_keyboard(seat)
        self._viewer = seat
        view = self.table.seat_view(seat)
        plays = choices(view, self._order.get(seat, "dealt"))
        prompt = self._prompt(plays)
        self._draw_turn(view, prompt)
        if self._notice is not None:
            self.terminal.say(self._notice)
            self._notice = None
        while True:
            command = read_command(self.terminal.ask(prompt), len(plays), self.rules.set,
                                   {p.tile for p in plays})
            if isinstance(command, Sort):
                order = ORDERS[(ORDERS.index(self._order.get(seat, "dealt")) + 1)
                               % len(ORDERS)]
                self._order[seat] = order
                plays = choices(view, order)
                self._draw_turn(view, prompt)
                after = ORDER_WORDS[ORDERS[(ORDERS.index(order) + 1) % len(ORDERS)]]
                self.terminal.say(f"Your hand is shown {ORDER_WORDS[order]}, and numbered so "
                                  f"(sort again: {after}).")
                continue
            if self._respond(view, plays, command):
                return

    def _respond(self, view: SeatView, plays: Sequence[Play], command: Command) -> bool:
        """Carry out one command: whether the table took a play; ``False`` after help, a
        hint, the whole line, a declined quit, or a one-line reason."""
        if isinstance(command, Help):
            self.terminal.show(help_lines(self.terminal.width))
            return False
        if isinstance(command, Hint):
            advice, reason = hint(view, self.seed, self.seating.names)
            where = f" on the {advice.end} arm" if advice.end else ""
            self.terminal.say(f"Hint: play {advice.tile}{where}: {reason}")
            return False
        if isinstance(command, ShowLine):
            self._show_line(view)
            return False
        if isinstance(command, Quit):
            self._confirm_quit()
            return False
        if isinstance(command, Undo):
            self._take_back(view)
            return False
        if isinstance(command, Unreadable | Sort):  # sort is the caller's
            if isinstance(command, Unreadable):
                self.terminal.say(f"Unclear: {command.reason}", "red")
            return False
        move = plays[command.number - 1] if isinstance(command, Pick) \
            else self._move_of(view, plays, command)
        try:
            self.table.submit(view.seat, move)
        except IllegalMove as exc:
            self.terminal.say(f"Illegal: {_personal(str(exc), view.seat)}", "red")
            return False
        return True

    def _show_line(self, view: SeatView) -> None:
        """Every tile of the layout, its long line snaking over as many rows as it needs."""
        placed = len(view.layout.placed)
        self.terminal.say(f"The whole layout ({placed} tile{'' if placed == 1 else 's'}), "
                          "from the left arm's open end to the right's:")
        self.terminal.show(layout_lines(view.layout, self.terminal.width))

    def _take_back(self, view: SeatView) -> None:
        """Go back to the start of the person's previous turn this hand (``_TakenBack``),
        or say why the table will not."""
        try:
            events = self.table.undo(view.seat)
        except TableError as exc:
            self.terminal.say(f"Cannot undo: {exc}", "red")
            return
        tile = next(e.tile for e in events if isinstance(e, Undone))
        self._notice = f"Taken back: your {tile} and the moves after it."
        raise _TakenBack

    def _move_of(self, view: SeatView, plays: Sequence[Play],
                 command: TileCode | Forced) -> Play | Draw | Pass:
        """The move a tile code or a typed ``pass``/``draw`` stands for; asks for the arm
        when the tile fits two and none was given, until the answer names one. A tile
        listed once (a lone double's two sides are one play) goes where the list says."""
        seat = view.seat
        if isinstance(command, Forced):
            return Pass(seat) if command.kind == "pass" else Draw(seat)
        end = command.end
        arms = [p.end for p in plays if p.tile == command.tile and p.end is not None]
        if end is None and len(arms) == 1:
            end = arms[0]
        if end is None and len(arms) > 1:
            layout = view.layout
            fits = " and ".join(f"the {arm} arm ({layout.shows(arm)})" for arm in arms)
            self.terminal.say(f"{command.tile} fits {fits}.")
            while end not in arms:
                end = read_arm(self.terminal.ask(f"Which arm? [{'/'.join(arms)}] "))
                if end not in arms:
                    self.terminal.say(f"Unclear: {command.tile} goes on "
                                      f"{' or '.join(arms)}: type "
                                      f"{' or '.join(a[0] for a in arms)}", "red")
        return Play(seat, command.tile, end)


def _personal(reason: str, seat: int) -> str:
    """The engine's reason, addressed to the person it concerns ("you do not hold 6-5")."""
    for third, second in ((f"seat {seat} does not hold", "you do not hold"),
                          (f"seat {seat} holds", "you hold"), ("; it may not", "; you may not"),
                          (f"seat {seat} leads", "you lead")):
        reason = reason.replace(third, second)
    return reason
