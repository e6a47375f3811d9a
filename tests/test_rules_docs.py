"""docs/rules/*.md: no row left "simplified", every ruling a row links to exists in the file it links
(issue 17), and every rule row says its rule in a player's words (issue 49). docs/rulings/*.md: every
ruling short, in its parts, stating what is true; docs/rulings.md: a short index of every one of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from vectorwar.web import rulebook

DOCS = Path(__file__).resolve().parents[1] / "docs"
RULE_MAPS = sorted((DOCS / "rules").glob("*.md"))
RULINGS = sorted((DOCS / "rulings").glob("*.md"))


def slug(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def anchors() -> dict[str, set[str]]:
    """Each file of rulings (by name, ``msc``) and the anchors of its headings."""
    return {
        path.stem: {slug(m) for m in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), flags=re.MULTILINE)}
        for path in RULINGS
    }


def test_the_rulings_are_in_one_file_per_rule_system() -> None:
    assert {p.stem for p in RULINGS} == {"msc", "vv5", "avt", "vms", "every-system", "limits"}


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
    text = path.read_text(encoding="utf-8")
    links = re.findall(r"\(\.\./rulings/([^)#]+)\.md#([^)]+)\)", text)
    missing = sorted({f"{file}.md#{a}" for file, a in links if a not in known.get(file, set())})
    assert not missing, f"{path.name} links to rulings that do not exist in the file linked: {missing}"
    # A ruling is linked in its system's file, not through the index.
    assert not re.findall(r"\(\.\./rulings\.md#", text), f"{path.name} links a ruling through docs/rulings.md"


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
    """Each ``## `` section of docs/rulings/*.md: its heading and its lines (heading included) up to the
    next heading of level 1 or 2, blank lines and rules (``---``) at its end left off."""
    out: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    # Each file read as if headed "# FILE", so that no ruling runs on into the next file's first lines.
    lines = [line for path in RULINGS for line in ["# " + path.name, *path.read_text(encoding="utf-8").splitlines()]]
    for line in lines:
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


def test_every_ruling_file_names_its_system_and_every_title_is_used_once() -> None:
    """A ruling is cited by its file and title ("docs/rulings/msc.md, *Stacking*"): one title, one ruling."""
    titles: list[str] = []
    for path in RULINGS:
        text = path.read_text(encoding="utf-8")
        assert re.match(r"# .*\brulings\b", text, flags=re.I), f"{path.name}: no '# ... rulings' heading first"
        assert len(re.findall(r"^# ", text, flags=re.M)) == 1, f"{path.name}: more than one level-1 heading"
        titles += re.findall(r"^## (.+)$", text, flags=re.M)
    assert len(titles) > 150
    twice = sorted({t for t in titles if titles.count(t) > 1})
    assert not twice, f"ruling titles used twice: {twice}"


INDEX = DOCS / "rulings.md"


def test_the_index_lists_every_ruling_once_linked_to_its_anchor() -> None:
    """docs/rulings.md lists every ruling of every file exactly once, each linked to the anchor of its
    heading in its own file, and stays short enough to read."""
    text = INDEX.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 300, "docs/rulings.md is the index: keep the rulings in docs/rulings/"
    listed = re.findall(r"^\* \[([^\]]+)\]\(rulings/([\w-]+)\.md#([\w-]+)\)$", text, flags=re.M)
    assert not re.search(r"^## .*\n\n\* \*\*Question", text, flags=re.M), "a ruling's text in the index"
    expected = sorted(
        (title, path.stem, slug(title))
        for path in RULINGS
        for title in re.findall(r"^## (.+)$", path.read_text(encoding="utf-8"), flags=re.M)
    )
    assert sorted(listed) == expected
    # Every link of the index (a file's own page, its rulings) lands on a file and an anchor that exist.
    known = anchors()
    for target, anchor in re.findall(r"\]\(rulings/([\w-]+)\.md(?:#([\w-]+))?\)", text):
        assert target in known, target
        assert not anchor or anchor in known[target], f"{target}.md#{anchor}"


#: A prose citation of a ruling by its file and title: "docs/rulings/msc.md, *Stacking*".
CITATION = re.compile(r"docs/rulings/([\w-]+)\.md`{0,2}[,:] \*([^*]+)\*")
#: The same with the title in quotation marks, as a comment may give it: docs/rulings/msc.md "Stacking".
QUOTED = re.compile(r'docs/rulings/([\w-]+)\.md[,:]? "([^"]+)"')
#: The same with the title bare, as an option's help gives it ("docs/rulings/avt.md, AV:T surrender)"): what
#: follows the comma begins with a title of the file cited.
BARE = re.compile(r"docs/rulings/([\w-]+)\.md, (?![*\"])(.{0,200})")
CITING = [
    *(DOCS.parent / "src" / "vectorwar").rglob("*.py"),
    *(DOCS.parent / "src" / "vectorwar").rglob("*.toml"),
    *(DOCS.parent / "tests").rglob("*.py"),
    *(p for p in DOCS.rglob("*.md") if "rulings" not in p.parts),
    DOCS.parent / "README.md",
]


def test_every_citation_of_a_ruling_names_one_in_the_file_cited() -> None:
    titles = {
        path.stem: set(re.findall(r"^## (.+)$", path.read_text(encoding="utf-8"), flags=re.M)) for path in RULINGS
    }
    found = 0
    wrong: list[str] = []
    for path in CITING:
        # A citation may run over a line break, in a comment or a docstring.
        flat = re.sub(r"\s*\n\s*(?:#\s*)?", " ", path.read_text(encoding="utf-8"))
        for file, title in CITATION.findall(flat) + QUOTED.findall(flat):
            found += 1
            if title not in titles.get(file, set()):
                wrong.append(f"{path.relative_to(DOCS.parent)}: docs/rulings/{file}.md, *{title}*")
        for file, after in BARE.findall(flat):
            found += 1
            if not any(after.startswith(title) for title in titles.get(file, set())):
                wrong.append(f"{path.relative_to(DOCS.parent)}: docs/rulings/{file}.md, {after[:60]}")
        # The index holds no ruling's text: a title is cited in its system's file.
        wrong += [
            f"{path.relative_to(DOCS.parent)}: {m}" for m in re.findall(r"docs/rulings\.md`{0,2}[,:] \*[^*]+\*", flat)
        ]
    assert found > 40
    assert not wrong, f"citations of no ruling in the file cited: {wrong}"
