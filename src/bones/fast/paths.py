"""Choosing a playout path (the C extension or pure Python) and running it on a caller's RNG.

The C path keeps its own copy of the Mersenne Twister: it takes the words of
``rng.getstate()``, draws exactly the numbers ``rng.shuffle`` and ``rng.choice`` would have
drawn, and puts the words back with ``rng.setstate()``, so after a run the caller's RNG is
where the engine would have left it. That only holds for ``random.Random`` itself: a
subclass may draw its numbers differently, so it always takes the pure path, which calls
the RNG's own methods. The C path runs without the GIL; another thread drawing from the same
RNG meanwhile would have its numbers overwritten when the state is put back.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from typing import Literal

from bones.engine.rules import Rules
from bones.fast import pure
from bones.fast.params import Params, agrees, c_limits, params
from bones.fast.results import RawHand

Backend = Literal["c", "python"]

#: Set to a non-empty value other than ``0`` to make ``"python"`` the default path.
PURE_ENV = "BONES_PURE"


#: ``_playout.run``: ``(params, words, count, by_hands, trace) -> (words, totals, raw hands)``.
CRun = Callable[[Params, tuple[int, ...], int, bool, bool],
                tuple[tuple[int, ...], tuple[int, ...], list[RawHand] | None]]


def _load_extension() -> CRun | None:
    try:
        from bones.fast import _playout
    except ImportError:  # installed where no C compiler worked
        return None
    if not agrees(_playout, "OUT", "BLOCKED"):  # built from older sources: rebuild it
        return None
    return _playout.run


_c_run = _load_extension()


def extension_built() -> bool:
    """Whether the C extension was compiled and imports."""
    return _c_run is not None


def c_supports(rules: Rules) -> str | None:
    """Why the C playouts cannot play ``rules`` (one line naming the option and its value),
    or ``None`` when they can: what the pure path cannot play, and the C path's own limits
    on ``target``, ``ante`` and ``reserve`` (where, by default, the pure path plays)."""
    return pure.supports(rules) or c_limits(params(rules))


def default_backend() -> Backend:
    """``"c"`` when the extension is built and ``BONES_PURE`` is not set, else ``"python"``."""
    if _c_run is None or os.environ.get(PURE_ENV, "") not in ("", "0"):
        return "python"
    return "c"


def _resolve(rng: random.Random, backend: Backend | None) -> Backend:
    if backend is None:
        chosen = default_backend()
        return chosen if type(rng) is random.Random else "python"
    if backend == "c":
        if _c_run is None:
            raise RuntimeError("the C playout extension (bones.fast._playout) is not built; "
                               "reinstall with a C compiler, or use backend='python'")
        if type(rng) is not random.Random:
            raise TypeError(f"the C path replays random.Random's own generator, not "
                            f"{type(rng).__name__}'s; use backend='python'")
        return "c"
    if backend == "python":
        return "python"
    raise ValueError(f"backend must be 'c' or 'python', not {backend!r}")


def run(rules: Rules, rng: random.Random, count: int, unit: Literal["games", "hands"],
        trace: bool, backend: Backend | None) -> tuple[Sequence[int], list[RawHand]]:
    """Play until ``count`` games have finished, or ``count`` hands have been played; return
    the flat totals and, with ``trace``, the raw hands."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise ValueError(f"{unit} must be a whole number of at least 0, not {count!r}")
    p = params(rules)  # ValueError naming the option if no path plays these rules
    by_hands = unit == "hands"
    chosen = _resolve(rng, backend)
    limit = c_limits(p) if chosen == "c" else None
    if limit is not None:
        if backend == "c":
            raise ValueError(f"{limit}; use backend='python'")
        chosen = "python"  # the same game, with integers that have no bound
    if chosen == "python":
        return pure.run(p, rng, count, by_hands, trace)
    assert _c_run is not None
    version, words, gauss = rng.getstate()
    words, flat, raws = _c_run(p, words, count, by_hands, trace)
    rng.setstate((version, words, gauss))
    return flat, raws or []
