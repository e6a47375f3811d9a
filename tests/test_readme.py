"""README's two commands stay true: CI runs exactly the test command, and the play command's subcommand exists."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from vectorwar.cli import app

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    section = ROOT.joinpath("README.md").read_text().split("## The two commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_readme_gives_exactly_two_commands() -> None:
    assert len(readme_commands()) == 2


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = [
        line
        for line in ROOT.joinpath(".ci/run").read_text().splitlines()
        if line and not line.startswith(("#", "set ", "cd "))
    ]
    assert ci == [readme_commands()[1]]


def test_the_play_command_starts_the_server() -> None:
    play = readme_commands()[0]
    assert play.endswith(".venv/bin/vectorwar serve")
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--db" in result.output
