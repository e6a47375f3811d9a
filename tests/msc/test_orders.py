"""MSC 6.0 Ship Movement Orders and MSC 7.0 fire declarations: the order notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import OrderSyntaxError
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.orders import FireOrders, Move, Plot, Shot, parse_fire, parse_plot


@st.composite
def valid_steps(draw: st.DrawFn, max_size: int = 12) -> tuple[str, ...]:
    """Step sequences the movement rules allow: no turn straight after a turn."""
    n = draw(st.integers(0, max_size))
    steps: list[str] = []
    for _ in range(n):
        options = ["F"] if steps and steps[-1] != "F" else ["F", "L", "R"]
        steps.append(draw(st.sampled_from(options)))
    return tuple(steps)


def test_msc_6_0_the_texts_example_2L1_reads_as_two_forward_left_one_forward() -> None:
    move = Move.parse("2L1")
    assert move.steps == ("F", "F", "L", "F")
    assert str(move) == "2L1"


def test_msc_6_0_each_step_forward_or_turn_costs_1_speed() -> None:
    assert Move.parse("2L1").speed == 4
    assert Move.parse("L").speed == 1
    assert Move.parse("R2L").speed == 4
    assert Move.parse("12").speed == 12  # digits are a count, not one step per digit
    assert Move.parse("0").speed == 0


@given(valid_steps())
def test_msc_6_0_move_notation_round_trips(steps: tuple[str, ...]) -> None:
    """print(parse(print(m))) == print(m), and parsing gives back the same steps."""
    move = Move(steps)
    text = str(move)
    assert str(Move.parse(text)) == text
    assert Move.parse(text) == move
    assert Move.parse(text.lower()) == move


@given(valid_steps(max_size=8))
def test_msc_6_0_printed_moves_are_canonical(steps: tuple[str, ...]) -> None:
    """Forward runs print as one number; no zero unless the move is empty."""
    text = str(Move(steps))
    if not steps:
        assert text == "0"
    else:
        assert "0" not in text
        assert sum(int(n) for n in text.replace("L", " ").replace("R", " ").split()) == steps.count("F")


def test_msc_6_0_non_canonical_moves_normalise() -> None:
    assert str(Move.parse("R02")) == "R2"
    assert str(Move.parse("00")) == "0"
    assert str(Move.parse(" 1l1 ")) == "1L1"


@pytest.mark.parametrize("text", ["", "2X1", "2 L 1", "-1", "F2", "2.5"])
def test_msc_6_0_bad_move_text_is_a_syntax_error(text: str) -> None:
    with pytest.raises(OrderSyntaxError, match="digits"):
        Move.parse(text)


def test_msc_6_0_plot_lists_one_move_per_ship_by_name() -> None:
    ships = {"hawk": "Hawk", "kite": "Kite"}
    plot = parse_plot("hawk 2L1; KITE 3", ships)
    assert plot == Plot((("Hawk", Move.parse("2L1")), ("Kite", Move.parse("3"))))
    assert str(plot) == "Hawk 2L1; Kite 3"
    assert parse_plot(str(plot), ships) == plot
    with pytest.raises(OrderSyntaxError, match="no ship of yours called 'Raven'"):
        parse_plot("Raven 2", ships)
    with pytest.raises(OrderSyntaxError, match="SHIP MOVE"):
        parse_plot("Hawk", ships)
    with pytest.raises(OrderSyntaxError):
        parse_plot(" ; ", ships)


_names = st.sampled_from(["Hawk", "Kite"])
_shots = st.builds(Shot, _names, st.sampled_from(list(Side)), st.sampled_from(["Raven", "Crow"]))


@given(st.lists(_shots, max_size=6))
def test_msc_7_0_fire_declaration_notation_round_trips(shots: list[Shot]) -> None:
    orders = FireOrders(tuple(shots))
    own = {"hawk": "Hawk", "kite": "Kite"}
    targets = {"raven": "Raven", "crow": "Crow", **own}
    assert parse_fire(str(orders), own, targets) == orders


def test_msc_7_0_fire_declaration_examples() -> None:
    own = {"hawk": "Hawk", "kite": "Kite"}
    targets = {"raven": "Raven", **own}
    orders = parse_fire("Hawk F>Raven fl>raven; Kite FR>Raven", own, targets)
    assert orders.shots == (
        Shot("Hawk", Side.F, "Raven"),
        Shot("Hawk", Side.FL, "Raven"),
        Shot("Kite", Side.FR, "Raven"),
    )
    assert str(orders) == "Hawk F>Raven FL>Raven; Kite FR>Raven"
    assert parse_fire("hold", own, targets) == FireOrders(())
    assert str(FireOrders(())) == "hold"
    with pytest.raises(OrderSyntaxError, match="not a side"):
        parse_fire("Hawk Q>Raven", own, targets)
    with pytest.raises(OrderSyntaxError, match="SIDE>TARGET"):
        parse_fire("Hawk", own, targets)
    with pytest.raises(OrderSyntaxError, match="no ship of yours"):
        parse_fire("Raven F>Hawk", own, targets)


@pytest.mark.parametrize("text", ["", "   ", ";", " ; \n"])
def test_msc_7_0_blank_fire_declaration_is_refused_not_taken_as_hold(text: str) -> None:
    """Holding fire has to be said ('hold'): blank text would silently skip the combat phase."""
    with pytest.raises(OrderSyntaxError, match="'hold' to fire nothing"):
        parse_fire(text, {"hawk": "Hawk"}, {"raven": "Raven"})
    for word in ("hold", "HOLD", "pass", "-"):
        assert parse_fire(word, {"hawk": "Hawk"}, {"raven": "Raven"}) == FireOrders(())
