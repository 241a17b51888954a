"""Whole screens as lists of ``Text`` lines: a seat's turn, the end of a hand, the end of the
game, and the "pass the keyboard" screen between two people sharing it.

A turn screen is built from a ``SeatView`` alone, so it can show nothing that seat may not
see. Hand-end screens read the referee's ``Game`` because every hand is revealed then.
Every line fits ``width`` columns, and a turn screen fits ``height`` lines with the prompt:
when space runs short, the blank lines go first, then the layout's long line is drawn on one
row with its middle hidden, then the scores and tiles are said more briefly, then the
choices take narrower columns; the oldest news goes last, and never the news of a pass or
draw the rules made for the person.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from rich.text import Text

from bones.engine.game import Game
from bones.engine.layout import Layout, has_spinner
from bones.engine.moves import Pass, Play
from bones.engine.pool import has_pool, paid_each_hand
from bones.engine.rules import OPTION_NAMES, Rules
from bones.engine.scoring import lowest_sides, score_terms, side_counts
from bones.engine.state import called_block, reserve_of
from bones.engine.tiles import Tile
from bones.engine.view import SeatView
from bones.table.seats import Seating, default_kinds, default_names
from bones.tui.faces import (
    QUIET,
    flow,
    hand_lines,
    hidden,
    layout_lines,
    plays_lines,
    tile_face,
    wrapped,
)
from bones.tui.narrate import describe, since_last_turn, turns, why_forced

BLANK = Text("")

#: What may be typed at the move prompt, and what it does.
HELP_ITEMS = (
    ("1, 2, ...", "play that choice from the numbered list (#11 is always one)"),
    ("6-5 or 65", "play that tile; when it fits two arms, add the arm: 6-5 l, 6-5 left, "
                  "65r, 6-5 up, 6-5 down; halves above 9: 12-11 (a number that is both, "
                  "like 11, is asked about, not guessed)"),
    ("Enter", "with only one play open, plays it"),
    ("hint", "what the expert bot would play here, and why"),
    ("undo", "take back your last play and the replies to it (one person against bones "
             "bots; not past a tile you drew)"),
    ("sort", "sort your hand: by suit, by pips, as dealt (in turn)"),
    ("line", "the whole layout, every tile, however long"),
    ("help", "this text"),
    ("quit", "leave the game (asks first; Ctrl-C works too)"),
)
HELP_NOTES = (
    "You never pass or draw by choice: when you cannot play, the game draws for you (Draw "
    "rules) or passes for you, and says so. Match a half of your tile to the number an arm "
    "shows; the first to play every tile goes out and wins the hand.",
    "After a hand, type r at the prompt to review your costliest plays.",
)


def help_lines(width: int) -> list[Text]:
    """``help`` at the move prompt, wrapped to ``width`` under each command's column."""
    lines = [Text("How to move:", "bold")]
    for key, text in HELP_ITEMS:
        lines += wrapped(Text(f"  {key:<15}{text}"), width, indent=17)
    for note in HELP_NOTES:
        lines += wrapped(Text(note), width, indent=0)
    return lines


#: The help as it reads at 80 columns.
HELP = tuple(line.plain for line in help_lines(80))


def _tiles(n: int) -> str:
    return f"{n} tile{'' if n == 1 else 's'}"


def _plural(subject: str) -> bool:
    """Whether a subject takes the plural verb: "You" and partners ("Ana & Caro")."""
    return subject == "You" or " & " in subject


def _verb(subject: str, singular: str, plural: str) -> str:
    return f"{subject} {plural if _plural(subject) else singular}"


def rules_label(rules: Rules) -> str:
    """The rules in a few words: the preset and the options changed from it."""
    form = rules.to_json()
    if isinstance(form, str):
        return form
    name = form.pop("preset", None)
    if name is None:
        return f"custom rules, double-{rules.set}, {rules.players} players"
    changed = ", ".join(f"{key.replace('_', '-')} {str(value).lower()}"
                        for key, value in form.items())
    return f"{name} with {changed}"


def header(rules: Rules, hand: int, width: int, whole: bool = False) -> list[Text]:
    """``bones: pool with players 4  hand 2``: the rules in few words, wrapped at word
    breaks (``whole``) or cut short after a whole word. The seed is not shown while the
    game lasts: it deals every hand, so it would tell all the tiles."""
    right = Text(f"  hand {hand}", QUIET)
    label = rules_label(rules)
    line = Text.assemble(("bones: ", "bold"), label, right)
    if line.cell_len <= width:
        return [line]
    if whole:
        return wrapped(line, width, indent=7)
    room = width - right.cell_len - len("bones: ") - len(" ...")
    words = label.split(" ")
    kept = ""
    for word in words:
        if len(kept) + len(word) + (1 if kept else 0) > room:
            break
        kept += (" " if kept else "") + word
    return [Text.assemble(("bones: ", "bold"), (kept + " ..." if kept else "...")[:max(
        0, width - right.cell_len - 7)], right)]


def _listed(items: Sequence[Text]) -> list[Text]:
    """Items of a list, each but the last followed by a comma: ``You: 0,``."""
    return [item + Text(",") if i < len(items) - 1 else item for i, item in enumerate(items)]


def scores_lines(rules: Rules, seating: Seating, scores: Sequence[int], width: int,
                 mine: int | None = None, brief: bool = False) -> list[Text]:
    """Each side's game total and the target, ``Scores: You: 0, Greedy: 12 (target 100)``;
    the reader's own side in bold. ``brief`` says the target in fewer words."""
    items = _listed([Text(f"{seating.side_name(rules, side)}: {score}",
                          "bold" if side == mine else "")
                     for side, score in enumerate(scores)])
    items.append(Text(f"({'to' if brief else 'target'} {rules.target_points})", QUIET))
    return flow(items, width, indent=8, gap=1, first=Text("Scores: ", "bold"))


def _boneyard(rules: Rules, left: int, brief: bool = False) -> str:
    if brief:
        return f"boneyard {left}"
    kept = reserve_of(rules)
    if kept is None:
        return f"boneyard {left} (Block: not drawn)"
    if kept:
        return f"boneyard {left} ({kept} never drawn)"
    return f"boneyard {left}"


def _pool_when(rules: Rules) -> str:
    """When the pool is paid, if not to each hand's winner."""
    return "" if paid_each_hand(rules) else " (for the game's winner)"


def tiles_lines(view: SeatView, seating: Seating, width: int,
                brief: bool = False) -> list[Text]:
    """How many tiles every other seat holds (never which), and the boneyard's size:
    ``Tiles:  Greedy 2: 4 tiles, Greedy 3: 5 tiles; boneyard 8``."""
    rules = view.rules
    items = []
    for seat, held in enumerate(view.held):
        if seat == view.seat:
            continue
        partner = rules.side_of(seat) == rules.side_of(view.seat)  # not itself: its partner
        count = str(held) if brief else _tiles(held)
        items.append(Text(f"{seating.names[seat]}{' (partner)' if partner else ''}: {count}"))
    items = _listed(items)
    if items:
        items[-1].append(";")
    items.append(Text(_boneyard(rules, view.boneyard_left, brief), QUIET))
    return flow(items, width, indent=8, gap=1, first=Text("Tiles:  ", "bold"))


def pool_lines(rules: Rules, seating: Seating, pool: int, chips: Sequence[int],
               width: int, brief: bool = False) -> list[Text]:
    """The chips in the pool and each seat's chips won minus paid so far (only with an ante)."""
    if not has_pool(rules):
        return []
    items = [Text(f"pool {pool};" if brief else f"{pool} in the pool{_pool_when(rules)};")]
    items += _listed([Text(f"{seating.names[s]}: {c:+d}") for s, c in enumerate(chips)])
    return flow(items, width, indent=8, gap=1, first=Text("Chips:  ", "bold"))


#: One piece of news, as the lines it is wrapped to, and whether it must stay on the screen
#: (the latest pass or draw the rules made for the person, which nothing else tells them).
News = tuple[list[Text], bool]


def _clip(news: list[News], room: int) -> list[Text]:
    """At most ``room`` lines of news, each piece whole: the one that must stay, then the
    newest: with room to spare a note that older ones were left out takes a line; with
    none, nothing (the layout shows where every tile went, and the screen must leave the
    person's hand and choices in sight)."""
    total = sum(len(lines) for lines, _ in news)
    if total <= room:
        return [line for lines, _ in news for line in lines]
    kept = {i for i, (_, must) in enumerate(news) if must}
    used = sum(len(news[i][0]) for i in kept)
    room -= 1  # the note
    for i in range(len(news) - 1, -1, -1):
        if i not in kept and used + len(news[i][0]) <= room:
            kept.add(i)
            used += len(news[i][0])
        elif i not in kept:
            break
    shown = [line for i, (lines, _) in enumerate(news) if i in kept for line in lines]
    if used > room:  # what must stay leaves no room for the note: as much of it as fits
        return shown[:max(0, room + 1)]
    return [Text("(earlier turns not shown)", QUIET)] + shown if shown else []


def news_lines(view: SeatView, seating: Seating, hand: int, width: int) -> list[News]:
    """What happened since this seat last played, oldest first; a pass or draw the rules
    made for it says why, and must stay on the screen."""
    recent, fresh = since_last_turn(view.moves, view.seat)
    lines: list[News] = []
    if fresh:
        leader = "You lead" if view.leader == view.seat else \
            f"{seating.names[view.leader]} leads"
        must = f" and must set {view.opening}" if view.opening is not None else ""
        lines.append((wrapped(Text(f"Hand {hand} is dealt: {leader}{must}."), width), False))
    done = len(view.moves) - sum(len(t.draws) + (t.end is not None) for t in recent)
    rules = view.rules
    latest = max((i for i, t in enumerate(recent) if t.seat == view.seat
                  and (isinstance(t.end, Pass) or t.end is None)), default=None)
    for number, turn in enumerate(recent):
        said = describe(turn, seating.names, view.seat)
        mine_now = turn.seat == view.seat and turn.end is None
        forced = number == latest
        if turn.seat == view.seat and (isinstance(turn.end, Pass) or mine_now):
            why = why_forced(turn, view.moves[:done], has_spinner(rules),
                             reserve_of(rules) is not None)
            said += f"; {why}" if mine_now else f": {why}"
        lines.append((wrapped(Text(said, "bold" if forced or mine_now else ""), width),
                      forced))
        done += len(turn.draws) + (turn.end is not None)
    return lines


def _layout_title(layout: Layout, width: int, hidden_tiles: int = 0) -> Text:
    """``Layout (12 tiles)``, and where the layout is drawn with tiles hidden, how to see
    them (the ``line`` command), in as many words as fit."""
    placed = len(layout.placed)
    tiles = f"{placed} tile{'' if placed == 1 else 's'}"
    if not placed:
        return Text("Layout", "bold")
    if not hidden_tiles:
        return Text(f"Layout ({tiles})", "bold")
    for title, note in ((f"Layout ({tiles})", f"  {hidden_tiles} not shown: type line to see "
                         "them all"),
                        (f"Layout ({tiles};", f" {hidden_tiles} hidden: type line)"),
                        (f"Layout ({placed};", " line: all)")):
        if len(title) + len(note) <= width:
            break
    return Text.assemble((title, "bold"), (note, QUIET))


ORDERS = ("dealt", "suit", "pips")
ORDER_WORDS = {"dealt": "as dealt", "suit": "by suit", "pips": "by pips"}


def sorted_hand(hand: Sequence[Tile], order: str) -> list[Tile]:
    """A hand as the person asked to see it: as dealt (and drawn); by suit, the tiles of
    the highest number first, each run from its double down; or by pips, heaviest first."""
    if order == "suit":
        return sorted(hand, key=lambda t: (-t.high, -t.low))
    if order == "pips":
        return sorted(hand, key=lambda t: (-t.pips, -t.high))
    return list(hand)


def choices(view: SeatView, order: str = "dealt") -> list[Play]:
    """The numbered list of plays: the legal plays in the order of the hand as shown, each
    once. On a lone tile whose arms show the same number (a double), a tile played on
    either arm leads to the same position, so it is listed once (on the first arm)."""
    plays = list(view.legal)
    layout = view.layout
    if len(layout.placed) == 1 and layout.shows("left") == layout.shows("right"):
        seen: set[Tile] = set()
        kept = []
        for play in plays:
            if play.end in ("left", "right"):
                if play.tile in seen:
                    continue
                seen.add(play.tile)
            kept.append(play)
        plays = kept
    if order != "dealt":
        place = {t: i for i, t in enumerate(sorted_hand(view.hand, order))}
        plays.sort(key=lambda p: place.get(p.tile, -1))  # stable: each tile's arms in order
    return plays


def turn_screen(view: SeatView, seating: Seating, hand: int, width: int,
                height: int, reserve: int = 1, order: str = "dealt") -> list[Text]:
    """The screen of a person who must play: everything they may see, and their choices,
    the hand shown in ``order`` (``ORDERS``).

    It leaves ``reserve`` lines free for the prompt below it (two at 40 columns). What gives
    way when the screen is short, in turn: the blank lines between the parts, the layout's
    rows (its long line on one row, its middle hidden), the long forms of the scores and
    tiles, the wide columns of choices; last, the oldest news.
    """
    seat = view.seat
    plays = choices(view, order)
    held = sorted_hand(view.hand, order)
    news = news_lines(view, seating, hand, width)
    room = height - reserve
    for blanks, whole, brief, short in ((True, True, False, False),
                                        (False, True, False, False),
                                        (False, False, False, False),
                                        (False, False, True, False),
                                        (False, False, True, True)):
        top = _top(view, seating, hand, width, brief)
        board = [_layout_title(view.layout, width,
                               0 if whole else hidden(view.layout, width))]
        board += layout_lines(view.layout, width, whole)
        mine = _mine(view, seating.names[seat], width, short, held, plays, order)
        spacing = (3 if news else 2) if blanks else 0
        if len(top) + len(board) + sum(len(n[0]) for n in news) + len(mine) + spacing \
                <= room:
            break
    blank = [BLANK] if blanks else []
    shown = _clip(news, room - len(top) - len(board) - len(mine))
    return top + blank + board + blank + shown + (blank if shown else []) + mine


def _top(view: SeatView, seating: Seating, hand: int, width: int, brief: bool) -> list[Text]:
    """The header, the scores, the tiles each seat holds and the chips."""
    rules = view.rules
    top = header(rules, hand, width, whole=not brief)
    top += scores_lines(rules, seating, view.scores, width, rules.side_of(view.seat), brief)
    top += tiles_lines(view, seating, width, brief)
    top += pool_lines(rules, seating, view.pool, view.chips, width, brief)
    return top


def _mine(view: SeatView, name: str, width: int, short: bool, held: Sequence[Tile],
          plays: Sequence[Play], order: str) -> list[Text]:
    """The person's hand and numbered choices. When any tile of the hand may lead, the
    numbered list is the hand itself, in the order shown (the same tiles twice would take
    twice the room: with 41 tiles of double-twelve, more than an 80x24 screen)."""
    count = sum(t.pips for t in view.hand)
    sort = [Text(ORDER_WORDS[order] + ",")] if order != "dealt" else []
    about = [Text.assemble(("Your hand", "bold"), f" ({name}):"),
             Text(f"{_tiles(len(view.hand))},"), *sort, Text(f"count {count};")]
    if _leads_any(plays, held):
        lines = flow([*about, Text("you lead: choose any tile")], width, gap=1, first=Text())
        return lines + plays_lines(plays, width, short=True)
    lines = flow([*about, Text("* playable")], width, gap=1, first=Text())
    lines += hand_lines(held, (p.tile for p in plays), width)
    return lines + plays_lines(plays, width, short)


def _leads_any(plays: Sequence[Play], held: Sequence[Tile]) -> bool:
    """Whether the choices are every tile of the hand as the first tile, in hand order."""
    return len(plays) > 1 and all(p.end is None for p in plays) \
        and tuple(p.tile for p in plays) == tuple(held)


def waiting_screen(name: str) -> list[Text]:
    """What the screen shows after a person's move at a shared keyboard: nobody's tiles."""
    return [Text(f"{name} has played. The others play on.", "bold")]


def pass_screen(name: str) -> list[Text]:
    """What the screen shows while the keyboard changes hands: nobody's tiles."""
    return [Text(f"Pass the keyboard to {name}.", "bold"),
            Text("Their hand is shown once they press Enter.")]


def _hand_title(game: Game, seating: Seating, you: int | None) -> str:
    state, number = game.hands[-1], len(game.hands)
    if state.end == "out":
        seat = state.moves[-1].seat
        who = "You" if seat == you else seating.names[seat]
        return f"Hand {number} is over: {_verb(who, 'is', 'are')} out. Domino!"
    if called_block(state):
        return f"Hand {number} is blocked: every tile that fits is on the layout."
    return f"Hand {number} is blocked: nobody can play."


def _result_line(game: Game, seating: Seating) -> str:
    rules, result = game.rules, game.results[-1]
    sides = side_counts(rules, result.counts)
    if result.winner is None:
        lowest = lowest_sides(sides)
        tied = " and ".join(seating.side_name(rules, s) for s in lowest)
        return f"Tied for the lowest count ({tied}, {sides[lowest[0]]}): nobody scores."
    side = seating.side_name(rules, result.winner)
    added, taken = score_terms(rules, sides, result.winner)
    sums = " + ".join(str(c) for c in added) + "".join(f" - {c}" for c in taken)
    points = result.points[result.winner]
    how = f" ({sums})" if len(added) + len(taken) > 1 else ""
    if sum(added) < sum(taken):
        how = f" ({sums} is below 0)"
    scores = "score" if _plural(side) else "scores"
    return f"{_verb(side, 'wins', 'win')} the hand and {scores} {points}{how}."


def hand_end_screen(game: Game, seating: Seating, width: int, you: int | None,
                    height: int | None = None, reserve: int = 1) -> list[Text]:
    """The end of a hand: how it ended, the last turns, every hand revealed with its count,
    the points, the chips and the game score. Within ``height`` lines when given, less
    ``reserve`` kept for what is printed below it (the prompt): the last turns give way
    first, then the layout's rows (its long line on one row), then the layout, so the
    title, the hands and the points stay in sight."""
    rules, state = game.rules, game.hands[-1]
    top = [*header(rules, len(game.hands), width),
           *wrapped(Text(_hand_title(game, seating, you), "bold"), width)]
    last: list[Text] = []
    for t in turns(state.moves)[-3:]:
        last += wrapped(Text("  " + describe(t, seating.names, you)), width, indent=4)
    board = [_layout_title(state.layout, width), *layout_lines(state.layout, width)]
    rest = _hand_end_rest(game, seating, width)
    room = height - reserve if height is not None else None
    if room is not None and len(top) + len(last) + len(board) + len(rest) > room:
        last = []
    if room is not None and len(top) + len(board) + len(rest) > room:
        board = [_layout_title(state.layout, width, hidden(state.layout, width)),
                 *layout_lines(state.layout, width, whole=False)]
    if room is not None and len(top) + len(board) + len(rest) > room:
        board = []
    lines = top + last + board + rest
    for line in lines:
        line.truncate(width)
    return lines


def _hand_end_rest(game: Game, seating: Seating, width: int) -> list[Text]:
    """The hand-end screen from the hands revealed on: what always stays on it."""
    rules, state, result = game.rules, game.hands[-1], game.results[-1]
    lines = [Text("Hands revealed:", "bold")]
    name_width = max(len(n) for n in seating.names)
    for seat, hand in enumerate(state.hands):
        first = Text(f"  {seating.names[seat]:<{name_width}}  count {result.counts[seat]:>3}  ")
        faces = [Text(tile_face(t)) for t in hand] or [Text("out", QUIET)]
        lines += flow(faces, width, indent=len(first.plain), gap=0, first=first)
    lines += wrapped(Text(_result_line(game, seating), "bold"), width)
    if has_pool(rules):
        label = Text("Chips this hand: ", "bold")
        items = _listed([Text(f"{seating.names[s]}: {c:+d}") for s, c in enumerate(result.pool)])
        items.append(Text(f"(pool now {game.pool})", QUIET))
        lines += flow(items, width, indent=len(label.plain), gap=1, first=label)
    lines += scores_lines(rules, seating, game.scores, width)
    return lines


def game_end_screen(game: Game, seating: Seating, seed: int | None,
                    width: int, undone: int = 0) -> list[Text]:
    """Final scores, the winner, the chips, whether plays were taken back (a practice game),
    and the seed that deals this game again (if one does: a game resumed without its seed
    had its first hands dealt by another); the command that plays it is printed after."""
    rules = game.rules
    hands = len(game.results)
    lines = [Text(f"Game over after {hands} hand{'' if hands == 1 else 's'}.", "bold")]
    if game.winner is not None:
        side = seating.side_name(rules, game.winner)
        lines += wrapped(Text(f"{_verb(side, 'wins', 'win')} the game with "
                              f"{game.scores[game.winner]} points (target "
                              f"{rules.target_points}).", "bold"), width)
    label = Text("Final scores: ", "bold")
    items = _listed([Text(f"{seating.side_name(rules, s)}: {v}")
                     for s, v in enumerate(game.scores)])
    lines += flow(items, width, indent=len(label.plain), gap=1, first=label)
    if has_pool(rules):
        chips = _listed([Text(f"{seating.names[s]}: {c:+d}") for s, c in enumerate(game.chips)])
        if game.pool:
            chips.append(Text(f"({game.pool} stay in the pool)", QUIET))
        lines += flow(chips, width, indent=len(label.plain), gap=1,
                      first=Text("Chips:".ljust(len(label.plain)), "bold"))
    if undone:
        lines += wrapped(Text(f"Practice game: {undone} play{'' if undone == 1 else 's'} "
                              "taken back with undo.", QUIET), width)
    for line in lines:
        line.truncate(width)
    if seed is None:
        return lines
    return lines + wrapped(Text(f"Seed {seed} deals this game again, with the same options:",
                                QUIET), width)


def play_command(rules: Rules, seating: Seating, seed: int, think: float = 0.5) -> str:
    """The ``bones play`` command line that deals this game again: the rules as a preset
    and the options changed from it, the seats and names where not the defaults, the
    thinking time where changed, and the seed."""
    return " ".join(play_words(rules, seating, seed, think))


def command_lines(words: Sequence[str], width: int) -> list[str]:
    """A command line to copy, broken between words where it is wider than ``width``,
    each break a shell continuation (`` \\``), so pasted whole it runs as one line."""
    units: list[str] = []  # a flag stays with its value
    for word in words:
        if units and units[-1].startswith("--") and " " not in units[-1] \
                and not word.startswith("-"):
            units[-1] += " " + word
        else:
            units.append(word)
    lines: list[str] = []
    line = "  "
    for unit in units:
        if line.strip() and len(line) + 1 + len(unit) + 2 > width:
            lines.append(line + " \\")
            line = "    "
        line += ("" if not line.strip() else " ") + unit
    return lines + [line]


def play_words(rules: Rules, seating: Seating, seed: int, think: float = 0.5) -> list[str]:
    """``play_command`` as its words, each quoted for the shell."""
    form = rules.to_json()
    if isinstance(form, str):
        preset, changed = form, {}
    elif "preset" in form:
        preset = str(form.pop("preset"))
        changed = form
    else:  # rules from a file: every option that differs from the default preset's
        base = Rules().options()
        preset = "block"
        changed = {k: v for k, v in form.items() if base.get(k) != v}
    words = ["bones", "play", "--rules", preset]
    for name in OPTION_NAMES:
        if name not in changed:
            continue
        flag = "--" + name.replace("_", "-")
        value = changed[name]
        if isinstance(value, bool):
            words.append(flag if value else "--no-" + flag[2:])
        else:
            words += [flag, str(value)]
    if seating.kinds != default_kinds(rules.players):
        words += ["--seats", ",".join(seating.kinds)]
    if seating.names != default_names(seating.kinds):
        words += ["--names", ",".join(seating.names)]
    if think != 0.5:
        words += ["--think", f"{think:g}"]
    words += ["--seed", str(seed)]
    return [shlex.quote(word) for word in words]
