"""The SSD on the AV:T ship card and the damage allocation in the log (issue 14, front ends).

After a scripted allocation the card shows exactly the boxes marked, what
damage left of each capacity, the Structural Integrity track, repair teams,
the window marked "I", each laser's state and timer, and the armour diagram;
the log writes each allocation step in the text's columns.
"""

from __future__ import annotations

from dataclasses import replace

from rich.console import Console

from tests.support.dice import LoadedDice
from vectorwar.catalogue import builtin_scenario
from vectorwar.cli.screen import event_lines, game_screen
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.systems.avt.damage import allocate
from vectorwar.systems.avt.display import structure_text
from vectorwar.systems.avt.events import AllocationRow, DamageStruck, ShipDestroyed
from vectorwar.systems.avt.state import AVTState

from .helpers import AVT, with_ship
from .test_damage import design, seventy_one, seventy_one_dice, ship


def card_rows(state: AVTState, ship_id: str) -> list[tuple[str, str]]:
    (found,) = [c for c in AVT.ship_cards(state) if c.title.split(":")[0] == ship_id]
    return list(found.rows)


def card(state: AVTState, ship_id: str) -> dict[str, str]:
    return dict(card_rows(state, ship_id))


def boxes_marked(state: AVTState, ship_id: str) -> str:
    """The "boxes marked" row and the unlabelled rows that carry its list on, as one text."""
    rows = card_rows(state, ship_id)
    start = next(i for i, (label, _) in enumerate(rows) if label == "boxes marked")
    parts = [rows[start][1]]
    for label, value in rows[start + 1 :]:
        if label:
            break
        parts.append(value)
    return " ".join(parts)


def damage_game() -> Game:
    """Sample game four (A5.4): the blue Rafik four hexes off the red one's nose."""
    return Game.new(AVT, builtin_scenario("avt-damage"), seed=3)


def after_seventy_one(game: Game) -> Game:
    """The red Rafik takes the text's 71-point table (A5.46 example), roll for roll, in the game."""
    red = replace(game.state.ship("Red"), battery=16)
    events: list[Event] = []
    after = allocate(red, design(), 71, "nose-bottom", seventy_one_dice(), events)
    game.state = game.state.with_ship(after)
    return game


def test_an_untouched_rafiks_card_shows_its_ssd_undamaged() -> None:
    rows = card(damage_game().state, "Red")
    assert rows["battery"] == "22/22"
    assert rows["reactors"] == "on, +3 a segment"
    assert rows["heat stored"] == "0/15"
    assert rows["radiators"] == "in, 1.2 a turn when out"
    assert rows["SI track"] == "0/12 hit, next octagon 2 at box 4"
    assert rows["boxes marked"] == "none"
    assert rows["repair teams"] == "3 free"
    assert rows["incoming (I)"] == "none"
    assert rows["lasers ready"] == "A1 A2 B1 C1 D1 E1 F1 G1"
    assert "cooling" not in rows


def test_the_armour_diagram_is_one_row_per_face_with_its_four_regions() -> None:
    rows = card(damage_game().state, "Red")
    armour = {label: value for label, value in rows.items() if label.startswith("armour ")}
    # The Rafik's data (A5.442 and the 71-point example give nose-top 4, nose-bottom 4, nose-port 5).
    assert armour == {
        "armour nose": "5 [top 4, bottom 4, port 5, stbd 5]",
        "armour aft": "3 [top 3, bottom 3, port 3, stbd 3]",
        "armour port": "4 [top 4, bottom 4, nose 4, aft 4]",
        "armour stbd": "4 [top 4, bottom 4, nose 4, aft 4]",
        "armour top": "3 [nose 3, aft 3, port 3, stbd 3]",
        "armour bottom": "3 [nose 3, aft 3, port 3, stbd 3]",
    }


def test_after_the_71_point_table_the_card_shows_exactly_the_boxes_marked() -> None:
    state = after_seventy_one(damage_game()).state
    rows = card(state, "Red")
    # Every system the table marked, with its boxes: 3 Quarters, 3 Cargo, a Reactor (the second roll
    # exceeded the damage left), an empty Battery, a Heat Sink, a fuel column, the sensors ...
    assert boxes_marked(state, "Red") == (
        "batteries 1/6, bridge 1/3, cargo 3/6, delta 1/1, electronics 1/4 (sensors), epsilon 1/1, "
        "fuel columns 1/30, heat sinks 1/5, life support 1/2, quarters 3/6, reactors 1/4"
    )
    # ... four Structural Integrity hits, the 4th the octagon of 2 it survived; the next octagon is 3.
    assert rows["SI track"] == "4/12 hit, next octagon 3 at box 7"
    # Both lasers of mount A took their first hit (a box); the next is the pentagon of 3 (A5.47).
    assert rows["lasers ready"] == "B1 C1 D1 E1 F1 G1"
    assert rows["A1"] == "damaged, next pentagon 3"
    assert rows["A2"] == "damaged, next pentagon 3"
    # What damage left of each capacity against the undamaged figure (A5.452).
    assert rows["battery"] == "16/18 (capacity 18 of 22)"
    assert rows["heat stored"] == "0/12 (capacity 12 of 15)"
    assert rows["reactors"] == "on, +2 a segment (of 3, heat still 3 a turn)"
    assert rows["fuel"] == "101/105 (4 lost with tanks)"
    # Quarters boxes 1 and 3 held wrenches: two damage control parties gone, one left (A5.456).
    assert rows["repair teams"] == "1 free, 2 lost"


def test_a_long_list_of_boxes_goes_on_in_unlabelled_rows_of_readable_width() -> None:
    state = after_seventy_one(damage_game()).state
    rows = card_rows(state, "Red")
    start = [label for label, _ in rows].index("boxes marked")
    listed = rows[start : start + 4]
    assert [label for label, _ in listed] == ["boxes marked", "", "", ""]
    assert all(len(value) <= 45 for _, value in listed)
    assert all(value.endswith(",") for _, value in listed[:-1])


def test_a_repair_team_at_work_shows_on_the_card() -> None:
    game = after_seventy_one(damage_game())
    game.submit("blue", "hold")
    game.submit("red", "Red repair reactors")
    rows = card(game.state, "Red")
    # Two turns from turn 1: rolled at the turn break before turn 3 (A5.48).
    assert rows["repair teams"] == "0 free, at work: reactors (rolls before turn 3), 2 lost"


def test_a_fired_laser_shows_its_cooling_and_the_target_its_incoming_window() -> None:
    game = damage_game()
    game.submit("blue", "Blue fire A1>Red A2>Red")
    game.submit("red", "hold")
    blue, red = card(game.state, "Blue"), card(game.state, "Red")
    # 3(+5): fired in segment 1, ready again in segment 6 (A5.371).
    assert blue["A1"] == blue["A2"] == "cooling, ready turn 1 segment 6"
    assert blue["lasers ready"] == "B1 C1 D1 E1 F1 G1"
    assert blue["battery"] == "19/22"  # 6 spent, 3 back from the reactors
    # Bearings are reciprocal: the blue ship below D sees red, red marks "I" in A upper blue (A5.42).
    assert red["incoming (I)"] == "A+"


def test_a_destroyed_laser_and_a_damaged_one_cooling() -> None:
    game = damage_game()
    with_ship(game, "Blue", marks=(("laser A2", 1), ("laser C1", 3)))
    game.submit("blue", "Blue fire A2>Red")
    game.submit("red", "hold")
    rows = card(game.state, "Blue")
    assert rows["C1"] == "destroyed"
    assert rows["lasers ready"] == "A1 B1 D1 E1 F1 G1"
    # A damaged laser fired rolls for its pentagon (A5.47): either it held, or the 3 is marked and the 6 is next.
    assert rows["A2"] in (
        "damaged, next pentagon 3; cooling, ready turn 1 segment 6",
        "damaged, next pentagon 6; cooling, ready turn 1 segment 6",
    )


def test_engine_radiator_and_reactor_damage_show_where_they_act() -> None:
    game = damage_game()
    with_ship(game, "Red", marks=(("radiators", 1), ("reactors", 3), ("thrust", 1)))
    rows = card(game.state, "Red")
    # The X box: no power, but the same heat (A5.452).
    assert rows["reactors"] == "on, no power (X box, heat still 3 a turn)"
    assert rows["radiators"] == "in, 0.8 a turn when out (of 1.2)"
    assert rows["thrust matrix"] == "row 1 of 1: max 4 (5 less 1 thrust box marked)"
    assert boxes_marked(game.state, "Red") == "radiators 1/3, reactors 3/4, thrust 1/5"
    with_ship(game, "Red", reactors_on=False, reactors_next=True)
    assert card(game.state, "Red")["reactors"] == "off (on next turn)"


def test_the_structure_track_with_no_octagon_left() -> None:
    ssd = design().ssd
    assert ssd is not None
    short = ssd.model_copy(update={"structure": [2, 0]})
    assert structure_text(short, ship().with_marks("structure", 1)) == "1/2 hit, no octagon left"
    assert structure_text(short, ship()) == "0/2 hit, next octagon 2 at box 1"


# -- the log -----------------------------------------------------------------------------------------


def test_the_log_writes_the_71_point_table_in_the_texts_columns() -> None:
    _, events = seventy_one()
    lines = [e.describe() for e in events if isinstance(e, AllocationRow)]
    # Damage left, location roll (the text's NA for the skin), system, armour, soak, notes.
    assert lines[0] == (
        "X: 71 left | -             | skin (nose-bottom)   | armour 4 | soak 4 | "
        "Initial Soak; Core at <= 33 points left"
    )
    assert lines[3] == (
        "X: 54 left | nose d10 10   | Mount A              | armour 2 | soak 2 | A1 (3 MRLS) 1st hit on die roll of 2"
    )
    assert lines[5] == "X: 50 left | nose d10 3    | Quarters             | armour 0 | soak 1"
    assert lines[16] == "X:  8 left | core d10 10   | Structural Integrity | armour 0 | soak 1 | 3rd Struct. Int. hit"
    assert lines[17].endswith("sensors hit (the defender's choice); Transition to Aft")
    assert (
        lines[-1] == "X:  2 left | aft d10 7     | Reactors             | armour 2 | soak 2 | Exceeds damage left, END"
    )
    # One pool's rows line up: every column starts at the same place.
    for column in (" | armour", " | soak"):
        assert len({line.index(column) for line in lines}) == 1


def test_armour_that_stops_everything_needs_no_soak_roll() -> None:
    events: list[Event] = []
    allocate(ship(), design(), 3, "nose", LoadedDice(), events)
    (row,) = [e for e in events if isinstance(e, AllocationRow)]
    assert (
        row.describe()
        == "X:  3 left | -             | skin (nose)          | armour 5 | no soak | the armour stops it all"
    )


def test_a_destroyed_ship_is_logged_with_the_octagon_roll() -> None:
    _, events = seventy_one(survival=1)
    (gone,) = [e for e in events if isinstance(e, ShipDestroyed)]
    assert gone.describe() == "X is destroyed: Structural Integrity octagon 2, rolled 1"


def test_the_struck_line_names_the_window_marked_i_and_the_region() -> None:
    game = damage_game()
    game.submit("blue", "Blue fire A1>Red A2>Red")
    events = game.submit("red", "hold")
    (struck,) = [e for e in events if isinstance(e, DamageStruck)]
    assert struck.describe() == (
        f'Red marks "I" in A+: {struck.points} damage from Blue A1+A2 strikes its nose-top region '
        "(a boundary: the attacker's choice of nose-top or nose-port)"
    )


# -- the terminal ------------------------------------------------------------------------------------


def test_the_terminal_shows_the_card_rows_and_the_allocation_lines() -> None:
    game = damage_game()
    game.submit("blue", "Blue fire A1>Red A2>Red")
    events = game.submit("red", "hold")
    console = Console(record=True, width=220, color_system=None)
    console.print(game_screen(game))
    for line in event_lines(events):
        console.print(line)
    text = console.export_text()
    for label in ("SI track", "boxes marked", "repair teams", "incoming (I)", "lasers ready", "armour nose"):
        assert label in text
    assert "A1              cooling, ready turn 1 segment 6" in text
    allocation = [line for line in text.splitlines() if line.startswith("  Red: ") and " left | " in line]
    assert allocation
    assert len({line.index(" | armour") for line in allocation}) == 1
