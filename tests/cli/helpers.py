"""Shared helpers for the command-line tests."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from vectorwar.cli import app
from vectorwar.game import Game
from vectorwar.savefile import load_game

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def plain(text: str) -> str:
    """Output without terminal escapes, in case the environment forces colour."""
    return _ANSI.sub("", text)


def runner() -> CliRunner:
    return CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "200"})


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner().invoke(app, list(args), input=input)
    return result.exit_code, plain(result.stdout), plain(result.stderr)


def game_in(path: Path) -> Game:
    game, _ = load_game(path)
    return game


def locate(rendered: str, mark: str) -> tuple[int, int]:
    """The ``col,row`` a reader finds ``mark`` at: the column number above it, the row number beside it."""
    lines = rendered.splitlines()
    header = lines[0]
    for line in lines[1:]:
        x = line.find(mark)
        if x >= 0:
            return int(header[x : x + 3]), int(line.split()[0])
    raise AssertionError(f"{mark!r} is not on the map:\n{rendered}")
