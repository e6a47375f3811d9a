"""vectorwar: tactical starship combat on hex maps, four rule systems on one kernel.

The kernel: :mod:`vectorwar.hexes` (hex geometry, bearings, arcs),
:mod:`vectorwar.vectors` (velocities), :mod:`vectorwar.dice` (seeded dice),
:mod:`vectorwar.game` (the turn engine), :mod:`vectorwar.rules` (the plug-in
contract), :mod:`vectorwar.savefile` (save, load, replay). Rule systems live
in :mod:`vectorwar.systems` and register through entry points.
"""

__version__ = "0.1.0"
