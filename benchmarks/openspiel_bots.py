"""Our bots, through the bot protocol, against OpenSpiel's bots, in OpenSpiel's own game of
block dominoes.

OpenSpiel (https://github.com/google-deepmind/open_spiel, Apache 2.0, ``pip install
open_spiel``) is DeepMind's framework of games and game-playing algorithms, the common
ground of game-AI research. Its ``python_block_dominoes`` is 2-player Block with a double-six
set, 7 tiles each and 14 left out; the first player always leads, with any tile; a player
who cannot play is passed over (the engine gives the turn back, no pass is recorded); the
hand ends when a player is out or neither can play, and the lower count wins the other's
count. That is our ``--rules block --score others`` with the leader fixed, but for one
corner: a player who goes out while the other holds only the 0-0 ties there (equal counts),
where our rules give it the hand for no points. (OpenSpiel's 4-player
``python_team_dominoes`` is not used: there a side that goes out can still lose the hand on
counts, which no rule set of ours does.) Its bots:

- ``ismcts``: OpenSpiel's Information Set MCTS (``open_spiel.python.algorithms.ismcts``,
  after Cowling, Powley and Whitehouse) with random rollouts, ``--simulations`` per move
  (200 by default: about 110 ms a move here, our bot's think time) and exploration
  ``--uct-c``. The game's returns are in pips, so the default is 20: against our ``greedy``
  over 150 deals at 200 simulations it won 58.7% of hands with 20, 55.7% with 50 and 53.3%
  with 2 (OpenSpiel's usual setting for returns of about 1). The game cannot sample the
  hidden tiles itself, so this script gives the bot a resampler: the other hand drawn
  uniformly from the tiles the bot has not seen and that the other player can hold (not
  the numbers it was passed over on), which is what a fair IS-MCTS needs;
- ``random``: a uniformly random legal action.

This script is the referee: OpenSpiel's state holds the hands, says whose turn it is, checks
every action and scores the hand. On our seat it writes each move request of
``docs/bot-protocol.md`` from OpenSpiel's history (the plays, with a pass for every time
the other player was passed over, arms named as our layout names them) to a ``bones bot
--level L`` process, reads the reply and applies the matching OpenSpiel action; a reply
that is late, malformed or illegal there is counted as a fault and OpenSpiel's first legal
action is applied instead. Nothing of ours decides legality or the result.

Each deal is played twice, our bot first as player 0 (the leader) and then as player 1,
with the same two hands in the same seats, so both bots hold the same tiles (duplicate).
Per-hand win rates count ties as not won; intervals are 95% intervals that count each deal
as one sample (``bones.sim.clusters``). Points are OpenSpiel's returns.

    pip install open_spiel     # make test installs it where a wheel exists
    .venv/bin/python benchmarks/openspiel_bots.py --opponent ismcts --deals 200
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import public_bots
from public_bots import ProtocolBot

from bones.cli.common import positive
from bones.engine.layout import Layout
from bones.engine.tiles import Tile, full_set, tile

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.games import block_dominoes
except ImportError:
    pyspiel = None

#: Our rules for OpenSpiel's game (the leader is carried by each request).
RULES = {"preset": "block", "players": 2, "score": "others"}
OPPONENTS = ("ismcts", "random")
GAME = "python_block_dominoes"
HAND = 7


def ours(spiel_tile: tuple[float, float]) -> Tile:
    """OpenSpiel's tile (two floats, lower first) as ours."""
    return tile(int(spiel_tile[0]), int(spiel_tile[1]))


def spiel(t: Tile) -> tuple[float, float]:
    """Our tile as OpenSpiel's."""
    return (float(t.low), float(t.high))


@dataclass(frozen=True)
class Seen:
    """An OpenSpiel history read as our record: the moves with their passes and arms, and
    the numbers each player was passed over on (it held none of them then, and in Block
    still holds none)."""

    moves: list[dict[str, Any]]
    layout: Layout
    voids: tuple[frozenset[int], frozenset[int]]


def read_history(actions: list[Any], to_move: int | None = None) -> Seen:
    """Our moves for OpenSpiel's ``actions_history`` (its ``Action`` objects), up to the
    turn of ``to_move`` when it is given.

    OpenSpiel gives a player the turn again when the other cannot play; the other's pass is
    written there (and at the end, when ``to_move`` made the last play). OpenSpiel names the
    number a tile is set against, not an arm: the arm is the one of our layout that shows it
    (the left one when both do, which leaves the same open numbers)."""
    layout = Layout(uses_spinner=False)
    moves: list[dict[str, Any]] = []
    voids: list[set[int]] = [set(), set()]
    last = None
    for action in actions:
        if last is not None and action.player == last:
            other = 1 - last
            voids[other] |= layout.open_numbers()
            moves.append({"seat": other, "pass": True})
        t = ours(action.tile)
        if layout.is_empty:
            moves.append({"seat": action.player, "play": str(t)})
            layout = layout.place(t, None)
        else:
            arm = "left" if layout.shows("left") == int(action.edge) else "right"
            moves.append({"seat": action.player, "play": str(t), "end": arm})
            layout = layout.place(t, arm)
        last = action.player
    if last is not None and last == to_move:
        voids[1 - last] |= layout.open_numbers()
        moves.append({"seat": 1 - last, "pass": True})
    return Seen(moves, layout, (frozenset(voids[0]), frozenset(voids[1])))


def request(state: Any, seat: int, request_id: int, think: float) -> dict[str, Any]:
    """The move request of ``seat`` (the player to move) in OpenSpiel's ``state``: its own
    hand, the public history, nothing else."""
    moves = read_history(state.actions_history, seat).moves
    return {"type": "move", "id": request_id, "rules": RULES, "seat": seat,
            "hand": [str(ours(t)) for t in state.hands[seat]], "dealt": [HAND, HAND],
            "boneyard": 28 - 2 * HAND, "leader": 0, "moves": moves, "scores": [0, 0],
            "think": think}


def spiel_action(state: Any, reply: Any, request_id: int) -> int | None:
    """OpenSpiel's action for a reply, or ``None`` unless it answers ``request_id`` with a
    play that is legal in ``state``."""
    played = public_bots.reply_tile(reply, request_id)
    if played is None:
        return None
    layout = read_history(state.actions_history).layout
    end = reply.get("end")
    if layout.is_empty:
        edge = None
    elif end in ("left", "right"):
        edge = layout.shows(end)
    elif end is None and len(layout.arms_for(played)) == 1:
        edge = layout.shows(layout.arms_for(played)[0])
    else:
        return None
    if edge is None and not layout.is_empty:
        return None
    for action in state.legal_actions():
        act = block_dominoes._ACTIONS[action]
        if ours(act.tile) == played and (act.edge == edge if edge is not None
                                         else act.edge is None):
            return int(action)
    return None


def deal(seed: int, number: int) -> list[list[Tile]]:
    """The two hands of deal ``number``."""
    rng = random.Random(f"openspiel-bots:{seed}:{number}")
    tiles = list(full_set(6))
    rng.shuffle(tiles)
    return [tiles[:HAND], tiles[HAND:2 * HAND]]


def dealt_state(game: Any, hands: list[list[Tile]]) -> Any:
    """OpenSpiel's state after dealing ``hands`` (it fills player 0's hand first)."""
    state = game.new_initial_state()
    for t in hands[0] + hands[1]:
        state.apply_action(block_dominoes._DECK.index(spiel(t)))
    return state


def resampler(game: Any, rng: np.random.RandomState) -> Callable[[Any, int], Any]:
    """For OpenSpiel's IS-MCTS: a state ``player`` cannot tell from ``state``, the other hand
    drawn uniformly among the tiles that player has not seen, less any showing a number the
    other was passed over on (so the history replays as it happened)."""

    def sample(state: Any, player: int) -> Any:
        history = state.actions_history
        played = [[ours(a.tile) for a in history if a.player == p] for p in (0, 1)]
        mine = [ours(t) for t in state.hands[player]]
        seen = set(mine) | set(played[0]) | set(played[1])
        other = 1 - player
        lacks = read_history(history, player).voids[other]
        allowed = [t for t in full_set(6)
                   if t not in seen and t.high not in lacks and t.low not in lacks]
        held = len(state.hands[other])
        picks = rng.choice(len(allowed), size=held, replace=False)
        hands: list[list[Tile]] = [[], []]
        hands[player] = mine + played[player]
        hands[other] = [allowed[i] for i in picks] + played[other]
        new = dealt_state(game, hands)
        for action in history:
            new.apply_action(block_dominoes._ACTIONS_STR.index(str(action)))
        return new

    return sample


class Theirs:
    """One of OpenSpiel's bots for one hand."""

    def __init__(self, name: str, game: Any, seed: int, simulations: int,
                 uct_c: float) -> None:
        self.rng = np.random.RandomState(seed)
        self.bot = None
        if name == "ismcts":
            evaluator = mcts.RandomRolloutEvaluator(1, self.rng)
            self.bot = ismcts.ISMCTSBot(game, evaluator, uct_c, simulations,
                                        random_state=self.rng)
            self.bot.set_resampler(resampler(game, self.rng))

    def step(self, state: Any) -> int:
        if self.bot is None:
            return int(self.rng.choice(state.legal_actions()))
        return int(self.bot.step(state))


@dataclass
class Tally(public_bots.Tally):
    """``public_bots.Tally``, and how long OpenSpiel's bot took over each of its moves."""

    their_decisions: list[float] = field(default_factory=list)

    def add(self, other: public_bots.Tally) -> None:
        super().add(other)
        if isinstance(other, Tally):
            self.their_decisions += other.their_decisions


def play_deal(job: tuple[argparse.Namespace, int]) -> Tally:
    """Both rotations of one deal, each with its own bot process seeded from the deal."""
    args, number = job
    game = pyspiel.load_game(GAME)
    tally = Tally()
    for our_player in (0, 1):
        seed = (args.seed * 1_000_003 + number) * 2 + our_player
        bot = ProtocolBot(args.level, args.think, seed)
        try:
            _play_hand(args, game, bot, Theirs(args.opponent, game, seed % 2**32,
                                               args.simulations, args.uct_c),
                       deal(args.seed, number), our_player, tally)
        finally:
            bot.close()
    return tally


def _play_hand(args: argparse.Namespace, game: Any, bot: ProtocolBot, theirs: Theirs,
               hands: list[list[Tile]], our_player: int, tally: Tally) -> None:
    state = dealt_state(game, hands)
    while not state.is_terminal():
        player = state.current_player()
        started = time.perf_counter()
        if player == our_player:
            bot.next_id += 1
            reply = bot.ask(request(state, player, bot.next_id, args.think),
                            2 * args.think + 1.0)
            tally.decisions.append(time.perf_counter() - started)
            action = spiel_action(state, reply, bot.next_id)
            if action is None:
                tally.faults += 1
                action = state.legal_actions()[0]
        else:
            action = theirs.step(state)
            tally.their_decisions.append(time.perf_counter() - started)
        state.apply_action(action)
    returns = state.returns()
    tally.hands += 1
    if returns[our_player] > 0:
        tally.wins += 1
        tally.points_for += round(returns[our_player])  # whole pips, as floats
    elif returns[our_player] < 0:
        tally.losses += 1
        tally.points_against += round(-returns[our_player])


def run(args: argparse.Namespace) -> Iterator[Tally]:
    jobs = [(args, n) for n in range(args.deals)]
    # "spawn", as bones.sim.parallel: a fork here would copy the progress bar's running
    # thread's locks mid-use (Python 3.14 moved Linux to "forkserver" for that reason).
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        yield from pool.imap_unordered(play_deal, jobs)


def _p(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return 1000 * ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)] \
        if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", choices=OPPONENTS, default="ismcts")
    parser.add_argument("--simulations", type=positive, default=200,
                        help="OpenSpiel IS-MCTS simulations per move")
    parser.add_argument("--uct-c", type=float, default=20.0,
                        help="OpenSpiel IS-MCTS exploration constant (returns are in pips)")
    public_bots.our_arguments(parser)
    args = parser.parse_args()
    if pyspiel is None:
        print("openspiel_bots: OpenSpiel is not installed (pip install open_spiel)",
              file=sys.stderr)
        return 2
    started = time.perf_counter()
    try:
        total, ours, theirs = public_bots.collect(run(args), args.deals, Tally())
    except (OSError, RuntimeError) as exc:
        print(f"openspiel_bots: {exc}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    setup = args.opponent
    if args.opponent == "ismcts":
        setup += f", {args.simulations} simulations, uct_c {args.uct_c:g}"
    print(f"bones {args.level} (bones bot, think {args.think}) vs OpenSpiel "
          f"{spiel_version()} {setup}, in {GAME}")
    print(f"{args.deals} deals x 2 rotations = {total.hands} hands, seed {args.seed}, "
          f"{elapsed:.0f} s")
    public_bots.print_sides(total, ours, theirs, "openspiel")
    print(f"our replies: {len(total.decisions)}, faults (late, malformed or illegal) "
          f"{total.faults}, round trip p50 {_p(total.decisions, 0.5):.0f} ms, "
          f"p95 {_p(total.decisions, 0.95):.0f} ms")
    print(f"OpenSpiel's moves: {len(total.their_decisions)}, p50 "
          f"{_p(total.their_decisions, 0.5):.0f} ms, p95 {_p(total.their_decisions, 0.95):.0f} ms")
    return 0


def spiel_version() -> str:
    from importlib.metadata import version

    return version("open_spiel")


if __name__ == "__main__":
    sys.exit(main())
