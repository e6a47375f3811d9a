"""The AV:T docs (docs/rules/avt.md and docs/rulings/avt.md) cite real tests, code and data."""

from __future__ import annotations

import re

import pytest

from tests.support import docs_check
from tests.support.docs_check import ROOT, RULING_LINK, citation_pattern, has, missing_tests, rulings_of
from vectorwar.systems.avt.rules import EXAMPLE, ROLL_EXAMPLE

AVT_SRC = ROOT / "src" / "vectorwar" / "systems" / "avt"
TEST_REF = citation_pattern("avt")
CODE_REF = docs_check.CODE_REF
# The key at the top of docs/rules/avt.md.
EXAMPLES = {("module", "function"), ("rules", "AttackVector.")}


def _avt_rulings() -> str:
    return rulings_of("avt")


def _doc(doc: str) -> str:
    return (ROOT / "docs" / doc).read_text(encoding="utf-8")


@pytest.mark.parametrize(("doc", "base"), [("rules/avt.md", "tests/avt"), ("rulings/avt.md", "tests")])
def test_every_cited_test_exists(doc: str, base: str) -> None:
    count, missing = missing_tests(_doc(doc), ROOT / base, TEST_REF)
    assert count > 30
    assert not missing, f"{doc} cites tests that do not exist: {missing}"


def _resolve(module: str, name: str) -> bool:
    """An AV:T module (``rules:x`` may be a method of ``AttackVector``, as the map's key says) or a kernel one."""
    if module.startswith("vectorwar."):
        return has(module, name)
    names = [name, f"AttackVector.{name}"] if module == "rules" else [name]
    return any(has(f"vectorwar.systems.avt.{module}", n) for n in names) or has(f"vectorwar.{module}", name)


@pytest.mark.parametrize("doc", ["rules/avt.md", "rulings/avt.md"])
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
    links = set(RULING_LINK.findall(text))
    assert len(jumps) > 5
    assert len(links) > 10
    assert jumps <= own, f"jumps to no heading: {jumps - own}"
    assert links <= {("avt", a) for a in ruled}, f"links to no AV:T ruling: {links - {('avt', a) for a in ruled}}"


def test_the_rules_map_shows_the_helps_sample_orders() -> None:
    text = (ROOT / "docs" / "rules" / "avt.md").read_text(encoding="utf-8")
    assert f"`{EXAMPLE}`" in text
    assert f"`{ROLL_EXAMPLE}`" in text
