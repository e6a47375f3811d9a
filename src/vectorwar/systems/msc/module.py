"""Minimal Space Combat's fire and damage (MSC 7.0) as a combat module, played under another system's movement (VMS).

The module is an adapter: each shot builds, for the moment of the roll, the
MSC ``Ship`` the MSC system itself uses (from the neutral combatant and the
module's card) and calls MSC's own functions, ``weapon_bears`` (range, arc,
line of sight), ``fire_weapon`` (to-hit and the damage table), MSC's
fire-order notation, and MSC's own check of a declaration and list of the
shots that bear (``check_fire``, ``shots_bearing``, ``random_fire``), so the
legality of a shot is written once, in MSC. What the movement side adds is the turning penalty: the
shooter's TO-HIT is lowered by the view's penalty per hexside turned this
turn. An ENGINE hit comes back as "thrust lost", one part of the ENGINE
rating; the last SHIELD gone as "destroyed".

The design's ``[combat.msc]`` table is an MSC design (``engine``,
``shields``, ``to_hit``, ``weapons``), checked by MSC's own design rules
(25 BP at most); ``name`` may be left out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from vectorwar.combat.base import CombatModule, CombatView, Effect, Outcome, roll_off
from vectorwar.dice import Dice
from vectorwar.display import ShotOption
from vectorwar.events import Damaged, Destroyed, Event, Note
from vectorwar.hexes import Direction, Hex
from vectorwar.odds import Modifier, Odds
from vectorwar.roster import id_lookup
from vectorwar.rules import Order, PhaseSpec
from vectorwar.systems.msc.arcs import Side, sides_seeing
from vectorwar.systems.msc.combat import (
    MAX_RANGE,
    RULE_COMBAT,
    damage_side,
    fire_weapon,
    hit_chance,
    line_of_sight,
    shot_odds,
    sides_in_reach,
    to_hit_number,
    weapon_bears,
)
from vectorwar.systems.msc.design import design_from_data
from vectorwar.systems.msc.fire import check_fire, random_fire, shots_bearing
from vectorwar.systems.msc.orders import FireOrders, Shot, parse_fire
from vectorwar.systems.msc.state import Ship

RULE_PENALTY = "VMS Rotational System 4 (-2 per hexside turned)"


@dataclass(frozen=True, slots=True)
class MSCCard:
    """The combat half of an MSC Ship Turn Record: ratings and the ovals still open."""

    module: Literal["msc"]
    engine_rating: int
    shield_rating: int
    to_hit: int
    weapons_fitted: tuple[Side, ...]
    engine: int
    shields: int
    weapons: tuple[Side, ...]


def _card(view: CombatView, ship_id: str) -> MSCCard:
    card = view.cards[ship_id]
    if not isinstance(card, MSCCard):
        raise TypeError(f"{ship_id} has no MSC combat card")
    return card


def as_msc_ship(view: CombatView, ship_id: str, penalty: int = 0) -> Ship:
    """The MSC ``Ship`` MSC's functions expect, TO-HIT lowered by ``penalty``.

    A fire declaration's checks, a bot's greedy fire and a search's fire in prospect ask for the same ships of one
    view again and again: the ships built are kept for the last view asked about (recognised by identity; it and
    the ships are frozen).
    """
    global _last_ships
    known, built = _last_ships
    if known is not view:
        built = {}
        _last_ships = (view, built)
    key = (ship_id, penalty)
    ship = built.get(key)
    if ship is None:
        ship = built[key] = _msc_ship(view, ship_id, penalty)
    return ship


#: The view :func:`as_msc_ship` last answered about and the ships it built from it, by id and penalty.
_last_ships: tuple[CombatView | None, dict[tuple[str, int], Ship]] = (None, {})
#: The view :meth:`MSCCombat._shots` last answered about and its answers, by side.
_last_shots: tuple[CombatView | None, dict[str, tuple[Shot, ...]]] = (None, {})


def _msc_ship(view: CombatView, ship_id: str, penalty: int) -> Ship:
    c = view.ship(ship_id)
    card = _card(view, ship_id)
    return Ship(
        id=c.id,
        side=c.side,
        design=c.name,
        name=c.name,
        engine_rating=card.engine_rating,
        shield_rating=card.shield_rating,
        to_hit=card.to_hit - penalty,
        weapons_fitted=card.weapons_fitted,
        hex=c.hex,
        facing=c.facing,
        speed=0,
        engine=card.engine,
        shields=card.shields,
        weapons=card.weapons,
        status="active" if c.active else "destroyed",
    )


def weapon_name(weapon: Side) -> str:
    """A weapon as :meth:`MSCCombat.arc_hexes` and :meth:`MSCCombat.shot_options` name it."""
    return f"{weapon} weapon"


#: The most arcs that hold one hex other than the ship's own, whatever its bearing: two, on the edge between them
#: (tests/combat/test_msc_module.py checks it against the arcs).
_MOST_ARCS = 2

#: :func:`weapon_name` of every side, for the bots' hot paths.
_NAMES: dict[Side, str] = {side: weapon_name(side) for side in Side}


#: The view :func:`_in_sight` last answered about (recognised by identity; it is frozen) and its answers.
_last_sight: tuple[CombatView | None, dict[tuple[str, int, int], list[tuple[str, Hex]]]] = (None, {})


def _in_sight(view: CombatView, side: str, at: Hex) -> list[tuple[str, Hex]]:
    """The active enemies of ``side`` within range of ``at`` and in its line of sight, each with its hex.

    Where they are does not depend on the shooter's facing: a bot tries several facings at each end hex, so
    the answers are kept for the last view asked about.
    """
    global _last_sight
    known, found = _last_sight
    if known is not view:
        found = {}
        _last_sight = (view, found)
    key = (side, at.q, at.r)
    sight = found.get(key)
    if sight is None:
        q, r = at.q, at.r
        sight = []
        for t in view.enemies_of(side):
            dq, dr = t.hex.q - q, t.hex.r - r
            if abs(dq) + abs(dr) + abs(dq + dr) <= 2 * MAX_RANGE and line_of_sight(view.map, at, t.hex):
                sight.append((t.id, t.hex))
        found[key] = sight
    return sight


def turn_penalty(view: CombatView, ship_id: str) -> int:
    """How much the shooter's turning this turn costs it (VMS, in to-hit points)."""
    return view.penalty_per_hexside * view.ship(ship_id).hexsides_turned


def _penalty(view: CombatView, shot: Shot) -> tuple[Modifier, ...]:
    penalty = turn_penalty(view, shot.ship)
    if not penalty:
        return ()
    turned = view.ship(shot.ship).hexsides_turned
    return (Modifier(f"{shot.ship} turned {turned} hexside(s) this turn", -penalty, RULE_PENALTY),)


class MSCCombat(CombatModule):
    name = "msc"
    strength_label = "shields left"
    title = "Minimal Space Combat fire and damage"
    source = "../shared/seeds/004_bc5643c5592641a2.txt, MSC 7.0"
    dice = ("d6",)
    phase = PhaseSpec("fire", "Combat (MSC 7.0): sides declare and resolve fire in d6 initiative order", "fire")
    fire_help = "shots as SHIP SIDE>TARGET, e.g. 'Hawk F>Raven FL>Raven; Kite FR>Raven', or 'hold'"

    def card(self, name: str, data: Mapping[str, Any], source: str) -> MSCCard:
        design = design_from_data({"name": name, **data}, source, "combat.msc")
        sides = design.weapon_sides
        return MSCCard("msc", design.engine, design.shields, design.to_hit, sides, design.engine, design.shields, sides)

    def fire_order(self, sides: Sequence[str], dice: Dice, events: list[Event]) -> tuple[str, ...]:
        # MSC 4.0: a d6 each, highest first, ties re-rolled.
        return roll_off(sides, dice, events, "initiative")

    def parse_fire(self, view: CombatView, side: str, text: str) -> FireOrders:
        return parse_fire(text, id_lookup(s.id for s in view.ships_of(side)), id_lookup(s.id for s in view.ships))

    def check_fire(self, view: CombatView, side: str, order: Order) -> None:
        # MSC's own check of a declaration (MSC 7.0), on this view's board.
        def bears(shot: Shot) -> str | None:
            return weapon_bears(view.map, as_msc_ship(view, shot.ship), shot.weapon, as_msc_ship(view, shot.target))

        check_fire(order, side, {s.id for s in view.ships_of(side)}, view.ship, bears)

    def _ship_shots(self, view: CombatView, ship_id: str) -> list[Shot]:
        """The one enumeration of legal single shots: prompts, bots and front ends all read it."""
        ship = view.ship(ship_id)
        if not ship.active:
            return []
        # Each ship converted once, not once per weapon: bots ask this for every candidate move.
        targets = [as_msc_ship(view, target.id) for target in view.enemies_of(ship.side)]
        return shots_bearing(view.map, as_msc_ship(view, ship.id), targets)

    def _shots(self, view: CombatView, side: str) -> tuple[Shot, ...]:
        # Whether a side has a shot, then its greedy fire (a search's fire in prospect) are asked of one view: the
        # shots are kept for the last view asked about (by identity, as :func:`as_msc_ship` keeps its ships).
        global _last_shots
        known, found = _last_shots
        if known is not view:
            found = {}
            _last_shots = (view, found)
        shots = found.get(side)
        if shots is None:
            shots = found[side] = tuple(
                shot for ship in view.ships_of(side) for shot in self._ship_shots(view, ship.id)
            )
        return shots

    def legal_shots(self, view: CombatView, side: str) -> list[Order]:
        return [FireOrders((shot,)) for shot in self._shots(view, side)]

    def shot_options(self, view: CombatView, ship_id: str) -> list[ShotOption]:
        return [
            ShotOption(
                weapon_name(shot.weapon),
                shot.target,
                f"{shot.weapon}>{shot.target}",
                f"{shot.weapon.words} weapon",
                self.odds(view, shot),
                1,
                1,
                RULE_COMBAT,
            )
            for shot in self._ship_shots(view, ship_id)
        ]

    def bearing(self, view: CombatView, ship_id: str) -> dict[tuple[str, str], int]:
        ship = view.ship(ship_id)
        return self.bearing_from(view, ship_id, ship.hex, ship.facing)

    def bearing_from(self, view: CombatView, ship_id: str, at: Hex, facing: Direction) -> dict[tuple[str, str], int]:
        # _ship_shots' pieces (one a weapon and target), asked of the board directly: bots ask this for every
        # candidate move, so the range is tested in whole numbers before the arc and the line of sight.
        ship = view.ship(ship_id)
        if not ship.active:
            return {}
        card = _card(view, ship_id)
        weapons = [weapon for weapon in card.weapons if weapon in card.weapons_fitted]
        if not weapons:
            return {}
        reach = []
        for t, where in _in_sight(view, ship.side, at):
            sides = sides_seeing(at, facing, where)
            if sides:
                reach.append((t, sides))
        return {(_NAMES[weapon], t): 1 for weapon in weapons for t, sides in reach if weapon in sides}

    def bearing_on(self, view: CombatView, ship_id: str, target_id: str, at: Hex) -> dict[str, int]:
        # bearing_from's entries for the one target, the view left as it is.
        ship = view.ship(ship_id)
        dq, dr = at.q - ship.hex.q, at.r - ship.hex.r
        if abs(dq) + abs(dr) + abs(dq + dr) > 2 * MAX_RANGE or not ship.active:
            return {}
        target = view.ship(target_id)
        if target.side == ship.side or not target.active:
            return {}
        sides = sides_in_reach(view.map, ship.hex, ship.facing, at)
        if not sides:
            return {}
        card = _card(view, ship_id)
        return {_NAMES[weapon]: 1 for weapon in card.weapons if weapon in card.weapons_fitted and weapon in sides}

    def most_bearing_from(self, view: CombatView, ship_id: str, at: Hex) -> int | None:
        # The enemies in range of ``at`` (bearing_from's targets, the line of sight left unchecked: a bound), each
        # held by at most two arcs (one on the edge between them), one in the shooter's own hex by all six: whichever
        # way the ship faces.
        ship = view.ship(ship_id)
        if not ship.active:
            return 0
        q, r = at.q, at.r
        seen = 0
        for t in view.enemies_of(ship.side):
            dq, dr = t.hex.q - q, t.hex.r - r
            if dq == 0 and dr == 0:
                seen += len(Side)
            elif abs(dq) + abs(dr) + abs(dq + dr) <= 2 * MAX_RANGE:
                seen += _MOST_ARCS
        if not seen:
            return 0
        card = _card(view, ship_id)
        return min(seen, sum(1 for weapon in card.weapons if weapon in card.weapons_fitted))

    def arsenal(self, view: CombatView, ship_id: str) -> dict[str, int] | None:
        if not view.ship(ship_id).active:
            return {}
        card = _card(view, ship_id)
        return {weapon_name(w): 1 for w in card.weapons if w in card.weapons_fitted}

    def odds(self, view: CombatView, shot: Shot) -> Odds:
        """MSC's odds with the movement system's turning penalty named; :meth:`fire` rolls against the same."""
        return shot_odds(
            as_msc_ship(view, shot.ship), shot.weapon, as_msc_ship(view, shot.target), _penalty(view, shot)
        )

    def random_fire(self, view: CombatView, side: str, rng: random.Random) -> FireOrders:
        targets = [as_msc_ship(view, target.id) for target in view.enemies_of(side)]
        return random_fire(view.map, [as_msc_ship(view, s.id) for s in view.ships_of(side)], targets, rng)

    def greedy_fire(self, view: CombatView, side: str) -> FireOrders:
        # The side's shots worked out once and looked up by ship and weapon (in the order found, so ``max`` keeps
        # the same first-best): built afresh for every weapon, they cost a big battle's turn ~n^3.
        by_weapon: dict[tuple[str, Side], list[Shot]] = {}
        for s in self._shots(view, side):
            by_weapon.setdefault((s.ship, s.weapon), []).append(s)
        shots: list[Shot] = []
        for ship in view.ships_of(side):
            for weapon in _card(view, ship.id).weapons:
                options = by_weapon.get((ship.id, weapon))
                if options:
                    shots.append(max(options, key=lambda s: self._value(view, s)))
        return FireOrders(tuple(shots))

    def _value(self, view: CombatView, shot: Shot) -> tuple[float, int]:
        shooter = as_msc_ship(view, shot.ship, turn_penalty(view, shot.ship))
        target = view.ship(shot.target)
        need = to_hit_number(shooter, shooter.hex.distance(target.hex))
        return (hit_chance(need or 0), -_card(view, target.id).shields)

    def expected_losses(self, view: CombatView, side: str, order: Order) -> dict[str, float]:
        # A hit takes a SHIELD on 1-4 of the damage die, and on a 5 (ENGINE) or a 6 (the weapon facing the
        # shooter) once those are gone (MSC 7.0 Damage); the last SHIELD destroys the ship.
        if not isinstance(order, FireOrders):  # pragma: no cover - check_fire refused it
            raise TypeError("MSC fire orders expected")
        chances: dict[str, list[float]] = {}
        for shot in order.shots:
            card = _card(view, shot.target)
            target = as_msc_ship(view, shot.target)
            spare = (card.engine == 0) + (damage_side(target, view.ship(shot.ship).hex) is None)
            hit = float(self.odds(view, shot).chance)
            chances.setdefault(shot.target, []).append(hit * (4 + spare) / 6)
        return {ship_id: _expected_min(_card(view, ship_id).shields, p) for ship_id, p in chances.items()}

    def fire(self, view: CombatView, side: str, order: Order, dice: Dice, events: list[Event]) -> Outcome:
        if not isinstance(order, FireOrders):  # pragma: no cover - check_fire refused it
            raise TypeError("MSC fire orders expected")
        if not order.shots:
            events.append(Note(f"{side} holds fire"))
        cards: dict[str, MSCCard] = {}
        effects: list[Effect] = []
        destroyed: set[str] = set()
        for shot in order.shots:
            current = CombatView(view.ships, {**view.cards, **cards}, view.map, view.penalty_per_hexside)
            if shot.target in destroyed:
                events.append(Note(f"{shot.ship}'s {shot.weapon} shot is lost: {shot.target} is already destroyed"))
                continue
            penalty = turn_penalty(view, shot.ship)
            if penalty:
                events.append(Note(f"{shot.ship} turned this turn: TO-HIT {-penalty:+d} ({RULE_PENALTY})"))
            before = as_msc_ship(current, shot.target)
            shooter = as_msc_ship(current, shot.ship)
            after = fire_weapon(view.map, shooter, shot.weapon, before, dice, events, _penalty(current, shot))
            cards[shot.target] = _card_after(_card(current, shot.target), after)
            effects.extend(_effects(before, after))
            if after.status == "destroyed":
                destroyed.add(shot.target)
        return Outcome(cards, tuple(effects))

    def structure_damage(self, view: CombatView, ship_id: str, dice: int, total: int, events: list[Event]) -> Outcome:
        # MSC has no structure track but its SHIELDS: one per die (ruling *VMS overspeed damage*).
        card = _card(view, ship_id)
        shields = max(0, card.shields - dice)
        events.append(Damaged(ship_id, "SHIELD", card.shields - shields, shields))
        effects: tuple[Effect, ...] = ()
        if shields == 0:
            events.append(Destroyed(ship_id))
            effects = (Effect(ship_id, "destroyed"),)
        return Outcome({ship_id: replace(card, shields=shields)}, effects)

    def card_rows(self, card: Any) -> list[tuple[str, str]]:
        if not isinstance(card, MSCCard):
            raise TypeError("MSC card expected")
        fitted = " ".join(str(w) for w in card.weapons_fitted) or "none"
        working = " ".join(str(w) for w in card.weapons) or "none"
        return [
            ("ENGINE", f"{card.engine}/{card.engine_rating}"),
            ("SHIELDS", f"{card.shields}/{card.shield_rating}"),
            ("TO-HIT", str(card.to_hit)),
            ("weapons", f"{working} (fitted {fitted})"),
        ]

    def arc_hexes(self, view: CombatView, ship_id: str) -> dict[str, frozenset[Hex]]:
        ship = as_msc_ship(view, ship_id)
        out: dict[str, frozenset[Hex]] = {}
        for weapon in ship.weapons:
            out[weapon_name(weapon)] = frozenset(
                h
                for h in ship.hex.within(MAX_RANGE)
                if view.map.contains(h) and weapon in sides_seeing(ship.hex, ship.facing, h)
            )
        return out

    def strength(self, card: Any) -> float:
        return float(card.shields) if isinstance(card, MSCCard) else 0.0


def _expected_min(cap: int, chances: Sequence[float]) -> float:
    """The expected number of ``chances`` (independent events) that come true, counted up to ``cap``.

    >>> _expected_min(1, [0.5, 0.5]), _expected_min(2, [0.5, 0.5])
    (0.75, 1.0)
    """
    count = [1.0]  # count[k]: the chance that exactly k have come true so far
    for p in chances:
        count = [c * (1 - p) + (count[k - 1] * p if k else 0.0) for k, c in enumerate([*count, 0.0])]
    return sum(min(k, cap) * c for k, c in enumerate(count))


def _card_after(card: MSCCard, ship: Ship) -> MSCCard:
    return replace(card, engine=ship.engine, shields=ship.shields, weapons=ship.weapons)


def _effects(before: Ship, after: Ship) -> list[Effect]:
    out: list[Effect] = []
    if after.engine < before.engine:
        out.append(Effect(after.id, "thrust lost", before.engine - after.engine, max(1, after.engine_rating)))
    for lost in set(before.weapons) - set(after.weapons):
        out.append(Effect(after.id, "weapon lost", what=f"{lost} weapon"))
    if after.status == "destroyed" and before.status != "destroyed":
        out.append(Effect(after.id, "destroyed"))
    return out
