"""Our bots, through the bot protocol, against the bots of the ``dominoes`` package, in that
package's own engine.

``dominoes`` (https://github.com/abw333/dominoes, MIT, ``pip install dominoes``) is the
public Python library for dominoes with AI players. Its game is 4-player partnership Block
with all 28 tiles of a double-six set dealt: our ``--rules block --players 4 --partnerships
--hand-size 7``. Its players:

- ``random``, ``bota_gorda`` (heaviest tile first), ``double`` (doubles first);
- ``probabilistic_alphabeta``: samples the other hands consistently with what its seat has
  seen (hand sizes, plays, passes) and plays the move that alpha-beta finds best in most
  samples, the strongest of its fair players; here from move ``--start`` on, with
  ``--samples`` samples, and heaviest first before that (players compose in ``dominoes``);
- ``omniscient``: alpha-beta with every hand in view. It cheats, so it is a ceiling, not a
  rival; here from move ``--start`` on, heaviest first before that.

This script is the referee: the package's ``Game`` holds the hands, says whose turn it is,
checks every move and scores the hand. On our seats it writes each move request of
``docs/bot-protocol.md`` from the package's game (the seat's hand, the moves so far with
passes, the leader) to a ``bones bot --level L`` process, reads the reply and makes that move
in the package's game; a reply that is late, malformed or illegal there is counted as a
fault and the package's first valid move is made instead. Nothing of ours decides legality
or the result, and our process sees only what the request carries.

Each deal is played twice with the partnerships swapped (duplicate), from the same leader,
so both sides hold the same tiles. Per-hand win rates count ties as not won; intervals are
95% intervals that count each deal as one sample, as ``bones arena`` does
(``bones.sim.clusters``). Points are the package's own: the side that goes out scores every tile
left in the other three hands; a blocked hand goes to the side with the lower count, which
scores both sides' counts.

    pip install dominoes
    .venv/bin/python benchmarks/public_bots.py --opponent probabilistic_alphabeta --deals 500
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import select
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rich.progress import track

from bones.ai.levels import LEVELS
from bones.cli.common import cores, positive, seconds
from bones.engine.tiles import Tile, parse_tile
from bones.sim.clusters import Clustered

try:
    import dominoes
except ImportError:
    dominoes = None

#: Our rules for the package's game: Block, four players in partnerships, seven tiles each.
RULES = {"preset": "block", "players": 4, "partnerships": True, "hand_size": 7}
#: A tally of deals (``Tally`` or a script's extension of it).
T = TypeVar("T", bound="Tally")
OPPONENTS = ("random", "bota_gorda", "double", "probabilistic_alphabeta", "omniscient")


def opponent(name: str, start: int, samples: int) -> Callable[[Any], None]:
    """The package's player called ``name`` (see the module's docstring)."""
    players = dominoes.players
    if name == "probabilistic_alphabeta":
        search = players.probabilistic_alphabeta(start_move=start, sample_size=samples)
    elif name == "omniscient":
        search = players.omniscient(start_move=start)
    else:
        return getattr(players, name)  # type: ignore[no-any-return]

    def heaviest_then_search(game: Any) -> None:
        players.bota_gorda(game)
        search(game)

    return heaviest_then_search


class ProtocolBot:
    """One ``bones bot`` process, spoken to in bones-bot/1 JSON lines."""

    def __init__(self, level: str, think: float, seed: int) -> None:
        bones = Path(sys.executable).with_name("bones")
        self.think = think
        self.proc = subprocess.Popen(
            [str(bones), "bot", "--level", level, "--seed", str(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.next_id = 0
        hello = self.ask({"type": "hello", "protocol": "bones-bot/1"}, 10.0)
        if not isinstance(hello, dict) or hello.get("protocol") != "bones-bot/1":
            raise RuntimeError(f"bones bot --level {level} did not say hello: {hello!r}")

    def ask(self, request: dict[str, Any], timeout: float) -> Any:
        """Send one request and wait at most ``timeout`` seconds for its reply: the first
        line that is JSON and, for a move, carries the request's id (a late reply to an
        earlier move is skipped). ``None`` if none comes or the process has gone."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        deadline = time.perf_counter() + timeout
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            while (left := deadline - time.perf_counter()) > 0:
                ready, _, _ = select.select([self.proc.stdout], [], [], left)
                if not ready:
                    return None
                line = self.proc.stdout.readline()
                if not line:
                    return None  # the process has ended
                try:
                    reply = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if "id" not in request or (isinstance(reply, dict)
                                           and reply.get("id") == request["id"]):
                    return reply
        except OSError:  # a broken pipe: the process has gone
            return None
        return None

    def move(self, seat: int, game: Any) -> tuple[Any, float]:
        """Our bot's move for ``seat`` in the package's ``game`` (``None`` on a fault), and
        the seconds it took."""
        self.next_id += 1
        request = {"type": "move", "id": self.next_id, "rules": RULES, "seat": seat,
                   "hand": [written(d) for d in game.hands[seat]],
                   "dealt": [7, 7, 7, 7], "boneyard": 0, "leader": game.starting_player,
                   "moves": moves_json(game), "scores": [0, 0], "think": self.think}
        started = time.perf_counter()
        reply = self.ask(request, 2 * self.think + 1.0)
        took = time.perf_counter() - started
        return package_move(game, reply, self.next_id), took

    def close(self) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
            self.proc.stdin.flush()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def written(tile: Any) -> str:
    """A package domino in record notation (``"a-b"``, its halves as the package holds them)."""
    return f"{tile.first}-{tile.second}"


def moves_json(game: Any) -> list[dict[str, Any]]:
    """The package's moves of this hand in record notation: seats in turn from the leader,
    ``None`` as a pass, ``left`` as the left arm (the first tile lies as dealt: higher half
    left, which is why ``deal`` hands out each tile higher half first)."""
    out: list[dict[str, Any]] = []
    seat = game.starting_player
    for i, move in enumerate(game.moves):
        if move is None:
            out.append({"seat": seat, "pass": True})
        else:
            tile, left = move
            entry = {"seat": seat, "play": written(tile)}
            if i > 0:
                entry["end"] = "left" if left else "right"
            out.append(entry)
        seat = (seat + 1) % 4
    return out


def reply_tile(reply: Any, request_id: int) -> Tile | None:
    """The tile a reply plays, or ``None`` unless it is an object answering ``request_id``
    with a double-six tile (whether it is legal is the caller's engine's question)."""
    if not isinstance(reply, dict) or reply.get("id") != request_id:
        return None
    try:
        return parse_tile(reply.get("play"), 6)
    except ValueError:
        return None


def package_move(game: Any, reply: Any, request_id: int) -> Any:
    """The package's move for a reply, or ``None`` unless it answers ``request_id`` with a
    move that is legal in ``game``."""
    ours = reply_tile(reply, request_id)
    if ours is None:
        return None
    tile = dominoes.Domino(ours.high, ours.low)
    if tile not in game.hands[game.turn]:
        return None
    if not game.moves:
        return (tile, True)
    left_end, right_end = game.board.left_end(), game.board.right_end()
    end = reply.get("end")
    if end is None:  # fits one arm only, or both show the same number
        left = left_end in tile
    elif end in ("left", "right"):
        left = end == "left"
    else:
        return None
    if (left_end if left else right_end) not in tile:
        return None
    return (tile, left)


def deal(seed: int, number: int) -> tuple[list[list[Any]], int]:
    """The hands of deal ``number`` (each tile higher half first) and its leader."""
    rng = random.Random(f"public-bots:{seed}:{number}")
    tiles = [(high, low) for high in range(7) for low in range(high + 1)]
    rng.shuffle(tiles)
    hands = [[dominoes.Domino(*tile) for tile in tiles[7 * s:7 * s + 7]] for s in range(4)]
    return hands, number % 4


@dataclass
class Tally:
    """Outcomes from our side's point of view."""

    hands: int = 0
    wins: int = 0
    losses: int = 0
    points_for: int = 0
    points_against: int = 0
    faults: int = 0
    decisions: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.hands += other.hands
        self.wins += other.wins
        self.losses += other.losses
        self.points_for += other.points_for
        self.points_against += other.points_against
        self.faults += other.faults
        self.decisions += other.decisions


def play_deal(job: tuple[argparse.Namespace, int]) -> Tally:
    """Both rotations of one deal: our bot on seats 0 and 2, then on 1 and 3.

    Each deal gets its own bot process, seeded from the run's seed and the deal's number, so
    a run reproduces whichever worker plays which deal."""
    args, number = job
    seed = args.seed
    ours = ProtocolBot(args.level, args.think, seed * 1_000_003 + number)
    try:
        return _play_rotations(ours, opponent(args.opponent, args.start, args.samples),
                               seed, number)
    finally:
        ours.close()


def _play_rotations(ours: ProtocolBot, theirs: Callable[[Any], None], seed: int,
                    number: int) -> Tally:
    tally = Tally()
    for our_side in (0, 1):
        hands, leader = deal(seed, number)
        # The package's players draw on the random module; seed it so a run reproduces
        # (up to our bot's clock-bound time limits).
        random.seed(f"public-bots:{seed}:{number}:{our_side}")
        game = dominoes.Game(dominoes.Board(), [dominoes.Hand(h) for h in hands], [],
                             leader, tuple((d, True) for d in hands[leader]), leader, None)
        while game.result is None:
            seat = game.turn
            if seat % 2 == our_side:
                move, took = ours.move(seat, game)
                tally.decisions.append(took)
                if move is None:
                    tally.faults += 1
                    move = game.valid_moves[0]
            else:
                theirs(game)
                move = game.valid_moves[0]
            game.make_move(*move)
        result = game.result
        tally.hands += 1
        if result.points == 0:
            continue  # a tie
        # Result.points is signed: positive for side 0 (seats 0 and 2), negative for side 1.
        winner = 0 if result.points > 0 else 1
        if winner == our_side:
            tally.wins += 1
            tally.points_for += abs(result.points)
        else:
            tally.losses += 1
            tally.points_against += abs(result.points)
    return tally


def run(args: argparse.Namespace) -> Iterator[Tally]:
    jobs = [(args, n) for n in range(args.deals)]
    # "spawn", as bones.sim.parallel: a fork here would copy the progress bar's running
    # thread's locks mid-use (Python 3.14 moved Linux to "forkserver" for that reason).
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        yield from pool.imap_unordered(play_deal, jobs)


def our_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of our side and of the run, shared with ``openspiel_bots.py``."""
    parser.add_argument("--level", default="expert", choices=LEVELS,
                        help="our bot's level (bones bot --level)")
    parser.add_argument("--deals", type=positive, default=200)
    parser.add_argument("--think", type=seconds, default=0.1, help="our bot's seconds per move")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=positive, default=cores())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", choices=OPPONENTS, default="probabilistic_alphabeta")
    parser.add_argument("--start", type=int, default=8,
                        help="move from which the package's search players search")
    parser.add_argument("--samples", type=positive, default=10,
                        help="deals probabilistic_alphabeta samples per move")
    our_arguments(parser)
    args = parser.parse_args()
    if args.start < 0:
        parser.error(f"argument --start: must be at least 0, not {args.start}")
    if dominoes is None:
        print("public_bots: the dominoes package is not installed (pip install dominoes)",
              file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        total, ours, theirs = collect(run(args), args.deals, Tally())
    except (OSError, RuntimeError) as exc:
        print(f"public_bots: {exc}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    times = sorted(total.decisions)
    p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)] if times else 0.0
    setup = args.opponent
    if args.opponent in ("probabilistic_alphabeta", "omniscient"):
        setup += f" from move {args.start}"
        if args.opponent == "probabilistic_alphabeta":
            setup += f", {args.samples} samples"
    print(f"bones {args.level} (bones bot, think {args.think}) vs dominoes {dominoes_version()} "
          f"{setup}")
    print(f"{args.deals} deals x 2 rotations = {total.hands} hands, seed {args.seed}, "
          f"{elapsed:.0f} s")
    print_sides(total, ours, theirs, "dominoes")
    print(f"our replies: {len(times)}, faults (late, malformed or illegal) {total.faults}, "
          f"round trip p50 {1000 * times[len(times) // 2] if times else 0:.0f} ms, "
          f"p95 {1000 * p95:.0f} ms")
    return 0


def collect(tallies: Iterator[T], deals: int, total: T) -> tuple[T, Clustered, Clustered]:
    """Add up the deals' tallies under a progress bar: the total, and each side's wins
    counted by deal (for intervals that count each deal as one sample)."""
    ours, theirs = Clustered(), Clustered()
    for tally in track(tallies, total=deals, description="deals", transient=True):
        total.add(tally)
        ours.add(tally.wins, tally.hands)
        theirs.add(tally.losses, tally.hands)
    return total, ours, theirs


def print_sides(total: Tally, ours: Clustered, theirs: Clustered, their_name: str) -> None:
    """The table of both sides' wins, win rates with intervals and points, and the ties."""
    print(f"{'side':<10}{'wins':>7}{'win rate [95% CI]':>26}{'points/hand':>13}")
    for name, wins, points, clustered in (("bones", total.wins, total.points_for, ours),
                                          (their_name, total.losses, total.points_against,
                                           theirs)):
        low, high = clustered.interval()
        print(f"{name:<10}{wins:>7}{_rate(wins, total.hands, low, high):>26}"
              f"{points / total.hands:>13.2f}")
    decided = total.wins + total.losses
    print(f"ties {total.hands - decided}; bones won {total.wins} of {decided} decisive hands "
          f"({100 * total.wins / max(1, decided):.1f}%)")


def _rate(wins: int, hands: int, low: float, high: float) -> str:
    return f"{100 * wins / hands:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]"


def dominoes_version() -> str:
    from importlib.metadata import version

    return version("dominoes")


if __name__ == "__main__":
    sys.exit(main())
