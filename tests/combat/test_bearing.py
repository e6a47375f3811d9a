"""``CombatModule.bearing``: the cheap count bots read must say what ``shot_options`` says, for every module."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.combat.base import CombatModule, CombatView
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.systems.msc.api import Ship as MSCShip
from vectorwar.systems.msc.api import Side, in_reach, sides_in_reach, weapon_bears
from vectorwar.systems.vms.modules import module
from vectorwar.systems.vv5.api import (
    GUN_ARCS,
    gun_in_reach,
    gun_reach,
    missile_in_reach,
    missile_reach,
    weapons_in_reach,
)
from vectorwar.systems.vv5.movement import ASTEROID

from .helpers import MSC_TABLE, VV5_TABLE, duel

TABLES: dict[str, list[dict[str, Any]]] = {
    "msc": [MSC_TABLE, {**MSC_TABLE, "weapons": ["F", "RL", "RR", "FL"]}],
    "vv5": [
        VV5_TABLE,
        {**VV5_TABLE, "missiles": 3, "armour": {"missiles": 1}},
        {
            **VV5_TABLE,
            "guns": [{"arc": "forward", "guns": 2}, {"arc": "aft180", "guns": 1}, {"arc": "turret360", "guns": 1}],
            "missiles": 2,
        },
    ],
}


def _counted(view: CombatView, system: str, ship: str) -> dict[tuple[str, str], int]:
    return dict(Counter((o.weapon, o.target) for o in module(system).shot_options(view, ship)))


@pytest.mark.parametrize("system", sorted(TABLES))
@settings(max_examples=60, deadline=None)
@given(
    table=st.integers(0, 2),
    distance=st.integers(0, 9),
    turned=st.integers(0, 2),
    facing=st.sampled_from(list(Direction)),
    shift=st.sampled_from(list(Direction)),
    aside=st.integers(0, 3),
)
def test_bearing_counts_the_shot_options_pieces(
    system: str, table: int, distance: int, turned: int, facing: Direction, shift: Direction, aside: int
) -> None:
    tables = TABLES[system]
    view = duel(system, tables[table % len(tables)], distance=max(1, distance), turned=turned, target_facing=facing)
    # Move the target off the line of the bow, so side and rear arcs are asked as well.
    raven = view.ship("Raven")
    view = replace(view, ships=(view.ships[0], replace(raven, hex=raven.hex.neighbour(shift, aside))))
    for ship in ("Hawk", "Raven"):
        assert module(system).bearing(view, ship) == _counted(view, system, ship)


@pytest.mark.parametrize("system", sorted(TABLES))
def test_a_ship_out_of_the_fight_has_nothing_bearing(system: str) -> None:
    view = duel(system, TABLES[system][0], distance=2)
    out = replace(view, ships=(replace(view.ships[0], status="destroyed"), view.ships[1]))
    assert module(system).bearing(view, "Hawk") != {}
    assert module(system).bearing(out, "Hawk") == {}
    # Next to the target, every forward weapon bears: the count is each piece a declaration may name.
    assert sum(module(system).bearing(view, "Hawk").values()) == len(module(system).shot_options(view, "Hawk"))


def test_gun_boxes_are_the_pieces_of_a_vv5_mount() -> None:
    view = duel("vv5", TABLES["vv5"][1], distance=2)
    assert module("vv5").bearing(view, "Hawk") == {("missiles", "Raven"): 3, ("forward guns", "Raven"): 2}


MSC_SHIP = MSCShip(
    id="S",
    side="blue",
    design="Frigate",
    name="S",
    engine_rating=3,
    shield_rating=4,
    to_hit=4,
    weapons_fitted=tuple(Side),
    hex=Hex(0, 0),
    facing=Direction(0),
    speed=0,
    engine=3,
    shields=4,
    weapons=tuple(Side),
    status="active",
)
_ROCKS = (Hex(2, 0), Hex(2, -1), Hex(1, 1), Hex(-2, 2), Hex(0, -3), Hex(-1, -2))


@settings(max_examples=200, deadline=None)
@given(
    q=st.integers(-8, 8),
    r=st.integers(-8, 8),
    facing=st.sampled_from(list(Direction)),
    rocks=st.booleans(),
    arc=st.sampled_from(sorted(GUN_ARCS)),
    side=st.sampled_from(list(Side)),
)
def test_the_checks_without_words_agree_with_the_worded_ones(
    q: int, r: int, facing: Direction, rocks: bool, arc: str, side: Side
) -> None:
    """Bots ask the quick checks (``in_reach``, ``gun_in_reach``, ``missile_in_reach``); orders and the display
    ask the worded ones: both must refuse the same shots, whatever blocks the line."""
    at, target = Hex(0, 0), Hex(q, r)
    vv5_map = HexMap.single(40, 40, tuple((h, ASTEROID) for h in _ROCKS) if rocks else ())
    msc_map = HexMap.single(40, 40, tuple((h, "blocking") for h in _ROCKS) if rocks else ())
    assert gun_in_reach(vv5_map, arc, at, facing, target) == (gun_reach(vv5_map, arc, at, facing, "T", target) is None)
    assert missile_in_reach(vv5_map, at, facing, target) == (
        missile_reach(vv5_map, "S", at, facing, "T", target) is None
    )
    shooter = replace(MSC_SHIP, hex=at, facing=facing)
    aimed = replace(MSC_SHIP, id="T", hex=target)
    assert in_reach(msc_map, at, facing, side, target) == (weapon_bears(msc_map, shooter, side, aimed) is None)


@settings(max_examples=200, deadline=None)
@given(
    q=st.integers(-17, 17),
    r=st.integers(-17, 17),
    facing=st.sampled_from(list(Direction)),
    rocks=st.booleans(),
    arcs=st.frozensets(st.sampled_from(sorted(GUN_ARCS))),
)
def test_every_weapon_at_once_agrees_with_each_weapon_asked_alone(
    q: int, r: int, facing: Direction, rocks: bool, arcs: frozenset[str]
) -> None:
    """``weapons_in_reach`` and ``sides_in_reach`` (the VMS bot's hot path, range and arcs looked up by the
    offset) answer what the one-weapon checks answer, out to beyond missile range and with the line blocked."""
    at, target = Hex(3, -2), Hex(3 + q, -2 + r)
    rocks_here = tuple((Hex(h.q + 3, h.r - 2), kind) for h, kind in ((h, ASTEROID) for h in _ROCKS))
    vv5_map = HexMap.single(60, 60, rocks_here if rocks else ())
    missile, guns = weapons_in_reach(vv5_map, at, facing, target, arcs)
    assert missile == missile_in_reach(vv5_map, at, facing, target)
    assert guns == {a for a in arcs if gun_in_reach(vv5_map, a, at, facing, target)}
    msc_map = HexMap.single(60, 60, tuple((h, "blocking") for h, _ in rocks_here) if rocks else ())
    assert sides_in_reach(msc_map, at, facing, target) == {s for s in Side if in_reach(msc_map, at, facing, s, target)}


def candidate_end(system: str, table: int, step: Direction, steps: int, rocks: bool) -> tuple[Any, Hex]:
    """A duel of the system's ``table``-th design pair, rocks on the map or not, and the Hawk's hex ``steps``
    hexes toward ``step``: where a plot of the Hawk's could end."""
    tables = TABLES[system]
    view = duel(system, tables[table % len(tables)], distance=2)
    if rocks:
        kind = ASTEROID if system == "vv5" else "blocking"
        view = replace(view, map=HexMap.single(12, 14, tuple((Hex(h.q + 5, h.r + 8), kind) for h in _ROCKS)))
    return view, view.ship("Hawk").hex.neighbour(step, steps)


@pytest.mark.parametrize("system", sorted(TABLES))
@settings(max_examples=60, deadline=None)
@given(
    table=st.integers(0, 2),
    step=st.sampled_from(list(Direction)),
    steps=st.integers(0, 8),
    facing=st.sampled_from(list(Direction)),
    rocks=st.booleans(),
)
def test_bearing_from_a_candidate_end_is_bearing_with_the_ship_moved_and_within_the_arsenal(
    system: str, table: int, step: Direction, steps: int, facing: Direction, rocks: bool
) -> None:
    """A module's quick ``bearing_from`` (no view built) says what the contract's default says, ``bearing`` of
    the view with the ship moved there; and ``arsenal`` bounds every count (the VMS bot skips plots by it)."""
    view, at = candidate_end(system, table, step, steps, rocks)
    m = module(system)
    found = m.bearing_from(view, "Hawk", at, facing)
    assert found == CombatModule.bearing_from(m, view, "Hawk", at, facing)
    most = m.arsenal(view, "Hawk")
    assert most
    assert all(n <= most[weapon] for (weapon, _), n in found.items())
    # Two hexes off the bow, each weapon that bears does so with every piece it has.
    assert all(n == most[weapon] for (weapon, _), n in m.bearing(view, "Hawk").items())


@pytest.mark.parametrize("system", sorted(TABLES))
@settings(max_examples=60, deadline=None)
@given(
    table=st.integers(0, 2),
    step=st.sampled_from(list(Direction)),
    steps=st.integers(0, 9),
    facing=st.sampled_from(list(Direction)),
    rocks=st.booleans(),
    out=st.booleans(),
)
def test_bearing_on_one_target_moved_is_that_targets_entries_in_the_arsenals_order(
    system: str, table: int, step: Direction, steps: int, facing: Direction, rocks: bool, out: bool
) -> None:
    """A module's quick ``bearing_on`` (the VMS bot's threat on the ship it moves) says what the contract's
    default says, the target's entries of ``bearing`` with the target moved; and ``bearing`` lists its weapons
    in ``arsenal``'s order, the order the bot sums them in. A target out of the fight has nothing bearing on it."""
    tables = TABLES[system]
    view = duel(system, tables[table % len(tables)], distance=2, target_facing=facing)
    if rocks:
        kind = ASTEROID if system == "vv5" else "blocking"
        view = replace(view, map=HexMap.single(12, 14, tuple((Hex(h.q + 5, h.r + 8), kind) for h in _ROCKS)))
    if out:
        view = replace(view, ships=tuple(replace(s, status="destroyed") if s.id == "Raven" else s for s in view.ships))
    at = view.ship("Raven").hex.neighbour(step, steps)
    m = module(system)
    found = m.bearing_on(view, "Hawk", "Raven", at)
    assert found == CombatModule.bearing_on(m, view, "Hawk", "Raven", at)
    if out:
        assert found == {}
    most = m.arsenal(view, "Hawk")
    assert most is not None
    moved = replace(view, ships=tuple(replace(s, hex=at) if s.id == "Raven" else s for s in view.ships))
    listed = list(dict.fromkeys(weapon for weapon, _ in m.bearing(moved, "Hawk")))
    assert listed == [weapon for weapon in most if weapon in listed]
    assert list(found) == [weapon for weapon in most if weapon in found]


_VV5_MIXED = {
    **VV5_TABLE,
    "mass": 40,
    "guns": [{"arc": "forward", "guns": 2}, {"arc": "forward", "guns": 1}, {"arc": "aft180", "guns": 1}],
    "missiles": 3,
}


@settings(max_examples=300, deadline=None)
@given(
    q=st.integers(-20, 20),
    r=st.integers(-20, 20),
    facing=st.sampled_from(list(Direction)),
    rocks=st.booleans(),
    spent=st.integers(0, 3),
    broken=st.booleans(),
    target=st.sampled_from(["Raven", "Kite", "Hawk"]),
    out=st.sampled_from(["", "Hawk", "Raven"]),
)
def test_vv5_bearing_on_anywhere_is_the_contracts_default(
    q: int, r: int, facing: Direction, rocks: bool, spent: int, broken: bool, target: str, out: str
) -> None:
    """VV5's quick ``bearing_on`` says what the contract's default (the whole view with the target moved) says
    wherever the target goes, out past the missiles' reach and behind rocks: two mounts of one arc add up,
    spent launchers and a mount with no guns left count nothing, and a friend, the shooter itself or a ship
    out of the fight has nothing on it."""
    m = module("vv5")
    view = duel("vv5", _VV5_MIXED, distance=3)
    hawk = replace(view.ship("Hawk"), hex=Hex(20, 20), facing=facing)
    raven = replace(view.ship("Raven"), hex=Hex(20, 17))
    kite = replace(raven, id="Kite", name="Kite", side="red", hex=Hex(21, 19))
    ships = tuple(replace(s, status="destroyed") if s.id == out else s for s in (hawk, raven, kite))
    card = view.cards["Hawk"]
    launchers = tuple("spent" if i < spent else "ready" for i in range(len(card.launchers)))
    mounts = (replace(card.mounts[0], guns=replace(card.mounts[0].guns, boxes=0)), *card.mounts[1:])
    card = replace(card, launchers=launchers, mounts=mounts if broken else card.mounts)
    rocks_here = tuple((Hex(h.q + 20, h.r + 20), ASTEROID) for h in _ROCKS) if rocks else ()
    view = CombatView(
        ships, {**view.cards, "Hawk": card, "Kite": view.cards["Raven"]}, HexMap.single(60, 60, rocks_here)
    )
    at = Hex(20 + q, 20 + r)
    found = m.bearing_on(view, "Hawk", target, at)
    assert found == CombatModule.bearing_on(m, view, "Hawk", target, at)
    if target != "Raven" or out:
        assert found == {}


def test_vv5_has_its_own_bearing_on_that_adds_up_mounts_of_one_arc() -> None:
    """The module overrides the default (the VMS bot's hot path), and its count two hexes off the bow is every
    ready missile and both forward mounts' guns."""
    m = module("vv5")
    assert type(m).bearing_on is not CombatModule.bearing_on
    view = duel("vv5", _VV5_MIXED, distance=2)
    at = view.ship("Raven").hex
    assert m.bearing_on(view, "Hawk", "Raven", at) == {"missiles": 3, "forward guns": 3}


@pytest.mark.parametrize("system", sorted(TABLES))
@settings(max_examples=60, deadline=None)
@given(
    table=st.integers(0, 2),
    step=st.sampled_from(list(Direction)),
    steps=st.integers(0, 9),
    rocks=st.booleans(),
)
def test_most_bearing_from_an_end_bounds_what_bears_there_at_every_facing(
    system: str, table: int, step: Direction, steps: int, rocks: bool
) -> None:
    """``most_bearing_from``, where a module gives it, is at least the weapons ``bearing_from`` finds bearing from
    the end at any facing (the VMS bot skips the plots ending there by it), the target's own hex included."""
    view, at = candidate_end(system, table, step, steps, rocks)
    m = module(system)
    most = m.most_bearing_from(view, "Hawk", at)
    if most is None:
        return  # not given: the bot bounds by the arsenal alone
    for facing in Direction:
        assert len({weapon for weapon, _ in m.bearing_from(view, "Hawk", at, facing)}) <= most


@settings(max_examples=80, deadline=None)
@given(
    table=st.integers(0, 2),
    step=st.sampled_from(list(Direction)),
    steps=st.integers(0, 18),
    rocks=st.booleans(),
    spent=st.booleans(),
)
def test_vv5_most_bearing_from_is_exactly_the_most_any_facing_brings_to_bear(
    table: int, step: Direction, steps: int, rocks: bool, spent: bool
) -> None:
    """VV5's ``most_bearing_from`` is not only a bound but the most weapons ``bearing_from`` finds at the best
    facing: guns and launchers in range, missiles alone beyond the guns' reach, none beyond the launchers' or
    behind rocks, launchers spent counted out."""
    view, at = candidate_end("vv5", table, step, steps, rocks)
    if spent:
        card = view.cards["Hawk"]
        view = replace(view, cards={**view.cards, "Hawk": replace(card, launchers=("spent",) * len(card.launchers))})
    m = module("vv5")
    most = max(len({weapon for weapon, _ in m.bearing_from(view, "Hawk", at, f)}) for f in Direction)
    assert m.most_bearing_from(view, "Hawk", at) == most


def test_msc_most_bearing_from_counts_two_arcs_a_target_and_none_out_of_range() -> None:
    view = duel("msc", MSC_TABLE, distance=2)  # three weapons: F, FL and FR
    m = module("msc")
    hawk, raven = view.ship("Hawk").hex, view.ship("Raven").hex
    assert m.most_bearing_from(view, "Hawk", hawk) == 2  # one target, seen by two arcs at most
    assert m.most_bearing_from(view, "Hawk", raven) == 3  # in the target's hex every arc holds it
    assert m.most_bearing_from(view, "Hawk", raven.neighbour(Direction.A, 7)) == 0  # beyond MSC's range of 6


@pytest.mark.parametrize("system", sorted(TABLES))
@settings(max_examples=60, deadline=None)
@given(
    table=st.integers(0, 2),
    distance=st.integers(0, 12),
    facing=st.sampled_from(list(Direction)),
    shift=st.sampled_from(list(Direction)),
    aside=st.integers(0, 3),
    spent=st.booleans(),
)
def test_can_fire_says_whether_there_is_any_legal_shot(
    system: str, table: int, distance: int, facing: Direction, shift: Direction, aside: int, spent: bool
) -> None:
    """``can_fire`` (the movement side's test of a side at every fire step) is whether ``legal_shots`` is empty: out
    of range, out of arc, out of the fight."""
    tables = TABLES[system]
    view = duel(system, tables[table % len(tables)], distance=max(1, distance), target_facing=facing)
    raven = view.ship("Raven")
    hawk = view.ship("Hawk")
    ships = (
        replace(hawk, status="destroyed") if spent else hawk,
        replace(raven, hex=raven.hex.neighbour(shift, aside)),
    )
    view = replace(view, ships=ships)
    m = module(system)
    for side in ("red", "blue"):
        assert m.can_fire(view, side) == bool(m.legal_shots(view, side))
