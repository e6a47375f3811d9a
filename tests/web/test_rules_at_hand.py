"""Rules at hand: the rules documents and the rulings are served as pages with an anchor on every
rule row, they ship inside the package, and every link a prompt offers leads to an anchor that
exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.registry import systems
from vectorwar.web import rulebook

REPO_DOCS = Path(__file__).resolve().parents[2] / "docs"


def anchors(page: str) -> set[str]:
    return set(re.findall(r'id="([^"]+)"', page))


def repo_source(name: str) -> Path:
    """The repository's document a page is served from."""
    if name == "rulings":
        return REPO_DOCS / "rulings.md"
    if name.startswith("rulings-"):
        return REPO_DOCS / "rulings" / f"{name.removeprefix('rulings-')}.md"
    return REPO_DOCS / "rules" / f"{name}.md"


def test_the_package_carries_every_rules_document_and_the_rulings() -> None:
    served = rulebook.pages()
    rules = {p.stem for p in (REPO_DOCS / "rules").glob("*.md")}
    rulings = {f"rulings-{p.stem}" for p in (REPO_DOCS / "rulings").glob("*.md")}
    assert rulings >= {"rulings-msc", "rulings-vv5", "rulings-avt", "rulings-vms", "rulings-limits"}
    assert set(served) == rules | {"rulings"} | rulings
    # Served from inside the package (what an installed server has), the same text as the repository's.
    for name, path in served.items():
        assert rulebook.DOCS in path.parents
        assert path.read_text() == repo_source(name).read_text()


def test_pyproject_packages_every_document_served() -> None:
    """Every page's file is matched by the web package's package data, so a wheel carries it."""
    pyproject = tomllib.loads((REPO_DOCS.parent / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["vectorwar.web"]
    package = rulebook.DOCS.parent
    shipped = {path for pattern in patterns for path in package.glob(pattern)}
    for name, path in rulebook.pages().items():
        assert path in shipped, f"{name}: {path.relative_to(package)} is not in the package data"


def test_pages_render_with_an_anchor_per_rule_row_and_escape_what_they_quote(client: TestClient) -> None:
    res = client.get("/rules/avt")
    assert res.status_code == 200
    assert "text/html" in res.headers["content-type"]
    page = res.text
    assert 'id="rule-a5-166"' in page
    assert 'id="a54-sample-game-four-weapon-fire-and-damage-allocation"' in page
    # The documents' own links go to the served pages: a ruling to its system's page of rulings.
    assert 'href="/rules/rulings-avt#avt-attackers-choice"' in page
    assert 'id="avt-attackers-choice"' in client.get("/rules/rulings-avt").text
    quoted = rulebook.render("<script>alert(1)</script> `<b>`", "t")
    assert "<script>alert" not in quoted
    assert "<b>" not in quoted
    plain = client.get("/rules/avt?format=text")
    assert plain.text.startswith("# Attack Vector")
    assert client.get("/rules/nothing").status_code == 404
    index = client.get("/rules").text
    assert all(f'href="/rules/{name}"' in index for name in rulebook.pages())


def scenarios_of(system: str) -> list[str]:
    """The built-in scenarios of a system, and "" for a scenario of the player's own."""
    return ["", *sorted(sid for sid in scenario_paths() if builtin_scenario(sid).system == system)]


@pytest.mark.parametrize("system", sorted(systems()))
def test_every_prompt_links_to_rule_rows_that_exist(client: TestClient, system: str) -> None:
    pages: dict[str, set[str]] = {}
    for scenario in scenarios_of(system):
        words = [w for w, _, _ in rulebook.prompt_rules(system, scenario)]
        for phase in [p.name for p in systems()[system].manifest.phases] + words:
            params = {"system": system, "phase": f"turn 1, {phase}", "scenario": scenario}
            links = client.get("/api/rules/prompt", params=params).json()
            assert links, phase
            if rulebook.prompt_rules(system, scenario) or system in rulebook.pages():
                assert any(link["href"].startswith(f"/rules/{system}") or "#rule-" in link["href"] for link in links)
            for link in links:
                page, _, anchor = link["href"].removeprefix("/rules/").partition("#")
                if page not in pages:
                    res = client.get(f"/rules/{page}")
                    assert res.status_code == 200, link
                    pages[page] = anchors(res.text)
                assert not anchor or anchor in pages[page], f"{system} {scenario} {phase}: {link} has no anchor"


def test_each_listed_rule_row_names_a_row_of_its_document() -> None:
    listed = [(name, system.prompt_rules) for name, system in systems().items()]
    listed += [item for system in systems().values() for item in system.scenario_rules().items()]
    for name, rows in listed:
        for _word, page, cell in rows:
            rows_of_page = {first for first, _say in rulebook.rule_rows(rulebook.pages()[page].read_text())}
            assert cell in rows_of_page, f"{name}: {page} has no rule row {cell!r}"


def test_a_prompt_links_the_rules_of_the_game_being_played() -> None:
    """The AV:T duels link the rules every game plays by, not sample game one's lesson (its
    chocolates); sample game one links its own lesson; a VV5 scenario adds its own victory rule."""
    text = rulebook.pages()["avt"].read_text()
    lesson_one = text.split("## A5.1 Sample game one")[1].split("\n## ")[0]
    chocolates = {rulebook.row_anchor(first) for first, _say in rulebook.rule_rows(lesson_one)}
    assert "rule-a5-166" in chocolates
    for duel in ("avt-duel-wasp", "avt-duel-rafik"):
        links = rulebook.prompt_links("avt", "turn 1, segment 1, orders", duel)
        landed = {link["href"].partition("#")[2] for link in links if "#rule-" in link["href"]}
        assert landed, duel
        assert not landed & chocolates, f"{duel} links sample game one: {landed & chocolates}"
    drift = rulebook.prompt_links("avt", "turn 1, segment 1, orders", "avt-drift")
    assert {"label": "A5.166", "href": "/rules/avt#rule-a5-166"} in drift
    pirates = rulebook.prompt_links("vv5", "turn 1, plot", "vv5-pirates-purchase")
    assert {"label": "Pirates victory", "href": "/rules/vv5#rule-pirates-victory"} in pirates
    assert pirates[-1] == {"label": "rulings", "href": "/rules/rulings-vv5"}


def test_a_system_without_rule_rows_or_a_page_links_only_the_rulings() -> None:
    """The test fixture (tests/support/fifth) keeps RuleSystem's default of no prompt rule rows."""
    assert systems()["fifth"].prompt_rules == ()
    assert rulebook.prompt_links("fifth", "turn 1, plot", "fifth-duel") == [
        {"label": "rulings", "href": "/rules/rulings"}
    ]
    assert rulebook.prompt_rules("no-such-system") == ()


def test_the_rulings_index_links_every_ruling_on_its_systems_page(client: TestClient) -> None:
    """The index page lists each ruling as a link to the page of its system's rulings, at its anchor."""
    index = client.get("/rules/rulings").text
    hrefs = set(re.findall(r'href="(/rules/rulings-[\w-]+#[\w-]+)"', index))
    expected = set()
    for name in [n for n in rulebook.pages() if n.startswith("rulings-")]:
        text = rulebook.page_text(name) or ""
        expected |= {f"/rules/{name}#{rulebook.slug(t)}" for t in re.findall(r"^## (.+)$", text, re.M)}
        page = anchors(client.get(f"/rules/{name}").text)
        assert {h.partition("#")[2] for h in hrefs if h.startswith(f"/rules/{name}#")} <= page
        # Each page of rulings links back to the index.
        assert '<a href="/rules/rulings">the index of rulings</a>' in client.get(f"/rules/{name}").text
    assert len(expected) > 150
    assert hrefs == expected
    # The old sections of the single file keep an anchor on the index (links from before the split).
    assert {"msc", "vv5", "avt", "vms", "every-system", "limits"} <= anchors(index)
