"""Luck: the hits a side's dice gave it against the hits the odds promised, shot by shot.

A game is replayed from its set-up, seed and orders. Before each batch of
orders, every shot a side declared is looked up with the system's own
:meth:`~vectorwar.rules.RuleSystem.fire_options` (the odds play shows and
resolves with, :mod:`vectorwar.odds`); after the batch, each shot the log
resolves (an event naming a ship, a target and whether it hit, or, for a
shot read off a damage table, the damage it scored) is paired with the declared shot of the same
ship and target whose number the log repeats. Its chance is what the odds
expected, its hit what the dice gave.

Luck is counted in hits, not damage points: the odds give the chance to hit
(AV:T: to score at least one point) and what a hit does only in words. In MSC,
and VMS under MSC combat, a hit is one point of damage, so there the two
agree. A resolved shot with no odds to pair (the odds still turn on what the
target does, like a VV5 missile on its track, or the system offers none)
counts in ``shots`` but not in ``rated``; a side with no rated shot has no
luck figure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vectorwar.display import ShotOption
from vectorwar.events import event_to_data
from vectorwar.game import Game
from vectorwar.notation import entries, is_hold
from vectorwar.odds import Odds


@dataclass
class SideLuck:
    """One side's shots in one game: all resolved, those with odds, their hits and the hits expected."""

    shots: int = 0
    rated: int = 0
    hits: int = 0
    expected: float = 0.0

    @property
    def luck(self) -> float | None:
        """Hits scored less hits expected over the rated shots; ``None`` with no rated shot."""
        return None if self.rated == 0 else self.hits - self.expected

    def to_data(self) -> dict[str, Any]:
        return {
            "shots": self.shots,
            "rated": self.rated,
            "hits": self.hits,
            "expected": round(self.expected, 6),
            "luck": None if self.luck is None else round(self.luck, 6),
        }


def game_luck(game: Game) -> dict[str, SideLuck]:
    """Side -> its luck over ``game``, worked out by replaying the game's orders."""
    system = game.system
    replay = Game.new(system, game.scenario, game.seed, game.options)
    sides = [s.id for s in game.scenario.sides]
    out = {side: SideLuck() for side in sides}
    for batch in game.history:
        if batch.end:
            replay.replay_batch(batch)
            continue
        # (ship, target) -> the odds of each declared shot, in order, and the side that declared it.
        declared: dict[tuple[str, str], list[tuple[str, Odds]]] = {}
        for side, text in batch.orders:
            if is_hold(text):
                continue
            options = system.fire_options(replay.state, side)
            for odds in _declared(text, options):
                declared.setdefault((odds.ship, odds.target), []).append((side, odds))
        owner = _owners(replay)
        start = len(replay.events)
        replay.replay_batch(batch)
        for event in replay.events[start:]:
            shot = _resolved_shot(event_to_data(event))
            if shot is None:
                continue
            ship, target, hit, need, modifier = shot
            queue = declared.get((ship, target), [])
            match = next(
                (i for i, (_, o) in enumerate(queue) if o.need == need and (need is None or o.modifier == modifier)),
                None,
            )
            if match is None:
                side = owner.get(ship, "")
                if side in out:
                    out[side].shots += 1
                continue
            side, odds = queue.pop(match)
            tally = out[side]
            tally.shots += 1
            if odds.worst is not None and odds.worst != odds.chance:
                continue  # the chance was not settled when the shot was declared
            tally.rated += 1
            tally.hits += int(hit)
            tally.expected += float(odds.chance)
    return out


def _declared(text: str, options: Mapping[str, Sequence[ShotOption]]) -> list[Odds]:
    """The odds of each shot in a side's order, in the order written.

    A shot is a word of a ship's entry (``SHIP PIECE PIECE``) that is the last
    word of one of the ship's shot options' pieces, where the piece's other
    words are in the entry too: AV:T writes ``fire A1>Wasp A2>Wasp`` for the
    pieces ``fire A1>Wasp`` and ``fire A2>Wasp``. VV5's rapid fire writes a
    piece twice: two shots.
    """
    found: list[Odds] = []
    by_ship = {ship.lower(): shots for ship, shots in options.items()}
    for entry in entries(text):
        words = entry.lower().replace(",", " ").split()
        pieces: dict[str, tuple[list[str], Odds | None]] = {}
        for option in by_ship.get(words[0], ()):
            *lead, last = option.piece.lower().split()
            pieces.setdefault(last, (lead, option.odds))
        for word in words[1:]:
            if word in pieces and all(w in words for w in pieces[word][0]):
                odds = pieces[word][1]
                if odds is not None:  # a shot the system gives no odds for stays unrated
                    found.append(odds)
    return found


def _owners(game: Game) -> dict[str, str]:
    return {placed.id: side for _, side, placed in game.scenario.placements()}


def _resolved_shot(data: Mapping[str, Any]) -> tuple[str, str, bool, int | None, int] | None:
    """(ship, target, hit, need, modifier) of a shot the log resolved, or ``None`` for any other event."""
    ship, target = data.get("ship"), data.get("target")
    if not isinstance(ship, str) or not isinstance(target, str):
        return None
    hit = data.get("hit")
    if isinstance(hit, bool):
        need = data.get("need")
        modifier = data.get("modifier", 0)
        return (
            ship,
            target,
            hit,
            need if isinstance(need, int) else None,
            modifier if isinstance(modifier, int) else 0,
        )
    damage = data.get("damage")
    if isinstance(damage, int) and not isinstance(damage, bool):
        # A shot read off a damage table (AV:T's lasers) logs no hit, only the points scored.
        return ship, target, damage > 0, None, 0
    return None
