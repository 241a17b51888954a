"""An independent referee for ``bones-record/1``, written from ``docs/rules.md`` and
``docs/records.md`` alone. It imports nothing from ``bones``: tests hold the engine
against it, so a rule misread in one place shows up as a disagreement.

It is deliberately plain (dicts, lists, tuples, no speed tricks) and differently shaped from
the engine: tiles are ``(high, low)`` tuples, the layout keeps the tiles of each arm in a
list and decides whether the spinner has opened by looking at those lists, and scoring is
written out longhand.

``replay(doc)`` returns the ``bones replay --json`` object or raises ``Fault``, which says
where the first fault is: the exit status, and the hand and move (from 1) or the option.
``Table`` is one hand in play; generators use it to make random legal moves.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

Tile = tuple[int, int]

ARMS = ("left", "right", "up", "down")
OPTIONAL = ("seed", "started", "ended", "comment")

DEFAULTS: dict[str, Any] = {
    "set": 6, "players": 2, "partnerships": False, "hand_size": "standard", "draw": False,
    "reserve": 2, "call_block": False, "lead": "lots", "opening": "any",
    "no_double": "redeal", "next_lead": "left", "spinner": "none",
    "score": "others-minus-own", "target": 100, "ante": 0, "pool": "hand",
    "pool_tie": "split",
}

PRESETS: dict[str, dict[str, Any]] = {
    "block": {"hand_size": "standard"},
    "draw": {"hand_size": "standard", "draw": True},
    "pagat-block": {"hand_size": "standard", "target": "pagat"},
    "pagat-draw": {"hand_size": "standard", "draw": True, "target": "pagat"},
    "puerto-rico": {"hand_size": "standard", "score": "others"},
    "pool": {"hand_size": "pool", "score": "others", "ante": 1, "next_lead": "same"},
}

CHOICES: dict[str, tuple[str, ...]] = {
    "lead": ("lots", "highest-double", "heaviest"),
    "opening": ("any", "highest-double", "top-double"),
    "no_double": ("redeal", "heaviest"),
    "next_lead": ("left", "winner", "same"),
    "spinner": ("none", "first-double"),
    "score": ("others-minus-own", "others"),
    "pool": ("hand", "game"),
    "pool_tie": ("split", "carry"),
}


@dataclass
class Fault(Exception):
    """Where a record is refused: status 2 (not a record), or 1 with a place."""

    status: int
    hand: int | None = None
    move: int | None = None
    option: str | None = None
    text: str = ""

    def __str__(self) -> str:
        return f"Fault({self.status}, hand={self.hand}, move={self.move}, " \
               f"option={self.option}: {self.text})"


# -- tiles -----------------------------------------------------------------------------------


def tiles_of(top: int) -> list[Tile]:
    return [(a, b) for a in range(top + 1) for b in range(a + 1)]


def weight(t: Tile) -> tuple[int, int, int]:
    """Heavier: more pips, then a double, then the higher high half."""
    return (t[0] + t[1], 1 if t[0] == t[1] else 0, t[0])


def pips(hand: list[Tile]) -> int:
    return sum(a + b for a, b in hand)


_TILE = re.compile(r"(0|[1-9][0-9]*)-(0|[1-9][0-9]*)")  # "a-b", no leading zero


def read_tile(text: object) -> Tile | None:
    if not isinstance(text, str):
        return None
    m = _TILE.fullmatch(text)
    if m is None:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    return (a, b) if a >= b else (b, a)


def show(t: Tile) -> str:
    return f"{t[0]}-{t[1]}"


# -- rules -----------------------------------------------------------------------------------


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def rules_of(value: object, players: int) -> dict[str, Any]:
    """The full option dict, or ``Fault`` naming the option."""
    def bad(option: str) -> Fault:
        return Fault(1, option=option, text=f"rules: option {option}")

    if isinstance(value, str):
        given: dict[str, Any] = {"preset": value}
    elif isinstance(value, dict):
        given = {k: v for k, v in value.items() if not k.startswith("x-")}
    else:
        raise bad("preset")
    opts = dict(DEFAULTS)
    if "preset" in given:
        name = given.pop("preset")
        if not isinstance(name, str) or name not in PRESETS:
            raise bad("preset")
        opts.update(PRESETS[name])
    for key in given:
        if key not in DEFAULTS:
            raise bad(key)
    if "players" in given and (not _int(given["players"]) or given["players"] != players):
        raise bad("players")
    opts.update(given)
    opts["players"] = players
    if not _int(opts["set"]) or opts["set"] not in (2, 3, 4, 5, 6, 9, 12, 15, 18):
        raise bad("set")
    if not _int(opts["players"]) or opts["players"] < 2:
        raise bad("players")
    for name in ("partnerships", "draw", "call_block"):
        if not isinstance(opts[name], bool):
            raise bad(name)
    for name in ("reserve", "ante"):
        if not _int(opts[name]) or opts[name] < 0:
            raise bad(name)
    for name, choices in CHOICES.items():
        if not isinstance(opts[name], str) or opts[name] not in choices:
            raise bad(name)
    target = opts["target"]
    if target != "pagat" and not (_int(target) and target >= 1):
        raise bad("target")
    if opts["partnerships"] and opts["players"] != 4:
        raise bad("partnerships")
    n, tiles = opts["players"], len(tiles_of(opts["set"]))
    hs = opts["hand_size"]
    if hs == "standard":
        if opts["set"] != 6 or n > 4:
            raise bad("hand_size")
        size = 7 if n == 2 else 5
    elif hs == "pool":
        size = (tiles - 8) // n
        if size < 1:
            raise bad("hand_size")
    elif _int(hs) and hs >= 1:
        size = hs
    else:
        raise bad("hand_size")
    if size * n > tiles:
        raise bad("hand_size")
    if opts["draw"] and tiles - size * n < opts["reserve"]:
        raise bad("reserve")
    opts["size"] = size
    opts["sides"] = 2 if opts["partnerships"] else n
    opts["goal"] = (100 if opts["sides"] == 2 else 61) if target == "pagat" else target
    return opts


def side_of(opts: dict[str, Any], seat: int) -> int:
    return seat % 2 if opts["partnerships"] else seat


def seats_of(opts: dict[str, Any], side: int) -> list[int]:
    return [s for s in range(opts["players"]) if side_of(opts, s) == side]


# -- who leads -------------------------------------------------------------------------------

REDEAL = "redeal"


def lead_of(opts: dict[str, Any], deal: list[list[Tile]],
            prev: tuple[int, int | None] | None) -> str | tuple[int | None, Tile | None]:
    """``REDEAL``, or (leader or None for lots, the tile that must be set or None)."""
    dealt = [t for hand in deal for t in hand]

    def holder(t: Tile) -> int:
        return next(s for s, hand in enumerate(deal) if t in hand)

    def no_double(forced: bool) -> str | tuple[int | None, Tile | None]:
        if opts["no_double"] == "redeal":
            return REDEAL
        h = max(dealt, key=weight)
        return (holder(h), h if forced else None)

    doubles = [t for t in dealt if t[0] == t[1]]
    if opts["opening"] == "highest-double":
        if not doubles:
            return no_double(True)
        d = max(doubles)
        return (holder(d), d)
    if opts["opening"] == "top-double":
        top = (opts["set"], opts["set"])
        if top not in dealt:
            return no_double(True)
        return (holder(top), top)
    if prev is None or opts["next_lead"] == "same":
        if opts["lead"] == "lots":
            return (None, None)
        if opts["lead"] == "heaviest":
            return (holder(max(dealt, key=weight)), None)
        if not doubles:
            return no_double(False)
        return (holder(max(doubles)), None)
    left = (prev[0] + 1) % opts["players"]
    if opts["next_lead"] == "winner" and prev[1] is not None:
        return (prev[1], None)
    return (left, None)


# -- one hand --------------------------------------------------------------------------------


@dataclass
class Table:
    """One hand in play, as plain data."""

    opts: dict[str, Any]
    hands: list[list[Tile]]
    boneyard: list[Tile]
    leader: int
    forced: Tile | None
    to_move: int = 0
    arms: dict[str, int] = field(default_factory=dict)
    lines: dict[str, list[Tile]] = field(default_factory=dict)
    spinner: Tile | None = None
    #: "first" when the spinner is the first tile, else (arm, index in that arm's list).
    spinner_at: Any = None
    on_table: list[Tile] = field(default_factory=list)
    end: str | None = None
    last: int | None = None
    moves: int = 0

    def __post_init__(self) -> None:
        self.to_move = self.leader

    def copy(self) -> Table:
        return copy.deepcopy(self)

    def fits(self, t: Tile) -> list[str]:
        return [arm for arm, n in self.arms.items() if n in t]

    def playable(self, seat: int) -> list[Tile]:
        if not self.on_table:
            if self.forced is not None:
                return [self.forced] if self.forced in self.hands[seat] else []
            return list(self.hands[seat])
        return [t for t in self.hands[seat] if self.fits(t)]

    def may_draw(self) -> bool:
        return bool(self.opts["draw"]) and len(self.boneyard) > self.opts["reserve"]

    def legal(self) -> list[dict[str, Any]]:
        """Every legal move as a record move object (plays name their end)."""
        if self.end is not None:
            return []
        s = self.to_move
        if not self.on_table:
            return [{"seat": s, "play": show(t)} for t in self.playable(s)]
        plays = [{"seat": s, "play": show(t), "end": arm}
                 for t in self.hands[s] for arm in self.fits(t)]
        if plays:
            return plays
        if self.may_draw():
            return [{"seat": s, "draw": show(self.boneyard[0])}]
        return [{"seat": s, "pass": True}]

    def dead(self) -> bool:
        for n in set(self.arms.values()):
            for t in tiles_of(self.opts["set"]):
                if n in t and t not in self.on_table:
                    return False
        return True

    def _spinner_open(self) -> bool:
        if self.spinner is None:
            return False
        if self.spinner_at == "first":
            return bool(self.lines["left"]) and bool(self.lines["right"])
        arm, i = self.spinner_at
        return len(self.lines[arm]) > i + 1

    def _lay(self, t: Tile, arm: str | None) -> None:
        spins = self.opts["spinner"] == "first-double"
        if not self.on_table:
            self.arms = {"left": t[0], "right": t[1]}
            self.lines = {"left": [], "right": []}
            if spins and t[0] == t[1]:
                self.spinner, self.spinner_at = t, "first"
        else:
            assert arm is not None
            n = self.arms[arm]
            self.arms[arm] = t[1] if t[0] == n else t[0]
            self.lines[arm].append(t)
            if spins and self.spinner is None and t[0] == t[1]:
                self.spinner, self.spinner_at = t, (arm, len(self.lines[arm]) - 1)
            if "up" not in self.arms and self._spinner_open():
                assert self.spinner is not None
                self.arms["up"] = self.arms["down"] = self.spinner[0]
                self.lines["up"], self.lines["down"] = [], []
        self.on_table.append(t)

    def step(self, move: object) -> None:
        """Apply one record move; ``Fault`` (without a place) if it is not legal."""
        def no(text: str) -> Fault:
            return Fault(1, text=text)

        if self.end is not None:
            raise no("hand already over")
        if not isinstance(move, dict):
            raise no("move not an object")
        kinds = [k for k in ("play", "draw", "pass") if k in move]
        if len(kinds) != 1:
            raise no("not exactly one kind")
        kind = kinds[0]
        allowed = {"seat", kind} | ({"end"} if kind == "play" else set())
        for key in move:
            if key not in allowed and key not in OPTIONAL and not key.startswith("x-"):
                raise no(f"unknown field {key}")
        seat = move.get("seat")
        if not _int(seat) or seat != self.to_move:
            raise no("wrong seat")
        hand = self.hands[seat]
        if kind == "play":
            t = read_tile(move["play"])
            if t is None or t not in hand:
                raise no("tile not held")
            if not self.on_table:
                if self.forced is not None and t != self.forced:
                    raise no("wrong opening tile")
                arm = None
            else:
                end = move.get("end")
                if end is None:
                    arms = self.fits(t)
                    if len(arms) != 1:
                        raise no("no arm or ambiguous")
                    arm = arms[0]
                else:
                    if not isinstance(end, str) or end not in self.arms:
                        raise no("arm not open")
                    if self.arms[end] not in t:
                        raise no("tile does not match arm")
                    arm = end
            hand.remove(t)
            self._lay(t, arm)
            self.moves += 1
            self.last = seat
            self.to_move = (seat + 1) % self.opts["players"]
            if not hand:
                self.end = "out"
            elif self.opts["draw"] and self.opts["call_block"] and self.dead():
                self.end = "blocked"
            else:
                self._maybe_blocked()
            return
        if self.playable(seat):
            raise no(f"{kind} while holding a playable tile")
        if kind == "draw":
            if not self.may_draw():
                raise no("may not draw")
            t = read_tile(move["draw"])
            if t is None or t != self.boneyard[0]:
                raise no("not the next tile")
            hand.append(self.boneyard.pop(0))
            self.moves += 1
            self._maybe_blocked()
            return
        if move["pass"] is not True:
            raise no("pass not true")
        if self.may_draw():
            raise no("pass when a draw is possible")
        self.moves += 1
        self.to_move = (seat + 1) % self.opts["players"]

    def _maybe_blocked(self) -> None:
        if self.may_draw():
            return
        if any(self.fits(t) for hand in self.hands for t in hand):
            return
        self.end = "blocked"

    def counts(self) -> list[int]:
        return [pips(h) for h in self.hands]


# -- scoring ---------------------------------------------------------------------------------


def hand_outcome(opts: dict[str, Any], table: Table) -> tuple[int | None, list[int], list[int],
                                                              int | None]:
    """(winning side or None, tied sides, points per side, seat that counts as the winner)."""
    counts = table.counts()
    sides = [sum(counts[s] for s in seats_of(opts, side)) for side in range(opts["sides"])]
    points = [0] * opts["sides"]
    if table.end == "out":
        assert table.last is not None
        win: int | None = side_of(opts, table.last)
        tied: list[int] = []
        win_seat: int | None = table.last
    else:
        low = min(sides)
        lows = [i for i, c in enumerate(sides) if c == low]
        if len(lows) > 1:
            return None, lows, points, None
        win, tied = lows[0], []
        n = opts["players"]
        best = None
        for k in range(n):  # turn order from the leader, the leader first
            s = (table.leader + k) % n
            if side_of(opts, s) == win and (best is None or counts[s] < counts[best]):
                best = s
        win_seat = best
    others = sum(c for i, c in enumerate(sides) if i != win)
    own = sides[win]
    if opts["score"] == "others":
        points[win] = others
    else:
        points[win] = others - own if others > own else 0
    return win, tied, points, win_seat


# -- a whole record --------------------------------------------------------------------------


def check_format(doc: object) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise Fault(2, text="not an object")
    if doc.get("format") != "bones-record/1":
        raise Fault(2, text="format")
    return doc


def _unknown(obj: dict[str, Any], known: tuple[str, ...]) -> bool:
    return any(k not in known and k not in OPTIONAL and not k.startswith("x-") for k in obj)


def deal_of(opts: dict[str, Any], hand: dict[str, Any]) -> tuple[list[list[Tile]], list[Tile]]:
    """The deal and boneyard, or ``Fault`` (no place) when they are not a partition."""
    deal_obj, bone_obj = hand["deal"], hand["boneyard"]
    if not isinstance(deal_obj, list) or not all(isinstance(h, list) for h in deal_obj):
        raise Fault(1, text="deal shape")
    if not isinstance(bone_obj, list):
        raise Fault(1, text="boneyard shape")
    deal = [[read_tile(t) for t in h] for h in deal_obj]
    bone = [read_tile(t) for t in bone_obj]
    if any(t is None for h in deal for t in h) or any(t is None for t in bone):
        raise Fault(1, text="malformed tile")
    if len(deal) != opts["players"] or any(len(h) != opts["size"] for h in deal):
        raise Fault(1, text="hand sizes")
    everything = [t for h in deal for t in h] + bone
    if sorted(everything) != sorted(tiles_of(opts["set"])):  # type: ignore[type-var]
        raise Fault(1, text="not a partition of the set")
    return deal, bone  # type: ignore[return-value]


@dataclass
class Result:
    summary: dict[str, Any]
    opts: dict[str, Any]
    tables: list[Table]


def replay(doc: object) -> dict[str, Any]:
    return referee(doc).summary


def referee(doc: object) -> Result:
    """Check a decoded record; the summary of ``bones replay --json`` or ``Fault``."""
    doc = check_format(doc)
    if _unknown(doc, ("format", "rules", "players", "hands")):
        raise Fault(1, text="unknown record field")
    if any(k not in doc for k in ("rules", "players", "hands")):
        raise Fault(1, text="missing record field")
    names = doc["players"]
    if not isinstance(names, list) or not all(isinstance(p, str) for p in names):
        raise Fault(1, text="players")
    opts = rules_of(doc["rules"], len(names))
    if not isinstance(doc["hands"], list):
        raise Fault(1, text="hands")
    n, nsides = opts["players"], opts["sides"]
    scores, chips, pool = [0] * nsides, [0] * n, 0
    prev: tuple[int, int | None] | None = None
    results: list[dict[str, Any]] = []
    tables: list[Table] = []
    for h, hand in enumerate(doc["hands"], start=1):
        if tables and tables[-1].end is None:
            raise Fault(1, hand=h - 1, text="unfinished hand followed by another")
        if not isinstance(hand, dict) or _unknown(hand, ("deal", "boneyard", "leader", "moves")):
            raise Fault(1, hand=h, text="hand object")
        if any(k not in hand for k in ("deal", "boneyard", "moves")):
            raise Fault(1, hand=h, text="hand fields")
        if any(s >= opts["goal"] for s in scores):
            raise Fault(1, hand=h, text="game already won")
        try:
            deal, bone = deal_of(opts, hand)
        except Fault as f:
            f.hand = h
            raise
        decided = lead_of(opts, deal, prev)
        if decided == REDEAL:
            raise Fault(1, hand=h, text="the rules redeal this deal")
        assert isinstance(decided, tuple)
        seat, forced = decided
        given = hand.get("leader")
        if given is not None and (not _int(given) or not 0 <= given < n):
            raise Fault(1, hand=h, text="leader not a seat")
        if seat is None:
            if given is None:
                raise Fault(1, hand=h, text="lots need a leader")
            seat = given
        elif given is not None and given != seat:
            raise Fault(1, hand=h, text="wrong leader")
        ante = opts["ante"] if opts["ante"] and (opts["pool"] == "hand" or h == 1) else 0
        row = [-ante] * n
        pool += ante * n
        table = Table(opts, [list(x) for x in deal], list(bone), seat, forced)
        tables.append(table)
        moves = hand["moves"]
        if not isinstance(moves, list):
            raise Fault(1, hand=h, text="moves not a list")
        for m, move in enumerate(moves, start=1):
            try:
                table.step(move)
            except Fault as f:
                f.hand, f.move = h, m
                raise
        if table.end is None:
            results.append({"end": "unfinished", "winner": None, "counts": table.counts(),
                            "points": [0] * nsides, "pool": row})
            chips = [c + r for c, r in zip(chips, row, strict=True)]
            continue
        win, tied, points, win_seat = hand_outcome(opts, table)
        scores = [s + p for s, p in zip(scores, points, strict=True)]
        takers: list[int] = []
        if opts["ante"] and opts["pool"] == "hand":
            if win is not None:
                takers = seats_of(opts, win)
            elif opts["pool_tie"] == "split":
                takers = [s for side in tied for s in seats_of(opts, side)]
        elif opts["ante"] and win is not None and scores[win] >= opts["goal"]:
            takers = seats_of(opts, win)
        if takers:
            each = pool // len(takers)
            for s in takers:
                row[s] += each
            pool -= each * len(takers)
        chips = [c + r for c, r in zip(chips, row, strict=True)]
        results.append({"end": table.end, "winner": win, "counts": table.counts(),
                        "points": points, "pool": row})
        prev = (table.leader, win_seat)
    winner = next((i for i, s in enumerate(scores) if s >= opts["goal"]), None)
    summary = {"hands": results, "scores": scores, "finished": winner is not None,
               "winner": winner, "chips": chips}
    summary["x-pool"] = pool
    return Result(summary, opts, tables)


def public(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without the referee's own ``x-`` extras."""
    return {k: v for k, v in summary.items() if not k.startswith("x-")}
