"""The plot menu's caches: a menu worked out for one hex, turn and vector, moved to another or given another vector,
is the menu worked out there."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex, line_offsets
from vectorwar.systems.vms import courses, planner
from vectorwar.systems.vms.courses import grouped
from vectorwar.systems.vms.movement import Motion, Plot, TurnResult
from vectorwar.systems.vms.rotation import AdvancedRotation
from vectorwar.systems.vms.ships import Design
from vectorwar.vectors import Velocity

from .game_helpers import VMS


def _designs() -> list[Design]:
    found: dict[str, Design] = {}
    for name in ("vms-capital-duel-msc", "vms-fighter-screen-vv5", "vms-mixed-fleet-msc"):
        for ship in Game.new(VMS, builtin_scenario(name), 1).state.ships:
            found.setdefault(ship.design, ship.spec)
    return list(found.values())


def _menu(
    design: Design, motion: Motion, turn: int, lost_thrust: int, before: bool, advanced: bool
) -> list[tuple[Plot, TurnResult]]:
    """The menu as the module's text says it, each candidate given to ``move`` whole: what the caches must give."""
    setting = planner.MenuSetting(design, motion, turn, lost_thrust, before, advanced, 0)
    found = [(plot, result) for plot in setting.candidates() if (result := setting.attempt(plot)) is not None]
    least = min((r.overspeed for _, r in found), default=0)
    return [(p, r) for p, r in found if r.overspeed == least]


DESIGNS = _designs()
PLACES = st.tuples(st.integers(-8, 40), st.integers(-30, 40), st.integers(1, 12))


@settings(max_examples=40, deadline=None)
@given(
    design=st.sampled_from(DESIGNS),
    vector=st.tuples(st.integers(-7, 7), st.integers(-7, 7)),
    facing=st.sampled_from(list(Direction)),
    rotation=st.integers(-1, 1),
    rules=st.tuples(st.integers(0, 4), st.booleans(), st.booleans()),
    places=st.lists(PLACES, min_size=2, max_size=4),
    vectors=st.lists(st.tuples(st.integers(-7, 7), st.integers(-7, 7)), min_size=1, max_size=3),
)
def test_a_menu_is_the_menu_worked_out_plot_by_plot_wherever_and_however_fast_the_ship_is(
    design: Design,
    vector: tuple[int, int],
    facing: Direction,
    rotation: int,
    rules: tuple[int, bool, bool],
    places: list[tuple[int, int, int]],
    vectors: list[tuple[int, int]],
) -> None:
    lost_thrust, before, advanced = rules
    rotation = 0 if design.small_craft or advanced else rotation
    for (q, r, turn), v in [(place, vector) for place in places] + [(places[0], v) for v in vectors]:
        motion = Motion(Hex(q, r), Velocity(*v), facing, rotation, AdvancedRotation())
        menu = planner.legal_plots(design, motion, turn, lost_thrust, before, advanced)
        assert menu == _menu(design, motion, turn, lost_thrust, before, advanced)
        assert all(result.start == motion and result.turn == turn for _, result in menu)


@settings(max_examples=40, deadline=None)
@given(
    design=st.sampled_from(DESIGNS),
    facing=st.sampled_from(list(Direction)),
    turned=st.integers(0, 5),
    rotation=st.integers(-1, 1),
    share=st.floats(0.0, 1.2),
    advanced=st.booleans(),
)
def test_a_menu_under_thrust_lost_is_the_menu_worked_out_plot_by_plot_from_the_whole_thrust_s_table(
    design: Design, facing: Direction, turned: int, rotation: int, share: float, advanced: bool
) -> None:
    """A ship that has lost thrust has its menu's table cut from the whole thrust's kept at its facing or another
    (the candidates its thrust left pays for): the menu, up to all the thrust lost and past it, is the one worked
    out plot by plot with that thrust left."""
    rotation = 0 if design.small_craft or advanced else rotation
    whole = Motion(Hex(5, 6), Velocity(2, -1), facing, rotation, AdvancedRotation())
    assert planner.legal_plots(design, whole, 2, 0, False, advanced) == _menu(design, whole, 2, 0, False, advanced)
    motion = Motion(Hex(8, 3), Velocity(-1, 3), facing.turned(turned), rotation, AdvancedRotation())
    lost_thrust = round(design.thrust * share)
    menu = planner.legal_plots(design, motion, 4, lost_thrust, False, advanced)
    assert menu == _menu(design, motion, 4, lost_thrust, False, advanced)
    setting = planner.MenuSetting(design, motion, 4, lost_thrust, False, advanced, 0)
    table, worked_out = planner.legal_turnings(setting), planner._worked_out_turnings(setting)
    assert [(t, list(t.done.use.hexes.items())) for t in table] == [
        (t, list(t.done.use.hexes.items())) for t in worked_out
    ]


@settings(max_examples=20, deadline=None)
@given(design=st.sampled_from(DESIGNS), facing=st.sampled_from(list(Direction)), pick=st.integers(0, 10_000))
def test_a_plot_of_the_menu_or_its_equal_is_offered_what_it_does_and_no_other_plot_is(
    design: Design, facing: Direction, pick: int
) -> None:
    motion = Motion(Hex(5, 5), Velocity(1, -1), facing, 0, AdvancedRotation())
    menu = planner.legal_plots(design, motion, 2, 0, False, False)
    plot, result = menu[pick % len(menu)]
    assert planner.offered(design, motion, plot, 2, 0, False, False) is result
    # A search reads its candidates back from their text: the equal plot, not the menu's own object.
    equal = Plot(tuple(plot.burns), plot.rotation, plot.flat_turn)
    assert equal is not plot
    assert planner.offered(design, motion, equal, 2, 0, False, False) == result
    assert planner.offered(design, motion, Plot((), 99), 2, 0, False, False) is None  # no such plot in the menu
    assert planner.offered(design, motion, plot, 3, 0, False, False) is None  # no menu worked out for turn 3


@settings(max_examples=30, deadline=None)
@given(
    design=st.sampled_from(DESIGNS),
    facing=st.sampled_from(list(Direction)),
    rotation=st.integers(-1, 1),
    vectors=st.lists(st.tuples(st.integers(-7, 7), st.integers(-7, 7)), min_size=2, max_size=5),
    places=st.lists(PLACES, min_size=1, max_size=2),
)
def test_a_menu_is_grouped_by_course_as_its_own_results_group_it_at_every_vector(
    design: Design,
    facing: Direction,
    rotation: int,
    vectors: list[tuple[int, int]],
    places: list[tuple[int, int, int]],
) -> None:
    """The grouping kept by a menu's plots (a search meets the same plots at many vectors) is the one the menu's
    own results give: by end hex and vector, each course's turnings and facings."""
    rotation = 0 if design.small_craft else rotation
    for (q, r, turn), v in [(place, vector) for place in places for vector in vectors]:
        motion = Motion(Hex(q, r), Velocity(*v), facing, rotation, AdvancedRotation())
        menu = planner.legal_plots(design, motion, turn, 0, False, False)
        if not menu:
            continue
        found = grouped(menu)
        assert (found.courses, found.turned) == courses._grouping(menu)
        for plots in found.courses:
            ends = {(menu[i][1].motion.hex, menu[i][1].motion.velocity) for i in plots.numbers}
            assert len(ends) == 1  # one course: one end hex and vector


@settings(max_examples=30, deadline=None)
@given(
    design=st.sampled_from(DESIGNS),
    rotation=st.integers(-2, 2),
    rules=st.tuples(st.sampled_from([0, 1, 3, 6]), st.booleans(), st.integers(0, 1)),
    spin=st.sampled_from([AdvancedRotation(), AdvancedRotation(1, 0), AdvancedRotation(-1, 1)]),
)
def test_a_facing_s_turnings_turned_from_another_facing_s_are_the_turnings_worked_out_there(
    design: Design, rotation: int, rules: tuple[int, bool, int], spin: AdvancedRotation
) -> None:
    """The table a facing's menus are built from, turned from the one kept for another facing, is the one worked
    out candidate by candidate there: the same candidates in the same order, each push, velocity change and facing
    turned, the thrust's directions listed in the same order."""
    lost_thrust, advanced, limit_lost = rules
    rotation = 0 if design.small_craft or advanced else rotation
    spin = spin if advanced else AdvancedRotation()

    def worked_out(facing: Direction) -> list[planner.Turned]:
        motion = Motion(Hex(3, 4), Velocity(1, -2), facing, rotation, spin)
        return planner._worked_out_turnings(
            planner.MenuSetting(design, motion, 1, lost_thrust, False, advanced, limit_lost)
        )

    def whole(table: list[planner.Turned]) -> list[object]:
        return [(t, list(t.done.use.hexes.items()), list(t.done.use.per_thruster.items())) for t in table]

    tables = {facing: worked_out(facing) for facing in Direction}  # none at all where the thrust lost leaves none
    for was in Direction:
        for k in range(1, 6):
            assert whole(planner._turned_table(tables[was], k)) == whole(tables[was.turned(k)])


@settings(max_examples=200, deadline=None)
@given(
    start=st.tuples(st.integers(-300, 300), st.integers(-300, 300)),
    offset=st.tuples(st.integers(-12, 12), st.integers(-12, 12)),
)
def test_a_path_is_the_line_from_its_start_each_hex_the_one_kept_for_it(
    start: tuple[int, int], offset: tuple[int, int]
) -> None:
    """A menu's path (its start's number plus each step's, the hexes looked up in one shared table, a new one made on
    its first look-up) is ``line_to``'s first hex of each step, negative rows and columns included, and each hex is
    the one object :func:`planner._hex` hands out for it."""
    q, r = start
    path = planner._path(Hex(q, r), offset)
    assert path == tuple(Hex(q + step[0][0], r + step[0][1]) for step in line_offsets(*offset))
    assert all(h is planner._hex(h.q, h.r) for h in path)
