"""Vector V5's guns and damage locations as a combat module, played under another system's movement (VMS).

An adapter over VV5's own pure functions: the gun table (``gun_to_hit``),
its dice modifiers (``gun_modifier``), the gun arcs (``GUN_ARCS``,
``in_arc``), the line of fire, the gunfire notation (``Gunfire``) and the
damage-location table with armour (``apply_damage``, ``damage_structure``); a
declaration is refused by VV5's own checks (``check_launches_on``,
``check_gunfire_on``), read on the module's view.
Each call is given, for that moment, the VV5 ``Ship`` VV5 itself uses, built
from the neutral combatant and the module's card.

As in VV5, gun damage is only noted when a shot hits and is rolled for
after every side has fired (:meth:`VV5Combat.after_fire`, the Gun Damage
step). The movement side's turning penalty lowers the shooter's 2D6 roll;
"unable to accelerate" (+3 to hit it) is the combatant's ``can_thrust``.
An acceleration hit comes back as "thrust lost" (one of the fitted
acceleration boxes), life support gone as "disabled", structure gone as
"destroyed".

Missiles are launched in the same declaration as gunfire
(``X1 2>Y1 fwd*2>Y1``: two missiles and a two-gun shot). A launch puts an
incoming marker on the target's card at the table's number (+1 if the
target has guns facing the launcher, the several-targets option, and the
movement side's turning penalty); the missile flies through the next
movement phase, where every hex of velocity change the target buys moves
its marker one space down, and is rolled for once every ship has moved
(:meth:`VV5Combat.after_movement`), as VV5 rolls after its own movement.

VV5's initiative orders fire (:meth:`VV5Combat.fire_initiative`: the holder
picks the side that declares first), and a gun hit may land on a ship in the
way (VV5's deflection roll), each an option whose default is VV5's rule
(``vv5_fire_initiative``, ``vv5_deflection``). Left out (docs/rules/vms.md):
huge hulls, crews and shock, which no VMS scenario has.

The design's ``[combat.vv5]`` table is a VV5 design (``mass``,
``acceleration``, ``agility``, ``guns``, ``missiles``, ``armour``, ...),
checked by VV5's tonnage rules.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from vectorwar.combat.base import Combatant, CombatModule, CombatView, Effect, Outcome, roll_off
from vectorwar.dice import Dice
from vectorwar.display import ShotOption
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Direction, Hex
from vectorwar.memo import Kept, last_answer
from vectorwar.notation import is_hold
from vectorwar.odds import Modifier, Odds
from vectorwar.roster import id_lookup, replace_fields
from vectorwar.rules import OptionSpec, Order, PhaseSpec
from vectorwar.systems.vv5.arcs import CODE_OF, GUN_ARCS, MISSILE_ARC, WEAPON_WORDS, covered_hexes, in_arc
from vectorwar.systems.vv5.combat import (
    GUN_RANGE,
    MISSILE_RANGE,
    RULE_GUNS,
    RULE_MISSILES,
    RULE_RAPID,
    SEVERAL_TARGETS,
    apply_damage,
    damage_structure,
    deflect,
    gun_modifier_on,
    gun_odds,
    gun_to_hit,
    guns_facing,
    in_the_way,
    missile_odds,
    missile_to_hit,
    missile_verdict,
    on_track,
    spread_adjustment,
)
from vectorwar.systems.vv5.design import design_from_data
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.events import GunsFired, InitiativeWon, MissileLaunched, MissileResolved
from vectorwar.systems.vv5.initiative import initiative_roll
from vectorwar.systems.vv5.legality import check_gunfire_on, check_launches_on
from vectorwar.systems.vv5.module_bearing import MISSILES, bearing_from, bearing_on, most_bearing_from
from vectorwar.systems.vv5.module_card import (
    GUN,
    MISSILE,
    Throw,
    VV5Card,
    as_vv5_ship,
    card_after,
    card_effects,
    expected_lost,
    vv5_card,
)
from vectorwar.systems.vv5.module_greedy import greedy_volley
from vectorwar.systems.vv5.module_volley import (
    Volley,
    mount_name,
    volley_board,
)
from vectorwar.systems.vv5.orders import Gunfire, Launch, Launches, Shot
from vectorwar.systems.vv5.state import Box, Mount
from vectorwar.systems.vv5.targeting import gun_in_reach, missile_in_reach
from vectorwar.vectors import Velocity

RULE_TURN = "VMS Rotational System 4 (turning penalty)"

#: :meth:`VV5Combat._launch_number`'s answers, with the combatants and card they read.
_LAUNCH_NUMBERS: Kept[tuple[int, ...], tuple[tuple[object, ...], int]] = Kept(1 << 12)

#: Who orders fire under another system's movement (ruling *VMS with VV5 combat: initiative*).
FIRE_INITIATIVE = OptionSpec(
    "vv5_fire_initiative",
    "vv5",
    "VMS with VV5 combat: who decides the order sides declare fire in. vv5: VV5's initiative (1D6 a side, "
    "+2 to the side with fewest ships in play, a tie keeps last turn's holder), whose holder picks the side "
    "that declares first; roll-off: a d6 each, highest declares first, ties re-rolled",
    ("vv5", "roll-off"),
)
#: Whether a gun hit may land on a ship in the way under another system's movement (ruling *VMS with VV5
#: combat: deflection*).
DEFLECTION = OptionSpec(
    "vv5_deflection",
    True,
    "VMS with VV5 combat: a gun hit may strike a ship in a hex between firer and target "
    "(a die per ship in the way, nearest the firer first; a 6 moves the hit to it)",
)


class VV5Combat(CombatModule):
    name = "vv5"
    strength_label = "structure left"
    title = "Vector V5 missiles, guns and damage"
    source = "../shared/seeds/001_b2e225cb8a9dead4.txt, Launch Missiles, Gunfire, Gun Damage, Damage, Armour"
    dice = ("d6", "2d6")
    phase = PhaseSpec(
        "fire",
        "Missiles and gunfire (VV5): sides declare and fire in d6 order; gun damage is rolled after, "
        "missiles after the next movement",
        "fire",
    )
    fire_help = (
        "launches as SHIP COUNT>TARGET and shots as SHIP MOUNT*GUNS>TARGET, "
        "e.g. 'X1 2>Y1 fwd*2>Y1 fwd*2>Y1; X2 t360*1>Y3', or 'hold'"
    )
    options = (SEVERAL_TARGETS, FIRE_INITIATIVE, DEFLECTION)

    def card(self, name: str, data: Mapping[str, Any], source: str) -> VV5Card:
        # A game's every ship's card is read from its design's table, read once and shared by every game after: each
        # card is kept by the table's identity (the table kept beside it, so that its identity is not reused).
        key = (name, id(data), source)
        known = _CARDS.get(key)
        if known is not None and known[0] is data:
            return known[1]
        return _CARDS.keep(key, (data, self._card_of(name, data, source)))[1]

    @staticmethod
    def _card_of(name: str, data: Mapping[str, Any], source: str) -> VV5Card:
        design = design_from_data({"name": name, **data}, source, "combat.vv5")
        s = build_ship("card", "side", name, design, hex=Hex(0, 0), facing=Direction.A, velocity=Velocity())
        return VV5Card(
            "vv5",
            s.mass,
            s.kind,
            s.structure,
            s.cargo,
            s.agility,
            s.acceleration,
            s.life_support,
            s.mounts,
            launchers=s.launchers,
            missile_armour=s.missile_armour,
        )

    def fire_order(self, sides: Sequence[str], dice: Dice, events: list[Event]) -> tuple[str, ...]:
        return roll_off(sides, dice, events, "initiative")

    def fire_initiative(
        self, view: CombatView, sides: Sequence[str], holder: str, dice: Dice, events: list[Event]
    ) -> str | None:
        # VV5 Initiative, as VV5's own turn rolls it; the option's roll-off leaves the order to fire_order.
        if not sides or view.options.get(FIRE_INITIATIVE.name, FIRE_INITIATIVE.default) != "vv5":
            return None  # no side left to hold it (every ship gone in the movement), or the roll-off
        side, kept = initiative_roll({s: len(view.ships_of(s)) for s in sides}, holder, dice, events)
        events.append(InitiativeWon(side, kept))
        return side

    def parse_fire(self, view: CombatView, side: str, text: str) -> Volley:
        if is_hold(text):  # Volley.parse's own first answer, without the look-ups it reads nothing of
            return Volley(Launches(()), Gunfire(()))
        own = id_lookup(s.id for s in view.ships_of(side))
        guns = {(s.id, m.arc): m.guns.boxes for s in view.ships_of(side) for m in vv5_card(view, s.id).mounts}
        return Volley.parse(text, own, id_lookup(s.id for s in view.ships), guns)

    def check_fire(self, view: CombatView, side: str, order: Order) -> None:
        if not isinstance(order, Volley):
            raise IllegalOrderError(str(order), "missile launches and gunfire are due now", RULE_GUNS)
        if not order.launches.launches and not order.gunfire.shots:
            return  # a hold: VV5's checks ask something of each launch and shot only (a search's trials hold often)
        # VV5's own checks of launches and gunfire (VV5 Launch Missiles, Gunfire), on this view's board.
        on = volley_board(view)
        check_launches_on(on, side, order.launches)
        check_gunfire_on(on, side, order.gunfire)

    def _targets(self, view: CombatView, ship_id: str, arc: str, side: str) -> list[str]:
        # gun_problem's test without its words (every side's turn asks legal_shots whether it can fire).
        ship = view.ship(ship_id)
        return [t.id for t in view.enemies_of(side) if gun_in_reach(view.map, arc, ship.hex, ship.facing, t.hex)]

    def _launch_targets(self, view: CombatView, ship_id: str) -> list[str]:
        """Every enemy ``ship_id`` may launch at now (none once its missiles are gone)."""
        ship = view.ship(ship_id)
        if not ship.active or not vv5_card(view, ship_id).missiles_ready:
            return []
        return [t.id for t in view.enemies_of(ship.side) if missile_in_reach(view.map, ship.hex, ship.facing, t.hex)]

    def _ship_mounts(self, view: CombatView, ship_id: str) -> list[Mount]:
        return [m for m in vv5_card(view, ship_id).mounts if m.guns.boxes > 0]

    def _mounts(self, view: CombatView, side: str) -> list[tuple[str, Mount]]:
        return [(s.id, m) for s in view.ships_of(side) for m in self._ship_mounts(view, s.id)]

    def legal_shots(self, view: CombatView, side: str) -> list[Order]:
        launches = [
            Volley(Launches((Launch(ship.id, 1, target),)), Gunfire(()))
            for ship in view.ships_of(side)
            for target in self._launch_targets(view, ship.id)
        ]
        shots = [
            Volley(Launches(()), Gunfire((Shot(ship, m.arc, 1, target),)))
            for ship, m in self._mounts(view, side)
            for target in self._targets(view, ship, m.arc, side)
        ]
        return [*launches, *shots]

    def can_fire(self, view: CombatView, side: str) -> bool:
        # legal_shots' test, stopping at the first launch or shot found, no order built; kept for the last view
        # asked about: the combat step asks it of each side, and again as it finds the next side to fire, of one view.
        known = _firing(view)
        found = known.get(side)
        if found is None:
            found = known[side] = any(self._launch_targets(view, ship.id) for ship in view.ships_of(side)) or any(
                self._targets(view, ship_id, m.arc, side) for ship_id, m in self._mounts(view, side)
            )
        return found

    def shot_options(self, view: CombatView, ship_id: str) -> list[ShotOption]:
        # Each number of missiles or of the mount's guns is its own piece, as under VV5 itself.
        ship = view.ship(ship_id)
        if not ship.active:
            return []
        ready = vv5_card(view, ship_id).missiles_ready
        launches = [
            ShotOption(
                MISSILES,
                target,
                f"{n}>{target}",
                f"{WEAPON_WORDS['missiles']} ({n} missile{'s' if n > 1 else ''})",
                self.launch_odds(view, ship_id, target, 0),
                n,
                ready,
                RULE_MISSILES,
                # "Every weapon at this target" launches one missile: the rest stay for later turns.
                volley=1 if n == 1 else 0,
            )
            for target in self._launch_targets(view, ship_id)
            for n in range(1, ready + 1)
        ]
        shots = [
            ShotOption(
                mount_name(m.arc),
                target,
                f"{CODE_OF[m.arc]}*{n}>{target}",
                WEAPON_WORDS[m.arc],
                self.gun_odds(view, Shot(ship_id, m.arc, n, target)),
                n,
                2 * m.guns.boxes,
                RULE_RAPID,
                # "Every weapon at this target" fires the whole mount, twice (rapid fire).
                volley=2 if n == m.guns.boxes else 0,
            )
            for m in self._ship_mounts(view, ship_id)
            for target in self._targets(view, ship_id, m.arc, ship.side)
            for n in range(1, m.guns.boxes + 1)
        ]
        return [*launches, *shots]

    def bearing(self, view: CombatView, ship_id: str) -> dict[tuple[str, str], int]:
        ship = view.ship(ship_id)
        return self.bearing_from(view, ship_id, ship.hex, ship.facing)

    def bearing_from(self, view: CombatView, ship_id: str, at: Hex, facing: Direction) -> dict[tuple[str, str], int]:
        # shot_options' pieces without their odds, which cost most of a VMS bot's move scoring (the hot path).
        return bearing_from(view, ship_id, at, facing)

    def bearing_on(self, view: CombatView, ship_id: str, target_id: str, at: Hex) -> dict[str, int]:
        # The one target's entries, the view left as it is: the VMS bot's threat on the ship it moves.
        return bearing_on(view, ship_id, target_id, at)

    def most_bearing_from(self, view: CombatView, ship_id: str, at: Hex) -> int | None:
        # Exact, not only a bound: the VMS bot opens none of the courses ending where fewer weapons can bear.
        return most_bearing_from(view, ship_id, at)

    def arsenal(self, view: CombatView, ship_id: str) -> dict[str, int] | None:
        if not view.ship(ship_id).active:
            return {}
        # Read off the card once (the VMS bot asks it of every ship for every decision), handed out afresh.
        card = vv5_card(view, ship_id)
        known = _ARSENALS.get(id(card))
        if known is None or known[0] is not card:
            out = {MISSILES: card.missiles_ready} if card.missiles_ready else {}
            for m in card.mounts:
                if m.guns.boxes > 0:
                    out[mount_name(m.arc)] = out.get(mount_name(m.arc), 0) + m.guns.boxes
            known = _ARSENALS.keep(id(card), (card, tuple(out.items())))
        return dict(known[1])

    def random_fire(self, view: CombatView, side: str, rng: random.Random) -> Volley:
        launches: list[Launch] = []
        for ship in view.ships_of(side):
            targets = self._launch_targets(view, ship.id)
            if targets and rng.random() < 0.5:
                ready = vv5_card(view, ship.id).missiles_ready
                launches.append(Launch(ship.id, rng.randint(1, ready), rng.choice(targets)))
        shots: list[Shot] = []
        for ship_id, m in self._mounts(view, side):
            targets = self._targets(view, ship_id, m.arc, side)
            if targets:
                for _ in range(rng.randint(0, 2)):
                    shots.append(Shot(ship_id, m.arc, rng.randint(1, m.guns.boxes), rng.choice(targets)))
        return Volley(Launches(tuple(launches)), Gunfire(tuple(shots)))

    def greedy_fire(self, view: CombatView, side: str) -> Volley:
        return greedy_volley(self, view, side)

    def _launches(self, view: CombatView, launches: Launches) -> Iterator[tuple[Launch, int]]:
        """Each launch with its incoming marker's space; a ship's launches share its several-targets adjustment."""
        mode = str(view.options.get(SEVERAL_TARGETS.name, SEVERAL_TARGETS.default))
        for ship_id in dict.fromkeys(x.ship for x in launches.launches):
            mine = [x for x in launches.launches if x.ship == ship_id]
            adjust = spread_adjustment([(x.missiles, x.target) for x in mine], mode)
            for launch in mine:
                yield launch, self._launch_number(view, ship_id, launch.target, adjust)

    def _launch_number(self, view: CombatView, ship_id: str, target_id: str, adjust: int) -> int:
        """The incoming marker's space at launch: :meth:`launch_odds`' number, its modifiers summed without the
        odds worked out (greedy fire and the search's estimates ask it of every launch): kept by the two combatants and
        the target's card (by identity, kept beside the answer), as a search's views share them from trial to trial."""
        ship, target = view.ship(ship_id), view.ship(target_id)
        card = vv5_card(view, target_id)
        key = (id(ship), id(target), id(card), adjust, view.penalty_per_hexside)
        known = _LAUNCH_NUMBERS.get(key)
        if known is not None:
            return known[1]
        distance = ship.hex.distance(target.hex)
        base = missile_to_hit(distance)
        if base is None:  # pragma: no cover - a launch is checked in range first
            raise ValueError(f"{target_id} is {distance} hexes away; missiles reach {MISSILE_RANGE}")
        # The target's guns facing the launch, as guns_facing reads them off its card.
        facing = distance > 1 and any(
            m.guns.boxes > 0 and in_arc(GUN_ARCS[m.arc], target.hex, target.facing, ship.hex) for m in card.mounts
        )
        found = on_track(base + int(facing) + adjust + view.penalty_per_hexside * ship.hexsides_turned)
        return _LAUNCH_NUMBERS.keep(key, ((ship, target, card), found))[1]

    def launch_odds(self, view: CombatView, ship_id: str, target_id: str, adjust: int) -> Odds:
        """A missile's odds: the table, guns facing, ``adjust`` (several targets), the turning penalty."""
        ship, target = view.ship(ship_id), view.ship(target_id)
        distance = ship.hex.distance(target.hex)
        found: list[Modifier] = []
        if distance > 1 and guns_facing(as_vv5_ship(view, target_id), ship.hex):
            found.append(Modifier(f"{target_id}'s guns face the launch", 1, RULE_MISSILES))
        if adjust:
            found.append(Modifier("launching at several targets this turn", adjust, SEVERAL_TARGETS.name))
        turning = view.penalty_per_hexside * ship.hexsides_turned
        if turning:
            found.append(Modifier(f"{ship_id} turned {ship.hexsides_turned} hexside(s) this turn", turning, RULE_TURN))
        return missile_odds(as_vv5_ship(view, ship_id), as_vv5_ship(view, target_id), tuple(found))

    def gun_odds(self, view: CombatView, shot: Shot) -> Odds:
        """A gun shot's odds: VV5's table and modifiers, less the turning penalty; :meth:`fire` rolls against it."""
        shooter = view.ship(shot.ship)
        penalty = view.penalty_per_hexside * shooter.hexsides_turned
        extra = (
            (Modifier(f"{shot.ship} turned {shooter.hexsides_turned} hexside(s) this turn", -penalty, RULE_TURN),)
            if penalty
            else ()
        )
        target = as_vv5_ship(view, shot.target, to_be_shot=True)
        return gun_odds(as_vv5_ship(view, shot.ship), mount_name(shot.mount), shot.guns, target, extra)

    def _gun_number(self, view: CombatView, shot: Shot) -> tuple[int, int, int]:
        """:meth:`gun_odds`' range, number and modifier, summed without the odds worked out (every shot fired and
        every shot the search judges asks it)."""
        shooter, target = view.ship(shot.ship), view.ship(shot.target)
        distance = shooter.hex.distance(target.hex)
        need = gun_to_hit(distance)
        if need is None:
            raise ValueError(f"{target.id} is {distance} hexes away; guns reach {GUN_RANGE}")
        card = vv5_card(view, target.id)
        # The target's acceleration as as_vv5_ship(to_be_shot=True) reads it: none where the movement side says
        # it cannot thrust.
        able = target.can_thrust and card.acceleration.boxes > 0
        turning = view.penalty_per_hexside * shooter.hexsides_turned
        return distance, need, gun_modifier_on(shot.guns, card.mass, able) - turning

    def expected_losses(self, view: CombatView, side: str, order: Order) -> dict[str, float]:
        # Every shot's points at one target added up, and the structure they are expected to cost it over
        # where each point lands (VV5 Damage). A missile is taken to meet a target burning half its
        # acceleration to dodge, as VV5's own bots reckon.
        if not isinstance(order, Volley):  # pragma: no cover - check_fire refused it
            raise TypeError("a VV5 volley expected")
        incoming: dict[str, list[Throw]] = {}
        for launch, to_hit in self._launches(view, order.launches):
            target = view.ship(launch.target)
            dodge = vv5_card(view, target.id).acceleration.boxes // 2 if target.can_thrust else 0
            throw = (MISSILE, to_hit, dodge, target.can_thrust)
            if launch.missiles > 0:  # a target none is launched at takes nothing: no entry
                incoming.setdefault(target.id, []).extend([throw] * launch.missiles)
        for shot in order.gunfire.shots:
            _, number, modifier = self._gun_number(view, shot)
            incoming.setdefault(shot.target, []).append((GUN, number - modifier, shot.guns, False))
        return {ship_id: expected_lost(view, ship_id, tuple(throws)) for ship_id, throws in incoming.items()}

    def fire(self, view: CombatView, side: str, order: Order, dice: Dice, events: list[Event]) -> Outcome:
        if not isinstance(order, Volley):  # pragma: no cover - check_fire refused it
            raise TypeError("a VV5 volley expected")
        if not order.launches.launches and not order.gunfire.shots:
            events.append(Note(f"{side} holds its missiles and guns"))
        cards: dict[str, VV5Card] = {}

        def current(ship_id: str) -> VV5Card:
            return cards.get(ship_id, vv5_card(view, ship_id))

        for launch, to_hit in self._launches(view, order.launches):
            ship_id = launch.ship
            launchers = list(current(ship_id).launchers)
            distance = view.ship(ship_id).hex.distance(view.ship(launch.target).hex)
            for _ in range(launch.missiles):
                launchers[launchers.index("ready")] = "spent"
                marked = current(launch.target)
                cards[launch.target] = replace_fields(marked, incoming=(*marked.incoming, (ship_id, to_hit)))
                events.append(MissileLaunched(ship_id, launch.target, distance, to_hit))
            cards[ship_id] = replace_fields(current(ship_id), launchers=tuple(launchers))
        for shot in order.gunfire.shots:
            shooter, target = view.ship(shot.ship), view.ship(shot.target)
            distance, need, modifier = self._gun_number(view, shot)
            roll = dice.roll("2d6", f"{shooter.id} {shot.mount} guns at {target.id}")
            events.append(Rolled.of(roll))
            hit = roll.total + modifier >= need
            damage = (shot.guns if roll.faces[0] == roll.faces[1] else 1) if hit else 0
            events.append(
                GunsFired(
                    shooter.id, shot.mount, shot.guns, target.id, distance, need, modifier, roll.total, hit, damage
                )
            )
            if hit:
                victim = self._deflected(view, shooter, target, dice, events)
                card = current(victim)
                cards[victim] = replace_fields(card, noted=(*card.noted, (shooter.id, damage)))
        return Outcome(cards)

    @staticmethod
    def _deflected(view: CombatView, shooter: Combatant, target: Combatant, dice: Dice, events: list[Event]) -> str:
        """The ship a gun hit lands on: VV5's roll for each ship in the way (the option ``vv5_deflection``)."""
        if not view.options.get(DEFLECTION.name, DEFLECTION.default):
            return target.id
        if not any(s.active and s.id != shooter.id and s.id != target.id for s in view.ships):
            return target.id  # no other ship in the fight to stand in the way: no line drawn, no die

        def occupant(h: Hex) -> str | None:
            return next((s.id for s in view.ships if s.active and s.hex == h), None)

        in_way = [(i, view.ship(i).hex) for i in in_the_way(shooter.hex, target.hex, occupant, shooter.id, target.id)]
        return deflect(target.id, in_way, dice, events)

    def after_fire(self, view: CombatView, dice: Dice, events: list[Event]) -> Outcome:
        cards: dict[str, VV5Card] = {}
        effects: list[Effect] = []
        for c in view.ships:
            card = vv5_card(view, c.id)
            if not card.noted:
                continue
            before = as_vv5_ship(view, c.id)
            after = before
            for attacker, points in card.noted:
                after = apply_damage(after, points, dice, events, f"gunfire from {attacker}")
            cards[c.id] = card_after(card, after, noted=())
            effects.extend(card_effects(before, after, card))
        return Outcome(cards, tuple(effects))

    def after_movement(self, view: CombatView, dice: Dice, events: list[Event]) -> Outcome:
        """Every incoming missile is rolled for, its 2D6 damage applied before the next (Resolving Missile Attacks)."""
        cards: dict[str, VV5Card] = {}
        effects: list[Effect] = []
        for c in view.ships:
            card = vv5_card(view, c.id)
            if not card.incoming:
                continue
            before = as_vv5_ship(view, c.id)
            after = before
            for shooter, to_hit in card.incoming:
                if not after.active or not c.active:
                    events.append(Note(f"{shooter}'s missile finds no target: {c.id} is out of the fight"))
                    continue
                roll = dice.roll("2d6", f"{shooter}'s missile at {c.id}")
                events.append(Rolled.of(roll))
                need, hit, note = missile_verdict(to_hit, c.accelerated, roll.total, c.can_thrust)
                events.append(MissileResolved(shooter, c.id, need, roll.total, hit, note))
                if hit:
                    damage = dice.roll("2d6", f"missile damage to {c.id}")
                    events.append(Rolled.of(damage))
                    after = apply_damage(after, damage.total, dice, events, f"missile from {shooter}")
            cards[c.id] = card_after(card, after, incoming=())
            effects.extend(card_effects(before, after, card))
        return Outcome(cards, tuple(effects))

    def after_movement_in_prospect(self, view: CombatView) -> tuple[Outcome, dict[str, float]]:
        # Each missile at its marker moved down by the target's G this turn, as ``after_movement`` rolls it.
        cards: dict[str, VV5Card] = {}
        lost: dict[str, float] = {}
        for c in view.ships:
            card = vv5_card(view, c.id)
            if not card.incoming:
                continue
            cards[c.id] = replace_fields(card, incoming=())
            if not c.active:
                continue
            throws = tuple((MISSILE, to_hit, c.accelerated, c.can_thrust) for _, to_hit in card.incoming)
            lost[c.id] = expected_lost(view, c.id, throws)
        return Outcome(cards), lost

    def structure_damage(self, view: CombatView, ship_id: str, dice: int, total: int, events: list[Event]) -> Outcome:
        card = vv5_card(view, ship_id)
        before = as_vv5_ship(view, ship_id)
        after = before
        for _ in range(total):
            if not after.active:
                break
            after = damage_structure(after, events)
        return Outcome({ship_id: card_after(card, after)}, tuple(card_effects(before, after, card)))

    def card_rows(self, card: Any) -> list[tuple[str, str]]:
        if not isinstance(card, VV5Card):
            raise TypeError("VV5 card expected")

        def box(b: Box) -> str:
            armour = f" (+{b.armour} armour)" if b.armour_fitted else ""
            return f"{b.boxes}/{b.fitted}{armour}"

        rows = [
            ("mass", f"{card.mass} t"),
            ("structure", box(card.structure)),
            ("acceleration", box(card.acceleration)),
            ("agility", box(card.agility)),
            ("life support", box(card.life_support)),
        ]
        rows.extend((f"{m.arc} guns", box(m.guns)) for m in card.mounts)
        if card.launchers:
            armour = f" (+{card.missile_armour.armour} armour)" if card.missile_armour.armour_fitted else ""
            spent = card.launchers.count("spent")
            lost = card.launchers.count("destroyed")
            rows.append(
                (
                    "missiles",
                    f"{card.missiles_ready} ready of {len(card.launchers)}"
                    + (f", {spent} spent" if spent else "")
                    + (f", {lost} launcher(s) destroyed" if lost else "")
                    + armour,
                )
            )
        if card.incoming:
            rows.append(
                (
                    "incoming missiles",
                    ", ".join(f"from {s} at {n}+" for s, n in card.incoming)
                    + " (each G it accelerates next movement: 1 higher)",
                )
            )
        if card.noted:
            rows.append(("gun damage noted", ", ".join(f"{p} from {a}" for a, p in card.noted)))
        return rows

    def arc_hexes(self, view: CombatView, ship_id: str) -> dict[str, frozenset[Hex]]:
        ship = view.ship(ship_id)
        card = vv5_card(view, ship_id)
        arcs = {
            mount_name(m.arc): covered_hexes(GUN_ARCS[m.arc], ship.hex, ship.facing, GUN_RANGE, view.map.contains)
            for m in card.mounts
            if m.guns.boxes > 0
        }
        if card.missiles_ready:
            arcs[MISSILES] = covered_hexes(MISSILE_ARC, ship.hex, ship.facing, MISSILE_RANGE, view.map.contains)
        return arcs

    def strength(self, card: Any) -> float:
        return float(card.structure.boxes) if isinstance(card, VV5Card) else 0.0


__all__ = ["DEFLECTION", "FIRE_INITIATIVE", "VV5Card", "VV5Combat", "Volley", "as_vv5_ship"]


#: :meth:`VV5Combat.arsenal`'s weapons by the card's identity, with the card (so that no other takes its identity).
_ARSENALS: Kept[int, tuple[VV5Card, tuple[tuple[str, int], ...]]] = Kept(1 << 10)
#: :meth:`VV5Combat.card`'s cards, by design name, table (its identity) and source, with the table.
_CARDS: Kept[tuple[str, int, str], tuple[Mapping[str, Any], VV5Card]] = Kept(256)


@last_answer
def _firing(view: CombatView) -> dict[str, bool]:
    """:meth:`VV5Combat.can_fire`'s answers for ``view`` by side, filled as asked (the last view's kept)."""
    return {}
