"""service.vectors.cosines: the domain's cosine, many vectors at once."""

from __future__ import annotations

import math

from hypothesis import given, strategies as st

from memlane.domain.vectors import cosine
from memlane.service.memories.vectors import cosines

finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)


@given(
    st.lists(finite, min_size=1, max_size=8).flatmap(
        lambda q: st.tuples(
            st.just(q),
            st.lists(st.lists(finite, min_size=len(q), max_size=len(q)), max_size=6),
        )
    )
)
def test_each_value_is_the_domain_cosine(case: tuple[list[float], list[list[float]]]) -> None:
    query, vectors = case
    for got, vector in zip(cosines(query, vectors), vectors, strict=True):
        assert math.isclose(got, cosine(query, vector), rel_tol=1e-9, abs_tol=1e-9)


def test_zero_vectors_and_other_sizes_give_zero_and_keep_their_places() -> None:
    assert cosines([1.0, 0.0], [[0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0], [0.0, 3.0]]) == [
        0.0, 0.0, 1.0, 0.0,
    ]
    assert cosines([1.0, 0.0], []) == []
