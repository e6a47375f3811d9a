"""Dice nobody can foresee (issue 15): a drawn seed has 128 bits, never reaches a player while the game is on,
the game still replays from it, and a side replacing its secret plot tells the other viewers nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import sqlalchemy as sa
from fastapi import FastAPI, WebSocket
from fastapi.testclient import TestClient

from tests.web.helpers import run_async
from tests.web.test_api import auth, token_of
from vectorwar.dice import SEED_BITS, Dice
from vectorwar.events import Rolled
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.setup import new_seed
from vectorwar.web.app import create_app
from vectorwar.web.hub import Hub, Viewer
from vectorwar.web.migrations import upgrade
from vectorwar.web.service import GameService
from vectorwar.web.store import Store

SIDES = {"red": "human", "blue": "human"}


def stored_seed(client: TestClient, game_id: str) -> int:
    app = client.app
    assert isinstance(app, FastAPI)
    stored = app.state.service.store.load(game_id)
    seed: int = stored.seed
    return seed


def rolls(client: TestClient, game: dict[str, Any]) -> list[str]:
    """The dice shown in the log, in words."""
    scene = client.get(f"/api/games/{game['id']}", headers=auth(token_of(game, "red"))).json()
    return [e["text"] for e in scene["events"] if e["kind"] == "Rolled"]


def drift(client: TestClient, game: dict[str, Any], turns: int) -> None:
    """Both sides of a VV5 Dogfight plot no change for ``turns`` turns (initiative is rolled every turn)."""
    plots = {"red": "X1 0; X2 0", "blue": "Y1 0; Y2 0"}
    for step in range(turns):
        for side, text in plots.items():
            answer = client.post(
                f"/api/games/{game['id']}/orders",
                json={"side": side, "text": text, "step": step},
                headers=auth(token_of(game, side)),
            )
            assert answer.status_code == 200, answer.text


def test_a_drawn_seed_has_128_bits_of_the_secret_source_and_each_game_its_own() -> None:
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50
    assert {s.bit_length() for s in seeds} == {SEED_BITS + 1}
    # The 128 bits below the leading one vary: every bit position is seen both set and clear.
    low = [s & ((1 << SEED_BITS) - 1) for s in seeds]
    assert all(any(s >> i & 1 for s in low) and not all(s >> i & 1 for s in low) for i in range(SEED_BITS))


def test_a_server_draws_a_128_bit_seed_keeps_it_and_replays_the_game_from_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with TestClient(create_app(url)) as client:
        game = client.post("/api/games", json={"scenario": "vv5-dogfight", "sides": SIDES}).json()
        seed = stored_seed(client, game["id"])
        assert seed.bit_length() > SEED_BITS
        drift(client, game, 2)
        shown = rolls(client, game)
    assert len(shown) >= 4
    with TestClient(create_app(url)) as restarted:
        assert stored_seed(restarted, game["id"]) == seed
        assert rolls(restarted, game) == shown


def test_the_same_visible_history_on_two_servers_gives_different_next_rolls(tmp_path: Path) -> None:
    """What a player sees (scenario, orders, the dice so far) does not fix the next roll: the secret seed does.

    Two servers play the same scenario with the same orders; the dice they show part at once (ten rolls
    alike by chance is a 1 in 6**10 event), so knowing one game's dice tells nothing of the other's.
    """
    seen = []
    for server in ("one", "two"):
        with TestClient(create_app(f"sqlite:///{tmp_path / server}.db")) as client:
            game = client.post("/api/games", json={"scenario": "vv5-dogfight", "sides": SIDES}).json()
            drift(client, game, 4)
            seen.append(rolls(client, game)[:10])
    assert len(seen[0]) == len(seen[1]) == 10
    assert seen[0] != seen[1]


def test_a_chosen_seed_still_throws_what_it_always_threw() -> None:
    """The die function is unchanged, so old games and tests/golden replay: these are the throws of the 31-bit era."""
    dice = Dice(7)
    assert [dice.roll("d6", "check").total for _ in range(8)] == [3, 6, 2, 1, 2, 1, 6, 4]
    big = Dice(2**128 + 5)
    assert [big.roll("d6", "check").total for _ in range(8)] == [3, 5, 1, 1, 1, 2, 6, 1]


def test_the_seed_is_in_no_answer_any_viewer_gets_while_the_game_is_on(client: TestClient) -> None:
    created = client.post("/api/games", json={"scenario": "vv5-dogfight", "sides": SIDES})
    game = created.json()
    seed = str(stored_seed(client, game["id"]))
    texts = [created.text, client.get("/api/games").text]
    viewers: list[dict[str, str]] = [auth(token_of(game, "red")), auth(token_of(game, "blue")), {}]
    for headers in viewers:
        texts.append(client.get(f"/api/games/{game['id']}", headers=headers).text)
    order = client.post(
        f"/api/games/{game['id']}/orders",
        json={"side": "red", "text": "X1 0; X2 0", "step": 0},
        headers=auth(token_of(game, "red")),
    )
    texts.append(order.text)
    texts.append(
        client.post(
            f"/api/games/{game['id']}/check", json={"side": "blue", "text": "Y1 0; Y2 0"}, headers=viewers[1]
        ).text
    )
    texts += [client.get(f"/api/games/{game['id']}/timeline").text]
    texts += [client.get(f"/api/games/{game['id']}/replay?step=0").text]
    for headers in viewers:
        token = headers.get("Authorization", "").removeprefix("Bearer ")
        with client.websocket_connect(f"/ws/games/{game['id']}" + (f"?token={token}" if token else "")) as ws:
            texts.append(ws.receive_text())
    for text in texts:
        assert seed not in text
        assert '"seed"' not in text


def test_replacing_a_secret_plot_sends_nothing_to_the_other_viewers(tmp_path: Path) -> None:
    async def play() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        hub = Hub(service.viewer_scenes)
        service.on_change(hub.publish)
        game = await service.create("msc-duel", SIDES, seed=3)
        token = {p.sides[0]: p.token for p in game.players}
        live = await service.get(game.id)
        # Viewers whose outboxes are read here instead of by a socket: nothing is ever sent through them.
        viewers = {
            name: Viewer(cast(WebSocket, None), sides) for name, sides in (("red", ("red",)), ("blue", ("blue",)))
        }
        viewers["spectator"] = Viewer(cast(WebSocket, None), ())
        for viewer in viewers.values():
            hub.join(game.id, viewer)
            viewer.offer_scene(await service.viewer_scene(live, viewer.sides))
            viewer.outbox.get_nowait()

        def sent() -> dict[str, bool]:
            out = {name: not v.outbox.empty() for name, v in viewers.items()}
            for v in viewers.values():
                while not v.outbox.empty():
                    v.outbox.get_nowait()
            return out

        await service.submit(game.id, token["red"], "red", "Hawk 1", 0)
        assert sent() == {"red": True, "blue": True, "spectator": True}  # red has committed: everyone may know
        await service.submit(game.id, token["red"], "red", "Hawk 2", 0)
        assert sent() == {"red": True, "blue": False, "spectator": False}  # only red's own view changed
        await service.submit(game.id, token["red"], "red", "Hawk 3", 0)
        assert sent() == {"red": True, "blue": False, "spectator": False}
        await service.withdraw(game.id, token["red"], "red")
        assert sent() == {"red": True, "blue": True, "spectator": True}  # red has not committed any more
        blue = json.loads(await service.viewer_scene(live, ("blue",)))
        assert blue["prompt"]["waiting_for"] == ["red", "blue"]
        assert "Hawk 3" not in str(blue)
        service.store.close()

    run_async(play)


def test_a_database_of_the_first_schema_keeps_its_seeds_and_then_holds_128_bit_ones(db: str) -> None:
    engine = sa.create_engine(db)
    upgrade(engine, "0001")
    big = 2**62 + 12345  # the largest seeds the first schema held were BIGINTs
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO games (id, system, scenario_id, title, scenario, seed, options, created, step, turn, "
                "over) VALUES ('g_old', 'msc', 'msc-duel', 'Duel', '{}', :seed, '{}', '2026-01-01', 0, 1, false)"
            ),
            {"seed": big},
        )
    engine.dispose()

    async def create() -> str:
        service = GameService(Store(db))
        created = await service.create("msc-duel", SIDES)
        service.store.close()
        return created.id

    new_ids: list[str] = []

    async def create_one() -> None:
        new_ids.append(await create())

    run_async(create_one)
    new_id = new_ids[0]
    store = Store(db)
    old = store.load("g_old")
    new = store.load(new_id)
    store.close()
    assert old is not None
    assert old.seed == big
    assert new is not None
    assert new.seed.bit_length() > SEED_BITS


def test_a_game_replays_from_a_128_bit_seed_like_any_other() -> None:
    from vectorwar.catalogue import builtin_scenario

    seed = new_seed()
    system = get_system("msc")
    game = Game.new(system, builtin_scenario("msc-duel"), seed)
    game.submit("red", "Hawk 1")
    game.submit("blue", "Raven 1")
    again = Game.replay(system, game.scenario, seed, game.options, game.history)
    assert [e for e in again.events if isinstance(e, Rolled)] == [e for e in game.events if isinstance(e, Rolled)]
    assert any(isinstance(e, Rolled) for e in game.events)
