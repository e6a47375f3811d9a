"""The browser code: plain ES modules a person can read in one sitting, all served by the app itself.

Modules are split by concern (docs/web.md, src/vectorwar/web/static/README.md); these tests keep
them so: no JavaScript file over 500 lines, no import of anything but the app's own files (the
game works offline, with no CDN and no build step), and every module the pages load reachable
through the server's own static route.
"""

from __future__ import annotations

import re
from pathlib import Path
from posixpath import dirname, normpath

import pytest
from fastapi.testclient import TestClient

from vectorwar.web.app import STATIC

MAX_LINES = 500

#: `import ... from "x"` and `export ... from "x"`: the clause between holds only names, braces,
#: commas, `*` and `as`, so the pattern cannot run on into code.
_FROM = re.compile(r"^\s*(?:import|export)\s+[\w$*{},\s]*?\bfrom\s*[\"']([^\"']+)[\"']", re.MULTILINE)
#: `import "x"` (for its effects) and `import("x")` (loaded when needed).
_BARE = re.compile(r"^\s*import\s*[\"']([^\"']+)[\"']", re.MULTILINE)
_DYNAMIC = re.compile(r"\bimport\s*\(\s*[\"'`]([^\"'`]+)[\"'`]")
#: What the pages load: scripts and stylesheets.
_PAGE_REFS = re.compile(r"<(?:script|link)\b[^>]*?\b(?:src|href)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)


def imports_of(source: str) -> list[str]:
    """Every module specifier a JavaScript module imports, static or dynamic, in order of kind."""
    return [m.group(1) for pattern in (_FROM, _BARE, _DYNAMIC) for m in pattern.finditer(source)]


def is_local(specifier: str) -> bool:
    """A path on this server: relative ("./x.js", "../x.js") or absolute under /static/."""
    return specifier.startswith(("./", "../")) or (specifier.startswith("/static/") and not specifier.startswith("//"))


def js_files() -> list[Path]:
    return sorted(STATIC.rglob("*.js"))


def test_the_import_scanner_finds_every_kind_of_import_and_tells_a_cdn_from_a_local_file() -> None:
    source = """
import { a, b as c } from "./a.js";
import {
  d,
  e,
} from '../map/d.js';
import * as lib from "https://cdn.example.org/lib.js";
import "//cdn.example.org/side-effect.js";
export { f } from "./f.js";
const g = await import('/static/cards.js');
// the word from "a comment" is not an import
"""
    found = imports_of(source)
    assert sorted(found) == sorted(
        [
            "./a.js",
            "../map/d.js",
            "https://cdn.example.org/lib.js",
            "//cdn.example.org/side-effect.js",
            "./f.js",
            "/static/cards.js",
        ]
    )
    remote = [s for s in found if not is_local(s)]
    assert remote == ["https://cdn.example.org/lib.js", "//cdn.example.org/side-effect.js"]


def test_the_browser_code_is_split_into_modules() -> None:
    files = js_files()
    # The map and the orders panel have folders of their own; more than a couple of files each.
    assert len([f for f in files if f.parent.name == "map"]) >= 4
    assert len([f for f in files if f.parent.name == "orders"]) >= 4


@pytest.mark.parametrize("path", js_files(), ids=lambda p: p.relative_to(STATIC).as_posix())
def test_no_javascript_file_is_over_500_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    name = path.relative_to(STATIC)
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it by concern (at most {MAX_LINES})"


@pytest.mark.parametrize("path", js_files(), ids=lambda p: p.relative_to(STATIC).as_posix())
def test_every_module_imports_only_local_files_that_exist(path: Path) -> None:
    for specifier in imports_of(path.read_text(encoding="utf-8")):
        assert is_local(specifier), f"{path.relative_to(STATIC)} imports {specifier!r}: the UI must work offline"
        if specifier.startswith("/static/"):
            target = STATIC / specifier.removeprefix("/static/")
        else:
            target = (path.parent / specifier).resolve()
        assert target.is_file(), f"{path.relative_to(STATIC)} imports {specifier!r}, which does not exist"
        assert STATIC.resolve() in target.resolve().parents, f"{specifier!r} is outside the static folder"


@pytest.mark.parametrize("page", ["index.html", "game.html"])
def test_pages_load_only_local_scripts_and_styles(page: str) -> None:
    refs = _PAGE_REFS.findall((STATIC / page).read_text(encoding="utf-8"))
    assert refs, f"{page} loads nothing"
    # An inline `data:` URL (the empty favicon) is part of the page, not a download.
    assert [ref for ref in refs if not (is_local(ref) or ref.startswith("data:"))] == [], f"{page} loads from elsewhere"
    assert any(ref.endswith(".js") for ref in refs)


def test_every_module_the_pages_load_is_served_by_the_app(client: TestClient) -> None:
    """Walk the import graph from the pages over HTTP: a new folder must be served (and packaged)."""
    seen: set[str] = set()
    todo: list[str] = []
    for page in ("/", "/static/game.html"):
        html = client.get(page).text
        todo += [ref for ref in _PAGE_REFS.findall(html) if ref.endswith(".js")]
    assert todo, "the pages load no script"
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        answer = client.get(url)
        assert answer.status_code == 200, f"{url} is {answer.status_code}"
        assert "javascript" in answer.headers["content-type"]
        for specifier in imports_of(answer.text):
            todo.append(specifier if specifier.startswith("/") else normpath(f"{dirname(url)}/{specifier}"))
    # The map and the orders panel are reached through their folders.
    assert "/static/map/hexmap.js" in seen
    assert "/static/orders/panel.js" in seen
    assert {f"/static/{p.relative_to(STATIC).as_posix()}" for p in js_files()} >= seen
