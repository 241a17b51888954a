"""The terminal game's pieces without a terminal: how tiles and the layout are drawn, what
the narration reveals, how typed moves are read, and that every screen fits 80x24."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console
from rich.text import Text

from bones.ai import make_bot
from bones.engine.game import Game, deal_hand, new_game, play
from bones.engine.layout import Layout
from bones.engine.moves import Draw, Pass, Play
from bones.engine.rules import PRESETS, Rules
from bones.engine.tiles import Tile, parse_tile
from bones.engine.view import observe
from bones.table.seats import default_kinds, default_names, seating
from bones.tui.commands import Forced, Help, Pick, Quit, TileCode, Unreadable, read_command
from bones.tui.faces import layout_lines, plays_lines
from bones.tui.narrate import Turn, describe, since_last_turn, turns
from bones.tui.screens import hand_end_screen, turn_screen


def lay(tiles: str, spinner: bool = False) -> Layout:
    """Build a layout from ``"6-6 6-5:right 6-4:left"`` (the first tile takes no arm)."""
    layout = Layout(uses_spinner=spinner)
    for word in tiles.split():
        name, _, arm = word.partition(":")
        layout = layout.place(parse_tile(name), arm or None)  # type: ignore[arg-type]
    return layout


def plain(lines: list[Text]) -> list[str]:
    return [line.plain for line in lines]


# -- faces ----------------------------------------------------------------------------------


def test_line_reads_outward_to_each_open_number() -> None:
    layout = lay("6-3 6-5:left 3-1:right 5-5:left")
    assert plain(layout_lines(layout, 80)) == ["  left 5 < [5|5][5|6][6|3][3|1] > 1 right"]


def test_first_double_spinner_shows_up_and_down_once_both_sides_are_played() -> None:
    waiting = lay("6-6 6-5:right", spinner=True)
    assert plain(layout_lines(waiting, 80)) == [
        "  left 6 < {6|6}[6|5] > 5 right",
        "  spinner {6|6}: up and down open once both its sides have tiles",
    ]
    open_ = lay("6-6 6-5:right 6-4:left 6-2:up", spinner=True)
    assert plain(layout_lines(open_, 80)) == [
        "  left 4 < [4|6]{6|6}[6|5] > 5 right",
        "  up   2 < [2|6]{6|6}",
        "  down 6 < {6|6}",
    ]


def test_spinner_away_from_the_centre_is_drawn_where_it_lies() -> None:
    layout = lay("5-3 5-5:left 5-1:left 3-2:right 5-4:up", spinner=True)
    assert plain(layout_lines(layout, 80)) == [
        "  left 1 < [1|5]{5|5}[5|3][3|2] > 2 right",
        "  up   4 < [4|5]{5|5}",
        "  down 5 < {5|5}",
    ]


def test_long_line_keeps_both_open_ends_and_hides_the_middle() -> None:
    layout = Layout()
    tiles = [Tile(12, 11), Tile(11, 10), Tile(10, 9), Tile(9, 8), Tile(8, 7), Tile(7, 6),
             Tile(6, 5), Tile(5, 4), Tile(4, 3), Tile(3, 2), Tile(2, 1), Tile(1, 0)]
    layout = layout.place(tiles[0], None)
    for t in tiles[1:]:
        layout = layout.place(t, "right")
    for t in (Tile(12, 12), Tile(12, 10)):
        layout = layout.place(t, "left")
    [line] = plain(layout_lines(layout, 80))
    assert len(line) <= 80
    assert line.startswith("  left 10 < [10|12][12|12]")
    assert line.endswith("[1|0] > 0 right")
    assert ".." in line


def test_plays_are_numbered_from_one_with_their_arm() -> None:
    plays = [Play(0, Tile(5, 5), "left"), Play(0, Tile(5, 5), "right"), Play(0, Tile(4, 1), "up")]
    text = " ".join(plain(plays_lines(plays, 80)))
    assert "1) [5|5] left" in text and "2) [5|5] right" in text and "3) [4|1] up" in text


# -- narration ------------------------------------------------------------------------------


def test_turns_join_draws_to_the_play_that_ends_them() -> None:
    moves = [Play(0, Tile(6, 6)), Draw(1, None), Draw(1, None), Play(1, Tile(6, 1), "left"),
             Pass(0), Draw(1, Tile(3, 3))]
    assert turns(moves) == [Turn(0, (), Play(0, Tile(6, 6))),
                            Turn(1, (None, None), Play(1, Tile(6, 1), "left")),
                            Turn(0, (), Pass(0)), Turn(1, (Tile(3, 3),), None)]
    names = ["Ana", "Ben"]
    said = [describe(t, names, you=1) for t in turns(moves)]
    assert said == ["Ana sets 6-6", "You draw 2 tiles and play 6-1 on the left arm",
                    "Ana passes", "You cannot play: you draw 1 tile (3-3)"]


def test_another_seats_drawn_tiles_are_only_counted() -> None:
    turn = Turn(1, (Tile(5, 3), Tile(2, 2)), Play(1, Tile(5, 3), "right"))
    assert describe(turn, ["Ana", "Ben"], you=0) == "Ben draws 2 tiles and plays 5-3 on the " \
                                                    "right arm"


def test_news_starts_with_the_seats_own_last_turn() -> None:
    moves = [Play(0, Tile(6, 6)), Play(1, Tile(6, 1), "left"), Play(0, Tile(6, 2), "right"),
             Pass(1)]
    recent, fresh = since_last_turn(moves, 0)
    assert not fresh and [t.end for t in recent] == [Play(0, Tile(6, 2), "right"), Pass(1)]
    assert since_last_turn(moves[:1], 1) == (turns(moves[:1]), True)


# -- typed moves ----------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "expected"), [
    ("2", Pick(2)),
    (" 6-5 ", TileCode(Tile(6, 5), None)),
    ("5-6 l", TileCode(Tile(6, 5), "left")),
    ("65r", TileCode(Tile(6, 5), "right")),
    ("6-5 LEFT", TileCode(Tile(6, 5), "left")),
    ("6 5 up", TileCode(Tile(6, 5), "up")),
    ("33d", TileCode(Tile(3, 3), "down")),
    ("help", Help()),
    ("quit", Quit()),
    ("pass", Forced("pass")),
])
def test_commands_are_read_in_every_short_form(typed: str, expected: object) -> None:
    assert read_command(typed, choices=3, top=6) == expected


@pytest.mark.parametrize("typed", ["\u00b2", "\u00b2\u00b2", "6-\u00b2", "\u2460"])
def test_digits_that_are_not_decimal_are_unreadable_not_a_crash(typed: str) -> None:
    """Superscripts and circled numbers pass ``str.isdigit`` but are no whole number."""
    assert isinstance(read_command(typed, choices=3, top=6), Unreadable)


def test_a_list_number_wins_over_a_packed_tile_and_other_numbers_read_as_tiles() -> None:
    assert read_command("11", choices=12, top=6) == Pick(11)
    assert read_command("11", choices=3, top=6) == TileCode(Tile(1, 1), None)
    assert read_command("12-10", choices=3, top=12) == TileCode(Tile(12, 10), None)


def test_a_number_that_is_both_a_list_number_and_a_playable_tile_is_asked_about() -> None:
    """With twelve plays listed and 1-1 playable, "11" could be either: playing one of
    them would, half the time, play a tile the person did not mean."""
    held = {Tile(1, 1), Tile(5, 4)}
    unclear = read_command("11", choices=12, top=6, playable=held)
    assert isinstance(unclear, Unreadable)
    assert "both play 11 and the tile 1-1" in unclear.reason and "#11" in unclear.reason
    assert read_command("#11", choices=12, top=6, playable=held) == Pick(11)
    assert read_command("1-1", choices=12, top=6, playable=held) == TileCode(Tile(1, 1), None)
    assert read_command("12", choices=12, top=6, playable=held) == Pick(12)  # 1-2 not held
    assert isinstance(read_command("#13", choices=12, top=6), Unreadable)


def test_a_number_too_long_for_any_list_is_refused_in_one_line() -> None:
    for typed in ("1" * 5000, "#" + "2" * 5000):
        command = read_command(typed, choices=12, top=6)
        assert isinstance(command, Unreadable) and len(command.reason) < 80


def test_a_prompt_that_fills_the_line_puts_the_answer_on_the_next() -> None:
    from bones.tui.terminal import Terminal

    terminal = Terminal(Console(width=44, file=io.StringIO()))
    assert [terminal.lines_of("x" * n) for n in (10, 43, 44, 45, 88)] == [1, 1, 2, 2, 3]


def test_a_leading_zero_names_a_tile_never_a_list_number() -> None:
    assert read_command("03", choices=7, top=6) == TileCode(Tile(3, 0), None)


def test_four_digits_on_a_big_set_say_how_to_write_a_tile_above_nine() -> None:
    command = read_command("1211", choices=6, top=12)
    assert isinstance(command, Unreadable) and "12-11" in command.reason


@pytest.mark.parametrize(("typed", "reason"), [
    ("", "type a number"),
    ("9-9", "not in the double-6 set"),
    ("6-5 sideways", "is not an arm"),
    ("play", "is not a move"),
    ("123", "there is no play 123"),
])
def test_unreadable_input_gets_one_line_reason(typed: str, reason: str) -> None:
    command = read_command(typed, choices=3, top=6)
    assert isinstance(command, Unreadable)
    assert reason in command.reason and "\n" not in command.reason


# -- seats ----------------------------------------------------------------------------------


def test_default_seating_is_one_person_against_greedy_bots() -> None:
    assert default_kinds(3) == ("human", "greedy", "greedy")
    assert default_names(("human", "greedy", "greedy")) == ("You", "Greedy 2", "Greedy 3")
    assert default_names(("human", "human", "random")) == ("Player 1", "Player 2", "Random")
    assert seating(2, None, "Ana").names == ("Ana", "Greedy")


# -- whole screens fit 80x24 ----------------------------------------------------------------


def _widths(lines: list[Text]) -> list[int]:
    console = Console(width=300, record=True, color_system=None, file=io.StringIO())
    for line in lines:
        console.print(line)
    return [len(row) for row in console.export_text().splitlines()]


SHAPES = [(name, PRESETS[name], players) for name in PRESETS for players in (2, 3, 4)]
SHAPES += [("spinner", PRESETS["draw"].replace(spinner="first-double"), 4),
           ("partners", PRESETS["block"].replace(partnerships=True, players=4), 4),
           ("pool-ante", PRESETS["pool"].replace(spinner="first-double", ante=3), 4)]


def _playout(rules: Rules, seed: int) -> list[Game]:
    """A hand played by bots, keeping every game state at which a seat had to play."""
    rng = random.Random(seed)
    bots = [make_bot("random", random.Random(seed * 10 + s)) for s in range(rules.players)]
    game = deal_hand(new_game(rules), rng)
    choices = []
    while (state := game.current) is not None:
        move = state.legal_moves()[0]
        if isinstance(move, Play):
            choices.append(game)
            move = bots[state.to_move].choose(observe(game, state.to_move))
        game = play(game, move)
    return choices + [game]


@pytest.mark.parametrize(("name", "base", "players"), SHAPES)
def test_every_turn_screen_fits_80_columns_and_24_lines(name: str, base: Rules,
                                                         players: int) -> None:
    rules = base if base.partnerships else base.replace(players=players)
    longest = ",".join(f"Longest-name-{s:03d}" for s in range(rules.players))  # 16 chars
    table = seating(rules.players, None, longest)
    for seed in range(3):
        *choices, ended = _playout(rules, seed)
        for game in choices:
            assert game.current is not None
            view = observe(game, game.current.to_move)
            screen = turn_screen(view, table, 1, 80, 24)
            widths = _widths(screen)
            assert max(widths) <= 80, (name, screen)
            assert len(widths) <= 23, (name, [line.plain for line in screen])
        end = hand_end_screen(ended, table, 80, you=0)
        assert max(_widths(end)) <= 80
        assert len(end) <= 24, [line.plain for line in end]


@pytest.mark.parametrize(("name", "base", "players"), SHAPES)
def test_on_a_40x20_terminal_only_news_and_spacing_give_way(name: str, base: Rules,
                                                            players: int) -> None:
    """With the prompt taking two lines at 40 columns, a turn screen fits the 18 lines left,
    unless even without any news or blank line it cannot: the header, scores, layout, hand
    and choices are never what is dropped. A hand-end screen keeps its title, the hands and
    the points within 19 lines by dropping the last turns, then the layout."""
    rules = base if base.partnerships else base.replace(players=players)
    table = seating(rules.players, None, None)
    for seed in range(3):
        *choices, ended = _playout(rules, seed)
        for game in choices:
            assert game.current is not None
            view = observe(game, game.current.to_move)
            screen = [line.plain for line in turn_screen(view, table, 1, 40, 20, reserve=2)]
            optional = [line for line in screen
                        if line == "" or "earlier turns not shown" in line]
            assert len(screen) <= 18 or not optional, screen
            assert not any("(0 " in line for line in screen)
            assert any(line.startswith("Scores:") for line in screen)
        whole = [line.plain for line in hand_end_screen(ended, table, 40, you=0)]
        end = [line.plain for line in hand_end_screen(ended, table, 40, you=0, height=20,
                                                      reserve=2)]
        assert end[0].startswith("bones: ") and "Hands revealed:" in end
        assert end[-len(whole[whole.index("Hands revealed:"):]):] == \
            whole[whole.index("Hands revealed:"):]  # the hands and points always whole
        if len(whole) <= 18:
            assert end == whole  # nothing given way that did not have to
        elif len(end) > 18:
            assert not any(line.startswith("Layout") for line in end), end


@pytest.mark.parametrize(("name", "base", "players"), SHAPES)
def test_at_40_columns_sentences_wrap_and_keep_their_ends(name: str, base: Rules,
                                                          players: int) -> None:
    """On the narrowest screen a result or a count is wrapped, never cut: the points a
    hand scored and the seat's count must be read whole."""
    rules = base if base.partnerships else base.replace(players=players)
    longest = ",".join(f"Longest-name-{s:03d}" for s in range(rules.players))
    table = seating(rules.players, None, longest)
    *choices, ended = _playout(rules, 1)
    end = hand_end_screen(ended, table, 40, you=0)
    assert max(_widths(end)) <= 40
    text = " ".join(" ".join(line.plain.split()) for line in end)
    result = ended.results[-1]
    if result.winner is not None:
        assert re.search(rf"\bscores? {result.points[result.winner]}\b", text), text
    view = observe(choices[-1], choices[-1].current.to_move)
    screen = turn_screen(view, table, 1, 40, 24)
    assert max(_widths(screen)) <= 40
    shown = " ".join(" ".join(line.plain.split()) for line in screen)
    assert f"count {sum(t.pips for t in view.hand)}; * playable" in shown, shown


def test_a_turn_screen_shows_only_the_seats_own_tiles() -> None:
    rules = PRESETS["draw"].replace(players=3)
    *choices, _ = _playout(rules, 7)
    table = seating(3, ("human", "human", "human"))
    for game in choices:
        assert game.current is not None
        seat = game.current.to_move
        text = "\n".join(line.plain for line in
                         turn_screen(observe(game, seat), table, 1, 80, 24))
        on_table = game.current.layout.placed
        for other in range(3):
            for t in game.current.hands[other]:
                face = f"[{t.high}|{t.low}]"
                if other != seat and t not in on_table:
                    assert face not in text, (seat, other, t)


BIG = [("double-12 pool", PRESETS["pool"].replace(set=12, players=2)),
       ("double-15 pool", PRESETS["pool"].replace(set=15, players=2)),
       ("double-18 pool", PRESETS["pool"].replace(set=18, players=2))]


@pytest.mark.parametrize(("name", "rules"), BIG, ids=[name for name, _ in BIG])
def test_a_big_hand_still_fits_80x24_with_the_header_in_sight(name: str, rules: Rules) -> None:
    """Forty to ninety-one tiles in hand: a lead lists the hand once, numbered (not the hand
    and then every tile again), and a crowded list of plays is written in narrower columns,
    so the header and scores are not scrolled away."""
    table = seating(rules.players, None, None)
    for seed in range(2):
        *choices, _ = _playout(rules, seed)
        for game in choices[:12]:
            assert game.current is not None
            view = observe(game, game.current.to_move)
            screen = [line.plain for line in turn_screen(view, table, 1, 80, 24)]
            assert len(screen) <= 23 and max(_widths(turn_screen(view, table, 1, 80, 24))) \
                <= 80, (name, screen)
            assert screen[0].startswith("bones: ") and screen[1].startswith("Scores:")
            listed = re.findall(r"\d+\) (\[\d+\|\d+\])", "\n".join(screen))
            assert len(listed) == len(view.legal)


def test_when_any_tile_may_lead_the_hand_is_the_numbered_list_in_the_order_held() -> None:
    rules = PRESETS["block"]
    game = deal_hand(new_game(rules), random.Random(4))
    assert game.current is not None and game.current.opening is None
    view = observe(game, game.current.to_move)
    text = "\n".join(line.plain for line in turn_screen(view, seating(2, None, None), 1,
                                                          80, 24))
    faces = [f"[{t.high}|{t.low}]" for t in view.hand]
    assert re.findall(r"\d+\) (\[\d\|\d\])", text) == faces
    assert all(text.count(face) == 1 for face in faces) and "you lead" in text
