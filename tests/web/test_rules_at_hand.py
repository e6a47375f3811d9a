"""Rules at hand: the rules documents and the rulings are served as pages with an anchor on every
rule row, they ship inside the package, and every link a prompt offers leads to an anchor that
exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vectorwar.registry import systems
from vectorwar.web import rulebook

REPO_DOCS = Path(__file__).resolve().parents[2] / "docs"


def anchors(page: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', page))


def test_the_package_carries_every_rules_document_and_the_rulings() -> None:
    served = rulebook.pages()
    assert set(served) == {p.stem for p in (REPO_DOCS / "rules").glob("*.md")} | {"rulings"}
    # Served from inside the package (what an installed server has), the same text as the repository's.
    for name, path in served.items():
        assert rulebook.DOCS in path.parents
        source = REPO_DOCS / ("rulings.md" if name == "rulings" else f"rules/{name}.md")
        assert path.read_text() == source.read_text()


def test_pyproject_packages_the_documents() -> None:
    pyproject = (REPO_DOCS.parent / "pyproject.toml").read_text()
    assert '"docs/rules/*.md", "docs/rulings.md"' in pyproject


def test_pages_render_with_an_anchor_per_rule_row_and_escape_what_they_quote(client: TestClient) -> None:
    res = client.get("/rules/avt")
    assert res.status_code == 200
    assert "text/html" in res.headers["content-type"]
    page = res.text
    assert 'id="rule-a5-166"' in page
    assert 'id="a54-sample-game-four-weapon-fire-and-damage-allocation"' in page
    # The documents' own links go to the served pages.
    assert 'href="/rules/rulings#avt-attackers-choice"' in page
    quoted = rulebook.render("<script>alert(1)</script> `<b>`", "t")
    assert "<script>alert" not in quoted and "<b>" not in quoted
    plain = client.get("/rules/avt?format=text")
    assert plain.text.startswith("# Attack Vector")
    assert client.get("/rules/nothing").status_code == 404
    index = client.get("/rules").text
    assert all(f'href="/rules/{name}"' in index for name in rulebook.pages())


@pytest.mark.parametrize("system", sorted(systems()))
def test_every_prompt_links_to_rule_rows_that_exist(client: TestClient, system: str) -> None:
    pages: dict[str, set[str]] = {}
    phases = [p.name for p in systems()[system].manifest.phases] + [w for w, _, _ in rulebook.PROMPT_RULES[system]]
    for phase in phases:
        links = client.get("/api/rules/prompt", params={"system": system, "phase": f"turn 1, {phase}"}).json()
        assert links, phase
        assert any(link["href"].startswith(f"/rules/{system}") or "#rule-" in link["href"] for link in links), phase
        for link in links:
            page, _, anchor = link["href"].removeprefix("/rules/").partition("#")
            if page not in pages:
                res = client.get(f"/rules/{page}")
                assert res.status_code == 200, link
                pages[page] = anchors(res.text)
            assert not anchor or anchor in pages[page], f"{system} {phase}: {link} has no anchor"


def test_each_listed_rule_row_names_a_row_of_its_document() -> None:
    for system, rows in rulebook.PROMPT_RULES.items():
        for _word, page, cell in rows:
            text = rulebook.pages()[page].read_text()
            assert f"| {cell} |" in text, f"{system}: {page} has no row {cell!r}"
