"""Sealing facts: subject and object encrypted and bound to their row, blind-indexed for lookup."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from uuid import UUID

from memlane.domain.errors import DecryptionFailed
from memlane.domain.facts import RELATION_TYPES, Fact, FactUnreadable, StoredFact, normalise
from memlane.domain.model import Owner
from memlane.ports.encryption import EncryptionPort, FieldBinding

log = logging.getLogger(__name__)
# A prefix keeps a fact's index apart from a memory's lexical term of the same text.
_INDEX_PREFIX = "fact\x1f"
_RELATION_PREFIX = "relation\x1f"
# A custom relation's token is spelt in letters (hex digit -> g..v) after this prefix, so the
# column's check (lower-case letters and underscores) holds and it never reads as a word.
CUSTOM_RELATION = "custom_"
_LETTERS = str.maketrans("0123456789abcdef", "ghijklmnopqrstuv")


class FactSealer:
    """Fact <-> StoredFact for one EncryptionPort."""

    def __init__(
        self, encryption: EncryptionPort, on_unreadable: Callable[[UUID], None] | None = None
    ) -> None:
        self._encryption = encryption
        self._on_unreadable = on_unreadable

    def index(self, owner: Owner, text: str) -> str:
        """The blind index of a subject or object: a keyed hash of its normalised form."""
        return self._encryption.blind_terms(owner.tenant, [_INDEX_PREFIX + normalise(text)])[0]

    def relation_token(self, owner: Owner, relation: str) -> str:
        """A relation as stored and compared: memlane's own names as they are, a caller's
        own relation as a keyed blind token (per tenant)."""
        if relation in RELATION_TYPES or not self._encryption.enabled:
            return relation
        token = self._encryption.blind_terms(owner.tenant, [_RELATION_PREFIX + relation])[0]
        return CUSTOM_RELATION + token.translate(_LETTERS)

    def sealed_relation(
        self, owner: Owner, fact_id: UUID, relation: str
    ) -> tuple[str, bytes | None]:
        """The relation's stored column and, for a caller's own relation, its sealed name."""
        token = self.relation_token(owner, relation)
        if token == relation:
            return token, None
        binding = FieldBinding(owner.tenant, owner.user_id, fact_id, "fact_relation")
        return token, self._encryption.seal(relation, binding)

    def seal(self, owner: Owner, fact: Fact) -> StoredFact:
        seal = self._encryption.seal
        token, relation_sealed = self.sealed_relation(owner, fact.id, fact.relation)
        return StoredFact(
            id=fact.id, owner=owner,
            subject=seal(fact.subject, _binding(owner, fact, "subject")),
            object=seal(fact.object, _binding(owner, fact, "object")),
            subject_index=self.index(owner, fact.subject),
            object_index=self.index(owner, fact.object),
            relation=token, fact_type=fact.fact_type, time_span=fact.time_span,
            confidence=fact.confidence, user_fact_score=fact.user_fact_score,
            source_memory_id=fact.source_memory_id, source_time=fact.source_time,
            valid_from=fact.valid_from, valid_until=fact.valid_until,
            superseded_by=fact.superseded_by, created_at=fact.created_at,
            updated_at=fact.updated_at,
            relation_sealed=relation_sealed,
        )

    def open(self, stored: StoredFact) -> Fact:
        """The plaintext fact; DecryptionFailed when a field does not authenticate."""
        owner = stored.owner
        return Fact(
            id=stored.id,
            subject=self._encryption.open(stored.subject, _binding(owner, stored, "subject")),
            relation=stored.relation if stored.relation_sealed is None
            else self._encryption.open(stored.relation_sealed, _binding(owner, stored, "relation")),
            object=self._encryption.open(stored.object, _binding(owner, stored, "object")),
            fact_type=stored.fact_type, time_span=stored.time_span,
            confidence=stored.confidence, valid_from=stored.valid_from,
            created_at=stored.created_at, updated_at=stored.updated_at,
            user_fact_score=stored.user_fact_score, source_memory_id=stored.source_memory_id,
            valid_until=stored.valid_until, superseded_by=stored.superseded_by,
            source_time=stored.source_time,
        )


    def opened(self, stored: StoredFact) -> Fact:
        """The fact asked for by id; FactUnreadable (fact-unreadable) when it is damaged."""
        fact = self.readable(stored)
        if fact is None:
            raise FactUnreadable(stored.id)
        return fact

    def readable(self, stored: StoredFact) -> Fact | None:
        """The opened fact, or None when a field does not decrypt: the damaged fact is left
        out (warned by id, counted) instead of failing the whole list, profile or export."""
        try:
            return self.open(stored)
        except DecryptionFailed:
            log.warning("fact %s does not decrypt: left out of this read", stored.id)
            if self._on_unreadable is not None:
                self._on_unreadable(stored.id)
            return None

    def unreadable_fields(self, stored: StoredFact) -> tuple[str, ...]:
        """The sealed fields of a fact that do not decrypt (`memlane verify`); empty if none."""
        bad: list[str] = []
        parts = [("subject", stored.subject), ("object", stored.object)]
        if stored.relation_sealed is not None:
            parts.append(("relation", stored.relation_sealed))
        for part, sealed in parts:
            try:
                self._encryption.open(sealed, _binding(stored.owner, stored, part))
            except DecryptionFailed:
                bad.append(part)
        return tuple(bad)

    def readable_all(self, rows: Iterable[StoredFact]) -> list[Fact]:
        """The facts of `rows` that open, in order."""
        return [fact for row in rows if (fact := self.readable(row)) is not None]


def _binding(owner: Owner, fact: Fact | StoredFact, part: str) -> FieldBinding:
    # The field name says "fact_" so a fact's ciphertext never opens as a memory field.
    return FieldBinding(owner.tenant, owner.user_id, fact.id, f"fact_{part}")
