"""Rules at hand: the rule-by-rule documents (docs/rules/*.md), the index of the rulings
(docs/rulings.md) and each rule system's rulings (docs/rulings/*.md) served as pages for players,
with an anchor on every heading and every rule row, and the rule rows that apply to each prompt of
the game being played (docs/web.md, *Rules at hand*).

A rule row shows its statement (the *Rule* cell, in a player's words), its status in words and the
rulings it follows; its code and tests, the bookkeeping tables and every paragraph that names code
or a test are marked ``tech`` and folded away until the reader asks for them.

The documents ship inside the package (``vectorwar/web/docs`` links to the repository's ``docs``;
the package data copies them), so an installed server has them too. Markdown is rendered here by a
small reader of the few forms those documents use (headings, tables, lists, paragraphs, code,
links, bold), escaping everything else: no markdown library is needed and nothing is trusted.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field

from vectorwar import registry
from vectorwar.rules import PromptRule
from vectorwar.web.responses import error_responses

DOCS = Path(__file__).resolve().parent / "docs"


def pages() -> dict[str, Path]:
    """The documents served, by page name: each system's rules (``avt``, ``msc``...), ``rulings`` (the
    index of every ruling) and each file of rulings (``rulings-msc``, ``rulings-limits``...)."""
    found = {path.stem: path for path in sorted((DOCS / "rules").glob("*.md"))}
    rulings = DOCS / "rulings.md"
    if rulings.is_file():
        found["rulings"] = rulings
    found.update({f"rulings-{path.stem}": path for path in sorted((DOCS / "rulings").glob("*.md"))})
    return found


def slug(text: str) -> str:
    """A heading's anchor as GitHub makes it (so the documents' own links work): lower case,
    punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_\[\]()]", "", text.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def row_anchor(first_cell: str) -> str:
    """A rule row's anchor, from its first cell ("A5.12, A5.121" -> ``rule-a5-12-a5-121``)."""
    return "rule-" + "-".join(re.findall(r"[a-z0-9]+", first_cell.lower()))


def prompt_rules(system: str, scenario: str = "") -> tuple[PromptRule, ...]:
    """The (phase word, page, first cell) rows a prompt of ``system`` in ``scenario`` may link: the
    system's own (:attr:`RuleSystem.prompt_rules`), or its scenario's (:meth:`RuleSystem.scenario_rules`)."""
    found = registry.systems().get(system)
    if found is None:
        return ()
    by_scenario = found.scenario_rules()
    family = max((k for k in by_scenario if scenario == k or scenario.startswith(k + "-")), key=len, default="")
    return by_scenario[family] if family else found.prompt_rules


def prompt_links(system: str, phase: str, scenario: str = "") -> list[dict[str, str]]:
    """The rule rows that apply to a prompt of ``system`` in ``phase`` of ``scenario``, as
    ``{label, href}``; last, the system's rulings."""
    links = [
        {"label": cell, "href": f"/rules/{page}#{row_anchor(cell)}"}
        for word, page, cell in prompt_rules(system, scenario)
        if word in phase.lower()
    ]
    if not links and system in pages():
        links.append({"label": f"{system} rules", "href": f"/rules/{system}"})
    # A system's rulings are a file of their own (docs/rulings/<system>.md); any other, the index of all.
    own = f"rulings-{system}"
    links.append({"label": "rulings", "href": f"/rules/{own}" if own in pages() else "/rules/rulings"})
    return links


_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")

#: A link between the documents, from wherever one of them is: ``../rulings/avt.md#avt-ralt`` from a
#: rules map, ``rulings/msc.md#stacking`` from the index, ``../rulings.md`` back to it, ``avt.md#a2-1``.
_DOCUMENT = re.compile(r"(?:\.\./)*(?:docs/)?(rules/|rulings/)?([\w-]+)\.md(#[\w-]*)?")


def _href(target: str) -> str:
    """A document's own link, pointed at the served pages when it names one of them."""
    m = _DOCUMENT.fullmatch(target)
    if m:
        folder, stem, anchor = m.groups()
        name = f"rulings-{stem}" if folder == "rulings/" else stem
        if name in pages():
            return f"/rules/{name}{anchor or ''}"
    if target.startswith(("#", "http://", "https://", "/")):
        return target
    return "#"


def _inline(text: str) -> str:
    out: list[str] = []
    for i, part in enumerate(text.split("`")):
        if i % 2:
            out.append(f"<code>{html.escape(part)}</code>")
            continue
        escaped = html.escape(part, quote=False)
        escaped = _LINK.sub(lambda m: f'<a href="{html.escape(_href(m.group(2)))}">{m.group(1)}</a>', escaped)
        escaped = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", escaped)
        escaped = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"<em>\1</em>", escaped)
        out.append(escaped)
    return "".join(out)


def _cells(line: str) -> list[str]:
    r"""A table row's cells; ``\|`` inside a cell is a literal bar, not a cell boundary."""
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


#: What a code span holds when it is a code path or a test name rather than something a player
#: reads or types (an order, an option, a scenario's name): a module path (``rules:prompt``), a
#: file, a test (``file::test_name``), a Python name (``Ship.weapons``, ``shot_options``,
#: ``MANIFEST``) or a package path (``vectorwar.dice``).
_CODE_SPAN = re.compile(
    r"""::|\btest_\w|\w\.(?:py|toml|txt|js|css|json|html)\b|[a-z_.]{2,}/
    |^[\w.]+:[\w.]*$|^[a-z]\w*(?:\.\w+)+\.?$|^vectorwar\.|\w_\w|^_\w|^[A-Z_]{4,}$
    |^[A-Z][a-z]+[A-Z]\w*|^\.[a-z_]\w*|\w\(""",
    re.X,
)


def is_code(span: str) -> bool:
    """Whether a code span of the documents names code or a test (kept from a player's view)."""
    return bool(_CODE_SPAN.search(span))


def _has_code(markdown: str) -> bool:
    return any(is_code(span) for span in re.findall(r"`([^`]+)`", markdown))


#: The columns that hold a rule's statement in a player's words; a table with one of them is a
#: table of rule rows, any other table (whole-game checks, properties, front ends) is the
#: project's own bookkeeping, shown only with the code and tests.
STATEMENT_COLUMNS = ("Rule", "What happens, in order")

#: A row's status as a player reads it; *done* (played as written) needs no word.
_STATUS_WORDS = (
    ("done", ""),
    ("derived", "rebuilt: the text's table or drawing is missing, the ruling fills it in"),
    ("n/a", "nothing to play: advice, background or a paper aid"),
    ("not in the excerpt", "not in the excerpt: only named, its rules are elsewhere in the book"),
    ("not yet", "not played yet"),
)


def statement_column(header: list[str]) -> int | None:
    """Which column of a table's header holds the rule's statement, or None for other tables."""
    for name in STATEMENT_COLUMNS:
        if name in header:
            return header.index(name)
    return None


def rule_rows(markdown: str) -> list[tuple[str, str]]:
    """Every rule row of a rules document as (its first cell, its statement), in order."""
    rows: list[tuple[str, str]] = []
    header: list[str] | None = None
    for line in markdown.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = _cells(line)
        if header is None:
            header = cells
            continue
        column = statement_column(header)
        if column is None or all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue
        rows.append((cells[0], cells[column] if column < len(cells) else ""))
    return rows


def _status_note(status: str) -> str:
    plain = status.strip().lower()
    for word, note in _STATUS_WORDS:
        if plain.startswith(word):
            return note
    return ""


def _rulings_linked(markdown: str) -> list[tuple[str, str]]:
    """The rulings a cell links to, as (title, href on the served pages)."""
    hrefs = [(m.group(1), _href(m.group(2))) for m in _LINK.finditer(markdown)]
    return [(title, href) for title, href in hrefs if href.startswith("/rules/rulings-") and "#" in href]


def _rule_table(header: list[str], rows: list[list[str]], unique: Callable[[str], str]) -> str:
    """Rule rows as a list a player reads: the section, the statement, the status in words and the
    rulings it follows; the code, the tests and the status as written fold away with the code."""
    column = statement_column(header)
    if column is None:
        raise ValueError(f"not a table of rule rows: {header}")
    out = ['<div class="rules">']
    for row in rows:
        row = row + [""] * (len(header) - len(row))
        anchor = unique(row_anchor(row[0]))
        say = row[column]
        ref = row[0] if column != 0 else ""
        # Every cell but the statement and the section it heads with: code, tests, status.
        others = [(header[k], row[k]) for k in range(len(header)) if k != column and (k or column == 0)]
        shown = {href for _t, href in _rulings_linked(say)}
        rulings: dict[str, str] = {}
        for _name, cell in others:
            for t, h in _rulings_linked(cell):
                if h not in shown:
                    rulings.setdefault(h, t)
        status = dict(others).get("Status", "")
        note = _status_note(status)
        out.append(f'<div class="rule" id="{anchor}">')
        out.append(
            f'<a class="rule-ref" href="#{anchor}">{_inline(ref) if ref else "¶"}</a>'
            f'<p class="rule-say">{_inline(say)}</p>'
        )
        extra = []
        if note:
            extra.append(f'<span class="rule-status">{html.escape(note)}</span>')
        if rulings:
            links = ", ".join(f'<a href="{html.escape(h)}">{_inline(t)}</a>' for h, t in rulings.items())
            extra.append(f'<span class="rule-rulings">Ruling: {links}</span>')
        if extra:
            out.append(f'<p class="rule-note">{" ".join(extra)}</p>')
        details = "".join(f"<dt>{html.escape(name)}</dt><dd>{_inline(cell)}</dd>" for name, cell in others if cell)
        if details:
            out.append(f'<dl class="tech rule-code">{details}</dl>')
        out.append("</div>")
    out.append("</div>")
    return "".join(out)


def _plain_table(head: list[str], rest: list[list[str]], unique: Callable[[str], str]) -> str:
    """A table with no player's statements (the project's bookkeeping): shown with the code, each row anchored."""
    table = ['<div class="table-wrap"><table><thead><tr><th></th>']
    table.append("".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr></thead><tbody>")
    for row in rest:
        anchor = unique(row_anchor(row[0]))
        cells = "".join(f"<td>{_inline(c)}</td>" for c in row)
        table.append(f'<tr id="{anchor}"><td class="anchor"><a href="#{anchor}">¶</a></td>{cells}</tr>')
    table.append("</tbody></table></div>")
    return "".join(table)


def _list(items: list[str]) -> tuple[int, str, bool]:
    """A bulleted list as a block: an item naming code or tests (a ruling's Code and Test lines) is ``tech``."""
    tech = [_has_code(x) or bool(re.match(r"\*\*(Code|Test)\*\*", x)) for x in items]
    lis = "".join(
        f'<li class="tech">{_inline(x)}</li>' if t else f"<li>{_inline(x)}</li>"
        for x, t in zip(items, tech, strict=True)
    )
    return (0, f"<ul>{lis}</ul>", all(tech))


Block = tuple[int, str, bool]  # (heading level or 0, html, shows code or tests)


def render(markdown: str, title: str, intro: str = "") -> str:
    """The document as a page of HTML for a player: every rule row as its statement, every level-2
    heading a section (a ruling, on the rulings page) with its anchor, every rule row anchored; what
    names code or tests is marked ``tech`` and shown only when the reader asks for it."""
    blocks = _Blocks(markdown.splitlines()).read()
    if intro:
        first = next((k for k, block in enumerate(blocks) if block[0] == 1), -1)
        blocks.insert(first + 1, (0, f'<p class="rulebook-intro">{html.escape(intro)}</p>', False))
    return _PAGE.format(title=html.escape(title), body=_sections(blocks))


class _Blocks:
    """Reads a document's lines into blocks: headings, tables, lists, code and paragraphs."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.i = 0
        self.used: dict[str, int] = {}
        self.blocks: list[Block] = []
        self.paragraph: list[str] = []

    def read(self) -> list[Block]:
        while self.i < len(self.lines):
            line = self.lines[self.i]
            heading = re.match(r"(#{1,6}) (.*)", line)
            if heading or line.startswith(("|", "```")) or re.match(r"\s*[*-] ", line) or not line.strip():
                self.flush()
            if heading:
                self.heading(len(heading.group(1)), heading.group(2))
            elif line.startswith("|"):
                self.table()
            elif re.match(r"\s*[*-] ", line):
                self.bullets()
            elif line.startswith("```"):
                self.code()
            elif line.strip():
                self.paragraph.append(line.strip())
                self.i += 1
            else:
                self.i += 1
        self.flush()
        return self.blocks

    def unique(self, anchor: str) -> str:
        self.used[anchor] = self.used.get(anchor, 0) + 1
        return anchor if self.used[anchor] == 1 else f"{anchor}-{self.used[anchor]}"

    def flush(self) -> None:
        if self.paragraph:
            text = " ".join(self.paragraph)
            self.blocks.append((0, f"<p>{_inline(text)}</p>", _has_code(text)))
            self.paragraph.clear()

    def heading(self, level: int, text: str) -> None:
        self.blocks.append((level, f'<h{level} id="{self.unique(slug(text))}">{_inline(text)}</h{level}>', False))
        self.i += 1

    def table(self) -> None:
        rows: list[list[str]] = []
        while self.i < len(self.lines) and self.lines[self.i].startswith("|"):
            rows.append(_cells(self.lines[self.i]))
            self.i += 1
        head, rest = rows[0], [r for r in rows[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
        if statement_column(head) is not None:
            self.blocks.append((0, _rule_table(head, rest, self.unique), False))
        else:
            self.blocks.append((0, _plain_table(head, rest, self.unique), True))

    def bullets(self) -> None:
        items: list[str] = []
        lines = self.lines
        while self.i < len(lines) and lines[self.i].strip() and not lines[self.i].startswith(("#", "|")):
            item = re.match(r"\s*[*-] (.*)", lines[self.i])
            if item:
                items.append(item.group(1))
            elif items:
                items[-1] += " " + lines[self.i].strip()
            self.i += 1
        self.blocks.append(_list(items))

    def code(self) -> None:
        block: list[str] = []
        self.i += 1
        while self.i < len(self.lines) and not self.lines[self.i].startswith("```"):
            block.append(self.lines[self.i])
            self.i += 1
        self.i += 1  # the closing fence
        code = "\n".join(block)
        self.blocks.append((0, f"<pre><code>{html.escape(code)}</code></pre>", _has_code(f"`{code}`")))


def _sections(blocks: list[tuple[int, str, bool]]) -> str:
    """The blocks with each level-2 heading and what follows it (up to the next heading of level 1
    or 2) in a ``section`` carrying the heading's anchor, so a link to it lands on (and highlights)
    the whole section; a section with nothing but code and tests is itself ``tech``."""
    body: list[str] = []
    k = 0
    while k < len(blocks):
        level, markup, tech = blocks[k]
        if level != 2:
            body.append(f'<div class="tech">{markup}</div>' if tech else markup)
            k += 1
            continue
        end = k + 1
        while end < len(blocks) and blocks[end][0] not in (1, 2):
            end += 1
        inside = blocks[k + 1 : end]
        anchor = re.search(r'id="([^"]+)"', markup)
        heading = re.sub(r' id="[^"]+"', "", markup, count=1)
        hidden = bool(inside) and all(t for _l, _m, t in inside)
        classes = "rb-section tech" if hidden else "rb-section"
        body.append(f'<section class="{classes}" id="{anchor.group(1) if anchor else ""}">{heading}')
        body.extend(f'<div class="tech">{m}</div>' if t and not hidden else m for _l, m, t in inside)
        body.append("</section>")
        k = end
    return "\n".join(body)


#: What a player's page says under its title: the index of the rulings, a system's rulings, its rules.
_INTROS = {
    "rulings": "How vectorwar decides what the rule texts leave open: every ruling of every rule system, "
    "each a link to the ruling itself.",
}
_RULINGS_INTRO = (
    "How vectorwar decides what the rule texts leave open, one ruling at a time: the question, "
    "the choice, why, and the option that changes it where players may want another reading."
)
_RULES_INTRO = (
    "Each rule of the text in a sentence or two, in vectorwar's own words, under the text's own section "
    "numbers; a ruling link says how the game decides what the text leaves open."
)


@cache
def _rendered(name: str, path: Path, mtime: float) -> str:
    intro = _INTROS.get(name) or (_RULINGS_INTRO if name.startswith("rulings-") else _RULES_INTRO)
    return render(path.read_text(encoding="utf-8"), f"{name} - vectorwar rules", intro)


def title_of(name: str) -> str:
    """A document's title: its first heading."""
    text = page_text(name) or ""
    found = re.search(r"^# (.+)$", text, flags=re.MULTILINE)
    return found.group(1) if found else name


def page_html(name: str) -> str | None:
    """The page called ``name`` as HTML, or None when there is no such document."""
    path = pages().get(name)
    if path is None:
        return None
    return _rendered(name, path, path.stat().st_mtime)


def page_text(name: str) -> str | None:
    path = pages().get(name)
    return None if path is None else path.read_text(encoding="utf-8")


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/rulebook.css"><script src="/static/rulebook.js" defer></script>
</head><body class="rulebook-page"><header class="topbar"><a class="brand" href="/">vectorwar</a>
<nav class="rulebook-nav"><a href="/rules">All rules</a> <a href="/rules/rulings">Rulings</a></nav>
<button type="button" class="secondary show-code" aria-pressed="false">Show code and tests</button>
</header><main class="rulebook">
{body}
</main></body></html>"""


router = APIRouter()


@router.get("/rules", include_in_schema=False)
async def rules_index() -> HTMLResponse:
    items = "".join(f'<li><a href="/rules/{name}">{html.escape(title_of(name))}</a></li>' for name in pages())
    body = f'<h1>Rules at hand</h1><ul class="rulebook-index">{items}</ul>'
    return HTMLResponse(_PAGE.format(title="vectorwar rules", body=body))


@router.get("/rules/{name}", include_in_schema=False)
async def rules_page(name: str, format: Annotated[str, Query(pattern="^(html|text)$")] = "html") -> Response:
    found = page_text(name) if format == "text" else page_html(name)
    if found is None:
        return HTMLResponse("<p>No such rules page. <a href='/rules'>All rules</a></p>", status_code=404)
    return PlainTextResponse(found) if format == "text" else HTMLResponse(found)


class RuleLinkOut(BaseModel):
    label: str
    href: str = Field(description="The rules page and the row's anchor, e.g. /rules/avt#rule-a5-166")


@router.get(
    "/api/rules/prompt",
    tags=["rules"],
    summary="The rule rows that apply to a prompt, as links",
    response_model=list[RuleLinkOut],
    responses=error_responses(422),
)
async def rules_for_prompt(
    system: Annotated[str, Query(max_length=40)],
    phase: Annotated[str, Query(max_length=200)] = "",
    scenario: Annotated[str, Query(max_length=80, description="The game's scenario id")] = "",
) -> JSONResponse:
    return JSONResponse(prompt_links(system, phase, scenario))
