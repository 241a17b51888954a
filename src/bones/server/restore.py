"""A table taken up again from its log, as it stood after the last committed row: the game
in play (every deal and move replayed through the engine's checked path, so a log that
breaks a rule is refused, not played on), who sits where, who is away, and the chips each
seat carries from the games before."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bones.engine.errors import BonesError
from bones.engine.game import Game, new_game, play, play_unchecked, start_hand
from bones.engine.moves import Move
from bones.engine.rules import Rules
from bones.engine.tiles import parse_tile
from bones.record.reader import read_move
from bones.server.store import Loaded, LogRow


class Corrupt(BonesError):
    """A stored log the engine will not replay."""


@dataclass
class Replayed:
    """One game rebuilt from its rows."""

    game: Game
    #: Plays taken back (``x-undo`` in its record).
    undone: int = 0
    #: The plays the table made for a person whose turn timer ran out:
    #: ``{"hand", "seat", "move"}``, hand and move counted from 1.
    away: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Restored:
    """A table's state from its log."""

    seq: int
    names: list[str | None]
    #: The latest game (number from 1, seed, rebuilt), if one was started.
    number: int = 0
    seed: int | None = None
    replayed: Replayed | None = None
    #: Each seat's chips from the games before the latest.
    carried: list[int] = field(default_factory=list)
    #: Each finished game's result, as ``games.result`` keeps it.
    results: list[dict[str, Any]] = field(default_factory=list)
    away: set[int] = field(default_factory=set)
    #: The salt of the table's fair deals (``None``: a table made before them, dealt from
    #: ``seed``), each seat's seed phrase as given when joining ("" for a bot's or an open
    #: seat), and the latest game's ``x-fair`` as committed when it started (its commitment
    #: and players' seeds; ``None`` for a game not dealt fair).
    salt: str | None = None
    phrases: list[str] = field(default_factory=list)
    fair: dict[str, Any] | None = None


def replay_rows(rules: Rules, rows: Sequence[LogRow]) -> Replayed:
    """Rebuild one game from its log rows (``deal``, ``move``, ``undo``; others are not
    the game's)."""
    game = new_game(rules)
    replayed = Replayed(game)
    start = game
    moves: list[Move] = []
    for row in rows:
        data = row.data
        try:
            if row.kind == "deal":
                game = start_hand(game, [[parse_tile(t) for t in hand] for hand in data["deal"]],
                                  [parse_tile(t) for t in data["boneyard"]], data["leader"])
                start, moves = game, []
            elif row.kind == "move":
                move = read_move(data["move"])
                game = play(game, move)
                moves.append(move)
                if data.get("by") == "played-for":
                    replayed.away.append({"hand": data["hand"], "seat": move.seat,
                                          "move": data["number"]})
            elif row.kind == "undo":
                moves = moves[:data["moves"]]
                game = start
                for move in moves:
                    game = play_unchecked(game, move)
                replayed.undone += 1
        except (BonesError, KeyError, TypeError, ValueError) as exc:
            raise Corrupt(f"log row {row.seq} ({row.kind}) cannot be replayed: {exc}") \
                from None
    replayed.game = game
    return replayed


def restore(loaded: Loaded, rules: Rules) -> Restored:
    """The table ``loaded`` as its log leaves it."""
    seq = loaded.log[-1].seq if loaded.log else 0
    restored = Restored(seq, [s.name if s.taken or s.kind != "human" else None
                              for s in loaded.seats], carried=[0] * len(loaded.seats))
    fair = loaded.spec.get("fair")
    restored.salt = fair.get("salt") if isinstance(fair, dict) else None
    restored.phrases = [""] * len(loaded.seats)
    for row in loaded.log:
        if row.kind == "join":
            restored.phrases[row.data["seat"]] = row.data.get("seed_phrase", "")
        elif row.kind == "game" and row.game == (loaded.games[-1].number if loaded.games
                                                 else None):
            restored.fair = row.data.get("fair")
        elif row.kind == "away":
            restored.away.add(row.data["seat"])
        elif row.kind == "back":
            restored.away.discard(row.data["seat"])
    for game_row in loaded.games:
        if game_row.result is not None and game_row is not loaded.games[-1]:
            restored.carried = [a + b for a, b in zip(restored.carried,
                                                      game_row.result["chips"], strict=True)]
        if game_row.result is not None:
            restored.results.append({"game": game_row.number, **game_row.result})
    if loaded.games:
        latest = loaded.games[-1]
        restored.number, restored.seed = latest.number, latest.seed
        restored.replayed = replay_rows(rules, [r for r in loaded.log
                                                if r.game == latest.number])
    return restored
