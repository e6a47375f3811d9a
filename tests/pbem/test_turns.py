"""Play by e-mail with one file per player per step, deadlines and claims against a silent side (docs/pbem.md)."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.pbem.players import Mailer, mailers_for, new_game, text_of
from vectorwar.errors import (
    EarlyClaimError,
    ForeignActionError,
    OrderSyntaxError,
    OutOfStepError,
    PbemFileError,
    PlotChangedError,
    StaleFileError,
    WrongRevealError,
)
from vectorwar.pbem import Claim, Commit, PbemGame, Reveal, digest, game_from_data, new_keyring, time_text
from vectorwar.scenario import scenario_from_data

#: 2027-01-15 08:00 UTC: the clock the players' machines start at.
T0 = 1_800_000_000
HOUR = 3600


def load(text: str) -> PbemGame:
    return game_from_data(json.loads(text))


def mail_to_the_end(text: str, mailers: list[Mailer], first: int = 0) -> tuple[str, int]:
    """Pass the file back and forth, one pass per player in turn, until the game is over; the passes sent."""
    passes = 0
    n = first
    while not load(text).is_over:
        before = load(text).sequence
        mailer = mailers[n % len(mailers)]
        text = mailer.act(text)
        # Every pass carries something, and only the sender's own actions.
        added = load(text).actions[before:]
        assert added
        assert {a.side for a in added} == {mailer.side}
        passes += 1
        n += 1
        assert passes < 4000
    return text, passes


@pytest.mark.parametrize("scenario", ["msc-duel", pytest.param("avt-duel-wasp", marks=pytest.mark.slow)])
def test_a_duel_is_played_to_the_end_with_one_file_per_player_per_step(scenario: str) -> None:
    start = new_game(scenario, seed=11)
    mailers = mailers_for(start, seed=11)
    red = mailers[0]
    # red starts the file and commits its set-up secret: that is red's first file.
    text = red.act(text_of(start))
    text, passes = mail_to_the_end(text, mailers, first=1)
    final = load(text)
    assert final.result is not None
    assert final.game is not None
    passes += 1  # red's first file
    # Two files a step, one from each player (the step's reveals ride with the next step's commitments),
    # and red's last reveal, which ends the game.
    assert passes == 2 * final.step + 1
    for step in range(final.step):
        actions = [a for a in final.actions if a.step == step]
        assert sorted(type(a).__name__ for a in actions) == ["Commit", "Commit", "Reveal", "Reveal"]


def test_the_last_to_commit_reveals_in_the_same_pass_and_the_first_reveals_with_its_next_plot() -> None:
    pbem = new_game("msc-duel", seed=12)
    red, blue = mailers_for(pbem, seed=12)
    text = red.act(text_of(pbem))
    text = blue.act(text)
    # blue was last to commit at step 0: its commitment and its reveal travel in one file.
    assert [(type(a), a.side) for a in load(text).actions] == [(Commit, "red"), (Commit, "blue"), (Reveal, "blue")]
    text = red.act(text, plot="Hawk 1")
    after = load(text)
    assert after.step == 1
    assert [(type(a), a.side, a.step) for a in after.actions[3:]] == [(Reveal, "red", 0), (Commit, "red", 1)]
    assert "Hawk 1" not in text


def test_a_refused_order_in_a_pass_leaves_the_file_and_game_as_they_were() -> None:
    pbem = new_game("msc-duel", seed=13)
    red, blue = mailers_for(pbem, seed=13)
    text = blue.act(red.act(text_of(pbem)))
    game = load(text)
    assert red.keyring is not None
    before = copy.deepcopy(game.to_data())
    # red's reveal resolves step 0, then its order for turn 1 is refused: the reveal is undone too.
    with pytest.raises(OrderSyntaxError):
        game.turn(red.keyring, "Hawk 2L1 and nonsense", "a" * 64, "b" * 64)
    assert game.to_data() == before
    assert game.step == 0
    done = game.turn(red.keyring, None, "a" * 64, "b" * 64)
    assert done.needs_orders
    assert game.step == 1


def test_a_tampered_reveal_in_a_pass_is_still_refused() -> None:
    pbem = new_game("msc-duel", seed=14)
    red, blue = mailers_for(pbem, seed=14)
    text = blue.act(red.act(text_of(pbem)))
    assert red.keyring is not None
    sealed = red.keyring.sealed_at(0)
    assert sealed is not None
    forged = replace(red.keyring, sealed=(replace(sealed, secret="0" * 64),))
    game = load(text)
    with pytest.raises(WrongRevealError):
        game.turn(forged, None, "a" * 64, "b" * 64)


# -- deadlines and claims ---------------------------------------------------------------


@pytest.fixture
def stalled() -> tuple[str, list[Mailer]]:
    """An MSC duel with a deadline of 24 hours a step: red has sent its turn-1 plot, and blue stays silent."""
    pbem = new_game("msc-duel", seed=15, deadline_hours=24)
    red, blue = mailers_for(pbem, seed=15, clock=T0)
    text = red.act(text_of(pbem))
    blue.clock = T0 + HOUR
    text = blue.act(text)
    red.clock = T0 + 2 * HOUR
    text = red.act(text)
    game = load(text)
    assert game.step == 1
    assert game.owed() == {"blue": "commit"}
    assert game.last_time == T0 + 2 * HOUR
    return text, [red, blue]


def test_the_deadline_is_part_of_the_set_up_and_every_action_records_its_time(
    stalled: tuple[str, list[Mailer]],
) -> None:
    text, _ = stalled
    data = json.loads(text)
    assert data["deadline_hours"] == 24
    assert [a["at"] for a in data["actions"]] == [T0, T0 + HOUR, T0 + HOUR, T0 + 2 * HOUR, T0 + 2 * HOUR]
    # The genesis hash covers the deadline: a file whose deadline is changed no longer matches its chain.
    with pytest.raises(PbemFileError, match="edited"):
        game_from_data({**data, "deadline_hours": 1})
    # A time earlier than the one before is refused: recorded times never go back.
    game = load(text)
    with pytest.raises(OutOfStepError, match="never go back"):
        game.commit("blue", "a" * 64, "b" * 64, T0)


def test_a_claim_before_the_deadline_is_refused(stalled: tuple[str, list[Mailer]]) -> None:
    text, _ = stalled
    game = load(text)
    before = copy.deepcopy(game.to_data())
    with pytest.raises(EarlyClaimError, match="deadline of 24 h ends at 2027-01-16T10:00:00Z"):
        game.claim("red", T0 + 2 * HOUR + 24 * HOUR - 1)
    assert game.to_data() == before
    with pytest.raises(OutOfStepError, match="owes its own commit"):
        game.claim("blue", T0 + 100 * HOUR)


def test_a_stalled_players_step_is_claimed_after_the_deadline_and_checked_from_the_file(
    stalled: tuple[str, list[Mailer]],
) -> None:
    text, (red, blue) = stalled
    due = T0 + 26 * HOUR
    game = load(text)
    claim = game.claim("red", due)
    assert claim == Claim(1, "red", ("blue",), T0 + 2 * HOUR, due)
    assert game.owed() == {"red": "reveal"}
    # red reveals in the same pass: blue holds, and the dice come from red's secret alone.
    assert red.keyring is not None
    red.keyring = red.keyring.saw(game, due)
    red.clock = due
    done = game.turn(red.keyring, None, "c" * 64, "d" * 64, due)
    assert game.step == 2
    assert done.events
    # ...and, in the same file, commits its plot for the next step.
    assert done.needs_orders
    red.keyring = game.turn(done.keyring, red.choose(game), "e" * 64, "f" * 64, due).keyring
    claimed = text_of(game)
    # Anyone can check the claim from the file alone: it replays, deadline and all.
    again = load(claimed)
    assert again.head == game.head
    # The held side's orders come from the file alone, so every copy resolves the step the same way.
    assert again.game is not None
    assert game.game is not None
    assert again.system.state_to_data(again.game.state) == game.system.state_to_data(game.game.state)
    assert [e.describe() for e in again.game.events] == [e.describe() for e in game.game.events]
    assert any(isinstance(a, Claim) for a in again.actions)
    # A claim moved before the deadline, with its chain recomputed to match, does not replay.
    data = json.loads(claimed)
    number = next(i for i, a in enumerate(data["actions"]) if a["kind"] == "claim")
    for field, value in (("at", due - 1), ("since", T0), ("against", ["red"])):
        forged = copy.deepcopy(data)
        forged["actions"][number][field] = value
        rechain(forged)
        with pytest.raises(PbemFileError, match="does not replay"):
            game_from_data(forged)
    # blue, back at its machine, opened the file at red's send time; at the claim, its clock is past the
    # deadline: its tools accept the claim, and blue plays on at the next step.
    blue.clock = due + HOUR
    text = blue.act(claimed)
    assert load(text).step == 2
    assert load(text).owed() == {"red": "reveal"}


def test_the_silent_players_own_record_refuses_a_claim_made_before_its_deadline(
    stalled: tuple[str, list[Mailer]],
) -> None:
    text, (_, blue) = stalled
    # The file reached blue ten hours after red wrote it (by blue's clock), and blue opened it then.
    blue.clock = T0 + 12 * HOUR
    blue.load(text)
    # red claims 24 hours after its own last action: by the file, the deadline has passed...
    game = load(text)
    game.claim("red", T0 + 26 * HOUR)
    claimed = text_of(game)
    load(claimed)
    # ...but not by blue's record: the deadline ends 24 hours after blue received the file.
    blue.clock = T0 + 40 * HOUR
    with pytest.raises(EarlyClaimError, match="by blue's own record the file reached it at 2027-01-15T20:00:00Z"):
        blue.load(claimed)
    # A claim that blue's clock says arrived before the deadline is refused too, whatever time it says.
    late = load(text)
    late.claim("red", T0 + 36 * HOUR)
    blue.clock = T0 + 30 * HOUR
    with pytest.raises(EarlyClaimError, match="it is now"):
        blue.load(text_of(late))
    blue.clock = T0 + 37 * HOUR
    assert blue.load(text_of(late)).owed() == {"red": "reveal"}


def test_a_game_without_a_deadline_has_no_claims_and_records_no_times() -> None:
    pbem = new_game("msc-duel", seed=16)
    red = mailers_for(pbem, seed=16)[0]
    text = red.act(text_of(pbem))
    game = load(text)
    assert "at" not in json.loads(text)["actions"][0]
    with pytest.raises(OutOfStepError, match="no deadline"):
        game.claim("red", T0)
    with pytest.raises(OutOfStepError, match="records no time"):
        game.commit("blue", "a" * 64, "b" * 64, T0)


def test_a_claim_against_a_side_that_committed_but_never_revealed_forfeits_its_plot() -> None:
    pbem = new_game("msc-duel", seed=17, deadline_hours=1)
    red, blue = mailers_for(pbem, seed=17, clock=T0)
    text = blue.act(red.act(text_of(pbem)))
    text = red.act(text, plot="Hawk 1")
    # blue commits but, as the last revealer would, keeps its reveal back: it sends a commitment only.
    game = load(text)
    assert blue.keyring is not None
    blue.keyring = new_keyring(game, "blue") if blue.keyring is None else blue.keyring.saw(game, T0)
    sealed = game.seal("blue", "Raven 1", "e" * 64, "f" * 64)
    game.commit("blue", *sealed.hashes(game.game_id, "blue"), T0)
    # red reveals, and blue is silent on its reveal.
    assert red.keyring is not None
    done = game.turn(red.keyring.saw(game, T0), None, "1" * 64, "2" * 64, T0 + 60)
    assert [s.plot for s in done.revealed] == ["Hawk 1"]
    assert game.owed() == {"blue": "reveal"}
    game.claim("red", T0 + 60 + HOUR)
    assert game.step == 2  # the claim left nothing owed: the step resolved with blue holding
    assert load(text_of(game)).head == game.head
    with pytest.raises(OutOfStepError, match="game is at step 2"):
        game.apply(Reveal(1, "blue", "Raven 1", "e" * 64, "f" * 64, T0 + 2 * HOUR))


def rechain(data: dict[str, Any]) -> None:
    """Recompute a file's chain after an edit, as a forger would: the edit is then found only by the replay."""
    scenario = scenario_from_data(data["scenario"], "scenario")
    chain = [PbemGame.new(scenario, data["game"], data["options"], data.get("deadline_hours")).genesis()]
    for action in data["actions"]:
        chain.append(digest("vectorwar-pbem-link", chain[-1], action))
    data["sequence"], data["previous"], data["head"] = len(data["actions"]), chain[-2], chain[-1]


@given(st.integers(min_value=0, max_value=253_402_300_799))
def test_recorded_times_are_written_as_utc_dates(at: int) -> None:
    assert time_text(at) == datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_claimed_avt_side_holds_with_the_rules_own_hold() -> None:
    pbem = new_game("avt-duel-wasp", seed=18, deadline_hours=2)
    mailers = {m.side: m for m in mailers_for(pbem, seed=18, clock=T0)}
    red, blue = mailers["red"], mailers["blue"]
    text = blue.act(red.act(text_of(pbem)))
    text = red.act(text)
    game = load(text)
    assert game.owed() == {"blue": "commit"}
    assert game.game is not None
    turns = len(game.game.history)
    red.clock = T0 + 2 * HOUR
    game.claim("red", T0 + 2 * HOUR)
    assert red.keyring is not None
    game.turn(red.keyring.saw(game, T0 + 2 * HOUR), None, "1" * 64, "2" * 64, T0 + 2 * HOUR)
    assert len(game.game.history) == turns + 1
    assert dict(game.game.history[-1].orders)["blue"] == "hold"


def test_the_tamper_checks_hold_for_files_passed_one_a_step() -> None:
    pbem = new_game("msc-duel", seed=19)
    red, blue = mailers_for(pbem, seed=19)
    text = blue.act(red.act(text_of(pbem)))
    old = text
    text = red.act(text, plot="Hawk 1")
    # red writes blue's whole pass for it (commitment and reveal, with secrets red chose): blue refuses it.
    forged = load(text)
    assert blue.keyring is not None
    sealed = forged.seal("blue", "Raven 1", "1" * 64, "2" * 64)
    forged.commit("blue", *sealed.hashes(forged.game_id, "blue"))
    forged.reveal("blue", "Raven 1", "1" * 64, "2" * 64)
    with pytest.raises(ForeignActionError, match="commitment for blue at step 1"):
        blue.load(text_of(forged))
    # An older file, once a newer one was seen, is refused by both players.
    blue.load(text)
    with pytest.raises(StaleFileError, match="old or replayed"):
        blue.load(old)
    with pytest.raises(StaleFileError, match="old or replayed"):
        red.load(old)
    # A plot changed in the keyring between committing and the reveal that rides with the next pass.
    text = blue.act(text)
    assert red.keyring is not None
    kept = red.keyring.sealed_at(1)
    assert kept is not None
    red.keyring = replace(red.keyring, sealed=(replace(kept, plot="Hawk 2"),))
    with pytest.raises(PlotChangedError, match="not the plot committed to"):
        red.act(text)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=1, max_value=72), st.integers(min_value=-3 * 24 * HOUR, max_value=3 * 24 * HOUR))
def test_a_claim_stands_exactly_when_the_deadline_has_passed(hours: int, offset: int) -> None:
    pbem = new_game("msc-duel", seed=20, deadline_hours=hours)
    red, blue = mailers_for(pbem, seed=20, clock=T0)
    text = red.act(blue.act(red.act(text_of(pbem))))
    game = load(text)
    before = copy.deepcopy(game.to_data())
    at = T0 + hours * HOUR + offset
    if offset < 0:
        with pytest.raises((EarlyClaimError, OutOfStepError)):
            game.claim("red", at)
        assert game.to_data() == before
    else:
        game.claim("red", at)
        assert load(text_of(game)).head == game.head
