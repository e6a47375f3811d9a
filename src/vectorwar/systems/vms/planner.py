"""The plots offered for a ship: a bounded, legal set for menus and bots.

Every legal VMS plot cannot be listed: thrust may be split over any
thrusters and directions in any amounts. The set offered is

* every rotation the ship may plot without exceeding its class limit (as
  damage left it: ruling *VMS rotation limits degraded by damage*)
  (fighters, which have none, up to 3 hexsides either way: a half turn);
  under the advanced rotation variant, every number of rotational points
  either way up to one start plus one stop cost;
* combined with no thrust, or thrust toward **one** direction of any whole
  number of hexes the ship can pay for;
* and, for ships with a flat turn, one hexside of flat turn either way with
  no rotation.

Burns are routed through the thrusters greedily (translational thrust first
through the side that pushes that way, rotational thrust through the flanks
first). Each candidate is checked by :func:`~.movement.move` itself, so the
set holds only legal plots. Plots mixing directions are legal when typed
(docs/rules/vms.md, *Plot menus*).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Direction, Hex, line_offsets
from vectorwar.memo import Kept
from vectorwar.roster import slot_stores
from vectorwar.systems.vms.flat_turn import flat_turn
from vectorwar.systems.vms.movement import Motion, Plot, Turning, TurnResult, move, turning
from vectorwar.systems.vms.rotation import overspeed, rotation_cost
from vectorwar.systems.vms.ships import SIDES, Design, Side
from vectorwar.systems.vms.thrust import Burn, ThrustUse, effective_rating, pushes
from vectorwar.vectors import Velocity

SMALL_CRAFT_MENU_LIMIT = 3
#: The menu's largest thrust toward one direction (hexes/turn) and advanced rotation (points): the most any
#: built-in design can use (a fighter's 8), so the menu of a scenario's own design of thrust 99 stays as
#: short as theirs. Larger plots stay legal when typed (docs/rulings/vms.md, *VMS plot menu of a large design*).
MENU_MOST_HEXES = 8
MENU_MOST_ROTATION_POINTS = 8
ROTATION_ORDER: tuple[Side, ...] = ("port", "starboard", "forward", "aft")
#: The directions in their order, as a tuple: walking the enum itself costs a generator step a member.
_DIRECTIONS = tuple(Direction)


def _rotations(design: Design, rate: int, advanced_rotation: bool = False, limit_lost: int = 0) -> list[int]:
    limit = design.limit_after(limit_lost)
    if design.small_craft:
        k = SMALL_CRAFT_MENU_LIMIT if limit is None else limit
        return list(range(-k, k + 1))
    if advanced_rotation:
        # Points, not hexsides: enough to start or stop a whole hexside/turn either way.
        most = min(design.thrust, design.pivot.start + design.pivot.stop, MENU_MOST_ROTATION_POINTS)
        return list(range(-most, most + 1))
    k = 2 if limit is None else limit
    return [new - rate for new in range(-k, k + 1)]


def _rotation_points(design: Design, motion: Motion, r: int, advanced_rotation: bool) -> int:
    if design.small_craft or advanced_rotation:
        return abs(r)
    return rotation_cost(motion.rotation, motion.rotation + r, design.pivot)


def _turned(design: Design, motion: Motion, r: int, advanced_rotation: bool) -> int:
    """Hexsides a large ship turns this turn for plotted rotation ``r``."""
    if advanced_rotation:
        return motion.spin.thrust(r, design.pivot).advance(design.pivot)[0]
    return motion.rotation + r


def _route(
    names: list[str], points: int, used: dict[str, int], ratings: Mapping[str, int], push: Direction | None = None
) -> list[Burn]:
    """Send ``points`` through ``names`` in turn, up to each one's spare rating, toward ``push`` (rotational if
    none); each burn the one kept for its thruster, points and push (:func:`_burn`)."""
    burns: list[Burn] = []
    for name in names:
        if points <= 0:
            break
        take = min(ratings[name] - used.get(name, 0), points)
        if take > 0:
            burns.append(_burn(name, take, push))
            used[name] = used.get(name, 0) + take
            points -= take
    return burns if points <= 0 else []


def _thruster_routes(
    design: Design, lost: Mapping[str, int], firing_facing: Direction
) -> tuple[dict[str, int], dict[Direction, Side], dict[Side, list[str]], list[str]]:
    """What :func:`candidate_plots` routes burns with: each thruster's rating left after ``lost``, the side
    whose thrusters push toward each direction from ``firing_facing``, the thrusters of each side, and
    the thrusters in the order rotational thrust tries them (flanks first)."""
    table = design.thrusters_by_id
    ratings = {name: effective_rating(design, name, lost) for name in table}
    pusher = {d: next(s for s in SIDES if d in pushes(s, firing_facing)) for d in Direction}
    by_side = {side: [n for n, t in table.items() if t.side == side] for side in SIDES}
    rotational_names = [n for side in ROTATION_ORDER for n in by_side[side]]
    return ratings, pusher, by_side, rotational_names


def candidate_plots(
    design: Design,
    motion: Motion,
    lost: Mapping[str, int],
    available: int,
    firing_facing: Direction,
    advanced_rotation: bool = False,
    limit_lost: int = 0,
) -> Iterator[Plot]:
    """The menu's plots (see the module docstring) with thrusters firing from ``firing_facing``, routed
    within each thruster's rating as ``lost`` leaves it and ``available`` thrust points in all."""
    ratings, pusher, by_side, rotational_names = _thruster_routes(design, lost, firing_facing)
    for r in _rotations(design, motion.rotation, advanced_rotation, limit_lost):
        rot_points = _rotation_points(design, motion, r, advanced_rotation)
        if rot_points > available:
            continue
        thrusts: list[tuple[Direction | None, int]] = [(None, 0)]
        for direction in _DIRECTIONS:
            most = min((available - rot_points) // design.accel_cost, MENU_MOST_HEXES)
            thrusts.extend((direction, h) for h in range(1, most + 1))
        for push, hexes in thrusts:
            used: dict[str, int] = {}
            burns: list[Burn] = []
            if push is not None:
                burns = _route(by_side[pusher[push]], hexes * design.accel_cost, used, ratings, push)
                if not burns:
                    continue
            if rot_points:
                spin = _route(rotational_names, rot_points, used, ratings)
                if not spin:
                    continue
                burns.extend(spin)
            yield Plot(tuple(burns), r)
            if design.flat_turn_cost is not None and r == 0:
                yield Plot(tuple(burns), 0, 1)
                yield Plot(tuple(burns), 0, -1)


@dataclass(frozen=True, slots=True)
class MenuSetting:
    """What every candidate of one ship's menu shares besides its plot."""

    design: Design
    motion: Motion
    turn: int
    lost_thrust: int
    rotate_before_thrust: bool
    advanced_rotation: bool
    limit_lost: int

    def candidates(self) -> list[Plot]:
        """Every candidate plot, routed from each facing the thrusters may fire from (no duplicates)."""
        design, motion, advanced_rotation = self.design, self.motion, self.advanced_rotation
        available = max(0, design.thrust - self.lost_thrust)
        out = list(
            dict.fromkeys(
                candidate_plots(design, motion, {}, available, motion.facing, advanced_rotation, self.limit_lost)
            )
        )
        if self.rotate_before_thrust and not design.small_craft:
            # Thrusters fire from the turned facing: route again for each rotation's end facing.
            seen = set(out)
            for r in _rotations(design, motion.rotation, advanced_rotation, self.limit_lost):
                facing = motion.facing.turned(_turned(design, motion, r, advanced_rotation))
                for plot in candidate_plots(design, motion, {}, available, facing, advanced_rotation, self.limit_lost):
                    if plot.rotation == r and plot not in seen:
                        seen.add(plot)
                        out.append(plot)
        return out

    def attempt(self, plot: Plot) -> TurnResult | None:
        """What ``plot`` does, or ``None`` if it is illegal."""
        try:
            return move(
                self.design,
                self.motion,
                plot,
                self.turn,
                None,
                self.lost_thrust,
                self.rotate_before_thrust,
                self.advanced_rotation,
                self.limit_lost,
            )
        except IllegalOrderError:
            return None


def legal_plots(
    design: Design,
    motion: Motion,
    turn: int,
    lost_thrust: int,
    rotate_before_thrust: bool,
    advanced_rotation: bool = False,
    limit_lost: int = 0,
) -> list[tuple[Plot, TurnResult]]:
    """The offered plots (see the module docstring), each with what it does.

    A menu does not offer structure damage: plots over the rotation limit are
    left out, unless every plot is over it (a ship whose limit damage cut
    below its rotation, unable to pay to slow down); then those turning
    least over it are offered.
    """
    key = (id(design), *_numbers(motion), turn, lost_thrust, rotate_before_thrust, advanced_rotation, limit_lost)
    known = _MENUS.get(key)
    if known is not None and known[0] is design:
        return list(zip(known[1], known[2], strict=True))
    # A menu depends on where the ship is only by a shift: the same vector, facing and rotation elsewhere (or on
    # another turn) is the menu already worked out, moved, so a ship drifting at a steady vector, or two ships of
    # one design alike, work it out once.
    shape_key = (
        id(design),
        *_numbers(motion)[2:],
        lost_thrust,
        rotate_before_thrust,
        advanced_rotation,
        limit_lost,
    )
    shape = _SHAPES.get(shape_key)
    if shape is not None and shape[0] is design:
        plots = shape[1]
        results = _shifted(shape[2], motion, turn)
    else:
        plots, results = _legal_plots(
            design, motion, turn, lost_thrust, rotate_before_thrust, advanced_rotation, limit_lost
        )
        _SHAPES.keep(shape_key, (design, plots, results))
    if len(_MENUS) >= MENU_CACHE:
        _MENUS.clear()
        _HANDED.clear()
    _MENUS[key] = (design, plots, results, {}, {})
    if results:
        _HANDED[id(results[0])] = results[0]
    return list(zip(plots, results, strict=True))


def _numbers(motion: Motion) -> tuple[int, ...]:
    """``motion`` as the whole numbers it is made of (hex, vector, facing, rotation, spin), in that order: a menu's
    key, hashed and compared in C (a motion's own hash and equality are Python calls, and its hex's, vector's and
    spin's each another)."""
    at, velocity, spin = motion.hex, motion.velocity, motion.spin
    return (
        at.q,
        at.r,
        velocity.dq,
        velocity.dr,
        velocity.dz,
        motion.facing,
        motion.rotation,
        spin.rate,
        spin.carried,
    )


def handed_out(first: TurnResult) -> bool:
    """Whether ``first`` is the first result of a menu :func:`legal_plots` worked out lately: a menu whose every plot
    is one candidate of one design at one facing and rotation (:func:`legal_turnings`), its turning, facing, velocity
    change and flat turn the same at every vector and hex."""
    return _HANDED.get(id(first)) is first


#: The first result of each menu in :data:`_MENUS`, by identity (kept, so that no other result takes its id).
_HANDED: dict[int, TurnResult] = {}


def offered(
    design: Design,
    motion: Motion,
    plot: Plot,
    turn: int,
    lost_thrust: int,
    rotate_before_thrust: bool,
    advanced_rotation: bool = False,
    limit_lost: int = 0,
) -> TurnResult | None:
    """What ``plot`` does, if it is a plot of the ship's menu worked out lately (a bot's order checks and moves its
    plot again) or its equal (a search's candidate orders, read back from their text): :func:`~.movement.move`'s
    answer, without working it out; else ``None``."""
    key = (id(design), *_numbers(motion), turn, lost_thrust, rotate_before_thrust, advanced_rotation, limit_lost)
    known = _MENUS.get(key)
    if known is None or known[0] is not design:
        return None
    _, plots, results, by_value, by_id = known
    if by_id:
        i = by_id.get(id(plot))
        if i is not None:
            return results[i]
    else:
        for i, p in enumerate(plots):
            if p is plot:
                return results[i]
        # The menu's plots by identity (each kept in the menu, so no other object takes its id), made the first time a
        # plot is not found among them: a search asks a menu for its plots read back from their text again and again,
        # and the scan would find none of them.
        by_id.update({id(p): i for i, p in enumerate(plots)})
    # The menu by plot, made the first time a plot is not found by identity: hashing every plot costs more than the
    # scan, and most menus are only asked for the plots they handed out.
    if not by_value:
        by_value.update(zip(plots, results, strict=True))
    return by_value.get(plot)


#: Menus worked out lately, by design (its identity: designs are read once and shared by every state after) and
#: the rest of the arguments. A search bot asks for the same ship's menu in hundreds of rollouts a decision; the
#: design is kept beside the menu so that a new design at a reused ``id`` is never mistaken for the old one, and the
#: menu by plot once :func:`offered` needs it. A menu is kept as its plots and their results, in two tuples: a tuple
#: for each plot and its result would be thousands more objects kept for the garbage collector to walk.
_MENUS: dict[
    tuple[object, ...], tuple[Design, tuple[Plot, ...], tuple[TurnResult, ...], dict[Plot, TurnResult], dict[int, int]]
] = {}
MENU_CACHE = 4096
#: The same menus by everything but the hex and the turn, for :func:`_shifted`.
_SHAPES: Kept[tuple[object, ...], tuple[Design, tuple[Plot, ...], tuple[TurnResult, ...]]] = Kept(MENU_CACHE)


def _shifted(results: Sequence[TurnResult], motion: Motion, turn: int) -> tuple[TurnResult, ...]:
    """A menu's ``results``, worked out for a ship of the same vector, facing and rotation elsewhere, moved to
    ``motion``'s hex and ``turn``: what :func:`move` gives there (a path is the line between its ends, the same shape
    wherever it starts: :meth:`~vectorwar.hexes.Hex.line_to`)."""
    at = motion.hex
    was = results[0].start.hex if results else at
    dq, dr = at.q - was.q, at.r - was.r
    out: list[TurnResult] = []
    for r in results:
        m = r.motion
        first, last = r.path[0], r.path[-1]
        path = _path(_hex(first.q + dq, first.r + dr), (last.q - first.q, last.r - first.r))
        after = Motion(path[-1], m.velocity, m.facing, m.rotation, m.spin)
        out.append(
            TurnResult(
                after, path, r.thrust, r.thrust_spent, r.flat_turn_cost, r.hexsides_turned, r.overspeed, turn, motion
            )
        )
    return tuple(out)


def _legal_plots(
    design: Design,
    motion: Motion,
    turn: int,
    lost_thrust: int,
    rotate_before_thrust: bool,
    advanced_rotation: bool,
    limit_lost: int,
) -> tuple[tuple[Plot, ...], tuple[TurnResult, ...]]:
    """The menu worked out, its plots and their results: :func:`~.movement.move` of every candidate, from the parts
    of it that are the same for every vector (:func:`legal_turnings`), so only what the vector changes is worked out
    here (:func:`_flat_moved` for a flat turn)."""
    setting = MenuSetting(design, motion, turn, lost_thrust, rotate_before_thrust, advanced_rotation, limit_lost)
    plots: list[Plot] = []
    out: list[TurnResult] = []
    moves: dict[tuple[int, int, int], tuple[Velocity, tuple[Hex, ...]]] = {}
    available = max(0, design.thrust - lost_thrust)
    flats = _flat_turns(design)
    overspeeds: set[int] = set()
    for turned in legal_turnings(setting):
        if turned.plot.flat_turn:
            result = _flat_moved(design, motion, turned, turn, available, moves, flats)
            if result is None:
                continue
        else:
            # Without a flat turn (most of a menu) the result is written here, not in a call: a menu at a new vector
            # makes one for each of its some hundred candidates.
            known = moves.get(turned.change)
            if known is None:
                known = _after_thrust(motion, turned.change, moves)
            if turned.points > available:
                continue  # ``check_total`` refuses it
            velocity, path = known
            done = turned.done
            result = TurnResult(
                Motion(path[-1], velocity, turned.facing, done.new_rate, done.spin),
                path,
                done.use,
                turned.points,
                0,
                turned.hexsides,
                turned.extra,
                turn,
                motion,
            )
        plots.append(turned.plot)
        out.append(result)
        overspeeds.add(turned.extra)
    if len(overspeeds) <= 1:
        # Every plot turns equally far over the limit (mostly not at all): none is left out.
        return tuple(plots), tuple(out)
    least = min(overspeeds)
    kept = [i for i, r in enumerate(out) if r.overspeed == least]
    return tuple(plots[i] for i in kept), tuple(out[i] for i in kept)


@dataclass(frozen=True, slots=True, init=False)
class Turned:
    """A candidate whose :func:`~.movement.turning` is legal, with what :func:`~.movement.moved` takes from it that
    no vector changes: the velocity change, the facing after the rotation, the thrust spent on burns, the hexsides
    turned in all (flat turn included) and those over the class limit."""

    plot: Plot
    done: Turning
    change: tuple[int, int, int]
    facing: Direction
    points: int
    hexsides: int
    extra: int

    def __init__(
        self,
        plot: Plot,
        done: Turning,
        change: tuple[int, int, int],
        facing: Direction,
        points: int,
        hexsides: int,
        extra: int,
    ) -> None:
        # Stored through the slots (``roster.slot_stores``): a facing's table turned makes one for each of its some
        # hundred candidates.
        _TURNED_PLOT(self, plot)
        _TURNED_DONE(self, done)
        _TURNED_CHANGE(self, change)
        _TURNED_FACING(self, facing)
        _TURNED_POINTS(self, points)
        _TURNED_HEXSIDES(self, hexsides)
        _TURNED_EXTRA(self, extra)


(
    _TURNED_PLOT,
    _TURNED_DONE,
    _TURNED_CHANGE,
    _TURNED_FACING,
    _TURNED_POINTS,
    _TURNED_HEXSIDES,
    _TURNED_EXTRA,
) = slot_stores(Turned)


def _flat_moved(
    design: Design,
    motion: Motion,
    turned: Turned,
    turn: int,
    available: int,
    moves: dict[tuple[int, int, int], tuple[Velocity, tuple[Hex, ...]]],
    flats: dict[tuple[int, int, int, Direction, int], tuple[int, Velocity, Direction] | None],
) -> TurnResult | None:
    """:func:`~.movement.moved` of one candidate with a flat turn, or ``None`` where it refuses the plot: the same
    flat turn, thrust total and path, from ``turned``'s parts (the vector after thrust and the path kept in ``moves``
    by the velocity change, which many candidates of a menu share; a flat turn's price and outcome kept in
    ``flats``, :func:`_flat_turns`)."""
    known = moves.get(turned.change)
    if known is None:
        known = _after_thrust(motion, turned.change, moves)
    new_velocity, path = known
    flat = turned.plot.flat_turn
    key = (new_velocity.dq, new_velocity.dr, new_velocity.dz, turned.facing, flat)
    if key in flats:
        found = flats[key]
    else:
        try:
            done = flat_turn(design, new_velocity, turned.facing, flat)
            found = done.cost, done.next_velocity, done.next_facing
        except IllegalOrderError:
            found = None
        flats[key] = found
    if found is None:
        return None
    cost, next_velocity, next_facing = found
    spent = turned.points + cost
    if spent > available:
        return None  # ``check_total`` refuses it
    after = Motion(path[-1], next_velocity, next_facing, turned.done.new_rate, turned.done.spin)
    return TurnResult(after, path, turned.done.use, spent, cost, turned.hexsides, turned.extra, turn, motion)


def _after_thrust(
    motion: Motion,
    change: tuple[int, int, int],
    moves: dict[tuple[int, int, int], tuple[Velocity, tuple[Hex, ...]]],
) -> tuple[Velocity, tuple[Hex, ...]]:
    """The vector after thrust by the velocity change ``change`` and the path it draws, kept in ``moves``."""
    velocity = motion.velocity
    dq, dr, dz = change
    after_thrust = _velocity(velocity.dq + dq, velocity.dr + dr, velocity.dz + dz)
    known = moves[change] = (after_thrust, _path(motion.hex, (after_thrust.dq, after_thrust.dr)))
    return known


def _flat_turns(design: Design) -> dict[tuple[int, int, int, Direction, int], tuple[int, Velocity, Direction] | None]:
    """The flat turns of ``design`` worked out lately, by the vector after thrust, the facing and the hexsides
    turned: their price, next vector and next facing, or ``None`` where :func:`~.flat_turn.flat_turn` refuses one.
    The menus at every vector a ship meets ask the same few (a vector near the ship's own), so they are kept by the
    design's identity, as :data:`_MENUS` are."""
    known = _FLATS.get(id(design))
    if known is not None and known[0] is design:
        if len(known[1]) >= 1 << 14:
            known[1].clear()
        return known[1]
    found: dict[tuple[int, int, int, Direction, int], tuple[int, Velocity, Direction] | None] = {}
    _FLATS.keep(id(design), (design, found))
    return found


_FLATS: Kept[int, tuple[Design, dict[tuple[int, int, int, Direction, int], tuple[int, Velocity, Direction] | None]]] = (
    Kept(64)
)


def _path(start: Hex, offset: tuple[int, int]) -> tuple[Hex, ...]:
    """The hexes of a move from ``start`` by ``offset`` (:meth:`~vectorwar.hexes.Hex.line_to`): kept by both, since
    the menus of one ship at several vectors, and of every rollout's ship at one hex, draw the same lines."""
    key = (start.q, start.r, *offset)
    path = _PATHS.get(key)
    if path is None:
        if len(_PATHS) >= 1 << 14:
            _PATHS.clear()
            _HEXES.clear()
        # line_to's hexes, each hex one object shared by every path through it: the paths of a process's menus
        # pass the same few hundred hexes, and fewer objects kept means less for the garbage collector to walk.
        base, hexes = start.q * _ROW + start.r, _HEXES
        path = _PATHS[key] = tuple([hexes[base + step] for step in _steps(offset)])
    return path


@lru_cache(maxsize=1 << 12)
def _steps(offset: tuple[int, int]) -> tuple[int, ...]:
    """The hexes of :func:`_path`'s line by ``offset`` (``line_offsets``' first hex of each step), each as the number
    :func:`_hex` keeps its hex by, less the start's: a path from a start is its number plus each."""
    return tuple(step[0][0] * _ROW + step[0][1] for step in line_offsets(*offset))


def _hex(q: int, r: int) -> Hex:
    """The one ``Hex(q, r)`` the paths share (kept by a whole number: ``r`` stays far inside 2**16 either way)."""
    return _HEXES[q * _ROW + r]


class _Hexes(dict[int, Hex]):
    """The hexes the paths share, by :func:`_hex`'s number: a hex not kept yet is made the first time it is looked
    up (the number's row part taken back out of it)."""

    __slots__ = ()

    def __missing__(self, key: int) -> Hex:
        r = (key + _ROW // 2) % _ROW - _ROW // 2
        found = self[key] = Hex((key - r) // _ROW, r)
        return found


#: A hex's number is ``q * _ROW + r``.
_ROW = 0x10000
_PATHS: dict[tuple[int, int, int, int], tuple[Hex, ...]] = {}
#: The hexes of :data:`_PATHS`, by :func:`_hex`'s number.
_HEXES = _Hexes()


@lru_cache(maxsize=1 << 14)
def _velocity(dq: int, dr: int, dz: int) -> Velocity:
    """One frozen ``Velocity`` for each vector a menu meets (equal values; built once)."""
    return Velocity(dq, dr, dz)


def legal_turnings(setting: MenuSetting) -> tuple[Turned, ...]:
    """Every candidate plot whose :func:`~.movement.turning` is legal, with it: by the design, facing, rotation and
    the rules, not the vector or the hex (a ship's vector changes every turn it thrusts). A candidate that
    :func:`~.movement.moved` refuses whatever the vector (a flat turn without the ability, a small craft over its
    limit) is left out."""
    design, motion = setting.design, setting.motion
    key = (
        id(design),
        motion.facing,
        motion.rotation,
        motion.spin,
        setting.lost_thrust,
        setting.rotate_before_thrust,
        setting.advanced_rotation,
        setting.limit_lost,
    )
    known = _TURNINGS.get(key)
    if known is not None and known[0] is design:
        return known[1]
    turned = None
    if not setting.rotate_before_thrust:
        turned = _turned_from_kept(design, key)
        if turned is None and setting.lost_thrust:
            turned = _cut_from_whole_thrust(design, key, max(0, design.thrust - setting.lost_thrust))
    found = list(turned) if turned is not None else _worked_out_turnings(setting)
    _TURNINGS.keep(key, (design, tuple(found)))
    return _TURNINGS[key][1]


def _worked_out_turnings(setting: MenuSetting) -> list[Turned]:
    """:func:`legal_turnings`' table worked out candidate by candidate."""
    design, motion = setting.design, setting.motion
    limit = design.limit_after(setting.limit_lost)
    found: list[Turned] = []
    for plot in setting.candidates():
        try:
            done = turning(
                design,
                motion,
                plot,
                None,
                setting.rotate_before_thrust,
                setting.advanced_rotation,
                setting.limit_lost,
            )
        except IllegalOrderError:
            continue
        if plot.flat_turn and design.flat_turn_cost is None:
            continue
        hexsides = abs(done.turned) + abs(plot.flat_turn)
        extra = overspeed(limit, hexsides)
        if extra and design.small_craft:
            continue
        change = done.change
        facing = motion.facing.turned(done.turned)
        found.append(Turned(plot, done, (change.dq, change.dr, change.dz), facing, done.use.points, hexsides, extra))
    return found


def _turned_from_kept(design: Design, key: tuple[object, ...]) -> list[Turned] | None:
    """:func:`legal_turnings`' table for ``key``'s facing, turned from the table kept for another facing of the same
    design, rotation and rules, or ``None`` if none is kept (thrusters fired from the turned facing not asked).

    Every rule a candidate meets turns with the ship: a thruster pushes toward the same hexsides of the ship
    whichever way it faces, and the rotation, ratings and thrust total know no map direction. So the candidates at
    a facing ``k`` hexsides on are the kept ones with every push turned ``k`` hexsides, each as legal as it was;
    :meth:`MenuSetting.candidates` lists them by rotation and then by the map direction pushed toward (no push
    first), so each rotation's run is put in that order again (a stable sort keeps each direction's own order).
    ``tests/vms/test_planner.py`` compares every facing's table with working it out."""
    found = _kept_elsewhere(design, key, 1)
    return None if found is None else _turned_table(*found)


def _cut_from_whole_thrust(design: Design, key: tuple[object, ...], available: int) -> list[Turned] | None:
    """:func:`legal_turnings`' table for ``key``, whose ship has lost thrust, from the whole thrust's table kept for the
    same design, rotation and rules (at its facing, or another's turned, :func:`_turned_from_kept`): the candidates
    of that table that the ``available`` thrust pays for, in their order; or ``None`` if none is kept.

    :func:`candidate_plots` lists every rotation and number of hexes toward each direction whose points (all of
    them thrust: a candidate's ``points``) the thrust pays for, in one order whatever the thrust, each routed alike,
    and :func:`~.movement.turning` never reads the thrust: so the candidates under thrust lost are the whole
    thrust's that it pays for, in the same order (and turning a table keeps the order of each direction's own).
    A ship that loses thrust to damage is met at the facings and rotations it had before (``tests/vms/
    test_planner.py`` compares the menus with working them out)."""
    found = _kept_elsewhere(design, (*key[:4], 0, *key[5:]), 0)
    if found is None:
        return None
    table, k = found
    paid = [t for t in table if t.points <= available]
    return paid if k == 0 else _turned_table(paid, k)


def _kept_elsewhere(design: Design, key: tuple[object, ...], first: int) -> tuple[Sequence[Turned], int] | None:
    """A table kept for ``key`` but at the facing ``k`` hexsides anticlockwise of its own, from ``k`` = ``first``
    on, with ``k``; or ``None``."""
    facing = key[1]
    if not isinstance(facing, Direction):  # pragma: no cover - the key's second item is the facing
        raise TypeError("a turnings key names the facing second")
    for k in range(first, len(Direction)):
        known = _TURNINGS.get((key[0], facing.turned(-k), *key[2:]))
        if known is not None and known[0] is design:
            return known[1], k
    return None


def _turned_table(table: Sequence[Turned], k: int) -> list[Turned]:
    """``table`` (:func:`legal_turnings`' for one facing) for the facing ``k`` hexsides clockwise of it."""
    out: list[Turned] = []
    run: list[tuple[int, Turned]] = []
    rotation = None
    for turned in table:
        if run and turned.plot.rotation != rotation:
            out.extend([t for _, t in sorted(run, key=_first)])
            run = []
        rotation = turned.plot.rotation
        run.append(_turned_by(turned, k))
    out.extend([t for _, t in sorted(run, key=_first)])
    return out


def _first(entry: tuple[int, Turned]) -> int:
    return entry[0]


def _turned_by(turned: Turned, k: int) -> tuple[int, Turned]:
    """One candidate of a :func:`legal_turnings` table ``k`` hexsides clockwise on: its pushes, the velocity they buy
    and the facing after it turned; the rest (points, rotation, hexsides turned) the same. With it, where
    :func:`candidate_plots` lists it among its rotation's: no push first (-1), then by the direction of its
    translational burns (a menu's plot pushes one way), in ``Direction``'s order."""
    plot, done = turned.plot, turned.done
    order = -1
    burns: list[Burn] = []
    for b in plot.burns:
        if b.push is not None:
            push = b.push.turned(k)
            b = _burn(b.thruster, b.points, push)
            if order < 0:
                order = int(push)
        burns.append(b)
    use = done.use
    hexes, change, numbers = _pushed_by(use.hexes, k)
    # The thrusters' points are the same: their dictionary is shared, as every table's ThrustUse is (never changed),
    # and so is each dictionary of hexes pushed (the tables kept share the few there are: fewer objects kept).
    use = ThrustUse(hexes, use.rotational_points, use.per_thruster)
    return order, Turned(
        Plot(tuple(burns), plot.rotation, plot.flat_turn),
        Turning(use, change, done.new_rate, done.turned, done.spin),
        numbers,
        turned.facing.turned(k),
        turned.points,
        turned.hexsides,
        turned.extra,
    )


def _pushed_by(hexes: dict[Direction, int], k: int) -> tuple[dict[Direction, int], Velocity, tuple[int, int, int]]:
    """A candidate's hexes pushed toward each direction turned ``k`` hexsides clockwise (listed by direction, as
    ``apply_burns`` lists them; one dictionary shared by every candidate pushing alike), the velocity change they
    buy (``ThrustUse.velocity_change``) and its numbers: kept by the pushes and ``k`` (a table's candidates share the
    few ways of pushing there are, each turned to five other facings)."""
    key = (*hexes.items(), k)
    found = _TURNED_PUSHES.get(key)
    if found is not None:
        return found
    pushed = tuple(sorted((d.turned(k), n) for d, n in hexes.items()))
    shared = _PUSHED.get(pushed)
    if shared is None:
        shared = _PUSHED.keep(pushed, dict(pushed))
    change = ThrustUse(shared).velocity_change
    _TURNED_PUSHES.keep(key, (shared, change, (change.dq, change.dr, change.dz)))
    return shared, change, (change.dq, change.dr, change.dz)


def _burn(thruster: str, points: int, push: Direction | None) -> Burn:
    """The one ``Burn`` of a thruster's points toward ``push`` (``None``: rotational) that the tables share (a few
    hundred a design, against thousands of candidates: fewer objects kept for the garbage collector to walk)."""
    key = (thruster, points, push)
    found = _BURNS.get(key)
    if found is None:
        found = _BURNS.keep(key, Burn(thruster, points, push))
    return found


#: :func:`_burn`'s burns, and :func:`_turned_by`'s dictionaries of hexes pushed toward each direction, by value.
_BURNS: Kept[tuple[str, int, Direction | None], Burn] = Kept(1 << 12)
_PUSHED: Kept[tuple[tuple[Direction, int], ...], dict[Direction, int]] = Kept(1 << 12)
#: :func:`_pushed_by`'s answers, by the pushes turned (each direction and its hexes) and the hexsides.
_TURNED_PUSHES: Kept[tuple[object, ...], tuple[dict[Direction, int], Velocity, tuple[int, int, int]]] = Kept(1 << 12)

#: :func:`legal_turnings` worked out lately, by the design's identity (as :data:`_MENUS`) and the rest of its key.
_TURNINGS: Kept[tuple[object, ...], tuple[Design, tuple[Turned, ...]]] = Kept(MENU_CACHE)


def random_plot(
    design: Design,
    motion: Motion,
    turn: int,
    lost_thrust: int,
    rotate_before_thrust: bool,
    rng: random.Random,
    keep: Callable[[TurnResult], bool],
    advanced_rotation: bool = False,
    limit_lost: int = 0,
) -> Plot:
    """A plot drawn evenly from the offered ones that ``keep`` accepts (else from all offered).

    The first legal plot of a shuffled candidate list is an even draw, and
    far cheaper than working out the whole menu. Plots over the rotation limit
    are drawn only when no other is legal.
    """
    setting = MenuSetting(design, motion, turn, lost_thrust, rotate_before_thrust, advanced_rotation, limit_lost)
    candidates = setting.candidates()
    rng.shuffle(candidates)
    fallback: Plot | None = None
    over: Plot | None = None
    for plot in candidates:
        result = setting.attempt(plot)
        if result is None:
            continue
        if result.overspeed:
            over = over or plot
            continue
        if keep(result):
            return plot
        fallback = fallback or plot
    return fallback or over or Plot()
