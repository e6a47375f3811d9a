"""The thrust chart: acceleration dots, displacement and fuel, cell by cell.

A burn checks off one cell of its thrust column per segment, always starting
from the top (A5.2431). The printed chart is not in the excerpt; its cells
are derived from the physics the text states and checked against every cell
the tutorial shows (docs/rulings/avt.md, *AV:T thrust chart*):

* Thrust is counted in quarter-gravities (thrust 5 is 1.25 G, A5.24) and a
  dot is one hex per turn of velocity (156.25 m/s, A2.4), so a segment
  (16 s) at thrust ``T`` adds ``T / 4`` dots. Cell ``c`` holds the dots that
  bring the burn's total to ``floor(c * T / 4)``. Thrust 5: 1, 1, 1, 2, 1,
  1, 1, 2 (A5.2431-A5.28 show the first five).
* Displacement is the distance covered while accelerating: ``T * c^2 / 64``
  hexes after ``c`` cells, so a full 8-cell burn displaces ``T`` hexes, half
  its ``2T`` dots (A2.4). An arrow is printed in a cell whenever the total
  passes a whole hex; for thrust 5 that is cells 4, 6, 7 and two in 8 (A5.274:
  one arrow in the fourth cell, two at the bottom). Fractions carry on to
  later cells and burns. A cell burned while pivoting displaces nothing.
* Angled thrust (nose in a blue or green ring) puts the column's dots on the
  major component and half as many, ``floor(c * T / 8)`` in all, on the
  minor one, with half the displacement (A5.342-A5.351: thrust 4 at C+
  gives one dot in C, then one in C and one up). Blue: the major component
  is horizontal and the minor vertical; green: the other way round.
* Fuel is one unit per dot of the orthogonal column, whatever the angle
  (A5.362: the angled burn above costs 2 units for 3 dots).
* Toward a hex corner the dots alternate between the two directions, odd
  dots in the chosen bias direction, for as long as the nose stays on that
  corner (A5.272-A5.273); so do displacement hexes.

>>> [dots(5, c) for c in range(1, 9)], [arrows(5, c) for c in range(1, 9)]
([1, 1, 1, 2, 1, 1, 1, 2], [0, 0, 0, 1, 0, 1, 1, 2])
>>> [minor_dots(4, c) for c in range(1, 5)]
[0, 1, 0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

from vectorwar.hexes import Direction
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.avid import Window

CELLS = 8
# Displacement is kept in 1/128ths of a hex: a cell adds 2T(2c-1) on the major
# component and T(2c-1) on the minor one, so T*c^2/64 and T*c^2/128 hexes in all.
_UNIT = 128


def _check(thrust: int, cell: int) -> None:
    if thrust < 0:
        raise ValueError(f"thrust is never negative, got {thrust}")
    if not 1 <= cell <= CELLS:
        raise ValueError(f"the thrust chart has cells 1-{CELLS}, got {cell}")


def dots(thrust: int, cell: int) -> int:
    """Acceleration dots in ``cell`` of the orthogonal column for ``thrust`` (also the fuel it burns)."""
    _check(thrust, cell)
    return (cell * thrust) // 4 - ((cell - 1) * thrust) // 4


def minor_dots(thrust: int, cell: int) -> int:
    """Dots on the minor component of an angled burn in ``cell``."""
    _check(thrust, cell)
    return (cell * thrust) // 8 - ((cell - 1) * thrust) // 8


def arrows(thrust: int, cell: int) -> int:
    """Displacement arrows printed in ``cell`` of the orthogonal column (a burn from the top)."""
    _check(thrust, cell)
    return (thrust * cell * cell) // 64 - (thrust * (cell - 1) ** 2) // 64


@dataclass(frozen=True, slots=True)
class Heading:
    """Where a nose window sends thrust: a major and optional minor component.

    A component is a pair of arrows: the same arrow twice, or the two sides of
    a hex corner (anticlockwise first) that its dots alternate between.
    """

    major: tuple[Arrow, Arrow]
    minor: tuple[Arrow, Arrow] | None

    @property
    def angled(self) -> bool:
        return self.minor is not None


def _horizontal(ray: int) -> tuple[Arrow, Arrow]:
    first = Arrow(ray // 2)
    return (first, first) if ray % 2 == 0 else (first, Arrow((ray // 2 + 1) % 6))


def thrust_heading(nose: Window) -> Heading:
    """The components a burn toward ``nose`` feeds (A5.241, A5.342): kept by window, every burned cell asks it.

    >>> h = thrust_heading(Window.parse("C/D+"))
    >>> [str(a) for a in h.major], [str(a) for a in h.minor or ()]
    (['C', 'D'], ['up', 'up'])
    """
    key = (nose.level, nose.ray)
    found = _HEADINGS.get(key)
    if found is None:
        found = _HEADINGS[key] = _heading(nose)
    return found


#: :func:`thrust_heading` by the window's level and ray (a window's own hash is worked out in Python).
_HEADINGS: dict[tuple[int, int], Heading] = {}


def _heading(nose: Window) -> Heading:
    vertical = Arrow.UP if nose.level > 0 else Arrow.DOWN
    if abs(nose.level) == 3:
        return Heading((vertical, vertical), None)
    if nose.level == 0:
        return Heading(_horizontal(nose.ray), None)
    if abs(nose.level) == 1:
        return Heading(_horizontal(nose.ray), (vertical, vertical))
    return Heading((vertical, vertical), _horizontal(nose.ray))


@dataclass(frozen=True, slots=True)
class Burn:
    """What one cell did: the dots laid on each arrow, fuel to spend and the hexes displaced."""

    cell: int
    dots: tuple[tuple[Arrow, int], ...]
    fuel: int
    displacement: tuple[Arrow, ...]


@dataclass(frozen=True, slots=True)
class ThrustChart:
    """A ship's thrust chart and the gray (pending) part of its AVID's vector arrows.

    ``setting`` is the thrust ordered (public, A5.243) and stays on until
    changed; ``cell`` counts the cells checked off in the current burn;
    ``pending`` holds the dots laid on each arrow (A-F, up, down) and
    ``fuel`` the fuel dots between the columns, both waiting for the burn to
    break. ``carry`` is the displacement carried, in 1/128 hex, on the major
    and minor components; ``corner`` remembers the corner the nose faces and
    how many dots and displacement hexes have been laid toward it.
    """

    setting: int = 0
    cell: int = 0
    pending: tuple[int, ...] = (0,) * 8
    fuel: int = 0
    carry: tuple[int, int] = (0, 0)
    corner: tuple[int, int, int] = (-1, 0, 0)

    @property
    def burning(self) -> bool:
        return self.cell > 0

    @property
    def off_the_bottom(self) -> bool:
        return self.cell >= CELLS

    def pending_dots(self) -> dict[Arrow, int]:
        return {Arrow(i): n for i, n in enumerate(self.pending) if n}

    def fuel_for_next_cell(self) -> int:
        return dots(self.setting, self.cell + 1) if self.setting and self.cell < CELLS else 0

    def burn(self, nose: Window, bias: Direction | None, pivoting: bool) -> tuple[ThrustChart, Burn]:
        """Check off the next cell toward ``nose`` (Resolve Thrust, A5.243).

        ``bias`` is the direction odd dots go to at a corner; one not beside
        the corner the nose faces falls back to the anticlockwise side.
        """
        if self.setting == 0:
            raise ValueError("no thrust is set, so there is no cell to burn")
        if self.cell >= CELLS:
            raise ValueError("the burn is off the bottom of the chart and must break first")
        cell = self.cell + 1
        heading = thrust_heading(nose)
        ray, laid, shifted = self.corner
        corner_ray = nose.ray if abs(nose.level) < 2 and nose.ray % 2 else -1
        if corner_ray != ray:
            ray, laid, shifted = corner_ray, 0, 0

        def pick(pair: tuple[Arrow, Arrow], index: int) -> Arrow:
            first, second = pair
            if first is second:
                return first
            lead = first if bias is None or Arrow.of(bias) not in pair else Arrow.of(bias)
            other = second if lead is first else first
            return lead if index % 2 == 0 else other

        pending = list(self.pending)
        laid_now: dict[Arrow, int] = {}
        for _ in range(dots(self.setting, cell)):
            arrow = pick(heading.major, laid)
            laid += 1
            pending[arrow] += 1
            laid_now[arrow] = laid_now.get(arrow, 0) + 1
        if heading.minor is not None:
            for _ in range(minor_dots(self.setting, cell)):
                arrow = pick(heading.minor, 0)
                pending[arrow] += 1
                laid_now[arrow] = laid_now.get(arrow, 0) + 1

        displaced: list[Arrow] = []
        major_carry, minor_carry = self.carry
        if not pivoting:
            major_carry += 2 * self.setting * (2 * cell - 1)
            while major_carry >= _UNIT:
                major_carry -= _UNIT
                displaced.append(pick(heading.major, shifted))
                shifted += 1
            if heading.minor is not None:
                minor_carry += self.setting * (2 * cell - 1)
                while minor_carry >= _UNIT:
                    minor_carry -= _UNIT
                    displaced.append(pick(heading.minor, 0))
        fuel = dots(self.setting, cell)
        chart = ThrustChart(
            self.setting, cell, tuple(pending), self.fuel + fuel, (major_carry, minor_carry), (ray, laid, shifted)
        )
        return chart, Burn(cell, tuple(sorted(laid_now.items())), fuel, tuple(displaced))

    def broken(self) -> ThrustChart:
        """The chart after the burn breaks and its vectors are resolved: back to the top, nothing pending."""
        return replace_fields(self, cell=0, pending=(0,) * 8, fuel=0, corner=(-1, 0, 0))
