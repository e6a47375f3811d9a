"""``vectorwar design``: players' own designs checked against a system's design rules."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from vectorwar.cli import app

runner = CliRunner()

WASP = """
[wasp]
name = "Wasp"
mass = 8
acceleration = 3
agility = 2
guns = [{ arc = "forward", guns = 2 }]
missiles = 2
"""


def test_a_legal_vv5_design_prints_its_sheet_and_card(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(WASP)
    result = runner.invoke(app, ["design", "vv5", str(path)])
    assert result.exit_code == 0, result.output
    assert "acceleration 3G" in result.output
    assert "4 t" in result.output  # 45% of 8 t, rounded up
    assert "SPARE" in result.output
    assert "O O O O O O O O" in result.output  # eight structure boxes


def test_an_overweight_design_is_refused_with_the_sheet(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(WASP.replace("acceleration = 3", "acceleration = 5"))
    before = path.read_bytes()
    result = runner.invoke(app, ["design", "vv5", str(path)])
    assert result.exit_code == 1
    assert "Wasp needs 9.2 t but has a mass of 8 t (1.2 t over)" in result.output
    assert "acceleration 5G 6 t" in result.output
    assert path.read_bytes() == before


def test_msc_designs_show_their_build_points(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('[brick]\nname = "Brick"\nengine = 1\nshields = 5\nto_hit = 2\nweapons = ["F", "RL"]\n')
    result = runner.invoke(app, ["design", "msc", str(path)])
    assert result.exit_code == 0, result.output
    assert "12 (ENGINE 1 + SHIELDS 5 + TO-HIT 2 + 2 weapons x 2)" in result.output
    path.write_text('[bad]\nname = "Bad"\nengine = 1\nshields = 5\nto_hit = 2\nweapons = ["R"]\n')
    result = runner.invoke(app, ["design", "msc", str(path)])
    assert result.exit_code == 1
    assert "no weapon may be mounted in the Rear" in result.output


def test_a_system_without_a_designer_says_so(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(WASP)
    result = runner.invoke(app, ["design", "avt", str(path)])
    assert result.exit_code == 1
    assert "has no ship designer" in result.output
