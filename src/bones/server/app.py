"""The Starlette application: the pages, the static files, the JSON API and the WebSocket.

Tokens never travel in a URL the server sees: links carry them after ``#`` (a fragment,
which a browser keeps to itself), and the page sends them in request bodies and in the
socket's ``hello``, so no access log, proxy or ``Referer`` holds one. Every response
carries a Content-Security-Policy that allows no inline script.
"""

from __future__ import annotations

import gzip
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bones.ai.levels import LEVELS
from bones.engine.errors import BonesError
from bones.server import fairplay, migrate, tokens
from bones.server.frames import Bucket, FrameError, dumps, read_json
from bones.server.hub import Hub
from bones.server.replay import MAX_BODY, MAX_RECORD, Busy, Viewer, replay_text
from bones.server.settings import Settings
from bones.server.sockets import endpoint
from bones.server.spec import MAX_NAME, MAX_PLAYERS, THINK, TIMER, read_name, read_spec
from bones.server.store import Store, make_engine

log = logging.getLogger("bones.server")

STATIC = Path(__file__).resolve().with_name("static")

#: No script but the server's own files, no inline script or style, no frames, no plugins.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
       "form-action 'self'")
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}
#: Client addresses whose API rate is tracked at once; past this the oldest are forgotten.
TRACKED = 10_000
#: Seat tokens a games page may ask about at once.
MAX_TOKENS = 100


class ApiError(BonesError):
    """A refused API request: its HTTP status and the one-line reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, sending)


def json_response(doc: Any, status: int = 200) -> Response:
    return Response(dumps(doc), status_code=status, media_type="application/json",
                    headers={"cache-control": "no-store"})


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def body(request: Request, most_bytes: int | None = None) -> dict[str, Any]:
    """The request's JSON object, within the size and depth limits (``most_bytes``: a
    route's own size limit, for the replay routes that carry a record)."""
    hub = hub_of(request)
    settings = hub.settings
    limit = settings.body_bytes if most_bytes is None else most_bytes
    address = request.client.host if request.client is not None else "?"
    if settings.api_rate is not None:
        buckets: dict[str, Bucket] = request.app.state.buckets
        bucket = buckets.get(address)
        if bucket is None:
            if len(buckets) >= TRACKED:
                buckets.clear()
            bucket = buckets[address] = Bucket(settings.api_rate, settings.api_burst)
        if not bucket.take():
            raise ApiError(429, "too many requests; wait a moment")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise ApiError(413, f"a request may hold at most {limit} bytes")
    try:
        doc = read_json(data.decode("utf-8"), limit, 6)
    except UnicodeDecodeError:
        raise ApiError(400, "a request is UTF-8 JSON") from None
    except FrameError as exc:
        raise ApiError(400, str(exc)) from None
    if not isinstance(doc, dict):
        raise ApiError(400, "a request is a JSON object")
    return doc


def api(handler: Any) -> Any:
    """An API route: refusals become ``{"error": reason}`` with their status, and one line
    in the log; nothing else escapes as a traceback."""

    async def route(request: Request) -> Response:
        try:
            answer: Response = await handler(request)
            return answer
        except ApiError as exc:
            log.info("%s %s: refused (%d): %s", request.method, request.url.path, exc.status,
                     exc)
            return json_response({"error": str(exc)}, exc.status)
        except BonesError as exc:
            log.info("%s %s: refused: %s", request.method, request.url.path, exc)
            return json_response({"error": str(exc)}, 400)
        except Exception as exc:
            log.error("%s %s: internal error: %s: %s", request.method, request.url.path,
                      type(exc).__name__, exc)
            return json_response({"error": "internal error"}, 500)

    return route


# -- pages -----------------------------------------------------------------------------------


def page(name: str) -> Any:
    async def serve(request: Request) -> Response:
        return FileResponse(STATIC / name, media_type="text/html",
                            headers={"cache-control": "no-cache"})

    return serve


# -- the API ---------------------------------------------------------------------------------


async def rules(request: Request) -> Response:
    """``GET /api/rules``: what the lobby builds its form from."""
    settings = hub_of(request).settings
    return json_response({
        "catalog": settings.catalog, "levels": list(LEVELS), "person": "human",
        "limits": {"players": MAX_PLAYERS, "think": list(THINK), "timer": list(TIMER),
                   "name": MAX_NAME},
    })


def links(invite: str) -> dict[str, str]:
    return {"join": f"/table#join={invite}", "watch": f"/table#watch={tokens.watch_of(invite)}"}


async def create(request: Request) -> Response:
    """``POST /api/tables``: a new table; its invite and spectator links, shown only now."""
    hub = hub_of(request)
    spec = read_spec(await body(request))
    invite = tokens.new_token()
    watch = tokens.watch_of(invite)
    # the salt of the table's fair deals (bones.server.fairplay) is kept with its spec
    stored = {**spec.to_json(), "fair": {"salt": fairplay.new_salt()}}
    table_id = await hub.db(hub.store.create_table, stored, tokens.digest(invite),
                            tokens.digest(watch), spec.kinds, spec.bot_names())
    log.info("table %d made: %d seats (%s)", table_id, len(spec.kinds), ", ".join(spec.kinds))
    return json_response({"invite": invite, "watch": watch, "links": links(invite),
                          "table": spec.public()}, 201)


async def _table_by(hub: Hub, doc: dict[str, Any], *kinds: str) -> tuple[int, str]:
    """The table a request names by one of its links (``invite``, ``watch``) or a seat
    ``token``: its id and which link it was."""
    for kind in kinds:
        value = doc.get(kind)
        if value is None:
            continue
        if not tokens.plausible(value):
            break
        if kind == "token":
            seat = await hub.db(hub.store.find_seat, value)
            found = seat[0] if seat is not None else None
        else:
            found = await hub.db(hub.store.find_table, kind, value)
        if found is not None:
            return found, kind
        break
    raise ApiError(404, "no table has that link")


async def table(request: Request) -> Response:
    """``POST /api/table`` with ``invite`` or ``watch``: the table as it stands (the invite
    also gives the spectator link, to pass on)."""
    hub = hub_of(request)
    doc = await body(request)
    table_id, kind = await _table_by(hub, doc, "invite", "watch")
    live = await hub.round(table_id)
    if live is None:
        raise ApiError(503, "that table cannot be opened now")
    info = live.info()
    if kind == "invite":
        info["links"] = links(doc["invite"])
    return json_response(info)


async def join(request: Request) -> Response:
    """``POST /api/join`` with ``invite``, ``name`` and optionally ``seat`` and
    ``seed_phrase`` (the person's seed of the fair deals): the seat and its token, the
    person's only key to it (kept by their browser)."""
    hub = hub_of(request)
    doc = await body(request)
    table_id, _ = await _table_by(hub, doc, "invite")
    name = read_name(doc.get("name"))
    phrase = fairplay.read_phrase(doc.get("seed_phrase"))
    seat = doc.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise ApiError(400, "seat: a seat number, or leave it out for the first open seat")
    live = await hub.round(table_id)
    if live is None:
        raise ApiError(503, "that table cannot be opened now")
    taken, token = await live.join(seat, name, phrase)
    log.info("table %d: seat %d taken", table_id, taken)
    return json_response({"seat": taken, "token": token, "name": name})


async def games(request: Request) -> Response:
    """``POST /api/games`` with ``tokens``: the games played at each seat the tokens hold,
    each naming the index of its token (to download its record with)."""
    hub = hub_of(request)
    given = (await body(request)).get("tokens")
    if not isinstance(given, list) or len(given) > MAX_TOKENS:
        raise ApiError(400, f"tokens: a list of at most {MAX_TOKENS} seat tokens")
    found = []
    for index, token in enumerate(given):
        seat = await hub.db(hub.store.find_seat, token) if tokens.plausible(token) else None
        if seat is not None:
            for game in await hub.db(hub.store.games_of, [seat]):
                found.append({"token": index, **game})
    return json_response({"games": found})


async def record(request: Request) -> Response:
    """``POST /api/record`` with a seat ``token`` or ``watch`` and ``game``: the finished
    game's ``bones-record/1``, as stored (a game in play has none to give: its record
    would show every hand)."""
    doc = await body(request)
    table_id, number, text = await _stored_record(
        hub_of(request), doc, "records are kept once a game is over")
    return Response(text, media_type="application/json", headers={
        "content-disposition": f'attachment; filename="bones-table{table_id}-game{number}.json"',
        "cache-control": "no-store"})


async def _record_text(request: Request, doc: dict[str, Any]) -> str:
    """The record a replay request names: an uploaded one (``record``, the file's text), or
    a stored game's (a seat ``token`` or ``watch``, and ``game``), which exists only once
    the game is over (a game in play would show every hand)."""
    if "record" in doc:
        given = doc["record"]
        if not isinstance(given, str):
            raise ApiError(400, "record: the record file's text, as a string")
        if any(k in doc for k in ("token", "watch", "game")):
            raise ApiError(400, "name either a record or a stored game, not both")
        size = len(given.encode("utf-8", "surrogatepass"))
        if size > MAX_RECORD:
            raise ApiError(413, f"a record to replay may hold at most {MAX_RECORD:,} bytes "
                           f"(1 MiB), not {size:,}")
        return given
    _, _, text = await _stored_record(hub_of(request), doc,
                                      "a game is replayed once it is over")
    return text


async def _stored_record(hub: Hub, doc: dict[str, Any], why: str) -> tuple[int, int, str]:
    """The table, the game's number and the stored record of the game a request names (a
    seat ``token`` or ``watch``, and ``game``); 404, saying ``why``, while it is in play."""
    table_id, _ = await _table_by(hub, doc, "token", "watch")
    number = doc.get("game")
    if not isinstance(number, int) or isinstance(number, bool):
        raise ApiError(400, "game: the game's number at the table, from 1")
    text = await hub.db(hub.store.record, table_id, number)
    if text is None:
        raise ApiError(404, f"game {number} has no record yet: {why}")
    return table_id, number, text


def _viewer(request: Request) -> Viewer:
    viewer: Viewer = request.app.state.viewer
    return viewer


def _replay_answer(text: str, gzipped: bool) -> tuple[bytes, bool]:
    """The replay as JSON bytes, and whether they are compressed: they are where the client
    takes it and it is worth it (the boards after every move repeat themselves)."""
    data = dumps(replay_text(text)).encode("ascii")
    if gzipped and len(data) > 32768:
        return gzip.compress(data, 6), True
    return data, False


async def replay(request: Request) -> Response:
    """``POST /api/replay`` with an uploaded ``record`` (its text) or a stored game (a seat
    ``token`` or ``watch``, and ``game``): every hand move by move, all seats' tiles open,
    the record checked first as ``bones replay`` checks it."""
    doc = await body(request, MAX_BODY)
    text = await _record_text(request, doc)
    gzipped = "gzip" in request.headers.get("accept-encoding", "")
    try:
        viewer = _viewer(request)
        data, compressed = await viewer.run(viewer.reading, _replay_answer, text, gzipped)
    except Busy as exc:
        raise ApiError(503, str(exc)) from None
    headers = {"cache-control": "no-store", "vary": "accept-encoding"}
    if compressed:
        headers["content-encoding"] = "gzip"
    return Response(data, media_type="application/json", headers=headers)


async def review(request: Request) -> Response:
    """``POST /api/review`` with the record as ``/api/replay`` takes it, and ``hand`` (from
    1): that hand's costly plays, every seat, worst first (``bones.server.replay``)."""
    doc = await body(request, MAX_BODY)
    number = doc.get("hand")
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise ApiError(400, "hand: the hand's number in the game, from 1")
    text = await _record_text(request, {k: v for k, v in doc.items() if k != "hand"})
    try:
        return json_response(await _viewer(request).review(text, number))
    except Busy as exc:
        raise ApiError(503, str(exc)) from None


# -- the application ---------------------------------------------------------------------------


def create_app(settings: Settings) -> Starlette:
    """The server: migrate the database, then serve. State lives in the app (``state.hub``),
    not in module globals, so tests may run several side by side."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = make_engine(settings.db_url)
        await anyio.to_thread.run_sync(migrate.upgrade, engine)
        store = Store(engine)
        hub = Hub(store, settings)
        hub.start()
        app.state.hub = hub
        app.state.buckets = {}
        app.state.viewer = Viewer()
        try:
            yield
        finally:
            await hub.close()
            store.close()

    routes = [
        Route("/", page("index.html")),
        Route("/table", page("table.html")),
        Route("/games", page("games.html")),
        Route("/verify", page("verify.html")),
        Route("/replay", page("replay.html")),
        Route("/api/rules", api(rules)),
        Route("/api/tables", api(create), methods=["POST"]),
        Route("/api/table", api(table), methods=["POST"]),
        Route("/api/join", api(join), methods=["POST"]),
        Route("/api/games", api(games), methods=["POST"]),
        Route("/api/record", api(record), methods=["POST"]),
        Route("/api/replay", api(replay), methods=["POST"]),
        Route("/api/review", api(review), methods=["POST"]),
        WebSocketRoute("/ws", endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
    return app
