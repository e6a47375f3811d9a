"""The VV5 turn between decisions (VV5 Sequence of Play): initiative, fire, damage, movement, the turn's end.

Pure functions of the state, the orders and the dice, called by the order kinds' resolutions
(:mod:`vectorwar.systems.vv5.kinds`): a declaration's resolution launches or fires and finds the
next side with something to shoot at; a plot's moves the ships and runs on through missile
resolution and boarding actions into the next turn's initiative.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from vectorwar.dice import Dice
from vectorwar.events import Event, Moved, Note, Rolled, TurnBegan
from vectorwar.roster import replace_fields
from vectorwar.rules import Order
from vectorwar.systems.vv5 import buying, crews, shock, specials
from vectorwar.systems.vv5.combat import apply_damage, missile_verdict, spread_adjustment
from vectorwar.systems.vv5.events import InitiativeWon, MissileLaunched, MissileResolved
from vectorwar.systems.vv5.gunfire import fire_shot, launch_number
from vectorwar.systems.vv5.hazards import asteroid_fields
from vectorwar.systems.vv5.initiative import roll_initiative
from vectorwar.systems.vv5.orders import Gunfire, Launches, Manoeuvre, Plot
from vectorwar.systems.vv5.specials.adp import platforms_drift, platforms_fire
from vectorwar.systems.vv5.state import Missile, Ship, VV5State
from vectorwar.systems.vv5.targeting import can_fire_guns, can_launch
from vectorwar.systems.vv5.victory import credit, elimination, finish


def start(state: VV5State, dice: Dice) -> tuple[VV5State, list[Event]]:
    """The game's opening: the placements, then the special's and the purchase's set-up, then turn 1."""
    events: list[Event] = []
    if state.placing:
        # The body and pod are the players' to place first; the special starts once they are down.
        return replace_fields(state, phase="place"), events
    state = specials.begin(state, dice, events)
    state = buying.begin(state, dice, events)
    if state.purchase is not None:
        return state, events
    return begin_turn(state, dice, events), events


def settle(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """What follows every decision of the turn: shock from what just happened, the crews' escapes at the end."""
    if shock.enabled(state):  # the optional rule's events are looked for only when it is on
        state = shock.absorb(state, shock.since_check(events))
    return crews.roll_escapes(state, dice, events)


# -- initiative and fire -----------------------------------------------------------


def begin_turn(state: VV5State, dice: Dice, events: list[Event], number: int | None = None) -> VV5State:
    """Turn ``number`` begins (the state's own turn unless given: the turn's end passes the next one, set in
    the same copy of the state as the rest): the G forgotten, the initiative rolled, then the declarations."""
    number = state.turn if number is None else number
    events.append(TurnBegan(number))
    # Last turn's G are forgotten (only ships that burned have any to forget).
    ships = state.ships
    if any(s.accelerated for s in ships):
        ships = tuple(replace_fields(s, accelerated=0) if s.accelerated else s for s in ships)
    holder, kept = roll_initiative(state, dice, events)
    events.append(InitiativeWon(holder, kept))
    # The turn's state is made at the declare-order prompt, where a turn with two sides in play and something to
    # shoot goes; each other way sets a phase of its own before anything reads it.
    state = replace_fields(
        state,
        turn=number,
        ships=ships,
        guns_fired=(),
        declaring=0,
        declare_order=(),
        initiative=holder,
        phase="choose-order",
    )
    in_play = state.sides_in_play()
    if len(in_play) > 1 and any(can_shoot(state, side) for side in in_play):
        return state
    if len(in_play) == 1 and can_shoot(state, in_play[0]):
        # Alone against the engine's platforms (Invasion): no one to declare before, straight to missiles.
        return next_declarer(replace_fields(state, phase="missiles", declare_order=in_play, declaring=0), dice, events)
    return after_gunfire(state, dice, events)


def after_gunfire(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """Defence platforms fire, then all gun damage is resolved, then plotting."""
    state = platforms_fire(state, dice, events)
    state = gun_damage(state, dice, events)
    over = elimination(state, events)
    return (
        over if over is not None else shock.panic_check(replace_fields(state, phase="plot", declaring=0), dice, events)
    )


def can_shoot(state: VV5State, side: str) -> bool:
    return can_launch(state, side) or can_fire_guns(state, side)


def next_declarer(state: VV5State, dice: Dice, events: list[Event], declaring: int | None = None) -> VV5State:
    """The next side in the declaring order with something to launch at (or, after missiles, to fire at),
    from place ``declaring`` in the order (the state's own place unless given).

    The sides passed over change nothing the answers are read from, so they are asked of this state and the
    phase and place found are set in one copy of it."""
    phase, at = state.phase, state.declaring if declaring is None else declaring
    order = state.declare_order
    while True:
        missiles = phase == "missiles"
        if at >= len(order):
            if missiles:
                phase, at = "guns", 0
                continue
            return after_gunfire(_declaring(state, phase, at), dice, events)
        side = order[at]
        able = can_launch(state, side) if missiles else can_fire_guns(state, side)
        if state.ships_of(side) and able:
            return _declaring(state, phase, at)
        at += 1


def _declaring(state: VV5State, phase: str, at: int) -> VV5State:
    """``state`` with ``phase`` and the place ``at`` in the declaring order (itself where they are its own)."""
    if phase == state.phase and at == state.declaring:
        return state
    return replace_fields(state, phase=phase, declaring=at)


def launch(state: VV5State, order: Launches, events: list[Event]) -> VV5State:
    if not order.launches:
        events.append(Note(f"{state.declare_order[state.declaring]} launches no missiles"))
    mode = str(state.options.get("several_targets", "harder"))
    # The launchers spent and the missiles on their tracks go into one copy of the state at the end: a launch's
    # number reads the ships' places, guns and crews, which launching changes in none of them.
    launched: list[Ship] = []
    incoming = list(state.incoming)
    for ship_id in dict.fromkeys(x.ship for x in order.launches):
        mine = [x for x in order.launches if x.ship == ship_id]
        adjust = spread_adjustment([(x.missiles, x.target) for x in mine], mode)
        ship = state.ship(ship_id)
        launchers = list(ship.launchers)
        for one in mine:
            distance, to_hit = launch_number(state, ship.id, one.target, adjust)
            for _ in range(one.missiles):
                launchers[launchers.index("ready")] = "spent"
                incoming.append(Missile(ship.id, one.target, to_hit))
                events.append(MissileLaunched(ship.id, one.target, distance, to_hit))
        launched.append(replace_fields(ship, launchers=tuple(launchers)))
    return state.with_ships(launched, incoming=tuple(incoming)) if launched else state


def fire(state: VV5State, order: Gunfire, dice: Dice, events: list[Event]) -> VV5State:
    if not order.shots:
        events.append(Note(f"{state.declare_order[state.declaring]} holds its guns"))
    for shot in order.shots:
        state = fire_shot(state, shot, dice, events)
    return state


def gun_damage(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    for record in state.gun_damage:
        target = state.ship(record.target)
        attacker_side = state.ship(record.attacker).side
        damaged = apply_damage(target, record.points, dice, events, f"gunfire from {record.attacker}")
        if crews.enabled(state):
            damaged = crews.note_attacker(damaged, record.attacker)
        state = state.with_ship(credit(target, damaged, attacker_side))
    return replace_fields(state, gun_damage=()) if state.gun_damage else state


# -- movement and the turn's end ------------------------------------------------------


def move(state: VV5State, plots: Iterable[Plot], dice: Dice, events: list[Event]) -> VV5State:
    """Every side's plots carried out: escapes, panic moves, the special's pull, Ace Moments, the moves."""
    moves: dict[str, Manoeuvre] = {}
    retreating: set[str] = set()
    for plot in plots:
        moves.update(dict(plot.moves))
        retreating.update(plot.retreats)
        state = crews.abandon(state, plot.escapes, events)
    moves = shock.fill_panic_moves(state, moves)
    special = specials.special_for(state)
    if special is not None:
        state = special.before_movement(state, dice, events)
    aces = crews.roll_ace_moments(state, dice, events)
    first = len(events)
    state = crews.move_all_but(state, moves, aces, dice, events, frozenset(retreating))
    state = platforms_drift(state, dice, events)
    if state.map.terrain:  # (asteroid fields are terrain: a board with none has none to fly into)
        state = asteroid_fields(state, [e for e in events[first:] if isinstance(e, Moved)], dice, events)
    if aces:
        return replace_fields(state, phase="ace-replot", ace_replot=aces)
    return after_movement(state, dice, events)


def move_aces(state: VV5State, plots: Iterable[Plot], dice: Dice, events: list[Event]) -> VV5State:
    """The aces' new plots carried out, after every other ship has moved (Experienced Crews)."""
    replots: dict[str, Manoeuvre] = {}
    retreating: set[str] = set()
    for plot in plots:
        replots.update(dict(plot.moves))
        retreating.update(plot.retreats)
    first = len(events)
    state = crews.move_aces(state, replots, dice, events, frozenset(retreating))
    state = asteroid_fields(state, [e for e in events[first:] if isinstance(e, Moved)], dice, events)
    return after_movement(replace_fields(state, phase="plot", ace_replot=()), dice, events)


def after_movement(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    special = specials.special_for(state)
    if special is not None:
        state = special.after_movement(state, dice, events)
    state = resolve_missiles(state, dice, events)
    if special is not None:
        state = special.boarding(state, dice, events)
    return end_turn(state, dice, events)


def resolve_missiles(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    for missile in state.incoming:
        target = state.ship(missile.target)
        if not target.active:
            events.append(Note(f"{missile.shooter}'s missile finds no target: {target.id} is {target.status}"))
            continue
        roll = dice.roll("2d6", f"{missile.shooter}'s missile at {target.id}")
        events.append(Rolled.of(roll))
        need, hit, note = missile_verdict(missile.to_hit, target.accelerated, roll.total, target.can_accelerate)
        events.append(MissileResolved(missile.shooter, target.id, need, roll.total, hit, note))
        if hit:
            damage = dice.roll("2d6", f"missile damage to {target.id}")
            events.append(Rolled.of(damage))
            shooter_side = state.ship(missile.shooter).side
            damaged = apply_damage(target, damage.total, dice, events, f"missile from {missile.shooter}")
            if crews.enabled(state):
                damaged = crews.note_attacker(damaged, missile.shooter)
            state = state.with_ship(credit(target, damaged, shooter_side))
    return replace_fields(state, incoming=()) if state.incoming else state


def end_turn(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    special = specials.special_for(state)
    scenario_end = special.game_over(state) if special is not None else None
    if scenario_end:
        return finish(state, scenario_end, events)
    over = elimination(state, events)
    if over is not None:
        return over
    if state.turn >= state.max_turns:
        return finish(state, f"turn limit {state.max_turns} reached", events)
    return begin_turn(state, dice, events, state.turn + 1)


def plots_of(orders: Mapping[str, Order]) -> list[Plot]:
    """The orders of a plotting prompt, each a plot (the kind's check refused anything else)."""
    plots = list(orders.values())
    for plot in plots:
        if not isinstance(plot, Plot):  # pragma: no cover - checked
            raise TypeError("plot expected")
    return [p for p in plots if isinstance(p, Plot)]
