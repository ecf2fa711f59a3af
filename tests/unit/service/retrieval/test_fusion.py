"""Fusion by score: the cosine and BM25 from their natural zeros, mixed by `dense_share`."""

from __future__ import annotations

from itertools import pairwise
from uuid import UUID, uuid4

import pytest
from hypothesis import given, strategies as st

from memlane.domain.errors import InvalidTuning
from memlane.domain.policy import RecallTuning
from memlane.service.retrieval.candidates import Rankings
from memlane.service.retrieval.demotion import Demotion
from memlane.service.retrieval.fusion import Fusion, fused_by_score, fused_scores
from memlane.service.retrieval.opening import SearchCut
from memlane.service.retrieval.pipeline import Pipeline
from tests.unit.service.retrieval.stage_builders import hit, request

TUNING = RecallTuning()  # by score, dense_share 0.6, floor 0.0
TOP = (TUNING.dense_weight + TUNING.lexical_weight) / (TUNING.rrf_k + 1)


def fuse(
    cosines: dict[UUID, float], bm25: dict[UUID, float], floor: float = 0.0,
    more: tuple[tuple[float, list[UUID]], ...] = (),
) -> dict[UUID, float]:
    return fused_by_score(cosines, bm25, dense_share=0.6, dense_floor=floor, top=TOP,
                       rrf_k=10, more=more)


def test_each_score_is_its_share_of_the_cosine_and_bm25_from_their_zeros() -> None:
    a, b, c = uuid4(), uuid4(), uuid4()
    scores = fuse({a: 0.9, b: 0.85, c: 0.75}, {b: 6.0, c: 3.0}, floor=0.7)
    assert scores[a] == pytest.approx(TOP * 0.6)  # the best cosine, no shared word
    assert scores[b] == pytest.approx(TOP * (0.6 * 0.75 + 0.4))
    assert scores[c] == pytest.approx(TOP * (0.6 * 0.25 + 0.4 * 0.5))
    assert list(scores) == [b, a, c]


def test_a_memory_first_in_both_gets_the_match_it_gets_by_rank() -> None:
    first, second = uuid4(), uuid4()
    by_score = fuse({first: 0.9, second: 0.5}, {first: 4.0, second: 1.0})
    by_rank = fused_scores([first, second], [first, second], k=10, dense_weight=1.0,
                           lexical_weight=2.0)
    assert by_score[first] == pytest.approx(by_rank[first])


def test_scores_keep_the_gaps_that_ranks_lose() -> None:
    """A turn far ahead on its cosine, with a few words less, beats the one next in both
    lists; by rank the order is the other way round."""
    clear, close = uuid4(), uuid4()
    cosines, bm25 = {clear: 0.9, close: 0.2}, {close: 5.0, clear: 4.8}
    assert list(fuse(cosines, bm25)) == [clear, close]
    assert list(fused_scores([clear, close], [close, clear], k=10, dense_weight=1.0,
                             lexical_weight=2.0)) == [close, clear]


def test_the_last_memory_found_keeps_a_match_above_zero() -> None:
    """Min-max over the found would give the worst found 0 on both scales, and a memory it
    replaced could no longer be put below it."""
    new, old = uuid4(), uuid4()
    scores = fuse({new: 0.8, old: 0.9}, {new: 1.0, old: 2.0}, floor=0.7)
    assert scores[new] > 0.0 and scores[old] > scores[new]


def test_nothing_above_the_floor_or_no_vector_leaves_the_cosines_out_of_the_order() -> None:
    a, b = uuid4(), uuid4()
    assert list(fuse({a: 0.0, b: 0.0}, {b: 2.0})) == [b, a]
    assert list(fuse({a: 0.5, b: 0.6}, {a: 2.0}, floor=0.7)) == [a, b]
    assert fuse({}, {}) == {}


def test_more_rankings_add_their_reciprocal_ranks() -> None:
    a, b = uuid4(), uuid4()
    plain = fuse({a: 0.9, b: 0.8}, {})
    named = fuse({a: 0.9, b: 0.8}, {}, more=((1.0, [b]),))
    assert named[b] == pytest.approx(plain[b] + 1.0 / 11)
    assert named[a] == pytest.approx(plain[a])


@given(st.lists(st.tuples(st.floats(-1, 1), st.floats(0, 50)), min_size=1, max_size=30),
       st.floats(-1, 0.99))
def test_every_score_lies_between_zero_and_the_top(
    pairs: list[tuple[float, float]], floor: float
) -> None:
    ids = [uuid4() for _ in pairs]
    cosines = {i: cos for i, (cos, _) in zip(ids, pairs, strict=True)}
    bm25 = {i: score for i, (_, score) in zip(ids, pairs, strict=True) if score > 0}
    scores = fuse(cosines, bm25, floor=floor)
    assert set(scores) == set(ids)
    assert all(-1e-12 <= s <= TOP + 1e-12 for s in scores.values())
    # Among memories without a shared word, a higher cosine never scores lower (those under
    # the floor tie at 0).
    wordless = sorted((i for i in ids if i not in bm25), key=lambda i: -cosines[i])
    assert all(scores[a] >= scores[b] for a, b in pairwise(wordless))


async def test_the_stage_fuses_by_score_and_a_replacement_found_last_still_leads() -> None:
    porto = hit(0.76)
    lisbon = hit(0.8, superseded_by=porto.id)
    r = request(places=2)
    r.rankings = Rankings(dense=[lisbon, porto], lexical=[],
                          similarities={lisbon.id: 0.8, porto.id: 0.76})
    await Pipeline([Fusion(RecallTuning(dense_floor=0.73), 0.0), Demotion(), SearchCut()]).run(r)
    assert [c.id for c in r.chosen] == [porto.id, lisbon.id]
    assert all(c.match > 0 for c in r.chosen)


@pytest.mark.parametrize(("field", "value"), [
    ("fusion", "borda"), ("dense_share", 1.5), ("dense_share", -0.1), ("dense_floor", 1.0),
])
def test_tuning_refuses_what_fusion_cannot_use(field: str, value: object) -> None:
    with pytest.raises(InvalidTuning, match=field):
        RecallTuning(**{field: value})  # type: ignore[arg-type]
