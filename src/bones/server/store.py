"""The database: every table, its seats, its games and its log of moves, through SQLAlchemy
Core (any database SQLAlchemy speaks; SQLite by default).

The log is appended, never rewritten: a deal, a move, a play taken back, a seat joining or
going away each add a row numbered by the table's sequence number, committed before any
client hears of it. A table is rebuilt from its log (``bones.server.restore``) when the
server starts again. Tokens are stored only as their SHA-256 (``bones.server.tokens``).

Every method is synchronous and short; the server calls them from a worker thread, one at
a time (``Hub.db``), so the event loop never waits on a disk.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

from bones.server import tokens

metadata = MetaData()

#: One row per table: when it was made, the hashes of its invite and spectator links, and
#: its ``TableSpec`` as JSON.
tables = SqlTable(
    "tables", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created", String(32), nullable=False),
    Column("invite_hash", String(64), nullable=False, unique=True),
    Column("watch_hash", String(64), nullable=False, unique=True),
    Column("spec", Text, nullable=False),
)

#: One row per seat: its kind, the name shown, and for a person's seat once taken the hash
#: of the seat token and when it was taken.
seats = SqlTable(
    "seats", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(32), nullable=False),
    Column("name", Text),
    Column("token_hash", String(64), unique=True),
    Column("joined", String(32)),
)

#: One row per game played at a table (a rematch is the next number): the seed that deals
#: it (never sent to a client), and once it is over its result and its ``bones-record/1``.
games = SqlTable(
    "games", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seed", BigInteger, nullable=False),
    Column("started", String(32), nullable=False),
    Column("ended", String(32)),
    Column("result", Text),
    Column("record", Text),
)

#: The table's log, one row per sequence number: ``kind`` (``join``, ``game``, ``deal``,
#: ``move``, ``undo``, ``hand_ended``, ``game_ended``, ``away``, ``back``) and its data.
log = SqlTable(
    "log", metadata,
    Column("table_id", Integer, ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("game", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
    Column("at", String(32), nullable=False),
)


def now() -> str:
    """The time now, as ISO 8601 in UTC (to the second), as records write it."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class LogRow:
    seq: int
    game: int
    kind: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    name: str | None
    taken: bool


@dataclass(frozen=True, slots=True)
class GameRow:
    number: int
    seed: int
    started: str
    ended: str | None
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Loaded:
    """Everything stored of one table."""

    id: int
    spec: dict[str, Any]
    seats: list[SeatRow]
    games: list[GameRow]
    log: list[LogRow]


@dataclass(frozen=True, slots=True)
class Finished:
    """A game that ended: what ``games`` keeps of it."""

    number: int
    ended: str
    result: dict[str, Any]
    record: str


@dataclass(frozen=True, slots=True)
class Append:
    """What one table appends in one go: rows of its log, with the start of a game (its
    number and seed) or the end of one."""

    table_id: int
    rows: list[LogRow]
    new_game: tuple[int, int] | None = None
    finished: Finished | None = None


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite waits for a lock rather than failing at once, writes
    ahead (readers never block the writer) and syncs every commit to disk."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                           poolclass=StaticPool if memory else None)

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, record: Any) -> None:
        cursor = connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


class Store:
    """The server's database. Every write is one transaction, committed on return."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def close(self) -> None:
        self.engine.dispose()

    # -- tables and seats ------------------------------------------------------------------

    def create_table(self, spec: dict[str, Any], invite_hash: str, watch_hash: str,
                     kinds: Sequence[str], names: dict[int, str]) -> int:
        """A new table with its seats (bots named, persons' seats open); its id."""
        with self.engine.begin() as db:
            made = db.execute(insert(tables).values(
                created=now(), invite_hash=invite_hash, watch_hash=watch_hash,
                spec=json.dumps(spec)))
            key = made.inserted_primary_key
            assert key is not None
            table_id = int(key[0])
            db.execute(insert(seats), [{"table_id": table_id, "seat": seat, "kind": kind,
                                        "name": names.get(seat)}
                                       for seat, kind in enumerate(kinds)])
        return table_id

    def find_table(self, link: str, token: str) -> int | None:
        """The table whose invite (``link="invite"``) or spectator (``"watch"``) token is
        ``token``."""
        column = tables.c.invite_hash if link == "invite" else tables.c.watch_hash
        with self.engine.connect() as db:
            row = db.execute(select(tables.c.id, column)
                             .where(column == tokens.digest(token))).first()
        return int(row[0]) if row is not None and tokens.same(token, row[1]) else None

    def find_seat(self, token: str) -> tuple[int, int] | None:
        """The table and seat whose seat token is ``token``."""
        with self.engine.connect() as db:
            row = db.execute(select(seats.c.table_id, seats.c.seat, seats.c.token_hash)
                             .where(seats.c.token_hash == tokens.digest(token))).first()
        if row is None or not tokens.same(token, row[2]):
            return None
        return int(row[0]), int(row[1])

    def take_seat(self, table_id: int, seat: int, name: str, token_hash: str,
                  row: LogRow) -> bool:
        """Give the open seat to a person (and log it); false if it was taken meanwhile."""
        with self.engine.begin() as db:
            done = db.execute(update(seats)
                              .where(seats.c.table_id == table_id, seats.c.seat == seat,
                                     seats.c.token_hash.is_(None))
                              .values(name=name, token_hash=token_hash, joined=now()))
            if done.rowcount != 1:
                return False
            _append(db, table_id, [row])
        return True

    # -- the log ------------------------------------------------------------------------------

    def append(self, table_id: int, rows: Iterable[LogRow],
               new_game: tuple[int, int] | None = None,
               finished: Finished | None = None) -> None:
        """Append ``rows`` to the table's log in one transaction, with the start of a game
        (its number and seed) or the end of one (its result and record)."""
        with self.engine.begin() as db:
            _write(db, Append(table_id, list(rows), new_game, finished))

    def append_many(self, appends: Sequence[Append]) -> list[Exception | None]:
        """Commit what several tables append in one transaction: one sync to disk for all
        of them, where each in its own would wait for a sync of its own. Should that
        transaction fail, each is tried again in a transaction of its own, so one table's
        bad rows fail only that table. Each one's fault, or ``None`` once committed."""
        try:
            with self.engine.begin() as db:
                _write_many(db, appends)
            return [None] * len(appends)
        except Exception:
            if len(appends) == 1:
                raise
        faults: list[Exception | None] = []
        for one in appends:
            try:
                with self.engine.begin() as db:
                    _write(db, one)
                faults.append(None)
            except Exception as exc:
                faults.append(exc)
        return faults

    def load(self, table_id: int) -> Loaded | None:
        """Everything stored of a table, or ``None`` if there is no such table."""
        with self.engine.connect() as db:
            spec = db.execute(select(tables.c.spec).where(tables.c.id == table_id)).scalar()
            if spec is None:
                return None
            seat_rows = db.execute(select(seats.c.seat, seats.c.kind, seats.c.name,
                                          seats.c.token_hash)
                                   .where(seats.c.table_id == table_id)
                                   .order_by(seats.c.seat)).all()
            game_rows = db.execute(select(games.c.number, games.c.seed, games.c.started,
                                          games.c.ended, games.c.result)
                                   .where(games.c.table_id == table_id)
                                   .order_by(games.c.number)).all()
            log_rows = db.execute(select(log.c.seq, log.c.game, log.c.kind, log.c.data)
                                  .where(log.c.table_id == table_id)
                                  .order_by(log.c.seq)).all()
        return Loaded(
            table_id, json.loads(spec),
            [SeatRow(int(r[0]), r[1], r[2], r[3] is not None) for r in seat_rows],
            [GameRow(int(r[0]), int(r[1]), r[2], r[3],
                     json.loads(r[4]) if r[4] is not None else None) for r in game_rows],
            [LogRow(int(r[0]), int(r[1]), r[2], json.loads(r[3])) for r in log_rows])

    # -- games and records --------------------------------------------------------------------

    def games_of(self, found: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
        """The games played at each (table, seat) given, newest table first: each game's
        number, when it started and ended, and its result once over."""
        out = []
        with self.engine.connect() as db:
            for table_id, seat in sorted(set(found), reverse=True):
                spec = db.execute(select(tables.c.spec)
                                  .where(tables.c.id == table_id)).scalar()
                names = [r[0] for r in db.execute(select(seats.c.name)
                                                  .where(seats.c.table_id == table_id)
                                                  .order_by(seats.c.seat))]
                for r in db.execute(select(games.c.number, games.c.started, games.c.ended,
                                           games.c.result)
                                    .where(games.c.table_id == table_id)
                                    .order_by(games.c.number)):
                    out.append({"seat": seat, "game": int(r[0]), "started": r[1],
                                "ended": r[2], "names": names,
                                "rules": json.loads(spec)["rules"] if spec else None,
                                "result": json.loads(r[3]) if r[3] is not None else None})
        return out

    def record(self, table_id: int, number: int) -> str | None:
        """The ``bones-record/1`` text of a finished game, as stored."""
        with self.engine.connect() as db:
            text = db.execute(select(games.c.record)
                              .where(games.c.table_id == table_id,
                                     games.c.number == number)).scalar()
        return str(text) if text is not None else None


def _write(db: Connection, one: Append) -> None:
    _write_many(db, [one])


def _write_many(db: Connection, appends: Sequence[Append]) -> None:
    """Every table's new games, then all their rows in one statement (one round trip to
    the database, however many tables), then their finished games."""
    started = [{"table_id": one.table_id, "number": one.new_game[0],
                "seed": one.new_game[1], "started": now()}
               for one in appends if one.new_game is not None]
    if started:
        db.execute(insert(games), started)
    at = now()
    values = [{"table_id": one.table_id, "seq": r.seq, "game": r.game, "kind": r.kind,
               "data": json.dumps(r.data), "at": at} for one in appends for r in one.rows]
    if values:
        db.execute(insert(log), values)
    for one in appends:
        if one.finished is not None:
            db.execute(update(games)
                       .where(games.c.table_id == one.table_id,
                              games.c.number == one.finished.number)
                       .values(ended=one.finished.ended,
                               result=json.dumps(one.finished.result),
                               record=one.finished.record))


def _append(db: Connection, table_id: int, rows: Iterable[LogRow]) -> None:
    _write_many(db, [Append(table_id, list(rows))])
