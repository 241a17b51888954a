"""A hand resampled from one seat's information state: what OpenSpiel's information-set
searches (IS-MCTS) ask a game for (``State.resample_from_infostate``).

``resample(hand, seat, rng)`` returns a ``Hand`` that ``seat`` cannot tell from ``hand``: its
own deal and draws, the leader, every public move, whose turn it is and how the hand ended
are the same, so its information state and its observation (strings and tensors) are too.
What the seat does not see is drawn afresh from the tiles it has not seen: the other seats'
deals, the tiles they drew, the boneyard.

Only what the seat may know is read (``Known``: the hand with every other seat's tiles and
draws blanked), so the result never depends on the hidden tiles: two hands the seat cannot
tell apart give the same resample from the same ``rng``.

Every hand returned is checked by replaying it through ``Hand`` from the first tile dealt:
each tile dealt must be one the deal could give (a redeal rule keeps only some deals), the
same seat must lead (and open with the same tile, where the seat is the leader and knows
it), and every public move must be legal where it was made, every draw forced, every pass
forced. The other seats' tiles are proposed so that most proposals pass: a tile a seat
played was dealt to it or drawn by it before the play, and no seat holds a tile of a
number while it passes or draws on that number (its voids, as ``bones.ai.beliefs`` reads
them). Proposals that fail the replay (a deal that would have given another leader, say)
are drawn again. Every consistent hand can be returned, but not with exactly the odds the
deal gives it: each is a fair guess at the hidden tiles, not an exact posterior.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bones.engine.layout import empty_layout
from bones.engine.moves import ARMS
from bones.research.core import (
    DEAL,
    DRAWING,
    DRAWN,
    FIRST,
    LOTS,
    OVER,
    PASSED,
    PLAY,
    Hand,
    Setup,
)

#: Proposals drawn before giving up (a hand whose other seats' tiles are pinned down so far
#: that almost no proposal replays; none of the tests' hands comes near it).
TRIES = 2_000


@dataclass(frozen=True, slots=True)
class Known:
    """What ``seat`` knows of a hand: the rules, its own deal and draws (in ``history``),
    the public moves with the other seats' draws blanked (tile 0), the leader, its
    opening where it leads, whose turn, the end, how many tiles were dealt so far and how
    many are in the boneyard."""

    setup: Setup
    seat: int
    phase: int
    dealt_so_far: int
    own_deal: tuple[int, ...]
    history: tuple[int, ...]
    leader: int
    opening: int
    to_move: int
    end: int
    boneyard: int

    @classmethod
    def of(cls, hand: Hand, seat: int) -> Known:
        s = hand.setup
        blanked = tuple(code if code & 7 != DRAWN or code >> 16 == seat
                        else (code >> 16) << 16 | DRAWN for code in hand.history)
        dealt = sum(len(d) for d in hand.deal)
        return cls(setup=s, seat=seat, phase=hand.phase, dealt_so_far=dealt,
                   own_deal=tuple(hand.deal[seat]), history=blanked, leader=hand.leader,
                   opening=hand.opening if seat == hand.leader else -1,
                   to_move=hand.to_move, end=hand.end, boneyard=len(hand.boneyard))


def resample(hand: Hand, seat: int, rng: random.Random, tries: int = TRIES) -> Hand:
    """A hand ``seat`` cannot tell from ``hand``, its hidden tiles drawn from ``rng`` (see
    the module). ``RuntimeError`` if ``tries`` proposals all fail to replay."""
    known = Known.of(hand, seat)
    for _ in range(tries):
        found = _dealing(known, rng) if known.phase == DEAL else _propose(known, rng)
        if found is not None:
            return found
    raise RuntimeError(f"no hand consistent with seat {seat}'s information state was found "
                       f"in {tries} tries")


def _dealing(known: Known, rng: random.Random) -> Hand | None:
    """During the deal: the other seats' tiles so far, each drawn with the deal's own odds
    (``Hand.chance_outcomes``) from the tiles ``seat`` has not been dealt."""
    hand = Hand(known.setup)
    own = iter(known.own_deal)
    mine = set(known.own_deal)
    for _ in range(known.dealt_so_far):
        outcomes = hand.chance_outcomes()
        if hand.dealing_to == known.seat:
            tile = next(own)
            if not any(t == tile and p > 0 for t, p in outcomes):
                return None
        else:
            choices = [(t, p) for t, p in outcomes if t not in mine and p > 0]
            if not choices:
                return None
            tile = rng.choices([t for t, _ in choices], [p for _, p in choices])[0]
        hand.apply(tile)
    return hand if hand.phase == DEAL else None


def _propose(known: Known, rng: random.Random) -> Hand | None:
    """After the deal: the other seats' deals and draws proposed from the unseen tiles
    (each seat's plays and voids respected), then replayed (``_replay``)."""
    s, seat = known.setup, known.seat
    never = 1 << 30  # a tile never played is held to the end
    own_draws = [code >> 3 & 0x1FFF for code in known.history
                 if code & 7 == DRAWN and code >> 16 == seat]
    seen = set(known.own_deal) | set(own_draws)
    # When each other seat played which tile, and which numbers it showed it lacked when:
    # a pass or a draw at move i means the seat held no tile of the open numbers then.
    played: dict[int, tuple[int, int]] = {}  # tile -> (seat, move index)
    voids: list[list[tuple[int, int]]] = [[] for _ in range(s.players)]
    draw_events: list[tuple[int, int]] = []  # (seat, move index) of the other seats' draws
    layout = empty_layout(s.rules)
    for i, code in enumerate(known.history):
        who, t, kind = code >> 16, code >> 3 & 0x1FFF, code & 7
        if kind in (PASSED, DRAWN):
            if who != seat:
                mask = 0
                for n in layout.open_numbers():
                    mask |= 1 << n
                voids[who].append((i, mask))
                if kind == DRAWN:
                    draw_events.append((who, i))
            continue
        tile = s.tiles[t]
        layout = layout.place(tile, None if kind == FIRST else ARMS[kind])
        if who != seat:
            played[t] = (who, i)
    unseen = [t for t in range(s.count) if t not in seen]
    # Slots: each other seat's deal, and each of their draws (its seat and its move index).
    others = [j for j in range(s.players) if j != seat]
    room = {("deal", j): s.dealt for j in others}
    starts = {("deal", j): -1 for j in others}
    owners = {("deal", j): j for j in others}
    for k, (who, i) in enumerate(draw_events):
        room[("draw", k)] = 1
        starts[("draw", k)] = i
        owners[("draw", k)] = who

    def fits(t: int, slot: tuple[str, int]) -> bool:
        """Whether tile ``t`` may have come to the seat by ``slot``: before its play, if
        it was played (by that seat), and held through none of that seat's voids."""
        who, start = owners[slot], starts[slot]
        end = never
        if t in played:
            player, end = played[t]
            if player != who or start >= end:
                return False
        bits = s.bits[t]
        return not any(start < i < end and bits & mask for i, mask in voids[who])

    placed: dict[tuple[str, int], list[int]] = {slot: [] for slot in room}
    free = set(unseen)
    tiles = list(played)
    rng.shuffle(tiles)
    options = {t: [slot for slot in room if fits(t, slot)] for t in tiles}
    tiles.sort(key=lambda t: len(options[t]))  # the most constrained first
    for t in tiles:
        open_slots = [slot for slot in options[t] if len(placed[slot]) < room[slot]]
        if not open_slots:
            return None
        slot = rng.choice(open_slots)
        placed[slot].append(t)
        free.discard(t)
    order = list(room)
    rng.shuffle(order)
    order.sort(key=lambda slot: slot[0] == "deal")  # the draws (one tile each) first
    for slot in order:
        need = room[slot] - len(placed[slot])
        if need <= 0:
            continue
        fitting = sorted(t for t in free if fits(t, slot))
        if len(fitting) < need:
            return None
        chosen = rng.sample(fitting, need)
        placed[slot] += chosen
        free.difference_update(chosen)
    deals = {j: sorted(placed[("deal", j)]) for j in others}
    deals[seat] = sorted(known.own_deal)
    draws = [placed[("draw", k)][0] for k in range(len(draw_events))]
    return _replay(known, deals, draws)


def _replay(known: Known, deals: dict[int, list[int]], draws: list[int]) -> Hand | None:
    """The hand of these deals and the other seats' draws (in order), replayed move by move
    through the public history; ``None`` where any step could not have happened."""
    s, seat = known.setup, known.seat
    hand = Hand(s)
    for j in range(s.players):
        for t in deals[j]:
            if not any(o == t and p > 0 for o, p in hand.chance_outcomes()):
                return None  # a deal the rules would have redealt
            hand.apply(t)
    if hand.phase == LOTS:
        if known.phase == LOTS:
            return hand
        hand.apply(known.leader)
    if known.phase == LOTS or hand.leader != known.leader:
        return None
    if known.opening >= 0 and hand.opening != known.opening:
        return None
    other_draws = iter(draws)
    for code in known.history:
        who, t, kind = code >> 16, code >> 3 & 0x1FFF, code & 7
        if hand.to_move != who:
            return None
        if kind == DRAWN:
            if hand.phase != DRAWING:
                return None
            tile = t if who == seat else next(other_draws)
            if tile not in hand.boneyard:
                return None
            hand.apply(tile)
            continue
        if hand.phase != PLAY:
            return None
        action = s.pass_action if kind == PASSED else t * s.arms + (0 if kind == FIRST
                                                                      else kind)
        if action not in hand.legal_actions():
            return None
        hand.apply(action)
    if (hand.phase, hand.to_move, hand.end) != (known.phase, known.to_move, known.end):
        return None
    if known.phase == OVER or len(hand.boneyard) == known.boneyard:
        return hand
    return None
