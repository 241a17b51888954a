"""Where the browser tests find their browser, and what they do without one: Debian's
Chromium (``/usr/bin/chromium``, or ``BONES_CHROMIUM``) driven by Playwright for Python,
launched by its path since Playwright's own browser download is not reachable from CI.

Without Playwright or that Chromium a browser test is skipped, saying which is missing and
how to get it; where the browser tests are required (``BONES_REQUIRE_BROWSER=1``, which
``.ci/run`` sets, or ``CI`` set) it fails instead, so that CI never passes a page it did not
look at."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any, NoReturn

import pytest

CHROMIUM = os.environ.get("BONES_CHROMIUM", "/usr/bin/chromium")
#: Headless in a container: no sandbox (it needs privileges a container lacks), and no
#: calls out to the network that nothing here could answer.
ARGS = ["--no-sandbox", "--disable-background-networking"]


def required() -> bool:
    return os.environ.get("BONES_REQUIRE_BROWSER") == "1" or bool(os.environ.get("CI"))


def unavailable() -> str | None:
    """Why no browser test can run here, or ``None`` when one can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    if not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set BONES_CHROMIUM)"
    return None


def skip_or_fail(reason: str) -> NoReturn:
    if required():
        pytest.fail(f"browser tests are required here: {reason}")
    pytest.skip(reason)


def need_browser() -> None:
    """Go on only where a browser test can run (see the module's docstring)."""
    reason = unavailable()
    if reason is not None:
        skip_or_fail(reason)


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium for the block (a ``playwright.sync_api.Browser``)."""
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
