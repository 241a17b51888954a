"""``bones play``: a game in the terminal against bots, or friends at the same keyboard.

This module reads the flags, picks the seed, saves the record and decides how the program
ends; the game itself is ``bones.tui``. Leaving early is never an error: ``quit`` exits 0,
the end of input exits 0, Ctrl-C exits 130 (the shell's convention), and each first offers
to keep the record of the game so far.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from pathlib import Path

from rich.console import Console

from bones.ai.levels import LEVELS
from bones.cli.common import Terminated, counted, fresh_seed, nonempty_path, seconds, seed_value
from bones.cli.options import add_rules_arguments, rules_from_args
from bones.cli.seats import checked_seats, parse_seats
from bones.engine.game import Game, new_game
from bones.engine.rules import OPTION_NAMES, Rules
from bones.record.files import holds_something
from bones.table.fair import FairDealer, FairError, FairSeeds
from bones.table.recorder import NotSaved, Recorder
from bones.table.resume import Resumed, recorded_seats, resume
from bones.table.seats import DEFAULT_BOT, HUMAN, Seating, seating
from bones.tui.game import QuitGame, TerminalGame
from bones.tui.terminal import Terminal

#: The rules of a game when neither --rules nor --resume says.
DEFAULT_RULES = "block"

DESCRIPTION = """\
Play dominoes in the terminal. Each turn shows the layout with its open arms, your hand
with the playable tiles numbered, the other seats' tile counts, the boneyard, the scores
and what happened since your last turn. Answer with the number of a play, or name a tile:
6-5, 65, 6-5 l (left), 65r (right), 6-5 up, 6-5 down. Forced draws and passes are made
for you. Type hint for the expert's move, undo to take back your last play (against
bones's bots, never past a tile you drew), sort to order your hand, line to see the whole
layout, help for help and quit to leave; Ctrl-C also leaves, offering to save the record
of the game. With one play open, Enter plays it."""

EPILOG = f"""\
seats: --seats lists each seat from seat 0 on: {HUMAN}, a bot level
  ({", ".join(LEVELS)}), or cmd:PROGRAM for an outside
  bot that speaks bones-bot/1 (docs/bot-protocol.md).
  Without it, you sit at seat 0 and {DEFAULT_BOT} bots take the other seats. Several
  people may share the keyboard; the screen is blanked between their turns.
  --seats also sets the number of players unless --players is given.

examples:
  bones play
  bones play --rules draw --players 3 --seed 7
  bones play --rules pool --players 4 --spinner first-double --target 150
  bones play --seats human,human,greedy,greedy --partnerships --names Ana,Ben
  bones play --rules pagat-draw --record game.json
  bones play --resume game.json        # go on with a game saved there
  bones play --fair --record game.json # deals anyone can check: bones verify game.json
  bones play --rules my-rules.json

exit status: 0 when the game ends or you quit (or input ends during it: at a terminal,
Ctrl-D offers to save as quit does), 130 after Ctrl-C (143 after SIGTERM, which saves to
--record without asking), 1 for rules that cannot be dealt, bad seats or names, a record
that cannot be (or you chose not to be) written, input that ends before the game begins,
or a --resume game that cannot be taken up (a game over, a rule broken, a fair game), 2
for a flag that is unknown, lacks its value or has one that cannot be read (--seed,
--think, --record, a rules flag), a --resume or --rules file that is not a record or too
large, or a flag that would change a resumed game's rules or deals; each refusal is one
line saying which."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play", help="play a game in the terminal against bots or friends",
        description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    table = p.add_argument_group("table")
    table.add_argument("--seats", "--bots", dest="seats", metavar="LIST",
                       help="who sits where, comma-separated from seat 0: human, a bot level "
                       "(random, greedy, basic, ismcts, expert, expert-noinfer) or "
                       "cmd:PROGRAM for an outside bot (default: human, then greedy bots)")
    table.add_argument("--think", type=seconds, default=0.5, metavar="SECONDS",
                       help="time per move for search and outside bots (default 0.5)")
    table.add_argument("--names", metavar="LIST",
                       help="names shown for the seats, comma-separated from seat 0 "
                       "(default: You, Greedy, ...)")
    table.add_argument("--seed", metavar="N", type=seed_value,
                       help="deal from this seed to replay a game (default: a random seed, "
                       "shown when the game ends or is left)")
    table.add_argument("--fair", action="store_true",
                       help="deal fair: every shuffle comes from a secret seed whose SHA-256 "
                       "is shown before the first deal and that is revealed when the game "
                       "ends or is left, so `bones verify RECORD` can check every deal "
                       "(docs/fair-deals.md); not with --seed")
    table.add_argument("--seed-phrase", action="append", metavar="TEXT",
                       help="with --fair: your own seed, mixed into every deal (repeat it for "
                       "each person at the keyboard, in seat order); the other seats' are "
                       "empty")
    table.add_argument("--record", metavar="PATH", type=nonempty_path,
                       help="save the game record (bones-record/1 JSON) here after every "
                       "hand and when the game ends or is left")
    table.add_argument("--resume", metavar="FILE", type=nonempty_path,
                       help="take up the game recorded in FILE where it was left, with its "
                       "rules, names and seats (--seats and --names may change these two); "
                       "it is saved back to FILE unless --record names another file")
    add_rules_arguments(p)
    # None, not the preset, when --rules is not given: --resume takes the record's rules
    p.set_defaults(run=run, rules=None)


def _rules_and_seats(args: argparse.Namespace) -> tuple[Rules, Seating]:
    """Read the seats first: a ``--seats`` list sets ``--players`` when that is not given."""
    kinds = parse_seats(args.seats) if args.seats is not None else None
    if kinds is not None and args.players is None:
        args.players = str(len(kinds))
    if args.rules is None:
        args.rules = DEFAULT_RULES
    rules = rules_from_args(args)
    return rules, seating(rules.players, kinds, args.names)


def _against_resume(args: argparse.Namespace) -> str | None:
    """The first flag given that a resumed game cannot take: its rules and its deals are
    the record's."""
    if args.rules is not None:
        return "--rules"
    for name in OPTION_NAMES:
        if (value := getattr(args, name, None)) is not None:
            return ("--no-" if value is False else "--") + name.replace("_", "-")
    if args.fair or args.seed_phrase is not None:
        return "--fair" if args.fair else "--seed-phrase"
    return "--seed" if args.seed is not None else None


def _fair_seeds(args: argparse.Namespace, seats: Seating) -> FairSeeds | str | None:
    """The seeds of a ``--fair`` game (``None`` without it), or why the flags cannot be."""
    phrases = args.seed_phrase or []
    if not args.fair:
        return "--seed-phrase goes with --fair" if phrases else None
    if args.seed is not None:
        return "--fair goes against --seed: fair deals come from a fresh secret seed"
    if len(phrases) > len(seats.humans):
        people = counted(len(seats.humans), "person") if seats.humans else "nobody"
        return (f"--seed-phrase is given {len(phrases)} times, but {people} "
                "sits at this table")
    given = dict(zip(seats.humans, phrases, strict=False))
    try:
        return FairSeeds.new([given.get(seat, "") for seat in range(len(seats.kinds))])
    except FairError:
        return "--seed-phrase: that is not text that can be written as UTF-8"


def _resumed_seating(args: argparse.Namespace, resumed: Resumed) -> Seating:
    """The record's seats and names, changed by ``--seats`` and ``--names``."""
    if args.seats is not None:
        kinds: tuple[str, ...] | None = parse_seats(args.seats)
    elif (recorded := recorded_seats(resumed)) is not None:
        kinds = checked_seats(recorded, "--resume: the record's x-seats")
    else:
        kinds = None
    return seating(resumed.record.rules.players, kinds, args.names, resumed.record.players)


def run(args: argparse.Namespace) -> int:
    resumed: Resumed | None = None
    if args.resume is not None:
        if (flag := _against_resume(args)) is not None:
            print(f"bones: {flag} goes against --resume: the game keeps its rules and deals",
                  file=sys.stderr)
            return 2
        resumed = resume(args.resume)
        rules, seats = resumed.record.rules, _resumed_seating(args, resumed)
        seed = resumed.seed if resumed.seed is not None else fresh_seed()
    else:
        seed = args.seed if args.seed is not None else fresh_seed()
        rules, seats = _rules_and_seats(args)
    fair = _fair_seeds(args, seats)
    if isinstance(fair, str):
        print(f"bones: {fair}", file=sys.stderr)
        return 2
    path: str | None = args.record if args.record is not None else args.resume
    # realpath, not Path.resolve, which raises on a symlink loop: such a path is written
    # as without --resume (the loop is replaced by the record)
    in_place = resumed is not None and path is not None \
        and os.path.realpath(path) == os.path.realpath(args.resume)
    terminal = Terminal(Console(highlight=False))
    # asked before the first screen clears, and before any bot is started or file written
    try:
        if (small := terminal.too_small()) is not None:
            terminal.say(small)
            terminal.ask("Press Enter to play anyway ")
        if path and not in_place and holds_something(Path(path)) \
                and not terminal.confirm(f"{path} already exists. Replace it with this game?"):
            terminal.say("Nothing played; choose another --record file.")
            return 1
    except EOFError:  # nobody answered: nothing is played, and the status says so
        terminal.say("")
        terminal.say("Input ended before an answer; nothing played.")
        return 1
    except KeyboardInterrupt:
        terminal.say("")
        return 130
    # fair deals: Random(seed) deals none of them (it still moves the bots)
    replayable = (resumed is None or resumed.seed is not None) and fair is None
    recorder = Recorder(seats, seed if replayable else None, resumed, fair)
    if fair is not None:
        terminal.say(f"Fair deals. Commitment (SHA-256 of the secret seed): {fair.commitment}",
                     wrap=False)
        terminal.say("The seed is shown when the game ends or is left; bones verify checks "
                     "every deal of the record against it.")
    if path:  # a path that cannot be written fails before any bot is started
        recorder.save(resumed.game if resumed is not None else new_game(rules), path,
                      final=False)
    table = TerminalGame(rules, seats, seed, terminal,
                  after_hand=(lambda game: recorder.save(game, path, game.finished))
                  if path else None,
                  think=args.think,
                  game=resumed.game if resumed is not None else None,
                  deals=resumed.deals if resumed is not None
                  else FairDealer(fair) if fair is not None else None,
                  played_for=resumed.played_for if resumed is not None else None,
                  replayable=replayable,
                  undone=resumed.undone if resumed is not None else 0)
    recorder.follow(table.table)
    try:
        table.play_game()
    except NotSaved as exc:  # after a hand: the player may still keep the game elsewhere
        terminal.say(_sentence(exc))
        return _leave(table, recorder, None, 1)
    except QuitGame:
        return _leave(table, recorder, path, 0)
    except Terminated:  # nobody may be there to answer: no questions, the record kept
        terminal.say("")
        terminal.say("Terminated; leaving the game.")
        _say_replay(table, fair)
        if path:
            try:
                recorder.save(table.game, path)
            except NotSaved as exc:
                terminal.say(_sentence(exc))
            else:
                _say_saved(terminal, path, table.game, recorder.fair is None)
        return 143
    except KeyboardInterrupt:
        terminal.say("")
        return _leave(table, recorder, path, 130)
    except EOFError:
        terminal.say("")
        if sys.stdin.isatty():  # Ctrl-D at a terminal: the person is there to be asked
            terminal.say("Input ended (Ctrl-D); leaving the game.")
            return _leave(table, recorder, path, 0)
        terminal.say("Input ended; leaving the game.")
        _say_replay(table, fair)
        if path:
            recorder.save(table.game, path)
            _say_saved(terminal, path, table.game, recorder.fair is None)
        return 0
    _reveal(terminal, fair)
    if path:
        recorder.save(table.game, path)
        _say_saved(terminal, path, table.game, fair is None)
    return 0


def _sentence(exc: Exception) -> str:
    """An error said to the player at the table, as a sentence."""
    reason = str(exc)
    return f"{reason[:1].upper()}{reason[1:]}."


def _say_saved(terminal: Terminal, path: str, game: Game, resumable: bool = True) -> None:
    """Say where the record went, and, for a game left unfinished, how to go on with it
    (a fair game cannot go on: its seed is revealed)."""
    terminal.say(f"Record saved to {path}.")
    if not resumable:
        # "./": a path that starts with "-" would otherwise read as a flag
        shown = f"./{path}" if path.startswith("-") else path
        terminal.say(f"To check its deals: bones verify {shlex.quote(shown)}", wrap=False)
    elif not game.finished:
        # "--resume=": a path that starts with "-" would otherwise read as a flag
        terminal.say(f"To go on with it: bones play --resume={shlex.quote(path)}", wrap=False)


def _say_replay(table: TerminalGame, fair: FairSeeds | None = None) -> None:
    """Name the seed that deals this game again, if one does, and the whole command; and
    reveal a fair game's secret seed."""
    command = table.replay_command()
    if command is not None:
        table.terminal.say(f"Seed {table.replay_seed} deals this game again, with the same "
                           "options:")
        for line in command:
            table.terminal.say(line, wrap=False)
    _reveal(table.terminal, fair)


def _reveal(terminal: Terminal, fair: FairSeeds | None) -> None:
    """A fair game's secret seed, once the game is over or left."""
    if fair is not None:
        terminal.say(f"Fair deals. The secret seed was: {fair.server_seed.hex()}", wrap=False)
        terminal.say(f"(its SHA-256 is the commitment shown at the start, {fair.commitment})",
                     wrap=False)


def _leave(table: TerminalGame, recorder: Recorder, path: str | None, status: int) -> int:
    """Leave a game early, saving its record: to ``--record``, or where the player says."""
    terminal = table.terminal
    _say_replay(table, recorder.fair)
    if path is not None:
        try:
            recorder.save(table.game, path)
        except NotSaved as exc:  # said, and the player asked where else
            terminal.say(_sentence(exc))
            status = 1
        else:
            _say_saved(terminal, path, table.game, recorder.fair is None)
            return status
    default = f"bones-{table.seed}.json"
    try:
        # a place that cannot be written is said, and the player asked again
        while terminal.confirm("Save the record?"):
            terminal.say(f"A name alone saves in {os.getcwd()}.", wrap=False)
            where = terminal.ask(f"Save it where? [{default}] ").strip() or default
            if holds_something(Path(where)) \
                    and not terminal.confirm(f"{where} already exists. Replace it?"):
                continue
            try:
                recorder.save(table.game, where)
            except NotSaved as exc:
                terminal.say(_sentence(exc))
                continue
            _say_saved(terminal, where, table.game, recorder.fair is None)
            return status
    except (KeyboardInterrupt, EOFError):
        terminal.say("")
        terminal.say("Left without saving.")
    return status
