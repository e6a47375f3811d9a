"""The vectorwar package's import graph and rule-code checks, read from the source (AST), never by importing it.

Every ``import`` statement counts wherever it stands: at the top, inside a
function (the way import circles were hidden), or under ``TYPE_CHECKING``
(a type-only import is still a dependency between the two modules).
``from package import name`` counts as importing the submodule
``package.name`` when there is one, else ``package``. A package's
``__init__`` is not counted as imported just because one of its submodules
is: that is how Python loads packages, not a dependency a person wrote.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = "vectorwar"


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int


def module_files(src: Path = SRC, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    out: dict[str, Path] = {}
    for path in sorted((src / package).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imported(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: Iterable[str]) -> list[str]:
    known = set(known)
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".")
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join([*base, *([node.module] if node.module else [])])
    else:
        prefix = node.module or ""
    return [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in known else prefix for a in node.names]


def imports_of(module: str, path: Path, known: Iterable[str]) -> list[Import]:
    """The package's own modules that ``module`` imports, with the line of each import."""
    known = set(known)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target in _imported(module, path.name == "__init__.py", node, known):
                # ``import vectorwar.x.y`` binds the top package but depends on ``vectorwar.x.y``.
                while target not in known and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in known and target != module:
                    out.append(Import(module, target, node.lineno))
    return out


@cache
def import_graph() -> Mapping[str, tuple[Import, ...]]:
    """Module -> its imports of other package modules."""
    files = module_files()
    return {m: tuple(imports_of(m, p, files)) for m, p in files.items()}


def private_imports(path: Path) -> list[str]:
    """``from vectorwar... import _name`` in ``path``: a module's underscored names are its own."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"line {node.lineno} imports {alias.name} from {'.' * node.level}{node.module or ''}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("vectorwar"))
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def find_cycle(graph: Mapping[str, Iterable[str]]) -> list[str] | None:
    """One import circle as ``[a, b, ..., a]``, or None if the graph is acyclic."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def describe_cycle(cycle: list[str], graph: Mapping[str, tuple[Import, ...]]) -> str:
    lines = []
    for a, b in pairwise(cycle):
        line = next(i.line for i in graph[a] if i.target == b)
        lines.append(f"  {a} (line {line}) imports {b}")
    return "\n".join(lines)


def in_layer(module: str, prefixes: Iterable[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


# -- rule code: no I/O, no clock, no global random source ----------------------

#: Modules whose import alone means I/O, a clock or an outside source of chance.
FORBIDDEN_MODULES = frozenset(
    {
        "asyncio",
        "datetime",
        "glob",
        "http",
        "importlib.resources",
        "io",
        "logging",
        "os",
        "pathlib",
        "requests",
        "secrets",
        "shutil",
        "socket",
        "subprocess",
        "sys",
        "tempfile",
        "threading",
        "time",
        "urllib",
        "uuid",
    }
)
#: Built-ins that talk to the outside world, or (hash) differ between processes for strings.
FORBIDDEN_CALLS = frozenset({"open", "print", "input", "breakpoint", "exec", "eval", "hash"})
#: Method names that read or write files whatever the object (``Path.read_text`` ...).
FORBIDDEN_METHODS = frozenset(
    {"read_text", "write_text", "read_bytes", "write_bytes", "unlink", "mkdir", "touch", "iterdir", "rglob"}
)


@dataclass(frozen=True)
class Impurity:
    module: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.module} line {self.line}: {self.what}"


def _forbidden_module(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in FORBIDDEN_MODULES)


def impurities(module: str, path: Path) -> Iterator[Impurity]:
    """I/O, clock and global-random uses in one module's source.

    ``random.Random`` (a seeded source a caller hands in) is allowed; any other
    attribute of the ``random`` module is its hidden global generator.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Import):
            bad = [a.name for a in node.names if _forbidden_module(a.name)]
            what = f"import {', '.join(bad)}" if bad else None
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if _forbidden_module(node.module):
                what = f"from {node.module} import ..."
            elif node.module == "random" and any(a.name != "Random" for a in node.names):
                what = "from random import (the global generator)"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            what = f"{node.func.id}(...)"
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FORBIDDEN_METHODS
        ):
            what = f".{node.func.attr}(...)"
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            what = f"random.{node.attr} (the global generator)"
        if what:
            yield Impurity(module, getattr(node, "lineno", 0), what)
