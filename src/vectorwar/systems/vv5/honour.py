"""The Dogfight's honour rule, as the option ``honour_rule`` (docs/rulings/vv5.md, *VV5 honour rule*).

VV5 scenario 1 asks players, as a point of honour, not to run off the board
before a starship of either side has been destroyed or a whole plot sheet
(15 turns) has been filled. With the option on, a plot whose vector marker
lies off the board is refused while that holds, unless every legal plot of
that ship ends off the board (a fast ship near an edge with nowhere else to
go).

A ship's plotted end is ``hex + velocity`` after the plot's thrust; the
honour rule looks at that hex only (a collision may still knock a ship off
the board, which is no breach of honour).

>>> from vectorwar.hexes import Direction
>>> sorted(str(m) for m in reachable(Direction.A, 1, 1).values())
['0', '1', 'L1', 'R1']
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

from vectorwar.hexes import Direction, Hex
from vectorwar.systems.vv5.movement import board_shift, plan, turn_allowance
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.state import Ship, VV5State
from vectorwar.vectors import Velocity

OPTION = "honour_rule"
RULE_HONOUR = "VV5 Scenario 1 (honour: no retreat yet)"
PLOT_SHEET_TURNS = 15  # one status card's plot section
OUT_BY_FIRE = ("destroyed", "knocked-out", "crashed")


def honour_binds(state: VV5State) -> bool:
    """Does honour refuse plots that end off the board?

    Only while the honour period lasts, and not when the Dogfight's board
    shift brings such ships back (then only a plot marked ``retreat`` leaves,
    see :func:`retreat_problem`).
    """
    return not board_shift(state) and honour_period(state)


def retreat_problem(state: VV5State, ship: Ship) -> str | None:
    """Why ``ship`` may not be plotted to retreat now (``None``: it may)."""
    if not honour_period(state):
        return None
    return (
        f"{ship.id} may not retreat: honour forbids retreat until a starship has been destroyed "
        f"or turn {PLOT_SHEET_TURNS} is over"
    )


def honour_period(state: VV5State) -> bool:
    """Is the option on, no starship destroyed yet, and the first plot sheet still being filled?"""
    if not state.options.get(OPTION, False):
        return False
    if state.turn > PLOT_SHEET_TURNS:
        return False
    # Only the players' starships count: not defence platforms or derelicts the engine plays.
    return not any(s.status in OUT_BY_FIRE and s.side in state.sides for s in state.ships)


def plotted_end(ship: Ship, move: Manoeuvre) -> Hex:
    """Where the ship's plot puts its vector marker, so where it ends its move."""
    _, velocity = plan(ship.facing, ship.velocity, move)
    return ship.hex.shifted(velocity.dq, velocity.dr)


def search_plots(facing: Direction, rotations: int, thrust: int) -> Iterator[tuple[Direction, int, int, Manoeuvre]]:
    """Every distinct (heading, velocity change) within the allowance, fewest steps first.

    Plots are searched one step (a rotation or 1G) at a time, so split thrust
    such as ``1L1`` is covered; each result comes with the first plot found
    making it. The empty plot is not yielded.
    """
    # The search is pure geometry and every viewer's scene asks for it: do it once per allowance.
    return iter(_plot_table(facing, rotations, thrust))


@cache
def _plot_table(facing: Direction, rotations: int, thrust: int) -> tuple[tuple[Direction, int, int, Manoeuvre], ...]:
    return tuple(_search(facing, rotations, thrust))


def _search(facing: Direction, rotations: int, thrust: int) -> Iterator[tuple[Direction, int, int, Manoeuvre]]:
    # Breadth first, so each outcome is first reached by its shortest plot. A state
    # (heading, velocity change) reached with no fewer rotations and G used than a state
    # met before can lead nowhere new, so it is dropped: this keeps the search small.
    Outcome = tuple[Direction, int, int]
    spent: dict[Outcome, list[tuple[int, int]]] = {(facing, 0, 0): [(0, 0)]}
    frontier: list[tuple[Outcome, int, int, tuple[str, ...]]] = [((facing, 0, 0), 0, 0, ())]
    while frontier:
        nxt: list[tuple[Outcome, int, int, tuple[str, ...]]] = []
        for (f, dq, dr), turns, g, steps in frontier:
            moves: list[tuple[Outcome, int, int, str]] = []
            if turns < rotations:
                moves.append(((f.turned(-1), dq, dr), turns + 1, g, "L"))
                moves.append(((f.turned(1), dq, dr), turns + 1, g, "R"))
            if g < thrust:
                push = Velocity.toward(f, 1)
                moves.append(((f, dq + push.dq, dr + push.dr), turns, g + 1, "1"))
            for outcome, t, used, step in moves:
                before = spent.get(outcome)
                if before is not None and any(t0 <= t and g0 <= used for t0, g0 in before):
                    continue
                path = (*steps, step)
                nxt.append((outcome, t, used, path))
                if before is None:
                    spent[outcome] = [(t, used)]
                    yield outcome[0], outcome[1], outcome[2], Manoeuvre.parse(" ".join(path))
                else:
                    before.append((t, used))
        frontier = nxt


def reachable(facing: Direction, rotations: int, thrust: int) -> dict[tuple[int, int], Manoeuvre]:
    """Every change of velocity a plot within the allowance can make, with one plot making it.

    The plot kept for each result is the first found, which uses the fewest steps.
    """
    found: dict[tuple[int, int], Manoeuvre] = {(0, 0): Manoeuvre(())}
    for _, dq, dr, move in search_plots(facing, rotations, thrust):
        found.setdefault((dq, dr), move)
    return found


def on_board_plots(state: VV5State, ship: Ship) -> list[Manoeuvre]:
    """One legal plot for each hex on the board the ship can reach this turn."""
    rotations, thrust = turn_allowance(ship)
    marker = ship.vector_marker
    return [
        move
        for (dq, dr), move in sorted(reachable(ship.facing, rotations, thrust).items())
        if state.map.contains(marker.shifted(dq, dr))
    ]


def honour_problem(state: VV5State, ship: Ship, move: Manoeuvre) -> str | None:
    """Why ``move`` breaks the honour rule, or ``None`` if it does not."""
    if not honour_binds(state) or state.map.contains(plotted_end(ship, move)):
        return None
    if not on_board_plots(state, ship):
        return None  # every legal plot leaves the board: the ship has no honourable choice
    return (
        f"{ship.id} would leave the board, and honour forbids retreat until a starship has been "
        f"destroyed or turn {PLOT_SHEET_TURNS} is over"
    )


def honourable(state: VV5State, ship: Ship, move: Manoeuvre, rng: random.Random) -> Manoeuvre:
    """``move`` if honour allows it, else a random plot that keeps the ship on the board."""
    if honour_problem(state, ship, move) is None:
        return move
    return rng.choice(on_board_plots(state, ship))
