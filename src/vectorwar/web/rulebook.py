"""Rules at hand: the rule-by-rule documents (docs/rules/*.md) and the rulings (docs/rulings.md)
served as pages, with an anchor on every heading and every rule row, and the rule rows that apply
to each prompt (docs/web.md, *Rules at hand*).

The documents ship inside the package (``vectorwar/web/docs`` links to the repository's ``docs``;
the package data copies them), so an installed server has them too. Markdown is rendered here by a
small reader of the few forms those documents use (headings, tables, lists, paragraphs, code,
links, bold), escaping everything else: no markdown library is needed and nothing is trusted.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field

from vectorwar.web.responses import error_responses

DOCS = Path(__file__).resolve().parent / "docs"

#: Per system, the rule rows each kind of prompt needs: (phase word, page, the row's first cell).
#: A prompt whose phase contains the word gets those rows; every prompt also gets the rulings.
PROMPT_RULES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "msc": (  # the rows of MSC's order kinds (systems/msc/kinds.py; tests/msc/test_kinds.py keeps them equal)
        ("build", "msc", "3.0"),
        ("build", "msc", "5.0"),
        ("plot", "msc", "6.0 SPEED"),
        ("plot", "msc", "6.0 Moving a Ship"),
        ("plot", "msc", "6.0 Ship Movement Orders"),
        ("combat", "msc", "7.0 Range"),
        ("combat", "msc", "7.0 To-Hit Roll"),
        ("combat", "msc", "7.0 Damage"),
    ),
    "vv5": (
        ("plot", "vv5", "Movement"),
        ("plot", "vv5", "Sequence of Play"),
        ("initiative", "vv5", "Initiative"),
        ("declare", "vv5", "Initiative"),
        ("missiles", "vv5", "Launch Missiles"),
        ("guns", "vv5", "Gunfire"),
        ("guns", "vv5", "Gun damage"),
    ),
    "vms": (
        ("plot", "vms", "Procedure"),
        ("plot", "vms", "Rotational System"),
        ("plot", "vms", "Rules Changes (Initiative)"),
        ("combat", "msc", "7.0 To-Hit Roll"),
        ("combat", "msc", "7.0 Damage"),
        ("missiles", "vv5", "Launch Missiles"),
        ("guns", "vv5", "Gunfire"),
    ),
    "avt": (
        ("orders", "avt", "A5.12, A5.121"),
        ("orders", "avt", "A5.13, A5.131-A5.133"),
        ("orders", "avt", "A5.222"),
        ("orders", "avt", "A5.24"),
        ("orders", "avt", "A5.272"),
        ("orders", "avt", "A5.166"),
        ("orders", "avt", "A5.431"),
        ("orders", "avt", "A5.39"),
    ),
}


def pages() -> dict[str, Path]:
    """The documents served, by page name: each system's rules (``avt``, ``msc``...) and ``rulings``."""
    found = {path.stem: path for path in sorted((DOCS / "rules").glob("*.md"))}
    rulings = DOCS / "rulings.md"
    if rulings.is_file():
        found["rulings"] = rulings
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


def prompt_links(system: str, phase: str) -> list[dict[str, str]]:
    """The rule rows that apply to a prompt of ``system`` in ``phase``, as ``{label, href}``."""
    links = [
        {"label": cell, "href": f"/rules/{page}#{row_anchor(cell)}"}
        for word, page, cell in PROMPT_RULES.get(system, ())
        if word in phase.lower()
    ]
    if not links and system in pages():
        links.append({"label": f"{system} rules", "href": f"/rules/{system}"})
    links.append({"label": "rulings", "href": "/rules/rulings"})
    return links


_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def _href(target: str) -> str:
    """A document's own link, pointed at the served pages when it names one of them."""
    m = re.fullmatch(r"(?:\.\./|rules/)?([\w-]+)\.md(#[\w-]*)?", target)
    if m and m.group(1) in pages():
        return f"/rules/{m.group(1)}{m.group(2) or ''}"
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
    return [c.strip() for c in line.strip().strip("|").split("|")]


def render(markdown: str, title: str) -> str:
    """The document as a page of HTML, every heading and every table row after the header anchored."""
    body: list[str] = []
    used: dict[str, int] = {}

    def unique(anchor: str) -> str:
        used[anchor] = used.get(anchor, 0) + 1
        return anchor if used[anchor] == 1 else f"{anchor}-{used[anchor]}"

    lines = markdown.splitlines()
    i = 0
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            body.append(f"<p>{_inline(' '.join(paragraph))}</p>")
            paragraph.clear()

    while i < len(lines):
        line = lines[i]
        heading = re.match(r"(#{1,6}) (.*)", line)
        if heading:
            flush()
            level, text = len(heading.group(1)), heading.group(2)
            body.append(f'<h{level} id="{unique(slug(text))}">{_inline(text)}</h{level}>')
        elif line.startswith("|"):
            flush()
            rows: list[list[str]] = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            head, rest = rows[0], [r for r in rows[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
            body.append(
                "<table><thead><tr><th></th>" + "".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr></thead><tbody>"
            )
            for row in rest:
                anchor = unique(row_anchor(row[0]))
                cells = "".join(f"<td>{_inline(c)}</td>" for c in row)
                body.append(f'<tr id="{anchor}"><td class="anchor"><a href="#{anchor}">¶</a></td>{cells}</tr>')
            body.append("</tbody></table>")
            continue
        elif re.match(r"\s*[*-] ", line):
            flush()
            items: list[str] = []
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("#", "|")):
                item = re.match(r"\s*[*-] (.*)", lines[i])
                if item:
                    items.append(item.group(1))
                elif items:
                    items[-1] += " " + lines[i].strip()
                i += 1
            body.append("<ul>" + "".join(f"<li>{_inline(x)}</li>" for x in items) + "</ul>")
            continue
        elif line.startswith("```"):
            flush()
            block: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                block.append(lines[i])
                i += 1
            body.append(f"<pre><code>{html.escape(chr(10).join(block))}</code></pre>")
        elif not line.strip():
            flush()
        else:
            paragraph.append(line.strip())
        i += 1
    flush()
    return _PAGE.format(title=html.escape(title), body="\n".join(body))


@cache
def _rendered(path: Path, mtime: float) -> str:
    return render(path.read_text(encoding="utf-8"), f"{path.stem} - vectorwar rules")


def page_html(name: str) -> str | None:
    """The page called ``name`` as HTML, or None when there is no such document."""
    path = pages().get(name)
    if path is None:
        return None
    return _rendered(path, path.stat().st_mtime)


def page_text(name: str) -> str | None:
    path = pages().get(name)
    return None if path is None else path.read_text(encoding="utf-8")


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title>
<link rel="icon" href="data:,"><style>
body {{ font: 15px/1.45 system-ui, sans-serif; max-width: 72rem; margin: 1rem auto; padding: 0 1rem; }}
table {{ border-collapse: collapse; margin: 0.5rem 0; }} td, th {{ border: 1px solid #ccc; padding: 0.25rem 0.4rem;
vertical-align: top; }} tr:target {{ background: #fff3bf; }} td.anchor a {{ text-decoration: none; color: #999; }}
code {{ background: #f3f3f3; padding: 0 0.2rem; }}
</style></head><body><p><a href="/rules">All rules</a> · <a href="/">Lobby</a></p>
{body}
</body></html>"""


router = APIRouter()


@router.get("/rules", include_in_schema=False)
async def rules_index() -> HTMLResponse:
    items = "".join(f'<li><a href="/rules/{name}">{html.escape(name)}</a></li>' for name in pages())
    return HTMLResponse(_PAGE.format(title="vectorwar rules", body=f"<h1>Rules at hand</h1><ul>{items}</ul>"))


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
    system: Annotated[str, Query(max_length=40)], phase: Annotated[str, Query(max_length=200)] = ""
) -> JSONResponse:
    return JSONResponse(prompt_links(system, phase))
