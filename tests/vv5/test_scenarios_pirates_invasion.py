"""VV5 scenarios 5 (Pirates) and 9 (Invasion): set-up, special rules, endings, bots."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.errors import ScenarioError
from vectorwar.events import Event, Moved
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.play import simulate
from vectorwar.registry import get_system
from vectorwar.rules import OptionValue
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5 import turn
from vectorwar.systems.vv5.hazards import asteroid_fields
from vectorwar.systems.vv5.movement import move_ships
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.specials.adp import platforms_drift
from vectorwar.systems.vv5.specials.invasion import Invasion
from vectorwar.systems.vv5.specials.pirates import Pirates
from vectorwar.systems.vv5.state import Body, InvasionState, PirateState, VV5State
from vectorwar.vectors import Velocity

from .conftest import LoadedDice

# -- helpers ---------------------------------------------------------------------------

#: Where an Invasion body is (``Body.status``).
BodyStatus = Literal["on-board", "exited", "removed"]

DEFAULTS: dict[str, Any] = {o.name: o.default for o in system.manifest.options}


def new_game(name: str, seed: int = 1, edit: Any = None, options: dict[str, object] | None = None) -> Game:
    data = builtin_scenario(name).to_data()
    if edit is not None:
        edit(data)
    return Game.new(get_system("vv5"), scenario_from_data(data, "test"), seed, options)


def winners(verdict: tuple[tuple[str, ...], str] | None) -> tuple[str, ...]:
    """The winners in a scenario's own verdict, which it must give."""
    assert verdict is not None
    return verdict[0]


def pirate_state(**options: OptionValue) -> VV5State:
    """The Pirates set-up before any dice (no ``begin`` rolls in this scenario)."""
    return system.new_state(builtin_scenario("vv5-pirates"), {**DEFAULTS, **options})


def invasion_state(**options: OptionValue) -> VV5State:
    return system.new_state(builtin_scenario("vv5-invasion"), {**DEFAULTS, **options})


def moved(state: VV5State, ship_id: str, *hexes: Hex) -> Moved:
    return Moved(ship_id, "0", tuple(Position(h) for h in hexes), state.ship(ship_id).facing)


def bodies_of(state: VV5State) -> dict[str, Body]:
    assert isinstance(state.special, InvasionState)
    return {b.name: b for b in state.special.bodies}


# -- Pirates ---------------------------------------------------------------------------


def test_pirate_design_follows_the_recipe() -> None:
    designs = system.designs()
    pirate, courier = designs["pirate"], designs["courier"]
    assert pirate.kind == "transport"
    assert pirate.acceleration == 2
    assert pirate.cargo == courier.cargo - 2
    assert [(m.arc, m.guns) for m in pirate.guns] == [("turret360", courier.guns[0].guns + 1)]
    assert pirate.check_budget
    assert pirate.spare_tenths >= 0


def test_pirates_set_up_field_and_start() -> None:
    state = pirate_state()
    field = state.map.hexes_with("asteroid-field")
    assert len(field) == 6 * 80
    for name in "DEIJNO":
        assert state.map.section(name).col >= 30
        assert all(h in field for h in state.map.section(name).hexes())
    assert state.map.locate("C@9,7") not in field
    assert state.ship("P1").hex == state.map.locate("F@0,4")
    assert {state.ship("X1").hex, state.ship("X2").hex} == {state.map.locate("A@0,0"), state.map.locate("K@0,7")}
    assert all(s.velocity.speed == 2 for s in state.ships)
    assert state.special == PirateState("pirates", "pirate", field_bonus=1)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["special"].update(pirate_side="nobody"), r"special\.pirate_side: 'nobody' is not a side"),
        (lambda d: d["sides"][0]["ships"][0].update(design="courier"), r"acceleration of 2G \(P1 has 1G\)"),
        (lambda d: d["special"].update(field=["Z"]), r"special\.field: no map section 'Z'"),
        (
            lambda d: d["sides"][0]["ships"].append({"id": "P2", "design": "pirate", "at": "F@0,6", "facing": "C"}),
            r"exactly one ship, not 2",
        ),
    ],
)
def test_pirates_bad_tables_are_refused(edit: Any, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        new_game("vv5-pirates", edit=edit)


def _in_field(state: VV5State, ship_id: str, velocity: str) -> VV5State:
    field_hex = state.map.locate("I@4,4")
    return state.with_ship(replace(state.ship(ship_id), hex=field_hex, velocity=Velocity.parse(velocity)))


def test_the_pirate_adds_one_to_the_field_roll() -> None:
    state = _in_field(pirate_state(), "P1", "B=3")
    entry = state.map.locate(
        "H@9,4"
    )  # outside the field: the move enters it (docs/rulings/vv5.md, *VV5 asteroid fields*)
    events: list[Event] = []
    # 2D6 = 2, +1 = 3 = velocity: a small rock (1D6 = 1 -> one hit location roll), not destruction.
    out = asteroid_fields(state, [moved(state, "P1", entry, state.ship("P1").hex)], LoadedDice(1, 1, 1, 3), events)
    assert out.ship("P1").active
    assert "a small rock hits P1" in [getattr(e, "purpose", "") for e in events]


def test_an_interceptor_gets_no_bonus() -> None:
    state = _in_field(pirate_state(), "X1", "B=3")
    entry = state.map.locate("H@9,4")
    out = asteroid_fields(state, [moved(state, "X1", entry, state.ship("X1").hex)], LoadedDice(1, 1), [])
    assert out.ship("X1").status == "crashed"


def _apart(state: VV5State, distance: int) -> VV5State:
    state = _in_field(state, "P1", "0")
    pirate = state.ship("P1").hex
    state = state.with_ship(replace(state.ship("X1"), hex=pirate.neighbour(Direction.A, distance)))
    return state.with_ship(replace(state.ship("X2"), hex=pirate.neighbour(Direction.D, distance + 3)))


@pytest.mark.parametrize(("roll", "escaped"), [(3, True), (4, False)])
def test_evasion_needs_a_roll_under_the_distance(roll: int, escaped: bool) -> None:
    state = _apart(pirate_state(), 4)
    out = Pirates().boarding(state, LoadedDice(roll), [])
    assert isinstance(out.special, PirateState)
    assert out.special.escaped is escaped
    assert (Pirates().game_over(out) is not None) is escaped


def test_no_evasion_roll_outside_the_field_by_default() -> None:
    state = pirate_state()  # P1 on the left edge, far from the field
    assert Pirates().boarding(state, LoadedDice(), []) == state  # LoadedDice() would fail on any roll
    anywhere = replace(state, options={**state.options, "pirate_evasion": "anywhere"})
    out = Pirates().boarding(anywhere, LoadedDice(6), [])  # distance 12: even a 6 is under it
    assert isinstance(out.special, PirateState)
    assert out.special.escaped


def test_pirates_verdicts() -> None:
    state = pirate_state()
    decide = Pirates().decide
    gone = replace(state.ship("P1"), status="crashed")
    assert decide(state.with_ship(gone), {}) == (
        ("interceptors",),
        "the pirate is out of the game (crashed): the interceptors win",
    )
    no_pursuers = state.with_ship(replace(state.ship("X1"), status="destroyed"))
    no_pursuers = no_pursuers.with_ship(replace(no_pursuers.ship("X2"), status="exited"))
    assert winners(decide(no_pursuers, {})) == ("pirate",)
    assert winners(decide(state.with_ship(replace(state.ship("P1"), status="exited")), {})) == ()
    assert winners(decide(state, {})) == ()  # turn limit, still running


def test_standing_counts_the_pirates_chance_to_get_away() -> None:
    # The search bot's yardstick: the next evasion roll's chance (1D6 under the distance) times the stake, half the
    # whole game (3 VP a ton of every ship); short of the field, half the stake times the share of the way it has
    # come, however far the pursuers are (fleeing them elsewhere is no progress).
    stake = 3 * sum(s.mass for s in pirate_state().ships) / 2
    for distance, chance in ((1, 0), (4, 3 / 6), (7, 1), (9, 1)):
        assert system.standing(_apart(pirate_state(), distance))["pirate"] == pytest.approx(stake * chance)
    start = pirate_state()  # on the left edge, two thirds of the board from the field
    nearer = start.with_ship(replace(start.ship("P1"), hex=start.map.locate("H@0,4")))
    assert 0 < system.standing(start)["pirate"] < system.standing(nearer)["pirate"] < stake / 2
    chased = nearer.with_ship(replace(nearer.ship("X1"), hex=nearer.ship("P1").hex.neighbour(Direction.A)))
    assert system.standing(chased)["pirate"] == system.standing(nearer)["pirate"]
    assert system.standing(start)["interceptors"] == 0
    assert system.result(start) is None  # progress is no score: it decides nothing


def test_the_pirates_loss_is_priced_at_the_stake_in_the_fire_to_come() -> None:
    # The pirate lost ends the game, which its VP as a transport (2 a ton) undervalue: the judge of the fire to come
    # adds the stake to the kill; a pursuer's loss is its VP alone (the pirate must still see off the other).
    state = pirate_state()
    stake = 3 * sum(s.mass for s in state.ships) / 2
    assert Pirates().damage_stake(state, state.ship("P1")) == (0.0, stake)
    assert Pirates().damage_stake(state, state.ship("X1")) == (0.0, 0.0)


# -- Invasion --------------------------------------------------------------------------


def test_invasion_set_up() -> None:
    state = invasion_state()
    assert state.sides == ("humans",)
    assert state.automated == ("aliens",)
    m = state.map
    assert m.terrain_at(m.locate("G@4,3")) == "dense-1"
    assert m.terrain_at(m.locate("B@4,3")) == "dense-2"
    assert m.terrain_at(m.locate("L@4,3")) == "dense-3"
    for adp, section in (("ADP1", "A"), ("ADP2", "F"), ("ADP3", "K")):
        ship = state.ship(adp)
        assert ship.kind == "adp"
        assert ship.hex == m.locate(f"{section}@4,3")
        assert ship.velocity.speed == 3
    assert all(b.velocity.speed == 3 and b.velocity.dq > 0 for b in bodies_of(state).values())
    assert all(state.ship(h).hex.col == 49 for h in ("H1", "H2", "H3"))


def test_invasion_refuses_a_non_platform_alien() -> None:
    def edit(d: dict[str, Any]) -> None:
        d["sides"][1]["ships"][0]["design"] = "dynamo"

    with pytest.raises(ScenarioError, match=r"special\.alien_side: the engine flies only defence platforms \(ADP1"):
        new_game("vv5-invasion", edit=edit)


def test_bodies_move_along_their_vector_then_shift() -> None:
    state = invasion_state()
    before = bodies_of(state)
    # One shift die per body, in file order (1G, 2G, 3G): directions A, D, B.
    out = Invasion().before_movement(state, LoadedDice(1, 4, 2), [])
    after = bodies_of(out)
    for name, d in (("1G", Direction.A), ("2G", Direction.D), ("3G", Direction.B)):
        b = before[name]
        aim = b.hex.shifted(b.velocity.dq, b.velocity.dr)
        assert after[name].hex == aim.neighbour(d)
        assert out.map.terrain_at(after[name].hex) == f"dense-{b.gravity}"
        assert out.map.terrain_at(b.hex) is None  # the old hex is clear
        assert after[name].velocity == b.velocity


def test_bodies_hold_course_without_the_shift_option() -> None:
    state = invasion_state(invasion_bodies_shift=False)
    out = Invasion().before_movement(state, LoadedDice(), [])
    for name, b in bodies_of(state).items():
        assert bodies_of(out)[name].hex == b.hex.shifted(b.velocity.dq, b.velocity.dr)


def test_a_body_leaving_by_the_right_edge_is_counted() -> None:
    state = invasion_state(invasion_bodies_shift=False)
    assert isinstance(state.special, InvasionState)
    edge = state.map.locate("J@9,3")
    bodies = tuple(replace(b, hex=edge) if b.name == "1G" else b for b in state.special.bodies)
    state = replace(state, special=replace(state.special, bodies=bodies))
    out = Invasion().before_movement(state, LoadedDice(), [])
    assert bodies_of(out)["1G"].status == "exited"
    assert bodies_of(out)["1G"].edge == "right"
    assert "dense-1" not in {k for _, k in out.map.terrain}


def test_a_ship_where_a_body_arrives_is_destroyed() -> None:
    state = invasion_state(invasion_bodies_shift=False)
    body = bodies_of(state)["1G"]
    target = body.hex.shifted(body.velocity.dq, body.velocity.dr)
    state = state.with_ship(replace(state.ship("H1"), hex=target, velocity=Velocity()))
    plots = {"humans": system.parse_order(state, "humans", "H1 0; H2 0; H3 0")}
    out, _ = system.resolve(state, plots, Dice(3))
    assert out.ship("H1").status == "crashed"
    assert out.ship("H2").active


def test_each_lost_platform_removes_one_random_body_once() -> None:
    state = invasion_state()
    state = state.with_ship(replace(state.ship("ADP2"), status="destroyed"))
    # 3 bodies on board: a 5 picks the third (1-2, 3-4, 5-6).
    out = Invasion().boarding(state, LoadedDice(5), [])
    assert [b.status for b in bodies_of(out).values()] == ["on-board", "on-board", "removed"]
    assert out.map.terrain_at(out.map.locate("L@4,3")) is None
    assert Invasion().boarding(out, LoadedDice(), []) == out  # already paid for
    out = out.with_ship(replace(out.ship("ADP1"), status="crashed"))
    out = Invasion().boarding(out, LoadedDice(1), [])  # 2 left: 1-3 the first
    assert [b.status for b in bodies_of(out).values()] == ["removed", "on-board", "removed"]


def test_platforms_move_on_their_vector_and_a_dead_engine_stops_the_shift() -> None:
    state = invasion_state()
    adp = state.ship("ADP1")
    dead = replace(state.ship("ADP2"), acceleration=replace(state.ship("ADP2").acceleration, boxes=0))
    state = state.with_ship(dead)
    moved_state = move_ships(state, {s.id: Manoeuvre(()) for s in state.ships}, Dice(1), [])
    dice = LoadedDice(4, 1)  # ADP1 shifts D, ADP3 shifts A; ADP2's dead engine rolls nothing
    drifted = platforms_drift(moved_state, dice, [])
    assert not dice.script
    assert [r.purpose for r in dice.log] == ["ADP1 random shift", "ADP3 random shift"]
    aim = adp.hex.shifted(adp.velocity.dq, adp.velocity.dr)
    assert moved_state.ship("ADP1").hex == aim
    assert moved_state.ship("ADP1").velocity == adp.velocity
    assert drifted.ship("ADP1").hex == aim.neighbour(Direction.D)
    assert drifted.ship("ADP2").hex == dead.hex.shifted(dead.velocity.dq, dead.velocity.dr)
    assert drifted.ship("ADP2").velocity == dead.velocity


def test_alone_against_the_platforms_the_flight_still_shoots() -> None:
    state = invasion_state()
    near = state.ship("ADP2").hex.neighbour(Direction.B, 3)
    state = state.with_ship(replace(state.ship("H2"), hex=near, facing=Direction.E))
    out = turn.begin_turn(state, Dice(2), [])
    assert out.phase in ("missiles", "guns")
    assert out.declare_order == ("humans",)


def test_invasion_verdicts_and_end() -> None:
    state = invasion_state()
    assert isinstance(state.special, InvasionState)
    inv = state.special

    def with_bodies(*statuses: tuple[BodyStatus, str]) -> VV5State:
        bodies = tuple(replace(b, status=s, edge=e) for b, (s, e) in zip(inv.bodies, statuses, strict=True))
        return replace(state, special=replace(inv, bodies=bodies))

    right: tuple[BodyStatus, str] = ("exited", "right")
    removed: tuple[BodyStatus, str] = ("removed", "")
    bottom: tuple[BodyStatus, str] = ("exited", "bottom")
    assert winners(Invasion().decide(with_bodies(right, right, removed), {})) == ("aliens",)
    assert winners(Invasion().decide(with_bodies(right, bottom, removed), {})) == ()
    assert winners(Invasion().decide(with_bodies(bottom, removed, removed), {})) == ("humans",)
    assert Invasion().game_over(with_bodies(bottom, removed, removed)) is not None
    assert Invasion().game_over(state) is None
    # The flight is gone: the bodies still out there get through.
    flightless = with_bodies(right, ("on-board", ""), removed)
    for h in ("H1", "H2", "H3", "H4"):
        flightless = flightless.with_ship(replace(flightless.ship(h), status="destroyed"))
    assert winners(Invasion().decide(flightless, {})) == ("aliens",)


# -- bots ------------------------------------------------------------------------------


def test_greedy_beats_random_in_pirates_from_both_sides() -> None:
    scenario = builtin_scenario("vv5-pirates")
    greedy_pirate = simulate(scenario, {"pirate": "greedy", "interceptors": "random"}, 12)
    random_pirate = simulate(scenario, {"pirate": "random", "interceptors": "random"}, 12)
    greedy_hunters = simulate(scenario, {"pirate": "random", "interceptors": "greedy"}, 12)
    assert greedy_pirate.wins["pirate"] > random_pirate.wins["pirate"]
    assert greedy_hunters.wins["interceptors"] > random_pirate.wins["interceptors"]


def test_greedy_beats_random_in_invasion() -> None:
    scenario = builtin_scenario("vv5-invasion")
    greedy = simulate(scenario, {"humans": "greedy", "aliens": "random"}, 12)
    rand = simulate(scenario, {"humans": "random", "aliens": "random"}, 12)
    assert greedy.wins["aliens"] < rand.wins["aliens"]
