"""The C evaluation of a sampled deal (``bones.fast.search``) agrees with Python written here.

The references below run on ``bones.ai.position.Position`` (itself held against the engine):
a plain full-width search for the values of exact solves, and the expert's alpha-beta with
its table (``Judge._search``/``_expected`` with one beta per seat and light plays left out)
for the node counts, hence the steps and the node-limit fallbacks. The playouts' tie-breaking
generator (xoshiro256** seeded by splitmix64) is replayed here too, so every playout is
compared move for move, not only those without ties.
"""

from __future__ import annotations

import dataclasses
import math
import random
import threading
from typing import TYPE_CHECKING

import pytest

from bones.ai.expert_config import ExpertConfig
from bones.ai.judge import Judge
from bones.ai.position import OUT, PLAYING, Position
from bones.engine.game import deal_hand, new_game
from bones.engine.rules import PRESETS, Rules
from bones.engine.state import HandState, apply_unchecked
from bones.fast import search
from bones.fast.search import (
    Candidates,
    SearchSpec,
    available,
    evaluate,
    evaluate_sights,
    sights,
)

if TYPE_CHECKING:
    from bones.fast._search import Sights


@pytest.fixture(autouse=True)
def _needs_extension(request: pytest.FixtureRequest) -> None:
    """Every test but those named ``test_without_extension...`` needs the C extension."""
    if not available() and not request.node.name.startswith("test_without_extension"):
        pytest.skip(search.MISSING)


M64 = (1 << 64) - 1
MIN_WEIGHT = 1e-6
BIG = 10**7

#: The rule sets checked, as the issue names them (pool with a spinner, sets past 64 tiles).
RULES: dict[str, Rules] = {
    "block-2p": PRESETS["block"],
    "draw-3p": PRESETS["draw"].replace(players=3),
    "draw-3p-reserve-0": PRESETS["draw"].replace(players=3, reserve=0),
    "draw-2p-call-block": PRESETS["draw"].replace(call_block=True, reserve=0),
    "pool-3p-spinner": PRESETS["pool"].replace(players=3, spinner="first-double"),
    "pool-4p-spinner": PRESETS["pool"].replace(players=4, spinner="first-double"),
    "block-4p-partners": PRESETS["block"].replace(players=4, partnerships=True, hand_size=7),
    "block-set-12": PRESETS["block"].replace(set=12, players=3, hand_size=10),
    # Solved from the deal itself: the opening tile, and a first double as the spinner.
    "draw-2p-hand-3-opening": PRESETS["draw"].replace(
        hand_size=3, opening="highest-double", no_double="heaviest", spinner="first-double",
        reserve=18),
    "block-3p-hand-2": PRESETS["block"].replace(players=3, hand_size=2, spinner="first-double"),
    "block-set-18-spinner": PRESETS["block"].replace(set=18, players=3, hand_size=8,
                                                     spinner="first-double", score="others"),
    # (A reserve that leaves a few tiles to draw: draws from 160 would swamp the reference.)
    "draw-set-18-reserve": PRESETS["draw"].replace(set=18, hand_size=6, reserve=170,
                                                   spinner="first-double"),
    # The small sets: whole games a research search solves, every tile in play.
    "block-set-2-all-dealt": PRESETS["block"].replace(set=2, hand_size=3),
    "draw-set-3-spinner": PRESETS["draw"].replace(set=3, hand_size=3, reserve=0,
                                                  spinner="first-double"),
    "block-set-4-3p": PRESETS["block"].replace(set=4, players=3, hand_size=4),
    "block-set-5-partners": PRESETS["block"].replace(set=5, players=4, partnerships=True,
                                                     hand_size=5),
}


# -- the references ---------------------------------------------------------------------------


def _value(spec: SearchSpec, pos: Position) -> float:
    """``Judge.value`` with the spec's sides, scores and weights."""
    counts = [0] * len(spec.scores)
    for seat, side in enumerate(spec.sides):
        counts[side] += pos.count(seat)
    if pos.status == OUT:
        winner = spec.sides[pos.winner_seat]
    else:
        lowest = [s for s, c in enumerate(counts) if c == min(counts)]
        if len(lowest) > 1:
            return 0.0
        winner = lowest[0]
    total = sum(counts)
    if spec.score == "others-minus-own":
        points = max(0, total - 2 * counts[winner])
    else:
        points = total - counts[winner]
    sign = 1.0 if winner == spec.side else -1.0
    value = sign * (1.0 + spec.points_weight * points)
    if spec.scores[winner] + points >= spec.target:
        value += sign * spec.game_weight
    return value


def _weights(spec: SearchSpec, pos: Position, moves: list[int]) -> list[float]:
    """exp(score - best score), a play's score beta * pips plus the seat's double bonus for a
    double."""
    tiles, seat = pos.set, pos.to_move
    scores = [spec.betas[seat] * tiles.pips[t]
              + (spec.doubles[seat] if tiles.high[t] == tiles.low[t] else 0.0)
              for t in (m >> 2 for m in moves)]
    return [math.exp(x - max(scores)) for x in scores]


def _full_width(spec: SearchSpec, pos: Position) -> float:
    """Every line searched: the spec's side maximises; the others minimise, or choose by
    weights exp(beta[seat] * pips), a play under 1e-6 of the heaviest's weight left out."""
    if pos.status != PLAYING:
        return _value(spec, pos)
    moves = pos.moves()
    opponent = spec.sides[pos.to_move] != spec.side
    if opponent and spec.model_opponents and len(moves) > 1:
        weighted = [(m, w) for m, w in zip(moves, _weights(spec, pos, moves), strict=True)
                    if w >= MIN_WEIGHT]
        total = 0.0
        for move, weight in weighted:
            pos.play(move)
            total += weight * _full_width(spec, pos)
            pos.undo()
        return total / sum(w for _, w in weighted)
    values = []
    for move in moves:
        pos.play(move)
        values.append(_full_width(spec, pos))
        pos.undo()
    return min(values) if opponent else max(values)


class _OutOfNodes(Exception):
    pass


class _Solver:
    """``Judge.solve``'s alpha-beta with its table, node for node, with per-seat betas and
    light plays left out, and leaving the position as it was when it runs out of nodes.
    One solver's solves share the table, as the solves of one deal do."""

    def __init__(self, spec: SearchSpec) -> None:
        self.spec = spec
        self.nodes = 0
        self.skipped = 0
        self.table: dict[tuple[object, ...], tuple[float, int]] = {}

    def solve(self, pos: Position, limit: int) -> float | None:
        self.nodes = 0
        depth = len(pos.stack)
        try:
            return self._search(pos, -math.inf, math.inf, limit, self.table)
        except _OutOfNodes:
            while len(pos.stack) > depth:
                pos.undo()
            return None

    def _search(self, pos: Position, alpha: float, beta: float, limit: int,
                table: dict[tuple[object, ...], tuple[float, int]]) -> float:
        if pos.status != PLAYING:
            return _value(self.spec, pos)
        self.nodes += 1
        if self.nodes > limit:
            raise _OutOfNodes
        key = (tuple(pos.hands), tuple(pos.arms), pos.spinner, pos.waiting, pos.to_move,
               pos.drawn)
        stored = table.get(key)
        if stored is not None:
            value, kind = stored
            if kind == 0 or (kind > 0 and value >= beta) or (kind < 0 and value <= alpha):
                return value
        maximise = self.spec.sides[pos.to_move] == self.spec.side
        if not maximise and self.spec.model_opponents:
            return self._expected(pos, limit, table)
        a, b = alpha, beta
        best = -math.inf if maximise else math.inf
        for move in pos.moves():
            pos.play(move)
            value = self._search(pos, a, b, limit, table)
            pos.undo()
            if maximise:
                best = max(best, value)
                a = max(a, best)
            else:
                best = min(best, value)
                b = min(b, best)
            if a >= b:
                break
        table[key] = (best, -1 if best <= alpha else 1 if best >= beta else 0)
        return best

    def _expected(self, pos: Position, limit: int,
                  table: dict[tuple[object, ...], tuple[float, int]]) -> float:
        moves = pos.moves()
        if len(moves) == 1:
            pos.play(moves[0])
            value = self._search(pos, -math.inf, math.inf, limit, table)
            pos.undo()
            return value
        total = weight_sum = 0.0
        for move, weight in zip(moves, _weights(self.spec, pos, moves), strict=True):
            if weight < MIN_WEIGHT:
                self.skipped += 1
                continue
            pos.play(move)
            total += weight * self._search(pos, -math.inf, math.inf, limit, table)
            pos.undo()
            weight_sum += weight
        return total / weight_sum


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class _Xoshiro:
    """The extension's tie-breaking generator: xoshiro256** seeded by splitmix64."""

    def __init__(self, seed: int) -> None:
        x, self.s = seed & M64, []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            self.s.append(_mix64(x))

    def next(self) -> int:
        s = self.s

        def rotl(x: int, k: int) -> int:
            return ((x << k) | (x >> (64 - k))) & M64

        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        threshold = ((1 << 64) - n) % n
        while True:
            r = self.next()
            if r >= threshold:
                return r % n


def _playout(spec: SearchSpec, pos: Position, rng: _Xoshiro) -> tuple[float, int]:
    """``Judge.playout`` with the extension's tie-breaks: the value and the moves made."""
    depth = 0
    pips = pos.set.pips
    while pos.status == PLAYING:
        moves = pos.moves()
        if len(moves) > 1:
            heaviest = max(pips[m >> 2] for m in moves)
            moves = [m for m in moves if pips[m >> 2] == heaviest]
        pos.play(moves[0] if len(moves) == 1 else moves[rng.below(len(moves))])
        depth += 1
    value = _value(spec, pos)
    for _ in range(depth):
        pos.undo()
    return value, depth


def _reference(spec: SearchSpec, pos: Position, moves: list[int], exact: bool,
               seed: int) -> tuple[list[float], int, _Solver]:
    """The loop of ``ExpertBot.choose`` for one deal, as the extension runs it."""
    rng, solver = _Xoshiro(seed), _Solver(spec)
    values, steps = [], 0
    for move in moves:
        pos.play(move)
        value = None
        if exact:
            value = solver.solve(pos, spec.node_limit)
            steps += solver.nodes
            exact = value is not None
        if value is None:
            value, depth = _playout(spec, pos, rng)
            steps += depth + 1
        pos.undo()
        values.append(value)
    return values, steps, solver


# -- helpers ----------------------------------------------------------------------------------


def _states(rules: Rules, rng: random.Random, left: int, count: int) -> list[HandState]:
    """``count`` hands in play after random moves, with at most ``left`` tiles in hands."""
    out: list[HandState] = []
    for _ in range(count * 20):
        state = deal_hand(new_game(rules), rng).current
        while state.end is None and sum(len(h) for h in state.hands) > left:
            state = apply_unchecked(state, rng.choice(state.legal_moves()))
        if state.end is None:
            out.append(state)
            if len(out) == count:
                break
    assert len(out) == count
    return out


def _spec(rules: Rules, rng: random.Random, model: bool, node_limit: int = BIG,
          seat: int | None = None) -> SearchSpec:
    """A spec for a random seat, game scores, per-seat betas (20: a play a pip lighter
    than the heaviest is left out) and double bonuses."""
    target = rules.target_points
    return SearchSpec.for_rules(
        rules, rng.randrange(rules.players) if seat is None else seat,
        [rng.randrange(target) for _ in range(rules.sides)],
        betas=[rng.choice([0.0, 0.3, 0.6, 1.5, 20.0]) for _ in range(rules.players)],
        model_opponents=model, node_limit=node_limit, points_weight=0.01, game_weight=0.5,
        doubles=[rng.choice([0.0, 0.0, 1.5, 3.0]) for _ in range(rules.players)])


def _candidates(spec: SearchSpec, pos: Position, moves: list[int]) -> Candidates:
    """``moves`` at ``pos`` as the C search reads them, with the public part of ``pos``."""
    return Candidates(spec=spec, to_move=pos.to_move, arms=pos.arms, spinner=pos.spinner,
                      waiting=pos.waiting, placed=pos.placed, opening=pos.opening,
                      status=pos.status, moves=moves)


def _call(spec: SearchSpec, pos: Position, moves: list[int], exact: bool,
          seed: int) -> tuple[tuple[float, ...], int, bool]:
    return evaluate(_candidates(spec, pos, moves), hands=pos.hands, boneyard=pos.boneyard,
                    drawn=pos.drawn, exact=exact, seed=seed)


# -- exact solves -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RULES))
@pytest.mark.parametrize("model", [False, True])
def test_exact_values_equal_full_width_search_and_steps_equal_judge_node_counts(name, model):
    rules = RULES[name]
    rng = random.Random(f"{name}-{model}")
    left = 6 if rules.players > 2 and rules.draw else 7
    for state in _states(rules, rng, left, 12):
        pos = Position.from_state(state)
        spec = _spec(rules, rng, model)
        moves = pos.moves()
        values, steps, exact = _call(spec, pos, moves, True, rng.getrandbits(64))
        expected, expected_steps, _ = _reference(spec, pos, moves, True, 0)
        assert exact
        assert list(values) == pytest.approx(expected, rel=0, abs=1e-12)
        assert steps == expected_steps
        for move, value in zip(moves, values, strict=True):
            pos.play(move)
            assert math.isclose(value, _full_width(spec, pos), rel_tol=0, abs_tol=1e-9)
            pos.undo()


def test_game_scores_and_targets_past_64_bits_give_the_values_of_near_ones():
    """Only each side's distance to the target decides the game bonus, so scores and a
    target 10**30 larger (any whole numbers a bot-protocol request may carry) value every
    play as the small ones do, without overflowing the search's integers."""
    rules = RULES["block-2p"]
    rng = random.Random(30)
    far = rules.replace(target=10**30 + 100)
    changed = 0
    for state in _states(rules, rng, 7, 12):
        pos = Position.from_state(state)
        moves = pos.moves()
        values = []
        for r, scores in ((rules, (96, 90)), (far, (10**30 + 96, 10**30 + 90)),
                          (rules, (0, 0))):
            spec = SearchSpec.for_rules(r, state.to_move, scores, betas=[0.6, 0.6],
                                        model_opponents=True, node_limit=BIG,
                                        points_weight=0.01, game_weight=0.5)
            values.append(_call(spec, pos, moves, True, 1)[0])
        assert values[1] == values[0]
        changed += values[2] != values[0]  # the bonus is really in play in these hands
    assert changed >= 6


def test_exact_values_and_steps_equal_judge_where_its_model_is_the_same():
    """With every seat's beta the expert's (and one double bonus) and no play light enough
    to leave out (double-six: 12 pips at most apart), ``Judge.solve`` itself is the
    reference; ``Judge.spec`` is the spec made here."""
    for model, bonus in ((False, 0.0), (True, 0.0), (True, 1.5)):
        config = ExpertConfig(model_opponents=model)
        rules = PRESETS["draw"].replace(players=3)
        rng = random.Random(5)
        for state in _states(rules, rng, 8, 10):
            pos = Position.from_state(state)
            seat = state.to_move
            judge = Judge(rules, seat, (0,) * rules.sides, config=config,
                          doubles=[bonus] * rules.players)
            spec = SearchSpec.for_rules(
                rules, seat, (0,) * rules.sides, betas=[config.beta] * rules.players,
                model_opponents=model, node_limit=BIG, points_weight=config.points_weight,
                game_weight=config.game_weight, doubles=[bonus] * rules.players)
            assert judge.spec(BIG) == spec
            moves = pos.moves()
            expected = []
            table: dict[tuple[object, ...], tuple[float, int]] = {}
            for move in moves:
                pos.play(move)
                expected.append(judge.solve(pos, BIG, table))
                pos.undo()
            values, steps, _ = _call(spec, pos, moves, True, 1)
            assert list(values) == expected
            assert steps == judge.steps


@pytest.mark.parametrize("name", ["draw-3p", "pool-4p-spinner", "block-set-12"])
def test_light_opponent_plays_are_left_out_of_the_expectation(name):
    """With a steep beta only the heaviest plays count; a gentle one keeps them all: each
    seat's own beta decides, and the values still match the full-width reference."""
    rules = RULES[name]
    rng = random.Random(name)
    skipped = 0
    for state in _states(rules, rng, 8, 12):
        pos = Position.from_state(state)
        spec = _spec(rules, rng, True)
        spec = SearchSpec.for_rules(
            rules, 0, spec.scores, betas=[20.0 if s % 2 else 0.1 for s in range(rules.players)],
            model_opponents=True, node_limit=BIG, points_weight=0.01, game_weight=0.5)
        moves = pos.moves()
        values, steps, _ = _call(spec, pos, moves, True, 0)
        expected, expected_steps, solver = _reference(spec, pos, moves, True, 0)
        assert list(values) == pytest.approx(expected, rel=0, abs=1e-12)
        assert steps == expected_steps
        skipped += solver.skipped
        for move, value in zip(moves, values, strict=True):
            pos.play(move)
            assert math.isclose(value, _full_width(spec, pos), rel_tol=0, abs_tol=1e-9)
            pos.undo()
    assert skipped > 0


# -- playouts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(RULES))
def test_playouts_equal_the_heavy_first_policy_with_the_same_tie_breaks(name):
    rules = RULES[name]
    rng = random.Random(name)
    for i, state in enumerate(_states(rules, rng, rules.dealt * rules.players, 10)):
        # Half from the deal itself (the first tile, the opening rule), half a bit later.
        for _ in range(i % 2 * 2):
            if state.end is None:
                state = apply_unchecked(state, rng.choice(state.legal_moves()))
        if state.end is not None:
            continue
        pos = Position.from_state(state)
        spec = _spec(rules, rng, True)
        moves = pos.moves()
        seed = rng.getrandbits(64)
        values, steps, exact = _call(spec, pos, moves, False, seed)
        assert not exact
        expected, expected_steps, _ = _reference(spec, pos, moves, False, seed)
        assert list(values) == expected
        assert steps == expected_steps


def test_playouts_equal_judge_playout_where_no_tie_arises():
    class NoTies(random.Random):
        tied = False

        def choice(self, seq):  # type: ignore[no-untyped-def]
            self.tied = True
            return super().choice(seq)

    rules = PRESETS["block"]
    rng = random.Random(9)
    compared = 0
    for state in _states(rules, rng, 12, 60):
        pos = Position.from_state(state)
        seat = state.to_move
        spec = SearchSpec.for_rules(rules, seat, (0, 0), betas=[0.6, 0.6],
                                    model_opponents=True, node_limit=BIG,
                                    points_weight=0.01, game_weight=0.5)
        for move in pos.moves():
            judge, ties = Judge(rules, seat, (0, 0)), NoTies(0)
            pos.play(move)
            value = judge.playout(pos, ties)
            pos.undo()
            if ties.tied:
                continue
            assert _call(spec, pos, [move], False, 3) == ((value,), judge.steps, False)
            compared += 1
    assert compared > 30


def test_a_seed_reproduces_its_playouts_and_values_are_hand_values():
    rules = PRESETS["pool"].replace(players=4, spinner="first-double")
    rng = random.Random(2)
    state = _states(rules, rng, 20, 1)[0]
    pos = Position.from_state(state)
    spec = _spec(rules, rng, True)
    moves = pos.moves()
    first = _call(spec, pos, moves, False, 77)
    assert _call(spec, pos, moves, False, 77) == first
    # A hand's value is +-(1 + points share) with perhaps the game bonus, or 0 for a tie.
    for value in first[0]:
        size = abs(value)
        assert value == 0.0 or 1.0 <= size <= 1.5 + 0.01 * 6 * 28


# -- the node limit ---------------------------------------------------------------------------


def _node_counts(spec: SearchSpec, pos: Position, moves: list[int]) -> list[int]:
    solver, counts = _Solver(spec), []
    for move in moves:
        pos.play(move)
        solver.solve(pos, BIG)
        counts.append(solver.nodes)
        pos.undo()
    return counts


def test_a_solve_out_of_nodes_turns_to_playouts_for_the_later_moves():
    """Moves before the first solve that runs out are exact; that move and the later ones
    are played out from their own positions; the failed solve's nodes count as steps. The
    limits include the first move's own count (a solve may use exactly the limit)."""
    fell_back = solved_first = 0
    for name in ["block-2p", "draw-3p", "pool-3p-spinner", "block-set-12",
                 "block-set-18-spinner"]:
        rules = RULES[name]
        rng = random.Random(name)
        for state in _states(rules, rng, 9, 8):
            pos = Position.from_state(state)
            moves = pos.moves()
            base = _spec(rules, rng, True)
            counts = _node_counts(base, pos, moves)
            for limit in sorted({0, 5, counts[0], max(0, max(counts) - 1)}):
                spec = dataclasses.replace(base, node_limit=limit)
                seed = rng.getrandbits(64)
                values, steps, exact = _call(spec, pos, moves, True, seed)
                expected, expected_steps, _ = _reference(spec, pos, moves, True, seed)
                assert list(values) == pytest.approx(expected, rel=0, abs=1e-12)
                assert steps == expected_steps
                over = [c > spec.node_limit for c in counts]
                assert exact == (True not in over)
                if True in over:
                    fell_back += 1
                    first = over.index(True)
                    solved_first += first > 0
                    later, _, _ = _call(spec, pos, moves[first:], False, seed)
                    assert values[first:] == later
                    assert steps >= sum(counts[:first]) + spec.node_limit + 1
    assert fell_back > 10 and solved_first > 3


def test_node_limit_zero_counts_one_node_then_plays_out():
    rules = PRESETS["block"]
    rng = random.Random(4)
    state = _states(rules, rng, 8, 1)[0]
    pos = Position.from_state(state)
    spec = _spec(rules, rng, False, node_limit=0)
    moves = pos.moves()
    _, playout_steps, _ = _call(spec, pos, moves, False, 1)
    values, steps, exact = _call(spec, pos, moves, True, 1)
    assert not exact
    assert values == _call(spec, pos, moves, False, 1)[0]
    assert steps == playout_steps + 1  # only the first solve was tried


# -- robustness -------------------------------------------------------------------------------


def _good() -> tuple[SearchSpec, Position, list[int]]:
    rules = PRESETS["draw"].replace(set=9, hand_size=7)
    rng = random.Random(1)
    state = _states(rules, rng, 10, 1)[0]
    return _spec(rules, rng, True), Position.from_state(state), []


def _args(spec: SearchSpec, pos: Position) -> list[object]:
    return [spec.packed, list(pos.hands), list(pos.boneyard), pos.drawn, pos.to_move,
            list(pos.arms), pos.spinner, pos.waiting, pos.placed, pos.opening, pos.status,
            pos.moves(), True, 5]


def _sights_args(pos: Position) -> list[object]:
    """The arguments ``evaluate_sights`` takes after ``evaluate``'s."""
    from bones.fast import _search

    return [10**9, _search.Sights(len(pos.moves())), 1.0, 2]


@pytest.mark.parametrize(("index", "bad", "error"), [
    (0, "spec", TypeError),
    (1, [0], ValueError),                     # one hand for two seats
    (1, 7, TypeError),
    (1, [1.5, 0], TypeError),
    (1, [-1, 0], ValueError),
    (1, [1 << 55, 0], ValueError),            # double-9 has 55 tiles
    (1, [1 << 200, 0], ValueError),
    (2, [99], ValueError),
    (3, 999, ValueError),
    (4, 2, ValueError),
    (5, [1, 2, 3], ValueError),
    (5, [1, 2, 3, 10], ValueError),
    (6, 10, ValueError),
    (7, 16, ValueError),
    (9, 55, ValueError),
    (10, 1, ValueError),                      # OUT: no winner seat to score
    (11, [0 * 4 + 3, 12345], ValueError),
    (11, [-3], ValueError),
    (13, "seed", TypeError),
])
@pytest.mark.parametrize("entry", ["evaluate", "evaluate_sights"])
def test_bad_input_raises_instead_of_crashing(index, bad, error, entry):
    spec, pos, _ = _good()
    args = _args(spec, pos) + (_sights_args(pos) if entry == "evaluate_sights" else [])
    from bones.fast import _search

    call = getattr(_search, entry)
    call(*args)  # the good arguments are accepted
    args[index] = bad
    with pytest.raises(error):
        call(*args)
    with pytest.raises(TypeError):
        call(*args[:-1])


@pytest.mark.parametrize("bad", [-0.5, math.nan])
def test_a_bad_weight_is_refused_with_its_bound_in_words(bad):
    """The C refusal of a weight names the bound and the value (``PyErr_Format`` has no
    ``%g``: Python 3.11 printed the format itself, Python 3.13 raised ``SystemError``)."""
    from bones.fast import _search

    spec, pos, _ = _good()
    args = _args(spec, pos) + _sights_args(pos)
    args[16] = bad
    with pytest.raises(ValueError) as caught:
        _search.evaluate_sights(*args)
    assert str(caught.value) == f"weight must be a finite number of at least 0.0, not {bad!r}"


@pytest.mark.parametrize(("index", "bad", "error"), [
    (14, -1, ValueError),                     # budget
    (15, [], TypeError),                      # sights
    (15, "roots", ValueError),                # sights for another number of moves
    (16, -0.5, ValueError),                   # weight
    (16, math.nan, ValueError),
    (17, 0, ValueError),                      # depth
    (17, 1.5, TypeError),
])
def test_bad_sights_arguments_raise_instead_of_crashing(index, bad, error):
    from bones.fast import _search

    spec, pos, _ = _good()
    args = _args(spec, pos) + _sights_args(pos)
    _search.evaluate_sights(*args)
    args[index] = _search.Sights(len(pos.moves()) + 1) if bad == "roots" else bad
    with pytest.raises(error):
        _search.evaluate_sights(*args)
    with pytest.raises(ValueError):
        _search.Sights(0)


@pytest.mark.parametrize("entry", ["evaluate", "evaluate_sights"])
def test_a_position_with_a_tile_in_two_places_is_refused(entry):
    spec, pos, _ = _good()
    args = _args(spec, pos) + (_sights_args(pos) if entry == "evaluate_sights" else [])
    from bones.fast import _search

    hands = list(pos.hands)
    tile = (hands[0] & -hands[0]).bit_length() - 1
    for where, changed in [(1, [hands[0], hands[1] | 1 << tile]),
                           (8, pos.placed | 1 << tile),
                           (2, [tile, *pos.boneyard])]:
        bad = list(args)
        bad[where] = changed
        with pytest.raises(ValueError):
            getattr(_search, entry)(*bad)


def _evaluate_call(candidates: Candidates, hands: list[int], exact: bool) -> object:
    return evaluate(candidates, hands=hands, boneyard=[], drawn=0, exact=exact, seed=0)


def _sights_call(candidates: Candidates, hands: list[int], exact: bool) -> object:
    return evaluate_sights(candidates, hands=hands, boneyard=[], drawn=0, exact=exact, seed=0,
                           budget=10**9, into=sights(len(candidates.moves)), weight=1.0,
                           depth=3)


@pytest.mark.parametrize("entry", [_evaluate_call, _sights_call])
def test_a_hand_that_cannot_end_is_refused_not_played_forever(entry):
    """Every seat must pass and nobody can ever play: the engine would have blocked it."""
    rules = PRESETS["block"]
    spec = _spec(rules, random.Random(0), True)
    s = Position.from_state(deal_hand(new_game(rules), random.Random(0)).current).set
    six_six, one_zero, two_zero = s.index[(6, 6)], s.index[(1, 0)], s.index[(2, 0)]
    candidates = Candidates(spec=spec, to_move=0, arms=[6, 6, -1, -1], spinner=-1, waiting=0,
                            placed=1 << six_six, opening=-1, status=PLAYING, moves=[-2])
    for exact in (False, True):
        with pytest.raises(ValueError, match="cannot end"):
            entry(candidates, [1 << one_zero, 1 << two_zero], exact)


def test_spec_checks_its_fields():
    rules = PRESETS["block"]
    with pytest.raises(ValueError):
        SearchSpec.for_rules(rules, 0, (0, 0), betas=[0.6], model_opponents=True,
                             node_limit=10, points_weight=0.01, game_weight=0.5)
    with pytest.raises(ValueError):
        SearchSpec.for_rules(rules, 0, (0, 0), betas=[0.6, math.nan], model_opponents=True,
                             node_limit=10, points_weight=0.01, game_weight=0.5)
    with pytest.raises(ValueError):
        SearchSpec.for_rules(rules, 0, (0, 0), betas=[0.6, 0.6], model_opponents=True,
                             node_limit=-1, points_weight=0.01, game_weight=0.5)
    with pytest.raises(ValueError):
        SearchSpec.for_rules(rules, 0, (0,), betas=[0.6, 0.6], model_opponents=True,
                             node_limit=10, points_weight=0.01, game_weight=0.5)
    with pytest.raises(ValueError, match="doubles"):
        SearchSpec.for_rules(rules, 0, (0, 0), betas=[0.6, 0.6], model_opponents=True,
                             node_limit=10, points_weight=0.01, game_weight=0.5,
                             doubles=[1.5])
    with pytest.raises(ValueError, match="doubles"):
        SearchSpec.for_rules(rules, 0, (0, 0), betas=[0.6, 0.6], model_opponents=True,
                             node_limit=10, points_weight=0.01, game_weight=0.5,
                             doubles=[1.5, -1.0])


def test_threads_searching_at_once_get_the_results_of_one_at_a_time():
    rules = PRESETS["draw"].replace(players=3)
    rng = random.Random(6)
    cases = []
    for state in _states(rules, rng, 9, 6):
        pos = Position.from_state(state)
        spec = _spec(rules, rng, True, node_limit=3000)
        cases.append((spec, pos, pos.moves()))
    alone = [_call(spec, pos, moves, True, 8) for spec, pos, moves in cases]
    together: list[list[object]] = [[], []]

    def run(out: list[object]) -> None:
        for _ in range(3):
            out.extend(_call(spec, pos, moves, True, 8) for spec, pos, moves in cases)

    threads = [threading.Thread(target=run, args=(out,)) for out in together]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together[0] == together[1] == alone * 3


def test_without_extension_specs_are_still_made_and_evaluate_says_why(monkeypatch):
    monkeypatch.setattr(search, "_search", None)
    assert not available()
    spec = SearchSpec.for_rules(PRESETS["block"], 0, (0, 0), betas=[0.6, 0.6],
                                model_opponents=True, node_limit=10, points_weight=0.01,
                                game_weight=0.5)
    assert spec.packed is None
    candidates = Candidates(spec=spec, to_move=0, arms=[-1] * 4, spinner=-1, waiting=0,
                            placed=0, opening=-1, status=PLAYING, moves=[0])
    with pytest.raises(RuntimeError, match="not built"):
        evaluate(candidates, hands=[1, 2], boneyard=[], drawn=0, exact=True, seed=0)


def _walk(spec: SearchSpec, pos: Position, budget: int, into: Sights,
          depth: int) -> tuple[int, bool]:
    """``evaluate_sights`` of every move at ``pos``, solving while the budget lasts."""
    return evaluate_sights(_candidates(spec, pos, pos.moves()), hands=pos.hands,
                           boneyard=pos.boneyard, drawn=pos.drawn, exact=True, seed=1,
                           budget=budget, into=into, weight=1.0, depth=depth)


def test_the_walk_through_the_next_turns_stops_solving_once_its_budget_is_spent():
    """One ``evaluate_sights`` call walks many positions; past its budget it plays out
    instead of solving and follows no more of the bot's turns, so a decision's budget is
    overrun by about one solve and one turn at most."""
    rules = PRESETS["draw"]
    rng = random.Random(3)
    for state in _states(rules, rng, 12, 6):
        pos = Position.from_state(state)
        spec = _spec(rules, rng, True, seat=state.to_move)
        solved = sights(len(pos.moves()))
        steps, exact = _walk(spec, pos, 10**12, solved, 2)
        assert exact
        next_only = sights(len(pos.moves()))
        _walk(spec, pos, 10**12, next_only, 1)
        # with no budget nothing is solved and nothing past the next turn is followed
        played = sights(len(pos.moves()))
        cheap_steps, cheap_exact = _walk(spec, pos, 0, played, 2)
        assert not cheap_exact and cheap_steps < steps
        assert len(played) <= len(next_only) < len(solved)
