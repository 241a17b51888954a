"""``bones serve``: the web table, one process serving pages, static files and WebSockets.

This module reads the flags, names where the data goes, and runs the server under uvicorn;
the server itself is ``bones.server``. Its packages (Starlette, uvicorn, SQLAlchemy,
Alembic) are the ``web`` extra: without them the command says how to install them.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from pathlib import Path

from bones.cli.common import cores, nonempty_path
from bones.cli.rules import everything_json
from bones.engine.errors import BonesError

#: Where the database goes when ``--db`` names none.
DATA = "bones-data"


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value}")
    return value


def _pace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"the pace is 0 to 10 seconds, not {text}")
    return value


def _api_rate(text: str) -> float | None:
    if text == "off":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of requests a second "
                                         "(or off)") from None
    if not 0 < value <= 100_000:
        raise argparse.ArgumentTypeError(f"the API rate is above 0 (or off), not {text}")
    return value


def _idle(text: str) -> float | None:
    if text == "off":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes (or off)") \
            from None
    if not 0 < value <= 10_000:
        raise argparse.ArgumentTypeError(f"idle minutes are above 0 (or off), not {text}")
    return value * 60


def quieten_collector() -> None:
    """Tune Python's cyclic garbage collector for a long-running server. A full collection
    walks every object alive (each socket's coroutines, each table's recent games: some
    hundred thousand at 200 tables) and stops every table while it does; young objects
    are collected every 700 allocations by default, so whatever a move has in hand then
    survives into the old generation, whose growth sets off the full walks. So what the
    start made (modules, the rules catalog) is frozen out of every walk, and young
    objects are collected every 20,000 allocations, the old ones less often: at 200
    four-seat tables this cut the round trip's p99 by about half (benchmarks/README.md)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve", help="run the web table: a lobby, tables in the browser, spectators",
        description="Serve the web table: make a table in the lobby, send the invite link, "
        "play in the browser against people and bots. Everything is kept in a database "
        "(an SQLite file in --data unless --db names another), so the server may be "
        "stopped and started again without losing a move. See docs/web.md.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; "
                   "0.0.0.0 for every network the machine is on)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000)")
    p.add_argument("--data", type=nonempty_path, metavar="DIR",
                   help=f"folder for the database when --db is not given, and for the key of "
                   f"the fair deals, fair.key (default ./{DATA}; with --db naming an SQLite "
                   "file, that file's folder)")
    p.add_argument("--db", metavar="URL",
                   help="a SQLAlchemy database URL instead (sqlite:///path.db, "
                   "postgresql://...); the schema is migrated at start")
    p.add_argument("--pace", type=_pace, default=0.6, metavar="SECONDS",
                   help="pause between bot moves shown at a table (default 0.6)")
    p.add_argument("--api-rate", type=_api_rate, default=2.0, metavar="PER_SECOND",
                   help="JSON API requests a second each client address may make, in bursts "
                   "of 30 (default 2); off: no limit, for a load test from one address or "
                   "behind a proxy that limits")
    p.add_argument("--idle", type=_idle, default="10", metavar="MINUTES",
                   help="drop a table from memory after this long with nobody connected "
                   "(default 10); it is taken up from its log when next asked for; off: "
                   "keep every table until the server stops")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        from bones.server import fairplay, migrate
        from bones.server.app import create_app
        from bones.server.settings import Settings
        from bones.server.store import make_engine
    except ImportError as exc:
        raise BonesError(f"bones serve needs the web packages ({exc.name} is missing): "
                         "pip install 'bones[web]', or make serve") from None
    keys: str | None = args.data  # where fair.key goes (bones.server.fairplay)
    if args.db is None:
        data = Path(args.data or DATA)
        keys = str(data)
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BonesError(f"cannot make the data folder {data}: "
                             f"{exc.strerror or exc}") from None
        url = f"sqlite:///{(data / 'bones.db').resolve()}"
        where = f"data in {data.resolve()}"
    else:
        url = args.db
        try:
            shown = make_url(url).render_as_string(hide_password=True)
        except ArgumentError:
            raise BonesError(f"--db: {url!r} is not a database URL (sqlite:///bones.db, "
                             "postgresql://user@host/bones)") from None
        where = f"database {shown}"
        if keys is None and make_url(url).get_backend_name() != "sqlite":
            keys = DATA
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s",
                        stream=sys.stderr)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # Opened and migrated here first, so a database that cannot be reached or written is
    # one line, not a server that fails to start (the server migrates again: a no-op).
    try:
        engine = make_engine(url)
        try:
            migrate.upgrade(engine)
        finally:
            engine.dispose()
    except Exception as exc:  # a missing driver, a refused connection, a read-only file
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise BonesError(f"cannot open the database ({where}): {reason}") from None
    settings = Settings(db_url=url, catalog=everything_json(), pace=args.pace,
                        workers=max(2, cores()), data=keys, api_rate=args.api_rate,
                        idle_seconds=args.idle)
    fairplay.server_key(settings)  # made or read now: a key that cannot be is one line
    quieten_collector()
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"bones serve: {where}; open http://{host}:{args.port}/", file=sys.stderr,
          flush=True)
    # Frames over 64 KiB are cut off by the WebSocket layer itself; the server's own limit
    # (4 KiB) answers anything between with an error frame.
    uvicorn.run(create_app(settings), host=args.host, port=args.port, ws_max_size=65536,
                log_level="info", server_header=False)
    return 0
