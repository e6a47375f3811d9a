"""VV5 rule paragraphs that docs/rules/vv5.md maps to code and had no test of their own."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from pydantic import ValidationError

from tests.support import docs_check
from tests.support.docs_check import ROOT, RULING_LINK, RULINGS, citation_pattern, has, missing_tests, rulings_of
from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.hexes import Hex
from vectorwar.registry import get_system
from vectorwar.systems.vv5.combat import damage_point
from vectorwar.systems.vv5.design import Design
from vectorwar.systems.vv5.movement import check_manoeuvre
from vectorwar.systems.vv5.orders import Gunfire, Launches, Manoeuvre, Shot
from vectorwar.systems.vv5.purchase import roll_budget
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import Box, VV5State

from .conftest import GUNSHIP, LoadedDice, make_ship, make_state

HARPY = system.designs()["harpy"]


def _launch(state: VV5State, text: str) -> None:
    order = Launches.parse(text, {"x1": "X1"}, {"y1": "Y1"})
    system.check_order(state, "red", order)


def test_launch_missiles_only_into_the_forward_arc_up_to_15_hexes() -> None:
    """Launch Missiles: a target must be in the forward arc and within the table's 15 hexes."""
    shooter = make_ship("X1", "red", at="10,20", facing="A", design=HARPY)
    for at, ok in (("10,5", True), ("10,4", False), ("10,24", False), ("14,18", True)):
        target = make_ship("Y1", "blue", at=at, facing="A")
        state = make_state(shooter, target, phase="missiles", declare_order=("red", "blue"))
        if ok:
            _launch(state, "X1 1>Y1")
        else:
            with pytest.raises(IllegalOrderError, match=r"forward arc|missiles reach 15"):
                _launch(state, "X1 1>Y1")


def test_launch_missiles_no_more_than_the_launchers_left() -> None:
    """Launch Missiles: one missile per launcher; spent ones cannot fire again."""
    shooter = replace(
        make_ship("X1", "red", at="10,10", facing="A", design=HARPY), launchers=("spent",) * 3 + ("ready",)
    )
    target = make_ship("Y1", "blue", at="10,6", facing="A")
    state = make_state(shooter, target, phase="missiles", declare_order=("red", "blue"))
    _launch(state, "X1 1>Y1")
    with pytest.raises(IllegalOrderError, match="1 missile"):
        _launch(state, "X1 2>Y1")


def test_guns_reach_six_hexes() -> None:
    """Gunfire: nothing beyond range 6 on the gun table."""
    shooter = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    target = make_ship("Y1", "blue", at="10,3", facing="A")
    state = make_state(shooter, target, phase="guns", declare_order=("red", "blue"))
    with pytest.raises(IllegalOrderError, match="guns reach 6"):
        system.check_order(state, "red", Gunfire((Shot("X1", "forward", 1, "Y1"),)))
    system.check_order(
        make_state(shooter, replace(target, hex=Hex.parse("10,4")), phase="guns", declare_order=("red", "blue")),
        "red",
        Gunfire((Shot("X1", "forward", 1, "Y1"),)),
    )


def test_location_2_takes_a_cargo_box() -> None:
    """Damage: 2 = cargo."""
    courier = make_ship(design=system.designs()["courier"])  # 6 cargo, 2 cargo armour
    ship = courier
    for _ in range(3):
        ship = damage_point(ship, LoadedDice(2), [], "t")
    assert (ship.cargo.armour, ship.cargo.boxes) == (0, 5)
    assert ship.damage_taken == 1


def test_no_acceleration_left_means_no_thrust_but_turning_in_place() -> None:
    """Damage, 4 = Acceleration: with none left a ship may rotate but keeps its course."""
    ship = replace(make_ship(), acceleration=Box(0, 0, 3, 0))
    check_manoeuvre(ship, Manoeuvre.parse("LL"))
    with pytest.raises(IllegalOrderError, match="Acceleration is 0"):
        check_manoeuvre(ship, Manoeuvre.parse("1"))


def test_location_4_takes_an_acceleration_box() -> None:
    """Damage: 4 = acceleration."""
    ship = damage_point(make_ship(), LoadedDice(4), [], "t")
    assert ship.acceleration.boxes == 2


def test_the_dogfight_starts_on_the_left_of_f_and_the_right_of_j_closing_at_1_hex_a_turn() -> None:
    """Scenario 1: one side on the left edge of F, the other on the right edge of J, 1 hex a turn at each other."""
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), seed=0)
    state = game.state
    assert isinstance(state, VV5State)
    for side, section, col in (("red", "F", 0), ("blue", "J", 49)):
        for ship in state.ships_of(side):
            placed = state.map.section_of(ship.hex)
            assert placed is not None
            assert (placed.name, ship.hex.col) == (section, col)
            assert ship.velocity.speed == 1
            assert ship.vector_marker == ship.hex.neighbour(ship.facing)
            enemies = state.enemies_of(side)
            assert min(ship.vector_marker.distance(e.hex) for e in enemies) < min(
                ship.hex.distance(e.hex) for e in enemies
            )


def test_purchase_points_are_2d6_plus_8_doubled_for_a_larger_fight() -> None:
    """Scenario 1: 2D6 + 8 tons to spend; double for larger dogfights."""
    events: list[Event] = []
    assert roll_budget(LoadedDice(3, 4), events) == 15
    assert roll_budget(LoadedDice(3, 4), [], large=True) == 30
    assert len(events) == 1


def test_design_limits_5g_and_6_turns() -> None:
    """Starship Design: the tables stop at 5G of acceleration and 6 turns of agility."""
    Design(name="T", mass=20, acceleration=5, agility=6, check_budget=False)
    with pytest.raises(ValidationError):
        Design(name="T", mass=20, acceleration=6, check_budget=False)
    with pytest.raises(ValidationError):
        Design(name="T", mass=20, agility=7, check_budget=False)


def test_a_ship_knocked_onto_an_asteroid_is_wrecked() -> None:
    """Scenario 4: a ship shifted by a collision into a large asteroid's hex is destroyed."""
    from vectorwar.hexes import Direction
    from vectorwar.maps import HexMap
    from vectorwar.systems.vv5.movement import move_ships

    crash = Hex.parse("10,10")
    rock = crash.neighbour(Direction.C)
    sitter = make_ship("X1", "red", at=str(crash), facing="A")
    mover = make_ship("Y1", "blue", at=str(crash.neighbour(Direction.D, 2)), facing="A", velocity="A=2")
    state = make_state(sitter, mover, hex_map=HexMap.single(30, 30, ((rock, "asteroid"),)))
    after = move_ships(state, {}, LoadedDice(6, 1, 3), [])  # X1 wins; Y1 knocked C onto the rock
    assert after.ship("Y1").hex == rock
    assert after.ship("Y1").status == "crashed"
    assert after.ship("X1").active


def test_stasis_pod_sides_start_within_3_hexes_of_their_corners_at_1_hex_a_turn() -> None:
    """Scenario 4: opposing forces begin within 3 hexes of opposite corners, velocity 1."""
    from vectorwar.systems.vv5.state import PodState

    game = Game.new(get_system("vv5"), builtin_scenario("vv5-stasis-pod"), seed=0)
    state = game.state
    assert isinstance(state, VV5State)
    assert isinstance(state.special, PodState)
    corners = dict(state.special.corners)
    assert len(corners) == 2
    a, b = corners.values()
    assert a.distance(b) >= 40  # opposite corners of the board
    for side in state.sides:
        for ship in state.ships_of(side):
            assert ship.hex.distance(corners[side]) <= 3
            assert ship.velocity.speed == 1


@pytest.mark.parametrize("name", ["vv5-strike-force", "vv5-assault-force"])
def test_strike_and_assault_forces_start_on_j_and_interceptors_on_the_top_of_d(name: str) -> None:
    """Scenarios 2 and 3: crossers on the right edge of J at 1 hex a turn, interceptors on D's top edge at 2."""
    state = Game.new(get_system("vv5"), builtin_scenario(name), seed=0).state
    assert isinstance(state, VV5State)
    crossing, interceptor = state.sides
    for side, section, speed in ((crossing, "J", 1), (interceptor, "D", 2)):
        for ship in state.ships_of(side):
            placed = state.map.section_of(ship.hex)
            assert placed is not None
            assert placed.name == section
            assert ship.hex.col == 49 if section == "J" else ship.hex.row == 0
            assert ship.velocity.speed == speed


# -- the docs cite real tests and real code ------------------------------------------------

VV5_SRC = ROOT / "src" / "vectorwar" / "systems" / "vv5"
TEST_REF = citation_pattern("vv5")
CODE_REF = docs_check.CODE_REF  # rulings: `specials/x.py:f`


def _vv5_rulings() -> str:
    return rulings_of("vv5")


@pytest.mark.parametrize(
    ("doc", "base"),
    [("rules/vv5.md", "tests/vv5"), ("rulings/vv5.md", "tests")],
)
def test_every_cited_test_exists(doc: str, base: str) -> None:
    text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
    count, missing = missing_tests(text, ROOT / base, TEST_REF)
    assert count > 50
    assert not missing, f"{doc} cites tests that do not exist: {missing}"


def _resolve(module: str, name: str) -> bool:
    """``module`` is a VV5 module, or a kernel one (``vectorwar.x``, or a bare name the VV5 package lacks)."""
    tries = [module] if module.startswith("vectorwar.") else [f"vectorwar.systems.vv5.{module}", f"vectorwar.{module}"]
    return any(has(dotted, name) for dotted in tries)


# The key at the top of docs/rules/vv5.md, and a loadout tag that looks like a reference.
EXAMPLES = {("module", "name"), ("rules", "VectorV5.x"), ("bombs", "N")}


def test_every_cited_code_name_exists() -> None:
    text = (ROOT / "docs" / "rules" / "vv5.md").read_text(encoding="utf-8") + _vv5_rulings()
    refs = {m.groups() for m in CODE_REF.finditer(text)}
    code = {(module.removesuffix(".py").replace("/", "."), name) for module, name in refs} - EXAMPLES
    assert len(code) > 60
    broken = sorted(f"{m}:{n}" for m, n in code if not _resolve(m, n))
    assert not broken, f"the docs cite code that does not exist: {broken}"
    files = set(re.findall(r"`(data/[a-z0-9_/.-]+\.toml)`", text))
    assert {f for f in files if not (VV5_SRC / f).exists()} == set()


def _anchor(heading: str) -> str:
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def test_every_link_in_the_rules_map_lands_on_a_heading() -> None:
    text = (ROOT / "docs" / "rules" / "vv5.md").read_text(encoding="utf-8")
    own = {_anchor(h) for h in re.findall(r"^## (.+)$", text, re.M)}
    # A ruling is linked in its own file: (../rulings/vv5.md#vv5-arcs), (../rulings/limits.md#...).
    ruled = {(p.stem, _anchor(h)) for p in RULINGS.glob("*.md") for h in re.findall(r"^## (.+)$", p.read_text(), re.M)}
    jumps = set(re.findall(r"\]\(#([a-z0-9-]+)\)", text))
    links = set(RULING_LINK.findall(text))
    assert len(jumps) > 20
    assert len(links) > 15
    assert jumps <= own
    assert links <= ruled
