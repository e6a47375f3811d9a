"""Which armour region incoming damage strikes (A5.42-A5.434).

The target marks the window it sees the firer through with an "I"
(bearings are reciprocal, A5.42). That window, seen from inside the ship,
is a window of the ship-fixed sphere (the same mapping as a firing arc,
:func:`.arcs.map_to_arc`), and each of those windows lies in one of the 30
armour regions: every face (Nose, Aft, Port, Starboard, Top, Bottom) has a
centre region, struck through the window its symbol is in, and a region one
window off it toward each of its four neighbours (A5.43). The excerpt's
armour diagram is missing, so the windows between are placed by counting
windows the way the tutorial does (docs/rulings/avt.md, *AV:T armour regions*):

* the middle row and the blue rows hold each face's centre, its one-off
  regions, and between two of them (a window diagonal to two one-off
  regions, such as one up and to port of the Nose) a boundary, where the
  attacker chooses (A5.431);
* the green rows are the Top's and Bottom's one-off regions: a green window
  over the Nose or Aft is that one, the two over each side are the side's;
* the purple windows are the Top and Bottom centres.

The text's 36-point example: a Rafik facing A/B hit from A upper blue takes
it one window up and to port of the Nose, on the boundary of the region
above the Nose and the one to its port:

>>> from vectorwar.systems.avt.avid import Window
>>> from vectorwar.systems.avt.orientation import Orientation
>>> struck(Orientation.level(1), Window.parse("A+"), three_d=True)
('nose-top', 'nose-port')
>>> struck(Orientation.level(0), Window.parse("A-"), three_d=True)
('nose-bottom',)
"""

from __future__ import annotations

from vectorwar.memo import Kept
from vectorwar.systems.avt.arcs import ArcWindow, map_to_arc, middle_row
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.design import Face
from vectorwar.systems.avt.orientation import Orientation, orientation_number

#: The middle row's windows by clock hour from the Nose (0): the faces in it and their one-off regions.
_MIDDLE: tuple[str, ...] = (
    "nose",
    "nose-starboard",
    "starboard-nose",
    "starboard",
    "starboard-aft",
    "aft-starboard",
    "aft",
    "aft-port",
    "port-aft",
    "port",
    "port-nose",
    "nose-port",
)
_AXES: dict[int, Face] = {0: "nose", 3: "starboard", 6: "aft", 9: "port"}
_GREEN: dict[int, str] = {0: "nose", 2: "starboard", 4: "starboard", 6: "aft", 8: "port", 10: "port"}


def regions_of(window: ArcWindow) -> tuple[str, ...]:
    """The armour region(s) of one window of the ship-fixed sphere (two on a boundary).

    >>> regions_of(ArcWindow.parse("12")), regions_of(ArcWindow.parse("1+")), regions_of(ArcWindow.parse("2++"))
    (('nose',), ('nose-top', 'nose-starboard'), ('top-starboard',))
    """
    level, ray = window.level, window.ray
    pole = "top" if level > 0 else "bottom"
    if level == 0:
        return (_MIDDLE[ray],)
    if abs(level) == 3:
        return (pole,)
    if abs(level) == 2:
        return (f"{pole}-{_GREEN[ray]}",)
    if ray in _AXES:
        return (f"{_AXES[ray]}-{pole}",)
    axis = ray + 1 if (ray + 1) % 12 in _AXES else ray - 1
    return (f"{_AXES[axis % 12]}-{pole}", _MIDDLE[ray])


def struck(orientation: Orientation, incoming: Window, three_d: bool) -> tuple[str, ...]:
    """The region(s) damage coming in through AVID window ``incoming`` may strike, boundaries included: kept by
    plain numbers, every shot weighed and every volley in prospect asks it."""
    key = (orientation_number(orientation), incoming.level, incoming.ray, three_d)
    found = _STRUCK.get(key)
    if found is None:
        found = _STRUCK.keep(key, _struck(orientation, incoming, three_d))
    return found


_STRUCK_KEPT = 65_536
#: :func:`struck` by the orientation's number, the window's level and ray and whether altitude is on (at most some
#: 60,000 answers: 600 orientations by 50 windows, either way).
_STRUCK: Kept[tuple[int, int, int, bool], tuple[str, ...]] = Kept(_STRUCK_KEPT)


def _struck(orientation: Orientation, incoming: Window, three_d: bool) -> tuple[str, ...]:
    windows = map_to_arc(orientation, incoming) if three_d else (middle_row(orientation, incoming),)
    out: list[str] = []
    for w in windows:
        for region in regions_of(w):
            if region not in out:
                out.append(region)
    return tuple(out)


OPPOSITE_FACE: dict[str, Face] = {
    "nose": "aft",
    "aft": "nose",
    "port": "starboard",
    "starboard": "port",
    "top": "bottom",
    "bottom": "top",
}


def far_side(region: str) -> str:
    """The region straight through the ship from ``region``, where damage that exits leaves (A5.46).

    >>> far_side("nose-bottom"), far_side("port"), far_side("top-starboard")
    ('aft-top', 'starboard', 'bottom-port')
    """
    return "-".join(OPPOSITE_FACE[part] for part in region.split("-"))
