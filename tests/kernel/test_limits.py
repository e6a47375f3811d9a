"""Bounds before work: a number beyond its field's limit is refused, naming the field and the limit, before
anything is built from it (issue 15). The costs of these refusals are figures in benchmarks/run.py."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar import limits
from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.errors import IllegalOrderError, OrderLimitError, OrderSyntaxError, SaveFileError, ScenarioError
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.savefile import game_from_data, game_to_data
from vectorwar.scenario import scenario_from_data, scenario_from_toml
from vectorwar.systems.vv5.orders import Gunfire, Launches, Manoeuvre

#: The four attacks of issue 15, as (scenario, side, order): each used to cost seconds or gigabytes.
ATTACKS = [
    ("msc-duel", "red", "Hawk 99999999", "the move's steps", limits.MAX_MOVE_STEPS),
    ("vms-capital-duel-msc", "red", "Tern aft1:A=4 port1:rot=3 R99999999", "rotation", limits.MAX_ROTATION),
]


def new_game(scenario: str, seed: int = 1) -> Game:
    sc = builtin_scenario(scenario)
    return Game.new(get_system(sc.system), sc, seed)


def scenario_text(scenario: str) -> str:
    return scenario_paths()[scenario].read_text()


@pytest.mark.parametrize(("scenario", "side", "text", "field", "limit"), ATTACKS)
def test_an_order_with_a_huge_number_is_refused_naming_field_and_limit(
    scenario: str, side: str, text: str, field: str, limit: int
) -> None:
    game = new_game(scenario)
    before = game_to_data(game)
    with pytest.raises(OrderLimitError) as err:
        game.check(side, text)
    assert err.value.limit == limit
    assert field in err.value.field
    assert f"above the limit of {limit}" in str(err.value)
    assert limits.cite(limit) in str(err.value)
    with pytest.raises(OrderLimitError):
        game.submit(side, text)
    assert game_to_data(game) == before


def test_a_number_just_under_the_limit_reaches_the_rules_which_cite_themselves() -> None:
    game = new_game("msc-duel")
    with pytest.raises(IllegalOrderError, match="ENGINE"):
        game.check("red", f"Hawk {limits.MAX_MOVE_STEPS}")
    with pytest.raises(OrderLimitError):
        game.check("red", f"Hawk {limits.MAX_MOVE_STEPS}L1")  # 62 steps in all


def test_a_scenario_velocity_beyond_the_limit_is_refused_when_the_file_is_read() -> None:
    text = scenario_text("vms-capital-duel-msc").replace('velocity = "A=1"', 'velocity = "B=99999999999"')
    with pytest.raises(ScenarioError) as err:
        scenario_from_toml(text, "uploaded", "attack")
    message = str(err.value)
    assert "sides.0.ships.0.velocity" in message
    assert "99999999999 is above the limit of" in message
    assert "MAX_VELOCITY" in message


@pytest.mark.parametrize(
    ("change", "key", "limit"),
    [
        (lambda d: d["sides"][0]["ships"][0].update(velocity="B=61"), "velocity", limits.MAX_VELOCITY),
        (lambda d: d["sides"][0]["ships"][0].update(velocity="up=61"), "velocity", limits.MAX_CLIMB),
        (lambda d: d["sides"][0]["ships"][0].update(velocity="A=" + "9" * 100), "velocity", limits.MAX_VELOCITY_TERM),
        (lambda d: d["sides"][0]["ships"][0].update(speed=10**12), "speed", limits.MAX_VELOCITY),
        (lambda d: d["sides"][0]["ships"][0].update(altitude=-(10**9)), "altitude", limits.MAX_ALTITUDE),
        (lambda d: d.update(max_turns=10**9), "max_turns", limits.MAX_TURNS),
        (lambda d: d["map"].update(width=10**9), "map.width", limits.MAX_MAP_SIDE),
        (lambda d: d["map"].update(width=200, height=201), "map.height", limits.MAX_MAP_SIDE),
        (lambda d: d["map"].update(width=200, height=200, grid=["A B"]), "map", limits.MAX_MAP_HEXES),
        (lambda d: d["sides"][0]["ships"][0].update(loadout=["x"] * 33), "loadout", limits.MAX_LOADOUT),
    ],
)
def test_every_scenario_number_has_a_limit(change: Callable[[dict[str, Any]], object], key: str, limit: int) -> None:
    data = builtin_scenario("vms-capital-duel-msc").to_data()
    change(data)
    with pytest.raises(ScenarioError) as err:
        scenario_from_data(data, "uploaded")
    assert key in str(err.value)
    assert str(limit) in str(err.value)


def test_a_scenario_with_more_ships_than_the_limit_is_refused() -> None:
    data = builtin_scenario("msc-duel").to_data()
    ship = data["sides"][0]["ships"][0]
    data["sides"][0]["ships"] = [{**ship, "id": f"S{i}"} for i in range(limits.MAX_SHIPS)]
    with pytest.raises(ScenarioError, match=f"{limits.MAX_SHIPS + 1} ships is above the limit"):
        scenario_from_data(data, "uploaded")


def test_vms_designs_of_a_scenario_have_limits() -> None:
    data = builtin_scenario("vms-capital-duel-msc").to_data()
    design = {
        "name": "Huge",
        "ship_class": "capital",
        "thrust": 500,
        "accel_cost": 1,
        "pivot_cost": "1+1",
        "thrusters": [{"side": s, "rating": 1} for s in ("forward", "aft", "port", "starboard")],
    }
    data["designs"] = {"huge": design}
    data["sides"][0]["ships"][0]["design"] = "huge"
    sc = scenario_from_data(data, "uploaded")
    with pytest.raises(ScenarioError, match=f"less than or equal to {limits.MAX_DESIGN_NUMBER}"):
        Game.new(get_system("vms"), sc, 1)
    data["designs"]["huge"] = {**design, "thrust": 10, "pivot_cost": "1+99999999"}
    sc = scenario_from_data(data, "uploaded")
    with pytest.raises(ScenarioError, match=f"limit of {limits.MAX_DESIGN_NUMBER}"):
        Game.new(get_system("vms"), sc, 1)


VV5_OWN = {"x1": "X1", "x2": "X2"}
VV5_TARGETS = {"y1": "Y1", "y2": "Y2"}


@pytest.mark.parametrize(
    ("read", "field", "limit"),
    [
        (lambda: Manoeuvre.parse("99999999"), "G of thrust", limits.MAX_MOVE_STEPS),
        (lambda: Manoeuvre.parse("R" * 61), "G and turns", limits.MAX_MOVE_STEPS),
        (lambda: Launches.parse("X1 99999999>Y1", VV5_OWN, VV5_TARGETS), "missiles", limits.MAX_WEAPONS),
        (lambda: Gunfire.parse("X1 fwd*99999999>Y1", VV5_OWN, VV5_TARGETS, {}), "guns", limits.MAX_WEAPONS),
        (
            lambda: Gunfire.parse("X1 " + "fwd*1>Y1 " * 65, VV5_OWN, VV5_TARGETS, {}),
            "shots by X1",
            limits.MAX_PIECES_PER_SHIP,
        ),
        (
            lambda: Launches.parse("X1 " + "1>Y1 " * 65, VV5_OWN, VV5_TARGETS),
            "launches by X1",
            limits.MAX_PIECES_PER_SHIP,
        ),
    ],
)
def test_vv5_orders_have_limits(read: Callable[[], object], field: str, limit: int) -> None:
    with pytest.raises(OrderLimitError) as err:
        read()
    assert field in err.value.field
    assert err.value.limit == limit


@pytest.mark.parametrize(
    ("text", "field", "limit"),
    [
        ("Rafik thrust 99999999", "thrust", limits.MAX_THRUST_POINTS),
        ("Rafik roll stbd 99999999", "roll steps", 12),
        ("Rafik pivot " + "A" * 1000, "window", 24),
        ("Rafik fire " + "A1>Square " * 65, "shots by Rafik", limits.MAX_PIECES_PER_SHIP),
    ],
)
def test_avt_orders_have_limits(text: str, field: str, limit: int) -> None:
    game = new_game("avt-drift")
    with pytest.raises(OrderLimitError) as err:
        game.check("blue", text)
    assert field in err.value.field
    assert err.value.limit == limit


def test_an_order_longer_than_the_limit_is_refused_before_any_system_reads_it() -> None:
    game = new_game("msc-duel")
    with pytest.raises(OrderLimitError, match="MAX_ORDER_CHARS"):
        game.check("red", "Hawk 1; " * 1000)


# -- properties: any integer in a numeric field parses or raises the documented error -------------------------

NUMBERS = st.one_of(st.integers(min_value=0, max_value=200), st.integers(min_value=0, max_value=10**40))

ORDER_FIELDS = [
    ("msc-duel", "red", "Hawk {n}"),
    ("msc-duel", "red", "Hawk 1L{n}"),
    ("vms-capital-duel-msc", "red", "Tern aft1:A={n}"),
    ("vms-capital-duel-msc", "red", "Tern port1:rot={n} R{n}"),
    ("vms-capital-duel-msc", "red", "Tern flat:L{n}"),
    ("vv5-dogfight", "red", "X1 R{n}"),
    ("vv5-dogfight", "red", "X1 {n} {n}"),
    ("avt-drift", "blue", "Rafik thrust {n}"),
    ("avt-drift", "blue", "Rafik roll port {n}"),
]


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(ORDER_FIELDS), n=NUMBERS)
def test_any_integer_in_an_order_parses_or_raises_the_documented_error(case: tuple[str, str, str], n: int) -> None:
    scenario, side, template = case
    game = _GAMES.setdefault(scenario, new_game(scenario))
    refused: OrderLimitError | None = None
    try:
        game.check(side, template.format(n=n))
    except OrderLimitError as err:
        refused = err
    except (OrderSyntaxError, IllegalOrderError):
        pass
    # Refused on its limits only when a number (or the steps it adds up to) is above one.
    if refused is not None:
        assert refused.limit < n or "steps" in refused.field or "turns" in refused.field
        assert str(refused.limit) in str(refused)
    if n > 10**4:
        assert refused is not None


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=-(10**40), max_value=10**40), field=st.sampled_from(["speed", "altitude", "max_turns"]))
def test_any_integer_in_a_scenario_is_accepted_or_refused_as_a_scenario_error(n: int, field: str) -> None:
    data = builtin_scenario("vms-capital-duel-msc").to_data()
    if field == "max_turns":
        data["max_turns"] = n
    else:
        data["sides"][0]["ships"][0][field] = n
    refusal = ""
    try:
        scenario_from_data(data, "uploaded")
    except ScenarioError as err:
        refusal = str(err)
    assert (field in refusal) == (refusal != "")


@settings(max_examples=40, deadline=None)
@given(n=NUMBERS, direction=st.sampled_from("ABCDEF"))
def test_any_scenario_velocity_is_accepted_within_the_limit_and_refused_beyond(n: int, direction: str) -> None:
    data = builtin_scenario("vms-capital-duel-msc").to_data()
    data["sides"][0]["ships"][0]["velocity"] = f"{direction}={n}"
    if n <= limits.MAX_VELOCITY:
        assert scenario_from_data(data, "uploaded").sides[0].ships[0].velocity == f"{direction}={n}"
    else:
        with pytest.raises(ScenarioError, match="velocity"):
            scenario_from_data(data, "uploaded")


_GAMES: dict[str, Game] = {}


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda d: d.update(seed=2**300), "seed"),
        (lambda d: d.update(seed="7"), "seed"),
        (lambda d: d.update(history=[{}] * (limits.MAX_HISTORY + 1)), "history"),
        (lambda d: d.update(pending={f"s{i}": "x" for i in range(9)}), "pending"),
        (lambda d: d["scenario"].update(max_turns=10**9), "max_turns"),
    ],
)
def test_a_save_file_is_checked_against_the_limits_before_it_is_replayed(
    change: Callable[[dict[str, Any]], object], key: str
) -> None:
    data = game_to_data(new_game("msc-duel"))
    change(data)
    with pytest.raises(SaveFileError, match=key):
        game_from_data(data)


def test_vv5_purchases_and_equipment_tags_have_limits() -> None:
    from vectorwar.systems.vv5.buying import Buy

    with pytest.raises(OrderLimitError, match="VV5 Scenario 1"):
        Buy.parse("buy 99999999 harpy")
    data = builtin_scenario("vv5-dogfight").to_data()
    data["sides"][0]["ships"][0]["loadout"] = ["bombs:" + "9" * 5000]
    with pytest.raises(ScenarioError, match=f"loadout.0: String should have at most {limits.MAX_TAG_CHARS}"):
        scenario_from_data(data, "uploaded")
    purchase = builtin_scenario("vv5-dogfight-purchase").to_data()
    start = next(iter(purchase["setup"]["purchase"]["start"].values()))
    start["velocity"] = "C=99999999"
    sc = scenario_from_data(purchase, "uploaded")
    with pytest.raises(ScenarioError, match="velocity"):
        Game.new(get_system("vv5"), sc, 1)


def test_the_vms_menu_of_a_design_at_the_limits_stays_short_and_larger_plots_can_be_typed() -> None:
    """docs/rulings/vms.md, *VMS plot menu of a large design*: thrust 99 at accel cost 1 used to offer ~59,000 plots."""
    from vectorwar.scene import build_scene
    from vectorwar.systems.vms.planner import MENU_MOST_HEXES

    data = builtin_scenario("vms-capital-duel-msc").to_data()
    sides = ("forward", "aft", "port", "starboard")
    data["designs"] = {
        "huge": {
            "name": "Huge",
            "ship_class": "capital",
            "thrust": limits.MAX_DESIGN_NUMBER,
            "accel_cost": 1,
            "pivot_cost": f"{limits.MAX_DESIGN_NUMBER}+{limits.MAX_DESIGN_NUMBER}",
            "thrusters": [{"side": s, "rating": limits.MAX_DESIGN_NUMBER} for s in sides],
            "combat": {"msc": {"engine": 3, "shields": 3, "to_hit": 3}},
        }
    }
    data["sides"][0]["ships"][0]["design"] = "huge"
    data["options"]["vms_advanced_rotation"] = True
    game = Game.new(get_system("vms"), scenario_from_data(data, "uploaded"), 1)
    offered = build_scene(game, ["red"])["move_options"]["Tern"]
    assert 0 < len(offered) < 1000
    assert "Tern aft1:A=20" not in {o["text"] for o in offered}
    assert max(int(b.split("=")[1]) for o in offered for b in o["text"].split() if ":A=" in b) == MENU_MOST_HEXES
    assert str(game.check("red", "Tern aft1:A=20")) == "Tern aft1:A=20"


def test_every_number_in_a_scenarios_own_designs_and_tables_has_a_limit_whatever_the_system() -> None:
    """An AV:T design of thrust 100,000 took 16 s to draw its ghosts; it is refused when the file is read."""
    data = builtin_scenario("avt-drift").to_data()
    data["designs"] = {"huge": {"thrust": 100_000}}
    with pytest.raises(ScenarioError, match=f"huge.thrust: 100000 is above the limit of {limits.MAX_TABLE_NUMBER}"):
        scenario_from_data(data, "uploaded")
    data["designs"] = {"long": {"arc": ["1"] * (limits.MAX_TABLE_ITEMS + 1)}}
    with pytest.raises(ScenarioError, match=r"long\.arc"):
        scenario_from_data(data, "uploaded")
    nested: list[object] = []
    for _ in range(40):
        nested = [nested]
    data["designs"] = {}
    data["special"] = {"deep": nested}
    with pytest.raises(ScenarioError, match="MAX_TABLE_DEPTH"):
        scenario_from_data(data, "uploaded")


def test_a_scenario_file_nested_past_what_toml_can_read_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError, match="nested too deeply"):
        scenario_from_toml("a = " + "[" * 5000 + "]" * 5000, "uploaded", "deep")


@pytest.mark.parametrize(
    "deep",
    [
        "x" + ".x" * 20_000 + " = 1",  # 40 KB: tomllib took seconds over it (issue 56)
        "[" + ".".join(["t"] * 40) + "]",
        'a = {"b c"' + ' . "b c"' * 30 + " = 1}",
        "title = 'x'\n" + "'q'." * 17 + "k = 2",
    ],
)
def test_a_toml_key_nested_past_the_table_depth_is_refused_before_it_is_parsed(
    deep: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(_text: str) -> None:
        raise AssertionError("parsed")

    monkeypatch.setattr(tomllib, "loads", never)
    with pytest.raises(
        ScenarioError, match=r"line \d+: a key nested more than 16 deep \(vectorwar limit MAX_TABLE_DEPTH\)"
    ):
        scenario_from_toml(deep, "uploaded", "deep")


def test_keys_as_deep_as_the_table_depth_allows_and_dotted_numbers_still_read() -> None:
    text = "k" + ".k" * (limits.MAX_TABLE_DEPTH - 1) + ' = "1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18"\nv = 1.5'
    with pytest.raises(ScenarioError) as err:
        scenario_from_toml(text, "uploaded", "ok")
    assert "nested" not in str(err.value)  # parsed, then refused as no scenario (no system, no sides)


@settings(max_examples=60, deadline=None)
@given(n=NUMBERS, which=st.sampled_from(["launch", "guns"]))
def test_any_count_of_vv5_missiles_or_guns_parses_or_raises_order_limit_error(n: int, which: str) -> None:
    text = f"X1 {n}>Y1" if which == "launch" else f"X1 fwd*{n}>Y1"
    if n > limits.MAX_WEAPONS:
        with pytest.raises(OrderLimitError) as err:
            Launches.parse(text, VV5_OWN, VV5_TARGETS) if which == "launch" else Gunfire.parse(
                text, VV5_OWN, VV5_TARGETS, {}
            )
        assert err.value.limit == limits.MAX_WEAPONS
    elif which == "launch":
        assert Launches.parse(text, VV5_OWN, VV5_TARGETS).launches[0].missiles == n
    else:
        assert Gunfire.parse(text, VV5_OWN, VV5_TARGETS, {}).shots[0].guns == n
