"""The hooks a VV5 scenario's special rules may fill in (each defaults to nothing)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from vectorwar.dice import Dice
from vectorwar.events import Event
from vectorwar.hexes import Hex, nearest_hex
from vectorwar.systems.vv5.movement import turn_allowance
from vectorwar.systems.vv5.state import Ship, VV5State
from vectorwar.vectors import braking_run


@dataclass(frozen=True, slots=True)
class Stake:
    """What a scenario's objective still holds, for the search bot's judge of the chance to win (not a rule).

    ``side`` makes the run and ``rival`` stops it; ``to_come`` is the victory points the objective is expected
    to earn ``side`` beyond what :meth:`Special.progress` counts already, and ``spread`` the variance (VP
    squared) of what it earns: the dice of the bombs and the troopers. Read by
    :func:`~vectorwar.systems.vv5.prospects.wary`.
    """

    side: str
    rival: str
    to_come: float
    spread: float


class Special:
    kind: ClassVar[str] = ""

    def set_up(self, state: VV5State, table: dict[str, Any], source: str) -> VV5State:
        """Validate the ``[special]`` table and record the scenario's objects (no dice yet)."""
        return state

    def begin(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        """Rolls made once before turn 1 (what lies near the pod, purchase points...)."""
        return state

    def before_movement(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        """Once plots are in, before ships move: scenario objects that move with them (Invasion's bodies)."""
        return state

    def after_movement(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        """After ships move and before missiles strike (terrain effects, carried objects)."""
        return state

    def asteroid_field_bonus(self, state: VV5State, ship: Ship) -> int:
        """Added to a ship's asteroid-field roll (the pirate knows its home field)."""
        return 0

    def boarding(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        """The Boarding Actions phase."""
        return state

    #: Does the game end when only one side has starships left? Not if an
    #: objective remains to be taken (the stasis pod).
    ends_on_elimination: ClassVar[bool] = True

    def game_over(self, state: VV5State) -> str | None:
        """A reason if the scenario's own end condition is met."""
        return None

    def decide(self, state: VV5State, points: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
        """Winners and a verdict when the scenario decides by its own objective, else ``None`` (VPs decide)."""
        return None

    def score(self, state: VV5State, points: dict[str, int]) -> dict[str, int]:
        """The scenario's own victory points added to the plain tally (bombs, troopers, refugees)."""
        return points

    def damage_stake(self, state: VV5State, ship: Ship) -> tuple[float, float]:
        """Victory points the scenario adds for the side that damages ``ship``: for each point, on average,
        and for the ship's loss (cargo boxes, in Assault Force and Refugees). Not a rule: the search bot's
        judge of the fire to come (:mod:`~vectorwar.systems.vv5.prospects`)."""
        return 0.0, 0.0

    def at_stake(self, state: VV5State) -> Stake | None:
        """What a scenario decided on few points still holds (:class:`Stake`), if it is judged by the chance
        to win rather than the points (the cargo runs). Not a rule: the search bot's judge
        (:func:`~vectorwar.systems.vv5.prospects.wary`; docs/bots.md, "Wary of the dice")."""
        return None

    def runner(self, state: VV5State) -> str | None:
        """The side making a run for somewhere (an edge, a field) whose next plot the search bot's trials search.

        Not a rule: the search bot searches the runner's next plot in its trials too (``RuleSystem.plan_ahead``;
        docs/bots.md, "Two plots a trial"). A run where that was measured to weaken the runner (Strike Force)
        names none.
        """
        return None

    def progress(self, state: VV5State) -> dict[str, float]:
        """Victory points the objective is on course to earn each side, by where things stand now.

        Not a score: a search bot's yardstick (``RuleSystem.standing``) for a game stopped before its
        objective pays out, so flying cargo toward its edge counts before it leaves the board.
        """
        return {}


# -- the search bot's yardsticks for objectives (``Special.progress``) ---------------------------------------------


def whole_game(state: VV5State) -> float:
    """What an objective that decides the game is worth against victory points: 3 VP a point of every ship's mass.

    That is a starship's kill points for every ship in the game (a transport's are 2 a point, so this is a little
    over the true total). Where only the objective wins (the pod, the Ghost Ship's log), a trial's damage counts
    for little beside it.
    """
    return 3.0 * sum(s.mass for s in state.ships if s.side in state.sides)


def homeward(stake: float, start: Hex, at: Hex, corner: Hex) -> float:
    """A prize held and on its way home: a quarter of ``stake``, and up to half more for the way come from
    ``start`` toward ``corner`` (a prize taken off the board there ends the game, which a trial sees itself).

    >>> homeward(100.0, Hex(0, 10), Hex(0, 10), Hex(0, 0)), homeward(100.0, Hex(0, 10), Hex(0, 5), Hex(0, 0))
    (25.0, 50.0)
    """
    share = min(1.0, max(0.0, 1 - at.distance(corner) / max(1, start.distance(corner))))
    return stake * (0.25 + 0.5 * share)


def resting_place(state: VV5State, ship: Ship) -> Hex | None:
    """Where ``ship`` would come to rest braking as hard as it can from its next plot on; ``None`` if that is
    off the board (or it has no thrust to brake with and is moving), so it will leave the board.

    Braking sheds its G of thrust a turn along the way it drifts (turning to face the brake is taken as free:
    three rotations in a plot turn a ship about), so it coasts ``speed - G``, then ``speed - 2G``... hexes on
    its line before it stops. Not a rule: the search bot's yardstick.
    """
    speed = ship.velocity.speed
    if speed == 0:
        return ship.hex
    _, thrust = turn_allowance(ship)
    if thrust <= 0:
        return None
    run = braking_run(speed, thrust)
    # The hex nearest the point ``run`` hexes along the drift: rounding each axial coordinate on its own can land
    # a hex off that line (hexes.nearest_hex rounds in cube coordinates).
    share = run / speed
    stop = nearest_hex(ship.hex.q + ship.velocity.dq * share, ship.hex.r + ship.velocity.dr * share)
    return stop if state.map.contains(stop) else None
