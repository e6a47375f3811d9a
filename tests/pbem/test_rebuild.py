"""Rebuilding a player's lost newest file from the others' file and the player's keyring (docs/pbem.md)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.pbem.players import mailers_for, new_game, text_of
from vectorwar.errors import PbemFileError, StaleFileError, SwappedFileError
from vectorwar.pbem import PbemGame, game_from_data, keyring_from_data, rebuild

T0 = 1_800_000_000
HOUR = 3600


def load(text: str) -> PbemGame:
    return game_from_data(json.loads(text))


@pytest.mark.parametrize("deadline_hours", [None, 24])
def test_a_lost_newest_file_is_rebuilt_exactly_from_the_others_file_and_the_keyring(
    deadline_hours: int | None,
) -> None:
    pbem = new_game("msc-duel", seed=41, deadline_hours=deadline_hours, whole_turns=True)
    clock = None if deadline_hours is None else T0
    red, blue = mailers_for(pbem, bot="greedy", seed=41, clock=clock)
    text = blue.act(red.act(text_of(pbem)))
    received = blue.act(red.act(text))  # the file blue sent red
    sent = red.act(received)  # red's pass: its reveal of turn 1 and its plot for turn 2
    assert red.keyring is not None
    assert len(red.keyring.sent) == 2
    # red loses the file it sent (and blue never got it); red still has blue's file and its keyring,
    # which it wrote to disk and reads back.
    keyring = keyring_from_data(json.loads(json.dumps(red.keyring.to_data())))
    rebuilt = rebuild(load(received), keyring)
    assert text_of(rebuilt) == sent
    # Byte for byte the file red sent, so blue plays on from it as from the original.
    assert load(blue.act(text_of(rebuilt))).sequence > rebuilt.sequence


def test_a_rebuild_from_the_wrong_file_or_a_changed_keyring_is_refused() -> None:
    pbem = new_game("msc-duel", seed=42)
    red, blue = mailers_for(pbem, seed=42)
    older = blue.act(red.act(text_of(pbem)))
    received = blue.act(red.act(older))
    sent = red.act(received)
    assert red.keyring is not None
    keyring = red.keyring
    # A file older than the one red's last pass followed: it does not hold what that pass followed.
    with pytest.raises(StaleFileError, match="rebuild from the file red answered last"):
        rebuild(load(older), keyring)
    # A file that already holds red's newest state: nothing to rebuild.
    with pytest.raises(StaleFileError, match="nothing to rebuild"):
        rebuild(load(sent), keyring)
    # The same file forked (another history of the same length) does not rebuild to what red saw.
    with pytest.raises(StaleFileError):
        rebuild(load(received), replace(keyring, seen_hash="0" * 64))
    # Another game's file.
    other = new_game("msc-duel", seed=43)
    with pytest.raises(SwappedFileError, match="is for game"):
        rebuild(other, keyring)
    # A keyring whose last pass names another side's action is not a keyring this vectorwar wrote.
    data = keyring.to_data()
    data["sent"][0]["side"] = "blue"
    with pytest.raises(PbemFileError, match="another side"):
        keyring_from_data(data)


def test_a_keyring_keeps_only_the_pass_no_one_else_has() -> None:
    pbem = new_game("msc-duel", seed=44)
    red, blue = mailers_for(pbem, seed=44)
    text = red.act(text_of(pbem))
    assert red.keyring is not None
    assert [type(a).__name__ for a in red.keyring.sent] == ["Commit"]
    text = blue.act(text)
    red.load(text)  # opening blue's reply: everything red sent is in it now
    assert red.keyring.sent == ()
