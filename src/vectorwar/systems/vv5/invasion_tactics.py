"""How the ``greedy`` bot flies the human flight of VV5 scenario 9, Invasion.

The victory conditions (``specials/invasion.py``, :class:`InvasionState`)
count the strangely dense bodies that leave by the right edge, and the only
way to take a body off the board is to destroy a defence platform; if the
whole flight is lost, every body still on the board counts as through. A
platform's phasers hit 2D6 >= range for 1D6 points (a fighter's one box of
life support goes about half the time), while one missile hit (2D6 points)
all but always knocks a platform out or stops its engine, after which
anything but a 2 hits it. So:

* each ship with missiles is given a platform of its own, in lanes from the
  top of the board down (:func:`assigned`), skipping platforms about to
  drift off the board, since those take no body with them;
* it closes at no more than 3 hexes a turn (the platforms come at 3), which
  keeps it from flying past or off the board, and every plot is charged the
  phaser fire it invites from each platform it would be nearest to;
* it launches from 5 hexes or less, with its target in the forward arc,
  enough missiles to be fairly sure of one hit (:func:`salvo`), or all it
  has at poorer odds when a platform is about to shoot it;
* a ship with nothing left to launch keeps out of the phasers' reach unless
  its platform is crippled.
"""

from __future__ import annotations

from itertools import combinations

from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.systems.vv5 import buying, catalogue
from vectorwar.systems.vv5.arcs import MISSILE_ARC, in_arc
from vectorwar.systems.vv5.combat import missile_to_hit, p_at_least
from vectorwar.systems.vv5.gunfire import launch_odds
from vectorwar.systems.vv5.movement import DENSE_PREFIX, gravity_pull
from vectorwar.systems.vv5.specials.adp import PHASER_RANGE, phaser_hit
from vectorwar.systems.vv5.specials.invasion import crash_risk, invasion_state, on_board
from vectorwar.systems.vv5.state import Body, Ship, VV5State
from vectorwar.vectors import Velocity

THREAT = 6.0  # per expected phaser hit invited (a hit knocks a fighter out about half the time)
SHIELDED = 0.2  # share of a platform's fire on a ship when a friend will be nearer to it
STRIKE = 20.0  # for a launch position, times the chance that the ship's missiles hit at least once
STRIKE_RANGE = 5  # from 6 hexes a missile needs 10+ against a platform (two steps for its phasers and turret)
PULL = 0.6  # per hex between a ship with missiles and its platform
SHY = 0.8  # per hex (up to phaser range) a ship with nothing to launch keeps from its platform
SPEED = 3  # hexes a turn: the platforms come at 3; faster only carries a ship past them
SURE = 0.9  # a salvo aims for this chance of one hit
CALM = 10 / 36  # the least chance per missile worth a launch when nothing threatens the ship
DESPERATE = 5 / 36  # ... and when a platform it is nearest to is likely to hit it this turn
DANGER = 0.4  # what "likely" is


def assigned(state: VV5State, ship: Ship) -> Ship | None:
    """The platform ``ship`` goes for; every ship of the flight works the same answer out.

    Ships with missiles and the platforms still on the board in three turns
    are each taken from the top of the board down and paired in that order,
    so no two ships chase one platform while another goes free and the
    pairs do not swap from turn to turn. A ship with no missiles left
    watches the nearest platform.
    """
    platforms = list(state.ships_of(invasion_state(state).alien_side))
    if not platforms:
        return None
    staying = [p for p in platforms if state.map.contains(p.hex.shifted(3 * p.velocity.dq, 3 * p.velocity.dr))]
    marks = sorted(staying or platforms, key=lambda p: (p.hex.row, p.id))
    armed = sorted((s for s in state.ships_of(ship.side) if s.missiles_ready), key=lambda s: (s.hex.row, s.id))
    if ship not in armed:
        return min(platforms, key=lambda p: (ship.hex.distance(p.vector_marker), p.id))
    k, m = len(armed), len(marks)
    if k >= m:
        return marks[armed.index(ship) * m // k]
    # Fewer ships than platforms: the platforms nearest the ships' rows, kept in order.
    best = min(
        combinations(marks, k),
        key=lambda chosen: (
            sum(abs(s.hex.row - p.hex.row) for s, p in zip(armed, chosen, strict=True)),
            [p.id for p in chosen],
        ),
    )
    return best[armed.index(ship)]


def objective(state: VV5State, ship: Ship, end: Hex, facing: Direction, velocity: Velocity) -> float:
    """Score one plot of a human ship (its end hex, heading and new velocity) by the scenario's objective."""
    invasion = invasion_state(state)
    bodies = on_board(invasion)
    score = _flight_path(state, bodies, ship, end, velocity)
    platforms = [p.vector_marker for p in state.ships_of(invasion.alien_side)]
    if not platforms or not bodies:
        return score
    friends = [f.vector_marker for f in state.ships_of(ship.side) if f.id != ship.id]
    for where in platforms:
        distance = end.distance(where)
        if distance > PHASER_RANGE:
            continue
        # Each platform shoots the starship nearest to it: one a friend is nearer to shoots the friend.
        other = min((f.distance(where) for f in friends), default=99)
        share = 1.0 if distance < other else 0.5 if distance == other else SHIELDED
        score -= THREAT * share * phaser_hit(distance, ship)
    target = assigned(state, ship)
    if target is None:
        return score
    return _toward_target(score, ship, target, end, facing)


def _flight_path(state: VV5State, bodies: tuple[Body, ...], ship: Ship, end: Hex, velocity: Velocity) -> float:
    """The plot's cost in risks of the flight itself: crashing into a body, being flung off the board by
    the bodies' gravity, and speed that would carry the ship past the platforms or off the board."""
    score = -80.0 * crash_risk(state, end)
    # The bodies move before the starships: their pull comes from where they are headed.
    ahead = HexMap(
        state.map.sections,
        tuple((b.hex.shifted(b.velocity.dq, b.velocity.dr), f"{DENSE_PREFIX}{b.gravity}") for b in bodies),
    )
    pull = gravity_pull(ahead, ship.hex.line_to(end))
    if not state.map.contains(end.shifted(pull.dq, pull.dr)):
        score -= 200.0  # flung off the board: the ship is out of the fight
    score -= 1.0 * pull.speed
    score -= 1.0 * max(0, velocity.speed - SPEED)
    if not state.map.contains(end.shifted(2 * velocity.dq, 2 * velocity.dr)):
        score -= 5.0
    return score


def _toward_target(score: float, ship: Ship, target: Ship, end: Hex, facing: Direction) -> float:
    """``score`` plus what ending at ``end`` facing ``facing`` does for the ship's work on its platform.

    It takes ``score`` rather than returning a difference so the sum is made in the same order as ever
    (floating point): a bot's choice between near-equal plots must not change.
    """
    aim = target.vector_marker
    distance = end.distance(aim)
    if ship.missiles_ready:
        need = missile_to_hit(distance)
        if need is not None and distance <= STRIKE_RANGE and in_arc(MISSILE_ARC, end, facing, aim):
            # The platform's phasers and its turret each add one to the missile's number.
            p = 35 / 36 if not target.can_accelerate else p_at_least(need + 2)
            score += STRIKE * (1 - (1 - p) ** ship.missiles_ready)
        return score - PULL * distance
    if not target.can_accelerate and any(m.guns.boxes for m in ship.mounts):
        return score - PULL * distance  # a crippled platform is a fair mark for guns (+3 to hit)
    return score + SHY * min(distance, PHASER_RANGE + 1)


def salvo(state: VV5State, ship: Ship, target: Ship, missed: float) -> tuple[int, float]:
    """Missiles ``ship`` launches at platform ``target`` now (0: hold them), and each one's chance.

    ``missed`` is the chance that the missiles the flight has already
    launched at it this turn all miss. Enough to be fairly sure of one hit
    at fair odds; at poorer odds only when a platform that is likely to hit
    this ship (it is the nearest to it) is about to shoot, since a
    knocked-out ship launches nothing.
    """
    if not target.can_accelerate:
        p = 35 / 36
    else:
        need = launch_odds(state, ship.id, target.id, 0).need
        p = p_at_least(need) if need is not None else 0.0
    threshold = CALM
    flight = [f for f in state.ships_of(ship.side) if f.id != ship.id]
    for platform in state.ships_of(invasion_state(state).alien_side):
        distance = ship.hex.distance(platform.hex)
        nearest = all(f.hex.distance(platform.hex) > distance for f in flight)
        if distance <= PHASER_RANGE and nearest and phaser_hit(distance, ship) >= DANGER:
            threshold = DESPERATE
    if p < threshold or p <= 0:
        return 0, p
    count = 0
    while missed > 1 - SURE and count < ship.missiles_ready:
        missed *= 1 - p
        count += 1
    return count, p


def buy(state: VV5State, side: str) -> buying.Buy:
    """The flight to buy: the most ships, then the most missiles, then the most tons.

    Only missiles bring a platform down at a fair rate, and each platform
    shoots one starship a turn, so more hulls spread its fire; a flight of
    gun fighters (one missile each) stops almost nothing.
    """
    designs = catalogue.designs()
    choices = buying.choices_for(state, side)
    if not choices:
        return buying.Buy("", 0)

    def worth(c: buying.Buy) -> tuple[int, int, int, str]:
        d = designs[c.design]
        return c.count, c.count * (d.missiles - c.bombs), c.count * d.mass, c.design

    return max(choices, key=worth)
