"""What one seat may see: its own tiles, the others' tile counts, the public history with
other seats' draws hidden. Bots, the terminal and the server work only from a ``SeatView``.

Its fields map one to one onto a ``move`` request of ``docs/bot-protocol.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bones.engine.game import Game
from bones.engine.layout import Layout
from bones.engine.moves import Draw, Move, Play
from bones.engine.rules import Rules
from bones.engine.state import plays_of
from bones.engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's information set at one moment of a hand."""

    rules: Rules
    seat: int
    hand: tuple[Tile, ...]
    #: Tiles each seat was dealt this hand.
    dealt: tuple[int, ...]
    #: Tiles left undealt at the deal (the protocol's ``boneyard``, a count; the hand
    #: state's ``boneyard`` is the tiles themselves, which no seat sees).
    undealt: int
    leader: int
    moves: tuple[Move, ...]
    #: Each side's game total before this hand.
    scores: tuple[int, ...]
    # -- derived from the above, kept for convenience --
    held: tuple[int, ...]
    boneyard_left: int
    layout: Layout
    to_move: int
    opening: Tile | None
    pool: int
    chips: tuple[int, ...]

    @property
    def legal(self) -> tuple[Play, ...]:
        """The plays open to this seat now (empty unless it is to move and can play)."""
        if self.to_move != self.seat:
            return ()
        return plays_of(self.seat, self.hand, self.layout, self.opening)


def _hide(move: Move, seat: int | None) -> Move:
    if isinstance(move, Draw) and move.seat != seat:
        return Draw(move.seat, None)
    return move


@dataclass(frozen=True, slots=True)
class PublicView:
    """What anyone at the table may see, a spectator included: no seat's tiles, every draw
    hidden, only counts. A ``SeatView`` without its ``hand``, ``seat`` and ``opening``."""

    rules: Rules
    dealt: tuple[int, ...]
    undealt: int
    leader: int
    moves: tuple[Move, ...]
    scores: tuple[int, ...]
    held: tuple[int, ...]
    boneyard_left: int
    layout: Layout
    to_move: int
    pool: int
    chips: tuple[int, ...]


def spectate(game: Game) -> PublicView:
    """The public view of the game's latest hand (which must have been dealt)."""
    view = _seen(game, None)
    return PublicView(rules=view.rules, dealt=view.dealt, undealt=view.undealt,
                      leader=view.leader, moves=view.moves, scores=view.scores,
                      held=view.held, boneyard_left=view.boneyard_left, layout=view.layout,
                      to_move=view.to_move, pool=view.pool, chips=view.chips)


def observe(game: Game, seat: int) -> SeatView:
    """The view of ``seat`` of the game's latest hand (which must have been dealt)."""
    return _seen(game, seat)


def _seen(game: Game, seat: int | None) -> SeatView:
    """``observe``; with ``seat`` ``None``, as nobody: no tiles, every draw hidden."""
    state = game.hands[-1]
    scores = game.scores
    if state.is_over:
        scores = tuple(s - p for s, p in zip(game.scores, game.results[-1].points, strict=True))
    return SeatView(
        rules=game.rules,
        seat=-1 if seat is None else seat,
        hand=() if seat is None else state.hands[seat],
        dealt=tuple(len(h) for h in state.deal),
        undealt=game.rules.undealt,
        leader=state.leader,
        moves=tuple(_hide(m, seat) for m in state.moves),
        scores=scores,
        held=tuple(len(h) for h in state.hands),
        boneyard_left=len(state.boneyard),
        layout=state.layout,
        to_move=state.to_move,
        # Which tile the leader must set is the leader's to know until it lies on the table.
        opening=state.opening if seat == state.leader else None,
        pool=game.pool,
        chips=game.chips,
    )
