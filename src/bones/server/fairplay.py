"""Fair deals at the web table (docs/fair-deals.md, docs/web.md): where each game's secret
server seed comes from, so that it is never stored in the clear before the game ends and
still survives a restart.

The seed of game ``N`` at a table is not drawn and kept: it is derived,

    server seed = HMAC-SHA-256(key, "bones-web-fair/1" || salt || N as 4 bytes big-endian)

from the server's **key** (32 random bytes in the file ``fair.key`` of the data folder,
made on first use, readable by the server's user only: never in the database) and the
table's **salt** (16 random bytes made with the table, kept with its spec: not secret, it
only keeps two tables, or a table of a database started afresh, from sharing a seed). The
database therefore holds only what is public (the commitment, the salt, the players'
seeds) until the game's record reveals the seed; a copy of the database without the key
file tells nothing of the deals to come, and a server started again on the same data
folder derives the same seed and deals on. A server whose key file is lost cannot go on
with a fair game in play: the seed it would derive does not match the commitment, and the
table is not taken up (said in the server's log).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import threading
from pathlib import Path

from sqlalchemy.engine import make_url

from bones.engine.errors import BonesError
from bones.server.settings import Settings
from bones.table.fair import SEED_BYTES, seed_bytes

log = logging.getLogger("bones.server")

#: The key file's name, in the data folder.
KEY_FILE = "fair.key"
#: What a derivation of this module starts with (and its version).
LABEL = b"bones-web-fair/1"
#: Bytes of a table's salt.
SALT_BYTES = 16
#: The longest seed phrase a person may give, in characters.
MAX_PHRASE = 100

_keys: dict[str, bytes] = {}
_lock = threading.Lock()


def key_path(settings: Settings) -> Path | None:
    """Where the server's key lives: ``settings.data`` when given, else the folder of an
    SQLite database file; ``None`` for a database in memory (the key is then in memory too,
    as the database is)."""
    if settings.data is not None:
        return Path(settings.data) / KEY_FILE
    url = make_url(settings.db_url)
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return Path(str(url.database)).resolve().parent / KEY_FILE
    return None


def server_key(settings: Settings) -> bytes:
    """The server's key: read from its file, or made there (0600, never overwritten) the
    first time; ``BonesError`` (one line) for a file that cannot be read or made."""
    path = key_path(settings)
    where = str(path) if path is not None else f"memory:{settings.db_url}"
    with _lock:
        if where in _keys:
            return _keys[where]
        key = secrets.token_bytes(SEED_BYTES) if path is None else _read_or_make(path)
        _keys[where] = key
        return key


def _read_or_make(path: Path) -> bytes:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w", encoding="ascii") as out:
                out.write(secrets.token_hex(SEED_BYTES) + "\n")
                out.flush()
                os.fsync(out.fileno())
            log.info("fair deals: made the key file %s", path)
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise BonesError(f"cannot read or make the fair-deal key {path}: {exc}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != SEED_BYTES:
        raise BonesError(f"the fair-deal key {path} is not {SEED_BYTES} bytes in hexadecimal")
    return key


def new_salt() -> str:
    """A fresh table's salt, in hexadecimal."""
    return secrets.token_hex(SALT_BYTES)


def server_seed(key: bytes, salt: str, game: int) -> bytes:
    """The secret server seed of game ``game`` (from 1) at the table of ``salt``."""
    return hmac.new(key, LABEL + bytes.fromhex(salt) + game.to_bytes(4, "big"),
                    hashlib.sha256).digest()


def read_phrase(value: object) -> str:
    """A person's seed phrase as given when joining: text of at most ``MAX_PHRASE``
    characters (the empty string: none), taken exactly as given (no trimming, no
    normalising: the derivation reads its UTF-8 bytes)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BonesError("seed_phrase: your seed phrase, as text (or leave it out)")
    if len(value) > MAX_PHRASE:
        raise BonesError(f"seed_phrase: at most {MAX_PHRASE} characters")
    if not value.isprintable():
        raise BonesError("seed_phrase: only printable characters")
    seed_bytes(value)  # a lone surrogate cannot be written as UTF-8
    return value
