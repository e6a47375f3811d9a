"""A side's secret plot replaced changes nothing another side's view is built or cached from (issue 56).

The timing side channel: if a replaced plot invalidated the scenes kept for
other sides, or moved on a version other processes check before a view, the
other side's next view would cost a rebuild (or a reload) exactly when its
opponent replaced its plot. On the referee, a replaced plot keeps every
scene kept for a set of sides without the plotter, and those scenes are what
a fresh build gives; on the service, two services on one store (as two
processes on one PostgreSQL), the other service serves the other side's view
from the very copy and scene it had, while the plotter's own view and the
step's resolution see the new plot.
"""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.web.helpers import Mirror, Server, run_async, throwaway_postgres
from tests.web.test_scale_out import check_store, create, give, open_socket, scene
from tests.web.test_shared_store import stored_batches, two_services
from vectorwar.game import Game
from vectorwar.web import referee

PEOPLE = {"red": "human", "blue": "human"}
VIEWS = [(), ("red",), ("blue",), ("red", "blue")]


def to_a_shared_plot(scenario: str, seed: int) -> Mirror:
    """A game where red and blue both owe a plot now, neither given."""
    mirror = Mirror.of(scenario, seed, PEOPLE)
    while len(mirror.due()) < 2:
        assert not mirror.game.is_over, "the seed's game ended before a plot both sides owe"
        side = mirror.due()[0]
        mirror.give(side, mirror.order_for(side))
    return mirror


def two_plots(mirror: Mirror, side: str) -> tuple[str, str]:
    """Two legal plots for ``side`` now that differ in their canonical text."""
    bot = mirror.people[side]
    seen: dict[str, str] = {}
    for n in range(200):
        text = str(bot.choose(mirror.game.state, side, random.Random(n)))
        seen.setdefault(str(mirror.game.check(side, text)), text)
        if len(seen) == 2:
            first, second = seen.values()
            return first, second
    raise AssertionError(f"{side} has one plot only here")


def table_of(game: Game) -> referee.Table:
    return referee.Table("g_secret", game, dict(PEOPLE), {}, {}, {})


@pytest.mark.parametrize(("scenario", "seed"), [("msc-duel", 20), ("vv5-dogfight", 8)])
def test_a_replaced_plot_keeps_every_other_sides_scene_and_changes_none(scenario: str, seed: int) -> None:
    mirror = to_a_shared_plot(scenario, seed)
    first, second = two_plots(mirror, "red")
    step = mirror.step
    empty = mirror.game
    given = referee.rule_on_order(empty, "red", first, step).game
    assert given is not None
    # A first plot is public: every viewer sees that the prompt no longer waits for red.
    assert referee.private_to(empty, given) is None
    table = table_of(given)
    for sides in VIEWS:
        table.keep_scene(given, sides, referee.scene_base(given, sides))
    kept = {sides: table.cached_scene(sides) for sides in VIEWS}

    ruling = referee.rule_on_order(given, "red", second, step)
    replaced = ruling.game
    assert replaced is not None
    assert not ruling.resolved
    assert not ruling.duplicate
    assert referee.private_to(given, replaced) == ("red",)
    table.put(replaced, private_to=("red",))
    assert table.game is replaced
    # Blue's and a spectator's scenes are the very texts kept before, and a fresh build agrees.
    for sides in [(), ("blue",)]:
        assert table.cached_scene(sides) is kept[sides]
        assert referee.scene_base(replaced, sides) == kept[sides]
    # Red's own views show the new plot, so they are built again.
    assert table.cached_scene(("red",)) is None
    assert table.cached_scene(("red", "blue")) is None
    assert json.loads(referee.scene_base(replaced, ("red",)))["pending"] == {"red": str(replaced.pending["red"])}
    assert referee.scene_base(replaced, ("red",)) != kept[("red",)]

    # The same plot again, or the prompt resolved, is not a secret change.
    assert referee.private_to(replaced, referee.copy_game(replaced)) == ()
    blue = mirror.order_for("blue")
    resolved = referee.rule_on_order(replaced, "blue", blue, step)
    assert resolved.resolved
    assert resolved.game is not None
    assert referee.private_to(replaced, resolved.game) is None
    table.put(resolved.game)
    assert all(table.cached_scene(sides) is None for sides in VIEWS)


def test_a_table_read_again_for_one_sides_secret_keeps_the_other_sides_scenes() -> None:
    mirror = to_a_shared_plot("msc-duel", 20)
    game = mirror.game
    older = table_of(game)
    older.version, older.secret_version, older.marks = 3, 5, {"red": 5, "blue": 2}
    for sides in VIEWS:
        older.keep_scene(game, sides, referee.scene_base(game, sides))
    newer = table_of(referee.copy_game(game))
    newer.version, newer.secret_version, newer.marks = 3, 6, {"red": 6, "blue": 2}
    newer.scenes_from(older)
    assert newer.cached_scene(("blue",)) is older.cached_scene(("blue",))
    assert newer.cached_scene(()) is older.cached_scene(())
    assert newer.cached_scene(("red",)) is None
    assert newer.cached_scene(("red", "blue")) is None
    # A public change since: nothing kept holds.
    public = table_of(referee.copy_game(game))
    public.version, public.marks = 4, dict(older.marks)
    public.scenes_from(older)
    assert all(public.cached_scene(sides) is None for sides in VIEWS)


def test_on_two_services_a_replaced_plot_costs_the_other_sides_view_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        one, two = two_services(tmp_path)
        seed = 20
        created = await one.create("msc-duel", PEOPLE, seed=seed)
        tokens = {p.sides[0]: p.token for p in created.players}
        mirror = Mirror.of("msc-duel", seed, PEOPLE)
        while len(mirror.due()) < 2:
            side = mirror.due()[0]
            text = mirror.order_for(side)
            await one.submit(created.id, tokens[side], side, text, mirror.step)
            mirror.give(side, text)
        step = mirror.step
        first, second = two_plots(mirror, "red")
        await one.submit(created.id, tokens["red"], "red", first, step)
        store = one.store

        # The other service has the game and blue's and a spectator's scenes.
        blue_view = await two.scene(created.id, tokens["blue"])
        await two.scene(created.id, None)
        live = two._live[created.id]
        game, table = live.table.game, live.table
        kept_blue, kept_spectator = table.cached_scene(("blue",)), table.cached_scene(())
        assert kept_blue is not None
        assert kept_spectator is not None
        before = store.stamps(created.id, ("blue",))
        assert before is not None

        # Red replaces its plot and edits a draft through the first service.
        answer = await one.submit(created.id, tokens["red"], "red", second, step)
        assert not answer.duplicate
        assert not answer.resolved
        await one.set_draft(created.id, tokens["red"], "red", "thinking", step)

        # Nothing blue's view is read from moved: the public version and blue's mark are as they were.
        after = store.stamps(created.id, ("blue",))
        assert after is not None
        assert (after.version, after.marks) == (before.version, before.marks)
        assert after.secret == before.secret + 2  # what a change to the game must be current in
        assert await two.scene(created.id, tokens["blue"]) == blue_view
        assert two._live[created.id] is live
        assert live.table.game is game
        assert table.cached_scene(("blue",)) is kept_blue
        assert table.cached_scene(()) is kept_spectator

        # Red's own view, through the second service, shows the new plot and the draft ...
        canonical = str(mirror.game.check("red", second))
        red_view = json.loads(await two.scene(created.id, tokens["red"]))
        assert red_view["pending"] == {"red": canonical}
        assert red_view["drafts"] == {"red": "thinking"}
        # ... and the copy read again for it kept blue's and the spectator's scenes.
        again = two._live[created.id].table
        assert again.cached_scene(("blue",)) is kept_blue
        assert again.cached_scene(()) is kept_spectator

        # Blue's order through the second service resolves the step with red's new plot.
        blue = mirror.order_for("blue")
        resolved = await two.submit(created.id, tokens["blue"], "blue", blue, step)
        assert resolved.resolved
        mirror.game.submit("red", second)
        mirror.give("blue", blue)
        batches = stored_batches(one, created.id)
        assert [[tuple(o) for o in orders] for _, orders in batches] == [list(b.orders) for b in mirror.game.history]
        assert dict(mirror.game.history[step].orders)["red"] == canonical

    run_async(main)


@pytest.mark.slow
def test_on_two_real_servers_a_replaced_plot_reaches_only_its_sides_sockets(tmp_path: Path) -> None:
    """Through PostgreSQL's announcements: the plotter's socket on the other server sees its new plot, and
    the other side's socket there is sent nothing until the step resolves."""
    with throwaway_postgres() as url, ExitStack() as sockets:
        one = Server(url, tmp_path / "one", args=("--bot-workers", "0"))
        two = Server(url, tmp_path / "two", args=("--bot-workers", "0"))
        one.start()
        two.start()
        try:
            table = create(one, "msc-duel", PEOPLE, 20)
            mirror = table.mirror
            while len(mirror.due()) < 2:
                side = mirror.due()[0]
                text = mirror.order_for(side)
                give(one, table, side, text, mirror.step)
                mirror.give(side, text)
            step = mirror.step
            first, second = two_plots(mirror, "red")
            red = open_socket(sockets, two, table.id, table.tokens["red"])
            blue = open_socket(sockets, two, table.id, table.tokens["blue"])
            give(one, table, "red", first, step)
            # A first plot is public: both sockets hear that the prompt waits for blue alone.
            red.read()
            blue.read()
            assert red.scene["pending"] == {"red": str(mirror.game.check("red", first))}
            blue_before = dict(blue.scene)
            assert blue_before["pending"] == {}

            give(one, table, "red", second, step)
            canonical = str(mirror.game.check("red", second))
            while red.scene["pending"] != {"red": canonical}:
                red.read()
            assert scene(two, table, "blue") == scene(one, table, "blue")
            text = mirror.order_for("blue")
            give(two, table, "blue", text, step)
            # Blue's socket's next scene is the resolved step: it was sent nothing in between.
            blue.read()
            assert blue.scene["step"] == step + 1
            mirror.game.submit("red", second)
            mirror.give("blue", text)
            assert dict(mirror.game.history[step].orders)["red"] == canonical
            check_store(url, [table])
        finally:
            one.stop()
            two.stop()
