"""The web table in a real browser: Playwright for Python drives Debian's Chromium
(headless) against ``bones serve`` running as a real process on a free loopback port, as
people would use it: a table made in the lobby's form, two people joining by the invite
link in two browser contexts and playing a whole hand with a bot by clicking tiles (and
choosing the arm when a tile fits two), a spectator watching, a reload in the middle of a
hand, and a hand played from the keyboard alone. The ARIA live region is checked to
announce every move, and screenshots are taken at desktop (1280 x 800) and phone
(375 x 740) sizes, where the page must not scroll sideways.

The screenshots go to ``$BONES_SCREENSHOTS`` when it is set, else to a folder of pytest's
temporary directory; the test prints which. Where Playwright or Chromium is missing the
tests skip and say why, unless ``BONES_REQUIRE_BROWSER=1`` (``.ci/run`` sets it) or ``CI``
is set (as for tests/test_page_layout.py), where they fail instead. Elements are found by
their ARIA role, label and text, as a screen reader finds them, so the page's look may
change under the tests.

Every wait is bounded, and the server is stopped whatever happens (``serving``).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import browsers
from test_server_process import post, serving

pytestmark = pytest.mark.timeout(180)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}
#: Short hands that often offer a tile two arms: a double-three set, three tiles each,
#: the double-three set first (so both arms show 3 at once). A game to 500 is never over
#: within the few hands a test plays.
SHORT = {"preset": "block", "set": 3, "hand_size": 3, "opening": "top-double", "target": 500}
#: Bounds on waiting for the page, in milliseconds.
WAIT = 10_000
TILE = re.compile(r"^(\d+)-(\d+)")
#: The hand's log as the page shows it, and whether it shows a hand's end (in JavaScript,
#: for waits that watch the page).
LOG = ("Array.from(document.querySelectorAll('[aria-label=\"this hand\\'s moves\"] li'),"
       " li => li.textContent)")
OVER = ("Array.from(document.querySelectorAll('h2'))"
        ".some(h => /^Hand \\d+: /.test(h.textContent) && h.offsetParent !== null)")
#: The arm question, as JavaScript finds it.
ARMS = '[role=group][aria-label="which arm"]'
#: Every text the page gives its live region, kept in the page as it is given (a test that
#: looked at the region now and then would miss those that come fast, and two that come in
#: one go would show only the second to a MutationObserver); and how many moves of each
#: hand came to the page as they happened (``moved`` events: a move that came before the
#: page said hello is in the ``state`` it was sent, and is not announced move by move: the
#: page says where the table stands instead).
RECORD_LIVE = """
(() => {
  window.__said = [];
  window.__moved = {};
  const text = Object.getOwnPropertyDescriptor(Node.prototype, "textContent");
  Object.defineProperty(Node.prototype, "textContent", {
    get() { return text.get.call(this); },
    set(value) {
      if (this.getAttribute && this.getAttribute("role") === "status" && value) {
        window.__said.push(String(value));
      }
      text.set.call(this, value);
    },
  });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (message) => {
        try {
          const frame = JSON.parse(message.data);
          if (frame.type === "event" && frame.event.type === "moved") {
            const hand = frame.status.hand;
            window.__moved[hand] = (window.__moved[hand] || 0) + 1;
          }
        } catch { /* not ours to judge */ }
      });
    }
  };
})();
"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the module; each test opens its own contexts (a context
    is a browser profile of its own: its own localStorage, so its own seats)."""
    with browsers.chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``bones serve`` (``--pace 0``, a fresh SQLite file) for the module: its address."""
    folder = tmp_path_factory.mktemp("serve")
    with serving(folder / "bones.db", folder / "serve.log") as (_, port):
        yield f"http://127.0.0.1:{port}"
    assert "Traceback" not in (folder / "serve.log").read_text()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    named = os.environ.get("BONES_SCREENSHOTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"browser screenshots: {folder}")
    return folder


@contextlib.contextmanager
def person(chromium: Any, size: dict[str, int] = DESKTOP) -> Iterator[Any]:
    """A page in a browser context of its own, at ``size`` (a phone's has touch), recording
    what its live region says; closed at the end of the block."""
    phone = size["width"] < 600
    context = chromium.new_context(viewport=size, is_mobile=phone, has_touch=phone)
    context.set_default_timeout(WAIT)
    context.add_init_script(RECORD_LIVE)
    try:
        yield context.new_page()
    finally:
        context.close()


def snap(page: Any, shots: Path, name: str, whole: bool = False) -> None:
    """A screenshot (of the ``whole`` page, or of the screen), and the check that the page
    is no wider than the screen."""
    page.screenshot(path=str(shots / f"{name}.png"), full_page=whole)
    width = page.evaluate("document.scrollingElement.scrollWidth")
    screen = page.viewport_size["width"]
    assert width <= screen, f"{name}: the page is {width} px wide on a {screen} px screen"


def make_table(site: str, seats: list[str], rules: dict[str, Any] | None = None
               ) -> dict[str, Any]:
    return post(int(site.rsplit(":", 1)[1]), "/api/tables",
                {"rules": rules or SHORT, "seats": seats, "think": 0.05})


def join(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Sit down").click()
    page.get_by_role("group", name="your tiles").wait_for()


# -- reading the table as a person sees it --------------------------------------------------------


def hand(page: Any) -> Any:
    return page.get_by_role("group", name="your tiles")


def playable(page: Any) -> list[str]:
    """The tiles the page offers to play now (none when it is not this seat's turn)."""
    labels = hand(page).get_by_role("button", name=re.compile(r", playable")) \
        .evaluate_all("nodes => nodes.filter(n => !n.disabled).map(n => n.ariaLabel)")
    return [label.split(",")[0] for label in labels]


def held(page: Any) -> list[str]:
    labels = hand(page).get_by_role("button").evaluate_all(
        "nodes => nodes.map(n => n.ariaLabel)")
    return [label.split(",")[0] for label in labels]


def open_ends(page: Any) -> dict[str, int]:
    """The arms' open numbers, from the board's "Open ends: left 3, right 5"."""
    text = page.get_by_text(re.compile(r"^Open ends: ")).text_content()
    return {arm: int(n) for arm, n in re.findall(r"(\w+) (\d+)", text)}


def arms_for(tile: str, ends: dict[str, int]) -> list[str]:
    match = TILE.match(tile)
    assert match, tile
    pips = {int(match[1]), int(match[2])}
    return [arm for arm, number in ends.items() if number in pips]


def moves(page: Any) -> list[str]:
    """The hand's log, one line a move ("Ana plays 3-1 on the left.")."""
    return page.get_by_role("list", name="this hand's moves").get_by_role("listitem") \
        .all_text_contents()


def said(page: Any) -> list[str]:
    return list(page.evaluate("window.__said"))


def hand_number(page: Any) -> int:
    """The hand the page's heading names ("… · game 1, hand 3 · …")."""
    heading = page.get_by_text(re.compile(r"hand \d+ ·")).text_content()
    return int(re.findall(r"hand (\d+) ·", heading)[0])


def assert_announced(page: Any) -> int:
    """The live region said each move of the hand on the page that came as it happened,
    in order, as the log words it, and then the hand's end (as it happened, or as the page
    first found it: a Block hand of three tiles a seat can be blocked by the bot's plays and
    the person's forced passes before the page of the seat taken last says hello); how many
    moves came so."""
    # the end is said in the same step that shows it, but wait for it rather than race it
    page.wait_for_function("() => window.__said.length && "
                           "/^Hand \\d+ (over|is blocked)/.test(window.__said.at(-1))",
                           timeout=WAIT)
    log = moves(page)
    hand = hand_number(page)
    came = page.evaluate(f"window.__moved[{hand}] || 0")
    spoken = said(page)
    dealt = [i for i, text in enumerate(spoken) if re.match(rf"Hand {hand}: .* leads\.$", text)]
    this_hand = spoken[dealt[-1] + 1:] if dealt else spoken
    announced = [text.removesuffix(" Your turn.") for text in this_hand
                 if not text.startswith("Hand ")]
    assert announced == log[len(log) - came:], (announced, log, came)
    assert re.match(rf"Hand {hand} (over|is blocked)", this_hand[-1]), this_hand
    return int(came)


def hand_over(page: Any) -> Any:
    return page.get_by_role("heading", name=re.compile(r"^Hand \d+: "))


def wait_for_move(page: Any, name: str, tile: str, before: int) -> None:
    """Until the page's log holds ``name``'s play of ``tile`` (the server took it)."""
    page.wait_for_function(
        f"([before, text]) => {LOG}.slice(before).some(t => t.startsWith(text))",
        arg=[before, f"{name} plays {tile}"])


def click_turn(page: Any, name: str, prefer_two_arms: bool = True) -> str | None:
    """Play one tile with the mouse if it is this seat's turn: a tile that fits two arms if
    there is one (the page must then ask which arm, and is answered with the first),
    else the first playable one. Returns the arm asked about, "" when none was, or None
    when it was not this seat's turn."""
    tiles = playable(page)
    if not tiles:
        return None
    if page.get_by_text(re.compile(r"^Open ends: ")).count():
        ends = open_ends(page)
        two = [t for t in tiles if len(arms_for(t, ends)) == 2]
        tile = two[0] if two and prefer_two_arms else tiles[0]
        fits = arms_for(tile, ends)
    else:
        tile, fits = tiles[0], []
    before = len(moves(page))
    question = page.get_by_role("group", name="which arm")
    hand(page).get_by_role("button", name=re.compile(rf"^{tile}, playable")).click()
    asked = ""
    if len(fits) == 2:
        buttons = question.get_by_role("button", name=re.compile(r"^\w+ \(shows \d+\)$"))
        buttons.first.wait_for()
        offered = [text.split(" ")[0] for text in buttons.all_text_contents()]
        assert sorted(offered) == sorted(fits), (tile, offered, fits)
        asked = offered[0]
        buttons.first.click()
    else:
        assert question.is_hidden()
    wait_for_move(page, name, tile, before)
    last = [m for m in moves(page)[before:] if m.startswith(f"{name} plays {tile}")]
    assert last, (name, tile, moves(page))
    if asked:
        assert last[0] == f"{name} plays {tile} on the {asked}.", last
    return asked


def on_to_a_turn(page: Any, name: str, moves_in: int) -> None:
    """Play with the mouse until the seat's turn comes at least ``moves_in`` moves into a
    hand. A hand that ends first (the bot's plays and the seat's forced passes can block
    a hand before the seat has a tile to play) is left for the next, dealt at once."""
    deadline = time.monotonic() + 30
    while not (len(moves(page)) >= moves_in and playable(page)):
        assert time.monotonic() < deadline, moves(page)
        if hand_over(page).is_visible():
            page.get_by_role("button", name="Deal the next hand").click()
            page.wait_for_function(f"() => !({OVER})")
        elif len(moves(page)) >= moves_in or click_turn(page, name) is None:
            page.wait_for_timeout(30)


def settled(page: Any, condition: str, arg: Any) -> bool:
    """Whether ``condition`` (a JavaScript function of ``arg``) comes true within 3 s."""
    from playwright.sync_api import TimeoutError as Late

    try:
        page.wait_for_function(condition, arg=arg, timeout=3000)
    except Late:
        print(f"the page did not act on a key in 3 s ({arg}): the turn is played again")
        return False
    return True


def play_hand(pages: dict[str, Any], limit: float = 30.0) -> list[str]:
    """Every person at the table plays with the mouse until each page shows the hand's end;
    the arms each was asked to choose between."""
    asked: list[str] = []
    deadline = time.monotonic() + limit
    while not all(hand_over(page).is_visible() for page in pages.values()):
        assert time.monotonic() < deadline, {n: moves(p) for n, p in pages.items()}
        acted = False
        for name, page in pages.items():
            if hand_over(page).is_visible():
                continue
            arm = click_turn(page, name)
            if arm is not None:
                acted = True
                if arm:
                    asked.append(arm)
        if not acted:
            next(iter(pages.values())).wait_for_timeout(30)
    return asked


# -- the tests ---------------------------------------------------------------------------------


def test_two_people_made_a_table_in_the_lobby_and_play_whole_hands_with_a_bot_and_a_spectator(
        chromium: Any, site: str, shots: Path) -> None:
    with person(chromium) as host:
        host.goto(site + "/")
        host.get_by_role("combobox", name="Preset").select_option("block")
        host.get_by_role("spinbutton", name="Players").fill("3")
        host.get_by_role("spinbutton", name="Players").dispatch_event("change")
        host.get_by_text("Every option").click()
        host.get_by_role("combobox", name=re.compile(r"^set\b")).select_option(label="3")
        host.get_by_role("combobox", name=re.compile(r"^hand_size\b")).fill("3")
        host.get_by_role("combobox", name=re.compile(r"^opening\b")).select_option(
            label="top-double")
        host.get_by_role("combobox", name=re.compile(r"^target\b")).fill("500")
        host.get_by_label("seat 1").select_option("human")
        host.get_by_label("seat 2").select_option("human")
        host.get_by_label("seat 3").select_option("greedy")
        host.get_by_label("Bot think time").fill("0.05")
        snap(host, shots, "lobby-desktop", whole=True)
        host.set_viewport_size(PHONE)
        snap(host, shots, "lobby-phone", whole=True)
        host.set_viewport_size(DESKTOP)
        host.get_by_role("button", name="Make the table").click()
        host.get_by_role("heading", name="Your table is ready").wait_for()
        invite = host.get_by_label("invite link").input_value()
        watch = host.get_by_label("spectator link").input_value()
    assert "#join=" in invite and "#watch=" in watch

    with person(chromium) as ana, person(chromium, PHONE) as bea, \
            person(chromium) as spectator:
        spectator.goto(watch)
        join(ana, invite, "Ana")
        ana.get_by_text("Waiting for every seat to be taken.").wait_for()
        join(bea, invite, "Bea")
        spectator.get_by_text("watching").wait_for()
        pages = {"Ana": ana, "Bea": bea}
        for page in (ana, bea, spectator):
            page.get_by_text(re.compile(r"hand 1 ·")).wait_for()
        assert spectator.get_by_role("group", name="your tiles").is_hidden()

        # a few moves in, the table in play as each sees it
        deadline = time.monotonic() + 20
        while len(moves(spectator)) < 3 and not hand_over(spectator).is_visible():
            assert time.monotonic() < deadline, moves(spectator)
            if click_turn(ana, "Ana") is None and click_turn(bea, "Bea") is None:
                ana.wait_for_timeout(30)
            assert_spectator_sees_no_hand(spectator, [*held(ana), *held(bea)])
        snap(ana, shots, "table-desktop")
        snap(bea, shots, "table-phone")
        snap(spectator, shots, "spectator-desktop")

        asked = play_hand(pages)
        hands = 1
        # hands go on until a tile that fits two arms has come up (almost every hand has
        # one: the double-three is set first), each player asking for the next hand
        while not asked and hands < 6:
            hands += 1
            ana.get_by_role("button", name="Deal the next hand").click()
            bea.keyboard.press("n")
            for page in (ana, bea, spectator):
                page.get_by_text(re.compile(rf"hand {hands} ·")).wait_for()
            asked = play_hand(pages)
        assert asked, "no tile fitting two arms came up in six hands"
        snap(ana, shots, "hand-over-desktop")
        snap(bea, shots, "hand-over-phone")

        # the spectator saw every move the players saw, and the live regions said each
        hand_over(spectator).wait_for()
        log = moves(ana)
        assert log and moves(bea) == log
        spectator.wait_for_function(f"n => {LOG}.length >= n", arg=len(log))
        assert moves(spectator) == log
        # (Ana was at the table before any hand was dealt: every move came to her page)
        assert assert_announced(ana) == len(log)
        for page in (bea, spectator):
            assert_announced(page)
        # the spectator is shown the hands only now, at the hand's end
        assert spectator.get_by_role("img", name=TILE).count() > 0
        assert spectator.get_by_role("group", name="your tiles").is_hidden()


def assert_spectator_sees_no_hand(spectator: Any, tiles: list[str]) -> None:
    """Before the hand's end, no tile of anyone's hand is on the spectator's page as a tile
    of its own (the board is one picture, labelled as the line of play)."""
    if hand_over(spectator).is_visible():
        return
    shown = spectator.get_by_role("img", name=TILE).evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label'))")
    assert not shown, shown
    text = spectator.locator("body").inner_text()
    # the log names played tiles only; a held one is never named (as a word of its own:
    # the fair deals' seeds are hexadecimal, "2522-17d1" holds no tile)
    for tile in tiles:
        named = re.search(rf"(?<![\w-]){tile}(?![\w-])", text)
        assert f"plays {tile}" in text or not named, tile


def test_a_reload_in_the_middle_of_a_hand_keeps_the_seat_and_the_view(
        chromium: Any, site: str, shots: Path) -> None:
    made = make_table(site, ["human", "greedy"], {"preset": "block", "target": 500})
    invite = site + made["links"]["join"]
    with person(chromium) as page:
        join(page, invite, "Cal")
        title = page.get_by_text(re.compile(r"· game 1, hand \d+ ·"))
        title.wait_for()
        on_to_a_turn(page, "Cal", 4)  # some tiles into a hand, so the reload has a log
        before = {"tiles": held(page), "log": moves(page), "title": title.text_content()}
        snap(page, shots, "reload-before-desktop")

        page.reload()
        page.get_by_role("group", name="your tiles").wait_for()
        page.get_by_text(before["title"]).wait_for()
        # the live region says where the table stands, before anything moves
        number = re.findall(r"hand (\d+) ·", before["title"])[0]
        assert said(page) == [f"Hand {number}: your turn."], said(page)
        page.wait_for_function(f"n => {LOG}.length >= n", arg=len(before["log"]))
        # the seat's turn still: nothing has moved since
        assert held(page) == before["tiles"] and playable(page)
        assert moves(page) == before["log"]
        assert page.get_by_role("button", name="Sit down").is_hidden()
        assert page.get_by_text(re.compile(r"^Cal")).first.is_visible()

        play_hand({"Cal": page})
        assert assert_announced(page) > 0  # the page after the reload
        snap(page, shots, "reload-hand-over-desktop")
        page.set_viewport_size(PHONE)  # a double-six hand's end, seven tiles a seat
        snap(page, shots, "reload-hand-over-phone", whole=True)


def test_a_spectator_who_comes_to_a_table_under_way_is_told_where_it_stands(
        chromium: Any, site: str) -> None:
    """A screen reader's first words at a table already playing: whose turn it is, or how
    the hand ended (a three-tile Block hand can be blocked by the bot and forced passes)."""
    made = make_table(site, ["human", "greedy"])
    post(int(site.rsplit(":", 1)[1]), "/api/join", {"invite": made["invite"], "name": "Ann"})
    with person(chromium) as page:
        page.goto(site + made["links"]["watch"])
        page.get_by_text(re.compile(r"hand \d+ ·")).wait_for()
        page.wait_for_function("() => window.__said.length > 0")
        first = said(page)[0]
        number = hand_number(page)
        seats = r"(Ann|Greedy)"
        # (``leads``: the table was still seating when the page said hello)
        assert re.fullmatch(rf"Hand {number}: {seats} (to play|leads)\.|"
                            rf"Hand {number} (over: {seats} wins \d+ points|is blocked and tied)\.",
                            first), first


def test_the_keyboard_alone_plays_a_hand(chromium: Any, site: str, shots: Path) -> None:
    made = make_table(site, ["human", "greedy"], SHORT)
    with person(chromium) as page:
        page.goto(site + made["links"]["join"])
        page.get_by_label("Your name").wait_for()
        page.keyboard.type("Dee")  # the name field has the focus
        page.keyboard.press("Enter")
        page.get_by_text(re.compile(r"hand 1 ·")).wait_for()
        ways: list[str] = []
        came = 0
        # hands go on until a tile that fits two arms has come up (more than half the
        # hands have one for this seat) and both ways of choosing a tile were used, each
        # hand dealt with the n key
        for number in range(1, 13):
            if number > 1:
                page.keyboard.press("n")
                page.get_by_text(re.compile(rf"hand {number} ·")).wait_for()
            deadline = time.monotonic() + 20
            while not hand_over(page).is_visible():
                assert time.monotonic() < deadline, moves(page)
                tiles = playable(page)
                if not tiles:
                    page.wait_for_timeout(30)
                    continue
                way = keyboard_turn(page, tiles, len(ways), "Dee")
                if way is not None:
                    ways.append(way)
            came += assert_announced(page)
            if any(way.endswith("+arm") for way in ways) \
                    and {way.split("+")[0] for way in ways} == {"tab", "digit"}:
                break
        assert {way.split("+")[0] for way in ways} == {"tab", "digit"}, ways
        assert any(way.endswith("+arm") for way in ways), f"no tile fitting two arms: {ways}"
        assert came > 0
        snap(page, shots, "keyboard-hand-over-desktop")


def keyboard_turn(page: Any, tiles: list[str], turn: int, name: str) -> str | None:
    """One play by keys alone, on alternate turns: Tab to the first playable tile, then
    the arrow keys to the one to play, and Enter; or the tile's number (1 to 9). The tile
    is one that fits two arms where there is one: it is first put back with Esc, then taken
    again, and its arm chosen with Enter (the question has the focus). Returns how it was
    played, or None where the page lost a key (it draws its hand afresh on every frame, and
    the focus goes with the old buttons): the caller plays the turn again."""
    ends = open_ends(page) if page.get_by_text(re.compile(r"^Open ends: ")).count() else {}
    two = [tile for tile in tiles if len(arms_for(tile, ends)) == 2] if ends else []
    tile = two[0] if two else tiles[-1]
    before = len(moves(page))
    way = "digit" if turn % 2 else "tab"
    if way == "tab":
        for _ in range(40):
            page.keyboard.press("Tab")
            if focused(page).endswith(", playable"):
                break
        for _ in tiles:
            if focused(page).startswith(f"{tile},"):
                break
            page.keyboard.press("ArrowRight")
        if not focused(page).startswith(f"{tile},"):
            print(f"the focus is on {focused(page)!r}, not {tile}: the turn is played again")
            return None
        page.keyboard.press("Enter")
    else:
        page.keyboard.press(str(tiles.index(tile) + 1))
    if two:
        asked = f"() => !document.querySelector('{ARMS}').hidden"
        if not settled(page, asked, None):
            return None
        page.keyboard.press("Escape")
        if not settled(page, f"() => document.querySelector('{ARMS}').hidden", None):
            return None
        page.keyboard.press(str(tiles.index(tile) + 1))
        if not settled(page, asked, None) or not focused(page).endswith(")"):
            return None  # the first arm's button has the focus: "left (shows 3)"
        page.keyboard.press("Enter")
        way += "+arm"
    played = f"([before, text]) => {LOG}.slice(before).some(t => t.startsWith(text))"
    return way if settled(page, played, [before, f"{name} plays {tile}"]) else None


def focused(page: Any) -> str:
    """What the focused element says: its label, else its text."""
    return str(page.evaluate("(document.activeElement.getAttribute('aria-label')"
                             " || document.activeElement.textContent || '').trim()"))


def test_the_keyboards_focus_stays_in_the_hand_while_the_table_moves(
        chromium: Any, site: str) -> None:
    """The page draws the hand afresh with every frame; a keyboard player's focus must not
    fall to the page's start when it does. A bot's move comes between each of the person's
    plays, so every play after the first is made from where the focus was left."""
    made = make_table(site, ["human", "greedy"], {**SHORT, "set": 6, "hand_size": 7})
    with person(chromium) as page:
        join(page, site + made["links"]["join"], "Eve")
        on_to_a_turn(page, "Eve", 0)
        first = hand(page).locator("button:not([disabled])").first
        first.focus()
        plays = 0
        deadline = time.monotonic() + 20
        while not hand_over(page).is_visible() and plays < 4:
            assert time.monotonic() < deadline, moves(page)
            if not playable(page):
                page.wait_for_timeout(30)
                continue
            where = page.evaluate("() => document.activeElement.closest('#hand, #arms') ? "
                                  "document.activeElement.ariaLabel || "
                                  "document.activeElement.textContent : null")
            assert where is not None, f"the focus left the hand after {plays} plays"
            before = len(moves(page))
            page.keyboard.press("Enter")  # the focused tile, or the focused arm
            if page.locator(ARMS).is_visible():
                page.keyboard.press("Enter")
            page.wait_for_function(f"n => {LOG}.length > n", arg=before, timeout=WAIT)
            plays += 1
        assert plays >= 2 or hand_over(page).is_visible()


def test_a_page_reconnects_by_itself_to_a_server_killed_and_started_again(
        chromium: Any, tmp_path: Path) -> None:
    """The server is killed with SIGKILL in the middle of a hand and started again on the
    same database and port: the page, left alone, comes back to the same seat, tiles and
    log, and the hand goes on from there."""
    db, log = tmp_path / "bones.db", tmp_path / "serve.log"
    with person(chromium) as page:
        with serving(db, log) as (server, port):
            site = f"http://127.0.0.1:{port}"
            made = make_table(site, ["human", "greedy"], {"preset": "block", "target": 500})
            join(page, site + made["links"]["join"], "Kit")
            on_to_a_turn(page, "Kit", 2)
            before = {"tiles": held(page), "log": moves(page)}
            server.send_signal(signal.SIGKILL)
            server.wait(10)
        # the page says the table is gone, and keeps trying while nothing listens
        lost = page.get_by_role("alert").filter(has_text="connection to the table was lost")
        lost.wait_for(timeout=WAIT)
        page.wait_for_timeout(1500)  # a try or two that finds nothing
        with serving(db, log, port):
            lost.wait_for(state="hidden", timeout=30_000)  # answered again
            assert held(page) == before["tiles"] and moves(page) == before["log"]
            assert playable(page)  # still the seat's turn
            assert click_turn(page, "Kit") is not None  # and the hand goes on
    assert "Traceback" not in log.read_text()


def test_every_page_fits_a_phone_and_names_every_other(chromium: Any, site: str) -> None:
    """At 375 px no page is wider than the screen, and each one's menu leads to the others."""
    pages = ["/", "/table", "/games", "/replay", "/verify"]
    with person(chromium, PHONE) as page:
        for path in pages:
            page.goto(site + path)
            page.get_by_role("navigation").wait_for()
            width = page.evaluate("document.scrollingElement.scrollWidth")
            assert width <= PHONE["width"], f"{path} is {width} px wide"
            menu = page.get_by_role("navigation").get_by_role("link")
            targets = menu.evaluate_all("links => links.map(a => new URL(a.href).pathname)")
            assert set(pages) - {"/table"} <= set(targets), (path, targets)
