"""Play by e-mail through the stateless API: the server answers with the new file and keyring, and keeps nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from vectorwar.web import pbem as web_pbem


def post(client: TestClient, route: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    answer = client.post(f"/api/pbem/{route}", json=body)
    assert answer.status_code == status, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_a_game_is_played_through_the_api_with_the_file_and_keyrings_held_by_the_players(client: TestClient) -> None:
    red = post(client, "new", {"scenario": "msc-duel", "side": "red", "max_turns": 1})
    file, keys = red["file"], {"red": red["keyring"]}
    assert red["view"]["owed"] == {"blue": "commit"}
    blue = post(client, "plot", {"file": file, "side": "blue"})
    file, keys["blue"] = blue["file"], blue["keyring"]
    # The secret stays in blue's keyring; the file carries only hashes until the reveal.
    secret = keys["blue"]["sealed"][0]["secret"]
    assert secret not in str(file)
    for side in ("red", "blue"):
        answer = post(client, "reveal", {"file": file, "side": side, "keyring": keys[side]})
        file, keys[side] = answer["file"], answer["keyring"]
    assert answer["view"]["moment"] == "turn 1, plot"
    assert answer["view"]["scene"]["prompt"]["kind"] == "plot"
    assert any("turn 1" in line for line in answer["events"])
    for side, order in (("red", "Hawk 1"), ("blue", "Raven 1")):
        answer = post(client, "plot", {"file": file, "side": side, "keyring": keys[side], "order": order})
        file, keys[side] = answer["file"], answer["keyring"]
        assert answer["view"]["sealed"] == order
        assert order not in str(file["actions"])
    # The server kept nothing: a game file is all there is, and the games list is empty.
    assert client.get("/api/games").json() == []
    while not answer["view"]["over"]:
        side = next(iter(answer["view"]["owed"]))
        what = answer["view"]["owed"][side]
        if what == "reveal":
            answer = post(client, "reveal", {"file": file, "side": side, "keyring": keys[side]})
        else:
            answer = post(client, "plot", {"file": file, "side": side, "keyring": keys[side], "order": "hold"})
        file, keys[side] = answer["file"], answer["keyring"]
    assert answer["view"]["result"]["reason"].startswith("turn limit")


def test_refusals_answer_with_the_protocols_words(client: TestClient) -> None:
    red = post(client, "new", {"scenario": "msc-duel", "side": "red"})
    early = post(client, "reveal", {"file": red["file"], "side": "red", "keyring": red["keyring"]}, 409)
    assert early["error"]["type"] == "EarlyRevealError"
    twice = post(client, "plot", {"file": red["file"], "side": "red", "keyring": red["keyring"]}, 409)
    assert twice["error"]["type"] == "DoubleCommitError"
    blue = post(client, "plot", {"file": red["file"], "side": "blue"})
    old = post(client, "view", {"file": red["file"], "side": "blue", "keyring": blue["keyring"]}, 409)
    assert old["error"]["type"] == "StaleFileError"
    other = post(client, "new", {"scenario": "msc-duel", "side": "red"})
    swapped = post(client, "view", {"file": other["file"], "side": "red", "keyring": red["keyring"]}, 409)
    assert swapped["error"]["type"] == "SwappedFileError"
    broken = post(client, "view", {"file": {**red["file"], "head": "0" * 64}, "side": "red"}, 422)
    assert broken["error"]["type"] == "PbemFileError"
    bad_side = post(client, "new", {"scenario": "msc-duel", "side": "green"}, 422)
    assert "no side 'green'" in bad_side["error"]["message"]


def test_a_side_whose_first_commitment_another_player_wrote_is_refused_by_the_api(client: TestClient) -> None:
    red = post(client, "new", {"scenario": "msc-duel", "side": "red"})
    # red commits again, this time for blue, through the API: blue has never opened the file.
    forged = post(client, "plot", {"file": red["file"], "side": "blue"})
    refused = post(client, "view", {"file": forged["file"], "side": "blue"}, 409)
    assert refused["error"]["type"] == "ForeignActionError"
    assert "blue's keyring did not make" in refused["error"]["message"]
    # With the keyring the forger kept, the file is blue's to the server: the keyring is the side's key.
    post(client, "view", {"file": forged["file"], "side": "blue", "keyring": forged["keyring"]})


T0 = 1_800_000_000
HOUR = 3600


def test_one_request_a_pass_and_a_claim_after_the_deadline_on_the_servers_clock(client: TestClient) -> None:
    now = [T0]
    client.app.state.pbem_clock = lambda: now[0]  # type: ignore[attr-defined]
    red = post(client, "new", {"scenario": "msc-duel", "side": "red", "max_turns": 1, "deadline_hours": 24})
    assert red["file"]["deadline_hours"] == 24
    now[0] = T0 + HOUR
    blue = post(client, "turn", {"file": red["file"], "side": "blue"})
    # blue was last to commit: its commitment and its reveal go in one file.
    assert [a["kind"] for a in blue["file"]["actions"]] == ["commit", "commit", "reveal"]
    now[0] = T0 + 2 * HOUR
    mine = post(client, "turn", {"file": blue["file"], "side": "red", "keyring": red["keyring"], "order": "Hawk 1"})
    assert mine["view"]["step"] == 1
    assert mine["view"]["sealed"] == "Hawk 1"
    assert mine["view"]["owed"] == {"blue": "commit"}
    assert mine["view"]["claimable_at"] == T0 + 26 * HOUR
    assert not mine["view"]["claimable"]
    body = {"file": mine["file"], "side": "red", "keyring": mine["keyring"]}
    now[0] = T0 + 26 * HOUR - 1
    early = post(client, "claim", body, 409)
    assert early["error"]["type"] == "EarlyClaimError"
    now[0] = T0 + 26 * HOUR
    assert post(client, "view", body)["view"]["claimable"]
    claimed = post(client, "claim", body)
    assert claimed["file"]["actions"][-2]["kind"] == "claim"
    assert claimed["file"]["actions"][-2]["against"] == ["blue"]
    # The claim left red its reveal, made in the same request: turn 1 resolved with blue holding, game over.
    assert claimed["view"]["over"]
    assert claimed["events"]


def test_a_game_of_whole_turns_and_a_rebuilt_file_through_the_api(client: TestClient) -> None:
    red = post(client, "new", {"scenario": "msc-duel", "side": "red", "whole_turns": True})
    assert red["view"]["whole_turns"] is True
    assert red["file"]["whole_turns"] is True
    blue = post(client, "turn", {"file": red["file"], "side": "blue"})
    received = blue["file"]
    sent = post(
        client, "turn", {"file": received, "side": "red", "keyring": red["keyring"], "order": "Hawk 1 | fire at any"}
    )
    assert sent["view"]["sealed"] == "Hawk 1 | fire at any 0%"
    # red lost the file it sent: the server rebuilds it from blue's file and red's keyring, exactly.
    rebuilt = post(client, "rebuild", {"file": received, "side": "red", "keyring": sent["keyring"]})
    assert rebuilt["file"] == sent["file"]
    refused = post(client, "rebuild", {"file": sent["file"], "side": "red", "keyring": sent["keyring"]}, 409)
    assert refused["error"]["type"] == "StaleFileError"
    assert "nothing to rebuild" in refused["error"]["message"]


def test_a_file_checked_past_the_servers_budget_is_refused_in_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_pbem, "PBEM_BUDGET", 0.0)
    late = post(client, "new", {"scenario": "msc-duel", "side": "red"}, 422)
    assert late["error"]["type"] == "PbemFileError"
    assert "budget of 0 s" in late["error"]["message"]


def test_a_side_concedes_through_the_api_and_a_concession_in_anothers_name_is_refused(client: TestClient) -> None:
    red = post(client, "new", {"scenario": "msc-duel", "side": "red"})
    early = post(client, "concede", {"file": red["file"], "side": "red", "keyring": red["keyring"]}, 409)
    assert "nothing to concede yet" in early["error"]["message"]
    blue = post(client, "turn", {"file": red["file"], "side": "blue"})
    red = post(client, "turn", {"file": blue["file"], "side": "red", "keyring": red["keyring"], "order": "Hawk 1"})
    assert red["view"]["step"] == 1
    # red, holding the file, writes blue's concession without blue's keyring: blue's new keyring refuses it.
    forged = post(client, "concede", {"file": red["file"], "side": "blue"}, 409)
    assert forged["error"]["type"] == "ForeignActionError"
    given = post(client, "concede", {"file": red["file"], "side": "blue", "keyring": blue["keyring"]})
    assert given["view"]["over"]
    assert given["view"]["result"] == {"winners": ["red"], "reason": "blue conceded"}
    assert any("conceded" in line for line in given["events"])
    seen = post(client, "view", {"file": given["file"], "side": "red", "keyring": red["keyring"]})
    assert seen["view"]["result"]["reason"] == "blue conceded"
    again = post(client, "concede", {"file": given["file"], "side": "red", "keyring": red["keyring"]}, 409)
    assert "the game is over" in again["error"]["message"]


def test_a_draw_is_offered_and_agreed_through_the_api(client: TestClient) -> None:
    red = post(client, "new", {"scenario": "msc-duel", "side": "red"})
    blue = post(client, "turn", {"file": red["file"], "side": "blue"})
    red = post(client, "turn", {"file": blue["file"], "side": "red", "keyring": red["keyring"], "order": "Hawk 1"})
    assert red["view"]["draw_offer"] is None
    offered = post(client, "draw", {"file": red["file"], "side": "red", "keyring": red["keyring"]})
    assert offered["view"]["draw_offer"] == {"agreed": ["red"], "waiting": ["blue"]}
    assert not offered["view"]["over"]
    agreed = post(client, "draw", {"file": offered["file"], "side": "blue", "keyring": blue["keyring"]})
    assert agreed["view"]["over"]
    assert agreed["view"]["draw_offer"] is None
    assert agreed["view"]["result"] == {"winners": [], "reason": "ended by agreement"}
