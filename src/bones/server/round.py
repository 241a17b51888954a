"""One table's actor (lichess calls it the round): the only code that changes a table.

Everything that changes the table runs under its lock, in this order: the table is moved
on (``bones.table.Table``; the bots think in a worker thread, so other tables go on), the
rows that say what happened are appended to the log and committed, and only then is each
socket sent its own frame: a seat its seat's view and events (``wire.view_json``,
``wire.event_json(event, seat)``), a spectator the public ones. Every frame carries the
table's sequence number; a client that comes back says the last one it has and is sent
what it missed, or the whole table afresh.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bones.ai.simple import GreedyBot
from bones.engine.errors import BonesError
from bones.engine.game import Game, play_unchecked
from bones.engine.view import observe, spectate
from bones.protocol.bots import make_seat_bot
from bones.record.reader import read_move
from bones.record.writer import dump, move_json, record_of
from bones.server import fairplay, tokens
from bones.server.frames import Frame, dumps
from bones.server.restore import Restored
from bones.server.settings import Settings
from bones.server.spec import SpecError, TableSpec
from bones.server.store import Finished, LogRow, Store, now
from bones.table import seeds
from bones.table.advice import hint
from bones.table.events import Event, GameEnded, HandDealt, HandEnded, Moved, Undone
from bones.table.fair import FIELD, SCHEME, FairDealer, FairSeeds, commitment, fair_json
from bones.table.resume import deals_after
from bones.table.seats import HUMAN, Seating
from bones.table.table import Dealer, Table
from bones.table.wire import event_json, view_json

log = logging.getLogger("bones.server")

T = TypeVar("T")

#: Fresh seeds are drawn below this (as ``bones play`` draws them): far too many to find
#: by dealing each, and exact in any JSON reader.
SEEDS = 10**15
#: Frames kept for clients that come back: one that missed more gets the whole table.
RECENT = 512
#: Message ids remembered per seat, to refuse a message sent twice.
SEEN = 4096
#: Why the table played for a person.
AWAY = "the turn timer ran out"
#: What an empty seat is called until a person takes it.
OPEN = None


class Services(Protocol):
    """What a round needs of the server: the store, and threads for the database and for
    thinking (``Hub``)."""

    settings: Settings
    store: Store

    def db(self, fn: Callable[..., T], *args: Any) -> Awaitable[T]: ...

    def append(self, table_id: int, rows: list[LogRow], new_game: tuple[int, int] | None,
               finished: Finished | None) -> Awaitable[None]: ...

    def think(self, fn: Callable[..., T], *args: Any) -> Awaitable[T]: ...


class Conn(Protocol):
    """A socket as the round sees it: its seat (``None``: a spectator), and a way to queue
    a frame that never blocks."""

    seat: int | None
    seen: OrderedDict[str, None]

    def send(self, text: str) -> None: ...

    def close(self) -> None: ...


class Refused(BonesError):
    """A client's request the table turns down, changing nothing: the reason, one line."""


class Broken(BonesError):
    """The table could not save what happened; it is reloaded from its log."""


@dataclass(frozen=True, slots=True)
class Item:
    """One row to append: its kind and data, and for a game event the event and the game
    just after it (to build each seat's view as it stood then)."""

    kind: str
    data: dict[str, Any]
    event: Event | None = None
    game: Game | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """A committed row, kept for clients that come back."""

    seq: int
    event: Event | None
    game: Game | None


def remember(seen: OrderedDict[str, None], ident: str) -> bool:
    """Note a message id; false when it was seen before (a replayed message)."""
    if ident in seen:
        return False
    seen[ident] = None
    if len(seen) > SEEN:
        seen.popitem(last=False)
    return True


class Round:
    """A live table: its game, seats and sockets."""

    def __init__(self, services: Services, table_id: int, spec: TableSpec,
                 restored: Restored, started: str | None = None) -> None:
        self.services = services
        self.settings = services.settings
        self.id = table_id
        self.spec = spec
        self.seq = restored.seq
        self.names: list[str | None] = list(restored.names)
        self.game_no = restored.number
        self.seed = restored.seed
        self.started = started
        self.carried = list(restored.carried)
        self.results = list(restored.results)
        self.away = set(restored.away)
        self.away_plays: list[dict[str, Any]] = []
        self.ready: set[int] = set()
        self.rematch: set[int] = set()
        self.conns: set[Conn] = set()
        self.seen: dict[int, OrderedDict[str, None]] = {}
        self.recent: deque[Entry] = deque(maxlen=RECENT)
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self.broken: str | None = None
        self.table: Table | None = None
        # the turn timer: the task, its deadline (the loop's clock), and what it times
        self._timer: asyncio.Task[None] | None = None
        self._deadline: float | None = None
        self._timed: tuple[Any, ...] | None = None
        #: The hand whose pause ran out: the next hand is dealt whoever is ready.
        self._pause_over: tuple[int, int] | None = None
        #: Fair deals (``bones.server.fairplay``): the table's salt (``None`` at a table
        #: made before them), each seat's seed phrase, and the seeds of the game in play.
        self.salt = restored.salt
        self.phrases = list(restored.phrases)
        self.fair: FairSeeds | None = None
        if restored.fair is not None and self.salt is not None:
            self.fair = self._fair_seeds(self.game_no, restored.fair["player_seeds"])
            if self.fair.commitment != restored.fair["commitment"]:
                raise BonesError(f"game {self.game_no} was committed to a server seed this "
                                 "server's key does not give (was fair.key lost or "
                                 "replaced?); its deals cannot go on")
        if restored.replayed is not None and self.seed is not None:
            replayed = restored.replayed
            self.away_plays = list(replayed.away)
            self.table = self._make_table(self.seed, replayed.game, replayed.undone)

    # -- the table ----------------------------------------------------------------------------

    def _make_table(self, seed: int, game: Game | None = None, undone: int = 0) -> Table:
        """The bones table of the current game (taken up in the middle, with ``game``)."""
        kinds = self.spec.kinds
        names = tuple(n if n is not None else f"Player {s + 1}"
                      for s, n in enumerate(self.names))
        deals: random.Random | Dealer = seeds.play_deals(seed)
        moves = 0
        if game is not None:
            moves = sum(len(hand.moves) for hand in game.hands)
        if self.fair is not None:  # each hand from the seeds and its number alone
            deals = FairDealer(self.fair)
        elif game is not None:
            found = deals_after(record_of(game, names), seed)
            if found is None:  # cannot happen unless the log was edited by hand
                log.warning("table %d: game %d's deals are not its seed's; dealing on from "
                            "a fresh seed", self.id, self.game_no)
                found = random.Random(secrets.randbits(64))
            deals = found

        def bot(seat: int) -> Any:
            # a bot taken up in the middle of a game thinks from a generator of its own
            rng = seeds.play_bot(seed, seat) if moves == 0 \
                else random.Random(f"bones-web:{seed}:{seat}:{moves}")
            return make_seat_bot(kinds[seat], rng, self.spec.think)

        return Table(self.spec.rules, Seating(kinds, names), deals, bot=bot, game=game,
                     undo=self.spec.practice, undone=undone)

    def _fair_seeds(self, number: int, player_seeds: Iterable[str]) -> FairSeeds:
        """The seeds of game ``number`` at this table (its secret seed derived, never
        stored: ``bones.server.fairplay``)."""
        assert self.salt is not None
        key = fairplay.server_key(self.settings)
        return FairSeeds(fairplay.server_seed(key, self.salt, number), tuple(player_seeds),
                         number)

    def fair_status(self, game: Game | None) -> dict[str, Any] | None:
        """What every client is told of the fair deals: the scheme, the game the commitment
        is for (the next one while seats are open), the commitment, the players' seeds once
        the game started, and the server seed once the game at ``game`` is over (never
        before: it deals every hand still to come)."""
        if self.salt is None:
            return None
        if self.table is None or self.fair is None:
            upcoming = self._fair_seeds(self.game_no + 1, ())
            return {"scheme": SCHEME, "game": upcoming.game,
                    "commitment": upcoming.commitment, "player_seeds": None}
        out = {"scheme": SCHEME, "game": self.fair.game, "commitment": self.fair.commitment,
               "player_seeds": list(self.fair.player_seeds)}
        if self.table.finished and game is not None and game.finished:
            out["server_seed"] = self.fair.server_seed.hex()
            # a rematch's seed is fixed now, before anyone asks for it
            out["next_commitment"] = commitment(fairplay.server_seed(
                fairplay.server_key(self.settings), self.salt, self.fair.game + 1))
        return out

    def _playing(self) -> Table:
        if self.broken is not None:
            raise Refused("the table is being reloaded; connect again")
        if self.table is None:
            raise Refused("the game starts once every seat is taken")
        return self.table

    # -- what clients are told ----------------------------------------------------------------

    def phase(self, game: Game | None = None) -> str:
        """``seating`` (seats open), ``playing`` (a hand in play), ``between`` (hands) or
        ``over``: of the table now, or as it stood at ``game``."""
        if self.table is None:
            return "seating"
        game = game if game is not None else self.table.game
        if game.finished:
            return "over"
        return "playing" if game.current is not None else "between"

    def status(self, game: Game | None = None) -> dict[str, Any]:
        """The table's state besides the game: who sits where, who is here, who is away or
        ready, whose turn the timer counts, the chips carried from earlier games. The phase
        and hand are as they stood at ``game`` (an event's) when it is given."""
        rules = self.spec.rules
        here = {conn.seat for conn in self.conns}
        turn = None
        if self._deadline is not None and self._timed is not None:
            left = max(0.0, self._deadline - asyncio.get_running_loop().time())
            turn = {"seat": self._timed[-1], "left": round(left, 1),
                    "seconds": self.spec.timer}
        if game is None and self.table is not None:
            game = self.table.game
        return {
            "phase": self.phase(game),
            "game": self.game_no,
            "hand": len(game.hands) if game is not None else 0,
            "seats": [{"seat": s, "name": self.names[s], "kind": kind,
                       "open": self.names[s] is None, "side": rules.side_of(s),
                       "connected": kind != "human" or s in here,
                       "away": s in self.away, "ready": s in self.ready,
                       "rematch": s in self.rematch}
                      for s, kind in enumerate(self.spec.kinds)],
            "turn": turn,
            "carried": list(self.carried),
            "fair": self.fair_status(game),
        }

    def info(self) -> dict[str, Any]:
        """The table as the HTTP API shows it to anyone holding one of its links."""
        return {"table": self.spec.public(), "status": self.status(),
                "games": list(self.results), "seq": self.seq}

    def _view(self, game: Game | None, seat: int | None) -> dict[str, Any] | None:
        if game is None or not game.hands:
            return None
        return view_json(observe(game, seat) if seat is not None else spectate(game))

    def _frame(self, entry: Entry, seat: int | None, status: str) -> str:
        """A committed row's frame for ``seat``. ``status`` is already JSON text: the same
        for every socket, it is encoded once, not once a socket."""
        if entry.event is None:
            return f'{{"type":"status","seq":{entry.seq},"status":{status}}}'
        event = event_json(entry.event, seat)
        event["seq"] = entry.seq
        return (f'{{"type":"event","seq":{entry.seq},"event":{dumps(event)},'
                f'"view":{dumps(self._view(entry.game, seat))},"status":{status}}}')

    def _state(self, seat: int | None) -> str:
        """Everything a client needs to draw the table now."""
        table = self.table
        game = table.game if table is not None else None
        ended = over = None
        if game is not None and game.hands and game.current is None:
            state = game.hands[-1]
            ended = event_json(HandEnded(0, len(game.hands), game.results[-1], state.deal,
                                         state.hands), seat)
            ended["seq"] = None
        if game is not None and game.winner is not None:
            over = {"winner": game.winner, "scores": list(game.scores),
                    "chips": list(game.chips)}
        return dumps({"type": "state", "seq": self.seq,
                      "you": {"seat": seat, "name": self.names[seat] if seat is not None
                              else None},
                      "table": self.spec.public(), "status": self.status(),
                      "view": self._view(game, seat), "ended": ended, "over": over,
                      "games": list(self.results)})

    def _send(self, entry: Entry) -> None:
        """Send a committed row to every socket, each its own seat's frame."""
        status = dumps(self.status(entry.game))
        built: dict[int | None, str] = {}
        for conn in list(self.conns):
            if conn.seat not in built:
                built[conn.seat] = self._frame(entry, conn.seat, status)
            conn.send(built[conn.seat])

    def announce(self) -> None:
        """Tell every socket the table's status (presence, readiness, the timer): nothing
        stored changed, so the sequence number stays."""
        text = dumps({"type": "status", "seq": self.seq, "status": self.status()})
        for conn in list(self.conns):
            conn.send(text)

    def error(self, conn: Conn, reason: str, ident: str | None) -> None:
        conn.send(dumps({"type": "error", "seq": self.seq, "re": ident, "error": reason}))

    # -- sockets --------------------------------------------------------------------------

    async def attach(self, conn: Conn, last: int | None) -> None:
        """A socket joins: it is sent what it missed since ``last``, or the whole table."""
        async with self.lock:
            connected = conn.seat is not None and any(c.seat == conn.seat
                                                      for c in self.conns)
            self.conns.add(conn)
            missed = [e for e in self.recent if last is not None and e.seq > last]
            caught_up = last is not None and last <= self.seq and (
                last == self.seq or (missed and missed[0].seq == last + 1))
            if caught_up:
                for entry in missed:
                    conn.send(self._frame(entry, conn.seat, dumps(self.status(entry.game))))
                conn.send(dumps({"type": "status", "seq": self.seq, "status": self.status()}))
            else:
                conn.send(self._state(conn.seat))
            if conn.seat is not None and not connected:
                self.announce()

    def detach(self, conn: Conn) -> None:
        """A socket left (nothing to wait for: it must happen even as the server stops)."""
        self.conns.discard(conn)
        if conn.seat is not None and not any(c.seat == conn.seat for c in self.conns):
            self.announce()

    def seen_by(self, conn: Conn) -> OrderedDict[str, None]:
        """Where a socket's message ids are remembered: its seat's (a message replayed on
        another socket of the seat is refused too), or a spectator's own."""
        if conn.seat is None:
            return conn.seen
        return self.seen.setdefault(conn.seat, OrderedDict())

    async def handle(self, conn: Conn, frame: Frame) -> None:
        """A client's frame, after ``hello``. ``Refused`` (or the table's or engine's own
        refusal) when it may not be done; nothing changes then."""
        if not remember(self.seen_by(conn), frame.id):
            raise Refused("that message id was seen before (a message is acted on once)")
        if frame.type == "hello":
            raise Refused("hello is said once, first")
        seat = conn.seat
        if seat is None:
            raise Refused("a spectator only watches")
        if frame.type == "hint":
            await self._hint(conn, seat, frame.id)
            return
        async with self.lock:
            table = self._playing()
            await self._act(table, seat, frame)
        self.kick()

    async def _act(self, table: Table, seat: int, frame: Frame) -> None:
        kind = frame.type
        back = [Item("back", {"seat": seat})] if seat in self.away else []
        if kind == "move":
            move = read_move(frame.fields["move"])
            before = table.game
            events = table.submit(seat, move)  # IllegalMove or TableError: nothing changed
            self.away.discard(seat)
            self._stop_timer()
            await self._apply(before, events, back)
        elif kind == "undo":
            if not self.spec.practice:
                raise Refused("undo is only at practice tables (one person against bots)")
            before = table.game
            events = table.undo(seat)
            self.away.discard(seat)
            self._stop_timer()
            await self._apply(before, events, back)
        elif kind == "next":
            if table.finished or table.game.current is not None:
                raise Refused("there is no hand to deal now" if not table.finished
                              else "the game is over; ask for a rematch")
            self.ready.add(seat)
            await self._back(seat, back)
        elif kind == "rematch":
            if not table.finished:
                raise Refused("the game is not over")
            self.rematch.add(seat)
            await self._back(seat, back)
            if self._everyone(self.rematch):
                await self._new_game()
        elif kind == "back":
            if not back:
                raise Refused("you are not away")
            await self._back(seat, back)

    async def _back(self, seat: int, back: list[Item]) -> None:
        if back:
            self.away.discard(seat)
            await self._show(await self._commit(back))
        else:
            self.announce()

    async def _hint(self, conn: Conn, seat: int, ident: str) -> None:
        if not self.spec.hints:
            raise Refused("hints are off at this table")
        async with self.lock:
            table = self._playing()
            if table.waiting != seat:
                raise Refused("a hint is for your own turn")
            view = table.seat_view(seat)
            seed = self.seed
            names = table.seating.names
        assert seed is not None
        play, why = await self.services.think(hint, view, seed, names)
        conn.send(dumps({"type": "hint", "seq": self.seq, "re": ident,
                         "move": move_json(play), "why": why}))

    # -- joining --------------------------------------------------------------------------

    async def join(self, seat: int | None, name: str, phrase: str = "") -> tuple[int, str]:
        """Give a person an open seat (the first open one when ``seat`` is ``None``), with
        the seed phrase they gave for the fair deals: the seat and its token, the person's
        only key to it. The game starts once every seat is taken."""
        async with self.lock:
            persons = self.spec.persons
            if seat is None:
                seat = next((s for s in persons if self.names[s] is None), None)
                if seat is None:
                    raise SpecError("every seat at this table is taken")
            if seat not in persons:
                raise SpecError(f"seat {seat} is not a person's seat")
            if self.names[seat] is not None:
                raise SpecError(f"seat {seat} is taken")
            if any(n is not None and n.casefold() == name.casefold() for n in self.names):
                raise SpecError("someone at this table already has that name")
            token = tokens.new_token()
            row = LogRow(self.seq + 1, self.game_no, "join",
                         {"seat": seat, "name": name, "seed_phrase": phrase})
            taken = await self.services.db(self.services.store.take_seat, self.id, seat,
                                           name, tokens.digest(token), row)
            if not taken:
                raise SpecError(f"seat {seat} was just taken")
            self.seq += 1
            self.names[seat] = name
            self.phrases[seat] = phrase
            entry = Entry(self.seq, None, None)
            self.recent.append(entry)
            self._send(entry)
            if self.table is None and all(self.names[s] is not None for s in persons):
                await self._new_game()
        self.kick()
        return seat, token

    def _everyone(self, said: set[int]) -> bool:
        """Whether every person not away has said so (ready, rematch); the away persons'
        seats are played for, so they do not hold the table up."""
        present = [s for s in self.spec.persons if s not in self.away]
        return all(s in said for s in present)

    async def _new_game(self) -> None:
        """Start the next game at the table with the same seats (the first, or a rematch);
        at a pool table each seat's chips are carried on."""
        if self.table is not None:
            if self.table.finished:
                self.carried = [a + b for a, b in zip(self.carried, self.table.game.chips,
                                                      strict=True)]
            self.table.close()
        seed = secrets.randbelow(SEEDS)
        self.game_no += 1
        self.seed = seed
        self.started = now()
        started: dict[str, Any] = {"game": self.game_no}
        if self.salt is not None:  # committed (the seed itself never stored) before a deal
            self.fair = self._fair_seeds(self.game_no, self.phrases)
            started["fair"] = fair_json(self.fair, revealed=False)
        self.table = self._make_table(seed)
        self.away_plays = []
        self.rematch.clear()
        self.ready.clear()
        entries = await self._commit([Item("game", started)], new_game=(self.game_no, seed))
        await self._show(entries)

    # -- moving the game on -------------------------------------------------------------------

    def kick(self) -> None:
        """Move the table on in the background: bots, forced moves, deals, the timer."""
        task = asyncio.get_running_loop().create_task(self._drive())
        self.tasks.add(task)
        task.add_done_callback(self._finished_task)

    def _finished_task(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("table %d: %s: %s", self.id, type(exc).__name__, exc)

    async def _drive(self) -> None:
        async with self.lock:
            await self._drive_locked()

    async def _drive_locked(self) -> None:
        """Make every bot's move, forced move and deal due, until a person must act."""
        while self.broken is None and (table := self.table) is not None:
            game = table.game
            if game.finished:
                self._stop_timer()
                return
            if game.current is None:
                hand = (self.game_no, len(game.hands))
                if game.hands and self._pause_over != hand and not self._everyone(self.ready):
                    self._start_timer(("pause", *hand, None))
                    return
                self._stop_timer()
                before = game
                events = table.deal()
                self.ready.clear()
                await self._apply(before, events)
                continue
            seat = table.waiting
            if seat is None:
                self._stop_timer()
                events = await self._advance(table)
                await self._apply(game, events, paced=True)
                continue
            table.advance()  # a person's turn: nothing to make, but the table notes it

            if seat in self.away:
                await self._pause()
                await self._play_for(seat)
                continue
            self._start_timer(("turn", self.game_no, len(game.hands),
                               len(game.hands[-1].moves), seat))
            return

    async def _advance(self, table: Table) -> list[Event]:
        """The bots' moves and the forced ones due. A bot thinks in the pool, so other
        tables go on; at a table of persons only nothing thinks (the moves are forced
        draws and passes), and they are made here, without a round trip to a thread."""
        if all(kind == HUMAN for kind in self.spec.kinds):
            return table.advance()
        return await self.services.think(table.advance)

    async def _pause(self) -> None:
        if self.settings.pace > 0:
            await asyncio.sleep(self.settings.pace)

    async def _play_for(self, seat: int) -> None:
        """Play for a person whose turn timer ran out (the hint's play where hints are on,
        else the greedy bot's); the seat shows as away until the person acts again."""
        table = self._playing()
        view = table.seat_view(seat)
        if self.spec.hints and self.seed is not None:
            play, _ = await self.services.think(hint, view, self.seed, table.seating.names)
        else:
            play = GreedyBot(random.Random(0)).choose(view)
        went = [] if seat in self.away else [Item("away", {"seat": seat})]
        self.away.add(seat)
        before = table.game
        events = [e._replace(by="played-for", why=AWAY) if isinstance(e, Moved) and i == 0
                  else e for i, e in enumerate(table.submit(seat, play))]
        await self._apply(before, events, went)

    # -- the timer ----------------------------------------------------------------------------

    def _start_timer(self, what: tuple[Any, ...]) -> None:
        """Time a person's turn (or the pause between hands), unless it is already timed or
        the table has no timer."""
        if self.spec.timer is None or self._timed == what:
            return
        self._stop_timer()
        loop = asyncio.get_running_loop()
        self._timed = what
        self._deadline = loop.time() + self.spec.timer
        self._timer = loop.create_task(self._expire(what))
        self.tasks.add(self._timer)
        self._timer.add_done_callback(self._finished_task)
        self.announce()

    def _stop_timer(self) -> None:
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer = None
        self._deadline = None
        self._timed = None

    async def _expire(self, what: tuple[Any, ...]) -> None:
        assert self.spec.timer is not None
        await asyncio.sleep(self.spec.timer)
        async with self.lock:
            if self._timed != what or self.broken is not None:
                return
            self._timer = None
            self._stop_timer()
            if what[0] == "pause":
                self._pause_over = (what[1], what[2])
            else:
                await self._play_for(what[-1])
            await self._drive_locked()

    # -- committing and showing -----------------------------------------------------------

    def _items(self, before: Game, events: Iterable[Event]) -> list[Item]:
        """The rows for a batch of the table's events, each with the game just after it."""
        assert self.table is not None
        game = before
        items = []
        for event in events:
            if isinstance(event, HandDealt):
                game = self.table.game
                state = game.hands[event.hand - 1]
                items.append(Item("deal", {"hand": event.hand, "leader": event.leader,
                                           "deal": [[str(t) for t in h] for h in state.deal],
                                           "boneyard": [str(t) for t in state.boneyard]},
                                  event, game))
            elif isinstance(event, Moved):
                game = play_unchecked(game, event.move)
                data = {"hand": event.hand, "number": event.number,
                        "move": move_json(event.move), "by": event.by}
                if event.why is not None:
                    data["why"] = event.why
                if event.by == "played-for":
                    self.away_plays.append({"hand": event.hand, "seat": event.move.seat,
                                            "move": event.number})
                items.append(Item("move", data, event, game))
            elif isinstance(event, HandEnded):
                items.append(Item("hand_ended", {"hand": event.hand}, event, game))
            elif isinstance(event, GameEnded):
                items.append(Item("game_ended", {"winner": event.winner,
                                                 "scores": list(event.scores),
                                                 "chips": list(event.chips)}, event, game))
            else:
                assert isinstance(event, Undone)
                game = self.table.game
                self.away_plays = [p for p in self.away_plays
                                   if p["hand"] != event.hand or p["move"] <= event.moves]
                items.append(Item("undo", {"seat": event.seat, "hand": event.hand,
                                           "tile": str(event.tile), "moves": event.moves},
                                  event, game))
        return items

    async def _apply(self, before: Game, events: list[Event], first: Iterable[Item] = (),
                     paced: bool = False) -> None:
        """Commit a batch of the table's events (after ``first``), then show it."""
        items = [*first, *self._items(before, events)]
        finished = None
        ended = next((e for e in events if isinstance(e, GameEnded)), None)
        if ended is not None:
            result = {"winner": ended.winner, "scores": list(ended.scores),
                      "chips": list(ended.chips)}
            finished = Finished(self.game_no, now(), result, self._record())
        entries = await self._commit(items, finished=finished)
        if finished is not None:
            self.results.append({"game": self.game_no, **finished.result})
        await self._show(entries, paced)

    async def _commit(self, items: list[Item], new_game: tuple[int, int] | None = None,
                      finished: Finished | None = None) -> list[Entry]:
        """Append the rows and commit them; nobody hears of them before this returns. A
        table that cannot be saved stops: its sockets are told, and it is taken up again
        from its log by the next client that comes."""
        rows = [LogRow(self.seq + n, self.game_no, item.kind, item.data)
                for n, item in enumerate(items, 1)]
        try:
            await self.services.append(self.id, rows, new_game, finished)
        except Exception as exc:
            self.broken = f"{type(exc).__name__}: {exc}"
            log.error("table %d: could not save; reloading it from its log (%s)", self.id,
                      self.broken)
            self._stop_timer()
            for conn in list(self.conns):
                self.error(conn, "the table could not be saved; connect again", None)
                conn.close()
            raise Broken("the table could not be saved") from None
        entries = [Entry(row.seq, item.event, item.game) for row, item in zip(rows, items,
                                                                               strict=True)]
        self.seq += len(rows)
        self.recent.extend(entries)
        return entries

    async def _show(self, entries: list[Entry], paced: bool = False) -> None:
        for entry in entries:
            if paced and isinstance(entry.event, Moved) and entry.event.by != "person":
                await self._pause()
            self._send(entry)

    def _record(self) -> str:
        """The finished game's ``bones-record/1``, seed and all."""
        assert self.table is not None
        game = self.table.game
        # a fair game's deals come from its seeds, not from ``seed`` (which moves the bots)
        dealt = [(FIELD, fair_json(self.fair, revealed=True))] if self.fair is not None \
            else [("seed", self.seed)]
        extra: list[tuple[str, Any]] = [*dealt, ("started", self.started), ("ended", now()),
                                        ("x-seats", list(self.spec.kinds)),
                                        ("x-web", {"game": self.game_no})]
        if self.away_plays:
            extra.append(("x-away", list(self.away_plays)))
        if self.table.undone:
            extra.append(("x-undo", self.table.undone))
        names = [n if n is not None else f"Player {s + 1}" for s, n in enumerate(self.names)]
        return dump(record_of(game, names, extra))

    async def close(self) -> None:
        """Stop the timer and the background work, and end the bots."""
        self._stop_timer()
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        if self.table is not None:
            self.table.close()

