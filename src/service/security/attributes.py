"""A memory's attributes at rest: tags, metadata and conversation id sealed as one document,
tags and conversation id also kept as keyed blind tokens for the filters that need equality."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID

from memlane.domain.errors import DecryptionFailed
from memlane.domain.facts import topic_key, topics_of
from memlane.domain.model import MemoryFilter, Owner, StoredMemory
from memlane.ports.encryption import EncryptionPort, FieldBinding

ATTRIBUTES = "attributes"
# Prefixes separate the blind domains: a tag, a conversation id, a lexical term, a fact's
# subject of the same text give unrelated tokens, so one cannot be matched against another.
_TAG = "tag\x1f"
_CONVERSATION = "conversation\x1f"
# A topic token also hashes the user id (length-prefixed, so no two owners' texts meet): it
# names one owner's topic, so the GIN index selects one owner's rows on its own.
_TOPIC = "topic\x1f"


@dataclass(frozen=True, slots=True)
class Attributes:
    """What a caller wrote about a memory besides its text."""

    tags: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    conversation_id: str | None = None


@dataclass(frozen=True, slots=True)
class SealedAttributes:
    """The stored columns of Attributes: the sealed document and the blind tokens."""

    sealed: bytes
    tag_tokens: tuple[str, ...]
    conversation_token: str | None
    topic_tokens: tuple[str, ...] = ()


class AttributeSealer:
    """Attributes <-> their stored columns for one EncryptionPort."""

    def __init__(self, encryption: EncryptionPort) -> None:
        self._encryption = encryption

    def tag_tokens(self, tenant: str, tags: Sequence[str]) -> tuple[str, ...]:
        """Tags as stored and filtered on: keyed hashes per tenant (the tags when off)."""
        if not self._encryption.enabled:
            return tuple(tags)
        return tuple(self._encryption.blind_terms(tenant, [_TAG + t for t in tags]))

    def conversation_token(self, tenant: str, conversation_id: str | None) -> str | None:
        """A conversation id as stored and compared: a keyed hash per tenant (or None)."""
        if conversation_id is None or not self._encryption.enabled:
            return conversation_id
        return self._encryption.blind_terms(tenant, [_CONVERSATION + conversation_id])[0]

    def topic_tokens(self, owner: Owner, topics: Sequence[str]) -> tuple[str, ...]:
        """The blind tokens of topics' keys (case-blind), each once, in a stable order."""
        keys = sorted({topic_key(t) for t in topics} - {""})
        user = f"{len(owner.user_id)}:{owner.user_id}\x1f"
        return tuple(self._encryption.blind_terms(owner.tenant, [_TOPIC + user + k for k in keys]))

    def index_filter(self, tenant: str, filters: MemoryFilter) -> MemoryFilter:
        """A list filter as the store compares it: tag and conversation id as tokens."""
        if filters.tag is None and filters.conversation_id is None:
            return filters
        return replace(
            filters,
            tag=None if filters.tag is None else self.tag_tokens(tenant, [filters.tag])[0],
            conversation_id=self.conversation_token(tenant, filters.conversation_id),
        )

    def seal(self, owner: Owner, memory_id: UUID, attributes: Attributes) -> SealedAttributes:
        document = json.dumps(
            {"tags": list(attributes.tags), "metadata": dict(attributes.metadata),
             "conversation_id": attributes.conversation_id},
            ensure_ascii=False, separators=(",", ":"),
        )
        return SealedAttributes(
            sealed=self._encryption.seal(document, _binding(owner, memory_id)),
            tag_tokens=self.tag_tokens(owner.tenant, attributes.tags),
            conversation_token=self.conversation_token(owner.tenant, attributes.conversation_id),
            topic_tokens=self.topic_tokens(owner, topics_of(attributes.tags, attributes.metadata)),
        )

    def open(self, stored: StoredMemory) -> Attributes:
        """The plaintext attributes; a row from before sealing reads its plaintext columns.
        DecryptionFailed when the document does not authenticate or is not ours."""
        if stored.attributes is None:
            return Attributes(
                tuple(stored.tags), dict(stored.metadata), stored.conversation_id
            )
        text = self._encryption.open(bytes(stored.attributes), _binding(stored.owner, stored.id))
        try:
            document = json.loads(text)
            return Attributes(
                tuple(str(t) for t in document["tags"]),
                dict(document["metadata"]),
                document["conversation_id"],
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise DecryptionFailed(
                f"{ATTRIBUTES} of memory {stored.id} is not an attributes document"
            ) from exc


def _binding(owner: Owner, memory_id: UUID) -> FieldBinding:
    return FieldBinding(owner.tenant, owner.user_id, memory_id, ATTRIBUTES)
