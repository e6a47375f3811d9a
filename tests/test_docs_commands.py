"""Every command the docs quote parses: `vectorwar ...` by the CLI, `python benchmarks/X.py ...` by its script.

Commands are read from README.md and docs/**/*.md, in code blocks and in code spans (a span may wrap over
lines of a paragraph). Nothing is run: the CLI's commands are resolved and their options and arguments parsed
by click without invoking a callback, and a benchmark's argparse parser is stopped right after it parsed.
A command quoted alone (`vectorwar show`) names it: it need only resolve. Placeholders written in capitals
(SCENARIO, FILE, SIDE=greedy) stand for sample values; `[...]` marks an optional part, kept; `...` (more of
the same) is dropped.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.core
import typer.main

from vectorwar.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

#: Sample values for the capitalised placeholders the docs write; any other stands for a plain word.
SAMPLES = {
    "SCENARIO": "msc-duel",
    "SIDE": "red",
    "OTHER": "blue",
    "FILE": "game.json",
    "TARGET": "Hawk",
    "PERCENT": "50",
    "N": "10",
}
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z0-9_]+\b|\bN\b")
#: What starts a quoted command this test checks.
STARTS = ("vectorwar ", "python benchmarks/")
#: Quoted text that starts like a command and is not one: what a command prints.
NOT_COMMANDS = ("vectorwar is at ",)
#: Benchmark scripts without arguments (no argparse): they must be quoted bare.
BARE = ("attacks.py", "avt_combat.py", "avt_grid.py")


def _blocks(text: str) -> Iterator[str]:
    """Each line of a fenced code block, and each paragraph's text joined onto one line."""
    fence = False
    paragraph: list[str] = []
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            if paragraph:
                yield " ".join(paragraph)
                paragraph = []
            fence = not fence
            continue
        if fence:
            yield "\x00" + line.strip()
        elif line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            yield " ".join(paragraph)
            paragraph = []
    if paragraph:
        yield " ".join(paragraph)


def _commands(text: str) -> Iterator[str]:
    for block in _blocks(text):
        fenced = block.startswith("\x00")
        pieces = [block[1:].removeprefix("$ ")] if fenced else re.findall(r"`([^`]+)`", block)
        for piece in pieces:
            piece = re.sub(r"\s#\s.*$", "", piece)
            for part in re.split(r"\s(?:&&|\|\||;|\|)\s", piece):
                part = part.strip()
                if part.startswith(STARTS) and not part.startswith(NOT_COMMANDS):
                    yield part


def _quoted() -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        for command in _commands(path.read_text(encoding="utf-8")):
            found.append((str(path.relative_to(ROOT)), command))
    return found


def _argv(command: str) -> list[str]:
    command = PLACEHOLDER.sub(lambda m: SAMPLES.get(m.group(0), "x"), command)
    command = command.replace("[", " ").replace("]", " ")
    return [word for word in shlex.split(command) if word not in ("...", "…")]


QUOTED = _quoted()


def test_the_docs_quote_commands_of_both_kinds() -> None:
    # The extraction itself: a change that finds nothing would pass every case below vacuously.
    cli = [c for _, c in QUOTED if c.startswith("vectorwar ")]
    scripts = [c for _, c in QUOTED if c.startswith("python ")]
    assert len(cli) >= 10
    assert len(scripts) >= 10


def _parse_cli(args: list[str]) -> None:
    """Resolve ``args`` down to a leaf command and parse its options and arguments, invoking nothing.

    Typer carries its own copy of click, so its groups and errors are typer's (``typer.TyperException``)."""
    command: Any = typer.main.get_command(app)
    name: Any = "vectorwar"
    rest, ctx = list(args), None
    while True:
        if not rest and ctx is not None:
            return  # a command named alone, as prose names `vectorwar show`: that it resolves is enough
        ctx = command.make_context(name, rest, parent=ctx, resilient_parsing=False)
        if not isinstance(command, typer.core.TyperGroup):
            return
        rest = [*ctx._protected_args, *ctx.args]
        if not rest:
            return
        name, command, rest = command.resolve_command(ctx, rest)


def _message(error: typer.TyperException) -> str:
    format_message = getattr(error, "format_message", None)
    return str(format_message()) if callable(format_message) else str(error)


@pytest.mark.parametrize(
    ("doc", "command"), [q for q in QUOTED if q[1].startswith("vectorwar ")], ids=lambda v: str(v)[:60]
)
def test_a_quoted_vectorwar_command_parses(
    doc: str, command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Paths the CLI checks for existence are made in an empty working directory.
    monkeypatch.chdir(tmp_path)
    args = _argv(command)[1:]
    for word in args:
        if re.fullmatch(r"[\w./-]+\.(json|toml|parquet|vwpbem|db|txt)", word) and not word.startswith("-"):
            target = tmp_path / word
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text("{}", encoding="utf-8")
    try:
        _parse_cli(args)
    except typer.TyperException as error:
        pytest.fail(f"{doc}: `{command}` does not parse: {_message(error)}")


class _Parsed(Exception):
    """Raised right after a benchmark's parser accepted its arguments, so nothing runs."""


def _load(script: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    spec = importlib.util.spec_from_file_location(f"_bench_{script.stem}", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("doc", "command"), [q for q in QUOTED if q[1].startswith("python ")], ids=lambda v: str(v)[:60]
)
def test_a_quoted_benchmark_command_parses(doc: str, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = _argv(command)[1:]
    script = ROOT / argv[0]
    assert script.is_file(), f"{doc}: `{command}` names no script {argv[0]}"
    if script.name in BARE:
        assert argv[1:] == [], f"{doc}: {script.name} takes no arguments"
        return
    parse = argparse.ArgumentParser.parse_args

    def parse_then_stop(self: argparse.ArgumentParser, args: Any = None, namespace: Any = None) -> Any:
        parse(self, args, namespace)
        raise _Parsed

    def refuse(self: argparse.ArgumentParser, message: str) -> Any:
        pytest.fail(f"{doc}: `{command}` does not parse: {message}")

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    monkeypatch.setattr(argparse.ArgumentParser, "error", refuse)
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.syspath_prepend(str(script.parent))  # the scripts import each other by name
    module = _load(script, monkeypatch)
    with pytest.raises(_Parsed):
        module.main()
