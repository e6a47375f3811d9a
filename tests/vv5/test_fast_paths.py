"""The VV5 turn's shortcuts give the answers of the long way round: copies, reach, launch and shot numbers.

Each shortcut is checked against the function it stands in for, on every state of a few greedy
Dogfights (the positions a real game reaches), so a shortcut that drifts from the rules fails here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.play import bot_order
from vectorwar.registry import get_system
from vectorwar.roster import replace_fields
from vectorwar.setup import set_up
from vectorwar.systems.vv5 import bots, crews
from vectorwar.systems.vv5.arcs import GUN_ARCS, MISSILE_ARC, in_arc
from vectorwar.systems.vv5.combat import (
    GUN_RANGE,
    MISSILE_RANGE,
    gun_modifier,
    gun_to_hit,
    in_the_way,
    line_of_fire,
    missile_to_hit,
    ships_in_the_way,
)
from vectorwar.systems.vv5.edge import board_hexes
from vectorwar.systems.vv5.gunfire import launch_number, launch_odds, shot_odds
from vectorwar.systems.vv5.movement import _course, is_solid, open_cells, plan, shift_to_fit
from vectorwar.systems.vv5.orders import Manoeuvre, Shot
from vectorwar.systems.vv5.state import Ship, VV5State
from vectorwar.systems.vv5.targeting import (
    can_fire_guns,
    can_launch,
    gun_in_reach,
    legal_gun_targets,
    legal_launch_targets,
    missile_in_reach,
)
from vectorwar.vectors import Velocity


def _states(seed: int, options: dict[str, object] | None = None) -> Iterator[VV5State]:
    """Every state a greedy Dogfight passes through."""
    scenario = builtin_scenario("vv5-dogfight")
    setup = set_up(scenario, {s.id: "greedy" for s in scenario.sides}, seed=seed, options=options)
    game = setup.game
    while not game.is_over:
        state = game.state
        if isinstance(state, VV5State):
            yield state
        for side in game.waiting_for:
            game.submit(side, bot_order(game, side, setup.bots[side]))


STATES = [s for seed in (1, 2) for s in _states(seed)] + list(_states(3, {"experienced_crews": True}))


def test_a_copy_is_dataclasses_replace() -> None:
    state = STATES[-1]
    ship = state.ships[0]
    moved = replace_fields(ship, hex=Hex(3, 4), accelerated=2, status="exited")
    assert moved == dataclasses.replace(ship, hex=Hex(3, 4), accelerated=2, status="exited")
    assert replace_fields(ship.structure, boxes=1) == dataclasses.replace(ship.structure, boxes=1)
    assert replace_fields(state, turn=9, phase="over") == dataclasses.replace(state, turn=9, phase="over")


@dataclasses.dataclass(frozen=True)
class _Plain:
    """A frozen value without slots."""

    a: int
    b: str = "x"


def test_a_class_without_slots_and_one_of_a_single_field_are_copied() -> None:
    assert replace_fields(_Plain(1), b="y") == _Plain(1, "y")
    assert replace_fields(Manoeuvre(("L",)), steps=("R",)) == Manoeuvre(("R",))
    assert replace_fields(Manoeuvre(("L",))) == Manoeuvre(("L",))


def test_a_copy_refuses_a_name_that_is_no_field() -> None:
    with pytest.raises(TypeError, match="no field speed"):
        replace_fields(STATES[0].ships[0], speed=3)


def test_a_copy_with_other_ships_forgets_what_was_kept() -> None:
    state = STATES[0]
    side = state.sides[0]
    before = can_launch(state, side), can_fire_guns(state, side)
    moved = replace_fields(state, ships=tuple(replace_fields(s, hex=Hex(0, 0)) for s in state.ships))
    assert before == (can_launch(state, side), can_fire_guns(state, side))
    assert moved.kept_answers() == {}


def test_a_copy_keeps_what_was_kept_while_ships_sides_allies_and_board_stay() -> None:
    state = STATES[0]
    side = state.sides[0]
    asked = can_launch(state, side), can_fire_guns(state, side)
    assert state.kept_answers()
    assert replace_fields(state, turn=state.turn + 1, allies=state.allies).kept_answers() is state.kept_answers()
    for anew in ({"allies": (*state.sides,)}, {"map": dataclasses.replace(state.map)}, {"sides": (*state.sides,)}):
        moved = replace_fields(state, **anew)
        assert moved.kept_answers() == {}
        assert (can_launch(moved, side), can_fire_guns(moved, side)) == asked


def test_reach_by_offset_is_range_arc_and_line() -> None:
    state = STATES[0]
    origin = Hex(5, 5)
    for target in origin.within(17):
        for facing in Direction:
            missile = (
                missile_to_hit(origin.distance(target)) is not None
                and in_arc(MISSILE_ARC, origin, facing, target)
                and line_of_fire(state.map, origin, target)
            )
            assert missile_in_reach(state.map, origin, facing, target) == missile
            for arc, shape in GUN_ARCS.items():
                gun = gun_to_hit(origin.distance(target)) is not None and in_arc(shape, origin, facing, target)
                assert gun_in_reach(state.map, arc, origin, facing, target) == (
                    gun and line_of_fire(state.map, origin, target)
                )


def test_kept_answers_match_the_legal_targets() -> None:
    for state in STATES:
        for side in state.sides:
            assert can_launch(state, side) == bool(legal_launch_targets(state, side))
            assert can_fire_guns(state, side) == bool(legal_gun_targets(state, side))


def test_launch_and_shot_numbers_are_the_odds_numbers() -> None:
    pairs = 0
    for state in STATES:
        for ship in state.ships:
            for target in state.ships:
                if ship.side == target.side or not ship.active or not target.active:
                    continue
                if missile_to_hit(ship.hex.distance(target.hex)) is not None:
                    for spread in (-1, 0, 2):
                        odds = launch_odds(state, ship.id, target.id, spread)
                        assert launch_number(state, ship.id, target.id, spread) == (odds.range, odds.need)
                        pairs += 1
                for mount in ship.mounts:
                    if gun_to_hit(ship.hex.distance(target.hex)) is None or not mount.guns.boxes:
                        continue
                    odds = shot_odds(state, Shot(ship.id, mount.arc, mount.guns.boxes, target.id))
                    bonus = crews.attack_bonus(state, ship)
                    assert odds.modifier == gun_modifier(mount.guns.boxes, target) + bonus
    assert pairs > 50


def test_plan_is_step_by_step() -> None:
    for text in ("0", "L", "RR1", "1L1", "3", "LLL2", "2R", "1R1R1"):
        move = Manoeuvre.parse(text)
        for facing in Direction:
            velocity = Velocity(2, -1)
            expected_facing = facing
            for step in move.steps:
                if step in "LR":
                    expected_facing = expected_facing.turned(-1 if step == "L" else 1)
                else:
                    velocity += Velocity.toward(expected_facing, int(step))
            assert plan(facing, Velocity(2, -1), move) == (expected_facing, velocity)
            turns = sum(1 for s in move.steps if s in "LR")
            assert (move.turns, move.thrust) == (turns, sum(int(s) for s in move.steps if s.isdigit()))


def _every_fit_shift(state: VV5State, keep: list[Ship]) -> tuple[int, int] | None:
    """The Dogfight's shift the long way: every translation keeping the ships on, fewest markers off first,
    then the shortest, then the lowest ``(dq, dr)``."""
    cells = {(h.q, h.r) for h in board_hexes(state.map)}
    fits = [
        (q - keep[0].hex.q, r - keep[0].hex.r)
        for q, r in cells
        if all((s.hex.q + q - keep[0].hex.q, s.hex.r + r - keep[0].hex.r) in cells for s in keep)
    ]
    keys = [
        (
            sum(1 for s in keep if (s.vector_marker.q + dq, s.vector_marker.r + dr) not in cells),
            Hex(0, 0).distance(Hex(dq, dr)),
            dq,
            dr,
        )
        for dq, dr in fits
    ]
    return min(keys)[2:] if keys else None


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_shift_to_fit_is_the_least_of_every_fitting_shift(data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(STATES))
    ships = [s for s in state.ships if s.active] or list(state.ships)
    # Ships moved off the board by up to 9 hexes, with markers anywhere near: near and far shifts, and none.
    dq, dr = data.draw(st.integers(-9, 9)), data.draw(st.integers(-9, 9))
    keep = [
        replace_fields(
            s,
            hex=s.hex.shifted(dq + data.draw(st.integers(-2, 2)), dr),
            velocity=Velocity(data.draw(st.integers(-8, 8)), data.draw(st.integers(-8, 8))),
        )
        for s in ships
    ]
    assert shift_to_fit(state.map, keep) == _every_fit_shift(state, keep)


def test_a_kept_course_is_the_kernel_line_and_its_positions() -> None:
    for q, r in ((0, 0), (5, -2), (-3, 7)):
        for dq, dr in ((0, 0), (3, 0), (-2, 5), (4, -4), (1, 1)):
            path, positions = _course(q, r, dq, dr)
            line = Hex(q, r).line_to(Hex(q + dq, r + dr))
            assert list(path) == line
            assert positions == tuple(Position(h) for h in line)


def test_a_state_with_a_ship_changed_is_the_roster_copy() -> None:
    """``VV5State.with_ship`` and ``with_ships`` copy by the roster: the same state ``dataclasses.replace`` gives,
    the ids looked up where they are."""
    for state in STATES[::7]:
        first, last = state.ships[0], state.ships[-1]
        hit = replace_fields(first, damage_taken=first.damage_taken + 1)
        changed = state.with_ship(hit)
        ships = tuple(hit if s.id == first.id else s for s in state.ships)
        assert changed == dataclasses.replace(state, ships=ships)
        assert changed.ship(first.id) is hit
        assert changed.ship(last.id) is last
        both = state.with_ships((hit, replace_fields(last, accelerated=3)), phase="over")
        assert both.ship(last.id).accelerated == 3
        assert both.ship(first.id) is hit
        assert both.phase == "over"


def test_greedy_sight_tables_are_each_gun_worked_out() -> None:
    """The tables greedy keeps by mounts, tons and thrust hold each working mount's arc and worth, mount by mount."""
    for state in STATES[::5]:
        for ship in state.ships:
            for enemy in state.enemies_of(ship.side):
                mine = [
                    (bots._GUN_OFFSETS[m.arc], bots._gun_terms(m.guns.boxes, gun_modifier(m.guns.boxes, enemy)))
                    for m in ship.mounts
                    if m.guns.boxes
                ]
                assert list(bots._my_sight(bots._working(ship), enemy.mass, enemy.can_accelerate)) == mine
                theirs = [
                    (
                        frozenset((-dq, -dr) for dq, dr in bots._GUN_OFFSETS[m.arc][enemy.facing]),
                        bots._threat_terms(m.guns.boxes, gun_modifier(m.guns.boxes, ship)),
                    )
                    for m in enemy.mounts
                    if m.guns.boxes
                ]
                sight = bots._their_sight(bots._working(enemy), enemy.facing, ship.mass, ship.can_accelerate)
                assert list(sight) == theirs


def test_a_scenario_places_the_same_ships_in_every_game() -> None:
    """The ships kept for a scenario's next game are the ones a fresh copy of the scenario builds."""
    system = get_system("vv5")
    scenario = builtin_scenario("vv5-dogfight")
    kept = system.new_state(scenario, {}).ships
    assert system.new_state(scenario, {}).ships is kept
    fresh = system.new_state(scenario.model_copy(deep=True), {}).ships
    assert fresh == kept
    assert fresh is not kept


def _end_score(state: VV5State, ship: Ship, end: Hex, facing: Direction, velocity: Velocity) -> float:
    """Greedy's worth of ``ship`` ending at ``end`` heading ``facing`` at ``velocity``, the long way: arcs, ranges
    and the board asked hex by hex, in the order the terms are added."""
    if not state.map.contains(end) or is_solid(state.map.terrain_at(end)):
        return -1000.0
    speed = velocity.speed
    score = 0.0
    if not state.map.contains(Hex(2 * end.q - ship.hex.q, 2 * end.r - ship.hex.r)):
        score -= 3.0 + speed
    if speed > 4:
        score -= 0.3 * (speed - 4)
    nearest = 99
    # Speed against an enemy near, as against the board, in a plain battle once neither has a missile ready.
    guns_alone = [
        e
        for e in state.enemies_of(ship.side)
        if state.special is None and not (ship.missiles_ready or e.missiles_ready)
    ]
    closing_cost = 0.0
    for enemy in guns_alone:
        if end.distance(enemy.vector_marker) <= bots.CLOSING_RANGE:
            closing = Velocity(velocity.dq - enemy.velocity.dq, velocity.dr - enemy.velocity.dr).speed
            if closing > bots.PASSING_SPEED:
                closing_cost += 0.3 * (closing - bots.PASSING_SPEED)
    for enemy in state.enemies_of(ship.side):
        marker = enemy.vector_marker
        distance = end.distance(marker)
        nearest = min(nearest, distance)
        if not distance:
            score -= 2.0
            continue
        if distance <= GUN_RANGE:
            for m in ship.mounts:
                if m.guns.boxes and in_arc(GUN_ARCS[m.arc], end, facing, marker):
                    score += bots._gun_terms(m.guns.boxes, gun_modifier(m.guns.boxes, enemy))[distance]
            for m in enemy.mounts:
                if m.guns.boxes and in_arc(GUN_ARCS[m.arc], marker, enemy.facing, end):
                    score -= bots._threat_terms(m.guns.boxes, gun_modifier(m.guns.boxes, ship))[distance]
        if ship.missiles_ready and distance <= MISSILE_RANGE and in_arc(MISSILE_ARC, end, facing, marker):
            score += 0.3
    if guns_alone:
        score -= closing_cost
    return score - 0.08 * nearest if nearest < 99 else score


def test_greedy_scores_every_candidate_end_as_the_long_way() -> None:
    """``Sights.scores`` (one loop over a ship's candidates, tables by offset) gives each end the number worked out
    hex by hex, float for float, and with ``fuel`` that number less the plot's fuel."""
    for state in STATES[::3]:
        for ship in state.ships:
            if not ship.active:
                continue
            candidates, _ = bots._plot_candidates(state, ship)
            sights = bots.Sights(state, ship)
            ends = sights.scores(candidates, ship.velocity)
            for (move, facing, dq, dr, turns, thrust, fuel), got in zip(candidates, ends, strict=True):
                velocity = Velocity(ship.velocity.dq + dq, ship.velocity.dr + dr)
                end = ship.hex.shifted(velocity.dq, velocity.dr)
                assert got == _end_score(state, ship, end, facing, velocity)
                assert fuel == 0.01 * (move.turns + move.thrust)
                assert (turns, thrust) == (move.turns, move.thrust)
            fueled = sights.scores(candidates, ship.velocity, fuel=True)
            assert fueled == [e - c[6] for e, c in zip(ends, candidates, strict=True)]


def test_the_hexes_a_ship_may_end_on_are_the_board_without_its_rocks() -> None:
    for name in ("vv5-dogfight", "vv5-pirates", "vv5-invasion"):
        board = get_system("vv5").new_state(builtin_scenario(name), {}).map
        standable = {h for h in board_hexes(board) if not is_solid(board.terrain_at(h))}
        assert open_cells(board) == {(h.q, h.r) for h in standable}


def _occupant_of(state: VV5State) -> Callable[[Hex], str | None]:
    """The id of the ship in play in a hex of ``state``, asked ship by ship (:meth:`VV5State.occupant`)."""

    def occupant(h: Hex) -> str | None:
        found = state.occupant(h)
        return None if found is None else found.id

    return occupant


def test_ships_in_the_way_are_each_hexs_occupant_along_the_line() -> None:
    for state in STATES[::4]:
        active = [s for s in state.ships if s.active]
        for a in active:
            for b in (s for s in active if s is not a):
                ids = in_the_way(a.hex, b.hex, _occupant_of(state), a.id, b.id)
                assert ships_in_the_way(state, a.hex, b.hex, a.id, b.id) == [state.ship(i) for i in ids]
