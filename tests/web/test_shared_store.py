"""Two services on one database, as two server processes share a PostgreSQL: nothing forked, nothing lost.

In one process, on one SQLite file with ``shared=True`` (what PostgreSQL
turns on by itself), so the version guard runs without a database server:
each service keeps its own copy of a game in memory, and every change one
makes must be seen, never overwritten, by the other.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tests.web.helpers import Mirror, run_async
from tests.web.test_api import auth, create, token_of
from vectorwar.game import Game
from vectorwar.web import referee
from vectorwar.web.app import create_app
from vectorwar.web.service import STALE_TRIES, GameService, StaleGame
from vectorwar.web.store import Progress, Stamps, Store

PEOPLE = {"red": "human", "blue": "human"}


def two_services(tmp_path: Path) -> tuple[GameService, GameService]:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    return GameService(Store(url, shared=True)), GameService(Store(url, shared=True))


def stored_batches(service: GameService, game_id: str) -> list[tuple[int, list[list[str]]]]:
    with service.store.engine.connect() as db:
        rows = db.execute(
            sa.text("SELECT step, orders FROM order_batches WHERE game_id = :g ORDER BY step"), {"g": game_id}
        )
        return [(int(step), orders if isinstance(orders, list) else json.loads(orders)) for step, orders in rows]


def test_a_write_for_an_old_version_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        one, _two = two_services(tmp_path)
        created = await one.create("msc-duel", PEOPLE, seed=4)
        store = one.store
        assert store.version(created.id) == 0
        # A draft is red's secret: the secret version moves on and red is marked, the public one stays.
        assert store.set_draft(created.id, "red", "Hawk 1", version=0, secret=0) == 1
        assert store.stamps(created.id, ("red", "blue")) == Stamps(0, 1, {"red": 1, "blue": 0})
        with pytest.raises(StaleGame):
            store.set_draft(created.id, "red", "Hawk 2", version=0, secret=0)
        progress = Progress(first_step=0, batches=(), pending={"red": "x"}, clock="c", turn=1, over=False)
        with pytest.raises(StaleGame):
            store.record(created.id, progress, version=0, secret=0)
        assert store.set_standing(created.id, "blue", {}, version=0, secret=1) == 2
        with pytest.raises(StaleGame):
            store.set_draft(created.id, "blue", "x", version=1, secret=2)
        loaded = store.load(created.id)
        assert loaded is not None
        assert (loaded.version, loaded.secret_version, loaded.marks) == (0, 2, {"red": 1, "blue": 2})
        assert (loaded.drafts, loaded.pending) == ({"red": "Hawk 1"}, {})
        with pytest.raises(LookupError, match="g_none"):
            store.set_draft("g_none", "red", "x", version=0)

    run_async(main)


def test_two_services_play_one_game_and_each_sees_the_others_orders(tmp_path: Path) -> None:
    async def main() -> None:
        one, two = two_services(tmp_path)
        created = await one.create("msc-duel", PEOPLE, seed=21)
        tokens = {p.sides[0]: p.token for p in created.players}
        mirror = Mirror.of("msc-duel", 21, PEOPLE)
        services = [one, two]
        # Both have the game in memory before either changes it.
        for service in services:
            await service.scene(created.id, None)
        given = 0
        while given < 24 and not mirror.game.is_over:
            due = mirror.due()
            orders = {side: mirror.order_for(side) for side in due}
            step = mirror.step
            # Every side owed now at once, each through the other service in turn: a simultaneous
            # plot's two halves race to the store from two copies of the game.
            answers = await asyncio.gather(
                *(
                    services[(given + i) % 2].submit(created.id, tokens[side], side, text, step)
                    for i, (side, text) in enumerate(orders.items())
                )
            )
            assert not any(a.duplicate for a in answers)
            for side, text in orders.items():
                mirror.game.submit(side, text)
                given += 1
            mirror.run_bots()
            for service in services:
                seen = await service.scene(created.id, tokens["red"])
                assert f'"step":{mirror.step}' in seen
        assert given >= 12
        batches = stored_batches(one, created.id)
        assert [step for step, _ in batches] == list(range(len(mirror.game.history)))
        assert [[tuple(o) for o in orders] for _, orders in batches] == [
            list(batch.orders) for batch in mirror.game.history
        ]

    run_async(main)


def test_drafts_sides_and_chat_from_two_services_are_all_kept(tmp_path: Path) -> None:
    async def main() -> None:
        one, two = two_services(tmp_path)
        created = await one.create("msc-duel", {"red": "human", "blue": "open"}, seed=5)
        red = created.players[0].token
        await two.scene(created.id, None)
        await one.set_draft(created.id, red, "red", "Hawk 1", 0)
        # The other service's copy is older: it reads the game again and shows the draft.
        assert '"drafts":{"red":"Hawk 1"}' in await two.scene(created.id, red)
        joined = await two.join(created.id, "blue", practice=True)
        assert '"free_sides":[]' in await one.scene(created.id, None)
        with pytest.raises(Exception, match="already taken"):
            await one.join(created.id, "blue", practice=True)
        lines = await asyncio.gather(
            *(
                service.say(created.id, token, side, f"line {i}", key=f"key-{i:05d}")
                for i, (service, token, side) in enumerate(
                    [(one, red, "red"), (two, joined.token, "blue"), (two, red, "red"), (one, joined.token, "blue")]
                )
            )
        )
        assert sorted(line.number for line, _new in lines) == [1, 2, 3, 4]
        # A retry through the other service finds the line stored, and stores nothing.
        again, new = await two.say(created.id, red, "red", "line 0", key="key-00000")
        assert (again.number, new) == (lines[0][0].number, False)
        stored = await one.chat(created.id, red)
        assert [(x.number, x.text) for x in stored] == sorted((x.number, x.text) for x, _new in lines)

    run_async(main)


def test_an_offer_to_end_made_through_one_service_is_accepted_through_the_other(tmp_path: Path) -> None:
    async def main() -> None:
        one, two = two_services(tmp_path)
        created = await one.create("msc-duel", PEOPLE, seed=7)
        tokens = {p.sides[0]: p.token for p in created.players}
        await two.scene(created.id, None)
        offered = json.loads(await one.offer_end(created.id, tokens["red"], "red"))
        assert offered["end_offer"]["waiting"] == ["blue"]
        # The other service shows the offer, and its acceptance there ends the game.
        assert json.loads(await two.scene(created.id, None))["end_offer"] == offered["end_offer"]
        ended = json.loads(await two.offer_end(created.id, tokens["blue"], "blue"))
        assert ended["end_offer"] is None
        assert ended["result"] is not None
        assert json.loads(await one.scene(created.id, None)) == json.loads(await two.scene(created.id, None))

    run_async(main)


def test_a_change_refused_as_stale_try_after_try_is_a_503_that_took_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tries: list[int | None] = []

    def always_stale(_store: Store, game_id: str, _progress: Progress, version: int | None = None, *_: object) -> int:
        tries.append(version)
        raise StaleGame(game_id, version or 0)

    mirror = Mirror.of("msc-duel", 4, PEOPLE)
    side = mirror.due()[0]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        game = create(client, "msc-duel", PEOPLE, seed=4)
        monkeypatch.setattr(Store, "record", always_stale)
        answer = client.post(
            f"/api/games/{game['id']}/orders",
            json={"side": side, "text": mirror.order_for(side), "step": 0},
            headers=auth(token_of(game, side)),
        )
        monkeypatch.undo()
        assert answer.status_code == 503
        assert answer.headers["Retry-After"] == "1"
        assert answer.json()["error"]["type"] == "GameChanged"
        assert len(tries) == STALE_TRIES
        assert client.get(f"/api/games/{game['id']}").json()["step"] == 0


@pytest.mark.parametrize(
    ("scenario", "sides"), [("msc-duel", PEOPLE), ("vv5-dogfight", {"red": "human", "blue": "human"})]
)
def test_a_copy_caught_up_from_an_earlier_state_is_the_game_a_full_replay_makes(
    scenario: str, sides: dict[str, str]
) -> None:
    mirror = Mirror.of(scenario, 20, sides)
    earlier = []
    while not mirror.game.is_over and len(mirror.game.history) < 12:
        due = mirror.due()
        # Kept before every order: some with a plot waiting that the store later replaced or resolved.
        earlier.append(referee.copy_game(mirror.game))
        mirror.give(due[-1], mirror.order_for(due[-1]))
    final = mirror.game
    full = Game.replay(final.system, final.scenario, final.seed, final.options, final.history)
    assert len(earlier) >= 10
    for known in earlier:
        quick = referee.caught_up(known, final.history)
        assert quick is not None
        assert quick.history == full.history
        assert quick.state == full.state
        assert quick.events == full.events
        assert quick.dice_count == full.dice_count
        assert quick.pending == {}
    # A history that does not begin with the copy's is replayed in full instead.
    assert referee.caught_up(final, final.history[:-1]) is None
    assert referee.caught_up(earlier[-1], [*final.history[1:2], *final.history[1:]]) is None
