"""Each fast path says which rules it plays (``bones.fast.supports``, per path, and
``bones.fast.search.supports``), in one line naming the option and its value; for any other
rules its callers play the same procedure on the engine rather than fail with a
``KeyError`` from a code table.

An unsupported value is faked: a ``Rules`` whose ``score`` is set past validation to a value
the engine is taught for the test (``"all-fives"``, scored here like ``"others"``), as a new
``score`` value added to the engine but not to the fast paths would be.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import random

import pytest
from rich.console import Console

import bones.cli.lab as cli_lab
import bones.cli.simulate as simulate
from bones import fast
from bones.engine import scoring
from bones.engine.layout import Layout
from bones.engine.rules import PRESETS, Rules
from bones.engine.tiles import Tile
from bones.fast import params, pure, search
from bones.fast.paths import c_supports
from bones.lab.grid import GridPoint
from bones.lab.running import Chunk, Row, play_chunk
from bones.sim.fastsim import fast_series

NEW_SCORE = "all-fives"


def _faked(rules: Rules, **options: object) -> Rules:
    """``rules`` with ``options`` set as they are, unvalidated (no real value is refused)."""
    fake = copy.copy(rules)
    for name, value in options.items():
        object.__setattr__(fake, name, value)
    return fake


@pytest.fixture
def new_score(monkeypatch):
    """The engine taught a score value the fast paths do not know (like ``"others"``)."""
    monkeypatch.setitem(scoring.SCORES, NEW_SCORE, scoring.SCORES["others"])
    monkeypatch.setitem(scoring._TAKES_OWN, NEW_SCORE, False)
    return _faked(PRESETS["block"], score=NEW_SCORE)


def _same_totals(a: fast.Totals, b: fast.Totals) -> bool:
    return all(getattr(a, f.name) == getattr(b, f.name)
               for f in dataclasses.fields(a) if f.name != "rules")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_supported_everywhere(name):
    for rules in (PRESETS[name], PRESETS[name].replace(spinner="first-double", players=3)):
        assert fast.supports(rules) is None and fast.supports(rules, "c") is None
        assert pure.supports(rules) is None and c_supports(rules) is None
        assert search.supports(rules) is None


def test_an_unknown_score_is_named_not_a_key_error(new_score):
    reason = fast.supports(new_score)
    assert reason is not None and "score" in reason and repr(NEW_SCORE) in reason
    assert "\n" not in reason
    assert fast.supports(new_score, "c") == pure.supports(new_score) == reason
    for backend in ("python", "c") if fast.extension_built() else ("python",):
        with pytest.raises(ValueError, match=NEW_SCORE):
            fast.play_games(new_score, random.Random(1), 1, backend=backend)
    with pytest.raises(ValueError, match=NEW_SCORE):
        params.params(new_score)
    found = search.supports(new_score)
    assert found is not None and "score" in found and repr(NEW_SCORE) in found
    with pytest.raises(ValueError, match=NEW_SCORE):
        search.SearchSpec.for_rules(new_score, 0, (0, 0), betas=(0.0, 0.0),
                                    model_opponents=False, node_limit=10,
                                    points_weight=0.01, game_weight=0.5)


@pytest.mark.parametrize("unit", ["hands", "games"])
def test_simulate_plays_unsupported_rules_on_the_engine(new_score, unit):
    """The same procedure on the engine: the same games as the fast path gives the rules
    that score alike (``"others"``)."""
    count = 400 if unit == "hands" else 3
    on_engine = fast_series(new_score, 11, unit, count)
    on_fast = fast_series(PRESETS["puerto-rico"], 11, unit, count)
    assert on_engine.totals.rules is new_score
    assert _same_totals(on_engine.totals, on_fast.totals)


def test_simulate_says_why_it_plays_on_the_engine(new_score, capsys):
    args = argparse.Namespace(jobs=1, quiet=True)
    summary, interrupted = simulate._fast(new_score, 3, "hands", 50, args,
                                          Console(stderr=True))
    assert summary.hands == 50 and not interrupted
    err = capsys.readouterr().err
    assert fast.supports(new_score) in err and "engine" in err


def test_the_lab_plays_unsupported_rules_on_the_engine(new_score):
    on_engine = play_chunk(Chunk(new_score, 5, 0, 0, 300))
    on_fast = play_chunk(Chunk(PRESETS["puerto-rico"], 5, 0, 0, 300))
    assert on_engine == on_fast and on_engine.hands == 300
    point = GridPoint(0, (), new_score)
    notes = cli_lab.notes([Row(point, on_engine, None)])
    assert f"played on the engine: {fast.supports(new_score)}" in notes


def _points_per_play(layout: Layout, tile: Tile) -> int:
    return 1


def test_rules_that_score_during_play_are_played_on_the_engine(monkeypatch):
    monkeypatch.setitem(scoring.PLAY_SCORES, "others", _points_per_play)
    rules = PRESETS["puerto-rico"].replace(target=10**6)  # no game ends: the same hands
    for reason in (fast.supports(rules), fast.supports(rules, "c"), search.supports(rules)):
        assert reason is not None and "score 'others'" in reason and "plays" in reason
    on_engine = fast_series(rules, 2, "hands", 200).totals
    monkeypatch.delitem(scoring.PLAY_SCORES, "others")
    plain = fast_series(rules, 2, "hands", 200).totals
    # the same hands, and every play scored a point on top of the end's points
    assert on_engine.hands == plain.hands and on_engine.plays == plain.plays
    assert sum(on_engine.side_points) == sum(plain.side_points) + plain.plays


def test_an_option_a_path_does_not_read_is_refused_unless_at_its_default(monkeypatch):
    monkeypatch.setattr(params, "_READ", params._READ - {"pool_tie"})
    assert fast.supports(PRESETS["pool"]) is None
    carry = PRESETS["pool"].replace(pool_tie="carry")
    reason = fast.supports(carry)
    assert reason is not None and "pool_tie" in reason and "'carry'" in reason


@pytest.mark.parametrize(("changes", "option"), [
    ({"target": 10**20}, "target"), ({"ante": 2**40}, "ante"), ({"reserve": 1000}, "reserve")])
def test_the_c_limits_are_named_for_the_c_path_only(changes, option):
    rules = PRESETS["block"].replace(**changes)
    assert fast.supports(rules) is None
    reason = fast.supports(rules, "c")
    assert reason is not None and option in reason and str(changes[option]) in reason


def test_the_expert_searches_rules_the_c_search_refuses_with_its_python_judge(monkeypatch):
    """A rule the C search does not support is searched in Python, not refused: the bot's
    choice is the Python judge's, from the same generator state."""
    import random

    from bones.ai.expert import ExpertBot
    from bones.engine.game import deal_hand, new_game
    from bones.engine.rules import PRESETS
    from bones.engine.view import observe
    from bones.fast import search

    if not search.available():
        pytest.skip("the C search is not built here")
    game = deal_hand(new_game(PRESETS["draw"]), random.Random(5))
    view = observe(game, game.hands[-1].to_move)
    monkeypatch.setattr(search, "supports", lambda rules: 'score "x" is not searched in C')
    bot = ExpertBot(random.Random(1), think=0.05, backend="c")
    chosen = bot.choose(view)
    assert bot._python is not None and bot._python.backend == "python"
    alone = ExpertBot(random.Random(1), think=0.05, backend="python").choose(view)
    assert chosen == alone and chosen in view.legal
