"""TopicIndexPort contract (`memlane upgrade`'s topic-index step): the scan returns the
memories without topic tokens in key order, the count matches it and falls as they are
filled, and a memory given tokens since is never written again."""

from __future__ import annotations

from memlane.domain.facts.topic_index import MemoryTopicTokens
from memlane.domain.model import Owner
from memlane.ports.facts.topic_index import TopicIndexPort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import insert, stored


class TopicIndexContract:
    """Fixtures from the concrete class: `ports` and `index` over one fresh store (the
    counts are over the whole installation), `owner`."""

    async def test_the_scan_and_count_cover_memories_without_tokens_and_fall_as_they_are_filled(
        self, ports: MemoryPorts, index: TopicIndexPort, owner: Owner
    ) -> None:
        other = Owner(owner.tenant, owner.user_id + "-other")
        bare = [stored(owner), stored(owner), stored(other)]
        await insert(ports.store, *bare, stored(owner, topic_tokens=("t",)),
                     stored(owner, topic_tokens=()))
        assert await index.count_untokened() == 3

        first = await index.untokened_batch(None, 2)
        key = sorted(bare, key=lambda r: (r.owner.tenant, r.owner.user_id, r.id))
        assert [r.id for r in first] == [r.id for r in key[:2]]
        assert all(r.embedding is None and tuple(r.keywords) == () for r in first)
        assert bytes(first[0].content) == key[0].content
        last = first[-1]
        rest = await index.untokened_batch((last.owner.tenant, last.owner.user_id, last.id), 2)
        assert [r.id for r in rest] == [key[2].id]

        filled = [MemoryTopicTokens(r.owner, r.id, ("garden", "boat")) for r in first]
        assert await index.store_tokens(filled) == 2
        assert await index.count_untokened() == 1
        again = [MemoryTopicTokens(r.owner, r.id, ("other",)) for r in first]
        assert await index.store_tokens(again) == 0  # tokens set since are kept
        assert await index.store_tokens([]) == 0
        held = await ports.store.get(first[0].owner, first[0].id)
        assert held is not None and held.topic_tokens == ("garden", "boat")
        assert await index.store_tokens([MemoryTopicTokens(key[2].owner, key[2].id, ())]) == 1
        assert await index.count_untokened() == 0
        assert await index.untokened_batch(None, 10) == []
