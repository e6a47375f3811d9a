"""The text AVID `vectorwar show` draws for AV:T, against the tutorial's first sample game."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from vectorwar.cli import app
from vectorwar.cli.avid import avid_text, avid_texts

from .helpers import AVT
from .test_diagrams import game_at

# Sample game one at segment 5 (A5.16-A5.166): nose triangle in A, Top up, Bottom down (circled), the
# triangle-chocolate's marker 5 circled in the lower blue F/A window, the circle's 8 in upper blue A.
SEGMENT_5 = """\
AVID of Rafik (A), turn 1 segment 5
        A     A/B  B  B/C   C  C/D  D    D/E  E  E/F   F  F/A
up      Top
green+  .          .        .       .         .        .
blue+   8     .    .  .     .  .    .    .    .  .     .  .
amber   Nose  .    .  Stbd  .  .    Aft  .    .  Port  .  .
blue-   .     .    .  .     .  .    .    .    .  .     .  (5)
green-  .          .        .       .         .        .
down    (Bottom)
vectors: 6 A, 3 B, 1 up; dots this burn: none
target Triangle: F/A- (5), arc window 11-, mounts A B
target Circle: A+ 8, arc window 12+, mounts A B C"""


def test_sample_game_one_segment_5_as_text() -> None:
    game = game_at("avt-drift", {}, 5)
    assert "\n".join(avid_text(AVT.diagrams(game.state), "Rafik")) == SEGMENT_5


def test_a_pivot_writes_the_segment_in_each_window_it_reaches() -> None:
    orders = {1: "Rafik pivot A", 3: "Rafik thrust 5", 5: "Rafik pivot B/C"}
    lines = avid_text(AVT.diagrams(game_at("avt-pivot-thrust", orders, 6).state), "Rafik")
    amber = next(line for line in lines if line.startswith("amber"))
    # A5.261: the arrow through A/B (reached in segment 5, where the nose is now), B (segment 6) and B/C
    # (segment 7); chocolates at ranges 8 and 3 share the ring.
    assert amber.split()[1:5] == ["8", "Nose,3,@5", "@6", "@7"]
    assert "dots this burn: 3 A" in lines[9]
    assert lines[-1].startswith("pivot (pivot B/C) from A/B: ")


def test_the_two_d_option_draws_only_the_amber_ring() -> None:
    from vectorwar.catalogue import builtin_scenario
    from vectorwar.game import Game

    game = Game.new(AVT, builtin_scenario("avt-drift"), seed=0, options={"three_d": False})
    rows = [line.split()[0] for line in avid_text(AVT.diagrams(game.state), "Rafik")[2:4]]
    assert rows == ["amber", "vectors:"]


def test_other_systems_have_no_text_avid() -> None:
    assert avid_texts({}) == []


def test_vectorwar_show_prints_the_avid(tmp_path: Path) -> None:
    runner = CliRunner()
    save = tmp_path / "g.json"
    assert runner.invoke(app, ["new", "avt-drift", str(save)]).exit_code == 0
    for _ in range(4):
        assert runner.invoke(app, ["orders", str(save), "blue", "hold"]).exit_code == 0
    result = runner.invoke(app, ["show", str(save)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert SEGMENT_5 in result.output
