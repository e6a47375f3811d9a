"""VMS ``fire_options``: the combat module's legal shots, offered as order pieces at fire prompts only.

Games of every built-in scenario (both combat modules) are played by the
system's bots; at every prompt the offers are checked against the kernel's
own order check, both ways: each offered piece is accepted, and every piece
a player could write for the ship is accepted only if it is offered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tests.support.orders import accepted
from vectorwar.catalogue import builtin_scenario
from vectorwar.display import ShotOption
from vectorwar.game import Game
from vectorwar.play import bot_rng, make_bots
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.vms.state import VMSState
from vectorwar.systems.vv5.arcs import CODE_OF

from .game_helpers import VMS

SCENARIOS = [
    f"vms-{name}-{combat}" for name in ("capital-duel", "fighter-screen", "mixed-fleet") for combat in ("msc", "vv5")
]
# Both bots on both sides, and a mixed pair, so fights happen at many ranges and arcs.
CONTROLLERS = [("greedy", "greedy"), ("random", "random"), ("greedy", "random")]


def every_piece(state: VMSState) -> list[str]:
    """Every shot or launch a player could write for one ship in this game's notation, legal or not."""
    if state.combat == "msc":
        weapons = [str(side) for side in Side]
    else:
        weapons = [f"{code}*{n}" for code in CODE_OF.values() for n in range(1, 6)] + [str(n) for n in range(5)]
    return [f"{weapon}>{ship.id}" for weapon in weapons for ship in state.ships]


def one_per_weapon(options: Mapping[str, Sequence[ShotOption]]) -> str:
    """One offered shot for each weapon of each ship, as the side's whole declaration."""
    entries = []
    for ship, shots in options.items():
        firsts = {s.weapon: s.piece for s in reversed(shots)}
        entries.append(f"{ship} {' '.join(firsts.values())}")
    return "; ".join(entries)


def check_offers(game: Game, side: str) -> int:
    state = game.state
    if not isinstance(state, VMSState):
        raise TypeError("a VMS game expected")
    options = VMS.fire_options(state, side)
    if state.phase != "fire":
        assert options == {}, f"offers at a {state.phase} prompt"
        return 0
    assert options, "a side is asked to fire only when it has a shot (VMS skips it otherwise)"
    pieces = every_piece(state)
    for ship_id, shots in options.items():
        ship = state.ship(ship_id)
        assert (ship.side, ship.active) == (side, True)
        arcs = VMS.arc_hexes(state, ship_id)
        for shot in shots:
            target = state.ship(shot.target)
            assert target.id != ship_id
            assert target.side != side
            assert target.active
            assert target.hex in arcs[shot.weapon], f"{ship_id} {shot.piece}: target outside {shot.weapon}"
            assert accepted(game, side, f"{ship_id} {shot.piece}"), f"{ship_id} {shot.piece}"
        # Complete as well as legal: nothing the check accepts is missing from the offers.
        legal = {p for p in pieces if accepted(game, side, f"{ship_id} {p}")}
        assert legal == {s.piece for s in shots}, ship_id
    for ship in state.ships_of(side):
        if ship.id not in options:
            assert not any(accepted(game, side, f"{ship.id} {p}") for p in pieces), ship.id
    assert accepted(game, side, one_per_weapon(options))
    return sum(len(shots) for shots in options.values())


@pytest.mark.parametrize("controllers", CONTROLLERS, ids="-".join)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_offered_shot_is_accepted_and_every_legal_shot_offered(
    scenario: str, controllers: tuple[str, str]
) -> None:
    offered = 0
    for seed in range(2):
        entries = builtin_scenario(scenario).sides
        game = Game.new(VMS, builtin_scenario(scenario), seed)
        bots = make_bots(VMS, {entry.id: bot for entry, bot in zip(entries, controllers, strict=True)})
        while not game.is_over:
            for entry in entries:
                if entry.id not in game.waiting_for:
                    assert VMS.fire_options(game.state, entry.id) == {}, f"{entry.id} is not asked now"
            side = game.waiting_for[0]
            fired = check_offers(game, side)
            offered += fired
            if fired and len(game.history) % 2:
                # The offers as the UI would send them, submitted for real now and then.
                game.submit(side, one_per_weapon(VMS.fire_options(game.state, side)))
            else:
                game.submit(side, bots[side].choose(game.state, side, bot_rng(seed, side, len(game.history))))
    assert offered, "no shot was ever offered"


@pytest.mark.parametrize("scenario", ["vms-mixed-fleet-msc", "vms-mixed-fleet-vv5"])
def test_the_greedy_bot_fires_only_offered_shots(scenario: str) -> None:
    """The bot and the front end read one enumeration of legal shots (the combat module's)."""
    sides = [s.id for s in builtin_scenario(scenario).sides]
    fired = 0
    for seed in range(3):
        game = Game.new(VMS, builtin_scenario(scenario), seed)
        bots = make_bots(VMS, dict.fromkeys(sides, "greedy"))
        while not game.is_over:
            side = game.waiting_for[0]
            order = bots[side].choose(game.state, side, bot_rng(seed, side, len(game.history)))
            if isinstance(game.state, VMSState) and game.state.phase == "fire":
                offers = {(ship, s.piece) for ship, shots in VMS.fire_options(game.state, side).items() for s in shots}
                for entry in str(order).split(";"):
                    ship, *pieces = entry.split()
                    if ship == "hold":
                        continue
                    assert {(ship, p) for p in pieces} <= offers, entry
                    fired += len(pieces)
            game.submit(side, order)
    assert fired
