"""What a plot would do, for front ends that draw a ghost before the player commits.

For each starship the side must plot now, every legal plot that ends in a
distinct place or heading, with the straight line the ship flies to its new
vector marker. The preview leaves out what only resolution knows (collisions
with ships whose plots are secret, the pull of dense bodies along the way):
it shows the plot, not the dice.

>>> from vectorwar.catalogue import builtin_scenario
>>> from vectorwar.game import Game
>>> from vectorwar.registry import get_system
>>> game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), seed=1)
>>> side = game.prompt.sides[0]
>>> options = move_options(game.state, side)
>>> all(str(o.text).split()[0] == ship for ship, opts in options.items() for o in opts)
True
"""

from __future__ import annotations

from vectorwar.display import MoveOption
from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Direction, Position
from vectorwar.systems.vv5 import shock
from vectorwar.systems.vv5.honour import honour_problem, search_plots
from vectorwar.systems.vv5.movement import check_manoeuvre, plan, turn_allowance
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.state import Ship, VV5State


def ships_to_plot(state: VV5State, side: str) -> list[Ship]:
    """The side's starships that take a plot at the current prompt."""
    if state.phase == "plot" and side in state.sides_in_play():
        return [s for s in state.ships_of(side) if s.active]
    if state.phase == "ace-replot":
        return [s for s in state.ships_of(side) if s.id in state.ace_replot]
    return []


def legal_plots(state: VV5State, ship: Ship) -> list[Manoeuvre]:
    """One plot per distinct (end hex, heading), each passing every plotting rule."""
    must = shock.forced(state, ship)
    if must is not None:
        return [must]
    rotations, thrust = turn_allowance(ship)
    # The search is fewest steps first, so the plot kept for each outcome is the simplest.
    candidates: dict[tuple[Direction, int, int], Manoeuvre] = {(ship.facing, 0, 0): Manoeuvre(())}
    for facing, dq, dr, move in search_plots(ship.facing, rotations, thrust):
        candidates.setdefault((facing, dq, dr), move)
    plots = []
    for move in candidates.values():
        try:
            check_manoeuvre(ship, move)
        except IllegalOrderError:
            continue
        if honour_problem(state, ship, move) is None:
            plots.append(move)
    return plots


def option(ship: Ship, move: Manoeuvre) -> MoveOption:
    facing, velocity = plan(ship.facing, ship.velocity, move)
    path = ship.hex.line_to(ship.hex.shifted(velocity.dq, velocity.dr))
    return MoveOption(f"{ship.id} {move}", tuple(Position(h) for h in path), facing)


def move_options(state: VV5State, side: str) -> dict[str, list[MoveOption]]:
    return {ship.id: [option(ship, m) for m in legal_plots(state, ship)] for ship in ships_to_plot(state, side)}
