"""The designer's workshop API (docs/web.md, *The designer's workshop*): checks by the systems' own
design rules, the fleet kept under a fleet token, and TOML the command line reads."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli.helpers import run
from vectorwar.web import workshop
from vectorwar.web.workshop import MAX_DESIGN_CHARS, MAX_FLEET_DESIGNS, from_toml, to_toml

FLEET = {"Authorization": "Bearer " + "f" * 32}
LEGAL = {"name": "Lancer", "engine": 4, "shields": 3, "to_hit": 3, "weapons": ["F", "FL"]}


def test_the_designers_are_the_systems_with_a_design_schema_and_the_rest_read_only(client: TestClient) -> None:
    found = {s["system"]: s for s in client.get("/api/workshop/systems").json()}
    assert {k for k, s in found.items() if s["editable"]} == {"msc", "vv5", "vms"}
    assert found["avt"]["editable"] is False
    assert found["avt"]["catalogue"]["rafik"]["name"] == "Rafik Mk. 1"
    assert found["msc"]["schema"]["properties"]["engine"]["maximum"] == 5


def test_an_illegal_field_answers_with_the_rule_that_forbids_it(client: TestClient) -> None:
    answer = client.post("/api/workshop/msc/check", json={"key": "x", "design": {**LEGAL, "engine": 9}}).json()
    assert answer["legal"] is False
    assert answer["cards"] == []
    [problem] = answer["problems"]
    assert problem["field"] == "engine"
    assert "less than or equal to 5" in problem["message"]
    assert problem["rule"] == "MSC 3.0"
    assert problem["about"].startswith("Top SPEED")

    doubled = client.post("/api/workshop/msc/check", json={"key": "x", "design": {**LEGAL, "weapons": ["F", "F"]}})
    [problem] = doubled.json()["problems"]
    assert problem["field"] == "weapons"
    assert "one weapon" in problem["message"]
    assert problem["rule"] == "MSC 3.0"


def test_a_design_over_its_mass_names_the_vv5_design_rule(client: TestClient) -> None:
    design = {"name": "Brick", "mass": 5, "acceleration": 5, "agility": 5}
    answer = client.post("/api/workshop/vv5/check", json={"key": "brick", "design": design}).json()
    assert answer["legal"] is False
    assert answer["problems"][0]["rule"] == "VV5 Starship Design"
    assert "2 t over" in answer["problems"][0]["message"]


def test_a_legal_design_shows_its_cost_on_its_record_card(client: TestClient) -> None:
    answer = client.post("/api/workshop/msc/check", json={"key": "lancer", "design": LEGAL}).json()
    assert answer["legal"] is True
    [card] = answer["cards"]
    assert card["title"] == "lancer: Lancer"
    assert dict(map(tuple, card["rows"]))["BUILD POINTS"].startswith("14 ")


def test_a_system_without_a_designer_or_none_at_all_is_refused(client: TestClient) -> None:
    avt = client.post("/api/workshop/avt/check", json={"key": "x", "design": {}})
    assert avt.status_code == 422
    assert "no ship designer" in avt.json()["error"]["message"]
    unknown = client.post("/api/workshop/nosuch/check", json={"key": "x", "design": {}})
    assert unknown.status_code == 422
    assert "nosuch" in unknown.json()["error"]["message"]


def test_a_legal_design_saves_exports_toml_the_cli_accepts_and_imports_back(client: TestClient, tmp_path: Path) -> None:
    saved = client.put("/api/workshop/fleet/msc/lancer", json={"design": LEGAL}, headers=FLEET)
    assert saved.status_code == 200
    listed = client.get("/api/workshop/fleet", headers=FLEET).json()["designs"]
    assert listed == [{"system": "msc", "key": "lancer", "design": LEGAL}]

    exported = client.get("/api/workshop/fleet/msc.toml", headers=FLEET)
    assert exported.status_code == 200
    assert tomllib.loads(exported.text) == {"lancer": LEGAL}
    path = tmp_path / "fleet.toml"
    path.write_text(exported.text, encoding="utf-8")
    code, out, err = run("design", "msc", str(path))
    assert code == 0, err
    assert "lancer: Lancer" in out

    imported = client.post("/api/workshop/msc/import", json={"toml": exported.text}).json()["designs"]
    assert [(d["key"], d["legal"], d["design"]) for d in imported] == [("lancer", True, LEGAL)]


def test_an_illegal_design_is_not_saved_and_says_why(client: TestClient) -> None:
    refused = client.put("/api/workshop/fleet/msc/big", json={"design": {**LEGAL, "shields": 7}}, headers=FLEET)
    assert refused.status_code == 422
    assert "at most 5" in refused.json()["error"]["message"]
    assert client.get("/api/workshop/fleet", headers=FLEET).json()["designs"] == []


def test_fleets_are_apart_and_need_a_fleet_token(client: TestClient) -> None:
    client.put("/api/workshop/fleet/msc/lancer", json={"design": LEGAL}, headers=FLEET)
    other = {"Authorization": "Bearer " + "g" * 32}
    assert client.get("/api/workshop/fleet", headers=other).json()["designs"] == []
    assert client.get("/api/workshop/fleet/msc.toml", headers=other).status_code == 404
    for bad in ({}, {"Authorization": "Bearer short"}, {"Authorization": "Bearer " + "a.b" * 10}):
        answer = client.get("/api/workshop/fleet", headers=bad)
        assert answer.status_code == 422
        assert "fleet token" in answer.json()["error"]["message"]
    gone = client.delete("/api/workshop/fleet/msc/lancer", headers=FLEET)
    assert gone.status_code == 200
    assert client.delete("/api/workshop/fleet/msc/lancer", headers=FLEET).status_code == 404


def test_a_fleet_holds_a_bounded_number_of_designs(client: TestClient) -> None:
    for n in range(MAX_FLEET_DESIGNS):
        assert client.put(f"/api/workshop/fleet/msc/d{n}", json={"design": LEGAL}, headers=FLEET).status_code == 200
    full = client.put("/api/workshop/fleet/msc/one-more", json={"design": LEGAL}, headers=FLEET)
    assert full.status_code == 409
    assert f"at most {MAX_FLEET_DESIGNS}" in full.json()["error"]["message"]
    # Saving over a design already there is no new design.
    assert client.put("/api/workshop/fleet/msc/d0", json={"design": LEGAL}, headers=FLEET).status_code == 200


def test_the_server_bounds_the_designs_of_all_fleets_together(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workshop, "MAX_STORED_DESIGNS", 2)
    for n, letter in enumerate("ab"):
        token = {"Authorization": "Bearer " + letter * 32}
        assert client.put(f"/api/workshop/fleet/msc/d{n}", json={"design": LEGAL}, headers=token).status_code == 200
    full = client.put(
        "/api/workshop/fleet/msc/d9", json={"design": LEGAL}, headers={"Authorization": "Bearer " + "c" * 32}
    )
    assert full.status_code == 409
    assert "at most 2 designs over all fleets" in full.json()["error"]["message"]


def test_inputs_are_bounded_with_clear_errors(client: TestClient) -> None:
    huge = {**LEGAL, "notes": "x" * MAX_DESIGN_CHARS}
    answer = client.post("/api/workshop/msc/check", json={"key": "x", "design": huge})
    assert answer.status_code == 422
    assert f"at most {MAX_DESIGN_CHARS} characters" in answer.json()["error"]["message"]
    deep: Any = 1
    for _ in range(10):
        deep = [deep]
    nested = client.post("/api/workshop/msc/check", json={"key": "x", "design": {**LEGAL, "notes": deep}})
    assert nested.status_code == 422
    assert "nest" in nested.json()["error"]["message"]
    bad_key = client.post("/api/workshop/msc/check", json={"key": "Not A Key", "design": LEGAL})
    assert bad_key.status_code == 422
    assert "'Not A Key' is no design key" in bad_key.json()["error"]["message"]
    bad_path = client.put("/api/workshop/fleet/msc/Big%20Ship", json={"design": LEGAL}, headers=FLEET)
    assert "'Big Ship' is no design key" in bad_path.json()["error"]["message"]
    not_toml = client.post("/api/workshop/msc/import", json={"toml": "[x\n"})
    assert not_toml.status_code == 422
    assert "not valid TOML" in not_toml.json()["error"]["message"]
    plain = client.post("/api/workshop/msc/import", json={"toml": "x = 1\n"})
    assert "is a [table]" in plain.json()["error"]["message"]


_plain = st.recursive(
    st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=10), _plain, max_size=5))
def test_toml_written_reads_back_the_same(design: dict[str, Any]) -> None:
    assert tomllib.loads(to_toml({"ship": design})) == {"ship": design}


def test_a_key_ending_in_a_line_break_is_quoted() -> None:
    assert tomllib.loads(to_toml({"ship": {"0\n": 0}})) == {"ship": {"0\n": 0}}


def test_from_toml_refuses_a_bad_key() -> None:
    with pytest.raises(ValueError, match="is no design key"):
        from_toml('["Big Ship"]\nname = "x"\n')


def _scenario(at: str = "16,6", design: str = "lancer") -> dict[str, Any]:
    return {
        "system": "msc",
        "title": "Lancer trial",
        "max_turns": 12,
        "map": {"width": 20, "height": 14},
        "sides": [
            {"id": "red", "ships": [{"id": "Hawk", "design": "ship1", "at": "3,7", "facing": "B", "speed": 2}]},
            {"id": "blue", "ships": [{"id": "Raven", "design": design, "at": at, "facing": "E"}]},
        ],
        "designs": {"lancer": LEGAL},
    }


def test_a_scenario_is_checked_by_set_up_and_its_toml_starts_a_game(client: TestClient, tmp_path: Path) -> None:
    off = client.post("/api/workshop/scenario", json={"scenario": _scenario(at="30,6")}).json()
    assert off["ok"] is False
    assert "sides.1.ships.0.at: hex 30,6 is not on the map" in off["problem"]
    unknown = client.post("/api/workshop/scenario", json={"scenario": _scenario(design="nosuch")}).json()
    assert "no design 'nosuch'" in unknown["problem"]

    ready = client.post("/api/workshop/scenario", json={"scenario": _scenario()}).json()
    assert ready["ok"] is True, ready["problem"]
    assert tomllib.loads(ready["toml"])["designs"] == {"lancer": LEGAL}
    created = client.post(
        "/api/games", json={"scenario_toml": ready["toml"], "sides": {"red": "human", "blue": "bot:greedy"}}
    )
    assert created.status_code == 201, created.text
    # The same file is one the command line reads.
    path = tmp_path / "lancer-trial.toml"
    path.write_text(ready["toml"], encoding="utf-8")
    code, out, err = run("new", str(path), str(tmp_path / "game.json"), "--seed", "1")
    assert code == 0, err + out


def test_terrain_set_up_takes_but_play_may_not_read_is_a_warning(client: TestClient) -> None:
    msc = {s["system"]: s for s in client.get("/api/workshop/systems").json()}["msc"]
    assert msc["terrain"] == ["blocking"]
    scenario = _scenario()
    scenario["map"]["terrain"] = [{"at": "10,7", "kind": "blocking"}, {"at": "10,8", "kind": "nebula"}]
    answer = client.post("/api/workshop/scenario", json={"scenario": scenario}).json()
    assert answer["ok"] is True
    assert answer["warnings"] == [
        "map.terrain.1: 'nebula' is no kind this system's scenarios use (blocking); its rules may not read it"
    ]
    scenario["map"]["terrain"] = [{"at": "40,7", "kind": "blocking"}]
    answer = client.post("/api/workshop/scenario", json={"scenario": scenario}).json()
    assert answer["warnings"] == ["map.terrain.0: hex 40,7 is not on the map"]


def test_a_scenario_too_large_or_deep_is_refused_with_its_limit(client: TestClient) -> None:
    deep: Any = 1
    for _ in range(12):
        deep = [deep]
    nested = client.post("/api/workshop/scenario", json={"scenario": {**_scenario(), "special": {"x": deep}}})
    assert nested.status_code == 422
    assert "nest" in nested.json()["error"]["message"]
    many = {f"d{n}": {**LEGAL, "notes": "n" * 500} for n in range(100)}
    large = client.post("/api/workshop/scenario", json={"scenario": {**_scenario(), "designs": many}})
    assert large.status_code in (413, 422)
    assert "at most" in large.json()["error"]["message"]


def test_a_check_past_the_servers_budget_is_refused_in_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workshop, "SCENARIO_BUDGET", 0.0)
    late = client.post("/api/workshop/msc/check", json={"key": "x", "design": LEGAL})
    assert late.status_code == 422
    assert late.json()["error"]["type"] == "OverBudget"
    assert "budget of 0 s" in late.json()["error"]["message"]


def test_a_starting_velocity_set_up_refuses_is_answered_in_its_words(client: TestClient) -> None:
    scenario = _scenario()
    scenario["sides"][0]["ships"][0]["velocity"] = "Q=2"
    answer = client.post("/api/workshop/scenario", json={"scenario": scenario}).json()
    assert answer["ok"] is False
    assert "sides.0.ships.0.velocity" in answer["problem"]


def test_the_editor_learns_which_systems_draw_start_zones_and_their_victory_options(client: TestClient) -> None:
    found = {s["system"]: s for s in client.get("/api/workshop/systems").json()}
    assert found["msc"]["start_zones"] is True
    assert found["msc"]["victory"] == ["victory", "victory_turns"]
    assert found["vv5"]["start_zones"] is False
    assert found["vv5"]["victory"] == []


def test_start_zones_and_victory_options_are_checked_by_the_set_up(client: TestClient) -> None:
    scenario: dict[str, Any] = {
        "system": "msc",
        "title": "Zones",
        "max_turns": 5,
        "map": {"width": 16, "height": 10},
        "options": {"victory": "shields", "victory_turns": 3},
        "setup": {
            "deploy": {"zone": {"red": {"cols": [0, 3], "facing": "B"}, "blue": {"cols": [12, 15], "facing": "E"}}}
        },
        "sides": [
            {"id": "red", "ships": [{"id": "Hawk", "design": "ship1", "at": "1,5", "facing": "B"}]},
            {"id": "blue", "ships": [{"id": "Raven", "design": "ship1", "at": "14,5", "facing": "E"}]},
        ],
    }
    ready = client.post("/api/workshop/scenario", json={"scenario": scenario}).json()
    assert ready["ok"] is True, ready["problem"]
    assert "[setup.deploy.zone.red]" in ready["toml"]
    assert 'victory = "shields"' in ready["toml"]

    scenario["setup"]["deploy"]["zone"]["blue"]["cols"] = [2, 5]
    overlapping = client.post("/api/workshop/scenario", json={"scenario": scenario}).json()
    assert overlapping["ok"] is False
    assert "setup.deploy.zone.blue: the zone overlaps another side's" in overlapping["problem"]

    scenario["setup"]["deploy"]["zone"]["blue"]["cols"] = [12, 15]
    scenario["options"]["victory"] = "bravery"
    unknown = client.post("/api/workshop/scenario", json={"scenario": scenario}).json()
    assert unknown["ok"] is False
    assert "option victory must be one of destroy, shields" in unknown["problem"]
