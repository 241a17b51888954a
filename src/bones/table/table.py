"""One table for every front end: the game, who sits where, the bots, and the moves made.

The table is push-style. ``advance`` plays every bot and every forced draw and pass until a
person must move, a hand ends or the game is over, and says what happened as a list of
events; ``submit`` checks a person's move with the engine and applies it; ``undo`` takes a
person's last play back where the table allows it; ``view`` gives a seat's view, or with
``None`` a spectator's. Nothing here waits on anyone, so a terminal, a web server that
hears from a phone 40 seconds later, and a simulation running thousands of games all drive
the same code.

Only the table sees every hand. Bots are asked through their seat's view; a person's move
goes through the engine's checked path (``resolve``), whose one-line reason is the refusal;
a refused move changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bones.ai.base import Bot, PlayedFor, close_bots, played_for_moves, start_bots
from bones.engine.errors import BonesError
from bones.engine.game import Game, deal_hand, new_game, play_unchecked
from bones.engine.moves import Draw, Move, Play
from bones.engine.rules import Rules
from bones.engine.state import resolve
from bones.engine.view import PublicView, SeatView, observe, spectate
from bones.table.events import Event, GameEnded, HandDealt, HandEnded, Maker, Moved, Undone
from bones.table.seats import Seating

#: Starts the next hand of a game: the game with that hand dealt (``start_hand``).
Dealer = Callable[[Game], Game]


class TableError(BonesError):
    """A request the table refuses (not the engine's ``IllegalMove``): a seat that is not a
    person's, a move out of turn, an undo the table does not allow. One line; nothing
    changed."""


@dataclass(frozen=True, slots=True)
class _Turn:
    """The table as it stood at the start of a person's turn: the game, and each bot's
    generator with its state, so a play taken back and made again gets the same reply (a
    reply that could change would show more of the bot's hand each time)."""

    game: Game
    generators: tuple[tuple[random.Random, tuple[Any, ...]], ...]


class Table:
    """One game at one table. ``game`` always holds the game as played so far, so whoever
    stops driving the table can still save its record."""

    def __init__(self, rules: Rules, seating: Seating, deals: random.Random | Dealer | None, *,
                 bot: Callable[[int], Bot] | None = None, game: Game | None = None,
                 played_for: Iterable[dict[str, object]] = (), undo: bool = False,
                 undone: int = 0, cancelled: Callable[[], None] | None = None) -> None:
        """A new game, or with ``game`` one taken up where it was left.

        ``deals`` shuffles every hand still to be dealt: a generator (``deal_hand``), or a
        ``Dealer`` that starts the next hand of a game its own way (fair deals that anyone
        can check); ``None``: a table for the hand in play only, as the arena's, which deals
        each hand itself; ``bot(seat)`` makes the bot of
        each seat that is not a person's (they are started now, and ended by ``close``);
        ``played_for`` lists the plays made for outside bots before (a resumed game);
        ``undo`` offers ``undo`` to the persons (practice tables only: a taken-back play
        is a look at the replies), and ``undone`` counts the plays taken back before;
        ``cancelled`` is called before every move and may raise to
        give the game up (a worker of a run stopped by Ctrl-C).
        """
        if len(seating.kinds) != rules.players:
            raise TableError(f"{len(seating.kinds)} seats for {rules.players} players")
        self.rules = rules
        self.seating = seating
        self.game = game if game is not None else new_game(rules)
        self._deals = deals
        self._cancelled = cancelled
        self.undo_allowed = undo
        persons = set(seating.humans)
        self.bots: dict[int, Bot] = start_bots(bot, (s for s in range(rules.players)
                                                     if s not in persons)) \
            if bot is not None else {}
        missing = [s for s in range(rules.players) if s not in persons and s not in self.bots]
        if missing:
            raise TableError(f"seat {missing[0]} has neither a person nor a bot")
        #: Each play the table made for an outside bot (a late, missing or illegal reply),
        #: as ``{"hand", "seat", "move", "why"}``, hand and move counted from 1: the bot
        #: protocol has the referee record them, and the game's record carries them.
        self.played_for: list[dict[str, object]] = list(played_for)
        self._faults = PlayedFor(self.bots)
        self._told = dict.fromkeys(self.bots, 0)
        self._seq = 0
        #: The game at the start of each of the persons' turns this hand, for ``undo``.
        self._turns: list[_Turn] = []
        #: Whether the game's end has been said (``GameEnded``), so it is said once.
        self._ended = self.game.finished
        #: The hand taken up in the middle (a resumed game), if one: its plays from before
        #: cannot be taken back, and ``undo`` says so.
        self._resumed_hand = len(self.game.hands) if self.game.current is not None else None
        #: How many times a play was taken back: a game in which undo was used says so.
        self.undone = undone

    # -- what the front end asks ---------------------------------------------------------

    @property
    def waiting(self) -> int | None:
        """The person's seat the table waits for, or ``None`` (between hands, game over,
        or a bot or forced move to make: ``advance``)."""
        state = self.game.current
        if state is None or not self.seating.is_human(state.to_move):
            return None
        move = state.legal_moves()[0]
        return state.to_move if isinstance(move, Play) else None

    @property
    def finished(self) -> bool:
        return self.game.finished

    def view(self, seat: int | None) -> SeatView | PublicView:
        """What ``seat`` may see of the latest hand, or with ``None`` a spectator."""
        if not self.game.hands:
            raise TableError("no hand has been dealt yet")
        return spectate(self.game) if seat is None else observe(self.game, seat)

    def seat_view(self, seat: int) -> SeatView:
        """``view`` of one seat, typed as such."""
        if not self.game.hands:
            raise TableError("no hand has been dealt yet")
        return observe(self.game, seat)

    # -- moving the game on --------------------------------------------------------------

    def deal(self) -> list[Event]:
        """Shuffle and deal the next hand (refused while one is in play or once the game is
        over): a front end shows a hand's end for as long as it likes before dealing."""
        if self.game.finished:
            raise TableError("the game is over; no hand may follow")
        if self.game.current is not None:
            raise TableError("a hand is in play")
        if self._deals is None:
            raise TableError("this table plays only the hand it was given")
        deals = self._deals
        self.game = deal_hand(self.game, deals) if isinstance(deals, random.Random) \
            else deals(self.game)
        self._turns = []
        return [HandDealt(self._next(), len(self.game.hands), self.game.hands[-1].leader)]

    def advance(self) -> list[Event]:
        """Make every bot's move and every forced draw and pass until a person must play,
        the hand ends, or the game is over. Returns what happened: nothing while a person's
        move is awaited or between hands (``deal`` starts the next)."""
        events: list[Event] = []
        while (state := self.game.current) is not None:
            moves = state.legal_moves()
            move = moves[0]
            by: Maker = "forced"
            why = None
            seat = state.to_move
            if isinstance(move, Play) and self.seating.is_human(seat):
                if not self._turns or self._turns[-1].game is not self.game:
                    self._turns.append(_Turn(self.game, self._generators()))
                return events
            if self._cancelled is not None:
                self._cancelled()
            if isinstance(move, Play):
                bot = self.bots[seat]
                move = bot.choose(observe(self.game, seat))
                if move not in moves:
                    raise BonesError(f"bot {bot.name} in seat {seat} chose {move}, which is "
                                     "not a legal play")
                by, why = self._maker(seat)
            self._apply(move, by, why, events)
        return events

    def submit(self, seat: int, move: Move) -> list[Event]:
        """A person's move for ``seat``: checked by the engine (its one-line reason is the
        ``IllegalMove``) and applied. Refused, changing nothing, when ``seat`` is not a
        person's, the move is another seat's, or no hand is in play."""
        if not 0 <= seat < self.rules.players or not self.seating.is_human(seat):
            raise TableError(f"seat {seat} is not a person's seat")
        if move.seat != seat:
            raise TableError(f"seat {seat} may move only for itself, not for seat {move.seat}")
        state = self.game.current
        if state is None:
            raise TableError("no hand is in play")
        resolved = resolve(state, move)
        events: list[Event] = []
        self._apply(resolved, "person", None, events)
        return events

    def undo(self, seat: int) -> list[Event]:
        """Take back ``seat``'s last play this hand and every move after it, back to the
        start of its previous turn (each bot's generator with it, so the same play gets the
        same reply). Refused, with the reason, where the table does not offer undo, when
        there is nothing to take back, or past a draw (the tile drawn, seen or played, tells
        the boneyard's order, and would let the person steer round it)."""
        if not self.undo_allowed:
            raise TableError("undo is for one person playing bones's own bots")
        if self.waiting != seat:
            raise TableError(f"seat {seat} may undo only on its own turn")
        if len(self._turns) < 2:
            first = self._turns[0].game.hands[-1].moves if self._turns else ()
            if self._resumed_hand == len(self.game.hands) \
                    and any(isinstance(m, Play) and m.seat == seat for m in first):
                raise TableError("nothing of yours since the game was resumed")
            raise TableError("there is no play of yours to take back this hand")
        before = self._turns[-2].game
        since = self.game.hands[-1].moves[len(before.hands[-1].moves):]
        if any(isinstance(m, Draw) for m in since):
            raise TableError("a tile was drawn since your last play; draws are never taken "
                             "back")
        taken = next(m for m in since if isinstance(m, Play) and m.seat == seat)
        del self._turns[-1]
        turn = self._turns[-1]
        self.game = turn.game
        for rng, saved in turn.generators:
            rng.setstate(saved)
        self.undone += 1
        return [Undone(self._next(), seat, len(self.game.hands), taken.tile,
                       len(self.game.hands[-1].moves))]

    def close(self) -> None:
        """End the bots (an outside bot's process) and keep the plays made for them in a
        hand left unfinished."""
        try:
            if self.game.hands:
                self.played_for.extend(self._faults.hand(len(self.game.hands)))
        finally:
            close_bots(self.bots.values())

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- inside --------------------------------------------------------------------------

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def _apply(self, move: Move, by: Maker, why: str | None, events: list[Event]) -> None:
        """Apply a move already known to be legal, and say what followed from it."""
        self.game = play_unchecked(self.game, move)
        hand = len(self.game.hands)
        state = self.game.hands[-1]
        events.append(Moved(self._next(), hand, len(state.moves), move, by, why))
        if state.is_over:
            self.played_for.extend(self._faults.hand(hand))
            events.append(HandEnded(self._next(), hand, self.game.results[-1], state.deal,
                                    state.hands))
            self._end_game(events)

    def _end_game(self, events: list[Event]) -> None:
        winner = self.game.winner
        if winner is not None and not self._ended:
            self._ended = True
            events.append(GameEnded(self._next(), winner, self.game.scores, self.game.chips))

    def _maker(self, seat: int) -> tuple[Maker, str | None]:
        """Whether the bot at ``seat`` made its last move, or the table made it for it."""
        made = played_for_moves(self.bots[seat])
        if len(made) > self._told[seat]:
            self._told[seat] = len(made)
            return "played-for", made[-1][1]
        return "bot", None

    def _generators(self) -> tuple[tuple[random.Random, tuple[Any, ...]], ...]:
        """Each bot's generator with its state (every bot of bones keeps its own ``rng``;
        it is not in the Bot protocol, and outside bots have none)."""
        rngs = (getattr(bot, "rng", None) for bot in self.bots.values())
        return tuple((rng, rng.getstate()) for rng in rngs if isinstance(rng, random.Random))
