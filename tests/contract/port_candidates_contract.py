"""MemoryPorts contract, lean candidate reads: ids, scores and heat as ranking needs them."""

from __future__ import annotations

import math

import pytest

from memlane.domain.model import Heat, MemoryType, Owner, SearchCandidate, StoredMemory
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, at_cosine, axis, insert, minutes, stored


def assert_candidate_of(candidate: SearchCandidate, row: StoredMemory) -> None:
    assert candidate.id == row.id
    assert candidate.memory_type == row.memory_type
    assert candidate.heat == row.heat
    assert candidate.created_at == row.created_at
    assert candidate.conversation_id == row.conversation_id


class PortCandidatesContract:
    """`*_candidates` carry what ranking reads; `similarities` scores given ids by cosine."""

    async def test_dense_candidates_carry_type_heat_and_conversation_best_first(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        heat = Heat(base_importance=0.7, access_count=3, accessed_at=T0 + minutes(5))
        rows = [
            stored(owner, embedding=at_cosine(dimension, 0.2)),
            stored(owner, embedding=at_cosine(dimension, 0.8), heat=heat, importance=0.7,
                   memory_type=MemoryType.PREFERENCE, conversation_id="c"),
            stored(owner, embedding=at_cosine(dimension, 0.5)),
        ]
        await insert(ports.store, *rows, stored(owner, embedding=None))
        found = await ports.search.dense_candidates(owner, axis(dimension, 0), 10, 0.3)
        assert [c.score for c in found] == pytest.approx([0.8, 0.5], abs=1e-5)
        assert_candidate_of(found[0], rows[1])
        assert_candidate_of(found[1], rows[2])
        top = await ports.search.dense_candidates(owner, axis(dimension, 0), 2)
        assert [c.id for c in top] == [rows[1].id, rows[2].id]

    async def test_dense_candidates_written_within_a_time_leave_the_rest_out(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        rows = [
            stored(owner, embedding=at_cosine(dimension, 0.9), created_at=T0),
            stored(owner, embedding=at_cosine(dimension, 0.5), created_at=T0 + minutes(60)),
            stored(owner, embedding=at_cosine(dimension, 0.4), created_at=T0 + minutes(120)),
            stored(owner, embedding=at_cosine(dimension, 0.8), created_at=T0 + minutes(180)),
        ]
        await insert(ports.store, *rows)
        within = (T0 + minutes(60), T0 + minutes(120))
        found = await ports.search.dense_candidates(owner, axis(dimension, 0), 10, written=within)
        assert [c.id for c in found] == [rows[1].id, rows[2].id]
        assert_candidate_of(found[0], rows[1])
        top = await ports.search.dense_candidates(owner, axis(dimension, 0), 1, 0.45, within)
        assert [c.id for c in top] == [rows[1].id]

    async def test_dense_candidates_with_equal_scores_are_ordered_by_id(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        # Which of several ties a limit cuts is unspecified (an index returns any of them).
        twins = [stored(owner, embedding=axis(dimension, 0)) for _ in range(4)]
        await insert(ports.store, *twins, stored(owner, embedding=axis(dimension, 1)))
        found = await ports.search.dense_candidates(owner, axis(dimension, 0), 4)
        assert [c.id for c in found] == sorted(r.id for r in twins)

    async def test_lexical_candidates_carry_their_heat_and_exact_bm25_scores(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        both = stored(owner, keywords=("h-coffee", "h-morning"), conversation_id="talk",
                      memory_type=MemoryType.PREFERENCE,
                      heat=Heat(0.7, 2, T0 + minutes(3)), importance=0.7)
        one = stored(owner, keywords=("h-coffee", "h-tea"))
        await insert(ports.store, one, both, stored(owner, keywords=("h-tea",)))
        found = await ports.search.lexical_candidates(owner, ["h-coffee", "h-morning"], 10)
        assert [c.id for c in found] == [both.id, one.id]
        # BM25 (k1 1.2, b 0.75): 3 memories, 5 distinct terms in all; each match has tf 1
        # in a memory of 2 terms; "h-coffee" is in 2 memories, "h-morning" in 1.
        saturation = 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / (5 / 3)))
        coffee, morning = math.log(1 + 1.5 / 2.5), math.log(1 + 2.5 / 1.5)
        expected = [(coffee + morning) * saturation, coffee * saturation]
        assert [c.score for c in found] == pytest.approx(expected, rel=1e-6)
        assert_candidate_of(found[0], both)
        assert_candidate_of(found[1], one)
        assert await ports.search.lexical_candidates(owner, ["h-absent"], 10) == []
        assert await ports.search.lexical_candidates(owner, [], 10) == []
        assert await ports.search.lexical_candidates(owner, [""], 10) == []

    async def test_neighbour_candidates_are_the_neighbours_scored_by_cosine_to_the_query(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        chain = [
            stored(owner, conversation_id="c", created_at=T0 + minutes(i),
                   embedding=at_cosine(dimension, 0.1 * i))
            for i in range(5)
        ]
        chain.append(stored(owner, conversation_id="c", created_at=T0 + minutes(9)))
        await insert(ports.store, *chain)
        found = await ports.search.neighbour_candidates(
            owner, [chain[4].id], 1, axis(dimension, 0)
        )
        by_id = {c.id: c for c in found}
        assert set(by_id) == {chain[3].id, chain[5].id}
        assert by_id[chain[3].id].score == pytest.approx(0.3, abs=1e-5)
        assert by_id[chain[5].id].score == 0.0  # no embedding
        assert_candidate_of(by_id[chain[3].id], chain[3])
        blind = await ports.search.neighbour_candidates(owner, [chain[2].id], 2, None)
        assert {c.id for c in blind} == {chain[i].id for i in (0, 1, 3, 4)}
        assert {c.score for c in blind} == {0.0}

    async def test_similarities_are_cosines_of_the_owners_memories_only(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        near = stored(owner, embedding=at_cosine(dimension, 0.6))
        bare = stored(owner, embedding=None)
        stranger = Owner(owner.tenant, owner.user_id + "-other")
        theirs = stored(stranger, embedding=axis(dimension, 0))
        await insert(ports.store, near, bare, theirs)
        found = await ports.search.similarities(
            owner, [near.id, bare.id, theirs.id], axis(dimension, 0)
        )
        assert found == {near.id: pytest.approx(0.6, abs=1e-5), bare.id: 0.0}
        assert await ports.search.similarities(owner, [], axis(dimension, 0)) == {}

    async def test_similarities_to_several_vectors_are_each_vectors_similarities_exactly(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        near = stored(owner, embedding=at_cosine(dimension, 0.6))
        far = stored(owner, embedding=at_cosine(dimension, -0.3))
        bare = stored(owner, embedding=None)
        stranger = Owner(owner.tenant, owner.user_id + "-other")
        theirs = stored(stranger, embedding=axis(dimension, 0))
        await insert(ports.store, near, far, bare, theirs)
        ids = [near.id, far.id, bare.id, theirs.id]
        vectors = [axis(dimension, 0), at_cosine(dimension, 0.8), axis(dimension, 1)]
        found = await ports.search.similarities_to(owner, ids, vectors)
        each = [await ports.search.similarities(owner, ids, v) for v in vectors]
        # Equal, not approximately: a ranking must not change with the read that served it.
        assert found == {i: tuple(one[i] for one in each) for i in (near.id, far.id, bare.id)}
        assert found[bare.id] == (0.0, 0.0, 0.0)
        assert await ports.search.similarities_to(owner, [], vectors) == {}

    async def test_candidates_by_id_are_the_owners_lean_rows_scored_by_cosine(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        near = stored(owner, embedding=at_cosine(dimension, 0.6), conversation_id="c")
        bare = stored(owner, embedding=None)
        stranger = Owner(owner.tenant, owner.user_id + "-other")
        theirs = stored(stranger, embedding=axis(dimension, 0))
        await insert(ports.store, near, bare, theirs)
        found = {
            c.id: c for c in await ports.search.candidates_by_id(
                owner, [near.id, bare.id, theirs.id], axis(dimension, 0)
            )
        }
        assert found.keys() == {near.id, bare.id}
        assert found[near.id].score == pytest.approx(0.6, abs=1e-5)
        assert found[bare.id].score == 0.0
        assert_candidate_of(found[near.id], near)
        blind = await ports.search.candidates_by_id(owner, [near.id], None)
        assert [c.score for c in blind] == [0.0]
