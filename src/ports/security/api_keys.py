"""ApiKeyPort: where API keys live, looked up by the SHA-256 hash of their token."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime, timedelta
from uuid import UUID

from memlane.domain.security import ApiKey


class ApiKeyPort(ABC):
    """Persistence of API keys. Tokens are never stored, only their hashes."""

    @abstractmethod
    async def create(self, key: ApiKey, token_hash: bytes) -> None:
        """Store a new key (and its tenant, if new)."""

    @abstractmethod
    async def find_active(
        self, token_hash: bytes, now: datetime, touch_after: timedelta
    ) -> ApiKey | None:
        """The unrevoked key with this hash, in one round trip.

        Its `last_used_at` is set to `now` when it is older than `touch_after` (or unset),
        so a busy key costs at most one small write per interval.
        """

    @abstractmethod
    async def list(self, tenant: str | None = None) -> list[ApiKey]:
        """Keys of one tenant (or all), revoked ones included, oldest first."""

    @abstractmethod
    async def revoke(self, key_id: UUID, now: datetime) -> bool:
        """Mark the key revoked; False if there is no such unrevoked key."""
