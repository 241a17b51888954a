"""One hand of any rule set as small integers: the model the research adapters share.

OpenSpiel's game (``bones.research.openspiel``), the PettingZoo environment
(``bones.research.pettingzoo``) and the Gymnasium wrapper (``bones.research.gym``) all step
a ``Hand``: a mutable hand whose tiles are indices into ``full_set(rules.set)``, whose
moves are action numbers, and whose chance events (each tile dealt, the lots, each tile
drawn) are chance outcomes. It plays the engine's rules (``bones.engine``) move for move;
``tests/test_research_openspiel.py`` walks random hands through both and compares them.
The engine's immutable values cost about 40 microseconds a move; this model a few, which is
what a research loop of millions of moves needs.

The numbering, the chance model and the observation layouts are documented in
``docs/research.md``; the constants below are that contract.

- **Actions.** With ``A`` arms (2, or 4 with ``spinner: "first-double"``) and ``T`` tiles,
  action ``tile * A + arm`` lays tile ``tile`` (its index in ``full_set``) on arm ``arm``
  (0 left, 1 right, 2 up, 3 down); the first tile of a hand is ``tile * A + 0``. Action
  ``T * A`` is the pass, the only legal action where the rules force one.
- **Chance.** The deal is one chance event per tile dealt (seat 0's tiles first, then seat
  1's, ...; each seat's in increasing order of index), its outcome the tile's index, every
  set of hands as likely as the engine's shuffle makes it; where the rules redeal a deal
  that lacks a double (``no_double: "redeal"``), the outcomes are weighted so that only
  deals the rules keep are dealt, each as likely as under the engine's shuffle and redeal.
  Lots, where the rules draw them, are one chance event whose outcome is the seat that
  leads (each seat equally likely, as drawing a tile each from a shuffled set makes them).
  Each draw from the boneyard is one chance event, its outcome the tile drawn, any undrawn
  tile equally likely (the engine's boneyard is shuffled: the same).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb, factorial
from typing import Any, Final, Literal, Protocol

from bones.engine import lead as leads
from bones.engine.game import deal, new_game
from bones.engine.layout import Layout, empty_layout, has_spinner
from bones.engine.moves import ARMS, Arm, Draw, Move, Pass, Play
from bones.engine.rules import Rules
from bones.engine.scoring import BLOCKED, OUT, hand_points, lowest_sides, side_counts
from bones.engine.state import calls_block, drawable, reserve_of
from bones.engine.tiles import Tile, full_set
from bones.engine.view import SeatView

#: What a ``Hand`` waits for: a tile dealt, the lots, a seat's action, a tile drawn, nothing.
DEAL: Final = 0
LOTS: Final = 1
PLAY: Final = 2
DRAWING: Final = 3
OVER: Final = 4

#: How returns are counted (the ``returns`` parameter): ``"points"``, each side's points
#: for the hand less the mean of the other sides' (zero-sum; two sides: +p and -p);
#: ``"win-loss"``, +1 for the winning side and -1/(sides - 1) for each other side, 0 for all
#: on a tied blocked hand (zero-sum); ``"scored"``, the points each side scores as the
#: engine credits them (the winner its points, the others 0; not zero-sum).
Returns = Literal["points", "win-loss", "scored"]
RETURNS: Final[tuple[Returns, ...]] = ("points", "win-loss", "scored")

# A move in ``Hand.history``: ``seat << 16 | tile << 3 | kind``, ``kind`` an arm (0-3) of a
# play, or one of these (as ``bones.fast.params`` codes moves).
FIRST: Final = 4
DRAWN: Final = 5
PASSED: Final = 6
#: Letters of the arms in strings: ``6-3 L``.
ARM_LETTERS: Final = "LRUD"


@dataclass(frozen=True, slots=True, eq=False)
class Setup:
    """What does not change over a hand of one rule set: the tables, the sizes, the layouts
    of the tensors. Shared by every ``Hand`` of a game (a copied hand keeps the same one)."""

    rules: Rules
    returns: Returns
    tiles: tuple[Tile, ...]
    high: tuple[int, ...]
    low: tuple[int, ...]
    pips: tuple[int, ...]
    #: ``1 << high | 1 << low`` of each tile.
    bits: tuple[int, ...]
    #: Tiles of which the deal must hold one (the rules redeal it otherwise), or ``None``.
    needed: frozenset[int] | None
    arms: int
    players: int
    dealt: int
    #: The most moves (plays, draws, passes) a hand can have.
    max_moves: int
    #: Tiles the boneyard keeps (a seat draws while it holds more): ``reserve`` in Draw;
    #: in Block the whole set, so that nobody ever draws.
    keep: int
    #: Whether a dead layout ends the hand (``call_block`` in Draw).
    calls_block: bool
    #: Whether the first hand's lead is drawn by lots whatever the deal (so the deal need
    #: not be read to know it).
    lots: bool
    #: Tiles in the set (``T``).
    count: int
    #: Numbers a half can show (``N``: 0 to the set's top).
    numbers: int
    #: The pass (``T * A``).
    pass_action: int
    #: Distinct actions: a play per tile and arm, and the pass (``T * A + 1``).
    actions: int

    def __deepcopy__(self, memo: object) -> Setup:
        return self  # immutable: every copy of a hand shares it

    @property
    def max_length(self) -> int:
        """The most chance events and actions a hand can take."""
        return self.players * self.dealt + 1 + self.max_moves

    @property
    def most_points(self) -> int:
        """The most points a hand can score: every pip of the set."""
        return sum(self.pips)

    def utility_range(self) -> tuple[float, float]:
        """The least and the greatest return a player can get."""
        sides = self.rules.sides
        if self.returns == "win-loss":
            return -1.0 / (sides - 1), 1.0
        if self.returns == "scored":
            return 0.0, float(self.most_points)
        return -self.most_points / (sides - 1), float(self.most_points)

    def action(self, move: Play | Pass) -> int:
        """The action of an engine move (a play must name its arm unless it is the first)."""
        if isinstance(move, Pass):
            return self.pass_action
        arm = 0 if move.end is None else ARMS.index(move.end)
        return self.tiles.index(move.tile) * self.arms + arm

    def move(self, seat: int, action: int, first: bool) -> Play | Pass:
        """The engine move of ``action`` by ``seat``; ``first`` on an empty layout."""
        if action == self.pass_action:
            return Pass(seat)
        tile, arm = divmod(action, self.arms)
        return Play(seat, self.tiles[tile], None if first else ARMS[arm])

    def play_text(self, action: int, first: bool) -> str:
        if action == self.pass_action:
            return "pass"
        tile, arm = divmod(action, self.arms)
        return str(self.tiles[tile]) if first else f"{self.tiles[tile]} {ARMS[arm]}"


def setup(rules: Rules, returns: Returns = "points") -> Setup:
    """The ``Setup`` of ``rules``; ``ValueError`` for rules this model does not play."""
    if returns not in RETURNS:
        raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
    tiles = full_set(rules.set)
    players, dealt = rules.players, rules.dealt
    drawn = drawable(rules, rules.undealt)  # the most tiles a hand can draw
    plays = min(len(tiles), players * dealt + drawn)
    # Between two plays at most players - 1 seats pass (the hand is blocked otherwise).
    most = plays * players + drawn
    count = len(tiles)
    arms = 4 if has_spinner(rules) else 2
    kept = reserve_of(rules)
    needed, lots = _first_lead(rules, tiles)
    return Setup(
        rules=rules, returns=returns, tiles=tiles,
        high=tuple(t.high for t in tiles), low=tuple(t.low for t in tiles),
        pips=tuple(t.pips for t in tiles),
        bits=tuple(1 << t.high | 1 << t.low for t in tiles),
        needed=needed, arms=arms, players=players, dealt=dealt, max_moves=most,
        keep=count if kept is None else kept, calls_block=calls_block(rules),
        lots=lots, count=count,
        numbers=rules.set + 1, pass_action=count * arms, actions=count * arms + 1)


@cache
def _odds(a: int, k: int) -> tuple[float, ...]:
    """The chance that the next of the ``k`` tiles a seat still gets, dealt in increasing
    order from ``a`` candidates, is the i-th candidate, for each i that can come next (the
    last ``k - 1`` cannot)."""
    total = comb(a, k)
    return tuple(comb(a - i - 1, k - 1) / total for i in range(a - k + 1))


def _first_lead(rules: Rules, tiles: Sequence[Tile]) -> tuple[frozenset[int] | None, bool]:
    """What the engine's ``lead.decide`` makes of a first hand's deal, asked of it one tile
    at a time: the tiles of which a deal must hold one, else the rules redeal it (``None``
    where every deal is kept: a redeal happens only when the double that ``lead`` or
    ``opening`` needs was not dealt), and whether the lead is drawn by lots whatever the
    deal (so the deal need not be read to know it)."""
    nobody: list[Tile] = []
    kept = []
    lots = False
    for i, t in enumerate(tiles):
        decided = leads.decide(rules, [[t], *([nobody] * (rules.players - 1))], None)
        if decided is not None:
            kept.append(i)
            lots = lots or decided.seat is None
    return (None if len(kept) == len(tiles) else frozenset(kept)), lots


class Hand:
    """One hand in play, mutable. ``phase`` says what it waits for: a chance outcome
    (``DEAL``, ``LOTS``, ``DRAWING``), an action of ``to_move`` (``PLAY``), or nothing
    (``OVER``)."""

    __slots__ = (
        "_layout",
        "arms_open",
        "boneyard",
        "deal",
        "end",
        "ends",
        "hands",
        "held",
        "history",
        "laid",
        "leader",
        "opening",
        "out_seat",
        "passed",
        "phase",
        "setup",
        "spinner_free",
        "to_move",
        "unlaid",
        "waiting",
    )

    def __init__(self, setup: Setup) -> None:
        n = setup.numbers
        self.setup = setup
        self.phase = DEAL
        #: The tiles each seat holds, in the engine's order (dealt, then drawn).
        self.hands: list[list[int]] = [[] for _ in range(setup.players)]
        #: The tiles each seat was dealt, in the order dealt.
        self.deal: list[list[int]] = [[] for _ in range(setup.players)]
        #: The tiles neither dealt nor drawn yet, lowest index first.
        self.boneyard: list[int] = list(range(setup.count))
        self.leader = -1
        self.opening = -1
        self.to_move = -1
        #: The number each arm shows (left, right, up, down); ``arms_open`` are open.
        self.ends = [0, 0, 0, 0]
        self.arms_open = 0
        #: Line arms (bit per arm) still to receive a tile before the spinner opens.
        self.waiting = 0
        #: Whether the next double laid becomes the spinner.
        self.spinner_free = has_spinner(setup.rules)
        #: Tiles held by anyone that show each number; tiles not on the layout, by number.
        self.held = [0] * n
        self.unlaid = [n] * n
        #: Tiles on the layout, a bit per tile.
        self.laid = 0
        #: Numbers each seat has passed on (a bit per number): it holds none of them.
        self.passed = [0] * setup.players
        self.history: list[int] = []
        self.end = 0
        self.out_seat = -1
        #: The engine's layout after the first so many moves (``layout``).
        self._layout: tuple[int, Layout] = (0, empty_layout(setup.rules))

    def __deepcopy__(self, memo: object) -> Hand:
        return self.copy()

    def copy(self) -> Hand:
        new = Hand.__new__(Hand)
        new.setup = self.setup
        new.phase = self.phase
        new.hands = [h[:] for h in self.hands]
        new.deal = [h[:] for h in self.deal]
        new.boneyard = self.boneyard[:]
        new.leader, new.opening, new.to_move = self.leader, self.opening, self.to_move
        new.ends = self.ends[:]
        new.arms_open, new.waiting, new.spinner_free = (self.arms_open, self.waiting,
                                                        self.spinner_free)
        new.held = self.held[:]
        new.unlaid = self.unlaid[:]
        new.laid = self.laid
        new.passed = self.passed[:]
        new.history = self.history[:]
        new.end, new.out_seat = self.end, self.out_seat
        new._layout = self._layout
        return new

    # -- what is asked now ------------------------------------------------------------------

    @property
    def is_chance(self) -> bool:
        return self.phase in (DEAL, LOTS, DRAWING)

    @property
    def dealing_to(self) -> int:
        """The seat the next tile of the deal goes to."""
        s = self.setup
        return (s.count - len(self.boneyard)) // s.dealt

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance event now and their probabilities, lowest first."""
        if self.phase == LOTS:
            p = 1.0 / self.setup.players
            return [(seat, p) for seat in range(self.setup.players)]
        pool = self.boneyard
        if self.phase == DRAWING:
            p = 1.0 / len(pool)
            return [(t, p) for t in pool]
        return self._deal_outcomes()

    def _deal_outcomes(self) -> list[tuple[int, float]]:
        """The next tile of the deal. Each seat's tiles are dealt in increasing order (a
        hand is a set: dealing its tiles in every order would multiply the game tree by
        ``hand_size!`` per seat and tell nobody anything), each set of hands as likely as
        the engine's shuffle makes it: a tile's chance is the share of the deals still
        possible whose next tile it is. Where the rules redeal a deal without a needed
        tile, only the deals they keep are counted."""
        s = self.setup
        seat = self.dealing_to
        mine = self.deal[seat]
        k = s.dealt - len(mine)  # tiles this seat still gets
        last = mine[-1] if mine else -1
        pool = self.boneyard
        candidates = pool[bisect_right(pool, last):]
        a = len(candidates)
        needed = s.needed
        if needed is None or any(t in needed for hand in self.deal for t in hand):
            # (the last k - 1 candidates cannot come next: ``_odds`` stops before them)
            return list(zip(candidates, _odds(a, k), strict=False))
        # Deals of the later seats (each ``dealt`` tiles, a set) from n tiles.
        later = s.players - seat - 1
        r = later * s.dealt
        per_hand = factorial(s.dealt) ** later

        def spread(n: int) -> int:
            return factorial(n) // (per_hand * factorial(n - r)) if n >= r else 0

        m = len(pool)
        d = sum(1 for t in pool if t in needed)
        any_rest, free_rest = spread(m - k), spread(m - k - d)
        needed_after = [0] * (a + 1)  # needed tiles among the candidates from each on
        for i in range(a - 1, -1, -1):
            needed_after[i] = needed_after[i + 1] + (candidates[i] in needed)
        total = comb(a, k) * any_rest - comb(a - needed_after[0], k) * free_rest
        out = []
        for i, t in enumerate(candidates):
            after = a - i - 1
            ways = comb(after, k - 1) * any_rest
            if t not in needed:
                ways -= comb(after - needed_after[i + 1], k - 1) * free_rest
            if ways > 0:
                out.append((t, ways / total))
        return out

    def legal_actions(self) -> list[int]:
        """The actions of ``to_move``, in increasing order (empty unless ``PLAY``)."""
        if self.phase != PLAY:
            return []
        s = self.setup
        hand = self.hands[self.to_move]
        arms = s.arms
        if not self.arms_open:
            if self.opening >= 0:
                return [self.opening * arms]
            return sorted(t * arms for t in hand)
        bits, ends = s.bits, self.ends
        out = []
        if self.arms_open == 2:
            m0, m1 = 1 << ends[0], 1 << ends[1]
            for t in hand:
                b = bits[t]
                if b & m0:
                    out.append(t * arms)
                if b & m1:
                    out.append(t * arms + 1)
        else:
            for t in hand:
                b = bits[t]
                for a in range(4):
                    if b >> ends[a] & 1:
                        out.append(t * arms + a)
        if not out:
            return [s.pass_action]
        out.sort()
        return out

    # -- changing it -------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """Apply a chance outcome or an action (which must be legal now)."""
        phase = self.phase
        if phase == PLAY:
            if action == self.setup.pass_action:
                self._pass()
            else:
                self._play(action)
        elif phase == DRAWING:
            self._draw(action)
        elif phase == DEAL:
            self._deal(action)
        elif phase == LOTS:
            self._lead(action)
        else:
            raise ValueError("the hand is over")

    def _deal(self, t: int) -> None:
        s = self.setup
        seat = self.dealing_to
        self.boneyard.remove(t)
        self.hands[seat].append(t)
        self.deal[seat].append(t)
        self.held[s.high[t]] += 1
        if s.low[t] != s.high[t]:
            self.held[s.low[t]] += 1
        if len(self.boneyard) > s.count - s.players * s.dealt:
            return
        if s.lots:  # no need to read the deal
            self.phase = LOTS
            return
        tiles = s.tiles
        decided = leads.decide(s.rules, [[tiles[t] for t in h] for h in self.deal], None)
        assert decided is not None, "a deal the rules redeal was dealt"
        self.opening = -1 if decided.opening is None else tiles.index(decided.opening)
        if decided.seat is None:
            self.phase = LOTS
        else:
            self._lead(decided.seat)

    def _lead(self, seat: int) -> None:
        self.leader = self.to_move = seat
        self.phase = PLAY

    def _next_seat(self, seat: int) -> None:
        """Turn to the seat after ``seat``: it plays, draws or passes."""
        seat = seat + 1 if seat + 1 < self.setup.players else 0
        self.to_move = seat
        self.phase = DRAWING if not self._can_play(seat) and self._can_draw() else PLAY

    def _can_draw(self) -> bool:
        return len(self.boneyard) > self.setup.keep

    def _can_play(self, seat: int) -> bool:
        bits, ends = self.setup.bits, self.ends
        mask = 0
        for a in range(self.arms_open):
            mask |= 1 << ends[a]
        return any(bits[t] & mask for t in self.hands[seat])

    def _nobody_can_play(self) -> bool:
        held, ends = self.held, self.ends
        return not any(held[ends[a]] for a in range(self.arms_open))

    def _pass(self) -> None:
        seat = self.to_move
        mask = 0
        for a in range(self.arms_open):
            mask |= 1 << self.ends[a]
        self.passed[seat] |= mask
        self.history.append(seat << 16 | PASSED)
        self._next_seat(seat)

    def _draw(self, t: int) -> None:
        s = self.setup
        seat = self.to_move
        self.boneyard.remove(t)
        self.hands[seat].append(t)
        self.held[s.high[t]] += 1
        if s.low[t] != s.high[t]:
            self.held[s.low[t]] += 1
        self.history.append(seat << 16 | t << 3 | DRAWN)
        if not self._can_draw() and self._nobody_can_play():
            self._finish(BLOCKED)
        elif self._can_play(seat) or not self._can_draw():
            self.phase = PLAY
        # else: still DRAWING

    def _play(self, action: int) -> None:
        s = self.setup
        seat = self.to_move
        t, a = divmod(action, s.arms)
        hand = self.hands[seat]
        hand.remove(t)
        h, lo = s.high[t], s.low[t]
        ends = self.ends
        if not self.arms_open:
            ends[0], ends[1], ends[2], ends[3] = h, lo, h, h
            self.arms_open = 2
            if self.spinner_free and h == lo:
                self.spinner_free = False
                self.waiting = 3
            self.history.append(seat << 16 | t << 3 | FIRST)
        else:
            ends[a] = lo if h == ends[a] else h
            if self.waiting:
                if self.waiting >> a & 1:
                    self.waiting &= ~(1 << a)
                    if not self.waiting:
                        self.arms_open = 4
            elif self.spinner_free and h == lo:
                self.spinner_free = False
                self.waiting = 1 << a
                ends[2] = ends[3] = h
            self.history.append(seat << 16 | t << 3 | a)
        self.laid |= 1 << t
        self.held[h] -= 1
        self.unlaid[h] -= 1
        if lo != h:
            self.held[lo] -= 1
            self.unlaid[lo] -= 1
        if not hand:
            self.out_seat = seat
            self._finish(OUT)
        elif (s.calls_block and not any(self.unlaid[ends[i]]
                                                 for i in range(self.arms_open))) or (
                not self._can_draw() and self._nobody_can_play()):
            self._finish(BLOCKED)  # a dead layout under call_block, or nobody can move
        else:
            self._next_seat(seat)

    def _finish(self, end: int) -> None:
        self.end = end
        self.phase = OVER
        self.to_move = -1

    # -- the result ----------------------------------------------------------------------

    def counts(self) -> list[int]:
        pips = self.setup.pips
        return [sum(pips[t] for t in hand) for hand in self.hands]

    def points(self) -> tuple[int | None, list[int]]:
        """The winning side (``None`` on a tie) and each side's points, as the engine
        scores the hand (``scoring.outcome``). The hand must be over."""
        rules = self.setup.rules
        sc = side_counts(rules, self.counts())
        if self.end == OUT:
            winner: int | None = rules.side_of(self.out_seat)
        else:
            lowest = lowest_sides(sc)
            winner = lowest[0] if len(lowest) == 1 else None
        points = [0] * rules.sides
        if winner is not None:
            points[winner] = hand_points(rules, sc, winner)
        return winner, points

    def returns(self) -> list[float]:
        """Each seat's return (``Setup.returns`` says how they are counted); zeros until
        the hand is over."""
        s = self.setup
        rules = s.rules
        if self.phase != OVER:
            return [0.0] * s.players
        winner, points = self.points()
        sides = rules.sides
        if s.returns == "scored":
            per_side = [float(p) for p in points]
        elif s.returns == "win-loss":
            per_side = ([0.0] * sides if winner is None else
                        [1.0 if side == winner else -1.0 / (sides - 1) for side in range(sides)])
        else:
            total = sum(points)
            per_side = [p - (total - p) / (sides - 1) for p in points]
        return [per_side[rules.side_of(seat)] for seat in range(s.players)]

    # -- what a seat may know -----------------------------------------------------------------

    def moves(self, seat: int | None) -> list[Move]:
        """The hand's moves as the engine's, other seats' draws hidden from ``seat``
        (every draw from ``None``)."""
        s = self.setup
        out: list[Move] = []
        layout_empty = True
        for code in self.history:
            who, t, kind = code >> 16, code >> 3 & 0x1FFF, code & 7
            if kind == PASSED:
                out.append(Pass(who))
            elif kind == DRAWN:
                out.append(Draw(who, s.tiles[t] if who == seat else None))
            else:
                end: Arm | None = None if layout_empty else ARMS[kind]
                out.append(Play(who, s.tiles[t], end))
                layout_empty = False
        return out

    def layout(self) -> Layout:
        """The engine's layout of the tiles laid so far (kept from the last call, and the
        moves since laid on it: a bot asks for it every turn)."""
        done, layout = self._layout
        history = self.history
        if done == len(history):
            return layout
        tiles = self.setup.tiles
        for code in history[done:]:
            kind = code & 7
            if kind < FIRST:
                layout = layout.place(tiles[code >> 3 & 0x1FFF], ARMS[kind])
            elif kind == FIRST:
                layout = layout.place(tiles[code >> 3 & 0x1FFF], None)
        self._layout = (len(history), layout)
        return layout

    def seat_view(self, seat: int) -> SeatView:
        """The engine's view of ``seat`` (what a bones bot chooses from): its own tiles and
        draws, the public moves, nothing of the other seats' tiles. The deal must be done."""
        s = self.setup
        rules = s.rules
        tiles = s.tiles
        return SeatView(
            rules=rules, seat=seat, hand=tuple(tiles[t] for t in self.hands[seat]),
            dealt=(s.dealt,) * s.players, undealt=rules.undealt, leader=self.leader,
            moves=tuple(self.moves(seat)), scores=(0,) * rules.sides,
            held=tuple(len(h) for h in self.hands), boneyard_left=len(self.boneyard),
            layout=self.layout(), to_move=self.to_move,
            opening=tiles[self.opening] if seat == self.leader and self.opening >= 0
            else None,
            pool=0, chips=(0,) * s.players)

    def move_text(self, code: int, seat: int | None) -> str:
        """One move of the history as ``seat`` may read it: ``1 6-3`` (the first tile),
        ``0 3-2 R``, ``1 draws`` (another seat's draw), ``0 draws 4-4``, ``1 passes``."""
        who, t, kind = code >> 16, code >> 3 & 0x1FFF, code & 7
        if kind == PASSED:
            return f"{who} passes"
        tile = self.setup.tiles[t]
        if kind == DRAWN:
            return f"{who} draws {tile}" if who == seat else f"{who} draws"
        if kind == FIRST:
            return f"{who} {tile}"
        return f"{who} {tile} {ARM_LETTERS[kind]}"

    def tiles_text(self, tiles: Sequence[int]) -> str:
        return " ".join(str(self.setup.tiles[t]) for t in sorted(tiles, reverse=True)) or "-"

    def information_state_string(self, seat: int, private: bool = True,
                                 public: bool = True) -> str:
        """Everything ``seat`` has seen this hand, in order: its dealt tiles (``private``),
        the tiles dealt so far while dealing, the leader and every move (``public``; its
        own draws with their tile only when ``private`` too, other seats' draws never)."""
        s = self.setup
        parts = []
        if private:
            parts += [f"seat {seat}", f"dealt {self.tiles_text(self.deal[seat])}"]
        if public:
            if self.phase == DEAL:
                parts.append(f"dealing {s.count - len(self.boneyard)} of "
                             f"{s.players * s.dealt}")
            if self.leader >= 0:
                parts.append(f"leader {self.leader}")
            if self.history:
                shown = seat if private else None
                parts.append("moves " + ", ".join(self.move_text(c, shown)
                                                  for c in self.history))
        return " | ".join(parts)

    def observation_string(self, seat: int, private: bool = True, public: bool = True) -> str:
        """What ``seat`` sees now, without the order of past moves: its tiles
        (``private``); the open arms, the tiles each seat holds, the boneyard, the leader,
        whose turn, who passed on what (``public``)."""
        s = self.setup
        parts = []
        if private:
            parts += [f"seat {seat}", f"hand {self.tiles_text(self.hands[seat])}"]
        if public:
            if self.arms_open:
                parts.append("arms " + " ".join(f"{ARM_LETTERS[a]} {self.ends[a]}"
                                                for a in range(self.arms_open)))
            parts.append("held " + " ".join(str(len(h)) for h in self.hands))
            parts.append(f"boneyard {len(self.boneyard)}")
            if self.leader >= 0:
                parts.append(f"leader {self.leader}")
            if self.phase in (PLAY, DRAWING):
                parts.append(f"to move {self.to_move}")
            passed = [f"{p}: {' '.join(str(n) for n in range(s.numbers) if m >> n & 1)}"
                      for p, m in enumerate(self.passed) if m]
            if passed:
                parts.append("passed " + ", ".join(passed))
        return " | ".join(parts)

    def __str__(self) -> str:
        """The whole hand, every seat's tiles included (for debugging, never for a seat)."""
        hands = "; ".join(f"{seat}: {self.tiles_text(h)}" for seat, h in enumerate(self.hands))
        moves = ", ".join(self.move_text(c, c >> 16) for c in self.history)
        return f"hands {hands} | boneyard {self.tiles_text(self.boneyard)} | moves {moves}"


# -- tensors -------------------------------------------------------------------------------------

Piece = tuple[str, tuple[int, ...]]


class Buffer(Protocol):
    """A flat, zeroed buffer a tensor is written into: a NumPy array, a list of floats."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


def information_state_pieces(s: Setup, private: bool = True,
                             public: bool = True) -> list[Piece]:
    """The named pieces of the information-state tensor, in order, with their shapes."""
    p, t, m = s.players, s.count, s.max_moves
    pieces: list[Piece] = []
    if private:
        pieces += [("player", (p,)), ("dealt", (t,))]
    if public:
        pieces += [("dealing", (1,)), ("leader", (p,)), ("moves", (m, p + 3 + t + s.arms))]
    return pieces


def observation_pieces(s: Setup, private: bool = True, public: bool = True) -> list[Piece]:
    """The named pieces of the observation tensor, in order, with their shapes."""
    p, t, n = s.players, s.count, s.numbers
    pieces: list[Piece] = []
    if private:
        pieces += [("player", (p,)), ("hand", (t,))]
    if public:
        pieces += [("to_move", (p,)), ("laid", (t,)), ("ends", (s.arms, n)), ("held", (p,)),
                   ("boneyard", (1,)), ("passed", (p, n)), ("leader", (p,))]
    return pieces


def size_of(pieces: Sequence[Piece]) -> int:
    total = 0
    for _, shape in pieces:
        size = 1
        for dim in shape:
            size *= dim
        total += size
    return total


def write_information_state(hand: Hand, seat: int, out: Buffer,
                            private: bool = True, public: bool = True) -> None:
    """Write ``seat``'s information-state tensor into ``out`` (a zeroed flat buffer that
    supports item assignment, such as a NumPy array), in the order of
    ``information_state_pieces``."""
    s = hand.setup
    buf = out
    p, t = s.players, s.count
    at = 0
    if private:
        buf[at + seat] = 1.0
        at += p
        for tile in hand.deal[seat]:
            buf[at + tile] = 1.0
        at += t
    if public:
        buf[at] = float(sum(len(h) for h in hand.deal))  # tiles dealt so far
        at += 1
        if hand.leader >= 0:
            buf[at + hand.leader] = 1.0
        at += p
        width = p + 3 + t + s.arms
        for i, code in enumerate(hand.history):
            who, tile, kind = code >> 16, code >> 3 & 0x1FFF, code & 7
            row = at + i * width
            buf[row + who] = 1.0
            if kind == PASSED:
                buf[row + p + 2] = 1.0
            elif kind == DRAWN:
                buf[row + p + 1] = 1.0
                if private and who == seat:
                    buf[row + p + 3 + tile] = 1.0
            else:
                buf[row + p] = 1.0
                buf[row + p + 3 + tile] = 1.0
                if kind != FIRST:
                    buf[row + p + 3 + t + kind] = 1.0


def observation_entries(hand: Hand, seat: int, private: bool = True, public: bool = True
                        ) -> tuple[list[int], list[tuple[int, float]]]:
    """``seat``'s observation tensor as what is not 0 in it, in the order of
    ``observation_pieces``: the places that hold 1, and the places that hold a count with
    their counts (so that an array takes the ones in one assignment)."""
    s = hand.setup
    p, t, n = s.players, s.count, s.numbers
    ones: list[int] = []
    counts: list[tuple[int, float]] = []
    at = 0
    if private:
        ones.append(seat)
        at = p
        ones += [at + tile for tile in hand.hands[seat]]
        at += t
    if public:
        if hand.phase == PLAY or hand.phase == DRAWING:
            ones.append(at + hand.to_move)
        at += p
        laid = hand.laid
        while laid:
            low = laid & -laid
            ones.append(at + low.bit_length() - 1)
            laid ^= low
        at += t
        ends = hand.ends
        ones += [at + a * n + ends[a] for a in range(hand.arms_open)]
        at += s.arms * n
        counts += [(at + seat_, float(len(h))) for seat_, h in enumerate(hand.hands)]
        at += p
        counts.append((at, float(len(hand.boneyard))))
        at += 1
        for seat_, mask in enumerate(hand.passed):
            if mask:
                ones += [at + seat_ * n + number for number in range(n) if mask >> number & 1]
        at += p * n
        if hand.leader >= 0:
            ones.append(at + hand.leader)
    return ones, counts


def write_observation(hand: Hand, seat: int, out: Buffer,
                      private: bool = True, public: bool = True) -> None:
    """Write ``seat``'s observation tensor into ``out`` (zeroed), in the order of
    ``observation_pieces``."""
    ones, counts = observation_entries(hand, seat, private, public)
    for index in ones:
        out[index] = 1.0
    for index, value in counts:
        out[index] = value


class Dealer:
    """A hand dealt by the engine's own shuffle (``engine.game.deal``) from a
    ``random.Random``, its chance events applied as they come: the PettingZoo and Gymnasium
    environments step one, so that ``reset(seed=s)`` deals exactly what
    ``deal(new_game(rules), random.Random(s))`` deals, redeals and lots included, and the
    draws come from that deal's boneyard in its order."""

    __slots__ = ("draws", "hand", "next_draw")

    def __init__(self, s: Setup, rng: random.Random) -> None:
        hands, boneyard, leader = deal(new_game(s.rules), rng)
        index = {t: i for i, t in enumerate(s.tiles)}
        self.hand = Hand(s)
        for dealt in hands:
            for t in sorted(index[t] for t in dealt):
                self.hand.apply(t)
        if self.hand.phase == LOTS:
            self.hand.apply(leader)
        assert self.hand.leader == leader
        self.draws = [index[t] for t in boneyard]
        self.next_draw = 0

    def act(self, action: int) -> None:
        """Apply ``to_move``'s action (legal now), then any draws it leads to."""
        hand = self.hand
        hand.apply(action)
        while hand.phase == DRAWING:
            hand.apply(self.draws[self.next_draw])
            self.next_draw += 1


def rules_from(rules: Rules | None, options: Mapping[str, Any]) -> Rules:
    """``rules`` with ``options`` (rules options by name) changed; the default rules when
    ``rules`` is ``None``. ``RulesError`` names an option the rules refuse."""
    return (rules or Rules()).replace(**options) if options else (rules or Rules())


def render_table(hand: Hand) -> str:
    """The table as a spectator sees it: the public moves and the open arms, each seat's
    tile count, the boneyard; at the end, how the hand ended and the returns."""
    lines = [hand.information_state_string(0, private=False, public=True) or "dealing",
             hand.observation_string(0, private=False, public=True)]
    if hand.phase == OVER:
        end = "out" if hand.end == OUT else "blocked"
        lines.append(f"{end}; returns " + " ".join(f"{r:g}" for r in hand.returns()))
    return "\n".join(lines) + "\n"
