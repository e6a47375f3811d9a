"""The AV:T docs (docs/rules/avt.md and the AV:T section of docs/rulings.md) cite real tests, code and data."""

from __future__ import annotations

import ast
import importlib
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AVT_SRC = ROOT / "src" / "vectorwar" / "systems" / "avt"
TEST_REF = re.compile(r"`((?:\.\./|avt/)?test_[a-z0-9_]+\.py)?::(test_[a-z0-9_]+)`")
CODE_REF = re.compile(r"`((?:vectorwar\.)?[a-z_][a-z0-9_./]*):([A-Za-z_][A-Za-z0-9_.]*)`")
# The key at the top of docs/rules/avt.md.
EXAMPLES = {("module", "function"), ("rules", "AttackVector.")}


@cache
def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def _avt_rulings() -> str:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    start = text.index("\n# AV:T\n")
    end = text.find("\n# ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _doc(doc: str) -> str:
    return _avt_rulings() if doc == "rulings.md#AV:T" else (ROOT / "docs" / doc).read_text(encoding="utf-8")


def _cited_tests(text: str, base: Path) -> list[tuple[Path, str]]:
    """Every ``file::test`` citation; a bare ``::test`` continues the last file named."""
    out: list[tuple[Path, str]] = []
    current: Path | None = None
    for match in TEST_REF.finditer(text):
        file, name = match.groups()
        if file:
            current = (base / file).resolve()
        assert current is not None, f"{name} cited before any file"
        out.append((current, name))
    return out


@pytest.mark.parametrize(("doc", "base"), [("rules/avt.md", "tests/avt"), ("rulings.md#AV:T", "tests")])
def test_every_cited_test_exists(doc: str, base: str) -> None:
    cited = _cited_tests(_doc(doc), ROOT / base)
    assert len(cited) > 30
    missing = [f"{p.relative_to(ROOT)}::{n}" for p, n in cited if not p.exists() or n not in _test_names(p)]
    assert not missing, f"{doc} cites tests that do not exist: {missing}"


def _has(dotted: str, name: str) -> bool:
    try:
        obj: object = importlib.import_module(dotted)
    except ModuleNotFoundError:
        return False
    for part in name.split("."):
        fields = getattr(obj, "model_fields", {})  # pydantic fields are not class attributes
        if not hasattr(obj, part) and part not in fields:
            return False
        obj = getattr(obj, part, None)
    return True


def _resolve(module: str, name: str) -> bool:
    """An AV:T module (``rules:x`` may be a method of ``AttackVector``, as the map's key says) or a kernel one."""
    if module.startswith("vectorwar."):
        return _has(module, name)
    names = [name, f"AttackVector.{name}"] if module == "rules" else [name]
    return any(_has(f"vectorwar.systems.avt.{module}", n) for n in names) or _has(f"vectorwar.{module}", name)


@pytest.mark.parametrize("doc", ["rules/avt.md", "rulings.md#AV:T"])
def test_every_cited_code_name_exists(doc: str) -> None:
    text = _doc(doc)
    refs = {m.groups() for m in CODE_REF.finditer(text)}
    code = {(module.removesuffix(".py").replace("/", "."), name) for module, name in refs} - EXAMPLES
    assert len(code) > 15
    broken = sorted(f"{m}:{n}" for m, n in code if not _resolve(m, n))
    assert not broken, f"{doc} cites code that does not exist: {broken}"
    files = set(re.findall(r"`(data/[a-z0-9_/.-]+\.toml)`", text))
    assert files
    assert {f for f in files if not (AVT_SRC / f).exists()} == set()


def _anchor(heading: str) -> str:
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def test_every_link_in_the_rules_map_lands_on_a_heading() -> None:
    text = (ROOT / "docs" / "rules" / "avt.md").read_text(encoding="utf-8")
    own = {_anchor(h) for h in re.findall(r"^## (.+)$", text, re.M)}
    ruled = {_anchor(h) for h in re.findall(r"^## (.+)$", _avt_rulings(), re.M)}
    jumps = set(re.findall(r"\]\(#([a-z0-9-]+)\)", text))
    links = set(re.findall(r"\(\.\./rulings\.md#([a-z0-9-]+)\)", text))
    assert len(jumps) > 5
    assert len(links) > 10
    assert jumps <= own, f"jumps to no heading: {jumps - own}"
    assert links <= ruled, f"links to no AV:T ruling: {links - ruled}"
