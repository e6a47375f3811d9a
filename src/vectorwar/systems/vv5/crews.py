"""VV5 optional rule: Experienced Crews (option ``experienced_crews``).

A crew's experience points give it a rating: none a Rookie (its missiles and
guns need one more to hit), 1 a Regular, 5 a Veteran (+1 to its missile and
gun attacks), 10/20/30/40/50 an Ace of level 1 to 5 (the Veteran bonus and
an Ace Moment). A scenario names a ship's crew with the loadout tag
``crew:NAME:POINTS``; a ship without one carries an unnamed crew with no
points, a Rookie, as every crew is at the start of a campaign.

Ace Moments: once every plot is in, each Ace that is not panicking rolls 1D6;
an Ace of level N has its moment on 1..N (option ``ace_moment`` "table"), or
only on a 6 (option "six"). Every other ship then moves, and the aces with a
moment give a new plot (phase ``ace-replot``) and move last; ships already
placed hold their hexes, so an ace ending its re-plot on one is knocked aside.

After the game every crew whose ship was destroyed, knocked out or crashed
rolls 1D6 (+1 for an Ace) on the winning or losing side's escape table, and
:func:`update_roster` carries experience into a campaign roster file.

A crew may escape voluntarily (``X1 escape`` in place of the ship's plot):
the ship is abandoned at once, out of the battle, and the escape always
works; if the crew's side does not win, 1D6 at the end of the game captures
them on 1-2 (docs/rulings/vv5.md, *VV5 voluntary escapes*).

Defence platforms and other ships of engine-played sides have no crew: they
count as Regulars and never roll.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from vectorwar.dice import Dice
from vectorwar.errors import SaveFileError, ScenarioError
from vectorwar.events import Event, LeftMap, Moved, Rolled
from vectorwar.savefile import write_atomically
from vectorwar.systems.vv5.events import Crashed, Pulled
from vectorwar.systems.vv5.movement import move_ships, settle_edge
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.state import Ship, VV5State
from vectorwar.vectors import Velocity

if TYPE_CHECKING:
    from vectorwar.game import Game

OPTION = "experienced_crews"
ACE_OPTION = "ace_moment"
RULE_CREWS = "VV5 Experienced Crews (optional rule)"
RULE_ACE = "VV5 Ace Moments (optional rule)"
TAG = "crew:"
LOST = ("destroyed", "knocked-out", "crashed")
KILLED_BY_FIRE = ("destroyed", "knocked-out")

ROSTER_FORMAT = "vectorwar-vv5-crews"
ROSTER_VERSION = 1


def enabled(state: VV5State) -> bool:
    return bool(state.options.get(OPTION, False))


# -- ratings ------------------------------------------------------------------


def ace_level(points: int) -> int:
    """0 below 10 points, else 1 (10-19) ... 5 (50 and over)."""
    return 0 if points < 10 else min(5, points // 10)


def rating(points: int) -> str:
    if points <= 0:
        return "Rookie"
    if points < 5:
        return "Regular"
    level = ace_level(points)
    if level == 0:
        return "Veteran"
    return "Ace" if level == 1 else f"Ace({level})"


def crewed(state: VV5State, ship: Ship) -> bool:
    """Only the players' starships carry crews; platforms and derelicts the engine plays do not."""
    return ship.side not in state.automated and ship.kind != "adp"


def is_rookie(state: VV5State, ship: Ship) -> bool:
    return enabled(state) and crewed(state, ship) and ship.experience <= 0


def ship_ace_level(state: VV5State, ship: Ship) -> int:
    return ace_level(ship.experience) if enabled(state) and crewed(state, ship) else 0


def attack_bonus(state: VV5State, ship: Ship) -> int:
    """Added to the crew's gun rolls, taken off its missiles' to-hit numbers.

    A Rookie's numbers are one worse; the text's "reduced by 1" is read the way
    the ``several_targets`` ruling reads "reduce": the shot gets harder. A
    Veteran or Ace gets +1 unless it panicked at the last panic check.
    """
    if not enabled(state) or not crewed(state, ship):
        return 0
    if ship.experience <= 0:
        return -1
    if ship.experience >= 5 and not ship.panicked:
        return 1
    return 0


def note_attacker(ship: Ship, attacker: str) -> Ship:
    """Remember a ship whose fire hit this one: every one of them shares the kill."""
    return ship if attacker in ship.hit_by else replace(ship, hit_by=(*ship.hit_by, attacker))


# -- scenario tags ------------------------------------------------------------


def fit_crew(ship: Ship, loadout: tuple[str, ...], where: str) -> Ship:
    """Read a ``crew:NAME:POINTS`` tag onto the ship (at most one per ship)."""
    tags = [t for t in loadout if t.startswith(TAG)]
    if not tags:
        return ship
    if len(tags) > 1:
        raise ScenarioError(f"{where}: {ship.id} has {len(tags)} crew tags; give one crew:NAME:POINTS")
    body = tags[0].removeprefix(TAG)
    name, sep, points = body.rpartition(":")
    if not sep or not name.strip() or not points.isdigit():
        raise ScenarioError(
            f"{where}: {tags[0]!r}: write crew:NAME:POINTS with POINTS a whole number, e.g. crew:Ivanova:12"
        )
    return replace(ship, crew=name.strip(), experience=int(points))


def crew_tag(name: str, points: int) -> str:
    return f"{TAG}{name}:{points}"


# -- events -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AceMoment(Event):
    kind: ClassVar[str] = "vv5-ace-moment"
    ship: str
    level: int
    roll: int
    moment: bool

    def describe(self) -> str:
        if self.moment:
            return f"{self.ship}'s ace crew (level {self.level}) rolls {self.roll}: an Ace Moment, it will re-plot"
        return f"{self.ship}'s ace crew (level {self.level}) rolls {self.roll}: no Ace Moment"


@dataclass(frozen=True, slots=True)
class CrewFate(Event):
    kind: ClassVar[str] = "vv5-crew-fate"
    ship: str
    crew: str
    roll: int
    fate: str

    def describe(self) -> str:
        who = f"{self.crew} ({self.ship})" if self.crew else f"{self.ship}'s crew"
        if not self.roll:
            return f"{who}, escaped voluntarily on the winning side: {self.fate}"
        return f"{who} rolls {self.roll} to escape: {self.fate}"


# -- Ace Moments ----------------------------------------------------------------


def has_moment(level: int, roll: int, mode: str) -> bool:
    # The table's 1..N and the paragraph's "6" agree for a level-1 Ace (1 in 6); the table adds the levels.
    return roll == 6 if mode == "six" else roll <= level


def roll_ace_moments(state: VV5State, dice: Dice, events: list[Event]) -> tuple[str, ...]:
    """The aces (not panicking) that have an Ace Moment this turn, in ship order."""
    if not enabled(state):
        return ()
    mode = str(state.options.get(ACE_OPTION, "table"))
    moments: list[str] = []
    for ship in state.ships:
        level = ship_ace_level(state, ship)
        if not ship.active or level == 0 or ship.panicked:
            continue
        roll = dice.roll("d6", f"Ace Moment for {ship.id} (ace level {level})")
        events.append(Rolled.of(roll))
        moment = has_moment(level, roll.total, mode)
        events.append(AceMoment(ship.id, level, roll.total, moment))
        if moment:
            moments.append(ship.id)
    return tuple(moments)


def move_all_but(
    state: VV5State,
    plots: dict[str, Manoeuvre],
    waiting: tuple[str, ...],
    dice: Dice,
    events: list[Event],
    retreating: frozenset[str] = frozenset(),
) -> VV5State:
    """Move every ship but the aces waiting to re-plot (they stay put for now)."""
    if not waiting:
        return move_ships(state, plots, dice, events, retreating)
    others = replace(state, ships=tuple(s for s in state.ships if s.id not in waiting))
    moved = move_ships(others, plots, dice, events, settle=False)
    for ship in moved.ships:
        state = state.with_ship(ship)
    # The edge is settled on the whole battle, so a shift carries the waiting aces too.
    return settle_edge(state, retreating, events)


def move_aces(
    state: VV5State,
    plots: dict[str, Manoeuvre],
    dice: Dice,
    events: list[Event],
    retreating: frozenset[str] = frozenset(),
) -> VV5State:
    """Move the re-plotted aces among ships that have already moved.

    The placed ships take part as immovable pieces (steadfast, not moving), so
    the movement rules knock an ace aside from any hex one of them holds.
    Their own results are thrown away: they have moved already.
    """
    aces = set(state.ace_replot)
    placed = tuple(
        replace(s, velocity=Velocity(), steadfast=True) for s in state.ships if s.active and s.id not in aces
    )
    sub = replace(state, ships=(*(s for s in state.ships if s.id in aces), *placed))
    scratch: list[Event] = []
    moved = move_ships(sub, plots, dice, scratch, settle=False)
    fixed = {s.id for s in placed}
    for event in scratch:
        if isinstance(event, Moved | LeftMap | Pulled | Crashed) and event.ship in fixed:
            continue
        events.append(event)
    for ship in moved.ships:
        if ship.id in aces:
            state = state.with_ship(ship)
    return settle_edge(state, retreating, events)


# -- escapes --------------------------------------------------------------------


def escape_problem(state: VV5State, ship: Ship) -> str | None:
    """Why ``ship``'s crew may not escape voluntarily now (``None``: they may)."""
    if not enabled(state):
        return f"voluntary escapes belong to the optional rule Experienced Crews (option {OPTION})"
    if not crewed(state, ship):
        return f"{ship.id} has no crew to escape"
    if state.phase == "ace-replot":
        return "an Ace Moment re-plots the ship's move; the crew may escape at the next plot"
    return None


@dataclass(frozen=True, slots=True)
class Abandoned(Event):
    kind: ClassVar[str] = "vv5-abandoned"
    ship: str
    crew: str

    def describe(self) -> str:
        who = self.crew or "the crew"
        return f"{who} abandon {self.ship}: a voluntary escape; the ship is out of the battle"


def abandon(state: VV5State, ships: tuple[str, ...], events: list[Event]) -> VV5State:
    """The crews of ``ships`` escape voluntarily before movement: their ships leave the battle where they are."""
    for ship_id in ships:
        ship = state.ship(ship_id)
        events.append(Abandoned(ship.id, ship.crew))
        state = state.with_ship(replace(ship, status="abandoned", velocity=Velocity()))
    return state


def escape_fate(won: bool, roll: int, ace: bool) -> str:
    total = roll + (1 if ace else 0)
    if won:
        return "escaped" if total >= 4 else "killed"
    if total >= 5:
        return "escaped"
    return "captured" if total == 4 else "killed"


def roll_escapes(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """At the end of the game, each crew of a lost ship rolls to escape (a drawn game counts as lost)."""
    if not enabled(state) or state.phase != "over":
        return state
    for ship in state.ships:
        if ship.status == "abandoned" and not ship.crew_fate and crewed(state, ship):
            state = state.with_ship(replace(ship, crew_fate=_voluntary_fate(state, ship, dice, events)))
            continue
        if ship.status not in LOST or ship.crew_fate or not crewed(state, ship):
            continue
        ace = ace_level(ship.experience) > 0
        roll = dice.roll("d6", f"escape for {ship.id}'s crew" + (" (+1, ace)" if ace else ""))
        events.append(Rolled.of(roll))
        fate = escape_fate(ship.side in state.winners, roll.total, ace)
        events.append(CrewFate(ship.id, ship.crew, roll.total, fate))
        state = state.with_ship(replace(ship, crew_fate=fate))
    return state


def _voluntary_fate(state: VV5State, ship: Ship, dice: Dice, events: list[Event]) -> str:
    """A voluntary escape always works; on the side that did not win, 1-2 on 1D6 is capture."""
    if ship.side in state.winners:
        events.append(CrewFate(ship.id, ship.crew, 0, "escaped"))
        return "escaped"
    roll = dice.roll("d6", f"capture of {ship.id}'s crew after their voluntary escape (1-2 captured)")
    events.append(Rolled.of(roll))
    fate = "captured" if roll.total <= 2 else "escaped"
    events.append(CrewFate(ship.id, ship.crew, roll.total, fate))
    return fate


# -- the campaign roster ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrewRecord:
    name: str
    experience: int
    status: str = "active"  # "active", "killed" or "captured"


@dataclass(frozen=True, slots=True)
class CrewRoster:
    """Named crews carried from game to game, and the games already counted."""

    crews: tuple[CrewRecord, ...] = ()
    games: tuple[str, ...] = ()

    def crew(self, name: str) -> CrewRecord | None:
        return next((c for c in self.crews if c.name == name), None)

    def tag(self, name: str) -> str:
        """The loadout tag that puts this crew aboard a ship in a scenario file."""
        record = self.crew(name)
        if record is None:
            raise KeyError(name)
        return crew_tag(name, record.experience)


def game_key(game: Game) -> str:
    return f"{game.scenario.id}/seed {game.seed}/{len(game.history)} orders"


def experience_gained(state: VV5State, ship: Ship) -> int:
    """Winning side, each enemy destroyed with its fire, escaping a lost ship: 1 point each."""
    if ship.crew_fate in ("killed", "captured"):
        return 0
    points = 1 if ship.side in state.winners else 0
    points += sum(
        1
        for enemy in state.ships
        if enemy.side != ship.side and enemy.status in KILLED_BY_FIRE and ship.id in enemy.hit_by
    )
    # The text's point is for "escaping from a destroyed starship": a voluntary escape earns none.
    points += 1 if ship.crew_fate == "escaped" and ship.status in LOST else 0
    return points


def roster_name(ship: Ship) -> str:
    """The crew's name in a campaign roster: its tag's name, else its side and ship ("red X1").

    An untagged crew is still a crew the campaign follows (docs/rulings/vv5.md,
    *VV5 crews without a name*): the default names the side it flew, so the
    next game can put it aboard again with the roster's tag.
    """
    return ship.crew or f"{ship.side} {ship.id}"


def update_roster(roster: CrewRoster, game: Game) -> CrewRoster:
    """The roster after a finished game: experience added, the dead and captured marked.

    Every crewed ship counts, named or not (:func:`roster_name`).
    """
    state = game.state
    if not isinstance(state, VV5State) or state.phase != "over":
        raise ValueError("update_roster needs a finished VV5 game")
    if not enabled(state):
        raise ValueError(f"the game was played without the {OPTION} option: no experience to count")
    key = game_key(game)
    if key in roster.games:
        raise ValueError(f"the roster already counts game {key}")
    crews = {c.name: c for c in roster.crews}
    for ship in state.ships:
        if not crewed(state, ship):
            continue
        name = roster_name(ship)
        before = crews.get(name, CrewRecord(name, ship.experience))
        status = ship.crew_fate if ship.crew_fate in ("killed", "captured") else "active"
        crews[name] = CrewRecord(name, before.experience + experience_gained(state, ship), status)
    return CrewRoster(tuple(crews.values()), (*roster.games, key))


def roster_to_data(roster: CrewRoster) -> dict[str, Any]:
    return {
        "format": ROSTER_FORMAT,
        "version": ROSTER_VERSION,
        "crews": [{"name": c.name, "experience": c.experience, "status": c.status} for c in roster.crews],
        "games": list(roster.games),
    }


def roster_from_data(data: Any, source: str = "roster") -> CrewRoster:
    if not isinstance(data, dict) or data.get("format") != ROSTER_FORMAT:
        raise SaveFileError(f"{source}: not a VV5 crew roster")
    if data.get("version") != ROSTER_VERSION:
        raise SaveFileError(f"{source}: roster version {data.get('version')!r}, this vectorwar reads {ROSTER_VERSION}")
    try:
        crews = tuple(
            CrewRecord(str(c["name"]), int(c["experience"]), str(c.get("status", "active"))) for c in data["crews"]
        )
        games = tuple(str(g) for g in data.get("games", []))
    except (KeyError, TypeError, ValueError) as err:
        raise SaveFileError(f"{source}: bad crew entry: {err}") from None
    return CrewRoster(crews, games)


def save_roster(roster: CrewRoster, path: Path) -> None:
    """Write atomically, as save files are: the old roster or the new, never half of one."""
    write_atomically(path, json.dumps(roster_to_data(roster), indent=1) + "\n")


def load_roster(path: Path) -> CrewRoster:
    """The roster at ``path``; a file not there yet is an empty roster."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return CrewRoster()
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SaveFileError(f"{path}: not valid JSON: {err}") from None
    return roster_from_data(data, str(path))
