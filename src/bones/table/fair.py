"""Fair deals: shuffles anyone can check, committed to before the deal and revealed after.

Each hand's shuffle comes from a secret server seed (32 random bytes), the players' seeds
(strings given before the game starts) and the game's and hand's numbers, through
HMAC-SHA-256 in counter mode and an unbiased Fisher-Yates shuffle. Before the first deal
the table publishes ``commitment(server_seed)``, SHA-256 of the seed; once the game ends or
is left it reveals the seed, and then every deal can be derived again and compared with the
record (``bones verify``). docs/fair-deals.md defines the derivation byte for byte, with
test vectors, so that another program (a browser with Web Crypto) can redo it: only
HMAC-SHA-256, SHA-256, byte strings and integers, nothing of Python's own randomness.

For a table: ``FairSeeds.new(player_seeds)`` makes the seeds, whose ``commitment`` is
published before the first deal; ``FairDealer(seeds)`` is the ``Dealer`` the ``Table`` deals
with; ``fair_json(seeds, revealed)`` is the record's ``x-fair`` value at each save (the seed
only once the game is over or left); ``read_fair`` and ``check_hand`` are the checker's side.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bones.engine import lead as leads
from bones.engine.errors import BonesError
from bones.engine.game import Game, start_hand
from bones.engine.rules import Rules, is_int
from bones.engine.tiles import Tile, full_set, heaviest

#: The derivation's name and version: the first string of every message, and ``scheme`` in
#: a record's ``x-fair``.
SCHEME = "bones-fair/1"
#: The purposes of a stream: a deal (and its boneyard), or the lots for the lead.
DEAL, LOTS = "deal", "lots"
#: Bytes of a server seed.
SEED_BYTES = 32
#: The largest game, hand or attempt number, or count, that a message holds (4 bytes).
LARGEST = 2**32 - 1
#: The name of the record's field.
FIELD = "x-fair"

_HEX64 = re.compile(r"[0-9a-f]{64}")


class FairError(BonesError):
    """Fair-deal inputs or an ``x-fair`` value that cannot be used; one line."""


# -- the seeds -------------------------------------------------------------------------------


def new_server_seed() -> bytes:
    """A fresh secret server seed: 32 bytes from the operating system."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """The published commitment to a server seed: SHA-256 of its 32 bytes, in lowercase
    hexadecimal."""
    return hashlib.sha256(server_seed).hexdigest()


def seed_bytes(text: str) -> bytes:
    """A player's seed as the derivation takes it: its UTF-8 bytes, as given (no
    normalisation). ``FairError`` for a string no UTF-8 encoder can write (a lone
    surrogate, which JSON can hold)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise FairError(f"the player seed {text!r} is not text: it holds a lone surrogate") \
            from None


@dataclass(frozen=True, slots=True)
class FairSeeds:
    """What a game's fair deals come from: the secret server seed, one seed per seat (the
    empty string where a player gave none) and the game's number."""

    server_seed: bytes
    player_seeds: tuple[str, ...]
    game: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.server_seed, bytes) or len(self.server_seed) != SEED_BYTES:
            raise FairError(f"a server seed is {SEED_BYTES} bytes, not {self.server_seed!r}")
        if not is_int(self.game) or not 0 <= self.game <= LARGEST:
            raise FairError(f"the game number {self.game!r} is not a whole number from 0 to "
                            f"{LARGEST}")
        for text in self.player_seeds:
            if not isinstance(text, str):
                raise FairError(f"a player seed is a string, not {text!r}")
            seed_bytes(text)

    @classmethod
    def new(cls, player_seeds: Sequence[str], game: int = 1) -> FairSeeds:
        """Seeds with a fresh secret server seed (``new_server_seed``)."""
        return cls(new_server_seed(), tuple(player_seeds), game)

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)


# -- the stream ------------------------------------------------------------------------------


def _u32(value: int) -> bytes:
    if not 0 <= value <= LARGEST:
        raise FairError(f"{value} does not fit the 4 bytes a message gives a number")
    return value.to_bytes(4, "big")


def _string(data: bytes) -> bytes:
    return _u32(len(data)) + data


def message(purpose: str, game: int, hand: int, attempt: int,
            player_seeds: Sequence[str]) -> bytes:
    """The message of a stream: each string as a 4-byte big-endian length and its UTF-8
    bytes, each number as 4 bytes big-endian, in this order: ``SCHEME``, ``purpose``, the
    game, the hand, the attempt, the number of player seeds, then each player's seed in seat
    order."""
    out = [_string(SCHEME.encode("ascii")), _string(purpose.encode("ascii")), _u32(game),
           _u32(hand), _u32(attempt), _u32(len(player_seeds))]
    out += [_string(seed_bytes(text)) for text in player_seeds]
    return b"".join(out)


class Stream:
    """The bytes of ``HMAC-SHA-256(server_seed, message || counter)`` for the counter 0, 1,
    2, ... (4 bytes big-endian), one 32-byte block after another, read in order."""

    def __init__(self, key: bytes, data: bytes) -> None:
        self._key = key
        self._message = data
        self._block = b""
        self._used = 0
        self._counter = 0
        #: Bytes read so far.
        self.taken = 0

    def block(self, counter: int) -> bytes:
        """Block ``counter`` of the stream."""
        return hmac.new(self._key, self._message + _u32(counter), hashlib.sha256).digest()

    def take(self, count: int) -> bytes:
        """The next ``count`` bytes (they may straddle two blocks)."""
        out = bytearray()
        while len(out) < count:
            if self._used == len(self._block):
                self._block = self.block(self._counter)
                self._counter += 1
                self._used = 0
            step = min(count - len(out), len(self._block) - self._used)
            out += self._block[self._used:self._used + step]
            self._used += step
        self.taken += count
        return bytes(out)


def stream(seeds: FairSeeds, purpose: str, hand: int, attempt: int) -> Stream:
    """The stream of one purpose of one hand (and one attempt at its deal)."""
    return Stream(seeds.server_seed,
                  message(purpose, seeds.game, hand, attempt, seeds.player_seeds))


def below(source: Stream, n: int) -> int:
    """A whole number from 0 to ``n - 1``, every one equally likely: the next ``k`` bytes
    as a big-endian number ``v``, ``k`` the fewest bytes with ``256**k >= n``; a ``v`` at or
    above the largest multiple of ``n`` that ``256**k`` holds is rejected and ``k`` more
    bytes read, else the number is ``v mod n``."""
    if n < 1:
        raise FairError(f"cannot draw a number below {n}")
    k = 1
    while 256 ** k < n:
        k += 1
    span = 256 ** k
    limit = span - span % n
    while True:
        value = int.from_bytes(source.take(k), "big")
        if value < limit:
            return value % n


def shuffle(items: Sequence[Tile], source: Stream) -> list[Tile]:
    """Fisher-Yates (Durstenfeld): for ``i`` from the last place down to 1, swap place ``i``
    with place ``below(source, i + 1)``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(source, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# -- a hand ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lots:
    """Lots drawn for the lead: the tile each seat drew, and the seat of the heaviest."""

    drawn: tuple[Tile, ...]
    leader: int


@dataclass(frozen=True, slots=True)
class FairDeal:
    """One hand as the seeds deal it: each seat's tiles, the boneyard in draw order, the
    lots when the rules drew them (else ``None``: the rules name the leader), and how many
    deals were made (more than 1 when the rules redealt)."""

    deal: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]
    lots: Lots | None
    attempts: int

    @property
    def leader(self) -> int | None:
        """The seat the lots gave the lead to, or ``None`` where no lots were drawn."""
        return self.lots.leader if self.lots is not None else None


#: For a hand after a game's first: whether the rules redeal a deal or draw lots for it does
#: not depend on the hand before (``lead.decide`` reads the previous hand only for the seat
#: of ``next_lead``, which is never a redeal and never lots), so any stands in for it.
_LATER = leads.Previous(leader=0, winner_seat=None)


def fair_deal(rules: Rules, seeds: FairSeeds, hand: int) -> FairDeal:
    """Hand ``hand`` (from 1) of the game, dealt from the seeds as docs/fair-deals.md says:
    attempt 0, 1, ... shuffles the set from its fixed order (``full_set``) with the
    ``"deal"`` stream of that attempt and cuts it as the engine does (seat ``s`` takes
    places ``s*size`` to ``(s+1)*size - 1``, the rest is the boneyard in draw order) until
    the rules accept the deal; then, when the rules draw lots, the ``"lots"`` stream
    (attempt 0) shuffles a whole set, seat ``s`` draws place ``s``, and the heaviest leads."""
    if len(seeds.player_seeds) != rules.players:
        raise FairError(f"{len(seeds.player_seeds)} player seeds for {rules.players} players")
    if not 1 <= hand <= LARGEST:
        raise FairError(f"hand {hand} is not a hand number (from 1)")
    tiles = full_set(rules.set)
    size, players = rules.dealt, rules.players
    previous = None if hand == 1 else _LATER
    attempt = 0
    while True:
        shuffled = shuffle(tiles, stream(seeds, DEAL, hand, attempt))
        attempt += 1
        deal = tuple(tuple(shuffled[s * size:(s + 1) * size]) for s in range(players))
        decided = leads.decide(rules, deal, previous)
        if decided is not None:
            break
    lots = None
    if decided.seat is None:
        drawn = tuple(shuffle(tiles, stream(seeds, LOTS, hand, 0))[:players])
        lots = Lots(drawn, drawn.index(heaviest(drawn)))
    return FairDeal(deal, tuple(shuffled[size * players:]), lots, attempt)


class FairDealer:
    """The ``Dealer`` of a table that deals fair: each hand ``fair_deal`` gives, started
    through the engine's checked ``start_hand``."""

    def __init__(self, seeds: FairSeeds) -> None:
        self.seeds = seeds

    def __call__(self, game: Game) -> Game:
        dealt = fair_deal(game.rules, self.seeds, len(game.hands) + 1)
        return start_hand(game, dealt.deal, dealt.boneyard, dealt.leader)


# -- the record's x-fair ---------------------------------------------------------------------


def fair_json(seeds: FairSeeds, revealed: bool) -> dict[str, Any]:
    """The record's ``x-fair`` value: the scheme, the commitment, the game's number and the
    players' seeds, and with ``revealed`` (the game over or left) the server seed."""
    out: dict[str, Any] = {"scheme": SCHEME, "commitment": seeds.commitment,
                           "game": seeds.game, "player_seeds": list(seeds.player_seeds)}
    if revealed:
        out["server_seed"] = seeds.server_seed.hex()
    return out


@dataclass(frozen=True, slots=True)
class FairRecord:
    """A record's ``x-fair`` as read: the server seed is ``None`` until it is revealed."""

    commitment: str
    game: int
    player_seeds: tuple[str, ...]
    server_seed: bytes | None

    @property
    def seeds(self) -> FairSeeds:
        """The seeds that dealt the game (``FairError`` while the seed is not revealed)."""
        if self.server_seed is None:
            raise FairError("x-fair holds no server seed yet")
        return FairSeeds(self.server_seed, self.player_seeds, self.game)


def read_fair(value: object) -> FairRecord:
    """Read a record's ``x-fair`` value (``FairError``, one line, for one that is not)."""
    where = FIELD
    if not isinstance(value, dict):
        raise FairError(f"{where} must be an object")
    known = ("scheme", "commitment", "game", "player_seeds", "server_seed")
    for key in value:
        if key not in known and not key.startswith("x-"):
            raise FairError(f'{where}: unknown field "{key}"')
    for key in known[:4]:
        if key not in value:
            raise FairError(f'{where}: the "{key}" field is missing')
    if value["scheme"] != SCHEME:
        raise FairError(f'{where}: "scheme" is {value["scheme"]!r}; this bones checks '
                        f'"{SCHEME}" only')
    promised = value["commitment"]
    if not isinstance(promised, str) or not _HEX64.fullmatch(promised):
        raise FairError(f'{where}: "commitment" must be 64 lowercase hexadecimal digits')
    game = value["game"]
    if not is_int(game) or not 0 <= game <= LARGEST:
        raise FairError(f'{where}: "game" must be a whole number from 0 to {LARGEST}')
    player_seeds = value["player_seeds"]
    if not isinstance(player_seeds, list) or not all(isinstance(s, str) for s in player_seeds):
        raise FairError(f'{where}: "player_seeds" must be a list of strings, one per seat')
    for text in player_seeds:
        seed_bytes(text)
    revealed = value.get("server_seed")
    if revealed is not None and (not isinstance(revealed, str)
                                 or not _HEX64.fullmatch(revealed)):
        raise FairError(f'{where}: "server_seed" must be 64 lowercase hexadecimal digits '
                        "(32 bytes)")
    return FairRecord(promised, game, tuple(player_seeds),
                      bytes.fromhex(revealed) if revealed is not None else None)


def check_seed(fair: FairRecord) -> None:
    """``FairError`` unless the revealed server seed is there and matches the commitment."""
    if fair.server_seed is None:
        raise FairError(f"{FIELD} holds no revealed server seed: the game is not over (the "
                        "seed is revealed when the game ends or is left)")
    found = commitment(fair.server_seed)
    if found != fair.commitment:
        raise FairError(f"the revealed server seed does not match the commitment: its SHA-256 "
                        f"is {found}, the commitment {fair.commitment}")


def check_hand(rules: Rules, seeds: FairSeeds, hand: int, deal: Sequence[Sequence[Tile]],
               boneyard: Sequence[Tile], leader: int | None) -> str | None:
    """What is wrong with hand ``hand`` as recorded, against the one the seeds deal: ``None``
    when its deal (each seat's tiles, in any order), its boneyard (in order) and, where lots
    decided it, its leader are the ones the seeds give; else one sentence, naming the seat
    or the place, that starts ``hand H: ``."""
    dealt = fair_deal(rules, seeds, hand)
    where = f"hand {hand}"
    wrong = f"{where}: the deal is not the one the seeds give"
    if len(deal) != len(dealt.deal):
        return f"{wrong}: it has {len(deal)} hands for {len(dealt.deal)} seats"
    for seat, (held, given) in enumerate(zip(deal, dealt.deal, strict=True)):
        for t in given:
            if t not in held:
                return f"{wrong}: seat {seat} should hold {t}"
        for t in held:
            if t not in given:
                return f"{wrong}: seat {seat} should not hold {t}"
        if len(held) != len(given):
            return f"{wrong}: seat {seat} should hold {len(given)} tiles, not {len(held)}"
    for place, (found, due) in enumerate(zip(boneyard, dealt.boneyard, strict=False), start=1):
        if found != due:
            return (f"{where}: the boneyard is not in the order the seeds give: tile {place} "
                    f"should be {due}, not {found}")
    if len(boneyard) != len(dealt.boneyard):
        return (f"{where}: the boneyard is not the one the seeds give: it should hold "
                f"{len(dealt.boneyard)} tiles, not {len(boneyard)}")
    if dealt.lots is not None and leader != dealt.lots.leader:
        named = "names no leader" if leader is None else f"names seat {leader}"
        return (f"{where}: the lots the seeds give put seat {dealt.lots.leader} in the lead "
                f"(drawing {', '.join(map(str, dealt.lots.drawn))}), but the record {named}")
    return None
