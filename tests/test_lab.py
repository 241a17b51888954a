"""``bones lab``: the --vary grid, seeded and process-independent runs, agreement with the
engine's own random games, the statistics of the intervals, the plots and the command."""

import json

import pytest
from rich.console import Console

from bones.cli.lab import _cell, tables
from bones.cli.main import main
from bones.engine.rules import PRESETS, SETS, Rules
from bones.fast.reference import random_hands, tally
from bones.lab import Counts, VaryError, expand, parse_vary, run_lab
from bones.lab.metrics import mean
from bones.lab.running import Chunk, chunk_rng, chunk_sizes, play_chunk


def lab(capsys, *args: str) -> dict:
    assert main(["lab", "--json", "--quiet", *args]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def run_one(rules: Rules, hands: int, seed: int = 1, **kw) -> Counts:
    rows = run_lab(expand(rules, []), hands, seed, **kw)
    assert rows[0].counts is not None
    return rows[0].counts


# -- the grid ------------------------------------------------------------------------------

def test_a_bare_option_takes_every_value_of_a_fixed_list():
    assert parse_vary("spinner").values == ("none", "first-double")
    assert parse_vary("draw").values == (False, True)
    assert parse_vary("set").values == SETS
    assert parse_vary("pool-tie").option == "pool_tie"


def test_a_range_and_a_list_are_read_like_the_rules_flags():
    assert parse_vary("players=3..6").values == (3, 4, 5, 6)
    assert parse_vary("set=6..12").values == (6, 9, 12)
    assert parse_vary("target=50,100,pagat").values == (50, 100, "pagat")
    assert parse_vary("hand_size=5,pool").values == (5, "pool")
    assert parse_vary("partnerships=true,false").values == (True, False)
    assert parse_vary("lead=lots,heaviest").values == ("lots", "heaviest")


@pytest.mark.parametrize("text", [
    "bogus", "players", "players=6..3", "players=a..b", "players=x", "spinner=wide",
    "spinner=1..2", "draw=maybe", "set=7", "set=7..8", "players=3,3", "players=2..5000",
    "target=\u00b2,100", "players=\u00b2", "players=--3", "target=--100", "set=--6",
    "players=\uff13", "players=\u0663..\u0664", "players=2..1_0", "players=3_0",
])
def test_a_vary_flag_no_rule_set_could_have_is_refused(text):
    with pytest.raises(VaryError, match=r"^--vary "):
        parse_vary(text)


def test_numbers_are_read_as_the_options_own_flags_read_them():
    """``--players +3`` and ``--players ' 3'`` are 3, so the same values in a list are too."""
    assert parse_vary("players=+3, 4").values == (3, 4)
    assert parse_vary("players= 2..+3").values == (2, 3)


@pytest.mark.parametrize("text", [
    "players=-1", "players=0,3", "players=1..3", "target=0", "target=-5,pagat", "ante=-1",
    "reserve=-1", "hand_size=0", "hand_size=-2..2",
])
def test_a_number_below_the_options_least_is_refused_not_skipped(text):
    """No rule set has one player or a negative ante, whatever the other options: that is a
    mistake in the command (refused), not a combination that cannot be dealt (skipped)."""
    with pytest.raises(VaryError, match="at least"):
        parse_vary(text)


def test_several_flags_make_every_combination_the_first_changing_slowest():
    points = expand(PRESETS["pool"], [parse_vary("spinner"), parse_vary("players=3..4")])
    assert [p.changes for p in points] == [
        (("spinner", "none"), ("players", 3)), (("spinner", "none"), ("players", 4)),
        (("spinner", "first-double"), ("players", 3)),
        (("spinner", "first-double"), ("players", 4))]
    assert all(p.rules is not None and p.rules.preset == "pool" for p in points)
    assert points[3].rules == PRESETS["pool"].replace(spinner="first-double", players=4)


def test_an_undealable_combination_is_skipped_with_the_engines_reason():
    points = expand(PRESETS["block"], [parse_vary("players=4..5")])
    assert points[0].rules is not None and points[0].skipped is None
    assert points[1].rules is None
    assert points[1].skipped is not None and '"hand_size"' in points[1].skipped


def test_an_option_varied_twice_is_refused():
    with pytest.raises(VaryError, match="twice"):
        expand(Rules(), [parse_vary("players=2..3"), parse_vary("players=4..5")])


# -- running -------------------------------------------------------------------------------

def test_chunks_cover_the_hands_asked_for():
    assert list(chunk_sizes(5, 2)) == [2, 2, 1]
    assert sum(chunk_sizes(123_457)) == 123_457


def test_the_same_seed_gives_the_same_numbers_and_another_seed_does_not(capsys):
    args = ("--rules", "pool", "--vary", "players=3..4", "--hands", "3000")
    first = lab(capsys, *args, "--seed", "5")
    assert lab(capsys, *args, "--seed", "5") == first
    assert lab(capsys, *args, "--seed", "6") != first
    assert first["seed"] == 5 and first["play"] == "random"
    assert [row["vary"] for row in first["rows"]] == [{"players": 3}, {"players": 4}]


def test_worker_processes_do_not_change_the_result():
    points = expand(PRESETS["pool"], [parse_vary("players=3..4")])
    one = run_lab(points, 5000, 9, jobs=1, chunk=1000)
    two = run_lab(points, 5000, 9, jobs=2, chunk=1000)
    assert [r.counts for r in two] == [r.counts for r in one]
    assert one[0].counts is not None and one[0].counts.hands == 5000


def test_progress_is_told_every_hand_played():
    seen: list[int] = []
    run_lab(expand(PRESETS["draw"], []), 2500, 1, chunk=1000, progress=seen.append)
    assert seen == [1000, 1000, 500]


# -- agreement with the engine ---------------------------------------------------------------

@pytest.mark.parametrize("rules", [
    PRESETS["pool"].replace(players=3),
    PRESETS["pool"].replace(players=4, pool="game", target=50),
    PRESETS["draw"].replace(players=4, partnerships=True, target=60),
    PRESETS["block"].replace(next_lead="winner", target=40),
], ids=["pool-3", "pool-game-4", "draw-partners", "block-winner"])
def test_counts_agree_with_the_engines_own_random_hands(rules):
    hands = 250
    counts = play_chunk(Chunk(rules, 3, 0, 0, hands))
    games = random_hands(rules, chunk_rng(3, 0, 0), hands)
    totals = tally(rules, games)
    assert counts.hands == totals.hands == hands
    assert (counts.blocked, counts.tied, counts.games, counts.game_hands) == (
        totals.blocked, totals.tied, totals.games, totals.game_hands)
    assert counts.side_wins == totals.side_hands
    leader_wins = points_sq = 0
    chips = [0] * rules.players
    lengths = []
    for game in games:
        for state, result in zip(game.hands, game.results, strict=True):
            leader_wins += result.winner == rules.side_of(state.leader)
            points_sq += sum(result.points) ** 2
        if game.winner is not None:
            lengths.append(len(game.results))
            chips = [c + g for c, g in zip(chips, game.chips, strict=True)]
    assert counts.leader_wins == leader_wins
    assert counts.points_sq == points_sq
    assert counts.game_hands_sq == sum(n * n for n in lengths)
    assert counts.seat_chips == tuple(chips)


# -- statistics ----------------------------------------------------------------------------

def estimates(m):
    yield from (m.leader_advantage, m.blocked, m.tied, m.points_per_hand, m.hands_per_game)
    yield from m.side_wins
    yield from m.chips_per_game or ()


def test_every_interval_holds_its_estimate_and_shrinks_with_more_hands():
    rules = PRESETS["pool"].replace(players=3)
    small = run_lab(expand(rules, []), 3000, 2)[0].metrics
    large = run_lab(expand(rules, []), 30000, 2)[0].metrics
    assert small is not None and large is not None
    for few, many in zip(estimates(small), estimates(large), strict=True):
        assert few is not None and many is not None
        assert few.low <= few.value <= few.high and many.low <= many.value <= many.high
        assert many.half_width < few.half_width


def test_a_mean_interval_uses_the_sample_deviation():
    e = mean(10, 30, 4)  # 1, 2, 3, 4: s = 1.29
    assert e is not None and e.value == 2.5
    assert e.half_width == pytest.approx(1.959964 * 1.2909944 / 2, rel=1e-6)
    assert mean(5, 25, 1) is None


def test_with_two_sides_the_side_shares_and_the_tied_share_add_up_to_one(capsys):
    result = lab(capsys, "--rules", "block", "--hands", "4000", "--seed", "1")
    row = result["rows"][0]
    total = sum(s["value"] for s in row["side_win_share"]) + row["tied_share"]["value"]
    assert total == pytest.approx(1, abs=1e-3)


def test_block_blocks_more_often_than_draw_with_the_same_players():
    for players in (2, 3):
        block = run_lab(expand(PRESETS["block"].replace(players=players), []), 4000, 1)
        draw = run_lab(expand(PRESETS["draw"].replace(players=players), []), 4000, 1)
        b, d = block[0].metrics, draw[0].metrics
        assert b is not None and d is not None and b.blocked and d.blocked
        assert b.blocked.low > d.blocked.high


def test_seats_of_domino_pool_are_even_under_random_play():
    """Lots are drawn for every hand, so no seat is favoured: every seat's chips per game
    interval holds 0 (a seat outside at 95% would be a 1-in-20 fluke per seat; the seed is
    fixed, so this does not flicker)."""
    m = run_lab(expand(PRESETS["pool"].replace(players=3), []), 20000, 4)[0].metrics
    assert m is not None and m.chips_per_game is not None
    assert all(e is not None and e.low <= 0 <= e.high for e in m.chips_per_game)


# -- the command ---------------------------------------------------------------------------

def test_json_rows_carry_skipped_rule_sets_with_their_reason(capsys):
    result = lab(capsys, "--rules", "block", "--vary", "players=4..5", "--hands", "500",
                 "--seed", "1")
    ok, skipped = result["rows"]
    assert ok["skipped"] is None and ok["hands"] == 500 and ok["players"] == 4
    assert skipped["rules"] is None and "hand_size" in skipped["skipped"]
    assert ok["chips_per_game"] is None  # block has no ante
    assert result["vary"] == [{"option": "players", "values": [4, 5]}]


def test_the_table_fits_80_columns_and_names_skipped_rule_sets(capsys):
    assert main(["lab", "--quiet", "--rules", "pool", "--vary", "spinner", "--vary",
                 "players=3..7", "--hands", "400", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "random play" in out and "first-double" in out
    rows = run_lab(expand(PRESETS["pool"], [parse_vary("spinner"), parse_vary("players=6..7")]),
                   300, 1)
    wide = Console(width=200, record=True)
    for table in tables("pool", [parse_vary("spinner"), parse_vary("players=6..7")], rows):
        wide.print(table)
    assert max(len(line.rstrip()) for line in wide.export_text().splitlines()) <= 80
    assert main(["lab", "--quiet", "--vary", "players=4..5", "--hands", "300"]) == 0
    assert 'skipped players 5: rules: option "hand_size"' in capsys.readouterr().out


def test_plot_writes_a_png_and_an_svg_per_metric(capsys, tmp_path):
    lab(capsys, "--rules", "pool", "--vary", "players=3..4", "--vary", "spinner",
        "--hands", "500", "--seed", "1", "--plot", str(tmp_path / "plots"))
    files = sorted(p.name for p in (tmp_path / "plots").iterdir())
    stems = ["blocked", "chips-per-game", "hands-per-game", "leader-advantage",
             "points-per-hand", "tied"]
    assert files == sorted(f"lab-{s}.{ext}" for s in stems for ext in ("png", "svg"))
    for stem in stems:
        png = (tmp_path / "plots" / f"lab-{stem}.png").read_bytes()
        svg = (tmp_path / "plots" / f"lab-{stem}.svg").read_text()
        assert png.startswith(b"\x89PNG") and len(png) > 1000
        assert "<svg" in svg and len(svg) > 1000


@pytest.mark.parametrize("flag", ["spinner=wide", "players", "bogus", "players=6..3"])
def test_bad_vary_input_is_one_line_and_status_1(capsys, flag):
    assert main(["lab", "--quiet", "--vary", flag, "--hands", "10"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("bones: --vary ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_grid_too_wide_for_80_columns_shortens_values_never_numbers():
    variations = [parse_vary("lead"), parse_vary("opening"), parse_vary("score")]
    rows = run_lab(expand(PRESETS["block"], variations), 2000, 1)
    narrow = Console(width=80, record=True)
    for table in tables("block", variations, rows):
        narrow.print(table)
    text = narrow.export_text()
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    for row in rows:  # every figure printed whole: value and interval
        m = row.metrics
        assert m is not None
        for cell in (_cell(m.leader_advantage, 100, sign=True), _cell(m.blocked, 100),
                     _cell(m.tied, 100), _cell(m.points_per_hand, 1),
                     _cell(m.hands_per_game, 1)):
            assert f" {cell} " in text, cell
    assert "others-m…" in text  # the value that did not fit is shortened instead


def test_a_plot_folder_that_cannot_be_written_is_refused_before_any_hand(capsys, tmp_path,
                                                                        monkeypatch):
    import bones.cli.lab as lab_cli

    def never(*args, **kwargs):
        raise AssertionError("hands were played before the plot folder was checked")

    monkeypatch.setattr(lab_cli, "run_lab", never)
    taken = tmp_path / "afile"
    taken.write_text("")
    assert main(["lab", "--quiet", "--hands", "10", "--plot", str(taken)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"bones: cannot make plot directory {taken}: File exists\n"
    with pytest.raises(SystemExit) as stop:  # an empty name would plot nothing, silently
        main(["lab", "--quiet", "--hands", "10", "--plot", ""])
    assert stop.value.code == 2
    assert "--plot: needs a path" in capsys.readouterr().err


def test_ctrl_c_keeps_the_rule_sets_finished_and_leaves_out_the_rest(capsys, monkeypatch):
    from bones.lab.running import NOT_FINISHED, LabInterrupted

    points = expand(PRESETS["block"], [parse_vary("players=2..3")])
    calls = []

    def stop_after(n: int):
        def progress(hands: int) -> None:
            calls.append(hands)
            if len(calls) == n:
                raise KeyboardInterrupt
        return progress

    whole = run_lab(points, 200, 1, chunk=100)
    with pytest.raises(LabInterrupted) as stopped:  # two chunks: the first rule set is done
        run_lab(points, 200, 1, chunk=100, progress=stop_after(2))
    first, second = stopped.value.rows
    assert first == whole[0]
    assert second.metrics is None and second.point.skipped == NOT_FINISHED
    calls.clear()
    with pytest.raises(KeyboardInterrupt) as bare:  # one chunk: nothing finished to report
        run_lab(points, 200, 1, chunk=100, progress=stop_after(1))
    assert not isinstance(bare.value, LabInterrupted)

    import bones.cli.lab as lab_cli

    def interrupted(*args, **kwargs):
        raise LabInterrupted([first, second])

    monkeypatch.setattr(lab_cli, "run_lab", interrupted)
    assert main(["lab", "--json", "--quiet", "--vary", "players=2..3", "--hands", "200",
                 "--seed", "1"]) == 130
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["interrupted"] is True and doc["rows"][1]["skipped"] == NOT_FINISHED
    assert err == "bones: interrupted after 1 of 2 rule sets; the results so far:\n"


def test_an_ascii_console_reads_plus_minus_not_an_escape(monkeypatch, capsys):
    """Where the output cannot encode ``±`` it would print ``\\xb1``."""
    import io

    from bones.cli.main import main

    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="backslashreplace")
    monkeypatch.setattr("sys.stdout", ascii_out)
    assert main(["lab", "--hands", "200", "--jobs", "1", "--seed", "1", "--quiet"]) == 0
    ascii_out.flush()
    text = ascii_out.buffer.getvalue().decode("ascii")
    assert "+/-" in text and "\\xb1" not in text


@pytest.mark.parametrize("columns", ["20", "50"])
def test_a_narrow_terminal_gets_whole_numbers_and_labelled_rows(monkeypatch, capsys, columns):
    """Below 80 columns the table squeezed out its option columns (rows unlabelled) and
    cut numbers (``11.4±0…``); it is printed as at 80 columns instead, the lines running
    on."""
    from bones.cli.main import main

    monkeypatch.setenv("COLUMNS", columns)
    assert main(["lab", "--hands", "2000", "--jobs", "1", "--seed", "1", "--quiet",
                 "--rules", "pool", "--vary", "spinner", "--vary", "players=3..4"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    rows = [line for line in out.splitlines() if line.startswith(("none", "first-double"))]
    assert len(rows) >= 4 and all(len(line.split()) == 7 for line in rows[:4]), out
