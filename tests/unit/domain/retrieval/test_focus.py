"""Distance from focus (RMG decision 8): the boost by hops, and a resumed memory's match."""

from __future__ import annotations

import pytest

from memlane.domain.retrieval import focus_factor, resumed_match


def test_a_focus_memory_gets_the_weight_and_each_hop_halves_it() -> None:
    assert [focus_factor(h, 0.2) for h in (0, 1, 2)] == pytest.approx([1.2, 1.1, 1.05])


@pytest.mark.parametrize(("hops", "weight"), [(None, 0.2), (0, 0.0), (-1, 0.2)])
def test_out_of_reach_or_no_weight_leaves_the_match(hops: int | None, weight: float) -> None:
    assert focus_factor(hops, weight) == 1.0


def test_a_resumed_memory_enters_at_its_share_of_the_best_match_in_focus_order() -> None:
    matches = [resumed_match(0.8, 0.5, rank) for rank in range(3)]
    assert matches[0] == pytest.approx(0.4)
    assert matches == sorted(matches, reverse=True)
