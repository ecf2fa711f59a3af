"""FadedMemoriesPort: cleanup one owner at a time, so the owner's audit events join the delete."""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from uuid import UUID

from memlane.domain.memories import CleanupRule
from memlane.domain.model import Owner
from memlane.domain.reach import Reach


class FadedMemoriesPort(ABC):
    """The memories cleanup may delete at `now` (CleanupRule, may_clean_up), judged from the
    heat as MaintenancePort.cleanup judges them."""

    @abstractmethod
    async def owners(
        self, owner: Reach, rule: CleanupRule, now: datetime, base_rate: float
    ) -> list[Owner]:
        """The owners within `owner` (everyone, one tenant, one user) with a faded memory."""

    @abstractmethod
    async def delete(
        self, owner: Owner, rule: CleanupRule, now: datetime, base_rate: float
    ) -> list[UUID]:
        """Delete the owner's faded memories in one statement (inside the owner's
        transaction when one is open); the ids deleted."""
