"""The bot interface, and the life of a table's bots: started together, closed together,
and asked which of their plays the referee made for them.

The levels by name are in ``bones.ai.levels``; outside bots in ``bones.protocol``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from bones.engine.moves import Play
from bones.engine.view import SeatView


class Bot(Protocol):
    """Chooses a play from what its seat may see. Called only when the seat must play a tile
    (draws and passes are forced and made by the referee)."""

    name: str

    def choose(self, view: SeatView) -> Play:
        """One of ``view.legal``."""
        ...


def close_bot(bot: Bot) -> None:
    """Let a bot release what it holds (an outside bot's process); others hold nothing."""
    close = getattr(bot, "close", None)
    if callable(close):
        close()


def close_bots(bots: Iterable[Bot]) -> None:
    """Close every bot, even when a Ctrl-C or SIGTERM cuts one closing short: that bot's
    ``close`` still ends it (in its ``finally``), the others are closed next, and the
    interrupt is raised once all are. Skipping them would leave their processes running
    (in sessions of their own, out of reach of the signal). Blocking the signals instead
    would not do: only the calling thread's mask changes, and a bot's reader threads
    would still take them."""
    first: BaseException | None = None
    for bot in bots:
        try:
            close_bot(bot)
        except BaseException as exc:  # raised again below, once every bot is closed
            first = first or exc
    if first is not None:
        raise first


def start_bots(make: Callable[[int], Bot], seats: Iterable[int]) -> dict[int, Bot]:
    """``make(seat)`` for every seat, in order. If one fails or is interrupted (Ctrl-C
    while an outside bot is starting), those already started are closed before the error
    goes on: the caller never held them, so nobody else could end their processes."""
    bots: dict[int, Bot] = {}
    try:
        for seat in seats:
            bots[seat] = make(seat)
    except BaseException:
        close_bots(bots.values())
        raise
    return bots


def played_for(bot: Bot) -> tuple[int, int]:
    """(moves the referee made for the bot after a late, missing or illegal reply, moves
    asked of it): for an outside bot; (0, 0) for ours, which always answer."""
    return int(getattr(bot, "played_for", 0)), int(getattr(bot, "asked", 0))


def played_for_moves(bot: Bot) -> list[tuple[int, str]]:
    """The moves the referee made for an outside bot, as (number in the hand's moves, from
    1; why); none for ours."""
    return list(getattr(bot, "played_for_moves", []))


class PlayedFor:
    """The plays a table made for its outside bots (``played_for_moves``), taken hand by
    hand: the bot protocol has the referee record each late, missing or illegal reply, and
    the records of every command (play, simulate, arena) say which plays were not the
    bot's."""

    def __init__(self, bots: Mapping[int, Bot]) -> None:
        self.bots = bots
        self._seen = dict.fromkeys(bots, 0)

    def since_last(self) -> list[tuple[int, int, str]]:
        """(move number in the hand, from 1; seat; why) of each play made for a bot since
        the last call, in the order of the moves."""
        made = []
        for seat, bot in self.bots.items():
            moves = played_for_moves(bot)
            made += [(number, seat, why) for number, why in moves[self._seen[seat]:]]
            self._seen[seat] = len(moves)
        return sorted(made)

    def hand(self, number: int) -> list[dict[str, object]]:
        """``since_last`` as record entries of hand ``number`` (from 1)."""
        return [{"hand": number, "seat": seat, "move": move, "why": why}
                for move, seat, why in self.since_last()]

