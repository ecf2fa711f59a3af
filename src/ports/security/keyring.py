"""KeyringPort: data keys in memory (wrap, unwrap, cache); DataKeyPort: the wrapped keys stored."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime

from memlane.domain.model import Owner
from memlane.domain.security import WrappedKey


class KeyringPort(ABC):
    """Synchronous, no I/O: the master key wraps and unwraps; unwrapped keys sit in a bounded
    cache the EncryptionPort seals and opens with."""

    @property
    @abstractmethod
    def enabled(self) -> bool:
        """False when encryption is off: nothing to make ready."""

    @property
    @abstractmethod
    def master_id(self) -> str:
        """The id (hex) of the master key new keys are wrapped by."""

    @abstractmethod
    def missing(self, owners: Sequence[Owner], now: datetime) -> list[Owner]:
        """The owners whose key (or its absence) is not cached, or was cached too long ago."""

    @abstractmethod
    def install(self, keys: Sequence[WrappedKey], absent: Sequence[Owner], now: datetime) -> None:
        """Unwrap and cache `keys`; remember that `absent` owners have none (erased, or
        never wrote), unless a key cached at or after `now` (when the load began) is newer
        than that answer. Raises UnknownMasterKey for a key wrapped by a master not held."""

    @abstractmethod
    def mint(self, owner: Owner) -> WrappedKey:
        """A new random key for `owner`, wrapped (not cached until installed). For ROOT: the
        master key itself, so blind indexes and version-1 envelopes stay valid."""

    @abstractmethod
    def forget(self, owner: Owner) -> None:
        """Drop the owner's key from the cache (it was destroyed)."""

    @abstractmethod
    def rewrap(self, key: WrappedKey) -> WrappedKey:
        """The same key wrapped by the current master (rotation); the secret never leaves."""

    @abstractmethod
    def refresh(self) -> None:
        """Reload the master key files (a rotation may have installed a new one)."""


class DataKeyPort(ABC):
    """The `data_keys` rows; calls made inside the owner's transaction join it."""

    @abstractmethod
    async def load(self, owners: Sequence[Owner]) -> list[WrappedKey]:
        """The stored keys of these owners (owners without one are left out)."""

    @abstractmethod
    async def create(self, keys: Sequence[WrappedKey]) -> list[WrappedKey]:
        """Store each key whose owner has none yet, and return every owner's stored key (a
        concurrent creator may have won). The ROOT key is only ever created in an empty
        table: a lost root row is refused, never replaced by a new root."""

    @abstractmethod
    async def destroy(self, owner: Owner) -> bool:
        """Delete the owner's key (crypto-shredding); whether there was one."""

    @abstractmethod
    async def stale(self, master_id: str, after: Owner | None, limit: int) -> list[WrappedKey]:
        """Up to `limit` keys not wrapped by `master_id`, after `after` in owner order."""

    @abstractmethod
    async def rewrap(self, keys: Sequence[WrappedKey], was: Sequence[str], now: datetime) -> int:
        """Replace each key's envelope where it is still wrapped by `was[i]` (a concurrent
        change wins); how many rows changed."""
