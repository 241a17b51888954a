"""The table's secrets: invite, spectator and seat tokens.

Each is ``secrets.token_urlsafe`` (256 bits), shown once to whoever it belongs to and
stored only as its SHA-256, so a copy of the database lets nobody into a seat. A token is
found by its hash, then the hash compared again in constant time (``hmac.compare_digest``):
the lookup itself compares hashes of secrets, which tell a timing attacker nothing about a
token they do not already hold.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

#: Bytes of randomness in a token (43 characters of URL-safe base64).
TOKEN_BYTES = 32
#: The longest token text read; anything longer is not one of ours.
MAX_TOKEN = 64


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(token: str) -> str:
    """The stored form of a token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def same(token: str, stored: str) -> bool:
    """Whether ``token`` is the one whose digest is ``stored``, in constant time."""
    return hmac.compare_digest(digest(token), stored)


def plausible(value: object) -> bool:
    """Whether ``value`` could be a token at all (checked before hashing what a client
    sent, so nobody makes the server hash a megabyte)."""
    return isinstance(value, str) and 0 < len(value) <= MAX_TOKEN and value.isascii()


def watch_of(invite: str) -> str:
    """The spectator token of the table whose invite token is ``invite``: derived from it
    (SHA-256), so whoever holds the invite can always be shown the spectator link, while
    the spectator link tells nothing of the invite, and the server keeps neither."""
    derived = hashlib.sha256(b"bones-watch:" + invite.encode("utf-8")).digest()
    return base64.urlsafe_b64encode(derived).rstrip(b"=").decode("ascii")
