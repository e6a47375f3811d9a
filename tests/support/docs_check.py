"""Checks that the rules maps and rulings cite tests and code that really exist."""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_REF = re.compile(r"`((?:vectorwar\.)?[a-z_][a-z0-9_./]*):([A-Za-z_][A-Za-z0-9_.]*)`")


def citation_pattern(folder: str) -> re.Pattern[str]:
    """``file::test`` citations, the file relative to ``tests/FOLDER`` (or ``../``)."""
    return re.compile(rf"`((?:\.\./|{folder}/)?test_[a-z0-9_]+\.py)?::(test_[a-z0-9_]+)`")


@cache
def test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def cited_tests(text: str, base: Path, pattern: re.Pattern[str]) -> list[tuple[Path, str]]:
    """Every ``file::test`` citation; a bare ``::test`` continues the last file named."""
    out: list[tuple[Path, str]] = []
    current: Path | None = None
    for match in pattern.finditer(text):
        file, name = match.groups()
        if file:
            current = (base / file).resolve()
        if current is None:
            raise AssertionError(f"{name} cited before any file")
        out.append((current, name))
    return out


def missing_tests(text: str, base: Path, pattern: re.Pattern[str]) -> tuple[int, list[str]]:
    """How many tests are cited, and which of them do not exist."""
    cited = cited_tests(text, base, pattern)
    missing = [f"{p.relative_to(ROOT)}::{n}" for p, n in cited if not p.exists() or n not in test_names(p)]
    return len(cited), missing


RULINGS = ROOT / "docs" / "rulings"
#: A link to a ruling in its system's file, from a rules map: ``(../rulings/avt.md#avt-ralt)``.
RULING_LINK = re.compile(r"\(\.\./rulings/([a-z0-9-]+)\.md#([a-z0-9-]+)\)")


def rulings_of(system: str) -> str:
    """The rulings of one rule system (or of every system, or the limits): docs/rulings/SYSTEM.md."""
    return (RULINGS / f"{system}.md").read_text(encoding="utf-8")


def has(dotted: str, name: str) -> bool:
    """Does module ``dotted`` have ``name`` (dotted attributes, pydantic and dataclass fields allowed)?"""
    try:
        obj: object = importlib.import_module(dotted)
    except ModuleNotFoundError:
        return False
    for part in name.split("."):
        fields = getattr(obj, "model_fields", {})  # pydantic fields are not class attributes
        fields = fields or getattr(obj, "__dataclass_fields__", {})  # nor a dataclass's without slots or default
        if not hasattr(obj, part) and part not in fields:
            return False
        obj = getattr(obj, part, None)
    return True
