"""Game files of the format's first version, which named a side's id ``seat``, are read and played on as they are.

``data/v1-game.vwpbem`` and its keyrings were written by a vectorwar of version 1 files: an MSC duel with a
deadline, five passes in. Their hashes were made with version 1's words, so a game stays in its version.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.pbem.players import new_game, random_hex, text_of
from vectorwar.errors import PbemFileError
from vectorwar.pbem import check_keyring, game_from_data, keyring_from_data

DATA = Path(__file__).parent / "data"
T0 = 1_800_000_000


def read(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((DATA / name).read_text())
    return data


def test_a_version_1_file_and_its_keyrings_are_read_with_their_chain() -> None:
    data = read("v1-game.vwpbem")
    assert data["version"] == 1
    pbem = game_from_data(data)
    assert (pbem.version, pbem.sequence, pbem.step) == (1, 11, 2)
    assert pbem.owed() == {"red": "reveal"}
    for side in ("red", "blue"):
        keyring = keyring_from_data(read(f"v1-game.{side}.secret.json"))
        assert (keyring.side, keyring.version) == (side, 1)
        check_keyring(pbem, keyring, side)
    # Written again, the file is the same, byte for byte in its data: version 1's words, the same hashes.
    assert pbem.to_data() == {**data, "vectorwar": pbem.to_data()["vectorwar"]}


def test_a_version_1_game_is_played_on_in_version_1() -> None:
    pbem = game_from_data(read("v1-game.vwpbem"))
    keyring = keyring_from_data(read("v1-game.red.secret.json"))
    rng = random.Random(3)
    done = pbem.turn(keyring.saw(pbem, T0), None, random_hex(rng), random_hex(rng), T0 + 60)
    written = pbem.to_data()
    assert written["version"] == 1
    actions = written["actions"]
    assert isinstance(actions, list)
    assert all("seat" in a and "side" not in a for a in actions)
    again = game_from_data(json.loads(json.dumps(written)))
    assert (again.sequence, again.head) == (pbem.sequence, pbem.head)
    kept = done.keyring.to_data()
    assert (kept["version"], kept["seat"]) == (1, "red")
    check_keyring(again, keyring_from_data(json.loads(json.dumps(kept))), "red")


def test_a_new_game_is_written_in_this_version_and_an_unknown_version_is_refused() -> None:
    pbem = new_game("msc-duel", seed=5)
    written = json.loads(text_of(pbem))
    assert written["version"] == 2
    with pytest.raises(PbemFileError, match="version 3, this vectorwar reads versions 1 and 2"):
        game_from_data({**written, "version": 3})
