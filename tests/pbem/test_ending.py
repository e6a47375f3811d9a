"""Ending a play-by-e-mail game before the rules do: a side concedes, or every side agrees to a draw; only a
side's own player can do either for it."""

from __future__ import annotations

import json
import random
import re

import pytest

from tests.pbem.players import Mailer, mailers_for, new_game, text_of
from vectorwar.errors import ForeignActionError, OutOfStepError, PbemError, PbemFileError
from vectorwar.pbem import (
    Agree,
    Concede,
    PbemGame,
    check_keyring,
    game_from_data,
    keyring_from_data,
    new_keyring,
    rebuild,
)

T0 = 1_800_000_000


def load(text: str) -> PbemGame:
    return game_from_data(json.loads(text))


def begun(red: Mailer, blue: Mailer, text: str) -> str:
    """The file once the set-up's dice are drawn: at step 1, red's plot committed, blue's owed."""
    return red.act(blue.act(red.act(text)))


def test_a_concession_ends_the_game_the_others_win_and_the_file_replays_it() -> None:
    pbem = new_game("msc-duel", seed=51)
    red, blue = mailers_for(pbem, bot="random", seed=51)
    text = begun(red, blue, text_of(pbem))
    game = load(text)
    assert game.step == 1
    assert game.owed() == {"blue": "commit"}
    conceded = game.concede("blue")
    assert conceded == Concede(1, "blue", None)
    assert conceded.to_data() == {"kind": "concede", "step": 1, "side": "blue"}
    assert game.is_over
    assert game.owed() == {}
    assert game.result is not None
    assert game.result.winners == ("red",)
    assert game.result.reason == "blue conceded"
    # Anyone replays the file to the same end; nothing more can be added to it.
    again = load(text_of(game))
    assert (again.is_over, again.head, again.result) == (True, game.head, game.result)
    with pytest.raises(OutOfStepError, match="the game is over"):
        again.concede("red")


def test_a_side_may_concede_whatever_it_owes_and_the_steps_plots_resolve_nothing() -> None:
    pbem = new_game("msc-duel", seed=52)
    red, blue = mailers_for(pbem, bot="random", seed=52)
    committed = load(begun(red, blue, text_of(pbem)))  # red has committed to turn 1's plot; blue has not
    history = len(committed.game.history) if committed.game is not None else -1
    committed.concede("red")
    assert committed.result is not None
    assert committed.result.winners == ("blue",)
    # The concession is the game's last batch: red's sealed plot never moved a ship.
    assert committed.game is not None
    assert len(committed.game.history) == history + 1


def test_nothing_is_conceded_before_the_game_begins_nor_for_a_side_it_does_not_have() -> None:
    pbem = new_game("msc-duel", seed=53)
    before = text_of(pbem)
    with pytest.raises(OutOfStepError, match="nothing to concede yet"):
        pbem.concede("red")
    with pytest.raises(PbemError, match="no side 'green'"):
        pbem.concede("green")
    assert text_of(pbem) == before  # a refusal changes nothing


def test_a_concession_records_a_time_exactly_when_the_game_has_a_deadline() -> None:
    pbem = new_game("msc-duel", seed=54, deadline_hours=24)
    red, blue = mailers_for(pbem, bot="random", seed=54, clock=T0)
    game = load(begun(red, blue, text_of(pbem)))
    with pytest.raises(OutOfStepError, match="records a time"):
        game.concede("red")
    last = game.last_time
    assert last is not None
    with pytest.raises(OutOfStepError, match="never go back"):
        game.concede("red", last - 1)
    assert game.concede("red", last).to_data()["at"] == last


def test_a_concession_another_player_wrote_for_my_side_is_refused_by_my_keyring() -> None:
    pbem = new_game("msc-duel", seed=55)
    red, blue = mailers_for(pbem, bot="random", seed=55)
    text = begun(red, blue, text_of(pbem))
    forged = load(text)
    forged.concede("blue")  # red writes blue's concession, to win
    assert blue.keyring is not None
    with pytest.raises(ForeignActionError, match="a concession by blue at step 1"):
        check_keyring(forged, blue.keyring, "blue")
    # A player opening the file for the first time refuses it too.
    with pytest.raises(ForeignActionError):
        new_keyring(load(text_of(forged)), "blue")
    # red's own keyring takes a file in which blue conceded: that is blue's to check.
    assert red.keyring is not None
    check_keyring(forged, red.keyring, "red")


def test_my_own_concession_passes_my_keyring_and_a_lost_file_is_rebuilt_from_it() -> None:
    pbem = new_game("msc-duel", seed=56)
    red, blue = mailers_for(pbem, bot="random", seed=56)
    received = blue.act(begun(red, blue, text_of(pbem)))
    mine = load(received)
    assert red.keyring is not None
    check_keyring(mine, red.keyring, "red")
    mine.concede("red")
    keyring = keyring_from_data(json.loads(json.dumps(red.keyring.saw(mine).to_data())))
    check_keyring(mine, keyring, "red")  # my tools take the file they wrote
    assert keyring.sent == (Concede(1, "red", None),)
    assert text_of(rebuild(load(received), keyring)) == text_of(mine)


def test_a_file_naming_a_concession_badly_is_refused_in_words() -> None:
    pbem = new_game("msc-duel", seed=57)
    red, blue = mailers_for(pbem, bot="random", seed=57)
    data = json.loads(begun(red, blue, text_of(pbem)))
    data["actions"].append({"kind": "concede", "step": 1, "side": "red", "why": "tired"})
    with pytest.raises(PbemFileError, match="why"):
        game_from_data(data)
    data["actions"][-1] = {"kind": "concede", "step": 9, "side": "red"}
    with pytest.raises(
        PbemFileError,
        match=re.escape(
            "action 6 (concede by red at step 9) does not replay: an action of step 9 when the game is at step 1"
        ),
    ):
        game_from_data(data)


def test_random_play_with_a_concession_at_any_step_replays_to_the_same_result() -> None:
    for seed in range(3):
        pbem = new_game("vv5-dogfight", seed=60 + seed, max_turns=3)
        red, blue = mailers_for(pbem, bot="random", seed=60 + seed)
        text = text_of(pbem)
        rng = random.Random(seed)
        for _ in range(rng.randrange(2, 8)):
            text = blue.act(red.act(text))
        game = load(text)
        if game.is_over:
            continue
        side = rng.choice(game.sides)
        game.concede(side)
        assert load(text_of(game)).result == game.result
        assert game.result is not None
        assert side not in game.result.winners


def test_a_draw_ends_the_game_once_every_side_has_agreed_at_the_same_step() -> None:
    pbem = new_game("msc-duel", seed=61)
    red, blue = mailers_for(pbem, bot="random", seed=61)
    game = load(begun(red, blue, text_of(pbem)))
    offered = game.agree("red")
    assert offered.to_data() == {"kind": "agree", "step": 1, "side": "red"}
    assert not game.is_over
    assert game.owed() == {"blue": "commit"}  # an offer changes nothing else: blue may play on
    with pytest.raises(OutOfStepError, match="red has already agreed to a draw at step 1"):
        game.agree("red")
    accepted = load(text_of(game))  # blue's copy of the file
    accepted.agree("blue")
    assert accepted.is_over
    assert accepted.result is not None
    assert (accepted.result.winners, accepted.result.reason) == ((), "ended by agreement")
    assert load(text_of(accepted)).result == accepted.result


def test_an_offer_lapses_when_its_step_resolves() -> None:
    pbem = new_game("msc-duel", seed=62)
    red, blue = mailers_for(pbem, bot="random", seed=62)
    game = load(begun(red, blue, text_of(pbem)))
    game.agree("red")
    assert red.keyring is not None
    red.keyring = red.keyring.saw(game)  # red's own tools wrote it
    # blue plays on instead: its pass commits, and its commitment being the step's last reveals it.
    text = blue.act(text_of(game))
    text = red.act(text)  # red's reveal resolves turn 1's plot
    later = load(text)
    assert later.step > 1
    assert later.agreed == {}
    later.agree("blue")  # a new offer, at the new step; red's old one does not count
    assert not later.is_over
    assert list(later.agreed) == ["blue"]


def test_an_agreement_another_player_wrote_for_my_side_is_refused_by_my_keyring() -> None:
    pbem = new_game("msc-duel", seed=63)
    red, blue = mailers_for(pbem, bot="random", seed=63)
    forged = load(begun(red, blue, text_of(pbem)))
    forged.agree("red")
    forged.agree("blue")  # red writes blue's acceptance too, to end a game it is losing
    assert forged.is_over
    assert blue.keyring is not None
    with pytest.raises(ForeignActionError, match="an agreement to a draw by blue at step 1"):
        check_keyring(forged, blue.keyring, "blue")
    with pytest.raises(OutOfStepError, match="nothing to end yet"):
        new_game("msc-duel", seed=64).agree("red")
    assert Agree(1, "red").to_data()["kind"] == "agree"
