"""The greedy bot plays Invasion's objective: platforms destroyed, not the nearest enemy hunted."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from vectorwar.catalogue import builtin_scenario
from vectorwar.hexes import Direction
from vectorwar.systems.vv5.bots import GreedyBot
from vectorwar.systems.vv5.buying import Buy
from vectorwar.systems.vv5.invasion_tactics import assigned
from vectorwar.systems.vv5.orders import Launches
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import Status, VV5State

DEFAULTS: dict[str, Any] = {o.name: o.default for o in system.manifest.options}


def invasion(name: str = "vv5-invasion") -> VV5State:
    return system.new_state(builtin_scenario(name), dict(DEFAULTS))


def place(state: VV5State, ship_id: str, at: str, facing: str | None = None, status: Status | None = None) -> VV5State:
    ship = state.ship(ship_id)
    ship = replace(ship, hex=state.map.locate(at))
    if facing is not None:
        ship = replace(ship, facing=Direction.parse(facing))
    if status is not None:
        ship = replace(ship, status=status)
    return state.with_ship(ship)


def test_two_harpies_beside_a_platform_launch_one_sure_salvo_between_them() -> None:
    """The first Harpy launches enough to be 90 % sure of a hit; the second keeps its missiles.

    A missile hit all but always knocks a platform out, so the flight's
    missiles are worth more at the next platform. Greedy without the
    objective launched two from each ship, whatever the other did.
    """
    state = invasion()
    state = place(state, "ADP1", "A@0,0", status="destroyed")
    state = place(state, "ADP3", "K@0,7", status="destroyed")
    state = place(state, "H2", "A@9,0", status="destroyed")
    platform = state.ship("ADP2").hex
    # H1 three hexes up-right of the platform and H3 one hex further, both facing it.
    for ship_id, distance in (("H1", 3), ("H3", 4)):
        ship = replace(state.ship(ship_id), hex=platform.neighbour(Direction.B, distance), facing=Direction.E)
        state = state.with_ship(ship)
    state = replace(state, phase="missiles")
    order = GreedyBot().choose(state, "humans", random.Random(0))
    assert isinstance(order, Launches)
    launched = {x.ship: x.missiles for x in order.launches if x.target == "ADP2"}
    # At 3 hexes a missile needs 8+ (6, +1 for the turret, +1 for the phasers): 15/36, and
    # four give 1 - (21/36)^4 = 88 %; one more from H3 at 4 hexes (9+) makes it 92 %.
    assert sum(launched.values()) == 5
    assert max(launched.values()) == 4


def test_ships_go_for_platforms_in_lanes_not_all_for_the_nearest() -> None:
    state = invasion()
    state = place(state, "ADP3", "K@0,7", status="destroyed")
    state = place(state, "H2", "A@9,0", status="destroyed")
    state = place(state, "ADP1", "C@0,2")
    state = place(state, "ADP2", "H@4,5")
    state = place(state, "H1", "H@9,0", facing="E")
    state = place(state, "H3", "H@9,4", facing="F")
    # ADP2 is the nearer platform to both Harpies...
    for h in ("H1", "H3"):
        ship = state.ship(h)
        assert ship.hex.distance(state.ship("ADP2").hex) < ship.hex.distance(state.ship("ADP1").hex)
    # ...but the upper Harpy takes the upper platform, so both platforms are hunted.
    assert assigned(state, state.ship("H1")) == state.ship("ADP1")
    assert assigned(state, state.ship("H3")) == state.ship("ADP2")


def test_the_flight_bought_for_an_invasion_carries_missiles() -> None:
    """With 12 tons, two Ghosts (four missiles) rather than the two Dynamos (two) that fill the tonnage."""
    state = invasion("vv5-invasion-purchase")
    assert state.purchase is not None
    state = replace(state, phase="purchase", purchase=replace(state.purchase, points=(("humans", 12),)))
    order = GreedyBot().choose(state, "humans", random.Random(0))
    assert order == Buy("ghost", 2)
