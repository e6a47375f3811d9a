"""Victory points and the end of a VV5 game.

Damage and kills are credited to the side that did them as they happen
(:func:`credit`); at the end the points are totted up, a scenario's special
rules may add to them or decide the game on their own objective, and a level
score goes to the side still holding the field.
"""

from __future__ import annotations

from vectorwar.events import Event, GameOver
from vectorwar.roster import replace_fields
from vectorwar.rules import OptionSpec
from vectorwar.systems.vv5 import specials
from vectorwar.systems.vv5.combat import missile_hit_chance, on_track
from vectorwar.systems.vv5.state import Ship, VV5State

#: Whether the side that destroys a ship also scores the damage it did to it
#: (docs/rulings/vv5.md, *VV5 victory points*).
KILL_SCORES_DAMAGE = OptionSpec(
    "kill_scores_damage",
    False,
    "The scenarios' victory points: the side that destroys or knocks out a starship scores its kill (3 VPs per "
    "SI point, a transport 2) and not also the damage it did to that ship (False, the text's two lines read as "
    "two outcomes); True: it scores both, its damage points as on a ship still flying",
)


def credit(before: Ship, after: Ship, side: str) -> Ship:
    """Record which side did the damage, for victory points."""
    done = after.damage_taken - before.damage_taken
    if done:
        after = replace_fields(after, damage_by=_add(after.damage_by, side, done))
    cargo = before.cargo.boxes - after.cargo.boxes
    if cargo:
        # Kept apart: a damaged transport scores only its non-cargo damage; lost cargo scores on its own.
        after = replace_fields(after, cargo_lost_by=_add(after.cargo_lost_by, side, cargo))
    if before.active and not after.active:
        after = replace_fields(after, destroyed_by=side)
    return after


def _add(tally: tuple[tuple[str, int], ...], side: str, points: int) -> tuple[tuple[str, int], ...]:
    merged = dict(tally)
    merged[side] = merged.get(side, 0) + points
    return tuple(sorted(merged.items()))


def victory_points(state: VV5State) -> dict[str, int]:
    """Destroyed starship: 3 VP per SI point to the side that destroyed it; damage: 1 VP a point (not to the
    destroyer of the ship unless ``kill_scores_damage``).

    Transports (scenarios 3, 6, 8): destroyed 2 VP per SI point; damage 1 VP
    per 2 points, not counting hits on cargo boxes (scenarios score those).
    A scenario's special rules then add their own points.
    """
    points = dict.fromkeys(state.sides, 0)
    both = bool(state.options.get(KILL_SCORES_DAMAGE.name, KILL_SCORES_DAMAGE.default))
    for ship in state.ships:
        transport = ship.kind == "transport"
        cargo = dict(ship.cargo_lost_by)
        # The destroyer scores the kill, not its damage too, unless the option says both.
        unscored = (ship.side,) if both else (ship.destroyed_by, ship.side)
        for side, done in ship.damage_by:
            if side in points and side not in unscored:  # no VPs for hitting a friend
                points[side] += (done - cargo.get(side, 0)) // 2 if transport else done
        if ship.destroyed_by in points and ship.destroyed_by != ship.side:
            points[ship.destroyed_by] += (2 if transport else 3) * ship.mass
    special = specials.special_for(state)
    return points if special is None else special.score(state, points)


#: Missile damage is 2D6 points.
_MISSILE_DAMAGE = 7.0


def missiles_on_course(state: VV5State) -> dict[str, float]:
    """The victory points each side's missiles in flight are on course to score, in expectation.

    Not a rule: the search bot's judge of a game not yet over (``standing``). A
    trial that ends with missiles launched but not resolved would otherwise see
    nothing of them. The target is taken to burn half its acceleration boxes
    away, as a ship with missiles coming tends to; each hit is 2D6 points, half
    the VP on a transport.
    """
    points = dict.fromkeys(state.sides, 0.0)
    for missile in state.incoming:
        target = state.ship(missile.target)
        side = state.ship(missile.shooter).side
        if not target.active or side not in points or side == target.side:
            continue
        hit = missile_hit(target, missile.to_hit, target.accelerated)
        points[side] += hit * _MISSILE_DAMAGE * (0.5 if target.kind == "transport" else 1.0)
    return points


def missile_hit(target: Ship, to_hit: int, accelerated: int) -> float:
    """A missile's chance at ``to_hit`` on the track, ``target`` having burnt ``accelerated`` G so far this turn
    and taken to burn half its acceleration boxes more (the bots' guess: not a rule)."""
    evasion = accelerated + target.acceleration.boxes // 2 if target.can_accelerate else 0
    return float(missile_hit_chance(on_track(to_hit + evasion), target.can_accelerate))


def elimination(state: VV5State, events: list[Event]) -> VV5State | None:
    """The finished game if no side, or (for most scenarios) only one, has starships in play."""
    special = specials.special_for(state)
    in_play = state.sides_in_play()
    if not in_play:
        return finish(state, "no starships left in play", events)
    if len(in_play) == 1 and (special is None or special.ends_on_elimination):
        return finish(state, "only one side has starships left in play", events)
    return None


def finish(state: VV5State, reason: str, events: list[Event]) -> VV5State:
    vps = victory_points(state)
    special = specials.special_for(state)
    verdict = special.decide(state, vps) if special is not None else None
    if verdict is not None:
        winners, why = verdict
        events.append(GameOver(winners, f"{reason}; {why}"))
        return replace_fields(state, phase="over", winners=winners, end_reason=f"{reason}; {why}")
    best = max(vps.values()) if vps else 0
    leaders = tuple(s for s in state.sides if vps[s] == best)
    if len(leaders) > 1:
        # Level on points: a side still on the board holds the field (docs/rulings/vv5.md).
        holding = tuple(s for s in leaders if s in state.sides_in_play())
        leaders = holding if len(holding) == 1 else leaders
    winners = leaders if len(leaders) == 1 else ()
    summary = ", ".join(f"{s} {v} VP" for s, v in vps.items())
    events.append(GameOver(winners, f"{reason}; {summary}"))
    return replace_fields(state, phase="over", winners=winners, end_reason=f"{reason}; {summary}")
