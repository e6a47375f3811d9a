"""Write src/vectorwar/systems/avt/hull_tables.py: the built-in AV:T designs' losses inside the hull, worked out ahead.

Run from the repository root after changing a built-in design's hit location tables, hull depths, armour or
structure track, or the recursion in ``prospects._losses_inside``::

    PYTHONPATH=src python tools/avt_hull_tables.py

tests/avt/test_prospects.py works the tables out again and fails while the module differs from them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from vectorwar.systems.avt import catalogue
from vectorwar.systems.avt.prospects import hull_tables_for

TARGET = Path(__file__).resolve().parents[1] / "src" / "vectorwar" / "systems" / "avt" / "hull_tables.py"

HEAD = '''"""The built-in AV:T designs' losses inside the hull, worked out ahead: generated, do not edit.

The search bot's judge (:func:`.prospects.inside`) reads what a pool of points that got past a region's skin is
expected to cost: an exact recursion over some thousands of states for each region. For the built-in designs
the answers are kept here, so a process does not work them out again: by :func:`.prospects.hull_key` (a digest
of what the recursion reads), the loss for 0, 1, 2 ... points, each number as Python writes it (``repr``,
which reads back to the same float). Any other design's are worked out when first asked.

Rebuild with ``PYTHONPATH=src python tools/avt_hull_tables.py``; tests/avt/test_prospects.py works the tables
out again and fails while they differ.
"""

from __future__ import annotations

__all__ = ["table"]

_TEXT: dict[str, str] = {
'''

TAIL = '''}


def table(key: str) -> tuple[float, ...] | None:
    """The losses for 0, 1, 2 ... points kept under ``key``, or ``None``."""
    text = _TEXT.get(key)
    return None if text is None else tuple(map(float, text.split()))
'''


def render() -> str:
    entries = []
    for key, losses in hull_tables_for(catalogue.designs()).items():
        lines = textwrap.wrap(" ".join(repr(x) for x in losses), 110)
        entries.append(f'    "{key}": """\n' + "\n".join(lines) + '\n""",\n')
    return HEAD + "".join(entries) + TAIL


def main() -> None:
    TARGET.write_text(render(), encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
