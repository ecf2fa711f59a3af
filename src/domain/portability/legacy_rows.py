"""Memories stored before their attributes were sealed (and facts before their own relation
names were), and what sealing them writes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from memlane.domain.model import Owner


@dataclass(frozen=True, slots=True)
class LegacyRow:
    """A row (live or quarantined) whose tags, metadata and conversation id are plaintext."""

    owner: Owner
    memory_id: UUID
    tags: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    conversation_id: str | None = None


@dataclass(frozen=True, slots=True)
class SealedRow:
    """What replaces a LegacyRow's plaintext: the sealed document and the blind tokens."""

    owner: Owner
    memory_id: UUID
    attributes: bytes
    tag_tokens: tuple[str, ...]
    conversation_token: str | None


@dataclass(frozen=True, slots=True)
class LegacyRelation:
    """A fact whose relation is a caller's own name, stored as written."""

    owner: Owner
    fact_id: UUID
    relation: str


@dataclass(frozen=True, slots=True)
class SealedRelation:
    """What replaces it: the relation's blind token and its sealed name."""

    owner: Owner
    fact_id: UUID
    relation: str  # the one it replaces: a row changed since it was read is left alone
    token: str
    sealed: bytes


@dataclass(frozen=True, slots=True)
class SealReport:
    """A seal-existing run: rows sealed (live and quarantined memories, fact relations) and
    how many memories remain."""

    sealed: int = 0
    quarantined_sealed: int = 0
    relations_sealed: int = 0
    remaining: int = 0


@dataclass(frozen=True, slots=True)
class SealPending:
    """What seal-existing would seal now: memories (live and quarantined), fact relations."""

    memories: int = 0
    relations: int = 0
