"""Play by e-mail with sealed orders: whole games by passing the file, and every refusal (docs/pbem.md)."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.pbem.players import Player, new_game, play_by_mail, players_for, random_hex, text_of
from vectorwar.dice import Dice
from vectorwar.errors import (
    DoubleCommitError,
    EarlyRevealError,
    ForeignActionError,
    IllegalOrderError,
    OutOfStepError,
    PbemFileError,
    PlotChangedError,
    StaleFileError,
    SwappedFileError,
    WrongRevealError,
)
from vectorwar.events import Rolled
from vectorwar.pbem import Commit, PbemGame, Reveal, check_keyring, dice_seed, game_from_data, link, new_keyring

SCENARIOS = [
    "msc-duel",
    "vv5-dogfight",
    "vv5-dogfight-3",
    "vms-capital-duel-msc",
    # Eight segments a turn: eight steps a turn, each file replayed whole at every pass.
    pytest.param("avt-duel-wasp", marks=pytest.mark.slow),
]


def secrets_in(text: str, player: Player) -> list[str]:
    """The unrevealed secrets and salts of ``player``'s keyring that appear in a file's text."""
    keyring = player.keyring
    if keyring is None:
        return []
    revealed = {(a.step, a.side) for a in game_from_data(json.loads(text)).actions if isinstance(a, Reveal)}
    return [
        value
        for sealed in keyring.sealed
        if (sealed.step, keyring.side) not in revealed
        for value in (sealed.salt, sealed.secret)
        if value in text
    ]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_game_of_each_system_is_played_to_the_end_by_passing_the_file(scenario: str) -> None:
    pbem = new_game(scenario, seed=3)
    players = players_for(pbem, seed=3)
    text = text_of(pbem)
    passes = 0
    while not game_from_data(json.loads(text)).is_over:
        player = players[passes % len(players)]
        text = player.act(text)
        passes += 1
        # What a side keeps sealed never reaches the file the others receive.
        assert all(secrets_in(text, p) == [] for p in players)
        assert passes < 2000
    final = game_from_data(json.loads(text))
    assert final.game is not None
    assert final.result is not None
    assert final.step == len(final.game.history) + 1
    # Every step opened every commitment before its dice were thrown, and nothing else.
    for step in range(final.step):
        kinds = [type(a) for a in final.actions if a.step == step]
        assert kinds == [Commit] * len(final.sides) + [Reveal] * len(final.sides)
    # The file replays to the very same game: a second load gives the same state and log.
    again = game_from_data(json.loads(text))
    assert again.game is not None
    assert final.system.state_to_data(final.game.state) == again.system.state_to_data(again.game.state)
    assert [e.describe() for e in final.game.events] == [e.describe() for e in again.game.events]


def test_the_dice_of_each_step_are_the_ones_every_secret_makes() -> None:
    start = new_game("msc-duel", seed=4, max_turns=3)
    text = play_by_mail(text_of(start), players_for(start, seed=4))
    pbem = game_from_data(json.loads(text))
    rebuilt = PbemGame.new(pbem.scenario, pbem.game_id, pbem.options)
    for action in pbem.actions:
        rebuilt.apply(action)
    assert rebuilt.game is not None
    assert pbem.game is not None
    last = pbem.step - 1
    secrets = {a.side: a.secret for a in pbem.actions if isinstance(a, Reveal) and a.step == last}
    assert pbem.game.seed == dice_seed(pbem.game_id, last, secrets)
    assert rebuilt.game.seed == pbem.game.seed
    assert rebuilt.head == pbem.head


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=2**256 - 1), min_size=2, max_size=2, unique=True),
    st.integers(min_value=0, max_value=1),
    st.integers(min_value=0, max_value=2**256 - 1),
)
def test_the_dice_of_a_turn_change_when_any_one_sides_secret_changes(
    values: list[int], changed: int, other: int
) -> None:
    secrets = [f"{v:064x}" for v in values]
    altered = list(secrets)
    altered[changed] = f"{other:064x}"
    if altered[changed] == secrets[changed]:
        return
    first = resolve_turn_one(secrets)
    second = resolve_turn_one(altered)
    assert first != second


_TURN_ONE: dict[str, Any] = {}


def resolve_turn_one(secrets: list[str]) -> list[tuple[int, ...]]:
    """The dice thrown resolving turn 1 of an MSC duel whose sides reveal ``secrets``, and the next 24 d20s.

    The turn's own rolls may be few (two d6 can come out the same by chance), so the dice cup is also read on
    from the same seed: a different seed is a different cup.
    """
    if not _TURN_ONE:
        pbem = new_game("msc-duel", seed=5)
        players = players_for(pbem, seed=5)
        text = text_of(pbem)
        for player in players * 2:
            text = player.act(text)
        _TURN_ONE["text"] = text
    pbem = game_from_data(json.loads(_TURN_ONE["text"]))
    assert pbem.step == 1
    assert pbem.game is not None
    sealed = {}
    for side, secret in zip(pbem.sides, secrets, strict=True):
        plot = "Hawk 1" if side == "red" else "Raven 1"
        sealed[side] = pbem.seal(side, plot if side in pbem.prompted else "", "ab" * 32, secret)
        pbem.commit(side, *sealed[side].hashes(pbem.game_id, side))
    start = len(pbem.game.events)
    for side in pbem.sides:
        s = sealed[side]
        pbem.reveal(side, s.plot, s.salt, s.secret)
    rolls = [e.faces for e in pbem.game.events[start:] if isinstance(e, Rolled)]
    assert pbem.game.seed == dice_seed(pbem.game_id, 1, dict(zip(pbem.sides, secrets, strict=True)))
    cup = Dice(pbem.game.seed)
    # The turn's rolls are the first dice of the cup that every secret keys (MSC throws only d6 here).
    assert rolls == [cup.roll("d6", "again").faces for _ in rolls]
    return rolls + [cup.roll("d20", "more").faces for _ in range(24)]


# -- refusals -------------------------------------------------------------------------


@pytest.fixture
def table() -> tuple[str, dict[str, Player]]:
    """An MSC duel at turn 1's plot, both players' keyrings up to date."""
    pbem = new_game("msc-duel", seed=6)
    players = players_for(pbem, seed=6)
    text = text_of(pbem)
    for player in players * 2:
        text = player.act(text)
    assert game_from_data(json.loads(text)).step == 1
    return text, {p.side: p for p in players}


def unchanged(pbem: PbemGame) -> dict[str, Any]:
    return copy.deepcopy(pbem.to_data())


def test_a_plot_changed_after_committing_is_refused(table: tuple[str, dict[str, Player]]) -> None:
    text, players = table
    text = players["red"].act(text, plot="Hawk 1")
    text = players["blue"].act(text)
    pbem = game_from_data(json.loads(text))
    keyring = players["red"].keyring
    assert keyring is not None
    sealed = keyring.sealed_at(1)
    assert sealed is not None
    assert sealed.plot == "Hawk 1"
    before = unchanged(pbem)
    with pytest.raises(PlotChangedError, match="not the plot committed to"):
        pbem.reveal("red", "Hawk 2", sealed.salt, sealed.secret)
    assert pbem.to_data() == before
    pbem.reveal("red", sealed.plot, sealed.salt, sealed.secret)


def test_a_wrong_salt_or_secret_is_refused(table: tuple[str, dict[str, Player]]) -> None:
    text, players = table
    text = players["red"].act(text, plot="Hawk 1")
    text = players["blue"].act(text)
    pbem = game_from_data(json.loads(text))
    keyring = players["red"].keyring
    assert keyring is not None
    sealed = keyring.sealed_at(1)
    assert sealed is not None
    before = unchanged(pbem)
    with pytest.raises(WrongRevealError, match="salt or secret"):
        pbem.reveal("red", sealed.plot, "0" * 64, sealed.secret)
    with pytest.raises(WrongRevealError):
        pbem.reveal("red", sealed.plot, sealed.salt, "1" * 64)
    assert pbem.to_data() == before


def test_a_reveal_before_every_side_committed_is_refused(table: tuple[str, dict[str, Player]]) -> None:
    text, players = table
    text = players["red"].act(text, plot="Hawk 1")
    pbem = game_from_data(json.loads(text))
    keyring = players["red"].keyring
    assert keyring is not None
    sealed = keyring.sealed_at(1)
    assert sealed is not None
    before = unchanged(pbem)
    with pytest.raises(EarlyRevealError, match="waiting for the commitment of blue"):
        pbem.reveal("red", sealed.plot, sealed.salt, sealed.secret)
    assert pbem.to_data() == before


def test_a_keyring_reveals_what_it_sealed_and_one_with_nothing_sealed_is_refused(
    table: tuple[str, dict[str, Player]],
) -> None:
    text, players = table
    text = players["red"].act(text, plot="Hawk 1")
    text = players["blue"].act(text)
    pbem = game_from_data(json.loads(text))
    red, blue = players["red"].keyring, players["blue"].keyring
    assert red is not None
    assert blue is not None
    before = unchanged(pbem)
    with pytest.raises(OutOfStepError, match="the keyring of red holds no sealed plot for step 1: commit first"):
        pbem.reveal_sealed(replace(red, sealed=()))
    assert pbem.to_data() == before
    sealed, events = pbem.reveal_sealed(red)
    assert sealed.plot == "Hawk 1"
    assert events == []  # blue has still to reveal: nothing resolves yet
    assert pbem.step == 1
    _, events = pbem.reveal_sealed(blue)
    assert pbem.step == 2
    assert events  # the last reveal resolves the step: its movement and fire
    assert pbem.game is not None
    assert events == pbem.game.events[-len(events) :]


def test_committing_twice_is_refused(table: tuple[str, dict[str, Player]]) -> None:
    text, players = table
    text = players["red"].act(text, plot="Hawk 1")
    pbem = game_from_data(json.loads(text))
    before = unchanged(pbem)
    with pytest.raises(DoubleCommitError, match="already committed"):
        pbem.commit("red", "a" * 64, "b" * 64)
    with pytest.raises(DoubleCommitError):
        pbem.seal("red", "Hawk 2", "a" * 64, "b" * 64)
    assert pbem.to_data() == before


def test_an_illegal_plot_cannot_be_sealed_and_a_side_without_orders_commits_none(
    table: tuple[str, dict[str, Player]],
) -> None:
    text, _ = table
    pbem = game_from_data(json.loads(text))
    with pytest.raises(IllegalOrderError, match="MSC"):
        pbem.seal("red", "Hawk 2L1", "a" * 64, "b" * 64)
    with pytest.raises(OutOfStepError, match="no orders to give"):
        PbemGame.new(pbem.scenario, pbem.game_id).seal("red", "Hawk 1", "a" * 64, "b" * 64)


def test_an_older_file_is_refused_once_a_newer_one_was_seen(table: tuple[str, dict[str, Player]]) -> None:
    text, players = table
    old = text
    newer = players["red"].act(text, plot="Hawk 1")
    newer = players["blue"].act(newer)
    with pytest.raises(StaleFileError, match="old or replayed"):
        players["blue"].load(old)
    with pytest.raises(StaleFileError, match="old or replayed"):
        players["red"].load(old)
    assert players["blue"].load(newer).sequence == game_from_data(json.loads(newer)).sequence


def test_a_rewritten_history_is_refused_even_with_its_chain_recomputed(table: tuple[str, dict[str, Player]]) -> None:
    text, players = table
    text = players["red"].act(text, plot="Hawk 1")
    # blue forks the game at state 4 with a chain of its own: red's commitment dropped, blue's first.
    data = json.loads(text)
    pbem = game_from_data(data)
    forged = PbemGame.new(pbem.scenario, pbem.game_id, pbem.options)
    for action in pbem.actions[:4]:
        forged.apply(action)
    forged.commit("blue", "c" * 64, "d" * 64)
    with pytest.raises(StaleFileError, match="history differs"):
        players["red"].load(text_of(forged))


def test_an_edited_file_is_refused_on_load(table: tuple[str, dict[str, Player]]) -> None:
    text, players = table
    text = players["red"].act(text, plot="Hawk 1")
    data = json.loads(text)
    edited = copy.deepcopy(data)
    edited["actions"][-1]["plot_hash"] = "0" * 64
    with pytest.raises(PbemFileError, match="do not match its actions"):
        game_from_data(edited)
    moved = copy.deepcopy(data)
    moved["actions"].append(dict(moved["actions"][-1]))
    with pytest.raises(PbemFileError, match="already committed"):
        game_from_data(moved)
    for bad, problem in (
        ({**data, "format": "vectorwar-save"}, "not a vectorwar play-by-e-mail game file"),
        ({**data, "version": 99}, "version 99"),
        ({**data, "game": "xyz"}, "game"),
        ({**data, "sequence": -1}, "sequence"),
        ({**data, "surprise": 1}, "surprise"),
    ):
        with pytest.raises(PbemFileError, match=problem):
            game_from_data(bad)


def test_a_file_of_another_game_or_a_keyring_of_another_side_is_refused(
    table: tuple[str, dict[str, Player]],
) -> None:
    text, players = table
    other = new_game("msc-duel", seed=99)
    other_players = players_for(other, seed=99)
    other_text = text_of(other)
    for player in other_players * 2:
        other_text = player.act(other_text)
    with pytest.raises(SwappedFileError, match="a file of another game"):
        players["red"].load(other_text)
    pbem = game_from_data(json.loads(text))
    keyring = players["red"].keyring
    assert keyring is not None
    with pytest.raises(SwappedFileError, match="keyring of another side"):
        check_keyring(pbem, keyring, "blue")


def test_a_commitment_written_for_another_side_is_refused_by_that_sides_player(
    table: tuple[str, dict[str, Player]],
) -> None:
    text, players = table
    pbem = game_from_data(json.loads(text))
    # blue commits on red's behalf, as red, hoping to play red's ships.
    sealed = pbem.seal("red", "Hawk 1", random_hex(random.Random(1)), random_hex(random.Random(2)))
    pbem.commit("red", *sealed.hashes(pbem.game_id, "red"))
    with pytest.raises(ForeignActionError, match="did not make"):
        players["red"].load(text_of(pbem))


def test_nothing_is_accepted_after_the_end(table: tuple[str, dict[str, Player]]) -> None:
    text, players = table
    text = play_by_mail(text, list(players.values()))
    pbem = game_from_data(json.loads(text))
    with pytest.raises(OutOfStepError, match="game is over"):
        pbem.commit("red", "a" * 64, "b" * 64)


def test_the_chain_links_each_state_to_the_one_before(table: tuple[str, dict[str, Player]]) -> None:
    text, _ = table
    data = json.loads(text)
    pbem = game_from_data(data)
    assert data["previous"] == pbem.chain[-2]
    assert data["head"] == link(data["previous"], pbem.actions[-1])
    assert pbem.chain[0] == pbem.genesis()


def test_a_file_the_creator_wrote_the_other_sides_first_actions_into_is_refused_by_that_side() -> None:
    # red creates the game and writes blue's commitment and reveal with secrets of red's choosing, so red
    # would choose the set-up's dice; blue's first look at the file, with a new keyring, refuses it.
    pbem = new_game("msc-duel", seed=5)
    for side in ("red", "blue"):
        sealed = pbem.seal(side, "", random_hex(random.Random(side)), random_hex(random.Random(side + "!")))
        pbem.commit(side, *sealed.hashes(pbem.game_id, side))
    with pytest.raises(ForeignActionError, match="commitment for blue at step 0"):
        new_keyring(pbem, "blue")
    # red's own actions are red's: red's keyring made them, so only a fresh keyring for red would refuse too.
    with pytest.raises(ForeignActionError, match="commitment for red at step 0"):
        new_keyring(pbem, "red")


def test_a_new_keyring_accepts_a_file_with_no_action_for_its_side() -> None:
    pbem = new_game("msc-duel", seed=6)
    sealed = pbem.seal("red", "", random_hex(random.Random(1)), random_hex(random.Random(2)))
    pbem.commit("red", *sealed.hashes(pbem.game_id, "red"))
    keyring = new_keyring(pbem, "blue")
    assert (keyring.seen_sequence, keyring.seen_hash) == (pbem.sequence, pbem.head)
