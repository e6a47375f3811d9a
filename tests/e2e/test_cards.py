"""Ship cards in the browser draw each record-sheet mark by what it means.

The cards are text shared with the terminal, written by each system's display module; the page
reads each mark by the system that wrote it and the line it is on. These tests feed the page
cards written by the real VV5 and MSC display code (damaged, so every mark appears) and check
every mark is drawn, in its paper shape (VV5 damage boxes square, armour ovals oval, MSC ovals
oval), with the right meaning: MSC's filled-in oval is not a "spent" one.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server
from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Direction
from vectorwar.registry import get_system
from vectorwar.scene import card_data
from vectorwar.systems.msc import display as msc_display
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.state import MSCState
from vectorwar.systems.vv5 import display as vv5_display
from vectorwar.systems.vv5.state import Box, VV5State

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000

#: Draw cards with the page's own module and stylesheet; report each line's marks and words.
RENDER_JS = """async ([system, cards]) => {
  const sheet = await import('/static/cards.js');
  const box = document.createElement('div');
  box.style.width = '400px';
  document.body.append(box);
  sheet.renderCards(box, cards, {}, {system});
  const rows = [...box.querySelectorAll('.card-rows tr')].map(tr => ({
    card: tr.closest('.card').dataset.title,
    label: tr.querySelector('th').textContent,
    marks: [...tr.querySelectorAll('.mark')].map(e => {
      const r = e.getBoundingClientRect();
      return {token: e.dataset.mark, cls: e.className, label: e.getAttribute('aria-label'),
              title: e.getAttribute('title'), w: r.width, h: r.height};
    }),
    words: [...tr.querySelectorAll('.box-note, .mark-word')].map(e => e.textContent),
    plain: tr.querySelector('td').children.length === 0,
  }));
  const key = [...box.querySelectorAll('.mark-key .mark-key-item')].map(e => e.textContent.trim());
  box.remove();
  return {rows, key};
}"""


def vv5_cards() -> list[dict[str, Any]]:
    """Refugees' Hauler (armour on cargo and structure) and a Harpy, damaged so every mark shows."""
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-refugees"), seed=1)
    state = game.state
    assert isinstance(state, VV5State)
    hauler = state.ship("T1")
    hauler = replace(
        hauler,
        facing=Direction.B,  # "heading B" on the AT line: a letter, not a bomb
        cargo=Box(8, 2, 10, 4),
        structure=Box(17, 1, 20, 4),
    )
    harpy = state.ship("Z1")
    harpy = replace(harpy, launchers=("ready", "spent", "destroyed", "bomb"), missile_armour=Box(0, 1, 0, 2))
    return [card_data(vv5_display.ship_card(state, ship)) for ship in (hauler, harpy)]


def msc_cards() -> list[dict[str, Any]]:
    """The duel's Hawk with an engine box lost and its forward weapon shot away."""
    game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
    state = game.state
    assert isinstance(state, MSCState)
    hawk = state.ship("Hawk")
    assert Side.F in hawk.weapons
    assert Side.RL not in hawk.weapons_fitted
    hawk = replace(hawk, engine=hawk.engine - 1, weapons=tuple(w for w in hawk.weapons if w != Side.F))
    return [card_data(msc_display.ship_card(hawk))]


def render(page: Page, server: Server, system: str, cards: list[dict[str, Any]]) -> dict[str, Any]:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    drawn: dict[str, Any] = page.evaluate(RENDER_JS, [system, cards])
    return drawn


def line(drawn: dict[str, Any], card: str, label: str) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in drawn["rows"] if r["card"].startswith(card) and r["label"] == label)
    return found


def shape(mark: dict[str, Any]) -> str:
    classes = mark["cls"].split()
    assert "mark" in classes
    if "box" in classes:
        assert mark["w"] == pytest.approx(mark["h"], abs=1.0), mark  # square
        return "box"
    assert "oval" in classes, mark
    assert mark["w"] > 1.3 * mark["h"], mark  # wider than tall, as on paper
    return "oval"


def test_vv5_cards_draw_damage_boxes_and_armour_ovals_apart(page: Page, server: Server) -> None:
    drawn = render(page, server, "vv5", vv5_cards())
    # Every mark of every damage location is drawn: no stray letter is left as text.
    for row in drawn["rows"]:
        if row["label"][:1].isdigit():
            assert set(row["words"]) <= {"armour", "-"}, row
    structure = line(drawn, "T1", "1 STRUCTURE")
    assert [(shape(m), m["label"]) for m in structure["marks"]] == (
        [("box", "box intact")] * 17
        + [("box", "box knocked out")] * 3
        + [("oval", "armour oval intact")]
        + [("oval", "armour oval crossed off")] * 3
    )
    assert structure["words"] == ["armour"]
    assert all("crossed" in m["cls"] for m in structure["marks"] if m["token"] in {"✕", "x"})
    cargo = line(drawn, "T1", "2 CARGO")
    assert [shape(m) for m in cargo["marks"]] == ["box"] * 10 + ["oval"] * 4
    missiles = line(drawn, "Z1", "5 MISSILES")
    assert [(m["token"], m["label"]) for m in missiles["marks"]] == [
        ("O", "launcher ready"),
        ("●", "missile launched"),
        ("✕", "launcher destroyed"),
        ("B", "bomb"),
        ("o", "armour oval intact"),
        ("x", "armour oval crossed off"),
    ]
    assert [shape(m) for m in missiles["marks"]] == ["box"] * 4 + ["oval"] * 2
    # Lines of words stay words, letters and all.
    for label in ("AT", "VECTOR", "DESIGN"):
        assert line(drawn, "T1", label)["plain"], label
    # Each mark tells its meaning on hover, and the key above the cards lists them.
    assert all(m["title"] == m["label"] for row in drawn["rows"] for m in row["marks"])
    key = [item.lstrip("✕B ").strip() for item in drawn["key"]]
    assert {"armour oval crossed off", "box knocked out", "missile launched", "bomb"} <= set(key), key


def test_msc_cards_name_filled_ovals_and_shot_away_weapons(page: Page, server: Server) -> None:
    drawn = render(page, server, "msc", msc_cards())
    engine = line(drawn, "Hawk", "ENGINE")
    # "O O ● ● ●  2/3": two open ovals, the third lost to damage, two beyond the rating.
    assert [m["token"] for m in engine["marks"]] == ["O", "O", "●", "●", "●"]
    assert {shape(m) for m in engine["marks"]} == {"oval"}
    filled = [m for m in engine["marks"] if m["token"] == "●"]
    assert all("filled" in m["cls"].split() for m in filled)
    assert all("filled in" in m["label"] and "spent" not in m["label"] for m in filled), filled
    assert engine["words"] == ["2/3"]
    shield = line(drawn, "Hawk", "SHIELD")
    assert {shape(m) for m in shield["marks"]} == {"oval"}
    weapons = line(drawn, "Hawk", "WEAPONS")
    by_side = dict(zip(weapons["words"], weapons["marks"], strict=True))
    assert list(by_side) == ["F", "FL", "FR", "RL", "RR"]
    assert by_side["F"]["label"] == "weapon shot away"
    assert "crossed" in by_side["F"]["cls"]
    assert by_side["FL"]["label"] == "weapon fitted"
    assert "no weapon" in by_side["RL"]["label"]
    assert "spent" not in by_side["RL"]["label"]
    for row in drawn["rows"]:
        assert all("spent" not in m["label"] for m in row["marks"]), row


def test_a_vv5_game_shows_armour_ovals_on_its_ship_cards(page: Page, server: Server, artefacts: Path) -> None:
    import httpx

    created = httpx.post(
        f"{server.url}/api/games",
        json={"scenario": "vv5-refugees", "sides": {"refugees": "human", "intercept": "bot:greedy"}, "seed": 2},
        timeout=60,
    ).json()
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.click("#tab-ships")
    card = page.locator("#cards .card[data-title^='T1:']")
    expect(card).to_be_visible()
    cargo = card.locator("tr", has_text="2 CARGO")
    expect(cargo.locator(".mark.box")).to_have_count(10)
    expect(cargo.locator(".mark.oval[aria-label='armour oval intact']")).to_have_count(4)
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(artefacts / "cards-vv5-armour.png"))
