"""The VMS docs (docs/rules/vms.md and docs/rulings/vms.md) cite real tests, code and data."""

from __future__ import annotations

import re

import pytest

from tests.support.docs_check import CODE_REF, ROOT, RULING_LINK, has, missing_tests

VMS_SRC = ROOT / "src" / "vectorwar" / "systems" / "vms"
# Test files under tests/vms (or ../combat/ from the rules map; vms/ or combat/ from the rulings).
TEST_REF = re.compile(r"`((?:\.\./combat/|vms/|combat/)?test_[a-z0-9_]+\.py)?::(test_[a-z0-9_]+)`")
# The map's key, and the flat-turn order `flat:R1`, look like code references.
KEY_EXAMPLES = {("module", "name"), ("flat", "R1")}


def _doc(doc: str) -> str:
    return (ROOT / "docs" / doc).read_text(encoding="utf-8")


@pytest.mark.parametrize(("doc", "base"), [("rules/vms.md", "tests/vms"), ("rulings/vms.md", "tests")])
def test_every_cited_test_exists(doc: str, base: str) -> None:
    count, missing = missing_tests(_doc(doc), ROOT / base, TEST_REF)
    assert count > 15
    assert not missing, f"{doc} cites tests that do not exist: {missing}"


def _resolve(module: str, name: str) -> bool:
    if module.startswith("vectorwar."):
        return has(module, name)
    dotted = module.removesuffix(".py").replace("/", ".")
    return has(f"vectorwar.systems.vms.{dotted}", name)


@pytest.mark.parametrize("doc", ["rules/vms.md", "rulings/vms.md"])
def test_every_cited_code_name_exists(doc: str) -> None:
    refs = {m.groups() for m in CODE_REF.finditer(_doc(doc))} - KEY_EXAMPLES
    assert len(refs) > 10
    broken = sorted(f"{m}:{n}" for m, n in refs if not _resolve(m, n))
    assert not broken, f"{doc} cites code that does not exist: {broken}"


def test_every_data_file_named_exists_and_every_link_lands() -> None:
    text = _doc("rules/vms.md")
    files = set(re.findall(r"`(data/[a-z0-9_/.-]+\.toml)`", text))
    assert len(files) >= 4
    assert {f for f in files if not (VMS_SRC / f).exists()} == set()

    def anchor(heading: str) -> str:
        return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")

    own = {anchor(h) for h in re.findall(r"^## (.+)$", text, re.M)}
    ruled = {anchor(h) for h in re.findall(r"^## (.+)$", _doc("rulings/vms.md"), re.M)}
    assert set(re.findall(r"\]\(#([a-z0-9-]+)\)", text)) <= own
    links = set(RULING_LINK.findall(text))
    assert len(links) > 5
    assert links <= {("vms", a) for a in ruled}, f"links to no VMS ruling: {links - {('vms', a) for a in ruled}}"
