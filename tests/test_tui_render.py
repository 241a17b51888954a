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
from bones.tui.screens import choices as numbered
from bones.tui.screens import (
    game_end_screen,
    hand_end_screen,
    news_lines,
    play_command,
    turn_screen,
)


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
    [line] = plain(layout_lines(layout, 80, whole=False))
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
            assert len(listed) == len(numbered(view))


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


# -- issue 25: what a new player tripped over -------------------------------------------


def _long_line() -> Layout:
    """Twenty-two tiles: 6-6 first, 18 to the right, 3 to the left."""
    layout = Layout().place(Tile(6, 6), None)
    for name in ("6-5", "5-4", "4-3", "3-2", "2-1", "1-0", "0-0", "0-4", "4-4", "4-2", "2-2",
                 "2-5", "5-5", "5-3", "3-3", "3-1", "1-1", "1-5"):
        layout = layout.place(parse_tile(name), "right")
    for name in ("6-3", "3-0", "0-2"):
        layout = layout.place(parse_tile(name), "left")
    return layout


def _faces(text: str) -> list[Tile]:
    return [Tile(max(int(a), int(b)), min(int(a), int(b)))
            for a, b in re.findall(r"[\[{](\d+)\|(\d+)[\]}]", text)]


@pytest.mark.parametrize("width", [100, 80, 50, 40])
def test_a_long_line_snakes_at_the_edge_and_every_tile_is_shown(width: int) -> None:
    """Item 13: the line turns at the screen's edge and comes back, as on a real table,
    instead of hiding its middle; a tile in a row running left lies turned round, so the
    halves that touch still meet, read along the snake."""
    layout = _long_line()
    lines = plain(layout_lines(layout, width))
    assert len(lines) >= 2 and all(len(line) <= width for line in lines), lines
    assert ".." not in "".join(lines)
    assert sorted(_faces("".join(lines))) == sorted(layout.placed)
    assert lines[0].rstrip().endswith("-.") and lines[1].rstrip().endswith("-'")
    assert lines[0].lstrip().startswith("left 2 < [2|0]")
    assert "> 5 right" in lines[-1] or "right 5 < [5|" in lines[-1]
    along = []  # the halves in the order the snake is read
    for number, line in enumerate(lines):
        pairs = re.findall(r"[\[{](\d+)\|(\d+)[\]}]", line)
        along += [(b, a) for a, b in reversed(pairs)] if number % 2 else pairs
    assert all(along[i][1] == along[i + 1][0] for i in range(len(along) - 1)), along


def test_a_line_that_fits_keeps_one_row_and_a_short_screen_hides_the_middle() -> None:
    layout = _long_line()
    assert len(layout_lines(layout, 200)) == 1
    [row] = plain(layout_lines(layout, 80, whole=False))
    assert " ..12.. " in row and len(row) <= 80


@pytest.mark.parametrize(("width", "height"), [(100, 30), (80, 24)])
def test_a_turn_screen_shows_a_twelve_tile_line_whole(width: int, height: int) -> None:
    """Item 13: at 100 columns a line of twelve tiles is one row of the screen's width (no
    ``..2..`` in its middle); at 80 it snakes onto a second row."""
    *choices, _ = _playout(PRESETS["block"], 3)
    game = next(g for g in choices if g.current is not None
                and len(g.current.layout.placed) >= 12)
    view = observe(game, game.current.to_move)
    screen = plain(turn_screen(view, seating(2, None, None), 1, width, height))
    start = screen.index(next(line for line in screen if line.startswith("Layout")))
    rows = [line for line in screen[start + 1:start + 4] if re.search(r"\[\d\|\d\]", line)]
    assert sorted(_faces(" ".join(rows))) == sorted(view.layout.placed)
    assert ".." not in " ".join(screen) and "type line" not in screen[start]
    assert len(rows) == (1 if width == 100 else 2), rows
    assert all(len(line) <= width for line in screen) and len(screen) < height


def test_scores_and_tile_counts_name_each_seat_apart_from_its_number() -> None:
    """Item 12: ``Greedy 2: 4 tiles``, ``Player 1 & Greedy 3: 0``, comma-separated, not
    ``Greedy 2 4  Greedy 3 4``."""
    rules = PRESETS["block"].replace(players=4, partnerships=True)
    table = seating(4, ("human", "human", "greedy", "greedy"), None)
    game = deal_hand(new_game(rules), random.Random(4))
    assert game.current is not None
    view = observe(game, 0)
    screen = plain(turn_screen(view, table, 1, 100, 30))
    text = "\n".join(screen)
    assert "Scores: Player 1 & Greedy 3: 0, Player 2 & Greedy 4: 0 (target 100)" in text
    assert "Tiles:  Player 2: 5 tiles, Greedy 3 (partner): 5 tiles, Greedy 4: 5 tiles;\n" \
           "        boneyard 8 (Block: not drawn)" in text, text


def test_at_80_columns_a_pool_hands_chips_wrap_under_their_label() -> None:
    """Item 14: the hand-end chips line of Pool wraps with its later lines under the first
    item, not at a column of its own."""
    rules = PRESETS["pool"].replace(players=4)
    names = "Anastasia-Louise,Bartholomew-Jr,Constantinople,Dorothea-Maria"
    table = seating(4, None, names)
    *_, ended = _playout(rules, 2)
    end = plain(hand_end_screen(ended, table, 80, you=0))
    first = next(i for i, line in enumerate(end) if line.startswith("Chips this hand: "))
    assert end[first + 1].startswith(" " * 17) and end[first + 1][17] != " ", end
    assert all(len(line) <= 80 for line in end)


@pytest.mark.parametrize(("name", "base", "players"), SHAPES)
def test_at_50x20_no_line_is_cut_and_the_turns_news_stays(name: str, base: Rules,
                                                          players: int) -> None:
    """Item 14: on a 50x20 terminal every line breaks between words (under a hanging
    indent) and the latest news is kept: the scores and tiles are said more briefly and the
    layout takes one row before any of it goes."""
    rules = base if base.partnerships else base.replace(players=players)
    table = seating(rules.players, None, None)
    label = set(" ".join(plain(turn_screen(observe(_playout(rules, 0)[0], _playout(rules, 0)[0]
                                                   .current.to_move), table, 1, 400, 60))[:1])
                .split())
    for seed in range(2):
        *choices, _ = _playout(rules, seed)
        for game in choices:
            assert game.current is not None
            view = observe(game, game.current.to_move)
            screen = plain(turn_screen(view, table, 1, 50, 20))
            assert len(screen) <= 19 and all(len(line) <= 50 for line in screen), screen
            assert set(screen[0].split()) <= label | {"..."}, screen[0]  # whole words
            flat = " ".join(" ".join(screen).split())
            last = turns(view.moves)[-1:] if view.moves else []
            for turn in last:
                said = describe(turn, table.names, view.seat)
                assert said in flat, (said, screen)
            for seat, name_ in enumerate(table.names):
                if seat != view.seat:
                    assert re.search(rf"{name_}( \(partner\))?: \d", flat), (name_, flat)


def test_a_lone_double_lists_each_tile_once() -> None:
    """Item 15: on a lone double both arms show the same number and a tile on either
    leads to the same position, so it is one choice, not ``[5|4] left`` and ``right``."""
    rules = PRESETS["block"]
    game = deal_hand(new_game(rules), random.Random(0))
    state = game.current
    assert state is not None
    double = next(t for t in state.hands[state.to_move] if t.is_double) \
        if any(t.is_double for t in state.hands[state.to_move]) else None
    if double is None:
        pytest.skip("no double to lead")
    game = play(game, Play(state.to_move, double))
    view = observe(game, game.current.to_move)
    listed = numbered(view)
    assert len({p.tile for p in view.legal}) == len(listed) < len(view.legal)
    assert [p.tile for p in listed] == list(dict.fromkeys(p.tile for p in view.legal))
    later = play(game, listed[0])
    after = observe(later, later.current.to_move)
    assert numbered(after) == list(after.legal)  # two tiles down: every arm is its own


def test_sort_shows_the_hand_by_suit_or_pips_and_numbers_the_plays_so() -> None:
    """Item 18: the hand sorted, and the numbered plays in the order shown."""
    game = deal_hand(new_game(PRESETS["block"]), random.Random(4))
    view = observe(game, game.current.to_move)
    table = seating(2, None, None)
    for order, key in (("suit", lambda t: (-t.high, -t.low)),
                       ("pips", lambda t: (-t.pips, -t.high))):
        screen = "\n".join(plain(turn_screen(view, table, 1, 80, 24, order=order)))
        shown = [Tile(int(a), int(b)) for a, b in re.findall(r"\d+\) \[(\d)\|(\d)\]", screen)]
        assert shown == sorted(view.hand, key=key) and f"by {order}" in screen


def test_a_pass_the_rules_made_is_told_with_its_reason_and_kept_on_screen() -> None:
    """Item 18: a person whose turn the table passed (at a shared keyboard nobody else
    saw it) is told on their next screen, with why; it stays when older news gives way."""
    rules = PRESETS["block"]
    moves = [Play(0, Tile(6, 6)), Play(1, Tile(6, 1), "left"), Pass(0),
             Play(1, Tile(6, 2), "right"), Pass(0), Play(1, Tile(1, 1), "left")]
    game = new_game(rules)
    game = deal_hand(game, random.Random(1))
    view = observe(game, 0)
    from dataclasses import replace

    view = replace(view, moves=tuple(moves))
    news = news_lines(view, seating(2, ("human", "human"), "Ana,Ben"), 1, 80)
    said = [(" ".join(line.plain for line in lines), must) for lines, must in news]
    assert said[-2] == ("You cannot play and pass: nothing in your hand matched 1 or 2", True)
    assert said[2] == ("You cannot play and pass: nothing in your hand matched 1 or 6", False)
    assert said[0] == ("You set 6-6", False)  # what the person did last, as a reminder


def test_the_game_end_says_how_to_deal_it_again_and_that_undo_was_used() -> None:
    """Item 18 and ``x-undo``: the whole command line with the seed and the options, and a
    practice game says how many plays were taken back."""
    rules = PRESETS["pool"].replace(players=3, target=60)
    table = seating(3, ("human", "greedy", "basic"), "Ana")
    assert play_command(rules, table, 7) == ("bones play --rules pool --players 3 --target "
                                             "60 --seats human,greedy,basic --names "
                                             "Ana,Greedy,Basic --seed 7")
    assert play_command(PRESETS["draw"], seating(2, None, None), 3, think=1.0) == \
        "bones play --rules draw --think 1 --seed 3"
    assert play_command(PRESETS["block"].replace(draw=True, partnerships=True, players=4),
                        seating(4, None, None), 1).startswith(
        "bones play --rules block --players 4 --partnerships --draw --seed 1")
    *_, ended = _playout(PRESETS["block"].replace(target=1), 0)
    end = "\n".join(plain(game_end_screen(ended, seating(2, None, None), 5, 80, undone=2)))
    assert "Practice game: 2 plays taken back with undo." in end
    assert "Seed 5 deals this game again, with the same options:" in end
    assert "Final scores: You: " in end and ", Greedy: " in end


def test_help_and_sentences_wrap_between_words_under_a_hanging_indent() -> None:
    """Item 14: at 50 columns the help's explanations continue under their own column
    and a sentence's first line takes the whole width, its later lines indented."""
    from bones.tui.faces import wrapped
    from bones.tui.screens import help_lines

    lines = plain(help_lines(50))
    assert all(len(line) <= 50 for line in lines)
    start = lines.index(next(line for line in lines if line.startswith("  undo ")))
    assert lines[start + 1].startswith(" " * 17 + "replies")
    said = plain(wrapped(Text("Greedy 3 wins the hand and scores 29 (6 + 12 + 11)."), 40, 4))
    assert said == ["Greedy 3 wins the hand and scores 29 (6", "    + 12 + 11)."]
