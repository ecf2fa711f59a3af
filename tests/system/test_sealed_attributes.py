"""Tags, metadata and conversation ids sealed at rest; filters on blind tokens; old rows sealed
by `memlane seal-existing` and readable before and after."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import uuid4

import pytest

from memlane.composition.openers import open_legacy_sealer
from memlane.container import Memlane
from memlane.domain.facts.model import FactType
from memlane.domain.facts.records import NewFact
from memlane.domain.model import MemoryFilter, NewMemory, Owner
from tests.system.conftest import system_settings

pytestmark = pytest.mark.integration


def _owner() -> Owner:
    return Owner("seal-tenant", f"user-{uuid4().hex[:8]}")


async def _columns(memlane: Memlane, owner: Owner) -> list[dict[str, object]]:
    rows = await memlane.database.pool.fetch(
        "SELECT id, tags, metadata::text AS metadata, conversation_id, attributes "
        "FROM memories WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id,
    )
    return [dict(r) for r in rows]


async def test_tags_metadata_and_conversation_id_are_stored_only_sealed_or_blinded(
    memlane: Memlane,
) -> None:
    owner = _owner()
    new = NewMemory(
        content="The allotment shed code is four digits", tags=("allotment", "codes"),
        metadata={"origin": "gardenclub", "nested": {"plot": "C7"}},
        conversation_id="chat-allotment-42",
    )
    stored = await memlane.service.remember(owner, new)

    [row] = await _columns(memlane, owner)
    dumped = json.dumps({k: str(v) for k, v in row.items()})
    for plain in ("allotment", "codes", "gardenclub", "origin", "C7", "chat-allotment-42"):
        assert plain not in dumped
        assert plain.encode() not in bytes(row["attributes"])  # type: ignore[arg-type]
    assert row["metadata"] == "{}"
    back = await memlane.service.get(owner, stored.memory.id)
    assert (back.tags, back.conversation_id) == (("allotment", "codes"), "chat-allotment-42")
    assert back.metadata["nested"] == {"plot": "C7"}


async def test_the_tag_and_conversation_filters_find_sealed_memories_of_their_owner_only(
    memlane: Memlane,
) -> None:
    owner, other = _owner(), _owner()
    for who in (owner, other):
        await memlane.service.remember(who, NewMemory(
            content=f"Notes on the harbour ferry timetable for {who.user_id}",
            tags=("ferry",), conversation_id="trip",
        ))
        await memlane.service.remember(who, NewMemory(content="Unrelated note on oat milk"))

    by_tag = await memlane.service.list(owner, MemoryFilter(tag="ferry"), None, 10)
    by_chat = await memlane.service.list(owner, MemoryFilter(conversation_id="trip"), None, 10)

    assert [m.tags for m in by_tag.items] == [("ferry",)]
    assert [m.owner for m in by_chat.items] == [owner]
    assert (await memlane.service.list(owner, MemoryFilter(tag="fer"), None, 10)).items == []


async def _make_legacy(memlane: Memlane, owner: Owner, memory_id: object) -> None:
    """The row as memlane stored it before migration 0110: plaintext columns, no document."""
    await memlane.database.pool.execute(
        "UPDATE memories SET attributes = NULL, tags = ARRAY['legacy-tag'], "
        "metadata = '{\"speaker\": \"Ada\", \"k\": \"old-value\"}'::jsonb, "
        "conversation_id = 'legacy-chat' WHERE tenant = $1 AND user_id = $2 AND id = $3",
        owner.tenant, owner.user_id, memory_id,
    )


async def test_seal_existing_seals_old_rows_which_read_the_same_before_and_after(
    memlane: Memlane, system_database_url: str, session_key_path: Path
) -> None:
    owner = _owner()
    ids = []
    for text in ("The boiler was serviced in March", "The roof was retiled in May"):
        ids.append((await memlane.service.remember(owner, NewMemory(content=text))).memory.id)
    for memory_id in ids:
        await _make_legacy(memlane, owner, memory_id)

    before = await memlane.service.get(owner, ids[0])
    assert (before.tags, before.conversation_id) == (("legacy-tag",), "legacy-chat")
    assert before.metadata["k"] == "old-value"

    settings = system_settings(system_database_url, session_key_path)
    async with open_legacy_sealer(settings) as sealer:
        report = await sealer.seal_existing(batch_rows=1)  # one row per committed batch
        again = await sealer.seal_existing(batch_rows=1)

    assert report.sealed >= 2 and report.remaining == 0
    assert again.sealed == 0  # resumable: what is sealed is not visited again
    for row in await _columns(memlane, owner):
        assert row["attributes"] is not None and row["metadata"] == "{}"
        assert "legacy" not in json.dumps({k: str(v) for k, v in row.items()})
    after = await memlane.service.get(owner, ids[0])
    assert (after.tags, after.conversation_id, dict(after.metadata)) == (
        before.tags, before.conversation_id, dict(before.metadata)
    )
    listed = await memlane.service.list(owner, MemoryFilter(tag="legacy-tag"), None, 10)
    assert {m.id for m in listed.items} == set(ids)


async def test_a_relation_of_the_callers_own_is_sealed_and_old_ones_are_sealed_by_seal_existing(
    memlane: Memlane, system_database_url: str, session_key_path: Path
) -> None:
    owner = _owner()
    own = await memlane.service.facts.state(owner, NewFact(
        relation="secretly_admires", object="the lighthouse keeper", fact_type=FactType.TRAIT,
    ))
    known = await memlane.service.facts.state(owner, NewFact(relation="lives_in", object="Porto"))
    columns = "SELECT relation, relation_sealed FROM facts WHERE id = $1"
    stored = await memlane.database.pool.fetchrow(columns, own.id)
    assert stored["relation"].startswith("custom_") and stored["relation_sealed"] is not None
    assert (await memlane.database.pool.fetchrow(columns, known.id))["relation"] == "lives_in"
    # Stating it again finds it by its token: held, not stored twice.
    again = await memlane.service.facts.state(owner, NewFact(
        relation="secretly_admires", object="the lighthouse keeper", fact_type=FactType.TRAIT,
    ))
    assert again.id == own.id

    await memlane.database.pool.execute(
        "UPDATE facts SET relation = 'secretly_admires', relation_sealed = NULL WHERE id = $1",
        own.id,
    )
    assert (await memlane.service.facts.get(owner, own.id)).relation == "secretly_admires"
    async with open_legacy_sealer(system_settings(system_database_url, session_key_path)) as s:
        report = await s.seal_existing()

    assert report.relations_sealed >= 1
    assert (await memlane.database.pool.fetchrow(columns, own.id))["relation"] == stored["relation"]
    assert (await memlane.service.facts.get(owner, own.id)).relation == "secretly_admires"
