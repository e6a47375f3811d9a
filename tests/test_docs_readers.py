"""Docs written for their readers: short enough to read, and about what is true now, not how it was reached."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", *ROOT.joinpath("docs").rglob("*.md")])
#: The most lines each of these may have (docs/bots.md: "under 400"; docs/architecture.md is what a newcomer
#: reads first, so its detail lives in topic docs it points at).
MOST_LINES = {"docs/bots.md": 399, "docs/architecture.md": 420}
#: A round of work named as such ("the thirteenth session", "since the second wave"): history for git log.
ROUND_OF_WORK = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\w+teenth|twentieth)"
    r"\s+(session|wave|round of work)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize(("name", "most"), MOST_LINES.items())
def test_the_long_docs_stay_short_enough_to_read(name: str, most: int) -> None:
    lines = ROOT.joinpath(name).read_text(encoding="utf-8").count("\n")
    assert lines <= most, f"{name} has {lines} lines; at most {most}: say what is true now, briefly"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_doc_recounts_the_rounds_of_work_behind_it(path: Path) -> None:
    found = [m.group(0) for m in ROUND_OF_WORK.finditer(path.read_text(encoding="utf-8"))]
    assert found == [], f"{path.name} names rounds of work ({found}); history belongs in git log and CHANGELOG.md"
