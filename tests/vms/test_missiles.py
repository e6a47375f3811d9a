"""VV5 missiles under VMS movement: launched in the fire phase, they fly through the next movement.

The target's thrust in that movement (hexes of velocity change, VV5's G)
moves each marker down the track; they are rolled for once every ship has
moved, before that turn's fire ([VMS VV5 missiles](../../docs/rulings/vms.md#vms-vv5-missiles)).
"""

from __future__ import annotations

from vectorwar.events import TurnBegan
from vectorwar.game import Game
from vectorwar.systems.vv5.events import MissileLaunched, MissileResolved
from vectorwar.systems.vv5.module import VV5Card

from .game_helpers import DESIGNS, VV5, design, new_game
from .test_plugin import state_of

ARMED = {**DESIGNS, "hyperion": design(combat={"vv5": {**VV5, "missiles": 2}})}
PLACES = [("red", "Hyperion", "hyperion", "10,20", "A", "0"), ("blue", "Hulk", "target", "10,15", "D", "0")]


def _game() -> Game:
    return new_game(PLACES, designs=ARMED, options={"combat": "vv5"})


def _launch_then_move(hulk_plot: str) -> Game:
    game = _game()
    game.submit("red", "Hyperion drift")
    game.submit("blue", "Hulk drift")
    assert game.waiting_for == ("red",), "only Hyperion has something to fire"
    game.submit("red", "Hyperion 2>Hulk")
    launched = [e for e in game.events if isinstance(e, MissileLaunched)]
    # Range 5 is 7+ on the missile table; the Hulk has no guns to face the launcher.
    assert [(e.range, e.to_hit) for e in launched] == [(5, 7), (5, 7)]
    assert not any(isinstance(e, MissileResolved) for e in game.events), "missiles wait for the next movement"
    assert state_of(game).turn == 2
    card = state_of(game).ship("Hulk").card
    assert isinstance(card, VV5Card)
    assert card.incoming == (("Hyperion", 7), ("Hyperion", 7))
    game.submit("red", "Hyperion drift")
    game.submit("blue", hulk_plot)
    return game


def _resolved(game: Game) -> list[MissileResolved]:
    return [e for e in game.events if isinstance(e, MissileResolved)]


def test_a_missile_flies_through_the_next_movement_and_is_rolled_before_that_turns_fire() -> None:
    game = _launch_then_move("Hulk drift")
    resolved = _resolved(game)
    # The second missile is rolled only if the first left the Hulk in the fight.
    assert resolved
    assert {e.to_hit for e in resolved} == {7}
    turn_two = max(i for i, e in enumerate(game.events) if isinstance(e, TurnBegan))
    assert all(game.events.index(e) > turn_two for e in resolved)
    card = state_of(game).ship("Hulk").card
    assert isinstance(card, VV5Card)
    assert card.incoming == ()


def test_each_hex_of_velocity_change_the_target_buys_moves_the_marker_one_space_down() -> None:
    # The Hulk faces D; its forward thruster pushes it toward A: 4 points at accel/decel 2 buy 2 hexes.
    game = _launch_then_move("Hulk forward1:A=4")
    assert state_of(game).ship("Hulk").thrust_used == 4
    resolved = _resolved(game)
    assert resolved
    assert {e.to_hit for e in resolved} == {9}


def test_missiles_empty_the_launchers_and_the_card_says_so() -> None:
    game = _launch_then_move("Hulk drift")
    card = next(c for c in game.system.ship_cards(game.state) if c.title.startswith("Hyperion"))
    assert dict(card.rows)["missiles"] == "0 ready of 2, 2 spent"
    assert "missiles" not in game.system.arc_hexes(game.state, "Hyperion")
