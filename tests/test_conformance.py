"""The conformance kit over every registered rule system."""

from __future__ import annotations

import pytest

from vectorwar.conformance import check_system
from vectorwar.registry import systems


@pytest.mark.parametrize("name", list(systems()))
def test_every_system_conforms(name: str) -> None:
    reports = check_system(name, seeds=(0, 1))
    assert reports
    assert all(r.orders > 0 and r.rolls > 0 for r in reports)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(systems()))
def test_every_system_conforms_over_many_seeds(name: str) -> None:
    reports = check_system(name, seeds=range(2, 12))
    assert len({r.winners for r in reports}) > 1  # random games do not all end alike
