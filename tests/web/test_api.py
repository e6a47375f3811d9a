"""The HTTP API against a real SQLite file: playing games, every error status, retries, drafts, replay."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import Mirror
from vectorwar.scene import build_scene
from vectorwar.web.app import create_app


def create(client: TestClient, scenario: str, sides: dict[str, str], seed: int = 7, **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"scenario": scenario, "sides": sides, "seed": seed, **extra})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def token_of(created: dict[str, Any], side: str) -> str:
    token: str = next(p["token"] for p in created["players"] if side in p["sides"])
    return token


def play(client: TestClient, scenario: str, sides: dict[str, str], seed: int, limit: int = 200) -> tuple[Mirror, str]:
    """Play the people's sides with legal random orders until the end; the mirror checks every answer."""
    created = create(client, scenario, sides, seed)
    game_id = created["id"]
    mirror = Mirror.of(scenario, seed, sides)
    for _ in range(limit):
        due = mirror.due()
        if not due:
            break
        side = due[0]
        text = mirror.order_for(side)
        step = len(mirror.game.history)
        answer = client.post(
            f"/api/games/{game_id}/orders",
            json={"side": side, "text": text, "step": mirror.step},
            headers=auth(token_of(created, side)),
        )
        assert answer.status_code == 200, answer.text
        mirror.game.submit(side, text)
        completed = len(mirror.game.history) > step
        mirror.run_bots()
        body = answer.json()
        assert body["accepted"] is True
        assert body["duplicate"] is False
        assert body["resolved"] is completed
        scene = body["scene"]
        assert scene["game"] == game_id
        assert scene["step"] == len(mirror.game.history)
        assert (scene["prompt"] or {}).get("clock") == (mirror.clock if not mirror.game.is_over else None)
    return mirror, game_id


def test_systems_list_msc_and_vv5_with_bots_and_scenarios(client: TestClient) -> None:
    systems = {s["name"]: s for s in client.get("/api/systems").json()}
    assert {"msc", "vv5"} <= set(systems)
    assert "greedy" in systems["vv5"]["bots"]
    dogfight = next(s for s in systems["vv5"]["scenarios"] if s["id"] == "vv5-dogfight")
    assert dogfight["sides"] == ["red", "blue"]
    assert all(s["id"].startswith("msc-") for s in systems["msc"]["scenarios"])


def test_systems_list_rule_options_and_scenarios_presets_and_games_apply_them(client: TestClient) -> None:
    systems = {s["name"]: s for s in client.get("/api/systems").json()}
    honour = next(o for o in systems["vv5"]["options"] if o["name"] == "honour_rule")
    assert honour["default"] is False
    assert honour["description"]
    edge = next(o for o in systems["msc"]["options"] if o["name"] == "map_edge")
    assert edge["choices"] == ["disengage", "forbid"]
    duel_vv5 = next(s for s in systems["vms"]["scenarios"] if s["id"] == "vms-capital-duel-vv5")
    assert duel_vv5["options"] == {"combat": "vv5"}
    created = create(client, "vv5-dogfight", {"red": "human", "blue": "bot:greedy"}, options={"honour_rule": True})
    scene = client.get(f"/api/games/{created['id']}").json()
    assert scene["options"]["honour_rule"] is True
    assert scene["options"]["shock"] is False


@pytest.mark.parametrize(("scenario", "seed"), [("msc-duel", 3), ("vv5-dogfight", 5)])
def test_a_game_against_greedy_plays_to_the_end_exactly_as_the_kernel_plays_it(
    client: TestClient, scenario: str, seed: int
) -> None:
    mirror, game_id = play(client, scenario, {"red": "human", "blue": "bot:greedy"}, seed)
    assert mirror.game.is_over
    scene = client.get(f"/api/games/{game_id}").json()
    expected = build_scene(mirror.game, [])
    assert scene["result"] == expected["result"] is not None
    assert scene["events"] == expected["events"]
    listed = next(g for g in client.get("/api/games").json() if g["id"] == game_id)
    assert listed["over"] is True
    assert listed["sides"] == {"red": "human", "blue": "bot:greedy"}


def test_a_game_is_rebuilt_from_the_store_by_a_new_server(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        created = create(client, "msc-duel", {"red": "human", "blue": "human"}, seed=11)
        mirror = Mirror.of("msc-duel", 11, {"red": "human", "blue": "human"})
        for _ in range(5):
            side = mirror.due()[0]
            text = mirror.order_for(side)
            answer = client.post(
                f"/api/games/{created['id']}/orders",
                json={"side": side, "text": text, "step": mirror.step},
                headers=auth(token_of(created, side)),
            )
            assert answer.status_code == 200, answer.text
            mirror.give(side, text)
        before = client.get(f"/api/games/{created['id']}", headers=auth(token_of(created, "red"))).json()
    with TestClient(create_app(db_url)) as again:
        after = again.get(f"/api/games/{created['id']}", headers=auth(token_of(created, "red"))).json()
    assert after == before
    assert after["step"] == len(mirror.game.history) > 0


def test_hotseat_gives_one_token_for_every_human_side(client: TestClient) -> None:
    created = create(client, "msc-duel", {"red": "human", "blue": "human"}, hotseat=True)
    assert [p["sides"] for p in created["players"]] == [["red", "blue"]]
    token = created["players"][0]["token"]
    assert created["players"][0]["url"] == f"/games/{created['id']}?token={token}"
    scene = client.get(f"/api/games/{created['id']}?token={token}").json()
    assert scene["viewer"] == ["red", "blue"]
    assert scene["my_turn"] == ["red", "blue"]


def test_quickstart_is_a_vv5_dogfight_against_greedy_waiting_for_the_newcomer(client: TestClient) -> None:
    answer = client.post("/api/quickstart")
    assert answer.status_code == 201
    created = answer.json()
    assert [p["sides"] for p in created["players"]] == [["red"]]
    scene = client.get(f"/api/games/{created['id']}?token={created['players'][0]['token']}").json()
    assert scene["scenario"]["id"] == "vv5-dogfight"
    assert scene["players"] == {"red": "human", "blue": "bot:greedy"}
    # The bot has plotted already (secretly): only red is awaited.
    assert scene["prompt"]["waiting_for"] == ["red"]
    assert scene["pending"] == {}
    assert scene["move_options"]


@pytest.fixture
def duel(client: TestClient) -> dict[str, Any]:
    """An MSC duel between two people, nothing ordered yet."""
    return create(client, "msc-duel", {"red": "human", "blue": "human"}, seed=2)


def order(client: TestClient, game: dict[str, Any], side: str, text: str, step: int, token: str | None = None) -> Any:
    headers = auth(token if token is not None else token_of(game, side))
    return client.post(
        f"/api/games/{game['id']}/orders", json={"side": side, "text": text, "step": step}, headers=headers
    )


def snapshot(client: TestClient, game: dict[str, Any]) -> tuple[Any, ...]:
    red = client.get(f"/api/games/{game['id']}", headers=auth(token_of(game, "red"))).json()
    blue = client.get(f"/api/games/{game['id']}", headers=auth(token_of(game, "blue"))).json()
    return red["step"], red["pending"], blue["pending"], red["counters"], red["prompt"]


def test_every_bad_request_gets_its_status_and_changes_nothing(client: TestClient, duel: dict[str, Any]) -> None:
    gid = duel["id"]
    step = 0
    before = snapshot(client, duel)

    syntax = order(client, duel, "red", "Hawk ???", step)
    assert syntax.status_code == 400
    err = syntax.json()["error"]
    assert err["type"] == "OrderSyntaxError"
    assert err["input"] in "Hawk ???"
    assert err["input"] in err["message"]

    illegal = order(client, duel, "red", "Hawk 9", step)
    assert illegal.status_code == 400
    err = illegal.json()["error"]
    assert err["type"] == "IllegalOrderError"
    assert err["rule"].startswith("MSC")

    forbidden = order(client, duel, "blue", "Raven 1", step, token=token_of(duel, "red"))
    assert forbidden.status_code == 403
    assert order(client, duel, "red", "Hawk 1", step, token="not-a-token").status_code == 403
    assert (
        client.post(f"/api/games/{gid}/orders", json={"side": "red", "text": "Hawk 1", "step": step}).status_code == 403
    )
    assert client.delete(f"/api/games/{gid}/orders/blue", headers=auth(token_of(duel, "red"))).status_code == 403
    assert (
        client.put(f"/api/games/{gid}/drafts/blue", json={"text": "x"}, headers=auth(token_of(duel, "red"))).status_code
        == 403
    )

    stale = order(client, duel, "red", "Hawk 1", 7)
    assert stale.status_code == 409
    assert stale.json()["error"]["type"] == "StalePrompt"
    assert (stale.json()["error"]["step"], stale.json()["error"]["clock"]) == (0, "turn 1, plot")

    assert client.get("/api/games/g_nope").status_code == 404
    assert order(client, {"id": "g_nope", "players": duel["players"]}, "red", "Hawk 1", step).status_code == 404
    assert client.get("/api/games/g_nope/replay?step=0").status_code == 404

    malformed = [
        {"side": "red", "text": "Hawk 1"},  # no step
        {"side": "red", "text": "Hawk 1", "step": -1},
        {"side": "red", "text": "Hawk 1", "step": "turn 1, plot"},
        {"side": "red", "text": 5, "step": step},
        {"side": "red", "text": "Hawk 1", "step": step, "extra": 1},
        {"side": "", "text": "Hawk 1", "step": step},
        {"side": "red", "text": "x" * 5000, "step": step},
        [1, 2],
    ]
    for body in malformed:
        answer = client.post(f"/api/games/{gid}/orders", json=body, headers=auth(token_of(duel, "red")))
        assert answer.status_code == 422, body
    for raw, status in ((b"{not json", 422), (b"\xff{", 422)):
        answer = client.post(
            f"/api/games/{gid}/orders",
            content=raw,
            headers={**auth(token_of(duel, "red")), "Content-Type": "application/json"},
        )
        assert answer.status_code == status, raw
    for bad_game in (
        {"scenario": "no-such-scenario"},
        {"scenario": "msc-duel", "sides": {"green": "human"}},
        {"scenario": "msc-duel", "sides": {"red": "bot:nobody"}},
        {"scenario": "msc-duel", "sides": {"red": "greedy"}},
        {"scenario": "msc-duel", "options": {"no_such_option": True}},
        {"scenario": "msc-duel", "seed": -1},
    ):
        answer = client.post("/api/games", json=bad_game)
        assert answer.status_code == 422, bad_game
        assert answer.text
    assert client.get(f"/api/games/{gid}/replay?step=-1").status_code == 422
    assert snapshot(client, duel) == before


def test_an_order_out_of_turn_is_the_rules_error(client: TestClient, duel: dict[str, Any]) -> None:
    mirror = Mirror.of("msc-duel", 2, {"red": "human", "blue": "human"}, people="greedy")
    for _ in range(40):
        prompt = mirror.game.prompt
        assert prompt is not None
        if not prompt.simultaneous:
            break
        for side in mirror.due():
            text = mirror.order_for(side)
            assert order(client, duel, side, text, mirror.step).status_code == 200
            mirror.give(side, text)
    assert prompt is not None
    assert not prompt.simultaneous
    idle = next(s for s in ("red", "blue") if s not in prompt.sides)
    answer = order(client, duel, idle, "hold", mirror.step)
    assert answer.status_code == 400
    assert answer.json()["error"]["type"] == "NotYourTurnError"


def test_a_retry_is_harmless(client: TestClient, duel: dict[str, Any]) -> None:
    first = order(client, duel, "red", "Hawk 1", 0)
    assert first.json()["duplicate"] is False
    again = order(client, duel, "red", "hawk 1", 0)
    assert again.status_code == 200
    assert again.json() | {"scene": None} == {"accepted": True, "resolved": False, "duplicate": True, "scene": None}
    # A changed plot before the last is in replaces the first: not a retry.
    changed = order(client, duel, "red", "Hawk 2", 0)
    assert changed.json()["duplicate"] is False
    assert changed.json()["scene"]["pending"] == {"red": "Hawk 2"}
    resolved = order(client, duel, "blue", "Raven 1", 0)
    assert resolved.json()["resolved"] is True
    step = resolved.json()["scene"]["step"]
    late = order(client, duel, "red", "Hawk 2", 0)
    assert late.status_code == 200
    assert late.json()["duplicate"] is True
    assert late.json()["resolved"] is True
    assert late.json()["scene"]["step"] == step
    # Not what red gave at step 0, so not a retry: the prompt it was written for has passed.
    other = order(client, duel, "red", "Hawk 1", 0)
    assert other.status_code == 409
    assert "Hawk 2" in other.json()["error"]["message"]
    assert snapshot(client, duel)[0] == step


def test_a_retry_is_recognised_when_prompts_in_a_row_share_a_clock(client: TestClient) -> None:
    """VV5 declares missiles and gunfire side after side within one clock: the step tells the prompts apart."""
    sides = {"red": "human", "blue": "human"}
    game = create(client, "vv5-dogfight", sides, seed=5)
    mirror = Mirror.of("vv5-dogfight", 5, sides)
    retried = 0
    for _ in range(120):
        if mirror.game.is_over or retried >= 3:
            break
        side = mirror.due()[0]
        text, step, clock = mirror.order_for(side), mirror.step, mirror.clock
        first = order(client, game, side, text, step)
        assert first.status_code == 200, first.text
        mirror.give(side, text)
        if mirror.game.prompt is None or mirror.clock != clock or side in mirror.due():
            continue
        # The next prompt reads the same clock and the side has nothing to give: a retry must still be one.
        again = order(client, game, side, text, step)
        assert again.status_code == 200, again.text
        assert again.json()["duplicate"] is True
        assert again.json()["scene"]["step"] == mirror.step
        retried += 1
    assert retried >= 1, "no two prompts in a row shared a clock: pick another seed"


def test_check_answers_the_canonical_order_and_stores_nothing(client: TestClient, duel: dict[str, Any]) -> None:
    answer = client.post(
        f"/api/games/{duel['id']}/check", json={"side": "red", "text": "hawk 1"}, headers=auth(token_of(duel, "red"))
    )
    assert answer.json() == {"ok": True, "canonical": "Hawk 1"}
    bad = client.post(
        f"/api/games/{duel['id']}/check", json={"side": "red", "text": "Hawk 9"}, headers=auth(token_of(duel, "red"))
    )
    assert bad.status_code == 400
    assert snapshot(client, duel)[1] == {}


def test_a_plot_can_be_taken_back_until_the_last_is_in(client: TestClient, db_url: str, duel: dict[str, Any]) -> None:
    assert order(client, duel, "red", "Hawk 1", 0).status_code == 200
    assert snapshot(client, duel)[1] == {"red": "Hawk 1"}
    gone = client.delete(f"/api/games/{duel['id']}/orders/red", headers=auth(token_of(duel, "red")))
    assert gone.status_code == 204
    assert snapshot(client, duel)[1] == {}
    with TestClient(create_app(db_url)) as again:
        scene = again.get(f"/api/games/{duel['id']}", headers=auth(token_of(duel, "red"))).json()
    assert scene["pending"] == {}
    assert scene["prompt"]["waiting_for"] == ["red", "blue"]


def test_drafts_come_back_to_their_own_side_only(client: TestClient, db_url: str, duel: dict[str, Any]) -> None:
    gid = duel["id"]
    red = auth(token_of(duel, "red"))
    assert client.put(f"/api/games/{gid}/drafts/red", json={"text": "Hawk 1L"}, headers=red).status_code == 204
    assert client.get(f"/api/games/{gid}", headers=red).json()["drafts"] == {"red": "Hawk 1L"}
    assert client.get(f"/api/games/{gid}", headers=auth(token_of(duel, "blue"))).json()["drafts"] == {}
    assert client.get(f"/api/games/{gid}").json()["drafts"] == {}
    with TestClient(create_app(db_url)) as again:
        assert again.get(f"/api/games/{gid}", headers=red).json()["drafts"] == {"red": "Hawk 1L"}
        # Giving the order uses the draft up.
        assert order(again, duel, "red", "Hawk 1", 0).json()["scene"]["drafts"] == {}
    with TestClient(create_app(db_url)) as third:
        assert third.get(f"/api/games/{gid}", headers=red).json()["drafts"] == {}
        assert third.put(f"/api/games/{gid}/drafts/red", json={"text": "x"}, headers=red).status_code == 204
        assert third.put(f"/api/games/{gid}/drafts/red", json={"text": ""}, headers=red).status_code == 204
        assert third.get(f"/api/games/{gid}", headers=red).json()["drafts"] == {}


def test_a_draft_that_arrives_after_its_prompt_has_passed_is_dropped(client: TestClient) -> None:
    """The browser's last draft save can race the order it became; it must not come back at the next prompt."""
    game = create(client, "msc-duel", {"red": "human", "blue": "bot:greedy"}, seed=4)
    red = auth(token_of(game, "red"))
    given = order(client, game, "red", "Hawk 1", 0)
    step = given.json()["scene"]["step"]
    assert step >= 1
    late = client.put(f"/api/games/{game['id']}/drafts/red", json={"text": "Hawk 1", "step": 0}, headers=red)
    assert late.status_code == 204
    assert client.get(f"/api/games/{game['id']}", headers=red).json()["drafts"] == {}
    now = client.put(f"/api/games/{game['id']}/drafts/red", json={"text": "Hawk 2", "step": step}, headers=red)
    assert now.status_code == 204
    assert client.get(f"/api/games/{game['id']}", headers=red).json()["drafts"] == {"red": "Hawk 2"}


def test_replay_steps_through_the_resolved_batches(client: TestClient) -> None:
    mirror, game_id = play(client, "msc-duel", {"red": "human", "blue": "bot:greedy"}, seed=4, limit=6)
    steps = len(mirror.game.history)
    assert steps >= 3
    for step in (0, 1, steps):
        scene = client.get(f"/api/games/{game_id}/replay?step={step}").json()
        past = mirror.game.replay(
            mirror.game.system, mirror.game.scenario, mirror.game.seed, mirror.game.options, mirror.game.history[:step]
        )
        expected = build_scene(past, [])
        assert scene["step"] == step
        assert scene["counters"] == expected["counters"]
        assert scene["events"] == expected["events"]
        assert scene["viewer"] == []
        assert scene["pending"] == {}
    assert client.get(f"/api/games/{game_id}/replay?step={steps + 1}").status_code == 404


def test_timeline_names_each_resolved_batch_for_scrubbing_by_turn(client: TestClient) -> None:
    mirror, game_id = play(client, "msc-duel", {"red": "human", "blue": "bot:greedy"}, seed=4, limit=6)
    steps = client.get(f"/api/games/{game_id}/timeline").json()["steps"]
    history = mirror.game.history
    assert [s["clock"] for s in steps] == [str(b.clock) for b in history]
    assert [s["turn"] for s in steps] == [b.clock.turn for b in history]
    assert [s["step"] for s in steps] == list(range(len(history)))
    assert len({s["turn"] for s in steps}) >= 2
    assert client.get("/api/games/g_nosuchgame/timeline").status_code == 404


def test_openapi_documents_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    documented = {"/api/games", "/api/games/{game_id}/orders", "/api/quickstart", "/api/games/{game_id}/replay"}
    assert documented | {"/api/games/{game_id}/timeline"} <= set(paths)
    orders = paths["/api/games/{game_id}/orders"]["post"]
    assert {"200", "400", "403", "404", "409", "422"} <= set(orders["responses"])
    assert orders["responses"]["409"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")


def test_a_malformed_request_is_described_but_never_echoed(client: TestClient, duel: dict[str, Any]) -> None:
    secret = "do-not-echo-" + "z" * 4100
    answer = client.post(
        f"/api/games/{duel['id']}/orders",
        json={"side": "red", "text": secret, "step": 0},
        headers=auth(token_of(duel, "red")),
    )
    assert answer.status_code == 422
    err = answer.json()["error"]
    assert err["type"] == "InvalidRequest"
    assert err["fields"][0]["where"] == "body.text"
    assert "4000" in err["message"]
    assert "do-not-echo" not in answer.text


def test_a_body_over_the_limit_is_refused_before_it_is_read(client: TestClient, duel: dict[str, Any]) -> None:
    huge = b'{"text": "' + b"x" * (70 * 1024) + b'"}'
    headers = {**auth(token_of(duel, "red")), "Content-Type": "application/json"}
    said = client.put(f"/api/games/{duel['id']}/drafts/red", content=huge, headers=headers)
    assert said.status_code == 413
    assert said.json()["error"]["type"] == "TooLarge"

    def chunks() -> Any:
        # No Content-Length: the size is only known by reading.
        yield huge[: len(huge) // 2]
        yield huge[len(huge) // 2 :]

    streamed = client.put(f"/api/games/{duel['id']}/drafts/red", content=chunks(), headers=headers)
    assert streamed.status_code == 413
    assert snapshot(client, duel)[1] == {}
    small = client.put(f"/api/games/{duel['id']}/drafts/red", json={"text": "Hawk 1"}, headers=headers)
    assert small.status_code == 204


def test_an_unknown_game_page_is_404_with_a_way_back(client: TestClient, duel: dict[str, Any]) -> None:
    missing = client.get("/games/g_nope")
    assert missing.status_code == 404
    assert "text/html" in missing.headers["content-type"]
    assert 'href="/"' in missing.text
    assert "g_nope" in missing.text
    assert client.get(f"/games/{duel['id']}").status_code == 200
    assert client.get("/games/%3Cb%3E").text.count("<b>") == 0


def test_openapi_documents_the_token(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemes = spec["components"]["securitySchemes"]
    assert {s["type"] for s in schemes.values()} == {"http", "apiKey"}
    assert any(s.get("in") == "query" and s.get("name") == "token" for s in schemes.values())
    give = spec["paths"]["/api/games/{game_id}/orders"]["post"]
    assert give.get("security"), "the order endpoint should say it takes a token"
    assert "step" in spec["components"]["schemas"]["OrderBody"]["required"]


CUSTOM = """
id = "close-duel"
title = "Knife fight"
system = "msc"
max_turns = 5

[map]
width = 8
height = 8

[designs.brick]
name = "Brick"
engine = 1
shields = 5
to_hit = 3
weapons = ["F", "FL", "FR", "RL"]

[[sides]]
id = "red"
[[sides.ships]]
id = "Hawk"
design = "brick"
at = "3,4"
facing = "B"

[[sides]]
id = "blue"
[[sides.ships]]
id = "Raven"
design = "ship3"
at = "5,4"
facing = "E"
"""


def test_a_scenario_file_a_player_brings_is_played_and_kept(client: TestClient, db_url: str) -> None:
    answer = client.post("/api/games", json={"scenario_toml": CUSTOM, "sides": {"blue": "bot:greedy"}, "seed": 3})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    scene = client.get(f"/api/games/{game['id']}", headers=auth(token_of(game, "red"))).json()
    assert scene["scenario"] == {"id": "close-duel", "title": "Knife fight"}
    assert {c["id"]: c["hex"] for c in scene["counters"]} == {"Hawk": "3,4", "Raven": "5,4"}
    hawk = next(card for card in scene["cards"] if card["title"].startswith("Hawk"))
    assert "Brick" in str(hawk)
    given = order(client, game, "red", "Hawk 0", 0)
    assert given.status_code == 200, given.text
    with TestClient(create_app(db_url)) as restarted:
        again = restarted.get(f"/api/games/{game['id']}", headers=auth(token_of(game, "red"))).json()
    assert again["scenario"]["title"] == "Knife fight"
    assert again["step"] == given.json()["scene"]["step"]


def test_a_bad_scenario_file_is_refused_with_where_and_what(client: TestClient) -> None:
    cases = {
        "not toml [": "not valid TOML",
        CUSTOM.replace('system = "msc"', 'system = "nope"'): "no rule system called 'nope'",
        CUSTOM.replace('at = "5,4"', 'at = "50,4"'): "sides.1.ships.0.at",
        CUSTOM.replace("engine = 1", "engine = 99"): "brick",
    }
    for text, says in cases.items():
        answer = client.post("/api/games", json={"scenario_toml": text})
        assert answer.status_code == 422, text
        assert says in answer.json()["error"]["message"], answer.text
    both = client.post("/api/games", json={"scenario": "msc-duel", "scenario_toml": CUSTOM})
    neither = client.post("/api/games", json={})
    assert both.status_code == neither.status_code == 422
    assert "either scenario" in both.json()["error"]["message"]
    assert client.get("/api/games").json() == []


def test_a_practice_game_is_still_marked_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        fixed = create(client, "msc-duel", {"red": "human", "blue": "human"}, seed=5)
    with TestClient(create_app(db_url)) as again:
        assert again.get(f"/api/games/{fixed['id']}").json()["practice"] is True
        assert [g["practice"] for g in again.get("/api/games").json()] == [True]
