"""Golden playthroughs: a bot game's whole event log, kept in tests/golden/ and diffed.

A change to any rule, the dice or the bots shows up as a diff of the log. If
the change is intended, rerun the test with ``VECTORWAR_UPDATE_GOLDEN=1`` and
review the diff of the file before keeping it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from vectorwar import conformance
from vectorwar.catalogue import builtin_scenario
from vectorwar.play import play_out

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"


def event_log(scenario: str, controllers: dict[str, str], seed: int) -> str:
    game = play_out(builtin_scenario(scenario), controllers, seed=seed)
    if not game.is_over:
        raise AssertionError(f"{scenario} seed {seed} did not finish")
    return conformance.event_log(game)


def check_golden(name: str, scenario: str, controllers: dict[str, str], seed: int) -> None:
    """Compare the game's log with ``tests/golden/NAME``, or rewrite it when asked to."""
    golden = GOLDEN_DIR / name
    actual = event_log(scenario, controllers, seed)
    if os.environ.get("VECTORWAR_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
    expected = golden.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), actual.splitlines(keepends=True), str(golden), "this run"
            )
        )
        raise AssertionError(f"the event log changed (VECTORWAR_UPDATE_GOLDEN=1 rewrites it):\n{diff}")


def golden_lines(name: str) -> list[str]:
    return (GOLDEN_DIR / name).read_text(encoding="utf-8").splitlines()
