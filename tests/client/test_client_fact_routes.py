"""The client over the fact and profile routes, through the real app."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from litestar import Litestar

from memlane.client import FactPage, HistoryEvent, TopicView
from memlane.domain.facts.model import Fact, FactType, TimeSpan
from memlane.domain.facts.profile import Profile
from memlane.domain.facts.prompt_block import KEPT_HEADER
from memlane.domain.facts.records import FactNotFound
from memlane.domain.facts.topics import TopicNotFound, TopicSummary
from memlane.domain.memories import Message, Role
from memlane.domain.security.audit import EventKind, SubjectKind
from tests.api.conftest import TenantKeys
from tests.client.conftest import remote
from tests.client.test_async_client_routes import token_of

pytestmark = pytest.mark.integration


async def test_facts_and_the_profile_round_trip_as_domain_types(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        memory = await client.remember(content="I work as a nurse at Santa Maria hospital")
        read = await client.facts()
        stated = await client.state_fact(relation="lives_in", object="Lisbon",
                                         fact_type="identity", user_fact_score=8)
        moved = await client.state_fact(relation="lives_in", object="Porto")
        fetched = await client.get_fact(fact_id=stated.id)
        scored = await client.update_fact(fact_id=moved.id, user_fact_score=9,
                                          time_span=TimeSpan.LONG_TERM)
        cleared = await client.update_fact(fact_id=moved.id, clear_score=True)
        ended = await client.facts(current=False)
        everything = await client.facts(current=None, fact_type=FactType.IDENTITY, limit=2)
        profile = await client.profile()
        await client.delete_fact(fact_id=stated.id)
        with pytest.raises(FactNotFound) as missing:
            await client.get_fact(fact_id=stated.id)
    assert isinstance(read, FactPage) and all(isinstance(f, Fact) for f in read.items)
    assert {(f.relation, f.object) for f in read.items} == {
        ("works_as", "nurse"), ("works_at", "Santa Maria hospital")}
    assert all(f.source_memory_id == memory.id for f in read.items)
    assert (stated.fact_type, stated.user_fact_score) == (FactType.IDENTITY, 8)
    assert fetched.object == "Lisbon" and fetched.superseded_by == moved.id
    assert scored.user_fact_score == 9 and scored.time_span is TimeSpan.LONG_TERM
    assert cleared.user_fact_score is None
    assert [f.object for f in ended.items] == ["Lisbon"]
    assert len(everything.items) == 2 and everything.next_cursor is not None
    assert isinstance(profile, Profile)
    assert "Porto" in {f.object for f in profile.core} and "Lisbon" not in {
        f.object for f in profile.core + profile.secondary}
    assert missing.value.memory_id == str(stated.id)


async def test_topics_and_the_profile_in_the_context_round_trip(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        await client.remember(content="I planted tomatoes in the raised bed", tags=["garden"])
        await client.remember(content="Should I water the tomatoes every day?", tags=["garden"])
        await client.state_fact(relation="allergic_to", object="peanuts",
                                fact_type="constraint", user_fact_score=10)
        listed = await client.topics()
        garden = await client.topic(topic="Garden")
        with_profile = await client.prompt_context(None, "What grows in my garden?")
        without = await client.prompt_context(None, "What grows in my garden?",
                                              include_profile=False)
        with pytest.raises(TopicNotFound):
            await client.topic(topic="sailing trips")
    assert [(t.topic, t.count) for t in listed] == [("garden", 2)]
    assert all(isinstance(t, TopicSummary) for t in listed)
    assert isinstance(garden, TopicView) and garden.count == 2
    assert [q.question for q in garden.open_questions] == [
        "Should I water the tomatoes every day?"]
    assert KEPT_HEADER in with_profile.text and "peanuts" in with_profile.text  # stated
    assert KEPT_HEADER not in without.text


async def test_the_history_of_a_memory_and_of_a_fact_round_trip(
    app: Litestar, tenant: TenantKeys
) -> None:
    async with remote(app, token_of(tenant.alice)) as client:
        memory = await client.remember(content="The project deadline is in March.")
        await client.update(memory_id=memory.id, pinned=True)
        await client.delete(memory_id=memory.id)
        events = await client.history(memory_id=memory.id)
        fact = await client.state_fact(relation="lives_in", object="Lisbon")
        await client.update_fact(fact_id=fact.id, user_fact_score=9)
        fact_events = await client.fact_history(fact_id=fact.id)
        with pytest.raises(FactNotFound):
            await client.fact_history(fact_id=memory.id)
    assert all(isinstance(e, HistoryEvent) for e in events + fact_events)
    assert [e.kind for e in events] == [EventKind.CREATED, EventKind.PINNED, EventKind.DELETED]
    assert all(e.subject_id == memory.id and e.subject_kind is SubjectKind.MEMORY
               for e in events)
    assert fact_events[0].kind is EventKind.CREATED and fact_events[-1].subject_id == fact.id


async def test_search_and_list_carry_the_superseded_state_and_take_current(
    app: Litestar, tenant: TenantKeys
) -> None:
    from memlane.domain.model import MemoryFilter

    async with remote(app, token_of(tenant.alice)) as client:
        lisbon = await client.remember(content="I live in Lisbon")
        porto = await client.remember(content="I now live in Porto.")
        hits = await client.search(query="Where do I live?")
        held = await client.search(query="Where do I live?", current=True)
        listed = await client.list(filters=MemoryFilter(current=False))
        both = await client.list()
    by_id = {h.memory.id: h for h in hits}
    assert by_id[lisbon.id].memory.superseded_by == porto.id
    assert not by_id[lisbon.id].memory.current and by_id[porto.id].memory.current
    assert [h.memory.id for h in hits].index(porto.id) < [h.memory.id for h in hits].index(
        lisbon.id)
    assert by_id[porto.id].score > by_id[lisbon.id].score > 0
    assert lisbon.id not in {h.memory.id for h in held}
    assert [m.id for m in listed.items] == [lisbon.id]
    assert {m.id for m in both.items} == {lisbon.id, porto.id}



async def test_the_asking_time_reaches_the_context(app: Litestar, tenant: TenantKeys) -> None:
    """"Four weeks ago" is read against the time given, not the server's clock."""
    shown = {
        datetime(2031, 1, 7, 10, 0, tzinfo=UTC): "At the camera shop Lena showed me a camera bag.",
        datetime(2031, 3, 4, 10, 0, tzinfo=UTC): "At the camera shop Lena showed me a tripod.",
    }
    question = "What did Lena show me at the camera shop four weeks ago?"
    asked = (datetime(2031, 2, 4, 9, tzinfo=UTC), datetime(2031, 4, 1, 9, tzinfo=UTC))
    async with remote(app, token_of(tenant.alice)) as client:
        for at, text in shown.items():
            await client.add_messages(
                conversation_id=f"shop-{at:%m}", messages=[Message(Role.USER, text, at)]
            )
        in_context = [
            (await client.prompt_context(None, question, 1, asked_at=at)).memories[0].content
            for at in asked
        ]
        searched = [
            (await client.search(query=question, limit=1, asked_at=at))[0].memory.content
            for at in asked
        ]
    assert in_context == searched == [f"user: {text}" for text in shown.values()]
