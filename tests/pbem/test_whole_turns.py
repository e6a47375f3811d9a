"""Play by e-mail with one file per player per turn: standing fire written with the plot (docs/pbem.md)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.pbem.players import mailers_for, new_game, text_of
from vectorwar.autopilot import Standing
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, OutOfStepError, PbemFileError, PlotChangedError
from vectorwar.pbem import PbemGame, game_from_data, plot_text, split_plot


def load(text: str) -> PbemGame:
    return game_from_data(json.loads(text))


def mail_to_the_end(scenario: str, seed: int, max_turns: int, whole_turns: bool) -> tuple[PbemGame, int]:
    """A duel of greedy players with standing fire at any target, passed one file at a time to the end."""
    start = new_game(scenario, seed=seed, max_turns=max_turns, whole_turns=whole_turns)
    mailers = mailers_for(start, bot="greedy", seed=seed)
    for mailer in mailers:
        mailer.fire = "fire at any 0%"
    text = mailers[0].act(text_of(start))
    passes = 1
    while not load(text).is_over:
        mailer = mailers[passes % len(mailers)]
        before = load(text).sequence
        text = mailer.act(text)
        # Every pass carries something, and only the sender's own actions.
        assert {a.side for a in load(text).actions[before:]} == {mailer.side}
        passes += 1
        assert passes < 1000
    return load(text), passes


@pytest.mark.parametrize(("scenario", "max_turns"), [("msc-duel", 8), ("avt-duel-wasp", 3)])
def test_a_duel_is_played_to_the_end_with_one_file_per_player_per_turn(scenario: str, max_turns: int) -> None:
    final, passes = mail_to_the_end(scenario, seed=21, max_turns=max_turns, whole_turns=True)
    assert final.result is not None
    assert final.game is not None
    turns = {batch.clock.turn for batch in final.game.history}
    # Step 0 draws the set-up's dice; then each step is a whole turn: one file from each player a turn
    # (the reveal of one turn riding with the plot of the next), and the last reveal.
    assert final.step == len(turns) + 1
    assert passes == 2 * final.step + 1
    # The turns' later prompts (MSC's combat phases, AV:T's segments 2 to 8) were answered in the same step.
    assert len(final.game.history) > len(turns)
    if scenario == "msc-duel":
        fired = [b for b in final.game.history if b.clock.phase != "plot"]
        assert any(">" in order for b in fired for _, order in b.orders), "the standing fire took shots"


def test_without_the_option_a_combat_phase_is_a_step_of_its_own() -> None:
    final, passes = mail_to_the_end("msc-duel", seed=21, max_turns=8, whole_turns=False)
    assert final.game is not None
    turns = {batch.clock.turn for batch in final.game.history}
    # The text's plain reading: fire is declared after movement is seen, so each combat phase is a step.
    assert final.step == len(final.game.history) + 1 > len(turns) + 1
    assert passes == 2 * final.step + 1


def test_the_option_is_part_of_the_set_up_and_its_hash() -> None:
    pbem = new_game("msc-duel", seed=22, whole_turns=True)
    data = pbem.to_data()
    assert data["whole_turns"] is True
    assert new_game("msc-duel", seed=22).genesis() != pbem.genesis()
    assert "whole_turns" not in new_game("msc-duel", seed=22).to_data()
    # Taken out of the file, the chain no longer matches: no one switches it off after the start.
    red = mailers_for(pbem, seed=22)[0]
    text = json.loads(red.act(text_of(pbem)))
    del text["whole_turns"]
    with pytest.raises(PbemFileError, match="edited"):
        game_from_data(text)


def test_standing_fire_is_read_checked_and_written_canonically() -> None:
    assert split_plot("Hawk 1L1 |  Fire AT raven from 40 %") == ("Hawk 1L1", Standing(fire_at="raven", min_chance=40))
    assert plot_text(*split_plot("Hawk 1 | fire any")) == "Hawk 1 | fire at any 0%"
    with pytest.raises(OrderSyntaxError, match="standing fire"):
        split_plot("Hawk 1 | shoot everything")
    with pytest.raises(OrderSyntaxError, match="0 to 100%"):
        split_plot("Hawk 1 | fire at any 101%")
    pbem = new_game("msc-duel", seed=23, whole_turns=True)
    # A side with no orders at a step may still leave standing fire, or take it back.
    assert pbem.check_plot("blue", "|fire at any") == "| fire at any 0%"
    assert pbem.check_plot("blue", "| hold fire") == "| hold fire"
    with pytest.raises(OutOfStepError, match="no orders to give"):
        pbem.check_plot("blue", "Raven 1 | fire at any")
    red, blue = mailers_for(pbem, seed=23)
    game = load(blue.act(red.act(text_of(pbem))))
    assert red.keyring is not None
    assert game.turn(red.keyring, None, "a" * 64, "b" * 64).needs_orders
    assert game.check_plot("red", "hawk 1 | fire at RAVEN 50%") == "Hawk 1 | fire at Raven 50%"
    with pytest.raises(IllegalOrderError, match="no ship of another side"):
        game.check_plot("red", "Hawk 1 | fire at Hawk")


def test_a_plot_without_standing_fire_holds_fire_for_the_turn() -> None:
    start = new_game("msc-duel", seed=21, max_turns=8, whole_turns=True)
    mailers = mailers_for(start, bot="greedy", seed=21)
    red, _blue = mailers
    red.fire = "fire at any 0%"  # blue writes no standing fire
    text = red.act(text_of(start))
    n = 1
    while not load(text).is_over:
        text = mailers[n % 2].act(text)
        n += 1
    final = load(text)
    assert final.game is not None
    blue_fire = [o for b in final.game.history if b.clock.phase != "plot" for s, o in b.orders if s == "blue"]
    red_fire = [o for b in final.game.history if b.clock.phase != "plot" for s, o in b.orders if s == "red"]
    assert blue_fire
    assert all(o == "hold" for o in blue_fire)
    assert any(">" in o for o in red_fire)


def test_the_standing_fire_is_sealed_with_the_plot() -> None:
    pbem = new_game("msc-duel", seed=24, whole_turns=True)
    red, blue = mailers_for(pbem, seed=24)
    red.fire = "fire at any 30%"
    text = blue.act(red.act(text_of(pbem)))
    text = red.act(text)
    assert "fire at" not in text  # only the hash travels until the reveal
    assert red.keyring is not None
    sealed = red.keyring.sealed_at(1)
    assert sealed is not None
    assert sealed.plot.endswith("| fire at any 30%")
    # Changing the standing fire after committing is a changed plot, refused as any other.
    text = blue.act(text)
    red.keyring = replace(red.keyring, sealed=(replace(sealed, plot=sealed.plot.replace("30%", "0%")),))
    with pytest.raises(PlotChangedError):
        red.act(text)
