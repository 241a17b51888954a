"""The fast playout paths agree with the checked engine: the same seed gives the same game.

``bones.fast.reference`` plays random games through ``legal_moves`` and ``play_unchecked``;
the pure-Python path and the C extension must deal the same tiles, pick the same moves, end
and score every hand the same way and leave the RNG in the same state. The cases cover every
preset and every option of ``docs/rules.md``, one at a time and in random combinations.
Reference games are slow, so the C path is also held against the pure one (itself held
against the reference) over many more games.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from bones.engine.errors import RulesError
from bones.engine.rules import PRESETS, Rules
from bones.fast import (
    extension_built,
    play_games,
    play_hands,
    trace_game,
)
from bones.fast import paths as fast_paths
from bones.fast import reference as ref
from bones.fast.params import params
from bones.fast.results import HandTrace, Totals, zero_totals

C_MISSING = "the C extension bones.fast._playout is not built (no C compiler at install time)"
BACKENDS = [
    "python",
    pytest.param("c", marks=pytest.mark.skipif(not extension_built(), reason=C_MISSING)),
]


def _rules(**options: object) -> Rules:
    return Rules(**options)  # type: ignore[arg-type]


#: One case per option value (and the interactions that have their own code), with a target
#: low enough that a game is a few hands: leads, scores and pools still carry between hands.
OPTION_CASES: dict[str, Rules] = {
    "players-3": _rules(players=3, target=40),
    "players-4": _rules(players=4, target=40),
    "players-5-set9": _rules(set=9, players=5, hand_size=8, target=60),
    "players-6-set9-pool-size": _rules(set=9, players=6, hand_size="pool", target=60),
    "players-2-hand-1": _rules(players=2, hand_size=1, target=10),
    "all-tiles-dealt": _rules(players=4, hand_size=7, target=40),
    "set-12": _rules(set=12, players=4, hand_size=12, target=80),
    "set-15-draw": _rules(set=15, players=3, hand_size=10, draw=True, target=80),
    "set-18": _rules(set=18, players=2, hand_size=20, target=150),
    "partnerships": _rules(players=4, partnerships=True, target=40),
    "partnerships-draw-winner": _rules(players=4, partnerships=True, hand_size=4, draw=True,
                                       next_lead="winner", target=40),
    "partnerships-others": _rules(players=4, partnerships=True, score="others", ante=3,
                                  target=50),
    "draw-reserve-0": _rules(draw=True, reserve=0, target=40),
    "draw-reserve-1": _rules(draw=True, reserve=1, players=3, target=40),
    "draw-reserve-3": _rules(draw=True, reserve=3, players=4, target=40),
    "draw-reserve-all": _rules(draw=True, reserve=14, target=40),
    "call-block": _rules(draw=True, call_block=True, reserve=0, target=40),
    "call-block-spinner": _rules(set=9, players=3, hand_size=6, draw=True, call_block=True,
                                 reserve=1, spinner="first-double", target=60),
    "call-block-ignored-in-block": _rules(call_block=True, target=40),
    "lead-highest-double": _rules(lead="highest-double", target=40),
    "lead-highest-double-redeal": _rules(set=12, players=3, hand_size=3,
                                         lead="highest-double", target=30),
    "lead-highest-double-heaviest": _rules(set=12, players=3, hand_size=3,
                                           lead="highest-double", no_double="heaviest",
                                           target=30),
    "lead-heaviest": _rules(lead="heaviest", players=3, target=40),
    "opening-highest-double": _rules(opening="highest-double", target=40),
    "opening-highest-double-heaviest": _rules(set=12, players=2, hand_size=3,
                                              opening="highest-double",
                                              no_double="heaviest", target=30),
    "opening-top-double": _rules(opening="top-double", players=3, target=40),
    "opening-top-double-redeal": _rules(set=9, players=2, hand_size=5,
                                        opening="top-double", target=30),
    "opening-top-double-heaviest": _rules(set=9, players=3, hand_size=4,
                                          opening="top-double", no_double="heaviest",
                                          target=30),
    "next-lead-winner": _rules(players=3, next_lead="winner", target=60),
    "next-lead-same-heaviest": _rules(next_lead="same", lead="heaviest", target=40),
    "next-lead-same-lots": _rules(players=3, next_lead="same", target=40),
    "spinner": _rules(spinner="first-double", target=40),
    "spinner-draw": _rules(spinner="first-double", draw=True, players=3, target=40),
    "spinner-opening-double": _rules(spinner="first-double", opening="highest-double",
                                     set=9, players=4, hand_size=9, target=60),
    "score-others": _rules(score="others", players=3, target=40),
    "ante-pool-hand-split": _rules(players=3, ante=2, target=40),
    "ante-pool-hand-carry": _rules(players=3, ante=5, pool_tie="carry", target=40),
    "ante-pool-game": _rules(players=3, ante=3, pool="game", target=40),
    "ante-ties-often": _rules(set=9, players=6, hand_size=1, ante=7, target=5),
    # blocked hands with small counts: ties for the lowest count are common enough here
    "ties-split": _rules(players=2, hand_size=3, ante=3, target=60),
    "ties-carry": _rules(players=3, hand_size=3, ante=3, pool_tie="carry", target=60),
    "ties-partnerships": _rules(players=4, partnerships=True, hand_size=3, ante=5,
                                next_lead="winner", target=40),
    "ties-pool-game": _rules(players=2, hand_size=3, ante=2, pool="game", target=40),
    "call-block-set9": _rules(set=9, draw=True, call_block=True, reserve=0, hand_size=5,
                              target=100),
    "target-1": _rules(target=1),
    "target-pagat-3": _rules(players=3, target="pagat"),
    # the small sets (double-two to double-five), for teaching and for solving whole games
    "set-2-all-dealt": _rules(set=2, hand_size=3, target=10),
    "set-2-draw": _rules(set=2, hand_size=2, draw=True, reserve=0, target=10),
    "set-2-three-players": _rules(set=2, players=3, hand_size=2, lead="heaviest", target=10),
    "set-3-pool-size": _rules(set=3, hand_size="pool", target=20),
    "set-3-spinner-draw": _rules(set=3, hand_size=3, draw=True, reserve=1,
                                 spinner="first-double", target=20),
    "set-3-top-double": _rules(set=3, players=3, hand_size=2, opening="top-double",
                               next_lead="winner", target=20),
    "set-4-partnerships": _rules(set=4, players=4, partnerships=True, hand_size=3,
                                 ante=2, target=20),
    "set-4-call-block": _rules(set=4, hand_size=4, draw=True, call_block=True, reserve=0,
                               target=30),
    "set-5-highest-double": _rules(set=5, players=3, hand_size=4, lead="highest-double",
                                   no_double="heaviest", score="others", target=40),
    "set-5-pool": _rules(set=5, players=2, hand_size="pool", ante=1, next_lead="same",
                         score="others", target=40),
}


def _random_rules(rng: random.Random, tops: tuple[int, ...] = (6, 6, 9, 12, 18)) -> Rules:
    """A random dealable combination of options, from one of the sets ``tops``."""
    while True:
        top = rng.choice(tops)
        players = rng.choice((2, 3, 4)) if top == 6 else rng.choice((2, 3, 4, 5, 6))
        tiles = (top + 1) * (top + 2) // 2
        options: dict[str, object] = {
            "set": top,
            "players": players,
            "partnerships": players == 4 and rng.random() < 0.4,
            "hand_size": rng.choice(("pool", rng.randint(1, max(1, (tiles - 4) // players)))),
            "draw": rng.random() < 0.5,
            "reserve": rng.randint(0, 3),
            "call_block": rng.random() < 0.4,
            "lead": rng.choice(("lots", "highest-double", "heaviest")),
            "opening": rng.choice(("any", "any", "highest-double", "top-double")),
            "no_double": rng.choice(("redeal", "heaviest")),
            "next_lead": rng.choice(("left", "winner", "same")),
            "spinner": rng.choice(("none", "first-double")),
            "score": rng.choice(("others-minus-own", "others")),
            "target": rng.choice((5, 20, 40, "pagat")),
            "ante": rng.choice((0, 0, 1, 3)),
            "pool": rng.choice(("hand", "game")),
            "pool_tie": rng.choice(("split", "carry")),
        }
        if top != 6 and options["target"] == "pagat":
            options["target"] = 60
        try:
            return _rules(**options)
        except RulesError:
            continue


_combos = random.Random(20240611)
RANDOM_CASES: dict[str, Rules] = {f"random-{i}": _random_rules(_combos) for i in range(30)}
_small = random.Random(20260521)
RANDOM_CASES |= {f"random-small-{i}": _random_rules(_small, (2, 3, 4, 5)) for i in range(12)}
PRESET_CASES: dict[str, Rules] = {f"preset-{name}": rules for name, rules in PRESETS.items()}
CASES: dict[str, Rules] = {**PRESET_CASES, **OPTION_CASES, **RANDOM_CASES}

#: Seeded games per case held against the reference (presets play to 100: fewer of them).
GAMES = {name: 6 if name.startswith("preset-") else 25 for name in CASES}


@cache
def _reference(case: str, seed: int) -> tuple[tuple[HandTrace, ...], Totals, object]:
    """The reference game of ``case`` for ``seed``: its hands, totals and final RNG state."""
    rules = CASES[case]
    rng = random.Random(seed)
    game = ref.random_game(rules, rng)
    return ref.trace_of(game), ref.tally(rules, [game]), rng.getstate()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", list(CASES))
def test_every_game_is_the_reference_game(case: str, backend: fast_paths.Backend) -> None:
    """Deal, leader, every move, every hand's result, the totals and the RNG state."""
    rules = CASES[case]
    for seed in range(GAMES[case]):
        rng = random.Random(seed)
        traced = trace_game(rules, rng, backend=backend)
        hands, totals, state = _reference(case, seed)
        for number, (fast, engine) in enumerate(zip(traced.hands, hands, strict=True)):
            assert fast == engine, f"seed {seed}, hand {number + 1}"
        assert traced.totals == totals, f"seed {seed}"
        assert rng.getstate() == state, f"seed {seed}: the RNG was left elsewhere"


HAND_RUNS = ["preset-block", "preset-draw", "preset-pool", "partnerships-draw-winner",
             "ante-pool-game", "ante-pool-hand-carry", "spinner-draw", "random-3"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", HAND_RUNS)
def test_play_hands_is_hands_of_reference_games(case: str,
                                                backend: fast_paths.Backend) -> None:
    """``play_hands`` plays consecutive games and stops mid-game after the last hand."""
    rules = CASES[case]
    for hands in (1, 7, 31):
        fast_rng, engine_rng = random.Random(hands), random.Random(hands)
        totals = play_hands(rules, fast_rng, hands, backend=backend)
        assert totals == ref.tally(rules, ref.random_hands(rules, engine_rng, hands))
        assert totals.hands == hands
        assert fast_rng.getstate() == engine_rng.getstate()


@pytest.mark.parametrize("backend", BACKENDS)
def test_play_games_is_reference_games(backend: fast_paths.Backend) -> None:
    for case in ("preset-pagat-draw", "players-5-set9", "ante-ties-often"):
        rules = CASES[case]
        fast_rng, engine_rng = random.Random(case), random.Random(case)
        totals = play_games(rules, fast_rng, 4, backend=backend)
        assert totals == ref.tally(rules, ref.random_games(rules, engine_rng, 4))
        assert fast_rng.getstate() == engine_rng.getstate()


@pytest.mark.skipif(not extension_built(), reason=C_MISSING)
@pytest.mark.parametrize("case", list(CASES))
def test_c_path_is_the_pure_path_over_many_games(case: str) -> None:
    """Many more games than the reference can play: every hand traced, then the totals."""
    rules = CASES[case]
    for seed in range(100, 120):
        c_rng, py_rng = random.Random(seed), random.Random(seed)
        assert trace_game(rules, c_rng, backend="c") == trace_game(rules, py_rng,
                                                                   backend="python")
        assert c_rng.getstate() == py_rng.getstate()
    c_rng, py_rng = random.Random(case), random.Random(case)
    games = 20 if rules.set >= 12 else 60
    assert play_games(rules, c_rng, games, backend="c") == play_games(rules, py_rng, games,
                                                                      backend="python")
    assert c_rng.getstate() == py_rng.getstate()


@pytest.mark.skipif(not extension_built(), reason=C_MISSING)
def test_c_path_is_the_pure_path_for_long_runs_of_presets() -> None:
    """Thousands of hands per preset, the RNG refilled many times over."""
    for rules in PRESETS.values():
        c_rng, py_rng = random.Random(7), random.Random(7)
        assert play_hands(rules, c_rng, 3000, backend="c") == play_hands(
            rules, py_rng, 3000, backend="python")
        assert c_rng.getstate() == py_rng.getstate()


def test_an_rng_subclass_is_asked_through_its_own_methods() -> None:
    """A subclass that draws differently (here ``random`` without ``getrandbits``, which
    switches ``_randbelow``) still gets the reference game, on the pure path."""

    class Floats(random.Random):
        def random(self) -> float:
            return super().random()

    rules = CASES["spinner-draw"]
    for seed in range(3):
        fast_rng, engine_rng = Floats(seed), Floats(seed)
        traced = trace_game(rules, fast_rng)
        game = ref.random_game(rules, engine_rng)
        assert traced.hands == ref.trace_of(game)
        assert fast_rng.getstate() == engine_rng.getstate()
    if extension_built():
        with pytest.raises(TypeError, match=r"random\.Random"):
            play_games(rules, Floats(0), 1, backend="c")


def test_bones_pure_makes_python_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fast_paths.PURE_ENV, "1")
    assert fast_paths.default_backend() == "python"
    monkeypatch.setenv(fast_paths.PURE_ENV, "0")
    assert fast_paths.default_backend() == ("c" if extension_built() else "python")


@pytest.mark.skipif(extension_built(), reason="the extension is built here")
def test_asking_for_a_missing_extension_says_so() -> None:
    with pytest.raises(RuntimeError, match="not built"):
        play_games(PRESETS["block"], random.Random(0), 1, backend="c")


@pytest.mark.parametrize("backend", BACKENDS)
def test_nothing_played_leaves_the_rng_alone(backend: fast_paths.Backend) -> None:
    rng = random.Random(3)
    before = rng.getstate()
    assert play_games(PRESETS["pool"], rng, 0, backend=backend) == zero_totals(PRESETS["pool"])
    assert play_hands(PRESETS["pool"], rng, 0, backend=backend) == zero_totals(PRESETS["pool"])
    assert rng.getstate() == before
    with pytest.raises(ValueError, match="at least 0"):
        play_hands(PRESETS["pool"], rng, -1, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_totals_add_up(backend: fast_paths.Backend) -> None:
    """Every hand ends once; chips go to seats or stay in a pool; runs can be added."""
    rules = CASES["ante-pool-hand-split"]
    rng = random.Random(11)
    first = play_games(rules, rng, 30, backend=backend)
    second = play_games(rules, rng, 20, backend=backend)
    whole = play_games(rules, random.Random(11), 50, backend=backend)
    assert first + second == whole
    assert whole.out + whole.blocked == whole.hands == whole.game_hands
    assert sum(whole.side_hands) + whole.tied == whole.hands
    assert sum(whole.side_games) == whole.games == 50
    assert sum(whole.seat_leads) == whole.hands
    assert sum(whole.seat_chips) + whole.pool == 0


@pytest.mark.skipif(not extension_built(), reason=C_MISSING)
def test_the_extension_refuses_bad_input() -> None:
    from bones.fast import _playout

    words = random.Random(0).getstate()[1]
    good = params(PRESETS["block"])
    with pytest.raises(ValueError, match="options"):
        _playout.run(good[:-1], words, 1, False, False)
    with pytest.raises(ValueError, match="cannot be dealt"):
        _playout.run((6, 5) + good[2:], words, 1, False, False)
    with pytest.raises(ValueError, match="625 words"):
        _playout.run(good, words[:-1], 1, False, False)
    with pytest.raises(ValueError, match="Mersenne"):
        _playout.run(good, words[:-1] + (625,), 1, False, False)


@pytest.mark.parametrize("changes", [
    {"ante": 2**31, "score": "others"}, {"target": 10**20}, {"ante": 10**25, "target": 10**30},
    {"reserve": 1000}, {"reserve": 10**20},
])
def test_a_target_or_ante_beyond_the_c_range_is_played_on_the_pure_path(changes) -> None:
    """The rules take any whole number (any reserve in Block, where nothing is drawn); the
    C path's 64-bit totals and tile-sized reserve do not, so such rules are played, by
    default, on the pure path (the same game) rather than refused."""
    rules = PRESETS["pool"].replace(players=3, **changes)
    chosen = play_hands(rules, random.Random(5), 300)
    assert chosen == play_hands(rules, random.Random(5), 300, backend="python")
    assert sum(chosen.seat_chips) + chosen.pool == 0 and chosen.hands == 300
    if extension_built():
        with pytest.raises(ValueError, match="backend='python'"):
            play_hands(rules, random.Random(5), 1, backend="c")
