"""The audit trail's rules: event kinds, actors, canonical bytes and the per-owner hash chain."""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum
from uuid import UUID

from memlane.domain.model import Owner

FORMAT = b"memlane-audit-1"
GENESIS = bytes(32)  # the "previous hash" of an owner's first event
OWNER_SUBJECT = UUID(int=0)  # the subject id of events about the owner as a whole

# Who acted: an API key, a background job, the command line, or a host's in-process call.
SYSTEM_DECAY = "system:decay"
SYSTEM_CONSOLIDATION = "system:consolidation"
SYSTEM_IMPORT = "system:import"
SYSTEM_ERASURE_REPLAY = "system:erasure-replay"  # an erasure made again from the journal
CLI = "cli"
IN_PROCESS = "in-process"
API_WITHOUT_AUTH = "api"  # REST with auth.enabled off: there is no key to name
_KEY_PREFIX = "key:"
_NAMED_ACTORS = frozenset(
    {SYSTEM_DECAY, SYSTEM_CONSOLIDATION, SYSTEM_IMPORT, SYSTEM_ERASURE_REPLAY, CLI, IN_PROCESS,
     API_WITHOUT_AUTH}
)


class SubjectKind(StrEnum):
    """What an event is about."""

    MEMORY = "memory"
    EDGE = "edge"  # subject: the edge's source memory, related: its target
    FACT = "fact"
    OWNER = "owner"  # the user as a whole (erasure)


class EventKind(StrEnum):
    """What happened; ERASED marks a tombstone, ERASURE the erasing of the owner."""

    CREATED = "created"
    MERGED = "merged"
    UPDATED = "updated"
    SUPERSEDED = "superseded"
    REVIVED = "revived"  # current again: a person deleted what had replaced it
    PINNED = "pinned"
    UNPINNED = "unpinned"
    SCORE_OVERRIDDEN = "score_overridden"
    CONSOLIDATED = "consolidated"
    DELETED = "deleted"
    ERASED = "erased"
    ERASURE = "erasure"


def key_actor(key_id: UUID | str | None) -> str:
    """The actor an API request acts as: its key, or `api` when auth is off."""
    return API_WITHOUT_AUTH if key_id is None else f"{_KEY_PREFIX}{key_id}"


def is_actor(actor: str) -> bool:
    """Whether `actor` is one memlane records: a named actor or `key:<id>`."""
    return actor in _NAMED_ACTORS or (actor.startswith(_KEY_PREFIX) and len(actor) > 4)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """An event as the service hands it over: not yet chained. `payload` is sealed."""

    id: UUID
    subject_kind: SubjectKind
    subject_id: UUID
    kind: EventKind
    actor: str
    at: datetime
    payload: bytes | None = None
    related_id: UUID | None = None


@dataclass(frozen=True, slots=True)
class ChainHead:
    """An owner's last event: the chain goes on from here."""

    seq: int
    hash: bytes


@dataclass(frozen=True, slots=True)
class AuditEvent:
    """A stored event: its entry, its place in the owner's chain and the hashes that bind it."""

    owner: Owner
    seq: int
    entry: AuditEntry
    body_digest: bytes
    prev_hash: bytes
    hash: bytes

    @property
    def erased(self) -> bool:
        return self.entry.kind == EventKind.ERASED


def _field(value: str) -> bytes:
    data = value.encode()
    return struct.pack(">I", len(data)) + data


def _micros(at: datetime) -> int:
    """Microseconds since the epoch (PostgreSQL's precision), whatever the datetime's zone."""
    delta = at.astimezone(UTC) - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def body_digest(kind: EventKind, payload: bytes | None) -> bytes:
    """What the chain keeps of an event's body: a tombstone drops the body, keeps this."""
    sealed = b"" if payload is None else payload
    return hashlib.sha256(FORMAT + _field(kind.value) + struct.pack(">Q", len(sealed)) + sealed)\
        .digest()


def header_bytes(owner: Owner, seq: int, entry: AuditEntry) -> bytes:
    """The canonical bytes of what an event keeps in the clear, tombstone or not."""
    related = "" if entry.related_id is None else str(entry.related_id)
    return b"".join((
        FORMAT,
        _field(str(entry.id)), _field(owner.tenant), _field(owner.user_id),
        struct.pack(">Qq", seq, _micros(entry.at)),
        _field(entry.subject_kind.value), _field(str(entry.subject_id)), _field(related),
        _field(entry.actor),
    ))


def link_hash(prev_hash: bytes, header: bytes, digest: bytes) -> bytes:
    """hash(n) = SHA-256(hash(n-1) || header(n) || body_digest(n))."""
    return hashlib.sha256(prev_hash + header + digest).digest()


def chain(owner: Owner, head: ChainHead | None, entries: Sequence[AuditEntry]) -> list[AuditEvent]:
    """The entries as the next events of the owner's chain, in order."""
    seq, prev = (0, GENESIS) if head is None else (head.seq, head.hash)
    events = []
    for entry in entries:
        if not is_actor(entry.actor):
            raise ValueError(f"unknown actor {entry.actor!r}")
        seq += 1
        digest = body_digest(entry.kind, entry.payload)
        digest_hash = link_hash(prev, header_bytes(owner, seq, entry), digest)
        events.append(AuditEvent(owner, seq, entry, digest, prev, digest_hash))
        prev = digest_hash
    return events


def tombstone(event: AuditEvent) -> AuditEvent:
    """The event with its body erased: kind `erased`, no payload; header and hashes kept."""
    if event.entry.kind == EventKind.ERASURE:
        return event  # the record of an erasure names no content and stays whole
    return replace(event, entry=replace(event.entry, kind=EventKind.ERASED, payload=None))

