"""MemoryPorts contract, topics: the topic token index read through `ports.topics`, and the
tokens' round trip through the write session."""

from __future__ import annotations

from dataclasses import replace
from uuid import UUID

from memlane.domain.model import Owner
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, axis, insert, minutes, stored


class PortTopicsContract:
    """Fixtures ports, owner, other_user and dimension come from the concrete class."""

    async def test_a_tokens_memories_and_those_without_tokens_come_newest_first_and_bare(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner, dimension: int
    ) -> None:
        assert ports.topics is not None
        older = stored(owner, created_at=T0, topic_tokens=("garden", "boat"),
                       keywords=("k1",), embedding=axis(dimension, 0))
        untokened = stored(owner, created_at=T0 + minutes(3))
        newer = stored(owner, created_at=T0 + minutes(5), topic_tokens=("garden",))
        other_topic = stored(owner, created_at=T0 + minutes(7), topic_tokens=("boat",))
        no_topic = stored(owner, created_at=T0 + minutes(8), topic_tokens=())
        theirs = stored(other_user, created_at=T0 + minutes(9), topic_tokens=("garden",))
        await insert(ports.store, older, untokened, newer, other_topic, no_topic, theirs)

        found = await ports.topics.carrying(owner, "garden")
        assert [r.id for r in found] == [newer.id, untokened.id, older.id]
        assert all(r.embedding is None and tuple(r.keywords) == () for r in found)
        assert bytes(found[2].content) == older.content
        assert found[2].topic_tokens == ("garden", "boat")
        assert [r.id for r in await ports.topics.untokened(owner)] == [untokened.id]
        assert await ports.topics.carrying(Owner(owner.tenant, "nobody"), "garden") == []
        assert await ports.topics.untokened(other_user) == []

    async def test_tallies_count_each_token_with_its_newest_memory_most_recent_first(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        assert ports.topics is not None
        rows = [
            stored(owner, created_at=T0, topic_tokens=("garden", "boat")),
            stored(owner, created_at=T0 + minutes(2), topic_tokens=("garden",)),
            stored(owner, created_at=T0 + minutes(4)),  # no tokens yet: not counted here
            stored(owner, created_at=T0 + minutes(1), topic_tokens=("boat",)),
            stored(other_user, created_at=T0 + minutes(9), topic_tokens=("garden",)),
        ]
        await insert(ports.store, *rows)
        tallies = await ports.topics.tallies(owner)
        assert [(t.token, t.count, t.last_activity, t.newest) for t in tallies] == [
            ("garden", 2, T0 + minutes(2), rows[1].id),
            ("boat", 2, T0 + minutes(1), rows[3].id),
        ]
        assert await ports.topics.tallies(Owner(owner.tenant, "nobody")) == []

    async def test_the_newest_of_a_tie_is_the_greatest_id_and_memories_reads_only_the_owners(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        assert ports.topics is not None
        pair = sorted([stored(owner, topic_tokens=("t",)) for _ in range(2)], key=lambda r: r.id)
        theirs = stored(other_user, topic_tokens=("t",))
        await insert(ports.store, *pair, theirs)
        [tally] = await ports.topics.tallies(owner)
        assert (tally.count, tally.newest) == (2, pair[1].id)
        found = await ports.topics.memories(owner, [pair[0].id, theirs.id])
        assert [r.id for r in found] == [pair[0].id]
        assert found[0].embedding is None and tuple(found[0].keywords) == ()
        assert await ports.topics.memories(owner, []) == []

    async def test_topic_tokens_round_trip_through_insert_and_update(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        async def tokens(memory_id: UUID) -> tuple[str, ...] | None:
            held = await ports.store.get(owner, memory_id)
            assert held is not None
            return held.topic_tokens

        row = stored(owner, topic_tokens=("a", "b"))
        empty = stored(owner, topic_tokens=())
        await insert(ports.store, row, empty)
        assert (await tokens(row.id), await tokens(empty.id)) == (("a", "b"), ())
        await ports.store.update(replace(row, topic_tokens=("c",)))
        assert await tokens(row.id) == ("c",)
        await ports.store.update(replace(row, topic_tokens=None))
        assert await tokens(row.id) is None
