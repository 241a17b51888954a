"""What a server is started with: where its database is, and the limits it keeps."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Settings:
    """A server's settings. ``catalog`` is ``bones rules --json``'s data (every preset and
    option with its choices): the command line builds it and hands it in, the server only
    serves it, so the lobby's form and the terminal's flags come from one place."""

    #: A SQLAlchemy URL (``sqlite:///bones-data/bones.db``).
    db_url: str
    catalog: Mapping[str, Any] = field(default_factory=dict)
    #: Seconds between two bot or forced moves shown to the table, so people can follow
    #: them; 0 in tests. The moves are stored at once, whatever the pace.
    pace: float = 0.6
    #: Threads that run the bots' thinking (``Table.advance``) and hints, for all tables.
    workers: int = 4
    #: The largest frame a client may send, in bytes of UTF-8, and how deep its JSON may
    #: nest (a move is two levels deep).
    frame_bytes: int = 4096
    frame_depth: int = 4
    #: The token bucket of each connection: messages per second, and the burst it allows.
    rate: float = 5.0
    burst: int = 20
    #: Seconds a new socket has to say ``hello`` before it is closed.
    hello_seconds: float = 10.0
    #: Frames waiting to go out to one socket before it is given up as too slow.
    send_queue: int = 512
    #: The largest request body of the JSON API, in bytes.
    body_bytes: int = 16384
    #: Requests a second each client address may make of the JSON API, and its burst;
    #: ``None``: no limit (``bones serve --api-rate off``), for a load test that makes
    #: hundreds of tables from one address, or a server behind a proxy that limits.
    api_rate: float | None = 2.0
    api_burst: int = 30
    #: The folder of the server's own files besides the database (the fair-deal key,
    #: ``bones.server.fairplay``); ``None``: the SQLite file's folder.
    data: str | None = None
    #: Seconds a live table may sit idle (no socket connected, no bot move or timer
    #: running) before it is dropped from memory; the next client to ask for it takes it
    #: up again from its log. ``None``: kept until the server stops.
    idle_seconds: float | None = 600.0
