"""docs/rules/*.md: no row left "simplified", and every ruling a row links to exists (issue 17)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
