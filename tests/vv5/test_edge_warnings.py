"""VV5's plot warnings at the board's edge say what resolution will do
(docs/rulings/vv5.md, *VV5 leaving the board*)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vectorwar.dice import Dice
from vectorwar.display import MoveOption
from vectorwar.hexes import Hex
from vectorwar.maps import HexMap
from vectorwar.systems.vv5.edge import shift_verdict
from vectorwar.systems.vv5.events import Collided
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import VV5State
from vectorwar.vectors import Velocity

from .conftest import make_ship, make_state

DOGFIGHT = {"several_targets": "harder", "board_shift": True, "honour_rule": True}


def _options(state: VV5State, ship_id: str) -> list[MoveOption]:
    side = state.ship(ship_id).side
    return list(system.move_options(state, side)[ship_id])


def _edge(state: VV5State, option: MoveOption) -> str:
    """The edge warning's reason for ``option``, or ``""``."""
    found = [w.reason for w in system.plot_warnings(state, option, state.map) if "board" in w.reason]
    return found[0] if found else ""


def _resolve(state: VV5State, plots: dict[str, str], seed: int = 1) -> tuple[VV5State, bool]:
    """Every side's plot resolved; and whether any ships collided."""
    orders = {side: system.parse_order(state, side, text) for side, text in plots.items()}
    after, events = system.resolve(state, orders, Dice(seed))
    return after, any(isinstance(e, Collided) for e in events)


def test_a_dogfight_plot_the_shift_cannot_bring_back_says_it_leaves() -> None:
    # Flying apart across a 30-row board: no translation holds a ship above it with one below it.
    top = make_ship("X1", "red", at="5,0", facing="A", velocity="A=2")
    bottom = make_ship("Y1", "blue", at="5,29", facing="D", velocity="D=2")
    state = make_state(top, bottom, options=DOGFIGHT)
    off = [o for o in _options(state, "X1") if not state.map.contains(o.end.hex)]
    assert off
    for option in off:
        assert "the shift cannot bring it back: it leaves the battle" in _edge(state, option), option.text
    after, _ = _resolve(state, {"red": off[0].text, "blue": "Y1 0"})
    assert after.ship("X1").status == "exited"
    (warning,) = system.plot_warnings(state, off[0], state.map)
    assert warning.short == "off the board: no shift can bring it back"  # what the plot list shows


def test_a_dogfight_plot_the_shift_brings_back_says_the_board_shifts() -> None:
    runner = make_ship("Y1", "blue", at="1,5", facing="A", velocity="F=3")
    stayer = make_ship("X1", "red", at="15,15", facing="B")
    state = make_state(stayer, runner, options=DOGFIGHT)
    off = [o for o in _options(state, "Y1") if not state.map.contains(o.end.hex)]
    assert off
    for option in off:
        assert "the board shifts every ship and marker to bring it back" in _edge(state, option), option.text
        after, _ = _resolve(state, {"red": "X1 0", "blue": option.text})
        assert after.ship("Y1").active, option.text
    # Once honour no longer binds, the warning names the way to leave anyway.
    later = replace(state, turn=16)
    assert "a plot marked 'retreat' leaves instead" in _edge(later, off[0])


def test_without_the_shift_a_plot_ending_off_the_board_leaves_and_one_ending_on_it_does_not_warn() -> None:
    runner = make_ship("Y1", "blue", at="1,5", facing="A", velocity="F=3")
    stayer = make_ship("X1", "red", at="15,15", facing="B")
    state = make_state(stayer, runner)
    for option in _options(state, "Y1"):
        reason = _edge(state, option)
        if state.map.contains(option.end.hex):
            assert reason == "", option.text  # VV5 judges where the move ends, not the line it flies
        else:
            assert reason.endswith("the ship leaves the battle"), option.text


_SPOT = st.tuples(st.integers(0, 11), st.integers(0, 11))
_SPEED = st.tuples(st.integers(-7, 7), st.integers(-7, 7))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spots=st.lists(_SPOT, min_size=2, max_size=3, unique=True),
    speeds=st.lists(_SPEED, min_size=3, max_size=3),
    data=st.data(),
)
def test_the_dogfight_warning_agrees_with_what_resolution_does(
    spots: list[tuple[int, int]], speeds: list[tuple[int, int]], data: st.DataObject
) -> None:
    """Whatever every ship plots, a ship warned it leaves does, and one promised the shift stays."""
    ships = [
        replace(
            make_ship(f"{'XYZ'[i]}1", ("red", "blue", "red")[i], at=f"{col},{row}"),
            velocity=Velocity(*speeds[i]),
        )
        for i, (col, row) in enumerate(spots)
    ]
    state = make_state(*ships, hex_map=HexMap.single(12, 12), options=DOGFIGHT)
    chosen = {s.id: data.draw(st.sampled_from(_options(state, s.id)), label=s.id) for s in ships}
    plots: dict[str, list[str]] = {}
    for ship in ships:
        plots.setdefault(ship.side, []).append(chosen[ship.id].text)
    after, collided = _resolve(state, {side: "; ".join(texts) for side, texts in plots.items()})
    for ship in ships:
        option = chosen[ship.id]
        reason = _edge(state, option)
        status = after.ship(ship.id).status
        if "cannot bring it back" in reason:
            assert status == "exited", (ship.id, reason)
        elif "the board shifts every ship and marker" in reason:
            assert status == "active", (ship.id, reason)
        elif not reason and not collided:
            assert status == "active", ship.id  # ends on the board: the edge does nothing to it
        if not reason:
            assert state.map.contains(option.end.hex)


def test_the_verdict_depends_on_the_others_when_they_may_end_near_or_far() -> None:
    # One ship far off to the left; the other may end close to it or far away: the shift depends on that.
    runner = make_ship("Y1", "blue", at="0,15", facing="D", velocity="D=2")
    other = make_ship("X1", "red", at="20,15", facing="A")
    state = make_state(runner, other, options=DOGFIGHT)
    assert shift_verdict(state, "Y1", Hex.parse("-2,15")) == "shifts"
    far = Hex.parse("-12,15")  # 32 columns from X1 on a 30-column board, unless X1 burns toward it
    assert shift_verdict(state, "Y1", far) in ("depends", "leaves")
