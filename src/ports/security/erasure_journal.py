"""ErasureJournalPort: destroyed data keys recorded outside the database; ReplayStorePort: the
database side of a replay."""

from __future__ import annotations

from abc import ABC, abstractmethod

from memlane.domain.model import Owner
from memlane.domain.security import JournalContents, KeyRef


class ErasureJournalPort(ABC):
    """Append-only records of the data keys erasures destroyed, kept where a restored
    database backup cannot bring an older copy back (docs/security.md, "Erasure and
    backups"). Records hold keyed hashes only: no user id in the clear."""

    @property
    @abstractmethod
    def key_id(self) -> str:
        """The public id of the journal's key (the database records it: a lost key is refused)."""

    @abstractmethod
    async def record(self, key: KeyRef) -> None:
        """Append a record for `key` and make it durable (fsync) before returning: an
        erasure calls this before its transaction commits, so a crash in between leaves a
        record whose erasure the next replay completes, never an erasure without one."""

    @abstractmethod
    async def contents(self) -> JournalContents:
        """Every record (keyed hashes), and how many lines were damaged."""

    @abstractmethod
    def names(self, contents: JournalContents, key: KeyRef) -> bool:
        """Whether `contents` records `key` as destroyed (hashed with the journal's key)."""


class ReplayStorePort(ABC):
    """What a replay reads from the database: its data keys, page by page (each compared with
    the journal), and the id of the journal key its erasures were recorded with."""

    @abstractmethod
    async def keys_after(self, after: Owner | None, limit: int) -> list[KeyRef]:
        """Up to `limit` owners' keys after `after` in owner order (from the first when None),
        the root key left out."""

    @abstractmethod
    async def journal_key(self, offered: str | None) -> str | None:
        """The id of the journal key recorded with the data; when there is none and `offered`
        is given, `offered` is recorded first (so a lost journal key is refused at start,
        never silently replaced by a new one that matches no record)."""
