"""Settings for the whole test suite.

Hypothesis's per-example deadline is a timing assertion: on a loaded machine the
first example of a test (which fills caches) can take longer than 200 ms, and
the test fails for no fault in the code. The suite runs under load in CI, so
no example has a deadline and slow data generation is no failure; a property
either holds or it does not.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("vectorwar", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("vectorwar")
