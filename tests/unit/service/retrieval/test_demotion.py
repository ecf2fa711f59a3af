"""Search orders by `score`: the fused match, recomputed here, with superseded memories demoted."""

from __future__ import annotations

from uuid import UUID, uuid4

from hypothesis import given, strategies as st

from memlane.domain.policy import RecallTuning
from memlane.domain.retrieval.demotion import BELOW_REPLACEMENT, SUPERSEDED_SHARE, demoted
from memlane.service.retrieval.candidates import Rankings
from memlane.service.retrieval.conversation_prior import ConversationPrior
from memlane.service.retrieval.demotion import Demotion
from memlane.service.retrieval.fusion import Fusion
from memlane.service.retrieval.opening import SearchCut
from memlane.service.retrieval.pipeline import Pipeline
from tests.unit.service.retrieval.stage_builders import hit, request

# By rank, so the fusion can be written out (k 10, dense 1.0, lexical 2.0, prior 0.5 over 3).
TUNING = RecallTuning(fusion="rank")


def rrf(dense_rank: int | None, lexical_rank: int | None) -> float:
    """Weighted reciprocal-rank fusion, written out: weight / (k + rank) per ranking."""
    k = TUNING.rrf_k
    return sum(weight / (k + rank) for weight, rank in (
        (TUNING.dense_weight, dense_rank), (TUNING.lexical_weight, lexical_rank),
    ) if rank is not None)


async def test_each_result_carries_the_fused_score_that_orders_it_demotion_included() -> None:
    porto = hit(0.6)
    lisbon = hit(0.8, superseded_by=porto.id)  # the old home: first in both rankings
    tea = hit(0.3)
    r = request(places=3)
    r.rankings = Rankings(dense=[lisbon, porto, tea], lexical=[lisbon, porto],
                          similarities={lisbon.id: 0.8, porto.id: 0.6, tea.id: 0.3})
    await Pipeline([Fusion(TUNING, 0.0), ConversationPrior(TUNING), Demotion(), SearchCut()]).run(r)
    raw = {lisbon.id: rrf(1, 1), porto.id: rrf(2, 2), tea.id: rrf(3, None)}
    assert raw[lisbon.id] > raw[porto.id]  # it would come first on its own
    # Each memory is a conversation of one: raised by 0.5 x its score over the best's.
    best = max(raw.values())
    prior = {i: s * (1 + TUNING.conversation_weight * s / best) for i, s in raw.items()}
    expected = {
        porto.id: prior[porto.id], tea.id: prior[tea.id],
        lisbon.id: min(prior[lisbon.id] * SUPERSEDED_SHARE,
                       prior[porto.id] * BELOW_REPLACEMENT),
    }
    assert [c.id for c in r.chosen] == sorted(expected, key=lambda i: -expected[i])
    assert [c.id for c in r.chosen][:2] == [porto.id, lisbon.id]
    assert {c.id: c.match for c in r.chosen} == expected


async def test_current_keeps_what_holds_and_a_replacement_not_found_pulls_nothing_out() -> None:
    newer = uuid4()
    old, other = hit(0.9, superseded_by=newer), hit(0.5)
    r = request()
    r.rankings = Rankings(dense=[old, other], similarities={old.id: 0.9, other.id: 0.5})
    await Pipeline([Fusion(TUNING, 0.0), Demotion(), SearchCut()]).run(r)
    assert {c.id for c in r.chosen} == {old.id, other.id}  # shown, marked, not pulled out
    held = request()
    held.current = True
    held.rankings = r.rankings
    await Pipeline([Fusion(TUNING, 0.0), Demotion(), SearchCut()]).run(held)
    assert [c.id for c in held.chosen] == [other.id]


ids = st.builds(uuid4)


def on_a_cycle(memory_id: UUID, replaced: dict[UUID, UUID | None]) -> bool:
    """Whether following replacements from `memory_id` comes back to it (no order can put
    each below the next then; storage never makes one: a replacing memory is current)."""
    seen, at = set(), replaced.get(memory_id)
    while at is not None and at not in seen:
        if at == memory_id:
            return True
        seen.add(at)
        at = replaced.get(at)
    return False


@given(st.dictionaries(ids, st.floats(0.001, 10.0), min_size=1, max_size=8), st.data())
def test_a_superseded_memory_never_outranks_its_replacement(
    scores: dict[UUID, float], data: st.DataObject
) -> None:
    found = list(scores)
    replaced = {
        old: data.draw(st.sampled_from([*found, None]))
        for old in data.draw(st.lists(st.sampled_from(found), unique=True))
    }
    final = demoted(scores, replaced)
    for memory_id, score in final.items():
        if memory_id not in replaced:
            assert score == scores[memory_id]
            continue
        assert score <= scores[memory_id] * SUPERSEDED_SHARE
        newer = replaced[memory_id]
        if newer is not None and newer in scores and not on_a_cycle(memory_id, replaced):
            assert score < final[newer]
