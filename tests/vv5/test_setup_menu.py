"""VV5 set-up phases as menus (issue 20): every option offered is an order the engine accepts."""

from __future__ import annotations

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.scene import build_scene


def accepted(game: Game, side: str, text: str) -> bool:
    system, state = game.system, game.state
    try:
        system.check_order(state, side, system.parse_order(state, side, text))
    except (IllegalOrderError, OrderSyntaxError):
        return False
    return True


@pytest.mark.parametrize(
    "name", ["vv5-dogfight-purchase", "vv5-dogfight-draw", "vv5-strike-force-purchase", "vv5-assault-force-purchase"]
)
def test_every_purchase_option_is_legal_and_every_legal_buy_is_offered(name: str) -> None:
    game = Game.new(get_system("vv5"), builtin_scenario(name), 5)
    while game.state.phase == "purchase":
        prompt = game.prompt
        assert prompt is not None
        side = prompt.sides[0]
        menu = game.system.setup_menu(game.state, side)
        assert menu is not None
        assert menu.kind == "pick"
        assert menu.left == game.state.purchase.points_of(side)
        offered = [o.order for o in menu.options]
        assert offered
        assert all(accepted(game, side, text) for text in offered)
        assert accepted(game, side, "done") == bool(menu.finish)
        for option in menu.options:
            assert option.cost <= (menu.left or 0)
            assert " t: " in option.stats
        # Not offered is not legal: any other count of an offered type is refused.
        for group in {o.group for o in menu.options}:
            counts = {int(o.order.split()[1]) for o in menu.options if o.group == group}
            for n in set(range(1, 4)) - counts:
                assert not any(accepted(game, side, f"buy {n} {group}{b}") for b in ("", " bombs 1", " bombs 2"))
        game.submit(side, offered[0])
    assert game.system.setup_menu(game.state, "red") is None


def test_a_side_not_buying_gets_no_menu_and_the_scene_carries_the_buyers() -> None:
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-strike-force-purchase"), 2)
    assert game.system.setup_menu(game.state, "intercept") is None
    scene = build_scene(game, ["strike", "intercept"])
    assert list(scene["setup"]) == ["strike"]
    options = scene["setup"]["strike"]["options"]
    assert all("bomb" in o["order"] for o in options)  # the first buy carries the bombs


def test_the_placement_menu_offers_the_centre_then_the_hexes_beside_the_body() -> None:
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-stasis-pod-place"), 1)
    body = game.system.setup_menu(game.state, "red")
    assert body is not None
    assert [o.label for o in body.options] == ["H@4,3", "H@4,4", "H@5,3", "H@5,4"]
    assert game.system.setup_menu(game.state, "blue") is None
    game.submit("red", body.options[0].order)
    pod = game.system.setup_menu(game.state, "blue")
    assert pod is not None
    assert len(pod.options) == 6
    assert all(accepted(game, "blue", o.order) for o in pod.options)
    game.submit("blue", pod.options[0].order)
    assert game.system.setup_menu(game.state, "blue") is None
