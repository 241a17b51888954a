"""The repository carries its own documentation: every link in its pages stays inside it and
lands on a file (and a heading) that exists, nothing points at specifications kept outside
it, and the pages on the rules, the record format and the bot protocol name every option,
value, field and message that the code knows, as the commands show them."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote

import pytest

from bones.cli.main import main
from bones.record.model import OPTIONAL

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """The markdown pages a reader of the repository follows links from."""
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md")), ROOT / "benchmarks" / "README.md"]


# -- markdown, as GitHub reads it -------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>]*>|[^\s)]*)"
                          r"(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)", re.MULTILINE)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_URL = re.compile(r"\bhttps?://", re.IGNORECASE)


def prose(text: str) -> str:
    """``text`` without fenced code blocks and code spans, where brackets are not links."""
    lines, fence = [], None
    for line in text.splitlines():
        found = _FENCE.match(line)
        if fence is None and found:
            fence = found.group(1)
            lines.append("")
        elif fence is not None:
            if found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence):
                fence = None
            lines.append("")
        else:
            lines.append(line)
    return _CODE_SPAN.sub(lambda m: "x" * len(m.group(2)), "\n".join(lines))


def links(text: str) -> list[str]:
    """Every link target of a markdown text: inline links and images, and reference
    definitions."""
    text = prose(text)
    found = [m.group(2).strip("<>") for m in _INLINE_LINK.finditer(text)]
    return found + _REFERENCE.findall(text)


def headings(text: str) -> list[str]:
    """The heading texts of a markdown text, outside code blocks."""
    out, fence = [], None
    for line in text.splitlines():
        found = _FENCE.match(line)
        if found and (fence is None or found.group(1)[0] == fence[0]):
            fence = None if fence is not None else found.group(1)
            continue
        if fence is None and (heading := _HEADING.match(line)):
            out.append(heading.group(2))
    return out


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text as rendered (code marks and link targets
    gone), in lower case, without punctuation but ``-`` and ``_``, spaces as ``-``."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "")
    kept = "".join(ch for ch in text.lower()
                   if ch in " -_" or unicodedata.category(ch)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a page, with GitHub's ``-1``, ``-2`` for repeated ones."""
    seen: dict[str, int] = {}
    out = set()
    for heading in headings(text):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def link_faults(page: Path, target: str) -> str | None:
    """Why ``target``, a link on ``page``, does not land inside the repository on a file
    (or folder) and heading that exist, or ``None`` where it does."""
    if _URL.match(target) or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
        return "leaves the repository (a URL)"
    path, _, anchor = target.partition("#")
    path = unquote(path)
    if path.startswith("/"):
        return "is absolute, not relative to the page"
    here = page.parent.relative_to(ROOT)
    inside = os.path.normpath(os.path.join(here, path)) if path else str(
        page.relative_to(ROOT))
    if inside == ".." or inside.startswith(".." + os.sep):
        return "leaves the repository (..)"
    landing = ROOT / inside
    if not landing.exists():
        return f"names {inside}, which does not exist"
    if anchor:
        if landing.suffix != ".md":
            return f"has an anchor, but {inside} is not a markdown page"
        if anchor not in anchors(landing.read_text(encoding="utf-8")):
            return f"names #{anchor}, which is no heading of {inside}"
    return None


def test_slugs_follow_githubs_rules():
    assert slug("`bones league`: every pair of levels, and a rating each") == \
        "bones-league-every-pair-of-levels-and-a-rating-each"
    assert slug("The levels, one above another") == "the-levels-one-above-another"
    assert slug("Optional fields, `null` and `x-` fields") == "optional-fields-null-and-x--fields"
    assert slug("`next_lead` (`\"winner\"`)") == "next_lead-winner"
    text = "# A\n```\n# not a heading\n```\n## A\n### B [link](x.md)\n"
    assert anchors(text) == {"a", "a-1", "b-link"}


def test_links_are_found_outside_code_only():
    text = textwrap.dedent("""\
        See [rules](docs/rules.md#words) and ![a figure](fig.png "title").
        `[not](a-link.md)` and

        ```sh
        echo [nor](this.md)
        ```
        [ref]: benchmarks/README.md
        """)
    assert links(text) == ["docs/rules.md#words", "fig.png", "benchmarks/README.md"]


@pytest.mark.parametrize(("target", "fault"), [
    ("../../" "shared/spec/" "rules.md", "leaves the repository (..)"),
    ("../../outside.md", "leaves the repository (..)"),
    ("https://example.com/", "leaves the repository (a URL)"),
    ("mailto:someone@example.com", "leaves the repository (a URL)"),
    ("/docs/rules.md", "is absolute"),
    ("nothing-here.md", "does not exist"),
    ("rules.md#no-such-heading", "which is no heading of docs/rules.md"),
    ("#no-such-heading", "which is no heading of docs/records.md"),
])
def test_a_bad_link_is_told_why(target, fault):
    """Each check can fail: a link that leaves, a missing file or heading."""
    found = link_faults(DOCS / "records.md", target)
    assert found is not None and fault in found


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_stays_in_the_repository_and_lands(page):
    text = page.read_text(encoding="utf-8")
    faults = [f"{target}: {why}" for target in links(text)
              if (why := link_faults(page, target)) is not None]
    assert not faults, f"{page.relative_to(ROOT)}: " + "; ".join(faults)
    urls = [line for line in prose(text).splitlines() if _URL.search(line)]
    assert not urls, f"{page.relative_to(ROOT)} has web addresses, which GitHub makes links: {urls}"


# -- nothing points outside -------------------------------------------------------------------

#: The team's specification folder beside the repository, and its pages' names: written in
#: two parts so that this file does not name them itself.
OUTSIDE = re.compile(re.escape("../" "shared") + r"|(?<![\w.-])spec/"
                     r"(?:rules|record-format|bot-protocol)\.md")


def tracked_text_files() -> Iterator[Path]:
    """The repository's files (``git ls-files``; without git, every file but the ignored
    kinds), those that are text."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                check=True).stdout.decode().split("\0")
        paths = [ROOT / name for name in listed if name]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache"}
        paths = [p for p in ROOT.rglob("*") if p.is_file()
                 and not skip & set(p.relative_to(ROOT).parts)
                 and not any(part.endswith(".egg-info") for part in p.parts)]
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if b"\0" not in data:
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            yield path


def outside_mentions(text: str) -> list[str]:
    return [m.group(0) for m in OUTSIDE.finditer(text)]


def test_a_mention_of_the_outside_specification_is_found():
    assert outside_mentions("see ../" "shared/spec/" "rules.md") == ["../" "shared",
                                                                   "spec/" "rules.md"]
    assert outside_mentions("options of ``spec/" "record-format.md``") == [
        "spec/" "record-format.md"]
    assert outside_mentions("the docs/rules.md page, docs/records.md, specs/x.md") == []


def test_nothing_in_the_repository_points_at_specifications_outside_it():
    found = []
    for path in tracked_text_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: {hit}"
                      for hit in outside_mentions(line)]
    assert not found, "name docs/rules.md, docs/records.md or docs/bot-protocol.md instead: " \
        + "; ".join(found)


# -- the rules ---------------------------------------------------------------------------------


def section(text: str, title: str) -> str:
    """The part of a page under the heading ``title``, up to the next heading as high."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        found = _HEADING.match(line)
        if found and found.group(2) == title:
            level = len(found.group(1))
            end = next((j for j in range(i + 1, len(lines))
                        if (h := _HEADING.match(lines[j])) and len(h.group(1)) <= level),
                       len(lines))
            return "\n".join(lines[i + 1:end])
    raise AssertionError(f"no heading {title!r}")


def row(text: str, name: str) -> list[str]:
    """The cells of the one table row whose first cell is `` `name` ``."""
    rows = [line for line in text.splitlines() if line.startswith(f"| `{name}` |")]
    assert len(rows) == 1, f"{len(rows)} table rows for `{name}`"
    return [cell.strip() for cell in rows[0].strip().strip("|").split(" | ")]


def rules_json(capsys) -> dict:
    assert main(["rules", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def value_faults(cells: list[str], option: dict) -> list[str]:
    """What the options-table row ``cells`` says wrongly about ``option`` (an entry of
    ``bones rules --json``): its values, exactly, and its default."""
    _, values, default, _meaning = cells
    listed = set(re.findall(r"`([^`]+)`", values))
    wanted = {json.dumps(choice) for choice in option["choices"]}
    faults = [f"{option['name']}: value {v} is not listed" for v in sorted(wanted - listed)]
    faults += [f"{option['name']}: {v} is listed, but the rules refuse it"
               for v in sorted(listed - wanted)]
    least = option["least"]
    if (least is not None) != (f"integer >= {least}" in values) or \
            (least is None and "integer" in values):
        faults.append(f"{option['name']}: the whole numbers it takes are "
                      f"{'from ' + str(least) if least is not None else 'none'}")
    if default != f"`{json.dumps(option['default'])}`":
        faults.append(f"{option['name']}: the default is {json.dumps(option['default'])}")
    return faults


def test_the_options_table_can_be_found_wrong():
    option = {"name": "set", "choices": [6, 9], "least": None, "default": 6}
    assert value_faults(["`set`", "`6`, `9`", "`6`", "..."], option) == []
    assert value_faults(["`set`", "`2`, `6`", "`9`", "..."], option) == [
        "set: value 9 is not listed", "set: 2 is listed, but the rules refuse it",
        "set: the default is 6"]
    target = {"name": "target", "choices": ["pagat"], "least": 1, "default": 100}
    assert value_faults(["`target`", '`"pagat"`', "`100`", "..."], target) == [
        "target: the whole numbers it takes are from 1"]


def test_the_rules_page_lists_every_option_with_its_values_and_default(capsys):
    """Every option ``bones rules --json`` shows has its row in the options table, with
    exactly the values the engine takes and its default."""
    table = section((DOCS / "rules.md").read_text(encoding="utf-8"), "Options")
    faults = []
    for option in rules_json(capsys)["options"]:
        faults += value_faults(row(table, option["name"]), option)
    assert not faults, "; ".join(faults)


def test_the_rules_page_lists_every_preset_and_what_it_sets(capsys):
    table = section((DOCS / "rules.md").read_text(encoding="utf-8"), "Presets")
    for preset in rules_json(capsys)["presets"]:
        _, source, sets = row(table, preset["preset"])
        assert source == preset["source"]
        for name, value in preset["sets"].items():
            assert f"`{name}: {json.dumps(value)}`" in sets, (preset["preset"], name)


# -- the record format -----------------------------------------------------------------------


def written_records(tmp_path: Path, capsys) -> list[dict]:
    """Records as ``bones simulate`` writes them: 3-player Draw, with plays, draws and
    passes, checked by ``bones replay``."""
    out = tmp_path / "records"
    assert main(["simulate", "--rules", "draw", "--players", "3", "--bots", "random",
                 "--games", "2", "--seed", "1", "--record", str(out)]) == 0
    paths = sorted(out.glob("*.json"))
    for path in paths:
        assert main(["replay", str(path)]) == 0
    capsys.readouterr()
    return [json.loads(path.read_text()) for path in paths]


def test_the_records_page_names_every_field_of_the_record_a_hand_and_a_move(tmp_path, capsys):
    page = (DOCS / "records.md").read_text(encoding="utf-8")
    docs = {"record": section(page, "The record"), "hand": section(page, "A hand"),
            "move": section(page, "A move")}
    fields: dict[str, set[str]] = {"record": set(OPTIONAL), "hand": set(OPTIONAL),
                                   "move": set(OPTIONAL)}
    for doc in written_records(tmp_path, capsys):
        fields["record"] |= set(doc)
        for hand in doc["hands"]:
            fields["hand"] |= set(hand)
            for move in hand["moves"]:
                fields["move"] |= set(move)
    assert {"play", "draw", "pass", "end"} <= fields["move"], "the games tried too little"
    missing = [f"{where}: {name}" for where, names in fields.items() for name in sorted(names)
               if not name.startswith("x-") and f"`{name}`" not in docs[where]]
    assert not missing, missing
    assert all("`x-" in text for text in docs.values())


def test_the_records_page_gives_every_key_of_bones_replay_json(tmp_path, capsys):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(written_records(tmp_path, capsys)[0]))
    assert main(["replay", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    text = section((DOCS / "records.md").read_text(encoding="utf-8"), "`--json`")
    named = " ".join(line.split(" | ")[0] for line in text.splitlines() if line.startswith("| "))
    keys = [f"hands[].{key}" for key in report["hands"][0]] + list(report)
    missing = [key for key in keys if key != "hands" and f"`{key}`" not in named]
    assert not missing, missing


# -- the bot protocol --------------------------------------------------------------------------

#: An outside bot that writes down every line the referee sends it, answers ``hello``, and
#: answers each move with an error (so the referee plays for it).
LISTENER = """\
import json, sys
with open(sys.argv[1], "a") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        message = json.loads(line)
        if message["type"] == "hello":
            print(json.dumps({"type": "hello", "protocol": "bones-bot/1", "name": "ear 1"}))
        elif message["type"] == "move":
            print(json.dumps({"id": message["id"], "error": "listening only"}))
        elif message["type"] == "quit":
            break
        sys.stdout.flush()
"""


def heard(tmp_path: Path, capsys) -> list[dict]:
    """Every message a ``bones`` referee sends an outside bot in a game."""
    script, log = tmp_path / "listener.py", tmp_path / "heard.jsonl"
    script.write_text(LISTENER)
    command = shlex.join([sys.executable, str(script), str(log)])
    assert main(["simulate", "--bots", f"cmd:{command},random", "--rules", "draw",
                 "--games", "1", "--seed", "2", "--think", "0.5"]) == 0
    capsys.readouterr()
    return [json.loads(line) for line in log.read_text().splitlines()]


def answers(messages: list[dict]) -> list[dict]:
    """What ``bones bot`` answers to ``messages``."""
    done = subprocess.run([sys.executable, "-m", "bones.cli.main", "bot", "--level", "random",
                           "--seed", "1"], input="".join(json.dumps(m) + "\n" for m in messages),
                          capture_output=True, text=True, timeout=120, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.timeout(300)
def test_the_protocol_page_gives_every_message_and_field(tmp_path, capsys):
    """The types and fields of what a referee sends and ``bones bot`` answers, taken from the
    programs themselves: each type has its section, each field its place in it."""
    page = (DOCS / "bot-protocol.md").read_text(encoding="utf-8")
    sent = heard(tmp_path, capsys)
    kinds = list(dict.fromkeys(message["type"] for message in sent))
    assert kinds == ["hello", "move", "quit"]
    request = next(m for m in sent if m["type"] == "move")
    broken = {**request, "id": 99, "hand": []}
    result = {"type": "result", "hands": [], "points": []}
    replies = answers([sent[0], request, result, broken, {"type": "quit"}])
    hello, reply, error = replies  # nothing for the result
    assert hello["type"] == "hello" and "play" in reply and "error" in error

    types = section(page, "The messages")
    for kind in [*kinds, "result"]:
        assert row(types, kind), kind
        assert section(page, f"`{kind}`") is not None
    greeting = section(page, "`hello`")
    missing = [f"hello: {key}" for key in {*sent[0], *hello} if f'"{key}"' not in greeting]
    fields = section(page, "`move`")
    missing += [f"move: {key}" for key in request if f"| `{key}` |" not in fields]
    replied = section(page, "The move reply")
    missing += [f"reply: {key}" for key in sorted({*reply, *error, "end"})
                if f"| `{key}` |" not in replied]
    assert not missing, missing
