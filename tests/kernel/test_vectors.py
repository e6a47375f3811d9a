"""Velocities and the two-adjacent-directions form players write."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.vectors import Velocity

small = st.integers(min_value=-20, max_value=20)
velocities = st.builds(Velocity, small, small, small)


@given(velocities)
def test_text_form_parses_back(v: Velocity) -> None:
    assert Velocity.parse(str(v)) == v


@given(velocities)
def test_components_use_at_most_two_adjacent_directions(v: Velocity) -> None:
    parts = v.components()
    assert len(parts) <= 2
    assert all(n > 0 for n in parts.values())
    if len(parts) == 2:
        a, b = sorted(parts)
        assert (b - a) % 6 in (1, 5)
    rebuilt = Velocity()
    for d, n in parts.items():
        rebuilt += Velocity.toward(d, n)
    assert (rebuilt.dq, rebuilt.dr) == (v.dq, v.dr)


@given(velocities, velocities)
def test_addition_and_mirroring(a: Velocity, b: Velocity) -> None:
    assert a + b == b + a
    assert (a + a.mirrored()).is_zero
    assert a - b + b == a


def test_the_vms_record_example() -> None:
    """VMS movement example: course A=4, B=2, accelerate 2 in B gives A=4, B=4."""
    v = Velocity.parse("A=4, B=2")
    assert str(v + Velocity.toward(Direction.B, 2)) == "A=4, B=4"
    assert v.speed == 6


def test_opposites_cancel_and_vertical_part_prints() -> None:
    assert str(Velocity.parse("A=3, D=1")) == "A=2"
    assert str(Velocity.parse("up=2, B=1")) == "B=1, up=2"
    assert str(Velocity.parse("down=1")) == "down=1"
    assert str(Velocity()) == "0"


def test_velocity_moves_a_position() -> None:
    start = Position(Hex.parse("5,5"), 1)
    end = Velocity.parse("A=2, down=1").moved(start)
    assert end == Position(Hex.parse("5,3"), 0)
    assert Velocity.between(start, end) == Velocity.parse("A=2, down=1")


@pytest.mark.parametrize("text", ["A4", "A=x", "G=2", "A=-1"])
def test_bad_vector_text_names_the_bad_term(text: str) -> None:
    with pytest.raises(OrderSyntaxError, match="DIRECTION=COUNT"):
        Velocity.parse(text)
