"""Deadlines and clocks of a table, on a clock the test moves: a late side goes to a computer, and comes back."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from fastapi.testclient import TestClient

from tests.web.helpers import run_async
from vectorwar.game import Game
from vectorwar.play import bot_rng, make_bots
from vectorwar.search import SearchBot
from vectorwar.web.app import create_app
from vectorwar.web.clocks import CLOCK, DEADLINE, Contact, Pace, PaceRefused, SideClock, observe, remind_at
from vectorwar.web.deadlines import Deadlines
from vectorwar.web.reminders import ContactRefused, Sender, Settings, SmtpSettings
from vectorwar.web.service import Created, GameService
from vectorwar.web.store import Store

START = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
HOUR = 3600


class FakeTime:
    """The server's time, moved by the test."""

    def __init__(self) -> None:
        self.at = START

    def now(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


def legal_order(game: Game, side: str) -> str:
    """Some legal order for ``side`` now (the random bot's)."""
    bot = make_bots(game.system, {side: "random"})[side]
    return str(bot.choose(game.state, side, bot_rng(game.seed, side, len(game.history))))


def tokens(created: Created) -> dict[str, str]:
    return {p.sides[0]: p.token for p in created.players}


async def new_table(
    service: GameService, deadlines: Deadlines, pace: Pace, seed: int = 3, scenario: str = "msc-duel"
) -> tuple[Created, dict[str, str]]:
    created = await service.create(scenario, {"red": "human", "blue": "human"}, seed=seed)
    await deadlines.start(created.id, pace)
    return created, tokens(created)


async def give(service: GameService, game_id: str, token: str, side: str) -> None:
    live = await service.get(game_id)
    game = live.table.game
    await service.submit(game_id, token, side, legal_order(game, side), len(game.history))


def test_a_side_past_its_deadline_is_played_by_the_computer_until_its_player_takes_it_back(tmp_path: Path) -> None:
    async def scenario() -> None:
        time = FakeTime()
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, time)
        created, token = await new_table(service, deadlines, Pace(DEADLINE, HOUR))
        await give(service, created.id, token["red"], "red")
        live = await service.get(created.id)
        assert live.table.game.waiting_for == ("blue",)

        time.advance(HOUR - 1)
        assert await deadlines.check() == 0  # nothing is due yet
        assert live.table.game.waiting_for == ("blue",)
        view = await deadlines.view(created.id, None)
        assert view["sides"]["blue"]["deadline"] == (START + timedelta(seconds=HOUR)).isoformat()
        assert view["sides"]["red"]["owes"] is False

        time.advance(1)
        assert await deadlines.check() == 1
        live = await service.get(created.id)
        game = live.table.game
        assert len(game.history) >= 1, "the computer answered for blue, so the turn went on"
        assert "blue" not in game.waiting_for, "the computer answers every prompt blue owes"
        view = await deadlines.view(created.id, None)
        assert view["sides"]["blue"]["late"] is True
        assert view["sides"]["blue"]["computer"] == "greedy"
        assert view["sides"]["red"]["late"] is False
        assert [e["text"] for e in view["events"]] == ["blue missed its deadline: the computer (greedy) plays it now"]

        with pytest.raises(PermissionError):
            await deadlines.take_back(created.id, token["red"], "blue")
        await deadlines.take_back(created.id, token["blue"], "blue")
        view = await deadlines.view(created.id, None)
        assert view["sides"]["blue"]["late"] is False
        assert view["events"][-1]["text"] == "blue's player took the side back from the computer"
        # From now on blue's player answers again: red's order leaves the prompt waiting for blue.
        live = await service.get(created.id)
        if "red" in live.table.game.waiting_for:
            await give(service, created.id, token["red"], "red")
        assert "blue" in live.table.game.waiting_for
        view = await deadlines.view(created.id, None)
        assert view["sides"]["blue"]["deadline"] == (time.now() + timedelta(seconds=HOUR)).isoformat()
        service.close()

    run_async(scenario)


def test_a_forgiven_miss_is_answered_by_the_sides_standing_orders_where_they_answer(tmp_path: Path) -> None:
    # AV:T segment orders may be a hold: a forgiven miss holds, and no computer plays the side.
    async def scenario() -> None:
        time = FakeTime()
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, time)
        created, token = await new_table(service, deadlines, Pace(DEADLINE, HOUR, misses=1), scenario="avt-duel-wasp")
        await give(service, created.id, token["red"], "red")
        time.advance(HOUR)
        assert await deadlines.check() == 1
        live = await service.get(created.id)
        assert dict(live.table.game.history[-1].orders)["blue"] == "hold"
        assert "blue" not in live.table.bots, "the player keeps the side"
        view = await deadlines.view(created.id, None)
        assert view["events"][-1]["text"] == (
            "blue missed its deadline (1 of 1 allowed): its standing orders (hold) gave this decision's orders"
        )
        service.close()

    run_async(scenario)


def test_a_side_keeps_its_player_through_the_misses_the_table_allows(tmp_path: Path) -> None:
    async def scenario() -> None:
        time = FakeTime()
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, time)
        created, token = await new_table(service, deadlines, Pace(DEADLINE, HOUR, misses=1))
        await give(service, created.id, token["red"], "red")
        time.advance(HOUR)
        assert await deadlines.check() == 1
        live = await service.get(created.id)
        assert len(live.table.game.history) == 1, "the computer gave blue's orders for that prompt"
        view = await deadlines.view(created.id, None)
        assert view["sides"]["blue"]["late"] is False
        assert view["sides"]["blue"]["missed"] == 1
        assert view["events"][-1]["text"] == (
            "blue missed its deadline (1 of 1 allowed): the computer (greedy) gave this decision's orders"
        )
        # The next prompt is blue's player's again, with a deadline of its own.
        if "red" in live.table.game.waiting_for:
            await give(service, created.id, token["red"], "red")
        assert "blue" in live.table.game.waiting_for
        time.advance(HOUR - 1)
        assert await deadlines.check() == 0
        time.advance(1)
        assert await deadlines.check() == 1
        view = await deadlines.view(created.id, None)
        assert view["sides"]["blue"]["late"] is True, "a miss past the allowance hands the side to the computer"
        assert "blue" not in (await service.get(created.id)).table.game.waiting_for
        service.close()

    run_async(scenario)


def test_an_open_side_has_no_deadline_until_someone_takes_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        time = FakeTime()
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, time)
        created = await service.create("msc-duel", {"red": "human", "blue": "open"}, seed=3)
        await deadlines.start(created.id, Pace(DEADLINE, HOUR))
        time.advance(2 * HOUR)
        await deadlines.check()
        view = await deadlines.view(created.id, None)
        assert view["sides"]["blue"] == {
            "owes": False, "deadline": None, "time_left": None, "late": False, "computer": None, "missed": 0
        }  # fmt: skip
        assert view["sides"]["red"]["late"] is True
        await service.join(created.id, "blue", practice=True)  # seed=3: a practice game
        view = await deadlines.view(created.id, None)
        assert view["sides"]["blue"]["deadline"] == (time.now() + timedelta(seconds=HOUR)).isoformat()
        service.close()

    run_async(scenario)


def test_a_late_side_and_a_coming_deadline_survive_a_restart(db: str) -> None:
    async def scenario() -> None:
        url = db
        time = FakeTime()
        first = GameService(Store(url))
        created, token = await new_table(first, Deadlines(first, time), Pace(DEADLINE, HOUR))
        await give(first, created.id, token["red"], "red")
        first.close()

        time.advance(2 * HOUR)
        second = GameService(Store(url))
        deadlines = Deadlines(second, time)
        assert await deadlines.check() == 1  # the deadline was stored: the new server finds it due
        assert len((await second.get(created.id)).table.game.history) >= 1
        second.close()

        third = GameService(Store(url))
        Deadlines(third, time)
        live = await third.get(created.id)
        assert "blue" in live.table.bots, "the computer is back on blue's side after the restart"
        assert "blue" not in live.table.game.waiting_for
        third.close()

    run_async(scenario)


def test_a_clock_runs_only_while_its_side_owes_orders_and_gains_the_increment() -> None:
    pace = Pace(CLOCK, 2 * HOUR, increment=600)
    sides = {"red": SideClock(bank=2.0 * HOUR), "blue": SideClock(bank=2.0 * HOUR)}
    owing = observe(pace, sides, 0, frozenset({"red", "blue"}), START)
    red_answered = observe(pace, owing, 0, frozenset({"blue"}), START + timedelta(minutes=30))
    assert red_answered["red"].bank == 1.5 * HOUR + 600
    assert red_answered["red"].since is None
    assert red_answered["blue"].since == START
    # Taking a plot back starts the clock again; a deadline pace would keep the prompt's deadline instead.
    took_back = observe(pace, red_answered, 0, frozenset({"red", "blue"}), START + timedelta(hours=1))
    assert took_back["red"].since == START + timedelta(hours=1)
    assert took_back["red"].first == START


def test_a_pace_out_of_bounds_or_with_an_unknown_computer_is_refused() -> None:
    with pytest.raises(PaceRefused, match="60 s to"):
        Pace(DEADLINE, 5)
    with pytest.raises(PaceRefused, match="only a clock has an increment"):
        Pace(DEADLINE, HOUR, increment=10)
    with pytest.raises(PaceRefused, match="no computer player 'nobody'"):
        Pace(DEADLINE, HOUR, bot="nobody").check_bot({"greedy": object()})
    assert Pace(CLOCK, 3 * 86400, increment=HOUR).words() == "clock: 3 days each + 1 hour a decision"
    assert Pace(DEADLINE, 86400).words() == "1 day a decision"
    assert Pace(DEADLINE, 86400, misses=2).words() == "1 day a decision, 2 missed allowed"
    with pytest.raises(PaceRefused, match="0 to 10 deadlines"):
        Pace(DEADLINE, HOUR, misses=11)


def test_a_players_own_reminder_time_overrides_the_tables() -> None:
    pace = Pace(DEADLINE, HOUR, remind_before=300)
    owing = SideClock(step=0, first=START, since=START)
    deadline_at = START + timedelta(seconds=HOUR)
    assert remind_at(pace, owing, Contact(email="a@example.org")) == deadline_at - timedelta(seconds=300)
    assert remind_at(pace, owing, Contact(email="a@example.org", remind_before=1200)) == deadline_at - timedelta(
        seconds=1200
    )
    assert remind_at(pace, owing, Contact(email="a@example.org", remind_before=0)) is None, "0: no reminder"
    assert remind_at(pace, owing, None) is None, "no address: nothing to send"
    assert remind_at(pace, replace(owing, reminded=True), Contact(webhook="http://x.test/")) is None


def test_the_rematch_of_a_paced_game_keeps_its_pace(tmp_path: Path) -> None:
    async def scenario() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, FakeTime())
        pace = Pace(CLOCK, 2 * HOUR, increment=60, misses=1)
        created, token = await new_table(service, deadlines, pace)
        await service.concede(created.id, token["red"], "red")
        rematch_id, _ = await service.rematch(created.id, token["blue"], "blue")
        await deadlines.follow(created.id, rematch_id)
        kept = await deadlines.clock(rematch_id)
        assert kept is not None
        assert kept.pace == pace
        assert set(kept.sides) == {"red", "blue"}
        service.close()

    run_async(scenario)


def test_a_table_whose_check_fails_waits_and_does_not_hold_up_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        time = FakeTime()
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, time, batch=1)
        broken, _ = await new_table(service, deadlines, Pace(DEADLINE, HOUR), seed=3)
        time.advance(1)
        healthy, _ = await new_table(service, deadlines, Pace(DEADLINE, HOUR), seed=4)
        time.advance(HOUR)
        real = deadlines._check_table

        async def failing(game_id: str, now: datetime) -> None:
            if game_id == broken.id:
                raise RuntimeError("a bug")
            await real(game_id, now)

        monkeypatch.setattr(deadlines, "_check_table", failing)
        assert await deadlines.check() == 1  # the broken one, overdue longest: it fails
        assert await deadlines.check() == 1  # then the healthy one's turn, not the broken one's again
        assert (await deadlines.view(healthy.id, None))["sides"]["red"]["late"] is True
        assert (await deadlines.view(broken.id, None))["sides"]["red"]["late"] is False
        assert await deadlines.check() == 0
        service.close()

    run_async(scenario)


# -- reminders that reach people -------------------------------------------------------------


class Mailbox:
    """What the local SMTP server received."""

    def __init__(self) -> None:
        self.mails: list[Envelope] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.mails.append(envelope)
        return "250 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def mailbox() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


class Hooked(BaseHTTPRequestHandler):
    bodies: list[dict[str, Any]]

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        self.bodies.append(json.loads(self.rfile.read(length)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[tuple[list[dict[str, Any]], str]]:
    bodies: list[dict[str, Any]] = []
    handler = type("Receiver", (Hooked,), {"bodies": bodies})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield bodies, f"http://127.0.0.1:{server.server_address[1]}/hook"
    finally:
        server.shutdown()
        server.server_close()


def test_one_reminder_by_email_before_the_deadline_and_a_notice_when_the_computer_takes_over(
    tmp_path: Path, mailbox: tuple[Mailbox, int]
) -> None:
    box, port = mailbox
    settings = Settings(SmtpSettings("127.0.0.1", "tables@vectorwar.test", port=port), public_url="http://play.test")

    async def scenario() -> None:
        time = FakeTime()
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, time, Sender(settings))
        created, token = await new_table(service, deadlines, Pace(DEADLINE, HOUR, remind_before=600))
        await deadlines.set_contact(created.id, token["blue"], "blue", Contact(email="blue@example.org"), False)
        await give(service, created.id, token["red"], "red")

        time.advance(HOUR - 601)
        await deadlines.check()
        assert box.mails == []
        time.advance(1)
        assert await deadlines.check() == 1
        assert len(box.mails) == 1
        time.advance(60)
        await deadlines.check()
        assert len(box.mails) == 1, "exactly one reminder before the deadline"
        mail = box.mails[0]
        assert mail.rcpt_tos == ["blue@example.org"]
        message = message_from_bytes(mail.original_content or b"")
        assert "your move as blue" in message["Subject"]
        body = message.get_payload(decode=True)
        assert isinstance(body, bytes)
        assert b"2030-01-01 13:00 UTC" in body
        assert f"http://play.test/games/{created.id}".encode() in body

        # The address is the side holder's alone.
        for viewer in (None, token["red"]):
            assert "blue@example.org" not in json.dumps(await deadlines.view(created.id, viewer))
        assert (await deadlines.view(created.id, token["blue"]))["contacts"]["blue"]["email"] == "blue@example.org"
        assert "a reminder went to blue's player" in [
            e["text"] for e in (await deadlines.view(created.id, None))["events"]
        ]

        time.advance(600)
        await deadlines.check()
        assert len(box.mails) == 2
        notice = message_from_bytes(box.mails[1].original_content or b"")
        assert "the computer plays blue" in notice["Subject"]
        service.close()

    run_async(scenario)


def test_the_reminder_and_the_notice_are_posted_to_the_players_webhook(
    tmp_path: Path, receiver: tuple[list[dict[str, Any]], str]
) -> None:
    bodies, url = receiver

    async def scenario() -> None:
        time = FakeTime()
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, time, Sender(Settings(webhooks=True)))
        created, token = await new_table(service, deadlines, Pace(CLOCK, HOUR, remind_before=300))
        await deadlines.set_contact(created.id, token["red"], "red", Contact(webhook=url), True)
        time.advance(HOUR - 300)
        await deadlines.check()
        assert [b["kind"] for b in bodies] == ["reminder"]
        assert bodies[0]["side"] == "red"
        assert bodies[0]["game"] == created.id
        assert "your move as red" in bodies[0]["text"]
        time.advance(300)
        await deadlines.check()
        assert [b["kind"] for b in bodies] == ["reminder", "takeover"]
        service.close()

    run_async(scenario)


def test_an_address_the_server_will_not_send_to_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"))
        deadlines = Deadlines(service, FakeTime())
        created, token = await new_table(service, deadlines, Pace(DEADLINE, HOUR))
        with pytest.raises(ContactRefused, match="not an e-mail address"):
            await deadlines.set_contact(created.id, token["red"], "red", Contact(email="red at home"), True)
        with pytest.raises(ContactRefused, match="sends no webhooks"):
            await deadlines.set_contact(created.id, token["red"], "red", Contact(webhook="http://x.test/"), False)
        with pytest.raises(ContactRefused, match="http:// or https://"):
            await deadlines.set_contact(created.id, token["red"], "red", Contact(webhook="file:///etc/passwd"), True)
        service.close()

    run_async(scenario)


# -- over HTTP ----------------------------------------------------------------------------------


def test_a_table_created_with_a_pace_shows_it_keeps_it_and_hands_a_late_side_back(tmp_path: Path) -> None:
    time = FakeTime()
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", time=time, deadline_every=HOUR)
    pace = {"kind": "deadline", "seconds": HOUR, "remind_before": 600}
    with TestClient(app) as client:
        refused = client.post("/api/games", json={"scenario": "msc-duel", "pace": {**pace, "bot": "nobody"}})
        assert refused.status_code == 422
        assert refused.json()["error"]["type"] == "BadPace"
        assert client.get("/api/games").json() == [], "a refused pace leaves no game behind"

        answer = client.post("/api/games", json={"scenario": "msc-duel", "sides": {"blue": "open"}, "pace": pace})
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        red = answer.json()["players"][0]["token"]
        assert [g["pace"] for g in client.get("/api/games").json()] == ["1 hour a decision"]
        assert [g["pace"] for g in client.get("/api/games/open").json()] == ["1 hour a decision"]
        blue = client.post(f"/api/games/{game_id}/join", json={"side": "blue"}).json()["token"]

        put = client.put(
            f"/api/games/{game_id}/sides/blue/reminders",
            json={"email": "blue@example.org"},
            headers={"Authorization": f"Bearer {blue}"},
        )
        assert put.status_code == 200, put.text
        assert put.json()["contacts"] == {"blue": {"email": "blue@example.org", "webhook": "", "remind_before": None}}
        others = client.get(f"/api/games/{game_id}/clock", headers={"Authorization": f"Bearer {red}"}).json()
        assert others["contacts"] == {"red": {"email": "", "webhook": "", "remind_before": None}}
        assert "blue@example.org" not in client.get(f"/api/games/{game_id}/clock").text
        forbidden = client.put(
            f"/api/games/{game_id}/sides/blue/reminders",
            json={"email": "x@example.org"},
            headers={"Authorization": f"Bearer {red}"},
        )
        assert forbidden.status_code == 403

        time.advance(HOUR)
        deadlines: Deadlines = app.state.deadlines
        assert client.portal is not None
        assert client.portal.call(deadlines.check) == 1
        clock = client.get(f"/api/games/{game_id}/clock").json()
        assert clock["sides"]["red"]["late"] is True
        assert clock["sides"]["blue"]["late"] is True
        assert clock["pace"]["words"] == "1 hour a decision"

        back = client.post(
            f"/api/games/{game_id}/take-back", json={"side": "blue"}, headers={"Authorization": f"Bearer {blue}"}
        )
        assert back.status_code == 200, back.text
        assert back.json()["sides"]["blue"]["late"] is False
        assert back.json()["sides"]["red"]["late"] is True


def test_the_operator_sets_the_smtp_server_and_webhooks_when_serving() -> None:
    from vectorwar.cli.common import UserError
    from vectorwar.cli.serve import Tls, _reminders

    settings = _reminders(
        "smtp.example.org", 587, "tables@example.org", "me", "secret", Tls.starttls, True, "https://x"
    )
    assert settings == Settings(
        SmtpSettings("smtp.example.org", "tables@example.org", 587, "me", "secret", starttls=True, ssl=False),
        webhooks=True,
        public_url="https://x",
    )
    assert _reminders(None, 25, None, "", "", Tls.none, False, "") == Settings()
    with pytest.raises(UserError, match="--smtp-from"):
        _reminders("smtp.example.org", 25, None, "", "", Tls.none, False, "")


def test_a_pace_may_name_a_search_level_as_every_menu_of_computer_players_does(tmp_path: Path) -> None:
    # The lobby offers a system's computer players with the search levels (vectorwar.players); a pace
    # naming one is started, takes the late side and is put back on a table rebuilt from the store.
    async def scenario() -> None:
        time = FakeTime()
        store_url = f"sqlite:///{tmp_path / 'games.db'}"
        service = GameService(Store(store_url))
        deadlines = Deadlines(service, time)
        created, token = await new_table(service, deadlines, Pace(DEADLINE, HOUR, bot="search"))
        await give(service, created.id, token["red"], "red")
        time.advance(HOUR)
        assert await deadlines.check() == 1
        assert isinstance((await service.get(created.id)).table.bots["blue"], SearchBot)
        service.close()
        again = GameService(Store(store_url))
        Deadlines(again, time)
        assert isinstance((await again.get(created.id)).table.bots["blue"], SearchBot)
        again.close()

    run_async(scenario)
