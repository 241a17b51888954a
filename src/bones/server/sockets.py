"""The WebSocket endpoint (``/ws``): a socket says ``hello`` with a seat token (or a
spectator link), then sends frames that the table's ``Round`` acts on.

Each socket has a queue of frames going out (a slow reader never holds a table up; one
that falls too far behind is closed), a token bucket for what comes in, and the limits of
``bones.server.frames``. Every refusal is one error frame to the sender and one line in
the server's log, never a traceback; nothing at the table changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.websockets import WebSocket, WebSocketDisconnect

from bones.engine.errors import BonesError
from bones.server import tokens
from bones.server.frames import Bucket, Frame, FrameError, dumps, read_frame
from bones.server.hub import Hub
from bones.server.round import Broken, Round, remember
from bones.server.settings import Settings

log = logging.getLogger("bones.server")

#: Hellos a socket may get wrong before it is closed.
HELLO_TRIES = 3


def origin_allowed(headers: Headers) -> bool:
    """Whether a WebSocket's ``Origin`` (sent by every browser) is this server's own host:
    a page from elsewhere may not talk to the table in a visitor's name. A client that
    sends no ``Origin`` is not a browser, and proves itself by its tokens like any other."""
    origin = headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and \
        parts.netloc.lower() == headers.get("host", "").lower()


class Socket:
    """One client's connection, as its ``Round`` sees it (``Conn``)."""

    def __init__(self, ws: WebSocket, settings: Settings) -> None:
        self.ws = ws
        self.settings = settings
        self.seat: int | None = None
        self.seen: OrderedDict[str, None] = OrderedDict()
        self.table_id: int | None = None
        #: The table once ``hello`` named it (its sequence number goes on every error frame).
        self.live: Round | None = None
        self._out: asyncio.Queue[str | None] = asyncio.Queue(maxsize=settings.send_queue)
        self._bucket = Bucket(settings.rate, settings.burst)
        self._flooded = False
        self._closing = False
        self._pump: asyncio.Task[None] | None = None
        client = ws.client
        self.peer = f"{client.host}:{client.port}" if client is not None else "?"

    # -- going out ------------------------------------------------------------------------

    def send(self, text: str) -> None:
        if self._closing:
            return
        try:
            self._out.put_nowait(text)
        except asyncio.QueueFull:
            log.info("%s: too slow to read its frames; closed", self.who())
            self.close()

    def close(self) -> None:
        """Close the socket once what is queued has gone."""
        if self._closing:
            return
        self._closing = True
        try:
            self._out.put_nowait(None)
        except asyncio.QueueFull:
            if self._pump is not None:
                self._pump.cancel()

    async def _send_all(self) -> None:
        while (text := await self._out.get()) is not None:
            await self.ws.send_text(text)
        await self.ws.close(code=1000)

    def error(self, reason: str, ident: str | None, seq: int = 0) -> None:
        self.send(dumps({"type": "error", "seq": seq, "re": ident, "error": reason}))

    def who(self) -> str:
        where = f" table {self.table_id}" if self.table_id is not None else ""
        seat = f" seat {self.seat}" if self.seat is not None else \
            (" spectator" if self.table_id is not None else "")
        return f"ws {self.peer}{where}{seat}"

    # -- coming in ------------------------------------------------------------------------

    async def _text(self) -> str | None:
        """The next text frame that passes the rate limit; ``None`` once the client left.
        A binary frame is refused (frames are JSON text)."""
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return None
            # a flood is told once: until the client has paused long enough for half a
            # burst to drip back in, what it sends past the limit is dropped unsaid
            if self._flooded and self._bucket.refill() >= self.settings.burst / 2:
                self._flooded = False
            if not self._bucket.take():
                if not self._flooded:
                    self._flooded = True
                    self._refuse(f"too many messages: at most {self.settings.rate:g} a second "
                                 f"(bursts of {self.settings.burst}); the rest are dropped",
                                 None)
                continue
            text = message.get("text")
            if text is None:
                self._refuse("frames are JSON text, not binary", None)
                continue
            return str(text)

    def _read(self, text: str) -> Frame | None:
        try:
            return read_frame(text, self.settings.frame_bytes, self.settings.frame_depth)
        except FrameError as exc:
            self._refuse(str(exc), None)
            return None

    def _refuse(self, reason: str, ident: str | None, live: Round | None = None) -> None:
        log.info("%s: refused: %s", self.who(), reason)
        live = live or self.live
        if live is not None:
            live.error(self, reason, ident)
        else:
            self.error(reason, ident)

    async def _hello(self, hub: Hub) -> Round | None:
        """Wait for a good ``hello``: the socket's seat (or spectator's seat) at its table."""
        for _ in range(HELLO_TRIES):
            text = await self._text()
            if text is None:
                return None
            frame = self._read(text)
            if frame is None:
                continue
            if frame.type != "hello":
                self._refuse("say hello first, with your seat token or the spectator link",
                             frame.id)
                continue
            live = await self._greeted(hub, frame)
            if live is not None:
                remember(live.seen_by(self), frame.id)
                self.live = live
                await live.attach(self, frame.fields.get("last"))
                return live
        self._refuse("too many hellos that were not right; closing", None)
        return None

    async def _greeted(self, hub: Hub, frame: Frame) -> Round | None:
        token, watch = frame.fields.get("token"), frame.fields.get("watch")
        if token is not None:
            found = await hub.db(hub.store.find_seat, token) if tokens.plausible(token) \
                else None
            if found is None:
                self._refuse("that seat token is not known here", frame.id)
                return None
            table_id, seat = found
        else:
            table = await hub.db(hub.store.find_table, "watch", watch) \
                if tokens.plausible(watch) else None
            if table is None:
                self._refuse("no table has that spectator link", frame.id)
                return None
            table_id, seat = table, None
        live = await hub.round(table_id)
        if live is None:
            self._refuse("that table cannot be opened now", frame.id)
            return None
        self.table_id, self.seat = table_id, seat
        return live

    async def run(self, hub: Hub) -> None:
        """Serve the socket until the client leaves or it must be closed."""
        self._pump = asyncio.get_running_loop().create_task(self._send_all())
        self._pump.add_done_callback(_settled)
        live: Round | None = None
        try:
            try:
                async with asyncio.timeout(self.settings.hello_seconds):
                    live = await self._hello(hub)
            except TimeoutError:
                self._refuse(f"no hello within {self.settings.hello_seconds:g} seconds; "
                             "closing", None)
            if live is None:
                self.close()
                return
            await self._serve(live)
        except WebSocketDisconnect:
            pass
        finally:
            if live is not None:
                live.detach(self)
            self.close()
            try:  # let what is queued go out, for a while
                await asyncio.wait_for(self._pump, 5)
            except asyncio.CancelledError:
                self._pump.cancel()
                raise
            except Exception:  # the client is gone already
                self._pump.cancel()

    async def _serve(self, live: Round) -> None:
        while not self._closing and (text := await self._text()) is not None:
            frame = self._read(text)
            if frame is None:
                continue
            try:
                await live.handle(self, frame)
            except Broken:
                self.close()
            except BonesError as exc:  # the engine's, the table's or the round's reason
                self._refuse(str(exc), frame.id, live)
            except Exception as exc:  # a bug: one line, and the client told plainly
                log.error("%s: internal error on %s: %s: %s", self.who(), frame.type,
                          type(exc).__name__, exc)
                live.error(self, "internal error; nothing changed", frame.id)


def _settled(task: asyncio.Task[None]) -> None:
    """Take a finished sender's exception (a client gone mid-frame): nothing to report."""
    if not task.cancelled():
        task.exception()


async def endpoint(ws: WebSocket) -> None:
    """``/ws``: check the origin, then serve the socket."""
    hub: Hub = ws.app.state.hub
    if not origin_allowed(ws.headers):
        client = ws.client
        log.info("ws %s: refused: origin %r is not this host",
                 f"{client.host}:{client.port}" if client is not None else "?",
                 ws.headers.get("origin", "")[:100])
        await ws.close(code=1008)
        return
    await ws.accept()
    await Socket(ws, hub.settings).run(hub)
