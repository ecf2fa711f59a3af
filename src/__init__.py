"""memlane: private long-term memory for AI assistants — `open_memory()` and the public types."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from memlane.domain.errors import (
    DecryptionFailed,
    EmbeddingUnavailable,
    InvalidMemory,
    MemlaneError,
    MemoryNotFound,
    StorageUnavailable,
)
from memlane.domain.model import (
    DEFAULT_TENANT,
    Memory,
    MemoryContext,
    MemoryStats,
    MemoryType,
    PromptContext,
    ScoredMemory,
)
from memlane.ports.context import MemoryContextPort

if TYPE_CHECKING:
    from memlane.service.tenant_memory import TenantMemory
    from memlane.settings import Settings

__all__ = [
    "DEFAULT_TENANT",
    "DecryptionFailed",
    "EmbeddingUnavailable",
    "InvalidMemory",
    "MemlaneError",
    "Memory",
    "MemoryContext",
    "MemoryContextPort",
    "MemoryNotFound",
    "MemoryStats",
    "MemoryType",
    "PromptContext",
    "ScoredMemory",
    "StorageUnavailable",
    "open_memory",
]


@asynccontextmanager
async def open_memory(
    settings: Settings | None = None, *, tenant: str = DEFAULT_TENANT, **overrides: Any
) -> AsyncIterator[TenantMemory]:
    """In-process memlane for a host chat service; implements MemoryContextPort.

    Settings default to config.toml and MEMLANE_* variables; keyword overrides are
    settings sections, e.g. `open_memory(database={"data_dir": "/tmp/x"})`.
    Starts the embedded database if needed, runs migrations, loads the model, and
    releases everything on exit.
    """
    from memlane.container import open_memlane
    from memlane.service.tenant_memory import TenantMemory
    from memlane.settings import load_settings

    async with open_memlane(settings or load_settings(**overrides)) as memlane:
        yield TenantMemory(memlane.service, tenant=tenant, audit=memlane.audit)
