"""VV5 greedy against an enemy closing fast: once neither has a missile ready, it does not burn to pass through the
other's gun range between two gunfire phases (Dogfight, buying your fighters, greedy seed 28)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.registry import get_system
from vectorwar.systems.vv5 import bots
from vectorwar.systems.vv5.orders import Manoeuvre, Plot
from vectorwar.systems.vv5.state import Launcher, Ship, VV5State
from vectorwar.vectors import Velocity


def _head_on(missiles: bool) -> tuple[VV5State, Ship]:
    """The two Dynamos of the Dogfight nose to nose 18 hexes apart, red's coming at 2 and blue's at 4 hexes a turn,
    their launchers ready or spent as ``missiles`` says; the Harpies out of the game."""
    state: VV5State = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), 1).state

    def placed(ship: Ship, at: Hex, facing: Direction, velocity: Velocity) -> Ship:
        launchers: tuple[Launcher, ...] = ship.launchers if missiles else tuple("spent" for _ in ship.launchers)
        return replace(ship, hex=at, facing=facing, velocity=velocity, launchers=launchers)

    red = placed(state.ship("X2"), Hex(10, 0), Direction.C, Velocity(2, 0, 0))
    blue = placed(state.ship("Y2"), Hex(28, 0), Direction.F, Velocity(-4, 0, 0))
    gone = tuple(replace(state.ship(i), status="destroyed") for i in ("X1", "Y1"))
    return state.with_ships((red, blue, *gone)), red


def _coast_and_burn(state: VV5State, ship: Ship) -> tuple[float, float]:
    coast, burn = (bots._candidate(ship.facing, Manoeuvre(steps)) for steps in ((), ("2",)))
    hold, close = bots.Sights(state, ship).scores([coast, burn], ship.velocity)
    return hold, close


def test_with_guns_alone_greedy_does_not_burn_at_an_enemy_already_closing_fast() -> None:
    # Burning 2 more would close at 8 hexes a turn: out of range now, past each other by the next gunfire.
    state, red = _head_on(missiles=False)
    hold, close = _coast_and_burn(state, red)
    assert hold > close


def test_with_missiles_ready_greedy_still_closes_the_range() -> None:
    # Measured: holding back while missiles could fly cost greedy its first passes (bots.CLOSING_RANGE).
    state, red = _head_on(missiles=True)
    hold, close = _coast_and_burn(state, red)
    assert close > hold


def _twins() -> VV5State:
    """The Dogfight's start with X2 a second X1 (its design, where it is, flying and facing the same way): their
    best ends are the same."""
    state: VV5State = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), 1).state
    return state.with_ship(replace(state.ship("X1"), id="X2"))


def _shared_ends(state: VV5State, seeds: range) -> int:
    """Of greedy's plots for red on ``seeds``, how many end both red ships in one hex."""
    shared = 0
    for seed in seeds:
        order = bots.GreedyBot().choose(state, "red", random.Random(seed))
        assert isinstance(order, Plot)
        ends = [bots._end_of(state.ship(ship), move) for ship, move in order.moves]
        shared += len(set(ends)) < len(ends)
    return shared


def test_a_ship_keeps_out_of_the_hex_where_a_friend_plotted_before_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two ships ending in one hex collide and one is knocked aside: between ends worth about the same, the
    second keeps out of the first's (``FRIEND_COLLISION`` off the end's score)."""
    state = _twins()
    twin = state.ship("X2")
    coast = bots._candidate(twin.facing, Manoeuvre(()))
    end = bots._end_of(twin, Manoeuvre(()))
    alone = bots.Sights(state, twin).scores([coast], twin.velocity)[0]
    beside = bots.Sights(state, twin, frozenset({end})).scores([coast], twin.velocity)[0]
    assert alone - beside == pytest.approx(bots.FRIEND_COLLISION)
    assert _shared_ends(state, range(20)) == 0
    monkeypatch.setattr(bots, "FRIEND_COLLISION", 0.0)
    assert _shared_ends(state, range(20)) > 0  # without it the twins often end together
