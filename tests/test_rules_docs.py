"""docs/rules/*.md: no row left "simplified", every ruling a row links to exists (issue 17), and every
rule row says its rule in a player's words (issue 49)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vectorwar.web import rulebook

DOCS = Path(__file__).resolve().parents[1] / "docs"
RULE_MAPS = sorted((DOCS / "rules").glob("*.md"))


def slug(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def anchors() -> set[str]:
    text = (DOCS / "rulings.md").read_text(encoding="utf-8")
    return {slug(m) for m in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}


def test_the_rule_maps_are_found() -> None:
    assert {p.stem for p in RULE_MAPS} >= {"msc", "vv5", "vms", "avt"}


@pytest.mark.parametrize("path", RULE_MAPS, ids=lambda p: p.stem)
def test_no_row_is_left_simplified(path: Path) -> None:
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    assert rows
    left = [row[:80] for row in rows if "simplified" in row.lower()]
    assert not left, f"{path.name}: rows still 'simplified' (make them done, or cite the silence and its ruling)"


@pytest.mark.parametrize("path", RULE_MAPS, ids=lambda p: p.stem)
def test_every_linked_ruling_exists(path: Path) -> None:
    known = anchors()
    links = re.findall(r"\(\.\./rulings\.md#([^)]+)\)", path.read_text(encoding="utf-8"))
    missing = sorted({a for a in links if a not in known})
    assert not missing, f"{path.name} links to rulings that do not exist: {missing}"


def test_slugs_follow_github() -> None:
    assert slug("VV5 the scenarios' purchases") == "vv5-the-scenarios-purchases"
    assert slug("AV:T 2-D option") == "avt-2-d-option"


#: The tables of a rules document that are the project's bookkeeping rather than rules (whole-game
#: checks, properties, front ends, how a combat module is played): shown only with the code.
BOOKKEEPING_HEADERS = {
    ("What", "Test"),
    ("Property", "Test"),
    ("What", "Code", "Test"),
    ("Part", "Status", "Test"),
    ("Part", "Code", "Test", "Status"),
}
PLAYERS_PAGES = [p for p in RULE_MAPS if p.stem in ("msc", "vv5", "vms", "avt")]
CODE_OR_TEST = re.compile(r"::|\btest_\w+|\w\.py\b|\bsrc/|\btests/")


@pytest.mark.parametrize("path", PLAYERS_PAGES, ids=lambda p: p.stem)
def test_every_rule_row_has_a_players_statement(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rows = rulebook.rule_rows(text)
    assert len(rows) >= 20, f"{path.name}: only {len(rows)} rule rows found"
    for first, say in rows:
        where = f"{path.name}, row {first!r}"
        assert say.strip() not in ("", "—", "-"), f"{where}: no player's statement"
        assert not CODE_OR_TEST.search(say), f"{where}: the statement names code or a test"
        assert not any(rulebook.is_code(span) for span in re.findall(r"`([^`]+)`", say)), f"{where}: code in it"
        # One or two plain sentences (a long one at most): the detail is in the ruling it links.
        assert len(re.sub(r"\]\([^)]*\)", "]", say)) <= 400, f"{where}: the statement is too long"


@pytest.mark.parametrize("path", PLAYERS_PAGES, ids=lambda p: p.stem)
def test_every_table_is_rules_or_bookkeeping(path: Path) -> None:
    """A table of rules without a statement column would show nothing to a player."""
    for header in re.findall(r"^\|(.+)\|\n\| ---", path.read_text(encoding="utf-8"), flags=re.MULTILINE):
        cells = tuple(c.strip() for c in header.split("|"))
        assert rulebook.statement_column(list(cells)) is not None or cells in BOOKKEEPING_HEADERS, (
            f"{path.name}: table {cells} has no statement column (Rule) and is not bookkeeping"
        )


#: Words that tell how a ruling came about rather than what is true now (issue 55).
HISTORY = re.compile(
    r"\b(was|were|used to|no longer|previously|formerly|session|part 2|simplified|marked simplified)\b", re.I
)


def ruling_sections() -> list[tuple[str, list[str]]]:
    """Each ``## `` section of docs/rulings.md: its heading and its lines (heading included) up to the
    next heading of level 1 or 2, blank lines and rules (``---``) at its end left off."""
    out: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in (DOCS / "rulings.md").read_text(encoding="utf-8").splitlines():
        if line.startswith(("# ", "## ")):
            current = [line] if line.startswith("## ") else None
            if current is not None:
                out.append((line[3:], current))
        elif current is not None:
            current.append(line)
    for _title, lines in out:
        while lines and lines[-1].strip() in ("", "---"):
            lines.pop()
    return out


def test_every_ruling_is_at_most_15_lines_and_states_what_is_true() -> None:
    sections = ruling_sections()
    assert len(sections) > 150
    long = [f"{title} ({len(lines)} lines)" for title, lines in sections if len(lines) > 15]
    assert not long, f"rulings longer than 15 lines: {long}"
    told = [f"{title}: {m.group(0)!r}" for title, lines in sections for m in HISTORY.finditer("\n".join(lines))]
    assert not told, f"rulings that tell history instead of what is true: {told}"


PARTS = ("Question", "Choice", "Why", "Option", "Test", "Code")


def test_every_ruling_has_its_parts_in_order_and_a_one_line_why() -> None:
    for title, lines in ruling_sections():
        parts = [(m.group(1), k) for k, line in enumerate(lines) if (m := re.match(r"\* \*\*(\w+)\*\*", line))]
        names = [name for name, _k in parts]
        assert set(PARTS[:5]) <= set(names), f"ruling {title!r} lacks {set(PARTS[:5]) - set(names)}"
        assert names == [p for p in PARTS if p in names], f"ruling {title!r}: parts out of order {names}"
        why = next(k for name, k in parts if name == "Why")
        assert not lines[why + 1].startswith("  "), f"ruling {title!r}: the why runs past one line"


def test_every_rulings_question_choice_and_why_are_shown_to_players() -> None:
    """A bullet naming code is kept from a player's page (rulebook.render), so these three name none."""
    for title, lines in ruling_sections():
        items: list[str] = []
        for line in lines[1:]:
            if line.startswith("* "):
                items.append(line)
            elif line.startswith("  ") and items:
                items[-1] += " " + line.strip()
        for item in items:
            if re.match(r"\* \*\*(Question|Choice|Why)\*\*", item):
                code = [s for s in re.findall(r"`([^`]+)`", item) if rulebook.is_code(s)]
                assert not code, f"ruling {title!r}: {item[:20]} names code {code}, hiding it from players"
