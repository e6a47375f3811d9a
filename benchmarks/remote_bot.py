"""A computer player as it was at a git commit, deciding in a process of its own: ``NAME@COMMIT``.

``benchmarks/sprt.py`` plays ``search@4bfac2d`` against ``search`` so that a change to any bot, in
its own module or in the kernel's search, is judged against the bot before it. The commit is checked
out with ``git worktree add`` (once a process); a child process runs this file with ``PYTHONPATH`` at
that tree's ``src``, so the old bot decides with its own code throughout (its rules, its trials, its
tables), and today's referee only reads the order it gives.

Each decision goes to the child as one line of JSON: the view the bot is handed
(``state_to_data``, lossless), its side, and the state of the random source the game hands it
(``random.Random.getstate``), so it decides exactly as it would in this process. The child
answers with the order in words, which today's rules parse; a child that fails says why and the
error is raised here. Only what this file itself reads of the old tree must exist there:
``vectorwar.registry.get_system`` (and ``vectorwar.players.computer_players`` for a search level).
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
#: The variable naming systems beyond the built-in ones (``vectorwar.registry.EXTRA``).
EXTRA_SYSTEMS = "VECTORWAR_EXTRA_SYSTEMS"

#: Checked-out trees by commit, and the children deciding for them by (tree, system), for this process.
_TREES: dict[str, Path] = {}
_CHILDREN: dict[tuple[Path, str], subprocess.Popen[str]] = {}
#: Each proxy's number, so the child keeps one bot for each player of each game, as this process would.
_NUMBERS = itertools.count()


def tree_at(commit: str) -> Path:
    """The source tree of ``commit``, checked out once for this process and removed when it exits."""
    if commit not in _TREES:
        folder = Path(tempfile.mkdtemp(prefix="vectorwar-bot-")) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(folder), commit],
            check=True,
        )
        atexit.register(remove_tree, folder)
        _TREES[commit] = folder
    return _TREES[commit]


def remove_tree(folder: Path) -> None:
    """A tree :func:`tree_at` checked out, taken away: the git worktree and the temporary folder made for it (left
    behind, an empty folder a run would gather in the temporary directory). Safe to ask twice."""
    if folder.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=False)
    shutil.rmtree(folder.parent, ignore_errors=True)


def _child(tree: Path, system: str) -> subprocess.Popen[str]:
    key = (tree, system)
    child = _CHILDREN.get(key)
    if child is None or child.poll() is not None:
        # The old tree alone on the path; systems this process adds from elsewhere (a test's) stay here.
        environment = {**os.environ, "PYTHONPATH": str(tree / "src")}
        environment.pop(EXTRA_SYSTEMS, None)
        child = subprocess.Popen(
            [sys.executable, __file__, system],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=environment,
        )
        _CHILDREN[key] = child
    return child


class RemoteBot:
    """The bot ``name`` of ``commit``'s tree, for today's ``system``: a proxy that asks a child process."""

    def __init__(self, system: Any, name: str, commit: str) -> None:
        self.system, self.name = system, name
        self.tree = tree_at(commit)
        self.number = next(_NUMBERS)

    def choose(self, state: Any, side: str, rng: random.Random) -> Any:
        child = _child(self.tree, self.system.manifest.name)
        question = {
            "bot": self.name,
            "player": self.number,
            "state": self.system.state_to_data(state),
            "side": side,
            "rng": rng.getstate(),
        }
        stdin, stdout = _pipes(child)
        stdin.write(json.dumps(question) + "\n")
        stdin.flush()
        answer = json.loads(stdout.readline() or '{"error": "the child process ended"}')
        if "error" in answer:
            raise RuntimeError(f"{self.name} at {self.tree}: {answer['error']}")
        return self.system.parse_order(state, side, answer["order"])


def _pipes(child: subprocess.Popen[str]) -> tuple[IO[str], IO[str]]:
    if child.stdin is None or child.stdout is None:
        raise RuntimeError("the child process has no pipes")
    return child.stdin, child.stdout


def _rng(saved: list[Any]) -> random.Random:
    """A random source in the state ``getstate`` gave, read back from JSON (its tuples became lists)."""
    version, internal, gauss = saved
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def serve(system_name: str) -> None:
    """The child's loop: a decision a line in, an order a line out, with the bots of the tree on the path."""
    from vectorwar.registry import get_system

    system = get_system(system_name)
    try:
        from vectorwar.players import computer_players
    except ImportError:  # a tree from before the search levels were offered beside the system's own bots
        menu = system.bots()
    else:
        menu = computer_players(system)
    players: dict[int, Any] = {}
    for line in sys.stdin:
        question = json.loads(line)
        try:
            player = players.get(question["player"])
            if player is None:
                player = players[question["player"]] = menu[question["bot"]]()
                if len(players) > 64:  # players of games long over
                    del players[min(players)]
            state = system.state_from_data(question["state"])
            order = player.choose(state, question["side"], _rng(question["rng"]))
            answer = {"order": str(order)}
        except Exception as err:  # the parent raises it with the bot's name
            answer = {"error": f"{type(err).__name__}: {err}"}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    serve(sys.argv[1])
