"""EntityPortContract: what every EntityPort (fake or PostgreSQL) does with one owner's entities.

Subclass it and provide the fixtures `ports` (MemoryPorts), `entities` (an EntityPort over the
same storage) and `owner` (fresh per test)."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

from memlane.domain.entities.nodes import COMMON_NAME_FLOOR, SealedMention
from memlane.domain.entities.recognition import EntityKind
from memlane.domain.model import Owner, StoredMemory
from memlane.ports.entities import EntityPort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, insert, stored


def mention(
    memory: StoredMemory, name: str, salience: float = 0.9,
    kind: EntityKind = EntityKind.PERSON,
) -> SealedMention:
    return SealedMention(memory.id, uuid4(), f"ix-{name}", kind, b"\x00sealed-" + name.encode(),
                         salience)


class EntityPortContract:
    async def test_memories_naming_an_entity_are_found_by_its_name_index(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        old = stored(owner, created_at=T0)
        new = stored(owner, created_at=T0 + timedelta(days=1))
        other = stored(owner)
        await insert(ports.store, old, new, other)
        stored_count = await entities.add_mentions(
            owner, [mention(old, "ravi", 0.9), mention(new, "ravi", 0.9),
                    mention(other, "lisbon", 0.8, EntityKind.PLACE)], T0,
        )
        assert stored_count == 3
        # Equal salience: the newer memory first.
        assert await entities.mentioning(owner, ["ix-ravi"], 10) == [new.id, old.id]
        assert await entities.mentioning(owner, ["ix-ravi", "ix-lisbon"], 1) == [new.id]
        assert await entities.mentioning(owner, ["ix-nobody"], 10) == []

    async def test_known_names_are_the_owners_entities_only(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        memory = stored(owner)
        await insert(ports.store, memory)
        await entities.add_mentions(owner, [mention(memory, "ravi")], T0)
        other = Owner(owner.tenant, owner.user_id + "-other")
        assert await entities.known(owner, ["ix-ravi", "ix-lisbon"]) == {"ix-ravi"}
        assert await entities.known(other, ["ix-ravi"]) == set()
        assert await entities.known(owner, []) == set()

    async def test_one_name_is_one_node_that_keeps_its_first_id_and_label(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        a, b = stored(owner), stored(owner)
        await insert(ports.store, a, b)
        first = mention(a, "ravi", 0.6)
        await entities.add_mentions(owner, [first], T0)
        await entities.add_mentions(owner, [mention(b, "ravi", 0.9), mention(a, "ravi", 0.7)], T0)
        found = await entities.mentions_of(owner, [a.id, b.id])
        assert {m.entity_id for m in found} == {first.entity_id}
        assert {m.label for m in found} == {first.label}
        assert {m.memory_id: m.salience for m in found} == {a.id: 0.7, b.id: 0.9}
        assert {m.entity_weight for m in found} == {0.9}

    async def test_a_mention_by_another_owner_or_a_missing_memory_is_never_stored(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        stranger = Owner(owner.tenant, owner.user_id + "-stranger")
        theirs = stored(stranger)
        await insert(ports.store, theirs)
        missing = SealedMention(uuid4(), uuid4(), "ix-ravi", EntityKind.PERSON, b"x", 0.9)
        assert await entities.add_mentions(owner, [mention(theirs, "ravi"), missing], T0) == 0
        assert await entities.mentioning(owner, ["ix-ravi"], 10) == []
        assert await entities.mentioning(stranger, ["ix-ravi"], 10) == []
        assert await entities.mentions_of(stranger, [theirs.id]) == []

    async def test_an_owner_never_finds_another_owners_entities(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        stranger = Owner(owner.tenant, owner.user_id + "-stranger")
        mine, theirs = stored(owner), stored(stranger)
        await insert(ports.store, mine, theirs)
        await entities.add_mentions(stranger, [mention(theirs, "ravi")], T0)
        assert await entities.mentioning(owner, ["ix-ravi"], 10) == []
        assert await entities.mentions_of(owner, [theirs.id]) == []
        await entities.add_mentions(owner, [mention(mine, "ravi")], T0)
        assert await entities.mentioning(owner, ["ix-ravi"], 10) == [mine.id]
        assert await entities.mentioning(stranger, ["ix-ravi"], 10) == [theirs.id]

    async def test_deleting_or_erasing_leaves_no_mention_and_no_unmentioned_entity(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        a, b, c = stored(owner), stored(owner), stored(owner)
        await insert(ports.store, a, b, c)
        await entities.add_mentions(
            owner, [mention(a, "ravi"), mention(b, "ravi"), mention(c, "lisbon")], T0
        )
        assert await ports.store.delete(owner, a.id)
        assert await entities.mentioning(owner, ["ix-ravi"], 10) == [b.id]
        assert await entities.mentions_of(owner, [a.id]) == []
        await ports.store.delete_all(owner)
        assert await entities.mentioning(owner, ["ix-ravi", "ix-lisbon"], 10) == []
        # A new memory naming Ravi makes a new node: the old one went with its last mention.
        d = stored(owner)
        await insert(ports.store, d)
        fresh = mention(d, "ravi")
        await entities.add_mentions(owner, [fresh], T0)
        assert {m.entity_id for m in await entities.mentions_of(owner, [d.id])} == {
            fresh.entity_id
        }

    async def test_a_tentative_mention_only_joins_an_entity_the_owner_has(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        a, b, c = stored(owner), stored(owner), stored(owner)
        await insert(ports.store, a, b, c)
        guess = mention(a, "ravi", 0.4, EntityKind.ORGANISATION)
        assert await entities.add_mentions(owner, [guess], T0) == 0
        assert await entities.mentioning(owner, ["ix-ravi"], 10) == []
        # Once Ravi is known (in the same call or before), a guess joins him, whatever
        # kind it guessed.
        await entities.add_mentions(owner, [mention(b, "ravi", 0.9), guess], T0)
        await entities.add_mentions(owner, [mention(c, "ravi", 0.35)], T0)
        assert set(await entities.mentioning(owner, ["ix-ravi"], 10)) == {a.id, b.id, c.id}
        kinds = {m.kind for m in await entities.mentions_of(owner, [a.id, c.id])}
        assert kinds == {EntityKind.PERSON}

    async def test_a_name_is_one_entity_whatever_kind_a_later_mention_guesses(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        a, b = stored(owner), stored(owner)
        await insert(ports.store, a, b)
        first = mention(a, "ravi", 0.9)
        await entities.add_mentions(owner, [first], T0)
        await entities.add_mentions(owner, [mention(b, "ravi", 0.7, EntityKind.PLACE)], T0)
        found = await entities.mentions_of(owner, [a.id, b.id])
        assert {(m.entity_id, m.kind) for m in found} == {(first.entity_id, EntityKind.PERSON)}
        assert len(found) == 2

    async def test_a_name_most_memories_mention_can_be_left_out_by_share(
        self, ports: MemoryPorts, entities: EntityPort, owner: Owner
    ) -> None:
        many = COMMON_NAME_FLOOR + 4
        rows = [stored(owner) for _ in range(many)]
        await insert(ports.store, *rows)
        await entities.add_mentions(
            owner, [*(mention(r, "melanie") for r in rows), mention(rows[0], "oliver")], T0
        )
        assert len(await entities.mentioning(owner, ["ix-melanie"], 100, max_share=1.0)) == many
        assert await entities.mentioning(owner, ["ix-melanie"], 100, max_share=0.5) == []
        assert await entities.mentioning(
            owner, ["ix-melanie", "ix-oliver"], 100, max_share=0.5
        ) == [rows[0].id]
        # Up to COMMON_NAME_FLOOR mentions a name counts whatever its share.
        await entities.add_mentions(owner, [mention(r, "ravi") for r in rows[:3]], T0)
        assert len(await entities.mentioning(owner, ["ix-ravi"], 100, max_share=0.01)) == 3
