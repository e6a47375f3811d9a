"""Every module easy to read and change: radon's maintainability index A and no function over complexity 20."""

from __future__ import annotations

from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.metrics import mi_rank, mi_visit

SRC = Path(__file__).resolve().parents[1] / "src" / "vectorwar"
#: The most branches one function may have (radon's cyclomatic complexity, rank C and under).
MOST_COMPLEXITY = 20
MODULES = sorted(SRC.rglob("*.py"))


def _name(path: Path) -> str:
    return str(path.relative_to(SRC))


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_function_is_more_complex_than_the_bound(path: Path) -> None:
    over = [
        f"{inner.fullname} ({inner.complexity})"
        for block in cc_visit(path.read_text(encoding="utf-8"))
        for inner in (block, *getattr(block, "methods", ()))
        if inner.complexity > MOST_COMPLEXITY
    ]
    assert over == [], f"split these functions of {_name(path)} (cyclomatic complexity over {MOST_COMPLEXITY})"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_every_module_has_maintainability_a(path: Path) -> None:
    index = mi_visit(path.read_text(encoding="utf-8"), multi=True)
    assert mi_rank(index) == "A", f"{_name(path)}: maintainability index {index:.1f}; split it by concern"
