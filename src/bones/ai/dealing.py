"""Uniform deals under constraints: which tiles each seat may hold and how many it holds.

A seat's view says how many tiles every other seat holds and, from passes and draws, which
numbers some of them lack. Every deal that agrees with that is equally likely (before the
plays themselves are read), so the search bots must draw deals uniformly among them.

Dealing the seats one after another, each a random share of what it may hold, is not
uniform: an earlier seat takes its share without regard to what the later seats may hold,
so a later seat gets too many of the tiles the earlier one could not take. With two seats
that lack numbers, such a sampler put one tile in a hand 53% of the time where the view
makes it 28%. So the deals are counted: tiles are grouped by which seats may hold them, and
each group's split among those seats is drawn in proportion to the number of deals that
complete it. Seats that may hold any tile are dealt last, from what is left, which is
uniform without counting.

Counting grows with the number of seats that lack different numbers and the tiles they
hold; where it would be too dear (many seats with many tiles, on the largest sets),
``Sequential`` deals seat after seat instead, close to uniform but not exactly.
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from collections.abc import Sequence

from bones.engine.tiles import Tile

#: Splits of a group a count may try per state it is allowed (a state tries a few on
#: average, but one of many seats holding many tiles may try millions).
SPLITS_PER_STATE = 50


class TooDear(Exception):
    """Counting the deals would visit more states than it was allowed."""


class DealCount:
    """Deals of ``tiles``: ``needs[i]`` of them to each seat ``i``, only tiles in
    ``allowed[i]``, and the rest to the boneyard in random draw order. ``deal`` draws one,
    every such deal equally likely; ``possible`` says whether there is any.

    Only the seats that may not hold some tile are counted for, and seats that may hold
    the same tiles (several seats often pass on the same open numbers) are counted as one
    that holds all their tiles, which are then shared among them at random: the counting
    grows with the number of such classes, not of seats."""

    def __init__(self, tiles: Sequence[Tile], needs: Sequence[int],
                 allowed: Sequence[frozenset[Tile]], limit: int | None = None) -> None:
        self.needs = tuple(needs)
        self.size = len(tiles)
        whole = frozenset(tiles)
        classes: dict[frozenset[Tile], list[int]] = {}
        for seat, held in enumerate(allowed):
            classes.setdefault(held & whole, []).append(seat)
        #: The seats that may hold any tile; they are dealt from what the others leave.
        self.free = classes.pop(whole, [])
        #: The other seats, by the tiles they may hold.
        self.bound = list(classes.values())
        groups: dict[int, list[Tile]] = {}
        for tile in tiles:
            mask = sum(1 << k for k, held in enumerate(classes) if tile in held)
            groups.setdefault(mask, []).append(tile)
        # smallest groups first: fewer needs left to tell apart when they are counted
        masks = sorted(groups, key=lambda m: (len(groups[m]), m))
        self.groups = [groups[m] for m in masks]
        self.plan = _Plan(tuple((m, len(groups[m])) for m in masks),
                          tuple(sum(self.needs[i] for i in seats) for seats in self.bound),
                          limit)

    @property
    def states(self) -> int:
        """The states counted so far: the work this table has cost."""
        return len(self.plan.counted)

    @property
    def possible(self) -> bool:
        return self.count > 0

    @property
    def count(self) -> int:
        """How many deals there are (hands and boneyard as sets of tiles): the ways to
        fill each class of bound seats, times the ways to share each class's tiles among
        its seats and what they leave among the free seats and the boneyard."""
        rest = self.size - sum(self.plan.needs)
        if sum(self.needs[i] for i in self.free) > rest:
            return 0
        ways = self.plan.total()
        for seats in [*self.bound, self.free]:
            ways *= _shares([self.needs[i] for i in seats])
        return ways * math.comb(rest, sum(self.needs[i] for i in self.free))

    def deal(self, rng: random.Random) -> tuple[list[tuple[Tile, ...]], list[Tile]]:
        """One deal: the seats' hands, and the boneyard in draw order."""
        plan = self.plan
        held: list[list[Tile]] = [[] for _ in self.bound]
        rest: list[Tile] = []
        left = plan.needs
        for index, tiles in enumerate(self.groups):
            split = plan.draw(index, left, rng.random())
            if not any(split):
                rest.extend(tiles)
                continue
            group = tiles[:]
            rng.shuffle(group)
            at = 0
            for k, count in enumerate(split):
                if count:
                    held[k].extend(group[at:at + count])
                    at += count
            left = tuple(n - c for n, c in zip(left, split, strict=True))
            rest.extend(group[at:])
        hands: list[tuple[Tile, ...]] = [()] * len(self.needs)
        for seats, tiles in zip(self.bound, held, strict=True):
            self._share(seats, tiles, hands, rng)
        rng.shuffle(rest)
        return hands, self._share(self.free, rest, hands, rng)

    def _share(self, seats: list[int], tiles: list[Tile], hands: list[tuple[Tile, ...]],
               rng: random.Random) -> list[Tile]:
        """Share ``tiles`` at random among ``seats`` (which may all hold any of them);
        returns what is left over. The caller shuffles the boneyard; a class of one seat
        takes all its tiles, in any order."""
        if len(seats) > 1:
            rng.shuffle(tiles)
        at = 0
        for seat in seats:
            hands[seat] = tuple(tiles[at:at + self.needs[seat]])
            at += self.needs[seat]
        return tiles[at:]


class Sequential:
    """Deals drawn seat after seat, the seat that may hold the fewest tiles first, each a
    random sample of the tiles left that it may hold; the rest is the boneyard, shuffled.
    Not uniform (a later seat gets too many of the tiles an earlier one may not hold), so
    it is only for where counting the deals (``DealCount``) would be too dear."""

    #: Attempts before ``deal`` gives up (an early seat may take what a later one needs).
    TRIES = 40

    def __init__(self, tiles: Sequence[Tile], needs: Sequence[int],
                 allowed: Sequence[frozenset[Tile]]) -> None:
        self.tiles = list(tiles)
        self.needs = tuple(needs)
        self.allowed = list(allowed)
        self.order = sorted(range(len(needs)), key=lambda i: len(allowed[i]))

    def deal(self, rng: random.Random) -> tuple[list[tuple[Tile, ...]], list[Tile]] | None:
        """One deal, or ``None`` when every attempt left a seat short."""
        for _ in range(self.TRIES):
            pool = set(self.tiles)
            hands: list[tuple[Tile, ...]] = [()] * len(self.needs)
            for seat in self.order:
                may = sorted(pool & self.allowed[seat])
                if len(may) < self.needs[seat]:
                    break
                hands[seat] = tuple(rng.sample(may, self.needs[seat]))
                pool.difference_update(hands[seat])
            else:
                boneyard = sorted(pool)
                rng.shuffle(boneyard)
                return hands, boneyard
        return None


def _shares(needs: list[int]) -> int:
    """The ways to share ``sum(needs)`` tiles among seats that take ``needs`` of them."""
    ways = math.factorial(sum(needs))
    for need in needs:
        ways //= math.factorial(need)
    return ways


class _Plan:
    """The number of deals of grouped tiles to the bound seats, counted group by group:
    ``ways(i, needs)`` is how many ways groups ``i`` onwards can fill exactly ``needs``
    (what they do not give the bound seats is left for the free seats and the boneyard),
    and ``draw`` picks a split of group ``i`` in proportion to the deals it leaves."""

    def __init__(self, groups: tuple[tuple[int, int], ...], needs: tuple[int, ...],
                 limit: int | None = None) -> None:
        self.groups = groups
        self.needs = needs
        #: States allowed for counting (``TooDear`` past them), and the splits of a group
        #: tried so far (a state of many seats may try very many: they are capped too).
        self.limit = limit
        self.tried = 0
        self._total: int | None = None
        #: ``ways`` of every state worked out so far, by (group, needs).
        self.counted: dict[tuple[int, tuple[int, ...]], int] = {}
        self._draws: dict[tuple[int, tuple[int, ...]],
                          tuple[list[int], list[tuple[int, ...]]]] = {}
        #: Per group, how many tiles of the groups after it each seat may hold.
        self.later = [tuple(sum(n for m, n in groups[index + 1:] if m >> k & 1)
                            for k in range(len(needs)))
                      for index in range(len(groups))]

    def ways(self, index: int, needs: tuple[int, ...]) -> int:
        if index == len(self.groups):
            return 0 if any(needs) else 1
        key = (index, needs)
        found = self.counted.get(key)
        if found is None:
            if self.limit is not None and len(self.counted) >= self.limit:
                raise TooDear(f"counting the deals needs more than {self.limit} states")
            found = sum(w for w, _ in self._options(index, needs))
            self.counted[key] = found
        return found

    def total(self) -> int:
        """The number of deals, counted once within ``limit`` states."""
        if self._total is None:
            self._total = self.ways(0, self.needs)
            self.limit = None  # drawing only revisits states counted already
        return self._total

    def draw(self, index: int, needs: tuple[int, ...], unit: float) -> tuple[int, ...]:
        """The split of group ``index`` for the uniform ``unit`` in [0, 1)."""
        key = (index, needs)
        found = self._draws.get(key)
        if found is None:
            running = 0
            cumulative: list[int] = []
            splits: list[tuple[int, ...]] = []
            for weight, split in self._options(index, needs):
                running += weight
                cumulative.append(running)
                splits.append(split)
            found = self._draws[key] = (cumulative, splits)
        cumulative, splits = found
        # min(): a unit just below 1 times a huge count may round up to the count itself
        return splits[min(bisect.bisect_right(cumulative, unit * cumulative[-1]),
                          len(splits) - 1)]

    def _options(self, index: int, needs: tuple[int, ...],
                 ) -> list[tuple[int, tuple[int, ...]]]:
        """Each split of group ``index`` that leaves a completable deal, with its count of
        deals: the ways to choose which of its tiles go to each seat in turn (at most what
        the seat still needs, at least what the later groups cannot make up), times the
        ways of the rest. What a split leaves goes to the free seats and the boneyard,
        which then hold exactly the rest once the bound seats are full."""
        mask, size = self.groups[index]
        later = self.later[index]
        choose = _choose(size)
        partial: list[tuple[tuple[int, ...], int, int]] = [((), size, 1)]
        for k, need in enumerate(needs):
            low = max(0, need - later[k])
            if not mask >> k & 1:
                if low:
                    return []
                partial = [(split + (0,), left, ways) for split, left, ways in partial]
                continue
            partial = [(split + (c,), left - c, ways * choose[left][c])
                       for split, left, ways in partial
                       for c in range(low, min(need, left) + 1)]
            self.tried += len(partial)
            if self.limit is not None and self.tried > SPLITS_PER_STATE * self.limit:
                raise TooDear(f"counting the deals tries more than {self.tried} splits")
        out = []
        for split, _, ways in partial:
            rest = self.ways(index + 1, tuple(n - c for n, c in zip(needs, split, strict=True)))
            if rest:
                out.append((ways * rest, split))
        return out


@functools.lru_cache(maxsize=8)
def _choose(size: int) -> list[list[int]]:
    """Binomial coefficients ``C(n, k)`` for every ``n`` up to ``size``."""
    return [[math.comb(n, k) for k in range(n + 1)] for n in range(size + 1)]
