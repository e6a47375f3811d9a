"""What is new at an AV:T segment (systems/avt/news.py): what stops a player who skips ahead."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.setup import set_up
from vectorwar.systems.avt.display import fire_options
from vectorwar.systems.avt.news import decision_news
from vectorwar.systems.avt.state import AVTState, Repair

AVT = get_system("avt")


def segments(seed: int) -> Iterator[tuple[AVTState, AVTState]]:
    """Each pair of consecutive segments of a greedy duel in one turn."""
    found = builtin_scenario("avt-duel-wasp")
    setup = set_up(found, {s.id: "greedy" for s in found.sides}, seed=seed)
    game: Game = setup.game
    while not game.is_over:
        for side in list(game.waiting_for):
            view = AVT.side_view(game.state, side)
            game.submit(side, str(setup.bots[side].choose(view, side, random.Random(0))))
        if game.previous is not None and not game.is_over and game.previous.turn == game.state.turn:
            yield game.previous, game.state


def shots(state: AVTState, side: str) -> set[tuple[str, str]]:
    return {(ship, o.piece) for ship, options in fire_options(state, side).items() for o in options}


def test_a_quiet_segment_has_no_news() -> None:
    quiet = 0
    for before, after in segments(2):
        for side in after.sides:
            same_marks = all(b.marks == a.marks for b, a in zip(before.ships, after.ships, strict=True))
            if same_marks and shots(before, side) == shots(after, side):
                assert decision_news(before, after, side) == []
                quiet += 1
    assert quiet > 10


def test_damage_to_a_side_is_its_news_alone() -> None:
    seen = 0
    for before, after in segments(2):
        for ship in after.ships:
            old = before.ship(ship.id)
            if sum(n for _, n in ship.marks) > sum(n for _, n in old.marks):
                seen += 1
                texts = [n.text for n in decision_news(before, after, ship.side)]
                assert f"{ship.name} took damage" in texts
                other = next(s for s in after.sides if s != ship.side)
                assert f"{ship.name} took damage" not in [n.text for n in decision_news(before, after, other)]
    assert seen


def test_a_new_shot_is_news_naming_it_and_a_laser_that_fired_is_not() -> None:
    new_shots = 0
    for before, after in segments(2):
        for side in after.sides:
            found = decision_news(before, after, side)
            for ship, piece in shots(after, side) - shots(before, side):
                laser, target = piece.removeprefix("fire ").split(">")
                new_shots += 1
                assert any(n.ship == ship and n.target == target and laser in n.text for n in found)
            for n in found:
                if "left the arc" in n.text:
                    laser = n.text.rsplit(" ", 1)[1]
                    assert after.ship(n.ship).ready_at(laser) == 0
    assert new_shots


def test_the_end_of_a_repair_is_news() -> None:
    before, after = next(segments(2))
    ship = next(s for s in before.ships if s.kind == "ship")
    working = replace(
        before, ships=tuple(replace(s, repairs=(Repair("reactors", 2),)) if s is ship else s for s in before.ships)
    )
    texts = [n.text for n in decision_news(working, after, ship.side)]
    assert f"{ship.name}: the repair of reactors came to its end" in texts
