"""FactPortContract: what every FactPort (fake or PostgreSQL) does with one owner's facts.

Subclass it and provide the fixtures `ports` (MemoryPorts), `facts` (a FactPort over the same
storage) and `owner` (fresh per test)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from uuid import UUID, uuid4

from memlane.domain.facts.model import FactType, TimeSpan
from memlane.domain.facts.records import FactFilter, StoredFact
from memlane.domain.model import Owner
from memlane.ports.facts.store import FactPort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, insert, sealed, stored


def fact(
    owner: Owner,
    *,
    relation: str = "lives_in",
    fact_type: FactType = FactType.IDENTITY,
    source: UUID | None = None,
    created_at_s: int = 0,
    score: float | None = None,
) -> StoredFact:
    at = T0 + timedelta(seconds=created_at_s)
    return StoredFact(
        id=uuid4(), owner=owner, subject=sealed("user"), object=sealed("Berlin"),
        subject_index="s-user", object_index=f"o-{uuid4().hex[:6]}", relation=relation,
        fact_type=fact_type, time_span=TimeSpan.CURRENT, confidence=0.85, valid_from=at,
        created_at=at, updated_at=at, user_fact_score=score, source_memory_id=source,
        source_time=None if source is None else T0,
    )


def ended(old: StoredFact, by: UUID | None, seconds: int = 60) -> StoredFact:
    at = old.valid_from + timedelta(seconds=seconds)
    return replace(old, valid_until=at, superseded_by=by, updated_at=at)


class FactPortContract:
    async def test_a_saved_fact_reads_back_with_every_field(
        self, ports: MemoryPorts, facts: FactPort, owner: Owner
    ) -> None:
        memory = stored(owner)
        await insert(ports.store, memory)
        saved = fact(owner, source=memory.id, score=7.5)
        assert await facts.save(owner, [saved], []) == 1
        assert await facts.get(owner, saved.id) == saved

    async def test_another_owners_fact_is_never_reached(
        self, facts: FactPort, owner: Owner
    ) -> None:
        stranger = Owner(owner.tenant, owner.user_id + "-stranger")
        theirs = fact(stranger)
        await facts.save(stranger, [theirs], [])
        assert await facts.get(owner, theirs.id) is None
        assert await facts.current(owner, T0) == []
        assert (await facts.list(owner, FactFilter(current=None), None, 10, T0)).items == []
        assert not await facts.update(replace(theirs, owner=owner, confidence=0.1))
        assert not await facts.delete(owner, theirs.id)
        assert await facts.delete_all(owner) == 0
        assert await facts.get(stranger, theirs.id) == theirs

    async def test_current_facts_are_filtered_by_relation_and_source(
        self, ports: MemoryPorts, facts: FactPort, owner: Owner
    ) -> None:
        a, b = stored(owner), stored(owner)
        await insert(ports.store, a, b)
        home = fact(owner, source=a.id)
        job = fact(owner, relation="works_at", source=b.id)
        stated = fact(owner, relation="works_at")
        await facts.save(owner, [home, job, stated], [])
        now = T0 + timedelta(days=1)
        assert {f.id for f in await facts.current(owner, now)} == {home.id, job.id, stated.id}
        by_relation = await facts.current(owner, now, relations=["works_at"])
        assert {f.id for f in by_relation} == {job.id, stated.id}
        assert [f.id for f in await facts.current(owner, now, sources=[a.id])] == [home.id]
        assert await facts.current(owner, now, relations=[]) == []

    async def test_an_ended_fact_is_not_current_but_an_end_still_ahead_is(
        self, facts: FactPort, owner: Owner
    ) -> None:
        old, new, later = fact(owner), fact(owner), fact(owner)
        await facts.save(owner, [old, new, later], [])
        await facts.save(owner, [], [ended(old, new.id), ended(later, None, seconds=3600)])
        now = T0 + timedelta(seconds=120)
        assert {f.id for f in await facts.current(owner, now)} == {new.id, later.id}
        stopped = await facts.get(owner, old.id)
        assert stopped is not None and stopped.superseded_by == new.id
        assert stopped.valid_until == T0 + timedelta(seconds=60)
        gone = await facts.list(owner, FactFilter(current=False), None, 10, now)
        assert [f.id for f in gone.items] == [old.id]

    async def test_listing_is_newest_first_paginated_and_filtered_by_type(
        self, facts: FactPort, owner: Owner
    ) -> None:
        made = [fact(owner, created_at_s=i) for i in range(5)]
        liked = fact(owner, relation="likes", fact_type=FactType.PREFERENCE, created_at_s=9)
        await facts.save(owner, [*made, liked], [])
        now = T0 + timedelta(days=1)
        first = await facts.list(owner, FactFilter(), None, 4, now)
        assert [f.id for f in first.items] == [liked.id, *[f.id for f in reversed(made)][:3]]
        assert first.next_cursor is not None
        rest = await facts.list(owner, FactFilter(), first.next_cursor, 4, now)
        assert [f.id for f in rest.items] == [made[1].id, made[0].id]
        assert rest.next_cursor is None
        only = await facts.list(owner, FactFilter(FactType.PREFERENCE), None, 10, now)
        assert [f.id for f in only.items] == [liked.id]

    async def test_a_fact_of_a_memory_that_is_gone_is_not_stored(
        self, facts: FactPort, owner: Owner
    ) -> None:
        orphan = fact(owner, source=uuid4())
        assert await facts.save(owner, [orphan], []) == 0
        assert await facts.get(owner, orphan.id) is None

    async def test_deleting_a_memory_deletes_its_facts_and_what_they_replaced_stays_replaced(
        self, ports: MemoryPorts, facts: FactPort, owner: Owner
    ) -> None:
        said_before, said_after = stored(owner), stored(owner)
        await insert(ports.store, said_before, said_after)
        old = fact(owner, source=said_before.id)
        new = fact(owner, source=said_after.id, created_at_s=60)
        await facts.save(owner, [old], [])
        await facts.save(owner, [new], [ended(old, new.id)])
        assert await ports.store.delete(owner, said_after.id)
        assert await facts.get(owner, new.id) is None
        kept = await facts.get(owner, old.id)
        assert kept is not None and kept.superseded_by == new.id and kept.valid_until

    async def test_deleting_a_fact_leaves_what_it_superseded_superseded(
        self, facts: FactPort, owner: Owner
    ) -> None:
        old, new = fact(owner), fact(owner, created_at_s=60)
        await facts.save(owner, [old, new], [])
        await facts.save(owner, [], [ended(old, new.id)])
        assert await facts.delete(owner, new.id)
        assert not await facts.delete(owner, new.id)
        now = T0 + timedelta(days=1)
        assert await facts.current(owner, now) == []

    async def test_deleting_the_middle_of_a_chain_points_the_first_on_to_the_last(
        self, facts: FactPort, owner: Owner
    ) -> None:
        lisbon, porto, berlin = fact(owner), fact(owner, created_at_s=60), fact(owner,
                                                                                created_at_s=120)
        await facts.save(owner, [lisbon, porto, berlin], [])
        await facts.save(owner, [], [ended(lisbon, porto.id), ended(porto, berlin.id)])
        assert await facts.delete(owner, porto.id)
        kept = await facts.get(owner, lisbon.id)
        assert kept is not None and kept.superseded_by == berlin.id

    async def test_revive_brings_back_what_current_facts_replaced(
        self, ports: MemoryPorts, facts: FactPort, owner: Owner
    ) -> None:
        said = stored(owner)
        await insert(ports.store, said)
        lisbon, porto = fact(owner), fact(owner, source=said.id, created_at_s=60)
        rome, milan, naples = (fact(owner, created_at_s=s) for s in (1, 2, 3))
        await facts.save(owner, [lisbon, porto, rome, milan, naples], [])
        await facts.save(owner, [], [ended(lisbon, porto.id), ended(rome, milan.id),
                                     ended(milan, naples.id)])
        by_source = await facts.revive(owner, sources=[said.id])
        assert [f.id for f in by_source] == [lisbon.id]
        assert [f.id for f in await facts.revive(owner, facts=[milan.id])] == []  # replaced
        assert [f.id for f in await facts.revive(owner, facts=[naples.id])] == [milan.id]
        now = T0 + timedelta(days=1)
        current = {f.id for f in await facts.current(owner, now)}
        assert current == {lisbon.id, porto.id, milan.id, naples.id}

    async def test_revive_brings_back_the_facts_that_ended_with_their_memory(
        self, ports: MemoryPorts, facts: FactPort, owner: Owner
    ) -> None:
        said = stored(owner)
        await insert(ports.store, said)
        before, with_it, replaced = (fact(owner, source=said.id, created_at_s=s)
                                     for s in (1, 2, 3))
        other = fact(owner, created_at_s=4)
        await facts.save(owner, [before, with_it, replaced, other], [])
        await facts.save(owner, [], [ended(before, None, seconds=10),
                                     ended(with_it, None, seconds=3600),
                                     ended(replaced, other.id, seconds=3600)])
        since = T0 + timedelta(minutes=30)
        assert await facts.revive(owner, ended_of=[said.id]) == []  # no `since`: none
        revived = await facts.revive(owner, ended_of=[said.id], since=since)
        assert [f.id for f in revived] == [with_it.id]  # ended since, with no successor
        assert revived[0].valid_until is None and revived[0].superseded_by is None
        current = {f.id for f in await facts.current(owner, T0 + timedelta(days=1))}
        assert current == {with_it.id, other.id}

    async def test_an_update_overwrites_what_a_fact_may_change(
        self, facts: FactPort, owner: Owner
    ) -> None:
        original = fact(owner)
        await facts.save(owner, [original], [])
        edited = replace(
            original, object=sealed("Lisbon"), object_index="o-lisbon",
            fact_type=FactType.TRAIT, time_span=TimeSpan.LONG_TERM, confidence=0.5,
            user_fact_score=9.0, updated_at=T0 + timedelta(hours=1),
        )
        assert await facts.update(edited)
        assert await facts.get(owner, original.id) == edited
        assert not await facts.update(fact(owner))

    async def test_erasing_an_owner_deletes_every_fact_stated_ones_too(
        self, ports: MemoryPorts, facts: FactPort, owner: Owner
    ) -> None:
        memory = stored(owner)
        await insert(ports.store, memory)
        await facts.save(owner, [fact(owner), fact(owner, source=memory.id)], [])
        assert await facts.delete_all(owner) == 2
        assert await facts.current(owner, T0 + timedelta(days=1)) == []
