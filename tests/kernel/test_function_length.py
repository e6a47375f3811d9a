"""No function over 80 lines in the kernel or the web server: each is something a person reads at once."""

from __future__ import annotations

import ast
from pathlib import Path

import vectorwar

LIMIT = 80
PACKAGE = Path(vectorwar.__file__).parent
#: The kernel's modules sit at the package's top; the web server is ``web/`` (its browser code is JavaScript).
CHECKED = (PACKAGE, PACKAGE / "web")


def long_functions(source: str, name: str, limit: int = LIMIT) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - first + 1
            if length > limit:
                found.append(f"{name}:{node.lineno} {node.name} is {length} lines")
    return found


def test_no_function_in_the_kernel_or_the_web_server_is_over_80_lines() -> None:
    files = sorted(p for folder in CHECKED for p in folder.glob("*.py"))
    assert PACKAGE / "game.py" in files
    assert PACKAGE / "web" / "service.py" in files
    too_long = [f for p in files for f in long_functions(p.read_text(encoding="utf-8"), str(p.relative_to(PACKAGE)))]
    assert too_long == []


def test_the_length_check_sees_a_long_function_and_its_decorators() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT - 2))
    exactly = f"@decorated\ndef f() -> None:\n{body}\n"
    assert long_functions(exactly, "f.py") == []
    assert long_functions(exactly + "    return None\n", "f.py") == ["f.py:2 f is 81 lines"]
