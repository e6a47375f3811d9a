"""Play by e-mail in the browser: load a game file, reveal, plot, and download the file to pass on."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server
from tests.pbem.players import Mailer, mailers_for, new_game, text_of
from vectorwar.pbem import Claim, PbemGame, game_from_data

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

#: Generous: on a loaded shared machine each call replays the game file on the server.
TIMEOUT_MS = 60_000


def api(server: Server, route: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/pbem/{route}", json=body, timeout=60)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def open_file(page: Page, path: Path, side: str, keyring: Path | None = None) -> None:
    # A file chosen before the page's module has run would fire its change event to no one.
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    page.set_input_files("#pbem-file", str(path))
    expect(page.locator(f"#pbem-side option[value={side}]")).to_have_count(1)
    page.select_option("#pbem-side", side)
    if keyring is not None:
        page.set_input_files("#pbem-keyring", str(keyring))
    page.click("#pbem-open")


def load_text(text: str) -> PbemGame:
    return game_from_data(json.loads(text))


def download(page: Page, button: str, to: Path) -> dict[str, Any]:
    with page.expect_download() as info:
        page.click(button)
    info.value.save_as(to)
    data: dict[str, Any] = json.loads(to.read_text())
    return data


def test_a_player_loads_the_file_reveals_plots_and_downloads_it(
    page: Page, server: Server, tmp_path: Path, artefacts: Path
) -> None:
    # red made the game (its set-up secret committed); blue, elsewhere, committed and revealed its own.
    red = api(server, "new", {"scenario": "msc-duel", "side": "red", "max_turns": 1})
    blue = api(server, "plot", {"file": red["file"], "side": "blue"})
    blue = api(server, "reveal", {"file": blue["file"], "side": "blue", "keyring": blue["keyring"]})
    game = tmp_path / "duel.vwpbem"
    game.write_text(json.dumps(blue["file"]))
    red_keys = tmp_path / "duel.red.secret.json"
    red_keys.write_text(json.dumps(red["keyring"]))

    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/")
    page.click("#pbem-link")
    expect(page).to_have_url(f"{server.url}/pbem")
    open_file(page, game, "red", red_keys)
    expect(page.locator("#pbem-owed")).to_contain_text("red owes a reveal")
    page.click("#pbem-reveal")
    # The set-up's dice are thrown from both secrets; turn 1's plot is open and the map shows the ships.
    expect(page.locator("body")).to_have_attribute("data-step", "1")
    expect(page.locator("#map .counter[data-id=Hawk]")).to_have_count(1)
    expect(page.locator("#cards .card").first).to_be_visible()
    page.fill("#pbem-order", "Hawk 1")
    page.click("#pbem-commit")
    expect(page.locator("#pbem-sealed")).to_contain_text("Hawk 1")
    page.screenshot(path=str(artefacts / "pbem-sealed.png"))
    sent = download(page, "#pbem-download", tmp_path / "sent.vwpbem")
    assert sent["actions"][-1]["kind"] == "commit"
    assert sent["actions"][-1]["side"] == "red"
    assert "Hawk 1" not in json.dumps(sent)
    keys = download(page, "#pbem-download-keyring", tmp_path / "keys.json")
    assert keys["sealed"][0]["plot"] == "Hawk 1"

    # blue commits and reveals on its own machine and sends the file back; this browser kept red's keyring.
    blue = api(server, "plot", {"file": sent, "side": "blue", "keyring": blue["keyring"], "order": "Raven 1"})
    blue = api(server, "reveal", {"file": blue["file"], "side": "blue", "keyring": blue["keyring"]})
    back = tmp_path / "back.vwpbem"
    back.write_text(json.dumps(blue["file"]))
    page.reload()
    open_file(page, back, "red")
    page.click("#pbem-reveal")
    expect(page.locator("body")).to_have_attribute("data-step", "2")
    expect(page.locator("#pbem-events li").first).to_be_visible()
    final = download(page, "#pbem-download", tmp_path / "final.vwpbem")
    assert final["actions"][-1] == {**final["actions"][-1], "kind": "reveal", "side": "red", "plot": "Hawk 1"}


def test_the_page_shows_the_odds_and_the_log_of_a_game_played_one_file_a_step(
    page: Page, server: Server, tmp_path: Path, artefacts: Path
) -> None:
    # Played through the API, one pass a request, until blue has a shot to fire at a fire prompt.
    orders = {"red": "Hawk 1", "blue": "Raven 1"}
    red = api(server, "new", {"scenario": "msc-duel", "side": "red", "max_turns": 5})
    file, keys = red["file"], {"red": red["keyring"]}
    side = "blue"
    for _ in range(40):
        body = {"file": file, "side": side, "keyring": keys.get(side)}
        answer = api(server, "turn", body)
        view = answer["view"]
        if view["owed"].get(side) == "commit" and side in view["prompted"]:
            scene = view["scene"]
            if scene["prompt"]["kind"] == "fire" and side == "blue" and scene["fire_options"]:
                file, keys[side] = answer["file"], answer["keyring"]
                break
            order = orders[side] if scene["prompt"]["kind"] == "plot" else "hold"
            answer = api(server, "turn", {**body, "order": order})
        file, keys[side] = answer["file"], answer["keyring"]
        side = "red" if side == "blue" else "blue"
    else:
        raise AssertionError("blue never had a shot")
    game = tmp_path / "duel.vwpbem"
    game.write_text(json.dumps(file))
    blue_keys = tmp_path / "duel.blue.secret.json"
    blue_keys.write_text(json.dumps(keys["blue"]))

    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/pbem")
    open_file(page, game, "blue", blue_keys)
    # The same odds the online table shows (the server's rules work them out) and the game's whole log.
    expect(page.locator("#pbem-odds .odds-detail").first).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#pbem-odds .odds-summary").first).to_contain_text("→ Hawk: needs")
    page.click(".pbem-log-box summary")
    expect(page.locator("#pbem-log li").first).to_contain_text("turn 1")
    expect(page.locator("#map .counter[data-id=Raven]")).to_have_count(1)
    page.screenshot(path=str(artefacts / "pbem-odds.png"))


def stalled_file(tmp_path: Path, name: str, start: int) -> tuple[Path, Path]:
    """An MSC duel with a deadline of an hour a step, played from ``start`` (Unix seconds) on red's and blue's
    machines until red has sent its turn-1 plot and blue stays silent: the file and red's keyring."""
    pbem = new_game("msc-duel", seed=51, deadline_hours=1)
    red, blue = mailers_for(pbem, seed=51, clock=start)
    text = blue.act(red.act(text_of(pbem)))
    text = red.act(text, plot="Hawk 1")
    assert red.keyring is not None
    game, keys = tmp_path / f"{name}.vwpbem", tmp_path / f"{name}.red.secret.json"
    game.write_text(text)
    keys.write_text(json.dumps(red.keyring.to_data()))
    return game, keys


def test_the_claim_button_claims_a_silent_sides_step_once_the_deadline_has_passed(
    page: Page, server: Server, tmp_path: Path, artefacts: Path
) -> None:
    now = int(time.time())
    # A file red sent a minute ago: blue still has most of its hour, so the button is there but off.
    fresh, fresh_keys = stalled_file(tmp_path, "fresh", now - 60)
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/pbem")
    open_file(page, fresh, "red", fresh_keys)
    expect(page.locator("#pbem-deadline")).to_contain_text("may claim this step against blue")
    expect(page.locator("#pbem-claim")).to_be_visible()
    expect(page.locator("#pbem-claim")).to_be_disabled()

    # A file red sent three hours ago, and blue never answered: the deadline has passed.
    old, old_keys = stalled_file(tmp_path, "old", now - 3 * 3600)
    page.reload()
    open_file(page, old, "red", old_keys)
    expect(page.locator("body")).to_have_attribute("data-step", "1")
    expect(page.locator("#pbem-claim")).to_be_enabled()
    page.click("#pbem-claim")
    # The claim and red's reveal in one pass: blue holds its course, the step resolves, red plays on.
    expect(page.locator("body")).to_have_attribute("data-step", "2")
    expect(page.locator("#pbem-events li").first).to_contain_text("red claimed step 1 against blue")
    expect(page.locator("#pbem-claim")).to_be_disabled()
    page.screenshot(path=str(artefacts / "pbem-claimed.png"))
    sent = download(page, "#pbem-download", tmp_path / "claimed.vwpbem")
    # Anyone checks the claim from the file alone: it replays, and blue's orders are the rules' own.
    claimed = game_from_data(sent)
    claims = [a for a in claimed.actions if isinstance(a, Claim)]
    assert [(c.side, c.against, c.step) for c in claims] == [("red", ("blue",), 1)]
    assert claimed.game is not None
    assert dict(claimed.game.history[0].orders) == {"red": "Hawk 1", "blue": "Raven 2"}


def test_a_player_who_lost_the_file_they_sent_rebuilds_it_in_the_page(
    page: Page, server: Server, tmp_path: Path
) -> None:
    # red and blue played turn 1's plots on their own machines; red sent its reveal and turn-2 plot, then lost it.
    pbem = new_game("msc-duel", seed=52, whole_turns=True)
    red, blue = mailers_for(pbem, bot="greedy", seed=52)
    received = blue.act(red.act(blue.act(red.act(text_of(pbem)))))
    sent = red.act(received)
    assert red.keyring is not None
    answered = tmp_path / "answered.vwpbem"
    answered.write_text(received)
    keys = tmp_path / "answered.red.secret.json"
    keys.write_text(json.dumps(red.keyring.to_data()))

    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/pbem")
    # Opening the older file is refused: red's keyring has seen a newer one.
    open_file(page, answered, "red", keys)
    expect(page.locator("#pbem-error")).to_contain_text("old or replayed file")
    page.click("#pbem-rebuild")
    expect(page.locator("body")).to_have_attribute("data-sequence", str(game_from_data(json.loads(sent)).sequence))
    expect(page.locator("#pbem-error")).to_be_hidden()
    rebuilt = download(page, "#pbem-download", tmp_path / "rebuilt.vwpbem")
    assert rebuilt == json.loads(sent)


def open_blue_at_turn_one(
    page: Page, server: Server, tmp_path: Path, seed: int, red_offers_a_draw: bool = False
) -> Mailer:
    """Blue's page on an MSC duel at turn 1 (red's plot committed, blue's owed), opened with blue's keyring;
    red's tools may have offered a draw. Red's player is returned, to read what blue sends."""
    pbem = new_game("msc-duel", seed=seed)
    red, blue = mailers_for(pbem, bot="greedy", seed=seed)
    at_turn_one = load_text(red.act(blue.act(red.act(text_of(pbem)))))
    if red_offers_a_draw:
        at_turn_one.agree("red")
    assert blue.keyring is not None
    file = tmp_path / "g.vwpbem"
    file.write_text(text_of(at_turn_one))
    keys = tmp_path / "g.blue.secret.json"
    keys.write_text(json.dumps(blue.keyring.to_data()))
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.url}/pbem")
    open_file(page, file, "blue", keys)
    return red


def test_a_player_concedes_in_the_page_after_saying_yes(page: Page, server: Server, tmp_path: Path) -> None:
    red = open_blue_at_turn_one(page, server, tmp_path, seed=58)
    expect(page.locator("body")).to_have_attribute("data-step", "1")
    # Asked first, and "No" changes nothing.
    page.click("#pbem-concede")
    expect(page.locator("#pbem-concede-question")).to_have_text(
        "blue: concede the game? red wins, and it cannot be taken back."
    )
    page.click("#pbem-concede-no")
    expect(page.locator("#pbem-concede-confirm")).to_be_hidden()
    expect(page.locator("#pbem-owed")).to_contain_text("blue owes a commitment")
    page.click("#pbem-concede")
    page.click("#pbem-concede-yes")
    expect(page.locator("#pbem-owed")).to_have_text("Game over: red won (blue conceded).")
    expect(page.locator("#pbem-concede")).to_be_hidden()
    sent = download(page, "#pbem-download", tmp_path / "conceded.vwpbem")
    # red's own tools read the file blue sent: the game is over and red won.
    assert red.keyring is not None
    over = red.load(json.dumps(sent))
    assert over.result is not None
    assert (over.result.winners, over.result.reason) == (("red",), "blue conceded")


def test_a_draw_offered_by_one_player_is_agreed_in_the_page(page: Page, server: Server, tmp_path: Path) -> None:
    open_blue_at_turn_one(page, server, tmp_path, seed=59, red_offers_a_draw=True)
    expect(page.locator("#pbem-draw-offer")).to_have_text(
        "A draw is offered: red agreed. The game ends drawn if blue agrees at this step; "
        "playing on lets the offer lapse."
    )
    expect(page.locator("#pbem-draw")).to_have_text("Agree to the draw")
    page.click("#pbem-draw")
    expect(page.locator("#pbem-owed")).to_have_text("Game over: a draw (ended by agreement).")
    expect(page.locator("#pbem-draw")).to_be_hidden()
    expect(page.locator("#pbem-concede")).to_be_hidden()
