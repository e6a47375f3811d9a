"""Settings for the whole test suite.

Hypothesis's per-example deadline is a timing assertion: on a loaded machine the
first example of a test (which fills caches) can take longer than 200 ms, and
the test fails for no fault in the code. The suite runs under load in CI, so
no example has a deadline and slow data generation is no failure; a property
either holds or it does not.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings

from tests.support import fifth
from vectorwar import registry

settings.register_profile("vectorwar", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("vectorwar")

# The fifth rule system that ships with the tests only (tests/support/fifth): every test session
# registers it, and names it in VECTORWAR_EXTRA_SYSTEMS so a `vectorwar serve` subprocess (the
# browser tests) loads it too, with the repository on its path to import it from.
FIFTH = "tests.support.fifth:system"
ROOT = str(Path(__file__).resolve().parents[1])
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH", "")]))
os.environ[registry.EXTRA] = ",".join(filter(None, [os.environ.get(registry.EXTRA, ""), FIFTH]))
registry.register(fifth.system)

# The server's work budgets are wall-clock seconds, and a loaded CI machine can starve a thread of the
# CPU for longer than the budget of an ordinary request: the suite's servers, in process and the
# browser tests' subprocesses alike, get ten times the time. The tests of the budgets set their own.
os.environ.setdefault("VECTORWAR_BUDGET_SCALE", "10")
