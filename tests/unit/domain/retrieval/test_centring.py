"""Centring a question: the centre is the mean of the vectors, the centred question a unit
vector that ranks memories as m.q - w*(m.c) does."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from memlane.domain.retrieval.centring import CENTRE_TEXTS, centred, mean_vector
from memlane.domain.retrieval.language import PARALLEL


def _unit(vector: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


def test_the_centre_is_the_mean_and_keeps_its_length() -> None:
    assert mean_vector([[1.0, 0.0], [0.0, 1.0]]) == pytest.approx((0.5, 0.5))
    with pytest.raises(ValueError, match="at least one"):
        mean_vector([])


def test_the_centre_texts_are_the_parallel_sentences_in_both_languages_alike() -> None:
    english = {e for e, _ in PARALLEL}
    german = {g for _, g in PARALLEL}
    assert set(CENTRE_TEXTS) == english | german
    assert len(CENTRE_TEXTS) == 2 * len(PARALLEL)


def test_a_centred_question_is_a_unit_vector_without_the_share_of_the_centre() -> None:
    question = _unit([1.0, 1.0])
    moved = centred(question, (1.0, 0.0), 0.5)
    assert math.fsum(x * x for x in moved) == pytest.approx(1.0)
    assert moved == pytest.approx(_unit([question[0] - 0.5, question[1]]))


@pytest.mark.parametrize(
    ("centre", "weight"), [((1.0, 0.0), 0.0), ((1.0, 0.0, 0.0), 0.5)],
    ids=["weight 0", "sizes differ"],
)
def test_the_question_stays_as_embedded_without_a_weight_or_with_another_size(
    centre: tuple[float, ...], weight: float
) -> None:
    question = _unit([1.0, 2.0])
    assert centred(question, centre, weight) is question


def test_nothing_left_after_centring_leaves_the_question() -> None:
    question = [1.0, 0.0]
    assert centred(question, (1.0, 0.0), 1.0) is question


_VALUES = st.floats(-1.0, 1.0, allow_nan=False)
_VECTOR = st.lists(_VALUES, min_size=4, max_size=4).filter(
    lambda v: math.fsum(x * x for x in v) > 1e-3)


@given(question=_VECTOR, centre=_VECTOR, first=_VECTOR, second=_VECTOR,
       weight=st.floats(0.05, 0.95))
def test_memories_rank_by_their_cosine_less_the_weighted_centre(
    question: list[float], centre: list[float], first: list[float], second: list[float],
    weight: float,
) -> None:
    q, a, b = _unit(question), _unit(first), _unit(second)
    moved = centred(q, centre, weight)
    if moved is q:  # nothing left: compared as embedded
        return
    by_centred = sum(x * y for x, y in zip(moved, a, strict=True)) - sum(
        x * y for x, y in zip(moved, b, strict=True))
    by_formula = (sum(x * y for x, y in zip(q, a, strict=True))
                  - weight * sum(x * y for x, y in zip(centre, a, strict=True))) - (
        sum(x * y for x, y in zip(q, b, strict=True))
        - weight * sum(x * y for x, y in zip(centre, b, strict=True)))
    # Both differences have the same sign: the centred cosine is the formula over |q - w*c|.
    if abs(by_formula) > 1e-9:
        assert (by_centred > 0) == (by_formula > 0)
