"""A perfect-information hand position for search: hands as bitmasks, arms as four numbers.

Search bots evaluate many determinized deals; the engine's ``HandState`` (immutable, full
history, one dataclass per move) is the referee's truth and too slow for that. ``Position``
keeps only what decides the rest of the hand, with ``play``/``undo`` on a small stack, and
is tested move for move against the engine.

Moves are ints: ``tile * 4 + arm`` for a play (arm 0 left, 1 right, 2 up, 3 down; a hand's
first tile uses arm 0), ``DRAW`` and ``PASS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from bones.engine.layout import has_spinner
from bones.engine.moves import ARMS, Draw, Move, Pass, Play
from bones.engine.rules import Rules
from bones.engine.scoring import BLOCKED, END_CODES, OUT, PLAYING
from bones.engine.state import HandState, calls_block, drawable
from bones.engine.tiles import Tile, full_set

DRAW = -1
PASS = -2
# How a hand stands (``status``) is numbered as the engine numbers it: ``PLAYING``, ``OUT``
# and ``BLOCKED`` of ``bones.engine.scoring``, imported above for the search's callers.
__all__ = ["BLOCKED", "DRAW", "OUT", "PASS", "PLAYING", "Position", "Set", "bits", "tile_set"]
_LEFT, _RIGHT, _UP, _DOWN = range(4)


@dataclass(frozen=True, slots=True)
class Set:
    """Per-tile facts of one set, by index into ``full_set``."""

    tiles: tuple[Tile, ...]
    index: dict[Tile, int]
    high: tuple[int, ...]
    low: tuple[int, ...]
    pips: tuple[int, ...]
    #: For each number, the mask of tiles showing it.
    showing: tuple[int, ...]


@cache
def tile_set(top: int) -> Set:
    tiles = full_set(top)
    showing = [0] * (top + 1)
    for i, t in enumerate(tiles):
        showing[t.high] |= 1 << i
        showing[t.low] |= 1 << i
    return Set(tiles, {t: i for i, t in enumerate(tiles)}, tuple(t.high for t in tiles),
               tuple(t.low for t in tiles), tuple(t.pips for t in tiles), tuple(showing))


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Position:
    """A hand in play with every tile known (a determinized deal). Mutable: ``play`` pushes
    onto an undo stack and ``undo`` pops it."""

    __slots__ = ("arms", "boneyard", "drawn", "first_double", "hands", "keep", "n",
                 "opening", "placed", "rules", "set", "spinner", "stack", "status", "to_move",
                 "use_call_block", "waiting", "winner_seat")

    def __init__(self, rules: Rules, hands: list[int], boneyard: list[int], to_move: int,
                 arms: list[int], spinner: int, waiting: int, placed: int) -> None:
        self.rules = rules
        self.set = tile_set(rules.set)
        self.n = rules.players
        self.hands = hands
        self.boneyard = boneyard
        self.drawn = 0
        self.to_move = to_move
        #: Open number per arm (left, right, up, down), -1 when closed; all -1 when empty.
        self.arms = arms
        #: The spinner's number, or -1: none yet (or no spinner rule).
        self.spinner = spinner
        #: Bits of the line arms (1 left, 2 right) still to be touched before up/down open.
        self.waiting = waiting
        self.placed = placed
        #: Tiles of ``boneyard`` that are never drawn (all of them in Block, else up to the
        #: reserve): a seat draws while more than these are left.
        self.keep = len(boneyard) - drawable(rules, len(boneyard))
        self.use_call_block = calls_block(rules)
        self.first_double = has_spinner(rules)
        self.status = PLAYING
        self.winner_seat = -1
        #: The tile the first play must be (``opening`` rules), or -1 for any.
        self.opening = -1
        self.stack: list[tuple[int, int, list[int], int, int, int, int, int, int]] = []

    @classmethod
    def from_state(cls, state: HandState) -> Position:
        """The position of an engine hand state (whose hidden tiles must all be known)."""
        s = tile_set(state.rules.set)
        hands = [sum(1 << s.index[t] for t in hand) for hand in state.hands]
        layout = state.layout
        arms = [-1, -1, -1, -1]
        for arm, number in layout.ends:
            arms[ARMS.index(arm)] = number
        spinner = layout.spinner.high if layout.spinner is not None else -1
        waiting = sum(1 << ARMS.index(a) for a in layout.spinner_waiting)
        placed = sum(1 << s.index[t] for t in layout.placed)
        pos = cls(state.rules, hands, [s.index[t] for t in state.boneyard], state.to_move,
                  arms, spinner, waiting, placed)
        if state.opening is not None:
            pos.opening = s.index[state.opening]
        if state.end is not None:
            pos.status = END_CODES[state.end]
        return pos

    # -- moves ---------------------------------------------------------------------------

    def plays(self) -> list[int]:
        """The legal plays of the seat to move (empty if it must draw or pass)."""
        hand = self.hands[self.to_move]
        arms = self.arms
        if arms[0] < 0:
            if self.opening >= 0:
                return [self.opening * 4] if hand >> self.opening & 1 else []
            return [t * 4 for t in bits(hand)]
        showing = self.set.showing
        out = []
        for arm in range(4):
            number = arms[arm]
            if number >= 0:
                for t in bits(hand & showing[number]):
                    out.append(t * 4 + arm)
        return out

    def moves(self) -> list[int]:
        """Every legal move: the plays, or else the forced draw or pass."""
        found = self.plays()
        if found:
            return found
        if len(self.boneyard) - self.drawn > self.keep:
            return [DRAW]
        return [PASS]

    def play(self, move: int) -> None:
        """Apply a legal move (no checks: ``moves`` is the only source of moves)."""
        seat = self.to_move
        self.stack.append((seat, move, self.arms, self.spinner, self.waiting, self.placed,
                           self.status, self.drawn, self.winner_seat))
        if move == DRAW:
            self.hands[seat] |= 1 << self.boneyard[self.drawn]
            self.drawn += 1
            self._check_blocked()
            return
        if move == PASS:
            self.to_move = (seat + 1) % self.n
            return
        tile, arm = move >> 2, move & 3
        s = self.set
        high, low = s.high[tile], s.low[tile]
        self.hands[seat] &= ~(1 << tile)
        self.placed |= 1 << tile
        arms = self.arms[:]
        if arms[0] < 0:
            arms[0], arms[1] = high, low
            if self.first_double and high == low:
                self.spinner, self.waiting = high, 3
        else:
            number = arms[arm]
            arms[arm] = low if high == number else high
            if self.spinner >= 0 and self.waiting & (1 << arm):
                self.waiting &= ~(1 << arm)
                if not self.waiting:
                    arms[_UP] = arms[_DOWN] = self.spinner
            elif self.spinner < 0 and self.first_double and high == low:
                self.spinner, self.waiting = high, 1 << arm
        self.arms = arms
        self.to_move = (seat + 1) % self.n
        if not self.hands[seat]:
            self.status, self.winner_seat = OUT, seat
        elif self.use_call_block and self._dead():
            self.status = BLOCKED
        else:
            self._check_blocked()

    def undo(self) -> None:
        """Take back the last move."""
        seat, move, self.arms, self.spinner, self.waiting, self.placed, self.status, \
            self.drawn, self.winner_seat = self.stack.pop()
        self.to_move = seat
        if move == DRAW:
            self.hands[seat] &= ~(1 << self.boneyard[self.drawn])
        elif move != PASS:
            self.hands[seat] |= 1 << (move >> 2)

    def _dead(self) -> bool:
        showing, placed = self.set.showing, self.placed
        return all(showing[a] & ~placed == 0 for a in self.arms if a >= 0)

    def _check_blocked(self) -> None:
        if len(self.boneyard) - self.drawn > self.keep:
            return
        showing = self.set.showing
        reach = 0
        for a in self.arms:
            if a >= 0:
                reach |= showing[a]
        if not any(hand & reach for hand in self.hands):
            self.status = BLOCKED

    # -- results -------------------------------------------------------------------------

    def count(self, seat: int) -> int:
        pips = self.set.pips
        return sum(pips[t] for t in bits(self.hands[seat]))

    def tiles_left(self) -> int:
        return sum(h.bit_count() for h in self.hands)

    def to_engine(self, move: int) -> Move:
        """The engine move for an int move of the seat to move."""
        seat = self.to_move
        if move == DRAW:
            return Draw(seat, self.set.tiles[self.boneyard[self.drawn]])
        if move == PASS:
            return Pass(seat)
        tile = self.set.tiles[move >> 2]
        return Play(seat, tile, None if self.arms[0] < 0 else ARMS[move & 3])

    def encode(self, play: Play) -> int:
        """The int move of an engine play."""
        arm = 0 if play.end is None else ARMS.index(play.end)
        return self.set.index[play.tile] * 4 + arm
