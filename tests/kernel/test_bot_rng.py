"""A bot's random source, seeded at its first draw, draws exactly what ``random.Random(text)`` draws."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from vectorwar.play import SeededOnUse, bot_rng

# Each step: a draw of the random.Random API, by name and argument.
_STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("choice"), st.integers(1, 4)),
        st.tuples(st.just("randint"), st.integers(0, 3)),
        st.tuples(st.just("random"), st.just(0)),
        st.tuples(st.just("getrandbits"), st.integers(1, 70)),
        st.tuples(st.just("sample"), st.integers(1, 5)),
        st.tuples(st.just("shuffle"), st.integers(0, 5)),
        st.tuples(st.just("gauss"), st.just(0)),
    ),
    max_size=12,
)


def _draw(rng: random.Random, name: str, n: int) -> Any:
    if name == "choice":
        return rng.choice(list(range(n)))
    if name == "randint":
        return rng.randint(5, 5 + n)  # randint(5, 5) is a choice among one
    if name == "random":
        return rng.random()
    if name == "getrandbits":
        return rng.getrandbits(n)
    if name == "sample":
        return rng.sample(range(n), 1)
    if name == "shuffle":
        items = list(range(n))
        rng.shuffle(items)
        return items
    return rng.gauss(0.0, 1.0)


@given(steps=_STEPS, text=st.text(max_size=12))
def test_draws_as_random_seeded_from_the_same_text(steps: list[tuple[str, int]], text: str) -> None:
    lazy, eager = SeededOnUse(text), random.Random(text)
    assert [_draw(lazy, name, n) for name, n in steps] == [_draw(eager, name, n) for name, n in steps]
    assert lazy.getstate() == eager.getstate()  # the choices among one were made too, in their place


def test_a_choice_among_one_seeds_nothing_but_is_owed() -> None:
    rng = bot_rng(7, "red", 3)
    assert rng.choice(["only"]) == "only"
    assert rng.choice(["only"]) == "only"
    assert type(rng) is SeededOnUse  # nothing drawn yet
    eager = random.Random("bot:7:red:3")
    eager.choice(["only"])
    eager.choice(["only"])
    assert rng.choice([1, 2, 3, 4, 5, 6, 7]) == eager.choice([1, 2, 3, 4, 5, 6, 7])
    assert type(rng) is random.Random
    assert rng.getstate() == eager.getstate()


def test_copies_pickles_and_reseeding_act_as_on_random() -> None:
    rng = SeededOnUse("x")
    rng.choice([0])
    twin = copy.deepcopy(rng)
    restored = pickle.loads(pickle.dumps(rng))
    eager = random.Random("x")
    eager.choice([0])
    assert twin.random() == restored.random() == rng.random() == eager.random()
    reseeded = SeededOnUse("x")
    reseeded.seed(5)
    assert reseeded.random() == random.Random(5).random()
    state = random.Random(9).getstate()
    restated = SeededOnUse("x")
    restated.setstate(state)
    assert restated.random() == random.Random(9).random()
