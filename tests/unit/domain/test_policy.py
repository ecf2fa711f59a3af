"""MemoryPolicy: the seed's defaults, and invalid values rejected at construction."""

from __future__ import annotations

import math
from typing import Any

import pytest

from memlane.domain.memories.decay import base_rate_per_day
from memlane.domain.policy import MemoryPolicy
from memlane.domain.retrieval.scoring import RelevanceWeights


def test_defaults_are_the_seeds_memory_settings() -> None:
    policy = MemoryPolicy()
    assert policy.rag_limit == 5
    assert policy.rag_threshold == 0.25
    assert policy.merge_threshold == 0.85
    assert policy.min_importance == 0.1
    assert policy.decay_factor == 0.95
    assert policy.context_char_budget == 2000
    assert policy.min_learn_chars == 20
    assert policy.weights == RelevanceWeights()


def test_the_base_rate_follows_the_decay_factor() -> None:
    assert MemoryPolicy(decay_factor=0.9).base_rate == base_rate_per_day(0.9)


@pytest.mark.parametrize(
    "bad",
    [
        {"rag_limit": 0},
        {"rag_threshold": 1.5},
        {"rag_threshold": math.nan},
        {"merge_threshold": -1.01},
        {"min_importance": -0.1},
        {"min_importance": 1.1},
        {"min_importance": math.nan},
        {"decay_factor": 0.0},
        {"decay_factor": 1.5},
        {"context_char_budget": -1},
        {"max_content_bytes": 0},
        {"min_learn_chars": -1},
    ],
)
def test_an_invalid_value_is_rejected(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        MemoryPolicy(**bad)


def test_boundary_values_are_accepted() -> None:
    policy = MemoryPolicy(
        rag_limit=1,
        rag_threshold=-1.0,
        merge_threshold=1.0,
        min_importance=0.0,
        decay_factor=1.0,
        context_char_budget=0,
        min_learn_chars=0,
    )
    assert policy.base_rate == 0.0
