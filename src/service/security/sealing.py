"""Plaintext Memory to sealed StoredMemory and back: encryption, index terms, exact importance."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from memlane.domain.errors import DecryptionFailed
from memlane.domain.memories import (
    NAMES_KEY,
    SEGMENT_KEY,
    build_tiers,
    importance_at,
    segment_document,
)
from memlane.domain.model import Memory, Owner, StoredMemory, Vector
from memlane.domain.portability import SOURCE_KEY
from memlane.ports.encryption import EncryptionPort, FieldBinding
from memlane.ports.keywords import KeywordPort
from memlane.service.security.attributes import ATTRIBUTES, Attributes, AttributeSealer
from memlane.service.security.tier_sealing import (
    open_abstract,
    open_tiers,
    seal_tiers,
    traits_when_unknown,
)

CONTENT = "content"
SUMMARY = "summary"
# A memory whose metadata names who said it is a conversation turn: its date and speaker
# become part of what is embedded and keyword-indexed ("08 May 2023. Caroline: I went to a
# support group"), so that questions about a person, or a time, find what was said then.
# On LoCoMo the speaker added 0.035 recall@10 and the date 0.015 (docs/recall.md). Both
# stay out of the content the caller gets back; other memories are embedded as they are,
# so the dedup of plain facts is unchanged.
SPEAKER_KEY = "speaker"

log = logging.getLogger(__name__)
# Told the id of every memory that fails to decrypt on a read (the API counts them in a
# metric); never its content, which nobody has.
class OnUnreadable(Protocol):
    """Hears each record left out of a read: its id and kind ("memory", "fact", "audit")."""

    def __call__(self, record_id: UUID, kind: str = "memory", /) -> None: ...


def of_kind(listener: OnUnreadable, kind: str) -> Callable[[UUID], None]:
    """`listener` told the kind of record it hears of (the metric counts kinds apart)."""
    return lambda record_id: listener(record_id, kind)


def speaker_of(metadata: Mapping[str, Any]) -> str | None:
    """Who said a conversation turn (None for a memory that is not one)."""
    speaker = metadata.get(SPEAKER_KEY)
    if not isinstance(speaker, str) or not speaker.strip():
        return None
    return " ".join(speaker.split()).casefold()


def speakers_of(metadata: Mapping[str, Any]) -> tuple[str, ...]:
    """Who spoke in a memory, as written: a turn's speaker, a segment's named speakers."""
    names = [metadata.get(SPEAKER_KEY), *(metadata.get(NAMES_KEY) or ())]
    return tuple(dict.fromkeys(n.strip() for n in names if isinstance(n, str) and n.strip()))


def is_turn(metadata: Mapping[str, Any]) -> bool:
    """Whether a memory is a conversation turn: its metadata names a speaker."""
    speaker = metadata.get(SPEAKER_KEY)
    return isinstance(speaker, str) and bool(speaker.strip())


def document_text(memory: Memory) -> str:
    """What is embedded and indexed for a memory: its content, a turn's date and speaker
    first, a conversation segment's date first (its lines already name who spoke)."""
    if is_turn(memory.metadata):
        speaker = " ".join(str(memory.metadata[SPEAKER_KEY]).split())
        return f"{memory.created_at:%d %B %Y}. {speaker}: {memory.content}"
    if SEGMENT_KEY in memory.metadata:
        return segment_document(memory.content, memory.created_at)
    return memory.content


def binding(owner: Owner, memory_id: UUID, field: str) -> FieldBinding:
    """The associated data a field's ciphertext is bound to: its row and field."""
    return FieldBinding(owner.tenant, owner.user_id, memory_id, field)


class Sealer:
    """Seals memories on the way into storage and opens them on the way out.

    Plaintext never reaches a StoredMemory: content, summary and attributes (tags, metadata,
    conversation id) are sealed; the lexical index terms, tags and conversation id are
    blinded per tenant by the encryption port for the lookups that need equality.
    """

    def __init__(
        self,
        encryption: EncryptionPort,
        keywords: KeywordPort,
        base_rate: float,
        on_unreadable: OnUnreadable | None = None,
    ) -> None:
        self._encryption = encryption
        self.attributes = AttributeSealer(encryption)
        self._keywords = keywords
        self._base_rate = base_rate
        self._on_unreadable = on_unreadable

    def index_terms(self, tenant: str, content: str, tags: Sequence[str] = ()) -> tuple[str, ...]:
        """Blinded lexical terms for content and tags (also used for queries, without tags)."""
        text = " ".join([content, *tags])
        return tuple(self._encryption.blind_terms(tenant, self._keywords.terms(text)))

    def seal(self, memory: Memory, embedding: Vector | None, now: datetime) -> StoredMemory:
        """The stored form; the materialised importance is importance(now)."""
        owner = memory.owner
        attributes = self.attributes.seal(
            owner, memory.id,
            Attributes(tuple(memory.tags), dict(memory.metadata), memory.conversation_id),
        )
        abstract, overview = seal_tiers(self._encryption, memory)
        return StoredMemory(
            id=memory.id,
            owner=owner,
            memory_type=memory.memory_type,
            abstract=abstract,
            overview=overview,
            traits=memory.traits,
            content=self._encryption.seal(memory.content, binding(owner, memory.id, CONTENT)),
            summary=self._encryption.seal(memory.summary, binding(owner, memory.id, SUMMARY)),
            importance=importance_at(memory.heat, memory.memory_type, now, self._base_rate),
            heat=memory.heat,
            created_at=memory.created_at,
            updated_at=memory.updated_at,
            conversation_id=attributes.conversation_token,
            tags=attributes.tag_tokens,
            metadata={},
            attributes=attributes.sealed,
            topic_tokens=attributes.topic_tokens,
            arrived_at=now,  # a write or an import (an update keeps the row's own)
            imported=SOURCE_KEY in memory.metadata,
            pinned=memory.pinned,
            embedding=embedding,
            embedding_model=memory.embedding_model if embedding is not None else None,
            keywords=self.index_terms(owner.tenant, document_text(memory), memory.tags),
            # Carried for readers of the value; storage writes the marker through
            # SupersessionPort only (an insert or an edit never sets or clears it).
            superseded_by=memory.superseded_by,
            valid_until=memory.valid_until,
        )

    def open_content(self, stored: StoredMemory) -> str:
        """Only the content (e.g. to re-embed it); raises DecryptionFailed on a bad ciphertext."""
        return self._encryption.open(
            bytes(stored.content), binding(stored.owner, stored.id, CONTENT)
        )

    def open(self, stored: StoredMemory, now: datetime) -> Memory:
        """The plaintext memory with its importance computed exactly at `now`."""
        summary = self._encryption.open(
            bytes(stored.summary), binding(stored.owner, stored.id, SUMMARY)
        )
        attributes = self.attributes.open(stored)
        content = self.open_content(stored)
        return Memory(
            id=stored.id,
            owner=stored.owner,
            memory_type=stored.memory_type,
            content=content,
            tiers=open_tiers(self._encryption, stored) or build_tiers(content),
            traits=stored.traits or traits_when_unknown(content, attributes.metadata),
            summary=summary,
            importance=importance_at(stored.heat, stored.memory_type, now, self._base_rate),
            heat=stored.heat,
            created_at=stored.created_at,
            updated_at=stored.updated_at,
            conversation_id=attributes.conversation_id,
            tags=attributes.tags,
            metadata=dict(attributes.metadata),
            pinned=stored.pinned,
            embedding_model=stored.embedding_model if stored.embedding is not None else None,
            superseded_by=stored.superseded_by,
            valid_until=stored.valid_until,
        )

    def open_abstract(self, stored: StoredMemory) -> str | None:
        """Only the abstract (L0) of a row that has it (DecryptionFailed if it does not open)."""
        return open_abstract(self._encryption, stored.owner, stored)

    def readable(self, stored: StoredMemory, now: datetime) -> Memory | None:
        """The opened memory, or None when a field does not decrypt: one damaged row is left
        out (warned by id, counted) instead of failing the whole list, search or export."""
        try:
            return self.open(stored, now)
        except DecryptionFailed:
            self._unreadable(stored.id)
            return None

    def _unreadable(self, memory_id: UUID) -> None:
        log.warning("memory %s does not decrypt: left out of this read", memory_id)
        if self._on_unreadable is not None:
            self._on_unreadable(memory_id)

    def readable_attributes(self, stored: StoredMemory) -> Attributes | None:
        """A row's attributes alone (topics scan them), or None, warned, when they do not open."""
        try:
            return self.attributes.open(stored)
        except DecryptionFailed:
            self._unreadable(stored.id)
            return None

    def unreadable_fields(self, stored: StoredMemory) -> tuple[str, ...]:
        """The sealed fields of a row that do not decrypt (`memlane verify`); empty if none."""
        bad: list[str] = []
        for field in (CONTENT, SUMMARY):
            try:
                sealed = stored.content if field == CONTENT else stored.summary
                self._encryption.open(bytes(sealed), binding(stored.owner, stored.id, field))
            except DecryptionFailed:
                bad.append(field)
        try:
            self.attributes.open(stored)
        except DecryptionFailed:
            bad.append(ATTRIBUTES)
        return tuple(bad)
