"""``bones play`` driven as a person would drive it: in an 80x24 pseudo-terminal, reading the
screen and typing answers, through whole games of every preset.

The answers are chosen from what the screen shows (the first listed play, a tile the hand
does not hold, a tile that fits two arms), never from a script written for a known deal, so a
change in the engine, the bots or the screens makes these tests see something different.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pexpect
import pytest
from rich.cells import cell_len

from bones.engine.moves import Play
from bones.engine.rules import PRESETS
from bones.engine.tiles import full_set
from bones.record.reader import read_file

ROWS, COLUMNS = 24, 80
BONES = [sys.executable, "-m", "bones.cli.main"]

MOVE = r"Your move \([^)]*\): "
ARM = r"Which arm\? \[[a-z/]+\] "
NEXT_HAND = r"Press Enter for (?:the next hand|the result of the game) "
KEYBOARD = r", press Enter "
FINAL = r"Final scores: [^\r\n]*"
PROMPTS = [MOVE, ARM, NEXT_HAND, KEYBOARD, FINAL, pexpect.EOF]

#: Every escape sequence the program or Rich may write (CSI, with private ``?`` modes).
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
#: What the program writes to start a fresh screen.
CLEAR = "\x1b[H\x1b[2J"
FACE = re.compile(r"\[(\d+)\|(\d+)\]")


def spawn(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
          size: tuple[int, int] = (ROWS, COLUMNS), shell: str = "") -> pexpect.spawn:
    """``bones play ARGS`` in a fresh pseudo-terminal of ``size`` (rows, columns): 80x24;
    ``shell`` runs first in a shell that then becomes the program (``ulimit -f 4``)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    environ.update(TERM="xterm", NO_COLOR="1", **(env or {}))
    command = [*BONES, "play", *args]
    if shell:
        command = ["bash", "-c", f'{shell}; exec "$0" "$@"', *command]
    child = pexpect.spawn(command[0], command[1:], dimensions=size,
                          encoding="utf-8", env=environ, timeout=20, cwd=cwd)
    child.logfile_read = io.StringIO()
    child.delaybeforesend = None  # a person types slower, but the program does not care
    return child


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n")


def transcript(child: pexpect.spawn) -> str:
    log = child.logfile_read
    assert isinstance(log, io.StringIO)
    return log.getvalue()


@dataclass
class Game:
    """What a played-through game showed."""

    turns: int = 0
    arm_questions: int = 0
    hands: int = 0
    final: str = ""
    screens: list[str] = field(default_factory=list)
    text: str = ""
    status: int | None = None


def current_screen(child: pexpect.spawn) -> str:
    """The screen on display: everything written since the last clear."""
    return plain(transcript(child).rsplit(CLEAR, 1)[-1])


def legal_plays(screen: str) -> list[tuple[str, str]]:
    """The numbered plays listed on a turn screen, as (tile, arm): a list of bare tiles
    is the hand when any tile may lead, and ``l`` is a crowded screen's ``left``."""
    arms = {"l": "left", "r": "right", "u": "up", "d": "down", "": "lead"}
    return [(f"{a}-{b}", arms.get(arm, arm)) for a, b, arm in
            re.findall(r"\d+\) \[(\d+)\|(\d+)\] ?([a-z]*)", screen)]


def answer_first(screen: str) -> str:
    return "1"


def answer_by_tile(screen: str) -> str:
    """Name a tile rather than its number; leave the arm out when the tile fits two, so the
    program has to ask which."""
    plays = legal_plays(screen)
    tile, arm = plays[0]
    if sum(t == tile for t, _ in plays) > 1:
        return tile
    return tile.replace("-", "") + ("" if arm == "lead" else arm[0])


def play_through(child: pexpect.spawn, answer=answer_first, limit: int = 400) -> Game:
    """Answer every prompt until the final scores; the game must end by itself."""
    game = Game()
    for _ in range(limit):
        which = child.expect(PROMPTS)
        if which == 0:
            game.turns += 1
            screen = current_screen(child)
            game.screens.append(screen)
            child.sendline(answer(screen))
        elif which == 1:
            game.arm_questions += 1
            arms = re.search(r"\[([a-z/]+)\]", child.after)
            assert arms is not None
            child.sendline(arms[1].split("/")[-1])
        elif which in (2, 3):
            game.hands += which == 2
            child.sendline("")
        elif which == 4:
            game.final = plain(child.after)
            child.expect(pexpect.EOF)
            break
        else:
            raise AssertionError("the program ended before the final scores:\n"
                                 + plain(transcript(child))[-2000:])
    else:
        raise AssertionError("the game did not end")
    child.close()
    game.status = child.exitstatus
    game.text = plain(transcript(child))
    return game


def final_scores(line: str) -> dict[str, int]:
    """``Final scores: You: 0, Greedy: 19`` as a dict (names may hold spaces, never a
    comma)."""
    items = line.split(":", 1)[1].strip().split(", ")
    return {name: int(score) for name, score in (item.rsplit(": ", 1) for item in items)}


def assert_fits_80_columns(child_text: str) -> None:
    for line in plain(child_text).split("\n"):
        assert cell_len(line) <= COLUMNS, f"{cell_len(line)} columns: {line!r}"


def assert_screens_fit_24_lines(raw: str) -> None:
    for chunk in raw.split(CLEAR)[1:]:
        screen = plain(chunk)
        if "Your move (" in screen:
            before_prompt = screen.split("Your move (", 1)[0]
            assert before_prompt.count("\n") + 1 <= ROWS, before_prompt


# -- a whole game of every preset -----------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_person_plays_a_whole_game_of_every_preset_to_the_final_scores(preset: str) -> None:
    seed = str(list(PRESETS).index(preset) + 11)
    child = spawn("--rules", preset, "--target", "10", "--seed", seed)
    game = play_through(child)
    assert game.status == 0
    assert game.turns > 0 and "Traceback" not in game.text
    scores = final_scores(game.final)
    assert set(scores) == {"You", "Greedy"}
    assert max(scores.values()) >= 10
    winner = max(scores, key=lambda name: scores[name])
    assert f"Seed {seed} deals this game again, with the same options:\n" \
           f"  bones play --rules {preset} --target 10 --seed {seed}\n" in game.text
    assert f"{winner} wins the game with {scores[winner]} points (target 10)" in game.text \
        or f"{winner} win the game with {scores[winner]} points (target 10)" in game.text
    for screen in game.screens:
        assert "Your hand (You)" in screen and "Layout" in screen
        assert "Scores:" in screen
        assert f"seed {seed}" not in screen  # the seed deals every hand: shown at the end only
        assert legal_plays(screen), screen
    if PRESETS[preset].ante:
        assert "Chips:" in game.screens[0] and "in the pool" in game.screens[0]
    assert_fits_80_columns(transcript(child))
    assert_screens_fit_24_lines(transcript(child))


def test_a_tile_that_fits_two_arms_is_asked_about_and_tiles_can_be_typed() -> None:
    child = spawn("--rules", "draw", "--players", "3", "--spinner", "first-double",
                  "--ante", "1", "--target", "10", "--seed", "4")
    game = play_through(child, answer=answer_by_tile)
    assert game.status == 0 and game.turns > 0
    assert game.arm_questions > 0, "no tile fitting two arms came up: choose another seed"
    assert re.search(r"\d-\d fits the \w+ arm \(\d\) and the \w+ arm \(\d\)\.", game.text)
    assert "Unclear:" not in game.text and "Illegal:" not in game.text
    assert_fits_80_columns(transcript(child))


def test_lines_stay_within_80_columns_even_when_the_terminal_claims_more() -> None:
    """Rich wraps at the terminal's width, which would hide a line the game drew too wide;
    telling Rich the terminal is 200 wide shows the lines exactly as the game drew them."""
    child = spawn("--rules", "pool", "--players", "4", "--spinner", "first-double",
                  "--names", "Anastasia-Louise,Bartholomew-Jr,Constantinople,Dorothea-Maria",
                  "--target", "20", "--seed", "8", env={"COLUMNS": "200"})
    game = play_through(child)
    assert game.status == 0
    assert_fits_80_columns(transcript(child))
    assert_screens_fit_24_lines(transcript(child))


def test_the_same_seed_and_answers_replay_the_same_game() -> None:
    args = ("--rules", "draw", "--players", "3", "--seats", "human,random,greedy",
            "--target", "20", "--seed", "31")
    first, again = play_through(spawn(*args)), play_through(spawn(*args))
    assert first.final == again.final and first.screens == again.screens
    other = play_through(spawn(*args[:-1], "32"))
    assert other.screens != first.screens


# -- mistakes and leaving -------------------------------------------------------------------


def test_illegal_input_gets_a_one_line_reason_and_the_same_question_again() -> None:
    child = spawn("--rules", "block", "--seed", "5")
    child.expect(MOVE)
    screen = current_screen(child)
    hand_line = screen.split("Your hand", 1)[1].split("\n")[1]
    held = {f"{a}-{b}" for a, b in FACE.findall(hand_line)}
    assert len(held) == 7
    missing = next(str(t) for t in full_set(6) if str(t) not in held)
    for typed, reason in ((missing, f"Illegal: you do not hold {missing}"),
                          ("pass", "Illegal: you "),
                          ("xyz", 'Unclear: "xyz" is not a move'),
                          ("99", "Unclear: 9-9 is not in the double-6 set")):
        child.sendline(typed)
        child.expect(MOVE)
        between = [line for line in plain(child.before).split("\n") if line.strip()]
        assert between[0].strip() == typed
        assert len(between) == 2, between
        assert between[1].startswith(reason), between
    child.sendline("help")
    child.expect(MOVE)
    assert "6-5 or 65" in plain(child.before)
    child.sendline("quit")
    child.expect(r"Quit this game\? \[y/N\] ")
    child.sendline("n")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(r"Quit this game\? \[y/N\] ")
    child.sendline("y")
    child.expect(r"Save the record\? \[y/N\] ")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in transcript(child)


def test_a_record_replays_to_the_final_scores_shown(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    child = spawn("--rules", "pagat-draw", "--players", "3", "--target", "15", "--seed", "21",
                  "--seats", "human,random,greedy", "--names", "Ana,Ben,Caro",
                  "--record", str(path))
    game = play_through(child)
    # the path is never cut: whole on the line after, where it does not fit beside
    assert game.status == 0 and re.search(rf"Record saved to\s{re.escape(str(path))}\.",
                                          game.text), game.text[-300:]
    record, replayed = read_file(path)
    assert record.players == ("Ana", "Ben", "Caro")
    assert replayed.finished
    shown = final_scores(game.final)
    assert shown == dict(zip(record.players, replayed.scores, strict=True))
    done = subprocess.run([*BONES, "replay", str(path)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "game won by" in done.stdout


def test_ctrl_c_offers_to_save_the_record_and_leaves_without_a_traceback(tmp_path: Path) -> None:
    child = spawn("--rules", "draw", "--seed", "9", cwd=tmp_path)
    child.expect(MOVE)
    child.sendline("1")
    child.expect(MOVE)
    child.sendintr()
    child.expect(r"Save the record\? \[y/N\] ")
    child.sendline("y")
    child.expect(r"Save it where\? \[bones-9\.json\] ")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    text = plain(transcript(child))
    assert "Traceback" not in text and "Record saved to bones-9.json" in text
    record, replayed = read_file(tmp_path / "bones-9.json")
    assert len(record.hands) == 1 and replayed.current is not None  # a hand still in play
    assert record.hands[0].moves[0].seat in (0, 1)


SAVE = r"Save the record\? \[y/N\] "
WHERE = r"Save it where\? "


def _converse(child: pexpect.spawn, *exchanges: tuple[str, str]) -> None:
    """Answer each prompt in turn: (what the program asks, what is typed)."""
    for prompt, answer in exchanges:
        child.expect(prompt)
        child.sendline(answer)


def test_a_save_that_fails_says_why_and_asks_again(tmp_path: Path) -> None:
    child = spawn("--rules", "draw", "--seed", "9", cwd=tmp_path)
    child.expect(MOVE)
    child.sendintr()
    _converse(child, (SAVE, "y"), (WHERE, "no/such/folder/game.json"),
              (SAVE, "y"), (WHERE, "kept.json"))  # asked again, not left
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    text = plain(transcript(child)).replace("\n", " ")
    assert "Cannot write the record to no/such/folder/game.json: No such file" in text
    assert "Record saved to kept.json" in text and "Traceback" not in text
    record, _ = read_file(tmp_path / "kept.json")
    assert len(record.hands) == 1


def test_saving_where_a_file_exists_asks_before_replacing_it(tmp_path: Path) -> None:
    """The default name is the seed's, so playing a seed again would replace that game."""
    (tmp_path / "bones-9.json").write_text("the first game of seed 9")
    child = spawn("--rules", "draw", "--seed", "9", cwd=tmp_path)
    child.expect(MOVE)
    child.sendintr()
    _converse(child, (SAVE, "y"), (WHERE, ""), (r"Replace it\? \[y/N\] ", "n"),
              (SAVE, "y"), (WHERE, "other.json"))
    child.expect(pexpect.EOF)
    child.close()
    assert (tmp_path / "bones-9.json").read_text() == "the first game of seed 9"
    assert read_file(tmp_path / "other.json")[0].hands


def test_a_record_that_cannot_be_saved_after_a_hand_keeps_the_last_one_and_asks_where(
        tmp_path: Path) -> None:
    """A file-size limit stops the save after a hand: the file keeps the last record
    saved, whole, and the player is asked whether to keep the
    game elsewhere."""
    path = tmp_path / "game.json"
    child = spawn("--seed", "3", "--record", str(path), cwd=tmp_path, shell="ulimit -f 2")
    before = ""
    while True:
        index = child.expect([MOVE, r"Press Enter", SAVE])
        if index == 2:
            break
        before = path.read_text()  # the last record saved before the one that failed
        child.sendline("1" if index == 0 else "")
    assert "Cannot write the record to" in plain(child.before)
    child.sendline("n")  # the limit holds for every file: nowhere else to keep it here
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert path.read_text() == before and not list(tmp_path.glob("*.tmp"))
    assert read_file(path)[0].players


def test_ctrl_c_twice_leaves_without_saving() -> None:
    child = spawn("--seed", "2")
    child.expect(MOVE)
    child.sendintr()
    child.expect(r"Save the record\? \[y/N\] ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in transcript(child)


def test_a_record_file_that_exists_is_replaced_only_when_the_player_says_so(
        tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("the last game")
    kept = spawn("--seed", "3", "--record", str(path))
    _converse(kept, (r"Replace it with this game\? \[y/N\] ", ""))
    assert "game.json already" in plain(kept.before)
    kept.expect(pexpect.EOF)
    kept.close()
    assert kept.exitstatus == 1 and path.read_text() == "the last game"
    replaced = spawn("--seed", "3", "--record", str(path))
    _converse(replaced, (r"Replace it with this game\? \[y/N\] ", "y"))
    replaced.expect(MOVE)
    replaced.sendeof()
    replaced.expect(pexpect.EOF)
    record, _ = read_file(path)
    assert len(record.hands) == 1


def test_end_of_input_leaves_cleanly_and_keeps_the_record(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    child = spawn("--seed", "3", "--record", str(path))
    child.expect(MOVE)
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in transcript(child)
    record, _ = read_file(path)
    assert len(record.hands) == 1


def test_a_record_saved_during_the_game_holds_no_seed_until_the_game_is_over() -> None:
    """The seed deals the hands still to come, and ``--record`` is a file the players can
    open between hands."""
    from bones.engine.game import deal_hand, new_game
    from bones.table.recorder import Recorder
    from bones.table.seats import seating

    rules = PRESETS["block"]
    game = deal_hand(new_game(rules), random.Random(1))
    recorder = Recorder(seating(2, None, None), 424242)
    assert "424242" not in recorder.text(game, final=False)
    assert '"seed": 424242' in recorder.text(game, final=True)


def quit_keeping_the_record(child: pexpect.spawn) -> None:
    """Type quit and confirm it, in a game that saves to its --record (or --resume) file
    without asking, and wait for the program to end."""
    child.sendline("quit")
    child.expect(r"Quit this game\? \[y/N\] ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()


def _left_after_two_plays(path: Path) -> tuple[pexpect.spawn, str]:
    """Seed 3's game with ``--record path``, left by quit after two plays: the ended
    program and the screen it was left at."""
    child = spawn("--seed", "3", "--record", str(path))
    for _ in range(2):
        child.expect(MOVE)
        child.sendline("1")
    child.expect(MOVE)
    screen = current_screen(child)
    quit_keeping_the_record(child)
    return child, screen


def _quit_without_saving(child: pexpect.spawn) -> None:
    """Type quit, confirm it, decline to save, and wait for the program to end."""
    child.sendline("quit")
    child.expect(r"Quit this game\? \[y/N\] ")
    child.sendline("y")
    child.expect(r"Save the record\? \[y/N\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    child.close()


def test_a_terminal_too_small_for_the_table_is_said_before_play(tmp_path: Path) -> None:
    child = spawn("--seed", "4", size=(10, 30))
    child.expect(r"Press Enter to play anyway ")
    said = " ".join(plain(child.before).split())
    assert "This terminal is 30x10" in said and "at least 40x16" in said
    child.sendline("")
    child.expect(MOVE)
    child.sendeof()  # Ctrl-D at a terminal: asked about the record, as quit asks
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)
    # leaving at the warning leaves nothing behind: no bot was started, no record written
    started = tmp_path / "started"
    bot = tmp_path / "bot.py"
    bot.write_text(f"open({str(started)!r}, 'w').close()\n" + FIRST_TILE_BOT)
    left = spawn("--seats", f"human,cmd:{sys.executable} {bot}", "--record",
                 str(tmp_path / "game.json"), size=(10, 30))
    left.expect(r"Press Enter to play anyway ")
    left.sendeof()
    left.expect(pexpect.EOF)
    left.close()
    assert left.exitstatus == 1  # nothing played
    assert "Input ended before an answer" in transcript(left)
    assert not started.exists() and not (tmp_path / "game.json").exists()
    roomy = spawn("--seed", "4")  # 80x24: straight to the table
    roomy.expect(MOVE)
    assert "This terminal is" not in transcript(roomy)
    roomy.sendeof()
    roomy.expect(SAVE)
    roomy.sendline("n")
    roomy.expect(pexpect.EOF)


def test_at_40_columns_the_game_end_keeps_its_seed_line_whole() -> None:
    child = spawn("--seed", "4", "--target", "1", size=(20, 40))
    _first_plays_to_hand_end(child)
    child.sendline("")
    child.expect(pexpect.EOF)
    text = " ".join(plain(transcript(child)).split())
    assert "Seed 4 deals this game again, with the same options: " \
           "bones play --rules block --target 1 \\ --seed 4" in text  # a shell continuation


def test_leaving_a_game_tells_its_seed() -> None:
    child = spawn("--seed", "77")
    child.expect(MOVE)
    assert "seed 77" not in current_screen(child)
    _quit_without_saving(child)
    assert "Seed 77 deals this game again, with the same options:\n" \
           "  bones play --rules block --seed 77\n" in plain(transcript(child))


def test_two_people_at_one_keyboard_never_see_each_others_hand() -> None:
    child = spawn("--seats", "human,human", "--names", "Ana,Ben", "--target", "5",
                  "--seed", "6")
    child.expect(KEYBOARD)
    waiting = current_screen(child)
    assert "Pass the keyboard to" in waiting and "[" not in waiting
    child.sendline("")
    child.expect(MOVE)
    first = current_screen(child)
    name = "Ana" if "Your hand (Ana)" in first else "Ben"
    child.sendline("1")
    child.expect(KEYBOARD)
    assert "Pass the keyboard to " + ("Ben" if name == "Ana" else "Ana") in \
        current_screen(child)
    child.sendintr()
    child.expect(r"Save the record\? \[y/N\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_at_a_shared_keyboard_every_hand_shown_follows_a_handover() -> None:
    """Once a hand leaves the screen ("Ana has played. The others play on."), anyone may
    have the keyboard, so Ana's next turn asks for her first even when everyone between
    only passed (seed 3 has that turn)."""
    child = spawn("--seats", "human,greedy,human,greedy", "--names", "Ana,G1,Ben,G2",
                  "--target", "15", "--seed", "3")
    shown: list[str] = []  # "gate" or the name whose hand is on screen, in order
    for _ in range(400):
        found = child.expect(PROMPTS)
        if found == 0:
            mine = re.search(r"Your hand \(([^)]*)\)", current_screen(child))
            assert mine is not None
            shown.append(mine.group(1))
            child.sendline("1")
        elif found == 1:
            child.sendline("l")
        elif found in (2, 3):
            shown.append("gate")  # a hand's end also blanks the table for everyone
            child.sendline("")
        else:
            break
    child.close()
    turns = [i for i, what in enumerate(shown) if what != "gate"]
    assert len(turns) > 10
    again = [i for i in turns if i > 0 and shown[i - 1] != "gate"]
    assert not again, f"hands shown with no handover: {[shown[i] for i in again]}"


FIRST_TILE_BOT = """\
import json, sys

for line in sys.stdin:
    req = json.loads(line)
    if req["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "bones-bot/1", "name": "first"}))
    elif req["type"] == "move":  # the first tile it holds, playable or not
        print(json.dumps({"id": req["id"], "play": req["hand"][0]}))
    elif req["type"] == "quit":
        break
    sys.stdout.flush()
"""


def test_an_outside_bots_faults_are_told_once_its_hand_is_over(tmp_path: Path) -> None:
    """A fault quotes the bot's reply ("illegal reply: 0-0 ..."), which names a tile it
    holds: said during the hand, it would show the person a hidden tile. So it is said
    after the hand, and a game left mid-hand keeps in its record the plays made for it."""
    bot = tmp_path / "first.py"
    bot.write_text(FIRST_TILE_BOT)
    child = spawn("--seats", f"human,cmd:{sys.executable} {bot}", "--seed", "11",
                  "--target", "30", "--think", "0.2", cwd=tmp_path)
    _first_plays_to_hand_end(child)
    during = plain(transcript(child).rsplit(CLEAR, 1)[0])
    assert "illegal reply" not in during  # nothing while the hand was in play ...
    assert "bones: bot " in current_screen(child)  # ... and told with the hand's end
    child.sendline("")
    for _ in range(3):  # into the second hand, where the bot errs again
        child.expect([MOVE, ARM])
        child.sendline("1" if "move" in child.after else "l")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(r"Quit this game\? \[y/N\] ")
    child.sendline("y")
    child.expect(r"Save the record\? \[y/N\] ")
    assert "bones: bot " in plain(child.before)  # the hand left is over: its faults told
    child.sendline("y")
    child.expect(r"Save it where\? ")
    child.sendline("left.json")
    child.expect(pexpect.EOF)
    child.close()
    doc = json.loads((tmp_path / "left.json").read_text())
    assert len(doc["hands"]) == 2 and {e["hand"] for e in doc["x-played-for"]} == {1, 2}


def test_at_a_shared_keyboard_a_hand_leaves_the_screen_with_its_move() -> None:
    """Between two people's turns the bots play; the last hand is not left on display."""
    child = spawn("--seats", "human,greedy,human", "--names", "Ana,Bot,Ben", "--rules", "draw",
                  "--target", "5", "--seed", "6")
    child.expect(KEYBOARD)
    child.sendline("")
    checked = 0
    for _ in range(4):
        child.expect(MOVE)
        assert "Your hand (" in current_screen(child)
        child.sendline("1")
        if child.expect([KEYBOARD, NEXT_HAND]) == 1:
            break
        screens = [plain(s) for s in transcript(child).split(CLEAR)]
        shown_after_move = screens[-2]  # the last is the pass-the-keyboard screen
        assert "has played. The others play on." in shown_after_move
        assert "[" not in shown_after_move
        checked += 1
        child.sendline("")
    assert checked >= 2
    child.sendintr()
    child.expect(r"Save the record\? \[y/N\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)


# -- flags ----------------------------------------------------------------------------------


@pytest.mark.parametrize("flags", [["--players", "1"], ["--seats", "human,robot"],
                                   ["--seed", "soon"], ["--seed", "-1"],
                                   ["--rules", "no-such-preset"],
                                   ["--seats", "human,greedy", "--players", "3"],
                                   ["--names", "N" * 200], ["--names", "A\tB"],
                                   ["--names", "Ana,Ana"], ["--resume", "no-such.json"],
                                   ["--resume", "x.json", "--rules", "draw"]])
def test_a_bad_flag_prints_one_line_and_fails(flags: list[str]) -> None:
    done = subprocess.run([*BONES, "play", *flags], capture_output=True, text=True,
                          check=False, stdin=subprocess.DEVNULL, timeout=20)
    assert done.returncode != 0
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith(("bones: ", "bones play: ")) and "Traceback" not in done.stderr


def test_help_explains_seats_moves_and_the_record() -> None:
    done = subprocess.run([*BONES, "play", "--help"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0
    for words in ("--seats", "--names", "--seed", "--record", "--rules", "--spinner",
                  "6-5 l", "Ctrl-C"):
        assert words in done.stdout, words


def test_hint_names_a_legal_play_with_a_reason_and_review_follows_the_hand():
    """``hint`` answers with a play from the list and a reason; after the hand, ``r`` lists
    the person's costliest plays (or says none could have done better)."""
    child = spawn("--rules", "block", "--seed", "21", "--target", "200")
    child.expect(MOVE)
    screen = current_screen(child)
    listed = set(re.findall(r"\d\) \[(\d+)\|(\d+)\]", screen))
    child.sendline("hint")
    child.expect(r"Hint: play (\d+)-(\d+)[^\r\n]*: [^\r\n]+")
    assert (child.match.group(1), child.match.group(2)) in listed
    child.expect(MOVE)
    while True:  # play the rest of the hand with the first listed play
        child.sendline("1")
        found = child.expect([MOVE, NEXT_HAND, ARM])
        if found == 1:
            break
        if found == 2:
            child.sendline("l")
    child.sendline("r")
    child.expect(r"Judged by an exact solve")  # with what a cost means
    if child.expect([r"the plays that cost the most", r"no play could have done better"]) == 0:
        child.expect(r"your play \d+: ")  # numbered as the person counts them
    child.expect(NEXT_HAND)
    child.sendline("quit")  # between hands too, quit asks first; declined, the game goes on
    child.expect(r"Quit this game\? \[y/N\] ")
    child.sendline("n")
    child.expect(NEXT_HAND)
    child.sendline("")
    child.expect(MOVE)
    child.sendcontrol("c")
    child.expect(r"Save the record\? \[y/N\] ")
    child.sendline("n")
    child.expect(pexpect.EOF)
    assert "Traceback" not in transcript(child)


def _first_plays_to_hand_end(child: pexpect.spawn) -> None:
    """Play the first listed play (the left arm when asked) until the hand ends."""
    while True:
        found = child.expect([MOVE, NEXT_HAND, ARM])
        if found == 1:
            return
        child.sendline("l" if found == 2 else "1")


def test_the_last_hand_of_a_game_can_be_reviewed_too():
    """The hand that ends the game is reviewed like any other before the game's result."""
    child = spawn("--rules", "block", "--seed", "21", "--target", "1")
    _first_plays_to_hand_end(child)
    assert "result of the game" in child.match.group(0)
    child.sendline("r")
    child.expect([r"the plays that cost the most", r"no play could have done better"])
    child.expect(NEXT_HAND)
    child.sendline("")
    child.expect(FINAL)
    child.expect(pexpect.EOF)
    assert "Traceback" not in transcript(child)


def test_quit_between_hands_leaves_the_game_offering_the_record():
    child = spawn("--rules", "block", "--seed", "21", "--target", "200")
    _first_plays_to_hand_end(child)
    _quit_without_saving(child)
    assert child.exitstatus == 0 and "Traceback" not in transcript(child)


def test_help_between_hands_says_what_may_be_typed_and_asks_again():
    child = spawn("--rules", "block", "--seed", "21", "--target", "200")
    _first_plays_to_hand_end(child)
    child.sendline("help")
    child.expect(r"r: review your plays of this hand;  quit: leave the game")
    child.expect(NEXT_HAND)  # asked again: the next hand is not dealt on "help"
    _quit_without_saving(child)
    assert child.exitstatus == 0


def test_a_pasted_page_is_quoted_back_in_a_dozen_characters_not_whole():
    line = "6-5 " + "l" * 5000
    done = subprocess.run([*BONES, "play", "--seed", "1"], input=f"{line}\n{'a' * 5000}\n"
                          "quit\ny\nn\n", capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0 and len(done.stdout) < 5000, len(done.stdout)
    assert '"lllllllllll~" is not an arm' in done.stdout


def test_a_person_plays_a_whole_game_against_the_expert_and_an_outside_bot():
    """Seats take every level and outside bots speaking bones-bot/1 (here our own, run as a
    process); the game reaches its final scores with no stall and no traceback."""
    outside = f"cmd:{sys.executable} -m bones.cli.main bot --level basic"
    child = spawn("--rules", "draw", "--players", "3", "--seats", f"human,expert,{outside}",
                  "--think", "0.05", "--seed", "3", "--target", "15")
    for _ in range(400):
        found = child.expect([MOVE, ARM, NEXT_HAND, FINAL, pexpect.EOF], timeout=30)
        if found == 3:
            break
        child.sendline("l" if found == 1 else "" if found == 2 else "1")
    else:
        pytest.fail("the game did not end")
    child.expect(pexpect.EOF)
    text = plain(transcript(child))
    assert "Expert" in text and "Bot 3" in text and "Traceback" not in text


def test_a_game_left_mid_hand_is_taken_up_at_the_same_turn_with_resume(tmp_path: Path) -> None:
    """Quit with --record after two plays; --resume shows the same layout and hand, and
    the game plays on to its end, saved back to the same file."""
    path = tmp_path / "sunday.json"
    child, left = _left_after_two_plays(path)
    left_text = plain(transcript(child))
    assert child.exitstatus == 0 and "Record saved to" in left_text
    assert f"To go on with it: bones play --resume={path}\n" in left_text  # whole, unwrapped
    child = spawn("--resume", str(path))
    child.expect(MOVE)
    taken_up = current_screen(child)
    for part in ("Layout", "Your hand"):  # the same table from the same seat
        section = [line for line in left.splitlines() if line.startswith(part)]
        assert section and section == [line for line in taken_up.splitlines()
                                       if line.startswith(part)]
    layout = left.split("Layout", 1)[1].split("\n\n", 1)[0]
    assert layout in taken_up
    child.sendline("1")
    game = play_through(child)
    assert game.status == 0 and game.final
    assert "Seed 3 deals this game again" in game.text
    _, saved = read_file(path)
    assert saved.finished and saved.scores == tuple(final_scores(game.final).values())


def test_undo_takes_back_your_last_play_and_the_record_keeps_only_the_one_made(
        tmp_path: Path) -> None:
    path = tmp_path / "undone.json"
    child = spawn("--seed", "3", "--record", str(path))
    child.expect(MOVE)
    first = current_screen(child)
    child.sendline("undo")  # nothing to take back yet
    child.expect("there is no play of yours to take back this hand")
    child.expect(MOVE)
    child.sendline("1")
    child.expect(MOVE)
    child.sendline("undo")
    child.expect(r"Taken back: your (\d+-\d+) and the moves after it\.")
    taken = child.match[1]
    child.expect(MOVE)
    again = current_screen(child)
    hand = [line for line in first.splitlines() if line.startswith("  1) ")]
    assert hand and hand == [line for line in again.splitlines() if line.startswith("  1) ")]
    child.sendline("2")
    child.expect(MOVE)
    quit_keeping_the_record(child)
    record, _ = read_file(path)
    first_move = record.hands[0].moves[0]
    assert isinstance(first_move, Play) and str(first_move.tile) != taken


@pytest.mark.parametrize(("seed", "drawn"), [(2, "You cannot play: you draw"),
                                             (5, "Greedy draws")])
def test_undo_never_takes_back_a_drawn_tile(seed: int, drawn: str) -> None:
    """A drawn tile, the person's or one a bot drew and played, tells the boneyard's order,
    and a play taken back would let them steer round it: undo is refused past a draw."""
    child = spawn("--rules", "draw", "--seed", str(seed))
    for _ in range(60):
        child.expect(MOVE)
        if drawn in current_screen(child):
            break
        child.sendline("1")
    else:
        raise AssertionError(f"no screen said {drawn!r}")
    child.sendline("undo")
    child.expect("a tile was drawn since your last play; draws are never taken back")
    child.expect(MOVE)
    _quit_without_saving(child)


def test_a_play_made_again_after_undo_gets_the_same_reply() -> None:
    """Each bot's generator goes back with the game: a reply that changed on every try
    would show a little more of the bot's hand each time."""
    child = spawn("--seats", "human,random", "--seed", "3")
    replies = []
    child.expect(MOVE)
    child.sendline("1")
    for _ in range(3):
        child.expect(MOVE)
        child.sendline("1")
        child.expect(MOVE)
        replies.append(re.findall(r"Random plays \S+", current_screen(child)))
        child.sendline("undo")
        child.expect("Taken back")
    assert replies[0] and replies[0] == replies[1] == replies[2]
    child.expect(MOVE)
    _quit_without_saving(child)


def test_undo_says_so_when_the_play_to_take_back_was_before_resume(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    _left_after_two_plays(path)
    child = spawn("--resume", str(path))
    child.expect(MOVE)
    child.sendline("undo")
    child.expect("Cannot undo: nothing of yours since the game was resumed")
    child.expect(MOVE)
    quit_keeping_the_record(child)  # saved back to the file it came from


@pytest.mark.parametrize("seats", ["human,human", "human,cmd:{bones} bot"])
def test_undo_is_for_one_person_against_bones_bots(seats: str) -> None:
    """At a shared keyboard undo would take back another's move; an outside bot's faults
    would name moves no longer in the hand."""
    bones = Path(sys.executable).parent / "bones"
    child = spawn("--seats", seats.format(bones=bones), "--seed", "3")
    if seats == "human,human":
        child.expect(KEYBOARD)
        child.sendline("")
    child.expect(MOVE)
    child.sendline("undo")
    child.expect("undo is for one person playing bones's own bots")
    child.expect(MOVE)
    _quit_without_saving(child)


# -- issue 25: what a new player tripped over -----------------------------------------


def test_a_wide_terminal_is_used_whole_and_line_shows_every_tile() -> None:
    """Item 13: at 100 columns the screens are drawn 100 wide, a long line of play is
    never hidden behind ``..N..``, and ``line`` lists the whole layout."""
    child = spawn("--rules", "draw", "--seed", "12", "--target", "30", size=(30, 100))
    child.expect(MOVE)
    child.sendline("line")
    child.expect(r"The whole layout \((\d+) tiles?\), from the left arm's open end")
    child.expect(MOVE)
    child.sendline("1")
    game = play_through(child)
    assert game.status == 0
    text = plain(transcript(child))
    assert not re.search(r" \.\.\d+\.\. ", text)
    widths = [cell_len(line) for line in text.split("\n")]
    assert max(widths) <= 100 and max(widths) > 80


def test_help_names_line_and_sort() -> None:
    child = spawn("--seed", "5")
    child.expect(MOVE)
    child.sendline("help")
    child.expect(MOVE)
    said = plain(child.before)
    assert "  line " in said and "  sort " in said and "  Enter " in said
    _quit_without_saving(child)


def test_a_lone_double_is_one_choice_and_enter_plays_a_lone_choice(tmp_path: Path) -> None:
    """Item 15: on a lone 5-5 the tile 5-2 fits both arms, which lead to the same position:
    it is listed once, the prompt says Enter plays it, and Enter does."""
    child = spawn("--seed", "9")
    child.expect(MOVE)
    screen = current_screen(child)
    assert "left 5 < [5|5] > 5 right" in screen
    assert legal_plays(screen) == [("5-2", "left")]
    assert "Enter plays 5-2 on the left" in child.after
    child.sendline("")
    child.expect(MOVE)
    assert "You play 5-2 on the left arm" in current_screen(child)
    _quit_without_saving(child)
    typed = spawn("--seed", "32")  # a lone 6-6 and four tiles that fit it: typed, not asked
    typed.expect(MOVE)
    assert [arm for _, arm in legal_plays(current_screen(typed))] == ["left"] * 4
    typed.sendline("60")
    assert typed.expect([MOVE, ARM]) == 0
    assert "You play 6-0 on the left arm" in current_screen(typed)
    _quit_without_saving(typed)


def test_a_bad_answer_to_which_arm_is_asked_again() -> None:
    """Item 15: the arm is asked until it is named, not dropped back to the move prompt."""
    child = spawn("--seed", "12")
    for _ in range(2):
        child.expect(MOVE)
        child.sendline("1")
    child.expect(MOVE)
    assert [t for t, _ in legal_plays(current_screen(child))].count("4-0") == 2
    child.sendline("40")
    child.expect(ARM)
    child.sendline("sideways")
    child.expect(r"Unclear: 4-0 goes on left or right")
    child.expect(ARM)  # asked again
    child.sendline("r")
    child.expect([MOVE, NEXT_HAND])
    assert "You play 4-0 on the right arm" in plain(transcript(child))
    child.sendintr()
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_sort_orders_the_hand_and_its_numbers_for_the_rest_of_the_game() -> None:
    """Item 18: ``sort`` shows the hand by suit, then by pips, then as dealt; the numbered
    plays follow the hand as shown, and the order stays from turn to turn."""
    child = spawn("--seed", "3", "--target", "200")
    child.expect(MOVE)
    dealt = current_screen(child)
    child.sendline("sort")
    child.expect(r"Your hand is shown by suit, and numbered so \(sort again: by pips\)\.")
    child.expect(MOVE)
    by_suit = current_screen(child)
    hand = [(int(a), int(b)) for a, b in
            FACE.findall(by_suit.split("Your hand", 1)[1].split("\n")[1])]
    assert hand == sorted(hand, reverse=True) and "by suit" in by_suit
    assert sorted(legal_plays(by_suit)) == sorted(legal_plays(dealt))
    child.sendline("1")
    child.expect(MOVE)
    assert "by suit" in current_screen(child)  # kept for the game
    _quit_without_saving(child)


def test_a_bot_that_thinks_for_a_while_is_said_to_be_thinking() -> None:
    """Item 18: a status line while a bot takes more than a moment, erased after. The
    expert budgets its search in steps, which at ``--think 1`` it may finish in about the
    moment the sign waits (0.3 s); ``--think 5`` buys it about five times that moment."""
    child = spawn("--seats", "human,expert", "--think", "5", "--seed", "4")
    child.expect(MOVE)
    child.sendline("1")
    child.expect(r"Expert is thinking\.\.\.")
    child.expect(MOVE)
    assert "thinking" not in current_screen(child)
    _quit_without_saving(child)


def test_at_a_shared_keyboard_a_pass_the_rules_made_is_told_on_the_next_screen() -> None:
    """Item 18: with two people at one keyboard nobody else saw Ana's turn passed: her next
    screen says so, and why."""
    child = spawn("--seats", "human,greedy,human,greedy", "--names", "Ana,G1,Ben,G2",
                  "--target", "15", "--seed", "3")
    for _ in range(100):
        found = child.expect(PROMPTS)
        if found == 0 and "You cannot play and pass: nothing in your hand matched" \
                in current_screen(child):
            break
        child.sendline("l" if found == 1 else "" if found in (2, 3) else "1")
    else:
        raise AssertionError("no screen told of a pass")
    assert "hint, help, quit" in child.after and "undo" not in child.after
    child.sendintr()
    child.expect(SAVE)
    child.sendline("n")
    child.expect(pexpect.EOF)


def test_the_move_prompt_names_hint_and_undo_and_the_end_counts_plays_taken_back() -> None:
    """Item 18 and ``x-undo``: the prompt names hint and undo; a game in which undo was
    used ends saying how many plays were taken back, and how to deal it again."""
    child = spawn("--seed", "3", "--target", "1")
    child.expect(MOVE)
    assert "hint, undo, help, quit" in child.after
    child.sendline("1")
    child.expect(MOVE)
    child.sendline("undo")
    child.expect("Taken back")
    game = play_through(child)
    assert "Practice game: 1 play taken back with undo." in game.text
    assert "Seed 3 deals this game again, with the same options:\n" \
           "  bones play --rules block --target 1 --seed 3\n" in game.text


def test_at_50x20_every_turn_keeps_its_news_and_no_line_is_cut() -> None:
    """Item 14: on a 50x20 terminal the news of the turn stays on the screen (the scores
    and tiles are said briefly first), and lines break between words."""
    child = spawn("--rules", "pool", "--players", "4", "--spinner", "first-double", "--ante",
                  "2", "--target", "30", "--seed", "5", size=(20, 50))
    game = play_through(child)
    assert game.status == 0 and game.turns > 3
    for screen in game.screens:
        lines = screen.rstrip("\n").split("\n")
        before = screen.split("Your hand", 1)[0]
        assert re.search(r"\b(set|sets|play|plays|pass|passes|draws?|is dealt)\b", before), \
            screen
        assert all(cell_len(line) <= 50 for line in lines), screen
        assert screen.split("Your move (", 1)[0].count("\n") + 1 <= 20, screen
    for line in plain(transcript(child)).split("\n"):  # a cut word would end in "..."
        assert not re.search(r"\w\.\.\.", line.replace("thinking...", "")), line


def test_input_ending_at_the_replace_question_plays_nothing_and_says_so(tmp_path: Path) -> None:
    """Issue 25, item 2: it exited 0 without a word; nothing was played, so status 1."""
    path = tmp_path / "game.json"
    path.write_text("the last game")
    done = subprocess.run([*BONES, "play", "--seed", "3", "--record", str(path)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1
    assert "Input ended before an answer; nothing played." in done.stdout
    assert path.read_text() == "the last game"


def test_ctrl_d_at_a_terminal_offers_to_save_and_says_where(tmp_path: Path) -> None:
    """Issue 25, item 2: Ctrl-D ended the game with no chance to save, and the save's
    default file went to the working folder without saying which."""
    child = spawn("--rules", "draw", "--seed", "9", cwd=tmp_path)
    child.expect(MOVE)
    child.sendeof()
    child.expect(SAVE)
    child.sendline("y")
    child.expect(WHERE)
    assert f"A name alone saves in {tmp_path}." in plain(child.before).replace("\n", "")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (tmp_path / "bones-9.json").exists()
    assert "Traceback" not in transcript(child)
