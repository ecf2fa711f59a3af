"""ImportLedgerPort: which messages of chat exports an owner has already imported."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager

from memlane.domain.model import Owner


class ImportLedgerPort(ABC):
    """Blinded message keys per owner. Keys are recorded after their memories are stored,
    and an owner left without any memory (erased) is left without keys too."""

    @abstractmethod
    def hold(self, owner: Owner) -> AbstractAsyncContextManager[bool]:
        """Try to take the owner's import lock without waiting: True for the block when
        taken, False when another import of this owner runs (anywhere in the cluster)."""

    @abstractmethod
    async def known(self, owner: Owner, keys: Sequence[str]) -> set[str]:
        """The keys among `keys` recorded for the owner (one statement)."""

    @abstractmethod
    async def record(self, owner: Owner, keys: Sequence[str]) -> None:
        """Record keys as imported for the owner; recording a key again changes nothing."""
