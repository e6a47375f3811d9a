"""MSC 4.0 Turn Sequence, MSC 5.0 victory, the Ship Turn Record, and the turn-level rulings."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, NotYourTurnError
from vectorwar.events import Destroyed, Event, Fired, GameOver, InitiativeSet, LeftMap, Moved, Note, Rolled, TurnBegan
from vectorwar.game import Game
from vectorwar.hexes import Hex
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.kinds import leaves_map, legal_moves
from vectorwar.systems.msc.orders import FireOrders, Move, Plot, Shot
from vectorwar.systems.msc.state import TurnEntry

from .helpers import MSC, dice_rolling, find_seed, in_fire_phase, make_scenario, new_game, state_of

FAR_APART = [("red", "Hawk", "ship1", "3,3", "A", 0), ("blue", "Raven", "ship1", "16,10", "A", 0)]


def initiative_rolls(events: list[Event]) -> list[Rolled]:
    return [e for e in events if isinstance(e, Rolled) and e.purpose.startswith("initiative")]


# -- MSC 4.0 Move Orders Phase: simultaneous secret plots -----------------------------------


def test_msc_4_0_turn_starts_with_a_simultaneous_plot_by_every_side() -> None:
    game = new_game(FAR_APART)
    prompt = game.prompt
    assert prompt is not None
    assert (prompt.kind, prompt.sides, prompt.simultaneous) == ("plot", ("red", "blue"), True)
    assert str(prompt.clock) == "turn 1, plot"
    assert [e.describe() for e in game.events] == ["--- turn 1 ---"]


def test_msc_6_0_plots_are_secret_and_replaceable_until_all_are_in() -> None:
    """A side may change its pending plot; nobody else's view ever shows it (Game.view)."""
    game = new_game(FAR_APART)

    def seen(side: str | None) -> dict[str, object]:
        view = game.view(side)
        return {k: view[k] for k in ("state", "events", "my_pending_order")}

    blue_before, spectator_before = seen("blue"), seen(None)
    assert game.submit("red", "Hawk R") == []
    assert game.waiting_for == ("blue",)
    blue_after_first = game.view("blue")
    assert game.submit("red", "Hawk 1") == []  # replaces the first plot
    assert game.view("red")["my_pending_order"] == "Hawk 1"
    assert game.view("blue") == blue_after_first  # the change is invisible to blue
    assert seen("blue") == blue_before
    assert seen(None) == spectator_before
    assert "Hawk 1" not in json.dumps(game.view("blue"))
    assert game.view("blue")["prompt"]["waiting_for"] == ["blue"]  # only that red is done is public
    events = game.submit("blue", "Raven 0")
    moves = {e.ship: e.plot for e in events if isinstance(e, Moved)}
    assert moves == {"Hawk": "1", "Raven": "0"}


def test_msc_6_0_all_ships_move_together_after_the_last_plot() -> None:
    game = new_game(FAR_APART)
    game.submit("red", "Hawk 1")
    assert game.state.ship("Hawk").hex == Hex.parse("3,3")  # nothing moves on one plot
    events = game.submit("blue", "Raven 1")
    assert [type(e) for e in events[:2]] == [Moved, Moved]
    assert (str(game.state.ship("Hawk").hex), str(game.state.ship("Raven").hex)) == ("3,2", "16,9")


def test_msc_6_0_a_plot_gives_exactly_one_move_to_each_own_ship_in_play() -> None:
    game = new_game([*FAR_APART, ("red", "Kite", "ship2", "3,6", "A", 0)])
    with pytest.raises(IllegalOrderError, match="no move for Kite"):
        game.check("red", "Hawk 1")
    with pytest.raises(IllegalOrderError, match="Hawk has two moves"):
        game.check("red", "Hawk 1; Hawk 0; Kite 0")
    sneaky = Plot((("Hawk", Move.parse("1")), ("Kite", Move.parse("0")), ("Raven", Move.parse("1"))))
    with pytest.raises(IllegalOrderError, match="Raven is not one of your ships in play"):
        game.check("red", sneaky)
    game.check("red", "Kite 0; Hawk 1")


# -- Initiative -------------------------------------------------------------------------------


def _first_faces(seed: int, n: int) -> list[int]:
    dice = Dice(seed)
    return [dice.roll("d6", "probe").total for _ in range(n)]


@pytest.mark.parametrize("red_wins", [True, False])
def test_msc_4_0_highest_initiative_roll_is_player_1(red_wins: bool) -> None:
    def fits(seed: int) -> bool:
        red, blue = _first_faces(seed, 2)
        return red > blue if red_wins else red < blue

    seed = find_seed(fits)
    game = new_game(FAR_APART, seed=seed)
    game.submit("red", "Hawk 0")
    events = game.submit("blue", "Raven 0")
    rolls = initiative_rolls(events)
    assert [r.purpose for r in rolls] == ["initiative for red", "initiative for blue"]
    assert [r.total for r in rolls] == _first_faces(seed, 2)
    order = next(e for e in events if isinstance(e, InitiativeSet)).order
    assert order == (("red", "blue") if red_wins else ("blue", "red"))


def test_msc_4_0_initiative_ties_are_rerolled() -> None:
    """A seed whose first two dice tie: the log shows the tie, then the re-roll that decides."""
    seed = find_seed(lambda s: (f := _first_faces(s, 4))[0] == f[1] and f[2] != f[3])
    first, _, red_again, blue_again = _first_faces(seed, 4)
    game = new_game(FAR_APART, seed=seed)
    game.submit("red", "Hawk 0")
    events = game.submit("blue", "Raven 0")
    rolls = initiative_rolls(events)
    assert [(r.purpose, r.total) for r in rolls] == [
        ("initiative for red", first),
        ("initiative for blue", first),
        ("initiative for red", red_again),
        ("initiative for blue", blue_again),
    ]
    order = next(e for e in events if isinstance(e, InitiativeSet)).order
    assert order == (("red", "blue") if red_again > blue_again else ("blue", "red"))
    described = [e.describe() for e in events]
    assert described.index(f"roll d6 for initiative for blue: [{first}] = {first}") < described.index(
        f"initiative order: {', '.join(order)}"
    )


def test_ruling_more_than_two_sides_order_by_roll_ties_rerolled_among_the_tied() -> None:
    """docs/rulings/msc.md "More than two sides": red 5, blue 5, green 2; red and blue re-roll 3 and 6."""
    scenario = make_scenario([*FAR_APART, ("green", "Crow", "ship1", "10,1", "D", 0)])
    state = MSC.new_state(scenario, {})
    plots = {
        s: MSC.parse_order(state, s, f"{ship} 0") for s, ship in [("red", "Hawk"), ("blue", "Raven"), ("green", "Crow")]
    }
    dice = dice_rolling(5, 5, 2, 3, 6)
    _, events = MSC.resolve(state, plots, dice)
    assert [(r.purpose, r.total) for r in initiative_rolls(events)] == [
        ("initiative for red", 5),
        ("initiative for blue", 5),
        ("initiative for green", 2),
        ("initiative for red", 3),
        ("initiative for blue", 6),
    ]
    assert InitiativeSet(("blue", "red", "green")) in events
    assert dice.count == 5


# -- Combat phases ------------------------------------------------------------------------------

GLASS = {"glass": {"name": "Glass", "engine": 1, "shields": 1, "to_hit": 5, "weapons": ["F"]}}
FACE_OFF = [("red", "Hawk", "glass", "6,6", "A", 0), ("blue", "Raven", "glass", "6,5", "D", 0)]


def _after_plots(
    seed: int, ships: list[tuple[str, str, str, str, str, int]], designs: dict[str, dict[str, object]]
) -> Game:
    game = new_game(ships, seed=seed, designs=designs)
    for side in game.waiting_for:
        game.submit(side, "; ".join(f"{s.id} 0" for s in game.state.ships_of(side)))
    return game


@pytest.mark.parametrize("first", ["red", "blue"])
def test_msc_4_0_a_ship_destroyed_by_player_1_cannot_fire_back(first: str) -> None:
    """Player 1 fires first and damage is immediate; a wreck gets no player 2 phase."""
    shooter, victim = ("Hawk", "Raven") if first == "red" else ("Raven", "Hawk")

    def trial(seed: int) -> bool:
        game = _after_plots(seed, FACE_OFF, GLASS)
        if game.prompt is None or game.prompt.sides != (first,):
            return False
        game.submit(first, f"{shooter} F>{victim}")
        return state_of(game).ship(victim).status == "destroyed"

    game = _after_plots(find_seed(trial), FACE_OFF, GLASS)
    prompt = game.prompt
    assert prompt is not None
    assert str(prompt.clock) == "turn 1, combat, player 1"
    events = game.submit(first, f"{shooter} F>{victim}")
    assert Destroyed(victim) in events
    assert [e.ship for e in events if isinstance(e, Fired)] == [shooter]
    assert not [e for e in events if isinstance(e, Note)]  # the wiped-out side simply has no phase
    assert game.is_over
    assert game.result is not None
    assert game.result.winners == (first,)
    assert isinstance(events[-1], GameOver)


def test_msc_7_0_weapon_destroyed_by_player_1_cannot_fire_in_player_2s_phase() -> None:
    """Raven (F and FL guns) has Hawk on its F/FL corner line; a damage 6 takes F, so only FL can answer."""
    designs = {"twin": {"name": "Twin", "engine": 1, "shields": 3, "to_hit": 3, "weapons": ["F", "FL"]}}
    ships = [("red", "Hawk", "ship1", "7,4", "A", 0), ("blue", "Raven", "twin", "6,3", "D", 0)]

    def trial(seed: int) -> bool:
        game = _after_plots(seed, ships, designs)
        if game.prompt is None or game.prompt.sides != ("red",):
            return False
        game.submit("red", "Hawk F>Raven")
        return state_of(game).ship("Raven").weapons == (Side.FL,)

    game = _after_plots(find_seed(trial), ships, designs)
    assert {s.weapon for s in MSC.legal_shots(game.state, "blue")} == {Side.F, Side.FL}  # before the hit
    game.submit("red", "Hawk F>Raven")
    prompt = game.prompt
    assert prompt is not None
    assert (prompt.sides, str(prompt.clock)) == (("blue",), "turn 1, combat, player 2")
    with pytest.raises(IllegalOrderError, match="Raven's F weapon is destroyed"):
        game.check("blue", "Raven F>Hawk")
    assert [(s.ship, s.weapon) for s in MSC.legal_shots(game.state, "blue")] == [("Raven", Side.FL)]
    game.check("blue", "Raven FL>Hawk")


def test_msc_4_0_player_2_waits_for_player_1() -> None:
    seed = find_seed(lambda s: (p := _after_plots(s, FACE_OFF, GLASS).prompt) is not None and p.sides == ("red",))
    game = _after_plots(seed, FACE_OFF, GLASS)
    with pytest.raises(NotYourTurnError, match="waiting for red"):
        game.submit("blue", "Raven F>Hawk")


def test_msc_7_0_a_side_with_nothing_to_shoot_is_skipped() -> None:
    game = new_game(FAR_APART)
    game.submit("red", "Hawk 0")
    events = game.submit("blue", "Raven 0")
    notes = {e.describe() for e in events if isinstance(e, Note)}
    assert notes == {"red has no target in range and arc", "blue has no target in range and arc"}
    assert TurnBegan(2) in events
    assert game.prompt is not None
    assert game.prompt.kind == "plot"


# -- The Ship Turn Record -------------------------------------------------------------------------


def test_msc_2_0_ship_turn_record_holds_ratings_ovals_and_a_line_per_turn() -> None:
    game = new_game([("red", "Hawk", "ship3", "5,8", "A", 2), ("blue", "Raven", "ship2", "16,10", "A", 0)])
    hawk = game.state.ship("Hawk")
    # The design's ratings, and the ovals still open (ENGINE 4: four of five ovals open).
    assert (hawk.name, hawk.engine_rating, hawk.shield_rating, hawk.to_hit) == ("Ship 3", 4, 4, 5)
    assert (hawk.engine, hawk.shields, hawk.weapons_fitted, hawk.weapons) == (4, 4, (Side.F,), (Side.F,))
    assert (hawk.speed, hawk.record) == (2, ())
    game.submit("red", "Hawk 1L1")
    game.submit("blue", "Raven 0")
    game.submit("red", "Hawk 4")
    game.submit("blue", "Raven 1")
    assert game.state.ship("Hawk").record == (TurnEntry(1, 3, "1L1"), TurnEntry(2, 4, "4"))
    assert game.state.ship("Raven").record == (TurnEntry(1, 0, "0"), TurnEntry(2, 1, "1"))
    assert game.state.ship("Hawk").speed == 4


def test_msc_2_0_damage_fills_in_the_records_ovals() -> None:
    game = new_game(FAR_APART)
    hawk = game.state.ship("Hawk")
    damaged = replace(hawk, engine=2, shields=1, weapons=(Side.FR,))
    assert (damaged.engine_rating, damaged.shield_rating, damaged.weapons_fitted) == (3, 3, hawk.weapons_fitted)
    data = MSC.state_to_data(game.state.with_ship(damaged))
    back = MSC.state_from_data(json.loads(json.dumps(data)))
    assert back.ship("Hawk") == damaged


# -- Ending the game ------------------------------------------------------------------------------


def test_msc_5_0_victory_by_elimination() -> None:
    game = new_game(FAR_APART)
    state = game.state.with_ship(replace(game.state.ship("Raven"), status="destroyed"))
    game.state = state
    game.submit("red", "Hawk 0")  # blue has nothing left to plot
    assert game.is_over
    assert game.result is not None
    assert (game.result.winners, game.result.reason) == (("red",), "elimination")


def test_ruling_turn_limit_ends_in_a_draw() -> None:
    """docs/rulings/msc.md "Turn limit": after the last turn the game is a draw; scores are SHIELDS left."""
    game = new_game(FAR_APART, max_turns=2)
    for _ in range(2):
        game.submit("red", "Hawk 0")
        events = game.submit("blue", "Raven 0")
    assert events[-1] == GameOver((), "turn limit 2 reached")
    assert game.is_over
    assert game.result is not None
    assert (game.result.winners, dict(game.result.scores)) == ((), {"red": 3.0, "blue": 3.0})
    with pytest.raises(IllegalOrderError, match="game is over"):
        game.submit("red", "Hawk 0")


def test_ruling_turn_limit_scores_are_labelled_shields_left_not_victory_points() -> None:
    """docs/rulings/msc.md "Turn limit": MSC has no victory points; the result line says what it counts."""
    from vectorwar.cli.screen import result_text
    from vectorwar.scene import build_scene

    game = new_game(FAR_APART, max_turns=1)
    game.submit("red", "Hawk 0")
    game.submit("blue", "Raven 0")
    assert game.result is not None
    assert game.result.score_label == "shields left"
    line = result_text(game).plain
    assert "red 3 shields left, blue 3 shields left" in line
    assert "VP" not in line
    assert build_scene(game, ("red",))["result"]["score_label"] == "shields left"


def test_ruling_turn_limit_defaults_to_the_record_sheets_30_turns() -> None:
    scenario = make_scenario(FAR_APART)
    assert scenario.max_turns == 30
    assert MSC.new_state(scenario, {}).max_turns == 30


# -- Leaving the map (option map_edge) ---------------------------------------------------------------

EDGE = [("red", "Hawk", "ship1", "0,5", "F", 1), ("blue", "Raven", "ship1", "16,10", "A", 0)]


def test_ruling_leaving_the_map_disengages_by_default() -> None:
    assert MSC.manifest.option("map_edge").default == "disengage"
    game = new_game([*EDGE, ("red", "Kite", "ship1", "9,5", "A", 0)])
    game.submit("red", "Hawk 1; Kite 0")
    events = game.submit("blue", "Raven 0")
    left = next(e for e in events if isinstance(e, LeftMap))
    assert (left.ship, str(left.at)) == ("Hawk", "-1,4")  # up-left of 0,5: odd columns sit lower
    assert game.state.ship("Hawk").status == "disengaged"
    assert [s.id for s in game.state.ships_of("red")] == ["Kite"]
    game.check("red", "Kite 0")  # a disengaged ship is plotted no more
    with pytest.raises(IllegalOrderError, match="Hawk is disengaged"):
        MSC.check_order(in_fire_phase(game.state), "blue", FireOrders((Shot("Raven", Side.F, "Hawk"),)))


def test_ruling_a_side_whose_last_ship_leaves_loses() -> None:
    game = new_game(EDGE)
    game.submit("red", "Hawk 1")
    events = game.submit("blue", "Raven 0")
    assert events[-1] == GameOver(("blue",), "elimination")


def test_ruling_every_side_leaving_at_once_has_no_winner() -> None:
    game = new_game([EDGE[0], ("blue", "Raven", "ship1", "19,5", "C", 1)])
    game.submit("red", "Hawk 1")
    events = game.submit("blue", "Raven 1")
    assert events[-1] == GameOver((), "no side has a ship left in the battle")
    assert game.result is not None
    assert game.result.winners == ()


def test_house_rule_map_edge_forbid_refuses_moves_off_the_map() -> None:
    game = new_game(EDGE, options={"map_edge": "forbid"})
    with pytest.raises(IllegalOrderError, match="leaves the map") as err:
        game.check("red", "Hawk 1")
    assert "map_edge" in str(err.value)
    game.check("red", "Hawk L")


def test_house_rule_map_edge_forbid_allows_leaving_when_every_move_leaves() -> None:
    """In the corner 0,0 facing F at SPEED 3, every legal move (SPEED 2 or 3) steps off the map."""
    ships = [("red", "Hawk", "ship1", "0,0", "F", 3), ("blue", "Raven", "ship1", "16,10", "A", 0)]
    game = new_game(ships, options={"map_edge": "forbid"})
    state = game.state
    moves = legal_moves(state.ship("Hawk"), strict=False)
    assert moves
    assert all(leaves_map(state, state.ship("Hawk"), m) for m in moves)
    game.submit("red", "Hawk R1")
    events = game.submit("blue", "Raven 0")
    assert any(isinstance(e, LeftMap) and e.ship == "Hawk" for e in events)


def test_a_moved_ship_keeps_every_field_but_the_five_a_move_changes() -> None:
    # Every field set to a value of its own, so a field Ship.moved forgot (say one added later) would show.
    from dataclasses import fields

    from vectorwar.hexes import Direction
    from vectorwar.roster import replace_fields

    ship = state_of(new_game(FAR_APART)).ship("Hawk")
    marked = replace_fields(ship, **{f.name: f"<{f.name}>" for f in fields(ship)})
    record = (TurnEntry(1, 2, "2"),)
    moved = marked.moved(Hex(4, 4), Direction.C, 2, record, "disengaged")
    assert moved == replace(marked, hex=Hex(4, 4), facing=Direction.C, speed=2, record=record, status="disengaged")
    assert [f.name for f in fields(moved) if getattr(moved, f.name) == f"<{f.name}>"] == [
        f.name for f in fields(ship) if f.name not in {"hex", "facing", "speed", "record", "status"}
    ]
