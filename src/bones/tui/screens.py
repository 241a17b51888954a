"""Whole screens as lists of ``Text`` lines: a seat's turn, the end of a hand, the end of the
game, and the "pass the keyboard" screen between two people sharing it.

A turn screen is built from a ``SeatView`` alone, so it can show nothing that seat may not
see. Hand-end screens read the referee's ``Game`` because every hand is revealed then.
Every line fits ``width`` columns, and a turn screen fits ``height`` lines with the prompt:
when space runs short, the oldest news is dropped first.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from bones.engine.game import Game
from bones.engine.layout import Layout
from bones.engine.pool import has_pool, paid_each_hand
from bones.engine.rules import Rules
from bones.engine.scoring import lowest_sides, score_terms, side_counts
from bones.engine.state import called_block, reserve_of
from bones.engine.view import SeatView
from bones.table.seats import Seating
from bones.tui.faces import (
    QUIET,
    flow,
    hand_lines,
    layout_lines,
    plays_lines,
    tile_face,
    wrapped,
)
from bones.tui.narrate import describe, since_last_turn, turns

BLANK = Text("")

HELP = (
    "How to move:",
    "  1, 2, ...      play that choice from the numbered list (#11 is always one)",
    "  6-5 or 65      play that tile; when it fits two arms, add the arm:",
    "                 6-5 l, 6-5 left, 65r, 6-5 up, 6-5 down; halves above 9: 12-11",
    "                 (a number that is both, like 11, is asked about, not guessed)",
    "  hint           what the expert bot would play here, and why",
    "  undo           take back your last play and the replies to it (one person",
    "                 against bones bots; not past a tile you drew)",
    "  help           this text",
    "  quit           leave the game (asks first; Ctrl-C works too)",
    "You never pass or draw by choice: when you cannot play, the game draws for you",
    "(Draw rules) or passes for you, and says so. Match a half of your tile to the",
    "number an arm shows; the first to play every tile goes out and wins the hand.",
    "After a hand, type r at the prompt to review your costliest plays.",
)


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


def header(rules: Rules, hand: int, width: int) -> Text:
    """``bones: pool with players 4  hand 2``, the rules cut short if need be. The seed is
    not shown while the game lasts: it deals every hand, so it would tell all the tiles."""
    right = f"  hand {hand}"
    label = rules_label(rules)
    room = width - len(right) - len("bones: ")
    if len(label) > room:
        label = label[:max(0, room - 3)] + "..."
    return Text.assemble(("bones: ", "bold"), label, (right, QUIET))


def scores_lines(rules: Rules, seating: Seating, scores: Sequence[int], width: int,
                 mine: int | None = None) -> list[Text]:
    """Each side's game total and the target; the reader's own side in bold."""
    items = [Text(f"{seating.side_name(rules, side)} {score}",
                  "bold" if side == mine else "")
             for side, score in enumerate(scores)]
    items.append(Text(f"(target {rules.target_points})", QUIET))
    return flow(items, width, indent=8, first=Text("Scores: ", "bold"))


def _boneyard(rules: Rules, left: int) -> str:
    kept = reserve_of(rules)
    if kept is None:
        return f"boneyard {left} (Block: not drawn)"
    if kept:
        return f"boneyard {left} ({kept} never drawn)"
    return f"boneyard {left}"


def tiles_lines(view: SeatView, seating: Seating, width: int) -> list[Text]:
    """How many tiles every other seat holds (never which), and the boneyard's size."""
    rules = view.rules
    items = []
    for seat, held in enumerate(view.held):
        if seat == view.seat:
            continue
        partner = rules.side_of(seat) == rules.side_of(view.seat)  # not itself: its partner
        items.append(Text(f"{seating.names[seat]}{' (partner)' if partner else ''} {held}"))
    items.append(Text(_boneyard(rules, view.boneyard_left), QUIET))
    return flow(items, width, indent=8, first=Text("Tiles:  ", "bold"))


def pool_lines(rules: Rules, seating: Seating, pool: int, chips: Sequence[int],
               width: int) -> list[Text]:
    """The chips in the pool and each seat's chips won minus paid so far (only with an ante)."""
    if not has_pool(rules):
        return []
    when = "" if paid_each_hand(rules) else " (for the game's winner)"
    items = [Text(f"{pool} in the pool{when};")]
    items += [Text(f"{seating.names[s]} {c:+d}") for s, c in enumerate(chips)]
    return flow(items, width, indent=8, first=Text("Chips:  ", "bold"))


def _clip(lines: list[Text], room: int) -> list[Text]:
    """At most ``room`` lines, the newest: with room for two or more, a note that older
    ones were left out takes one of them; with none, nothing (the layout shows where every
    tile went, and the screen must leave the person's hand and choices in sight)."""
    if len(lines) <= room:
        return lines
    if room < 2:
        return lines[len(lines) - max(0, room):]
    return [Text("(earlier turns not shown)", QUIET)] + lines[-(room - 1):]


def news_lines(view: SeatView, seating: Seating, hand: int, width: int) -> list[Text]:
    """What happened since this seat last played, oldest first."""
    recent, fresh = since_last_turn(view.moves, view.seat)
    lines = []
    if fresh:
        leader = "You lead" if view.leader == view.seat else \
            f"{seating.names[view.leader]} leads"
        must = f" and must set {view.opening}" if view.opening is not None else ""
        lines += wrapped(Text(f"Hand {hand} is dealt: {leader}{must}."), width)
    for turn in recent:
        mine_now = turn.seat == view.seat and turn.end is None
        lines += wrapped(Text(describe(turn, seating.names, view.seat),
                              "bold" if mine_now else ""), width)
    return lines


def _layout_title(layout: Layout) -> Text:
    placed = len(layout.placed)
    return Text(f"Layout ({placed} tile{'' if placed == 1 else 's'})" if placed else "Layout",
                "bold")


def turn_screen(view: SeatView, seating: Seating, hand: int, width: int,
                height: int, reserve: int = 1) -> list[Text]:
    """The screen of a person who must play: everything they may see, and their choices.

    It leaves ``reserve`` lines free for the prompt below it (two at 40 columns). The news
    of the turns since the person's last is what gives way when the rest needs the room,
    then the blank lines between the parts.
    """
    rules, seat = view.rules, view.seat
    top = [header(rules, hand, width)]
    top += scores_lines(rules, seating, view.scores, width, rules.side_of(seat))
    top += tiles_lines(view, seating, width)
    top += pool_lines(rules, seating, view.pool, view.chips, width)
    board = [_layout_title(view.layout)]
    board += layout_lines(view.layout, width)
    for short in (False, True):  # a big hand: narrower columns before anything scrolls off
        mine = _mine(view, seating.names[seat], width, short)
        room = height - reserve - len(top) - len(board) - len(mine) - 3
        if room >= 0:
            break
    news = _clip(news_lines(view, seating, hand, width), room)
    blank = [BLANK] if room >= 0 else []  # no room for the news: none for spacing either
    return top + blank + board + blank + news + (blank if news else []) + mine


def _mine(view: SeatView, name: str, width: int, short: bool) -> list[Text]:
    """The person's hand and numbered choices. When any tile of the hand may lead, the
    numbered list is the hand itself, in the order it is held (the same tiles twice would
    take twice the room: with 41 tiles of double-twelve, more than an 80x24 screen)."""
    count = sum(t.pips for t in view.hand)
    about = f" ({name}): {_tiles(len(view.hand))}, count {count};"
    if _leads_any(view):
        lines = wrapped(Text.assemble(("Your hand", "bold"), about,
                                      " you lead: choose any tile"), width)
        return lines + plays_lines(view.legal, width, short=True)
    lines = wrapped(Text.assemble(("Your hand", "bold"), about, "  * playable"), width)
    lines += hand_lines(view.hand, (p.tile for p in view.legal), width)
    return lines + plays_lines(view.legal, width, short)


def _leads_any(view: SeatView) -> bool:
    """Whether the choices are every tile of the hand as the first tile, in hand order."""
    return len(view.legal) > 1 and all(p.end is None for p in view.legal) \
        and tuple(p.tile for p in view.legal) == tuple(view.hand)


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
    first, then the layout, so the title, the hands and the points stay in sight."""
    rules, state = game.rules, game.hands[-1]
    top = [header(rules, len(game.hands), width),
           *wrapped(Text(_hand_title(game, seating, you), "bold"), width)]
    last: list[Text] = []
    for t in turns(state.moves)[-3:]:
        last += wrapped(Text("  " + describe(t, seating.names, you)), width, indent=4)
    board = [_layout_title(state.layout), *layout_lines(state.layout, width)]
    rest = _hand_end_rest(game, seating, width)
    if height is not None and len(top) + len(last) + len(board) + len(rest) > height - reserve:
        last = []
    if height is not None and len(top) + len(board) + len(rest) > height - reserve:
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
        items = [Text(f"{seating.names[s]} {c:+d}") for s, c in enumerate(result.pool)]
        items.append(Text(f"(pool now {game.pool})", QUIET))
        lines += flow(items, width, indent=8, first=Text("Chips this hand: ", "bold"))
    lines += scores_lines(rules, seating, game.scores, width)
    return lines


def game_end_screen(game: Game, seating: Seating, seed: int | None,
                    width: int) -> list[Text]:
    """Final scores, the winner, the chips, and the seed that deals this game again (if
    one does: a game resumed without its seed had its first hands dealt by another)."""
    rules = game.rules
    hands = len(game.results)
    lines = [Text(f"Game over after {hands} hand{'' if hands == 1 else 's'}.", "bold")]
    if game.winner is not None:
        side = seating.side_name(rules, game.winner)
        lines += wrapped(Text(f"{_verb(side, 'wins', 'win')} the game with "
                              f"{game.scores[game.winner]} points (target "
                              f"{rules.target_points}).", "bold"), width)
    items = [Text(f"{seating.side_name(rules, s)} {v}") for s, v in enumerate(game.scores)]
    lines += flow(items, width, indent=14, first=Text("Final scores: ", "bold"))
    if has_pool(rules):
        chips = [Text(f"{seating.names[s]} {c:+d}") for s, c in enumerate(game.chips)]
        if game.pool:
            chips.append(Text(f"({game.pool} stay in the pool)", QUIET))
        lines += flow(chips, width, indent=14, first=Text("Chips:        ", "bold"))
    for line in lines:
        line.truncate(width)
    if seed is None:
        return lines
    return lines + wrapped(Text(f"Seed {seed}: the same seed and options deal this game "
                                "again.", QUIET), width)
