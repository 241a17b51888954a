"""Random valid game records and, from them, invalid ones whose fault the generator placed.

Valid records are played by the independent referee of ``reference.py`` (random shuffles,
random legal moves), never by the engine, so the engine replaying them is a real check.
Each invalid record is one valid record with one mutation; ``Mutation`` says what the
reader must answer: the exit status and where the fault is (hand and move from 1, the hand
alone, or the rules option).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import reference as ref
from reference import Fault, Table, lead_of, read_tile, rules_of, show, tiles_of

NAMES = ("Ana", "Ben", "Caro", "Dev", "Eli", "Fay", "Gus", "Hal")

# -- rules -------------------------------------------------------------------------------------


def random_rules(rng: random.Random) -> dict[str, Any]:
    """A random dealable rules object in record form (a preset plus overrides, or options)."""
    while True:
        rules: dict[str, Any] = {}
        if rng.random() < 0.5:
            rules["preset"] = rng.choice(list(ref.PRESETS))
        top = rng.choice((6, 6, 6, 9, 12, 15, 18))
        players = rng.choice((2, 2, 3, 4, 4, 5, 6)) if top > 6 else rng.choice((2, 3, 4))
        partnerships = players == 4 and rng.random() < 0.4
        if top != 6 or rules.get("preset") == "pool" or rng.random() < 0.4:
            total = len(tiles_of(top))
            rules["hand_size"] = rng.choice(
                ("pool", rng.randint(1, max(1, (total - 2) // players))))
        if top != 6:
            rules["set"] = top
        rules["players"] = players
        if partnerships:
            rules["partnerships"] = True
        for name, choices in ref.CHOICES.items():
            if rng.random() < 0.35:
                rules[name] = rng.choice(choices)
        if rng.random() < 0.4:
            rules["draw"] = rng.random() < 0.6
        if rng.random() < 0.4:
            rules["reserve"] = rng.choice((0, 1, 2, 3))
        if rng.random() < 0.3:
            rules["call_block"] = rng.random() < 0.6
        if rng.random() < 0.5:
            rules["target"] = rng.choice((1, 10, 25, 50, 61, 100, "pagat"))
        if rng.random() < 0.4:
            rules["ante"] = rng.choice((0, 1, 2, 3, 5))
        try:
            rules_of(rules, players)
        except Fault:
            continue
        return rules


# -- valid records -----------------------------------------------------------------------------


def deal_hand(rng: random.Random, opts: dict[str, Any],
              prev: tuple[int, int | None] | None) -> tuple[list[list[ref.Tile]],
                                                            list[ref.Tile], int, Any]:
    """Shuffle until the rules accept the deal; draw lots when they decide."""
    tiles = tiles_of(opts["set"])
    size, n = opts["size"], opts["players"]
    while True:
        rng.shuffle(tiles)
        deal = [tiles[i * size:(i + 1) * size] for i in range(n)]
        bone = tiles[n * size:]
        decided = lead_of(opts, deal, prev)
        if decided == ref.REDEAL:
            continue
        assert isinstance(decided, tuple)
        seat, forced = decided
        lots = seat is None
        if seat is None:
            drawn = rng.sample(tiles, n)
            seat = drawn.index(max(drawn, key=ref.weight))
        return deal, bone, seat, (lots, forced)


def _tile_text(rng: random.Random, t: ref.Tile, vary: bool) -> str:
    """A tile as written; readers accept either order of the halves."""
    if vary and rng.random() < 0.15:
        return f"{t[1]}-{t[0]}"
    return show(t)


def _written(rng: random.Random, table: Table, move: dict[str, Any], vary: bool) -> dict:
    """A legal move as a record would write it: ``end`` left out where the tile fits only
    one arm, sometimes; a stray ``end`` on the first tile, sometimes (it is ignored)."""
    out = dict(move)
    if "play" in out:
        t = read_tile(out["play"])
        assert t is not None
        out["play"] = _tile_text(rng, t, vary)
        if vary and "end" in out and len(table.fits(t)) == 1 and rng.random() < 0.5:
            del out["end"]
        if vary and not table.on_table and rng.random() < 0.1:
            out["end"] = rng.choice(("left", "right", "up", "down", "middle"))
    if vary and rng.random() < 0.02:
        out["x-note"] = "think"
    return out


def random_record(rng: random.Random, rules: Any = None, *, max_hands: int = 6,
                  unfinished: float = 0.2, vary: bool = True) -> dict[str, Any]:
    """A valid record: random rules (unless given), random deals, random legal moves.

    The game stops when a side reaches the target or after ``max_hands`` hands; with
    probability ``unfinished`` the last hand is cut off at a random move.
    """
    if rules is None:
        rules = random_rules(rng)
    players = rules["players"] if isinstance(rules, dict) and "players" in rules else 2
    opts = rules_of(rules, players)
    if isinstance(rules, dict) and vary and rng.random() < 0.3:
        # the players list alone gives the number of seats
        rules = {k: v for k, v in rules.items() if k != "players"}
    names = [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else str(i)) for i in range(players)]
    doc: dict[str, Any] = {"format": "bones-record/1", "rules": rules, "players": names,
                           "hands": []}
    if vary and rng.random() < 0.2:
        doc["x-generator"] = {"seed": rng.random()}
    scores = [0] * opts["sides"]
    prev: tuple[int, int | None] | None = None
    for number in range(max_hands):
        if any(s >= opts["goal"] for s in scores):
            break
        deal, bone, seat, (lots, forced) = deal_hand(rng, opts, prev)
        table = Table(opts, [list(h) for h in deal], list(bone), seat, forced)
        hand: dict[str, Any] = {
            "deal": [[_tile_text(rng, t, vary) for t in h] for h in deal],
            "boneyard": [_tile_text(rng, t, vary) for t in bone],
        }
        if lots or not vary or rng.random() < 0.7:
            hand["leader"] = seat
        moves: list[dict[str, Any]] = []
        cut = number == max_hands - 1 and rng.random() < unfinished
        while table.end is None:
            if cut and rng.random() < 0.08:
                break
            move = rng.choice(table.legal())
            written = _written(rng, table, move, vary)
            table.step(written)
            moves.append(written)
        hand["moves"] = moves
        if vary and rng.random() < 0.05:
            hand["comment"] = "a hand"
        doc["hands"].append(hand)
        if table.end is None:
            break
        _, _, points, win_seat = ref.hand_outcome(opts, table)
        scores = [s + p for s, p in zip(scores, points, strict=True)]
        prev = (table.leader, win_seat)
    return doc


def dumps(doc: object) -> str:
    return json.dumps(doc)


# -- invalid records ---------------------------------------------------------------------------


@dataclass
class Mutation:
    """An invalid record and what the reader must say about it."""

    kind: str
    doc: Any
    status: int
    hand: int | None = None
    move: int | None = None
    option: str | None = None
    #: Text to write instead of JSON (for "not JSON").
    text: str | None = None


@dataclass
class Moment:
    """The table just before move ``move`` of hand ``hand`` (both from 1)."""

    hand: int
    move: int
    table: Table


def moments(doc: dict[str, Any]) -> list[Moment]:
    """Every moment before a move of a valid record (and after each hand's last move)."""
    result = ref.referee(doc)
    out: list[Moment] = []
    for h, (hand, final) in enumerate(zip(doc["hands"], result.tables, strict=True), start=1):
        table = Table(final.opts, [list(x) for x in hand_deal(hand)],
                      [read_tile(t) for t in hand["boneyard"]],  # type: ignore[misc]
                      final.leader, final.forced)
        for m, move in enumerate(hand["moves"], start=1):
            out.append(Moment(h, m, table.copy()))
            table.step(move)
        out.append(Moment(h, len(hand["moves"]) + 1, table.copy()))
    return out


def hand_deal(hand: dict[str, Any]) -> list[list[ref.Tile]]:
    return [[read_tile(t) for t in h] for h in hand["deal"]]  # type: ignore[misc]


Maker = Callable[[random.Random, dict[str, Any]], Mutation | None]
MAKERS: dict[str, Maker] = {}


def kind(name: str) -> Callable[[Maker], Maker]:
    def register(f: Maker) -> Maker:
        MAKERS[name] = f
        return f
    return register


def _pick(rng: random.Random, items: list[Any]) -> Any:
    return rng.choice(items) if items else None


def _move_moments(doc: dict[str, Any], test: Callable[[Moment, dict[str, Any]], bool]
                  ) -> list[Moment]:
    found = []
    for mo in moments(doc):
        moves = doc["hands"][mo.hand - 1]["moves"]
        if mo.move <= len(moves) and test(mo, moves[mo.move - 1]):
            found.append(mo)
    return found


def _set_move(doc: dict[str, Any], mo: Moment, move: Any, truncate: bool = True) -> dict:
    doc = copy.deepcopy(doc)
    hand = doc["hands"][mo.hand - 1]
    hand["moves"][mo.move - 1] = move
    if truncate:  # later hands may no longer follow; keep the fault the first one
        del doc["hands"][mo.hand:]
    return doc


def _at(kind_name: str, doc: dict, mo: Moment) -> Mutation:
    return Mutation(kind_name, doc, 1, mo.hand, mo.move)


# -- not a record at all (status 2) -----------------------------------------------------------


@kind("wrong-format-string")
def _wrong_format(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    doc["format"] = rng.choice(("bones-record/2", "bones-record", "", "BONES-RECORD/1"))
    return Mutation("wrong-format-string", doc, 2)


@kind("missing-format")
def _missing_format(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    del doc["format"]
    return Mutation("missing-format", doc, 2)


@kind("not-json")
def _not_json(rng: random.Random, doc: dict) -> Mutation:
    text = dumps(doc)
    return Mutation("not-json", None, 2, text=text[: rng.randint(1, len(text) - 1)])


@kind("not-an-object")
def _not_object(rng: random.Random, doc: dict) -> Mutation:
    return Mutation("not-an-object", rng.choice(([doc], "bones-record/1", 7, None)), 2)


# -- the record and its rules ----------------------------------------------------------------


@kind("unknown-top-level-field")
def _unknown_top(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    doc[rng.choice(("Players", "winner", "scores", "xnote"))] = 1
    return Mutation("unknown-top-level-field", doc, 1)


@kind("missing-players")
def _missing_players(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    del doc["players"]
    return Mutation("missing-players", doc, 1)


@kind("hands-not-a-list")
def _hands_not_list(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    doc["hands"] = {"1": doc["hands"]}
    return Mutation("hands-not-a-list", doc, 1)


def _rules_dict(doc: dict) -> dict:
    rules = doc["rules"]
    if isinstance(rules, str):
        rules = {"preset": rules}
    doc["rules"] = rules
    return rules


@kind("unknown-rules-option")
def _unknown_option(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    name = rng.choice(("spinners", "muggins", "hand-size", "Draw"))
    _rules_dict(doc)[name] = True
    return Mutation("unknown-rules-option", doc, 1, option=name)


BAD_VALUES: dict[str, tuple[Any, ...]] = {
    "set": (7, 0, "6", 6.0, True, None),
    "players": (1, 0, "2", 2.5),
    "partnerships": ("yes", 1, None),
    "hand_size": (0, -1, "big", 5.5, True),
    "draw": ("true", 0, None),
    "reserve": (-1, "2", 1.5, True),
    "call_block": ("no", 1),
    "lead": ("highest", "random", 1, None),
    "opening": ("double", "6-6", None),
    "no_double": ("pass", True),
    "next_lead": ("right", "loser"),
    "spinner": ("all-doubles", True, "first"),
    "score": ("others-plus-own", "all"),
    "target": (0, -5, "100", 99.5, True, "pagats"),
    "ante": (-1, "1", 0.5),
    "pool": ("round", True),
    "pool_tie": ("divide", False),
}


@kind("bad-option-value")
def _bad_value(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    name = rng.choice(list(BAD_VALUES))
    value = rng.choice(BAD_VALUES[name])
    rules = _rules_dict(doc)
    rules[name] = value
    if name == "players" and _int(value) and value >= 0:
        doc["players"] = list(NAMES[:value])  # keep the list in step: the value is the fault
    return Mutation("bad-option-value", doc, 1, option=name)


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@kind("unknown-preset")
def _unknown_preset(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    _rules_dict(doc)["preset"] = rng.choice(("blocks", "mexican-train", "Pool"))
    return Mutation("unknown-preset", doc, 1, option="preset")


@kind("players-mismatch")
def _players_mismatch(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    rules = _rules_dict(doc)
    n = len(doc["players"])
    rules["players"] = n + rng.choice((-1, 1)) if n > 2 else n + 1
    return Mutation("players-mismatch", doc, 1, option="players")


@kind("undealable-hand-size")
def _undealable(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    rules = _rules_dict(doc)
    top = rules.get("set", 6)
    n = len(doc["players"])
    rules["hand_size"] = len(tiles_of(top)) // n + 1
    return Mutation("undealable-hand-size", doc, 1, option="hand_size")


@kind("standard-hand-size-undefined")
def _standard_bad(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    rules = _rules_dict(doc)
    rules["hand_size"] = "standard"
    rules.pop("partnerships", None)
    if rng.random() < 0.5:
        rules["set"] = rng.choice((9, 12, 15, 18))
    else:
        rules["set"] = 9
        rules["players"] = 5
        doc["players"] = list(NAMES[:5])
    return Mutation("standard-hand-size-undefined", doc, 1, option="hand_size")


@kind("reserve-above-boneyard")
def _reserve_big(rng: random.Random, doc: dict) -> Mutation:
    doc = copy.deepcopy(doc)
    rules = _rules_dict(doc)
    opts = rules_of(rules, len(doc["players"]))
    rules["draw"] = True
    rules["reserve"] = len(tiles_of(opts["set"])) - opts["size"] * opts["players"] + 1
    return Mutation("reserve-above-boneyard", doc, 1, option="reserve")


@kind("partnerships-without-four")
def _partners(rng: random.Random, doc: dict) -> Mutation | None:
    doc = copy.deepcopy(doc)
    rules = _rules_dict(doc)
    if len(doc["players"]) == 4:
        return None
    rules["partnerships"] = True
    return Mutation("partnerships-without-four", doc, 1, option="partnerships")


# -- deals and leaders -------------------------------------------------------------------------


def _hand_index(rng: random.Random, doc: dict) -> int | None:
    return rng.randrange(len(doc["hands"])) if doc["hands"] else None


def _cut_after(doc: dict, i: int) -> dict:
    doc = copy.deepcopy(doc)
    del doc["hands"][i + 1:]
    return doc


@kind("hand-not-an-object")
def _hand_not_object(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    doc["hands"][i] = [doc["hands"][i]["deal"]]
    return Mutation("hand-not-an-object", doc, 1, hand=i + 1)


@kind("unknown-hand-field")
def _unknown_hand_field(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    doc["hands"][i][rng.choice(("dealer", "score", "Moves"))] = 0
    return Mutation("unknown-hand-field", doc, 1, hand=i + 1)


@kind("missing-hand-field")
def _missing_hand_field(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    del doc["hands"][i][rng.choice(("deal", "boneyard", "moves"))]
    return Mutation("missing-hand-field", doc, 1, hand=i + 1)


@kind("deal-wrong-size")
def _deal_wrong_size(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    hand = doc["hands"][i]
    seat = rng.randrange(len(hand["deal"]))
    if hand["boneyard"] and rng.random() < 0.5:
        hand["deal"][seat].append(hand["boneyard"].pop())
    else:
        hand["boneyard"].append(hand["deal"][seat].pop())
    return Mutation("deal-wrong-size", doc, 1, hand=i + 1)


@kind("deal-wrong-seat-count")
def _deal_seats(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    hand = doc["hands"][i]
    hand["boneyard"].extend(hand["deal"].pop())
    return Mutation("deal-wrong-seat-count", doc, 1, hand=i + 1)


@kind("duplicate-tile")
def _duplicate(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    hand = doc["hands"][i]
    a, b = rng.sample(range(len(hand["deal"])), 2)
    hand["deal"][a][0] = hand["deal"][b][-1]
    return Mutation("duplicate-tile", doc, 1, hand=i + 1)


@kind("missing-tile")
def _missing(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None or not doc["hands"][i]["boneyard"]:
        return None
    doc = _cut_after(doc, i)
    hand = doc["hands"][i]
    hand["boneyard"].pop(rng.randrange(len(hand["boneyard"])))
    return Mutation("missing-tile", doc, 1, hand=i + 1)


@kind("tile-outside-set")
def _outside(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    hand = doc["hands"][i]
    top = rules_of(doc["rules"], len(doc["players"]))["set"]
    outside = f"{top + 1}-{rng.randint(0, top + 1)}"
    seat = rng.randrange(len(hand["deal"]))
    hand["deal"][seat][rng.randrange(len(hand["deal"][seat]))] = outside
    return Mutation("tile-outside-set", doc, 1, hand=i + 1)


MALFORMED = ("6", "6-", "-6", "6:5", "six-five", "6-5-4", "", "6 5", "6--5", "a-b", "6.0-5",
             "\u0666-\u0665", "06-5", "6-05", " 6-5", "6-5 ", "+6-5", 65, None, ["6", "5"],
             {"high": 6, "low": 5})


@kind("malformed-tile-in-deal")
def _malformed_deal(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    hand = doc["hands"][i]
    seat = rng.randrange(len(hand["deal"]))
    hand["deal"][seat][rng.randrange(len(hand["deal"][seat]))] = rng.choice(MALFORMED)
    return Mutation("malformed-tile-in-deal", doc, 1, hand=i + 1)


def _decided(doc: dict, i: int) -> Any:
    """What the rules decide about the lead of hand ``i`` (from 0) of a valid record."""
    result = ref.referee(_cut_after(doc, i))
    prev = None
    if i > 0:
        before = ref.referee(_cut_after(doc, i - 1))
        t = before.tables[-1]
        prev = (t.leader, ref.hand_outcome(before.opts, t)[3])
    return lead_of(result.opts, hand_deal(doc["hands"][i]), prev)


@kind("wrong-leader")
def _wrong_leader(rng: random.Random, doc: dict) -> Mutation | None:
    n = len(doc["players"])
    options = [i for i in range(len(doc["hands"])) if _decided(doc, i)[0] is not None]
    i = _pick(rng, options)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    seat = _decided(doc, i)[0]
    doc["hands"][i]["leader"] = rng.choice([s for s in range(n) if s != seat])
    return Mutation("wrong-leader", doc, 1, hand=i + 1)


@kind("leader-not-a-seat")
def _leader_not_seat(rng: random.Random, doc: dict) -> Mutation | None:
    i = _hand_index(rng, doc)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    doc["hands"][i]["leader"] = rng.choice((len(doc["players"]), -1, "0", 1.0, True))
    return Mutation("leader-not-a-seat", doc, 1, hand=i + 1)


@kind("missing-leader-with-lots")
def _missing_leader(rng: random.Random, doc: dict) -> Mutation | None:
    options = [i for i in range(len(doc["hands"])) if _decided(doc, i)[0] is None]
    i = _pick(rng, options)
    if i is None:
        return None
    doc = _cut_after(doc, i)
    del doc["hands"][i]["leader"]
    return Mutation("missing-leader-with-lots", doc, 1, hand=i + 1)


def _without(tiles: list[str], unwanted: Callable[[ref.Tile], bool]) -> list[str]:
    return [t for t in tiles if not unwanted(read_tile(t))]  # type: ignore[arg-type]


@kind("deal-the-rules-redeal")
def _redeal(rng: random.Random, doc: dict) -> Mutation | None:
    """Rearrange hand 1 so that the double the rules need lies in the boneyard."""
    opts = rules_of(doc["rules"], len(doc["players"]))
    needs_double = opts["opening"] != "any" or opts["lead"] == "highest-double"
    if not doc["hands"] or opts["no_double"] != "redeal" or not needs_double:
        return None
    top = opts["set"]
    if opts["opening"] == "top-double":
        unwanted: Callable[[ref.Tile], bool] = lambda t: t == (top, top)  # noqa: E731
    else:
        unwanted = lambda t: t[0] == t[1]  # noqa: E731
    pool = [show(t) for t in tiles_of(top)]
    rng.shuffle(pool)
    fine = _without(pool, unwanted)
    n, size = opts["players"], opts["size"]
    if len(fine) < n * size:
        return None
    deal = [fine[k * size:(k + 1) * size] for k in range(n)]
    used = {t for h in deal for t in h}
    doc = _cut_after(doc, 0)
    doc["hands"][0] = {"deal": deal, "boneyard": [t for t in pool if t not in used],
                       "leader": 0, "moves": []}
    return Mutation("deal-the-rules-redeal", doc, 1, hand=1)


# -- moves ---------------------------------------------------------------------------------


@kind("wrong-seat-to-move")
def _wrong_seat(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: True))
    if mo is None:
        return None
    move = dict(doc["hands"][mo.hand - 1]["moves"][mo.move - 1])
    n = mo.table.opts["players"]
    move["seat"] = rng.choice([s for s in range(-1, n + 1) if s != mo.table.to_move])
    return _at("wrong-seat-to-move", _set_move(doc, mo, move), mo)


@kind("seat-not-a-number")
def _seat_not_number(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: True))
    if mo is None:
        return None
    move = dict(doc["hands"][mo.hand - 1]["moves"][mo.move - 1])
    if rng.random() < 0.3:
        del move["seat"]
    else:
        move["seat"] = rng.choice((str(mo.table.to_move), float(mo.table.to_move), None,
                                   mo.table.to_move == 1))
    return _at("seat-not-a-number", _set_move(doc, mo, move), mo)


@kind("tile-not-held")
def _not_held(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: "play" in mv))
    if mo is None:
        return None
    t = mo.table
    top = t.opts["set"]
    others = [x for x in tiles_of(top) if x not in t.hands[t.to_move]]
    move = {"seat": t.to_move, "play": show(rng.choice(others))}
    if t.on_table:
        move["end"] = rng.choice(list(t.arms))
    return _at("tile-not-held", _set_move(doc, mo, move), mo)


@kind("tile-not-matching-arm")
def _not_matching(rng: random.Random, doc: dict) -> Mutation | None:
    def test(mo: Moment, mv: dict) -> bool:
        t = mo.table
        return bool(t.on_table) and any(
            t.arms[a] not in x for x in t.hands[t.to_move] for a in t.arms)
    mo = _pick(rng, _move_moments(doc, test))
    if mo is None:
        return None
    t = mo.table
    choices = [(x, a) for x in t.hands[t.to_move] for a in t.arms if t.arms[a] not in x]
    x, a = rng.choice(choices)
    move: dict[str, Any] = {"seat": t.to_move, "play": show(x), "end": a}
    if not t.fits(x) and rng.random() < 0.5:
        del move["end"]
    return _at("tile-not-matching-arm", _set_move(doc, mo, move), mo)


@kind("ambiguous-end-missing")
def _ambiguous(rng: random.Random, doc: dict) -> Mutation | None:
    def test(mo: Moment, mv: dict) -> bool:
        t = mo.table
        return bool(t.on_table) and any(len(t.fits(x)) > 1 for x in t.hands[t.to_move])
    mo = _pick(rng, _move_moments(doc, test))
    if mo is None:
        return None
    t = mo.table
    x = rng.choice([x for x in t.hands[t.to_move] if len(t.fits(x)) > 1])
    return _at("ambiguous-end-missing", _set_move(doc, mo, {"seat": t.to_move,
                                                            "play": show(x)}), mo)


@kind("end-names-closed-arm")
def _closed_arm(rng: random.Random, doc: dict) -> Mutation | None:
    def test(mo: Moment, mv: dict) -> bool:
        t = mo.table
        return bool(t.on_table) and "up" not in t.arms and bool(t.playable(t.to_move))
    mo = _pick(rng, _move_moments(doc, test))
    if mo is None:
        return None
    t = mo.table
    x = rng.choice(t.playable(t.to_move))
    move = {"seat": t.to_move, "play": show(x), "end": rng.choice(("up", "down"))}
    return _at("end-names-closed-arm", _set_move(doc, mo, move), mo)


@kind("end-not-an-arm")
def _end_not_arm(rng: random.Random, doc: dict) -> Mutation | None:
    def test(mo: Moment, mv: dict) -> bool:
        return bool(mo.table.on_table) and "play" in mv
    mo = _pick(rng, _move_moments(doc, test))
    if mo is None:
        return None
    move = dict(doc["hands"][mo.hand - 1]["moves"][mo.move - 1])
    move["end"] = rng.choice(("middle", "Left", "", 0, ["left"], True))
    return _at("end-not-an-arm", _set_move(doc, mo, move), mo)


@kind("wrong-opening-tile")
def _wrong_opening(rng: random.Random, doc: dict) -> Mutation | None:
    def test(mo: Moment, mv: dict) -> bool:
        t = mo.table
        return mo.move == 1 and t.forced is not None and len(t.hands[t.to_move]) > 1
    mo = _pick(rng, _move_moments(doc, test))
    if mo is None:
        return None
    t = mo.table
    x = rng.choice([x for x in t.hands[t.to_move] if x != t.forced])
    return _at("wrong-opening-tile", _set_move(doc, mo, {"seat": t.to_move, "play": show(x)}),
               mo)


@kind("leader-does-not-set")
def _leader_skips(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: mo.move == 1))
    if mo is None:
        return None
    t = mo.table
    move: dict[str, Any] = {"seat": t.to_move, "pass": True}
    if t.boneyard and rng.random() < 0.5:
        move = {"seat": t.to_move, "draw": show(t.boneyard[0])}
    return _at("leader-does-not-set", _set_move(doc, mo, move), mo)


@kind("draw-when-playable")
def _draw_playable(rng: random.Random, doc: dict) -> Mutation | None:
    def test(mo: Moment, mv: dict) -> bool:
        t = mo.table
        return bool(t.on_table) and bool(t.playable(t.to_move)) and bool(t.boneyard)
    mo = _pick(rng, _move_moments(doc, test))
    if mo is None:
        return None
    t = mo.table
    return _at("draw-when-playable",
               _set_move(doc, mo, {"seat": t.to_move, "draw": show(t.boneyard[0])}), mo)


@kind("draw-in-block")
def _draw_block(rng: random.Random, doc: dict) -> Mutation | None:
    def test(mo: Moment, mv: dict) -> bool:
        return not mo.table.opts["draw"] and "pass" in mv and bool(mo.table.boneyard)
    mo = _pick(rng, _move_moments(doc, test))
    if mo is None:
        return None
    t = mo.table
    return _at("draw-in-block",
               _set_move(doc, mo, {"seat": t.to_move, "draw": show(t.boneyard[0])}), mo)


@kind("draw-below-reserve")
def _draw_reserve(rng: random.Random, doc: dict) -> Mutation | None:
    def test(mo: Moment, mv: dict) -> bool:
        return mo.table.opts["draw"] and "pass" in mv and bool(mo.table.boneyard)
    mo = _pick(rng, _move_moments(doc, test))
    if mo is None:
        return None
    t = mo.table
    return _at("draw-below-reserve",
               _set_move(doc, mo, {"seat": t.to_move, "draw": show(t.boneyard[0])}), mo)


@kind("draw-not-next-tile")
def _draw_wrong(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: "draw" in mv))
    if mo is None:
        return None
    t = mo.table
    others = [x for x in tiles_of(t.opts["set"]) if x != t.boneyard[0]]
    return _at("draw-not-next-tile",
               _set_move(doc, mo, {"seat": t.to_move, "draw": show(rng.choice(others))}), mo)


@kind("pass-when-playable")
def _pass_playable(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: "play" in mv))
    if mo is None:
        return None
    return _at("pass-when-playable",
               _set_move(doc, mo, {"seat": mo.table.to_move, "pass": True}), mo)


@kind("pass-when-draw-possible")
def _pass_draw(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: "draw" in mv))
    if mo is None:
        return None
    return _at("pass-when-draw-possible",
               _set_move(doc, mo, {"seat": mo.table.to_move, "pass": True}), mo)


@kind("pass-not-true")
def _pass_not_true(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: "pass" in mv))
    if mo is None:
        return None
    value = rng.choice((False, 1, "true", None, {}))
    return _at("pass-not-true",
               _set_move(doc, mo, {"seat": mo.table.to_move, "pass": value}), mo)


@kind("unknown-move-field")
def _unknown_move_field(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: True))
    if mo is None:
        return None
    move = dict(doc["hands"][mo.hand - 1]["moves"][mo.move - 1])
    if "play" not in move and rng.random() < 0.5:
        move["end"] = "left"  # "end" belongs to plays only
    else:
        move[rng.choice(("tile", "Seat", "note", "x"))] = 1
    return _at("unknown-move-field", _set_move(doc, mo, move), mo)


@kind("move-not-one-kind")
def _two_kinds(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: True))
    if mo is None:
        return None
    move = dict(doc["hands"][mo.hand - 1]["moves"][mo.move - 1])
    if rng.random() < 0.3:
        move = {"seat": move["seat"]}
    elif "pass" in move:
        move["play"] = "0-0"
    else:
        move["pass"] = True
    return _at("move-not-one-kind", _set_move(doc, mo, move), mo)


@kind("move-not-an-object")
def _move_not_object(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: True))
    if mo is None:
        return None
    move = doc["hands"][mo.hand - 1]["moves"][mo.move - 1]
    value = rng.choice((json.dumps(move), [move], None, 3))
    return _at("move-not-an-object", _set_move(doc, mo, value), mo)


@kind("malformed-tile-in-move")
def _malformed_move(rng: random.Random, doc: dict) -> Mutation | None:
    mo = _pick(rng, _move_moments(doc, lambda mo, mv: "play" in mv or "draw" in mv))
    if mo is None:
        return None
    move = dict(doc["hands"][mo.hand - 1]["moves"][mo.move - 1])
    key = "play" if "play" in move else "draw"
    move[key] = rng.choice(MALFORMED)
    return _at("malformed-tile-in-move", _set_move(doc, mo, move), mo)


@kind("moves-after-hand-ended")
def _after_end(rng: random.Random, doc: dict) -> Mutation | None:
    ended = [mo for mo in moments(doc) if mo.table.end is not None]
    mo = _pick(rng, ended)
    if mo is None:
        return None
    doc = _cut_after(doc, mo.hand - 1)
    t = mo.table
    extra = rng.choice(({"seat": t.to_move, "pass": True},
                        {"seat": t.to_move, "play": show(tiles_of(t.opts["set"])[0])}))
    doc["hands"][mo.hand - 1]["moves"].append(extra)
    return Mutation("moves-after-hand-ended", doc, 1, mo.hand, mo.move)


@kind("unfinished-hand-followed-by-another")
def _unfinished_then(rng: random.Random, doc: dict) -> Mutation | None:
    ended = [i for i, h in enumerate(doc["hands"][:-1]) if h["moves"]]
    i = _pick(rng, ended)
    if i is None:
        return None
    doc = copy.deepcopy(doc)
    moves = doc["hands"][i]["moves"]
    del moves[rng.randrange(len(moves)):]
    return Mutation("unfinished-hand-followed-by-another", doc, 1, hand=i + 1)


@kind("hand-after-game-won")
def _after_won(rng: random.Random, doc: dict) -> Mutation | None:
    result = ref.referee(doc)
    if not result.summary["finished"]:
        return None
    doc = copy.deepcopy(doc)
    opts = result.opts
    t = result.tables[-1]
    deal, bone, seat, _ = deal_hand(rng, opts, (t.leader, ref.hand_outcome(opts, t)[3]))
    doc["hands"].append({"deal": [[show(x) for x in h] for h in deal],
                         "boneyard": [show(x) for x in bone], "leader": seat, "moves": []})
    return Mutation("hand-after-game-won", doc, 1, hand=len(doc["hands"]))


def mutate(rng: random.Random, doc: dict[str, Any], name: str) -> Mutation | None:
    """Apply mutation ``name`` to a valid record, or ``None`` where it does not apply."""
    return MAKERS[name](rng, doc)


def rules_for(name: str, rng: random.Random) -> Any:
    """Rules that make mutation ``name`` likely to apply, or ``None`` for random rules."""
    if name in ("draw-below-reserve", "pass-when-draw-possible", "draw-not-next-tile"):
        return {"preset": "draw", "players": rng.choice((2, 3, 4)), "target": 30}
    if name == "draw-in-block":
        return {"preset": "block", "players": rng.choice((2, 3)), "target": 30}
    if name == "pass-not-true":
        return {"preset": "block", "players": rng.choice((3, 4)), "target": 30}
    if name == "deal-the-rules-redeal":
        return {"players": 2, "opening": rng.choice(("highest-double", "top-double")),
                "no_double": "redeal"}
    if name == "wrong-opening-tile":
        return {"players": 3, "opening": rng.choice(("highest-double", "top-double"))}
    if name == "end-names-closed-arm":
        return {"players": 2, "spinner": rng.choice(("none", "first-double"))}
    if name == "missing-leader-with-lots":
        return {"preset": "pool", "players": rng.choice((2, 3, 4))}
    if name == "hand-after-game-won":
        return {"preset": "block", "players": 2, "target": rng.choice((1, 10, 30))}
    if name == "partnerships-without-four":
        return {"preset": "block", "players": 3}
    return None


def make(name: str, seed: int) -> Mutation:
    """A mutation of kind ``name`` from the first seed at or after ``seed`` where it applies."""
    rng = random.Random(seed)
    for _ in range(400):
        doc = random_record(rng, rules_for(name, rng), max_hands=rng.randint(1, 4),
                            unfinished=0.0 if name == "hand-after-game-won" else 0.2)
        mutation = mutate(rng, doc, name)
        if mutation is not None:
            return mutation
    raise AssertionError(f"mutation {name} never applied")


# -- games played by the engine ------------------------------------------------------------


def engine_rules(rng: random.Random) -> Any:
    """Random rules as an engine ``Rules`` value."""
    from bones.engine.rules import rules_from_json

    given = random_rules(rng)
    return rules_from_json(given, players=given["players"])


def engine_game(rng: random.Random, rules: Any, *, max_hands: int = 6, checked: bool = True,
                on_state: Callable[[Any], None] | None = None) -> Any:
    """Play a game with the engine: its own shuffles, uniformly random legal moves.

    ``checked`` picks ``play`` or ``play_unchecked``; ``on_state`` sees every game value.
    """
    from bones.engine.game import deal_hand, new_game, play, play_unchecked

    step = play if checked else play_unchecked
    game = new_game(rules)
    for _ in range(max_hands):
        if game.finished:
            break
        game = deal_hand(game, rng)
        if on_state is not None:
            on_state(game)
        while game.current is not None:
            game = step(game, rng.choice(game.current.legal_moves()))
            if on_state is not None:
                on_state(game)
    return game


# -- blind fuzzing -------------------------------------------------------------------------

FUZZ_VALUES: tuple[Any, ...] = (
    None, True, False, 0, 1, 2, -1, 3, 1.5, "", "x", "6-6", "6-5", "5-6", "left", "up", "down",
    "right", [], {}, ["6-6"], {"a": 1}, "standard", "pool", "lots", "pagat", 100, "0-0", "2-1",
)
FUZZ_KEYS = ("end", "leader", "x-a", "seed", "pass", "draw", "play", "seat", "players",
             "preset", "hand_size", "comment", "winner")


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def fuzz(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
    """One blind change anywhere in a record: a value replaced, a key or item removed, or a
    key or item added. The result may still be valid; the referee decides."""
    doc = copy.deepcopy(doc)
    path = rng.choice(_paths(doc)[1:])
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    r = rng.random()
    if r < 0.6:
        parent[last] = copy.deepcopy(rng.choice(FUZZ_VALUES))
    elif r < 0.8:
        del parent[last]
    elif isinstance(parent, dict):
        parent[rng.choice(FUZZ_KEYS)] = copy.deepcopy(rng.choice(FUZZ_VALUES))
    else:
        parent.insert(last, copy.deepcopy(rng.choice(FUZZ_VALUES)))
    return doc
