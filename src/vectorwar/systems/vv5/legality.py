"""Whether a VV5 order may be given: launches, gunfire and plots, each refusal naming its rule.

The order kinds (:mod:`vectorwar.systems.vv5.kinds`) call these after checking the order's type.
An order object, not only its text (which the parser reads against the side's own ships), is
checked, so a bot or a saved game cannot slip in another side's ship. The checks of launches and
gunfire read the board through a :class:`Board`, so VV5's combat played under another system's
movement (:mod:`vectorwar.systems.vv5.module`) refuses a declaration with these same checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vectorwar.errors import IllegalOrderError
from vectorwar.roster import NamedShip
from vectorwar.systems.vv5 import crews, shock
from vectorwar.systems.vv5.combat import RULE_GUNS, RULE_MISSILES, RULE_RAPID
from vectorwar.systems.vv5.honour import RULE_HONOUR, honour_binds, honour_problem, retreat_problem
from vectorwar.systems.vv5.movement import check_manoeuvre
from vectorwar.systems.vv5.orders import Gunfire, Launch, Launches, Plot, Shot
from vectorwar.systems.vv5.state import Mount, Ship, VV5State
from vectorwar.systems.vv5.targeting import gun_problem, launch_problem

RULE_ORDER = "VV5 Initiative (the initiative player chooses who declares first)"
RULE_PLOT = "VV5 Plotting Movement"


def named(state: VV5State, label: str, ship_id: str, rule: str) -> Ship:
    """The ship an order names, or an illegal order if the game has none of that name."""
    try:
        return state.ship(ship_id)
    except KeyError:
        raise IllegalOrderError(label, f"there is no ship called {ship_id!r}", rule) from None


def own(state: VV5State, side: str, label: str, ship_id: str, rule: str) -> Ship:
    """``side``'s ship ``ship_id``: an order object (not only its text, which the parser checks) may name
    no other side's ship and none that is not in the game."""
    ship = named(state, label, ship_id, rule)
    if ship.side != side:
        raise IllegalOrderError(label, f"{ship_id} is not a ship of {side}'s", rule)
    return ship


@dataclass(frozen=True, slots=True)
class Board:
    """How the checks of a declaration find things on the board it is made on: VV5's own state
    (:func:`board`), or a combat module's view of another system's (VMS with VV5 combat).

    ``ship(id)`` is any ship (``KeyError`` if none); ``allied(a, b)`` whether two sides fight together;
    ``mounts(id)`` a ship's gun mounts; ``ready(id)`` its missiles left; ``launch_problem(ship, target)``
    and ``gun_problem(ship, arc, target)`` why the board refuses a launch or a shot (range, arc, line of
    fire, what is in the way), or ``None``.
    """

    ship: Callable[[str], NamedShip]
    allied: Callable[[str, str], bool]
    mounts: Callable[[str], Sequence[Mount]]
    ready: Callable[[str], int]
    launch_problem: Callable[[str, str], str | None]
    gun_problem: Callable[[str, str, str], str | None]


def board(state: VV5State) -> Board:
    """VV5's own state as a :class:`Board`, kept with the state's answers: everything it reads (the ships, the
    allies, the map) stays in a copy that hands them on, and every declaration checked asks for it."""
    asked = state.kept_answers()
    found: Board | None = asked.get(("board", "", True))
    if found is None:
        found = asked["board", "", True] = Board(
            state.ship,
            state.allied,
            lambda ship_id: state.ship(ship_id).mounts,
            lambda ship_id: state.ship(ship_id).missiles_ready,
            lambda ship_id, aimed: launch_problem(state, state.ship(ship_id), state.ship(aimed)),
            lambda ship_id, arc, aimed: gun_problem(state, state.ship(ship_id), arc, state.ship(aimed)),
        )
    return found


def _label(piece: Launch | Shot) -> str:
    """A launch or shot in words, as a refusal names it (worded only to refuse)."""
    if isinstance(piece, Launch):
        return f"{piece.ship} {piece.missiles}>{piece.target}"
    return f"{piece.ship} {piece.mount}*{piece.guns}>{piece.target}"


def _named(on: Board, piece: Launch | Shot, ship_id: str, rule: str) -> NamedShip:
    try:
        return on.ship(ship_id)
    except KeyError:
        raise IllegalOrderError(_label(piece), f"there is no ship called {ship_id!r}", rule) from None


def _firer(on: Board, side: str, piece: Launch | Shot, rule: str) -> NamedShip:
    """``side``'s own ship in play that an order has fire (an order object may name any ship)."""
    ship = _named(on, piece, piece.ship, rule)
    if ship.side != side:
        raise IllegalOrderError(_label(piece), f"{piece.ship} is not a ship of {side}'s", rule)
    if not ship.active:
        raise IllegalOrderError(_label(piece), f"{piece.ship} is {ship.status}", rule)
    return ship


def _aimed(on: Board, side: str, piece: Launch | Shot, rule: str) -> NamedShip:
    aimed = _named(on, piece, piece.target, rule)
    if on.allied(aimed.side, side):
        raise IllegalOrderError(_label(piece), f"{aimed.id} is on your own side", rule)
    if not aimed.active:
        raise IllegalOrderError(_label(piece), f"{aimed.id} is {aimed.status}", rule)
    return aimed


def check_launches_on(on: Board, side: str, order: Launches) -> None:
    """Refuse ``order`` unless every launch in it is legal for ``side`` on ``on`` (VV5 Launch Missiles)."""
    used: dict[str, int] = {}
    for launch in order.launches:
        ship = _firer(on, side, launch, RULE_MISSILES)
        aimed = _aimed(on, side, launch, RULE_MISSILES)
        if launch.missiles < 1:
            raise IllegalOrderError(_label(launch), "launch at least one missile", RULE_MISSILES)
        used[ship.id] = used.get(ship.id, 0) + launch.missiles
        ready = on.ready(ship.id)
        if used[ship.id] > ready:
            raise IllegalOrderError(_label(launch), f"{ship.id} has {ready} missile(s) left to launch", RULE_MISSILES)
        why = on.launch_problem(ship.id, aimed.id)
        if why:
            raise IllegalOrderError(_label(launch), why, RULE_MISSILES)


def check_gunfire_on(on: Board, side: str, order: Gunfire) -> None:
    """Refuse ``order`` unless every shot in it is legal for ``side`` on ``on`` (VV5 Gunfire, rapid fire)."""
    used: dict[tuple[str, str], int] = {}
    cleared: set[tuple[str, str, str]] = set()  # rapid fire's second shot at a target asks the board nothing new
    for shot in order.shots:
        ship = _firer(on, side, shot, RULE_GUNS)
        mount = next((m for m in on.mounts(ship.id) if m.arc == shot.mount), None)
        if mount is None:
            raise IllegalOrderError(_label(shot), f"{ship.id} has no {shot.mount} guns", RULE_GUNS)
        if shot.guns < 1 or shot.guns > mount.guns.boxes:
            raise IllegalOrderError(
                _label(shot), f"the {shot.mount} mount has {mount.guns.boxes} working gun(s)", RULE_GUNS
            )
        key = (ship.id, shot.mount)
        used[key] = used.get(key, 0) + shot.guns
        if used[key] > 2 * mount.guns.boxes:
            raise IllegalOrderError(_label(shot), "each gun fires at most twice a turn (rapid fire)", RULE_RAPID)
        aimed = _aimed(on, side, shot, RULE_GUNS)
        aim = (ship.id, shot.mount, aimed.id)
        if aim in cleared:
            continue
        why = on.gun_problem(*aim)
        if why:
            raise IllegalOrderError(_label(shot), why, RULE_GUNS)
        cleared.add(aim)


def check_launches(state: VV5State, side: str, order: Launches) -> None:
    check_launches_on(board(state), side, order)


def check_gunfire(state: VV5State, side: str, order: Gunfire) -> None:
    check_gunfire_on(board(state), side, order)


def check_plot(state: VV5State, side: str, plot: Plot, replot: bool) -> None:
    """A plot of every ship the side must plot (``replot``: only its aces with an Ace Moment)."""
    names = _check_ships(state, side, plot)
    due = [s for s in state.ships_of(side) if not replot or s.id in state.ace_replot]
    # Shock and honour each ask only while their option binds (every plot of a game is checked): asked once here.
    panics, honour = shock.enabled(state), honour_binds(state)
    # A panicked ship may be left out: the engine flies its panic move (optional rule Shock).
    missing = [s.id for s in due if s.id not in names and (not panics or shock.forced(state, s) is None)]
    if missing:
        raise IllegalOrderError(str(plot), f"no plot for {', '.join(missing)}: plot every starship", RULE_PLOT)
    for ship_id, move in plot.moves:
        if replot and ship_id not in state.ace_replot:
            raise IllegalOrderError(str(plot), f"{ship_id} has no Ace Moment to re-plot", crews.RULE_ACE)
        ship = state.ship(ship_id)
        check_manoeuvre(ship, move)
        if panics:
            panic = shock.plot_problem(state, ship, move)
            if panic:
                raise IllegalOrderError(f"{ship_id} {move}", panic, shock.RULE_PANIC)
            if shock.forced(state, ship) is not None:
                continue  # panic overrides the honour rule
        dishonour = honour_problem(state, ship, move) if honour else None
        if dishonour:
            raise IllegalOrderError(f"{ship_id} {move}", dishonour, RULE_HONOUR)


def _side_of(state: VV5State, ship_id: str) -> str | None:
    """The side of ship ``ship_id``, ``None`` if the game has no such ship."""
    try:
        return state.ship(ship_id).side
    except KeyError:
        return None


def _check_ships(state: VV5State, side: str, plot: Plot) -> list[str]:
    """The ships a plot names, each the side's own, once, and free to escape or retreat where it says so."""
    names = [s for s, _ in plot.moves] + list(plot.escapes)
    for ship_id in (*names, *plot.retreats):  # (a ship named again is refused, if at all, at its first naming)
        if _side_of(state, ship_id) != side:
            own(state, side, str(plot), ship_id, RULE_PLOT)  # refuses it, naming why (the plot in words)
    if len(set(names)) < len(names):
        twice = next(ship_id for ship_id in names if names.count(ship_id) > 1)
        raise IllegalOrderError(str(plot), f"{twice} is plotted twice", RULE_PLOT)
    for ship_id in plot.escapes:
        problem = crews.escape_problem(state, state.ship(ship_id))
        if problem:
            raise IllegalOrderError(f"{ship_id} escape", problem, crews.RULE_CREWS)
    for ship_id in plot.retreats:
        problem = retreat_problem(state, state.ship(ship_id))
        if problem:
            raise IllegalOrderError(f"{ship_id} retreat", problem, RULE_HONOUR)
    return names
