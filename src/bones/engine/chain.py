"""``Chain``: an immutable sequence that grows at its end, for the hands of a ``Game``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Chain(Sequence[T], Generic[T]):
    """An immutable sequence, a value as a tuple is, that grows at its end (``append``) and
    changes its last item (``with_last``) in constant time: the new chain shares every
    other item with the old one. ``len``, ``chain[-1]`` and iterating are as cheap as a
    tuple's; another index walks back from the end, and a slice is a tuple. Equal to a
    tuple or a chain of equal items."""

    __slots__ = ("_length", "_links")

    def __init__(self, items: Iterable[T] = ()) -> None:
        links: tuple[Any, ...] | None = None
        length = 0
        for item in items:
            links = (item, links)
            length += 1
        #: ``(last item, links of the items before it)``, or ``None`` when empty: nested
        #: tuples, which Python frees without recursing however long the chain.
        self._links = links
        self._length = length

    @classmethod
    def _made(cls, links: tuple[Any, ...] | None, length: int) -> Chain[T]:
        chain: Chain[T] = cls.__new__(cls)
        chain._links, chain._length = links, length
        return chain

    def append(self, item: T) -> Chain[T]:
        """This chain with ``item`` after its last."""
        return self._made((item, self._links), self._length + 1)

    def with_last(self, item: T) -> Chain[T]:
        """This chain with its last item replaced by ``item`` (``IndexError`` if empty)."""
        if self._links is None:
            raise IndexError("an empty chain has no last item")
        return self._made((item, self._links[1]), self._length)

    def __len__(self) -> int:
        return self._length

    def _backwards(self) -> Iterator[T]:
        links = self._links
        while links is not None:
            yield links[0]
            links = links[1]

    def __iter__(self) -> Iterator[T]:
        items = list(self._backwards())
        items.reverse()
        return iter(items)

    def __reversed__(self) -> Iterator[T]:
        return self._backwards()

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        if index == -1 and self._links is not None:  # the hand in play: asked every move
            last: T = self._links[0]
            return last
        if isinstance(index, slice):
            return tuple(self)[index]
        position = index + self._length if index < 0 else index
        if not 0 <= position < self._length:
            raise IndexError("chain index out of range")
        links = self._links
        for _ in range(self._length - 1 - position):
            assert links is not None
            links = links[1]
        assert links is not None
        item: T = links[0]
        return item

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chain | tuple):
            return NotImplemented
        return len(self) == len(other) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Chain({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # as a list of items: pickling the nested links would recurse once per item
        return type(self), (list(self),)
