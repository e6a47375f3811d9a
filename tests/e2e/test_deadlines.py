"""A table's pace in the browser (docs/web.md, *Deadlines and clocks*).

Set up in the lobby with a pace, the game is listed with it; its page shows each owed side's
deadline with a countdown, and a player leaves an address for the reminders, which only they see.
A side past its deadline is shown played by the computer, and taken back, on a server whose clock
the test moves (an in-process server: the time source is the app's to be given).
"""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
import uvicorn
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server
from tests.web.helpers import Mirror, free_port
from tests.web.test_clocks import legal_order
from vectorwar.web.app import create_app

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000


def test_a_game_set_up_with_a_pace_shows_its_deadlines_and_takes_a_reminder_address(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    page.select_option("#system", "msc")
    page.select_option("#scenario", "msc-duel")
    page.select_option("#side-blue", "bot:greedy")
    page.select_option("#pace", "deadline-1d")
    expect(page.locator("#pace-details")).to_be_visible()
    page.select_option("#pace-remind", str(3600))
    page.click("#create")
    created = page.locator("#created")
    expect(created).to_contain_text("Pace: 1 day a decision", timeout=TIMEOUT_MS)
    game_id = (created.locator("h3").text_content() or "").split()[1]
    listed = page.locator(f"#games tr[data-game='{game_id}']")
    expect(listed).to_contain_text("1 day a decision", timeout=TIMEOUT_MS)

    created.locator("a.join").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}\?token="), timeout=TIMEOUT_MS)
    panel = page.locator("#table-clock")
    expect(panel).to_contain_text("Pace: 1 day a decision", timeout=TIMEOUT_MS)
    expect(panel.locator(".clock-side[data-side='red'] .countdown")).to_have_text(
        re.compile(r"in (23 h \d\d min|1 d 0 h)"), timeout=TIMEOUT_MS
    )

    panel.locator(".reminders summary").click()
    page.fill("#remind-email", "red@example.org")
    panel.get_by_role("button", name="Save").click()
    expect(panel.locator(".reminders-form [role=status]")).to_have_text("Saved", timeout=TIMEOUT_MS)
    # The address is the side holder's alone: a spectator's view of the clock does not hold it.
    spectator = httpx.get(f"{server.url}/api/games/{game_id}/clock", timeout=60)
    assert spectator.status_code == 200
    assert spectator.json()["pace"]["words"] == "1 day a decision"
    assert "red@example.org" not in spectator.text
    token = page.url.split("token=")[1]
    # The lobby's Your games says when the player's move is due.
    page.goto(server.url + "/")
    expect(page.locator(f"#my-games li[data-game='{game_id}'] .due")).to_contain_text("due", timeout=TIMEOUT_MS)
    own = httpx.get(f"{server.url}/api/games/{game_id}/clock", headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert own.json()["contacts"]["red"]["email"] == "red@example.org"


class MovedTime:
    """The in-process server's time, moved by the test (read from the server's thread)."""

    def __init__(self) -> None:
        self.at = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.at


@pytest.fixture
def moved_server(tmp_path: Path) -> Iterator[tuple[str, MovedTime]]:
    """The app under uvicorn in a thread of this process, its deadlines on a clock the test moves.

    The background check runs every 50 ms, so moving the clock is all it takes for a deadline to pass;
    the test then waits on what the page shows.
    """
    time = MovedTime()
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", time=time, deadline_every=0.05)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(600):
            if server.started:
                break
            thread.join(0.05)
        assert server.started, "the in-process server did not start"
        yield f"http://127.0.0.1:{port}", time
    finally:
        server.should_exit = True
        thread.join(30)


def test_a_late_side_is_played_by_the_computer_and_taken_back_from_the_page(
    page: Page, moved_server: tuple[str, MovedTime]
) -> None:
    url, time = moved_server
    created = httpx.post(
        f"{url}/api/games",
        json={"scenario": "msc-duel", "seed": 3, "pace": {"kind": "deadline", "seconds": 3600}},
        timeout=60,
    ).json()
    game_id = created["id"]
    red, blue = (p["token"] for p in created["players"])
    # Blue plots in time; red does not.
    scene = httpx.get(f"{url}/api/games/{game_id}", headers={"Authorization": f"Bearer {blue}"}, timeout=60).json()
    game = Mirror.of("msc-duel", 3, {"red": "human", "blue": "human"}).game
    order = httpx.post(
        f"{url}/api/games/{game_id}/orders",
        json={"side": "blue", "text": legal_order(game, "blue"), "step": scene["step"]},
        headers={"Authorization": f"Bearer {blue}"},
        timeout=60,
    )
    assert order.status_code == 200, order.text

    page.goto(f"{url}/games/{game_id}?token={red}")
    panel = page.locator("#table-clock")
    expect(panel.locator(".clock-side[data-side='red'] .countdown")).to_have_text(
        re.compile(r"in "), timeout=TIMEOUT_MS
    )
    time.at += timedelta(hours=1)

    late = panel.locator(".clock-side.late[data-side='red']")
    expect(late).to_contain_text("the computer (greedy) plays it", timeout=TIMEOUT_MS)
    page.locator("#tab-log").click()
    expect(page.locator("#clock-log")).to_contain_text("red missed its deadline", timeout=TIMEOUT_MS)
    late.get_by_role("button", name="Take back my side").click()
    expect(late).to_have_count(0, timeout=TIMEOUT_MS)
    expect(page.locator("#clock-log")).to_contain_text("red's player took the side back", timeout=TIMEOUT_MS)


def test_a_clock_shows_the_time_a_side_has_left_while_it_does_not_run(
    page: Page, moved_server: tuple[str, MovedTime]
) -> None:
    url, time = moved_server
    pace = {"kind": "clock", "seconds": 3600, "increment": 60}
    created = httpx.post(f"{url}/api/games", json={"scenario": "msc-duel", "seed": 3, "pace": pace}, timeout=60).json()
    game_id = created["id"]
    red, blue = (p["token"] for p in created["players"])
    game = Mirror.of("msc-duel", 3, {"red": "human", "blue": "human"}).game
    time.at += timedelta(minutes=10)
    order = httpx.post(
        f"{url}/api/games/{game_id}/orders",
        json={"side": "blue", "text": legal_order(game, "blue"), "step": 0},
        headers={"Authorization": f"Bearer {blue}"},
        timeout=60,
    )
    assert order.status_code == 200, order.text
    page.goto(f"{url}/games/{game_id}?token={red}")
    panel = page.locator("#table-clock")
    expect(panel.locator(".clock-pace")).to_have_text("Pace: clock: 1 hour each + 1 minute a decision")
    # Blue took 10 minutes and gained the increment: 51 minutes left, standing still while red thinks.
    expect(panel.locator(".clock-side[data-side='blue']")).to_have_text("blue 51 min left on its clock")
    # Red's time runs: 50 minutes at the server's time, counting down in the page from there.
    expect(panel.locator(".clock-side[data-side='red'] .countdown")).to_have_text(re.compile(r"in (49|50) min"))
