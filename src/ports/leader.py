"""LeaderLockPort: let exactly one replica run maintenance at a time."""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager


class LeaderLockPort(ABC):
    """A non-blocking, cluster-wide mutex (pg_try_advisory_lock in PostgreSQL)."""

    @abstractmethod
    def hold(self) -> AbstractAsyncContextManager[bool]:
        """Try to take the lock without waiting.

        Yields True when this process holds it for the duration of the block (released on
        exit, or by the server if the process dies), False when another holder has it.
        """
