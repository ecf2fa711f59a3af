"""Reading memories as stored: one by id, a page, the export stream, the stats."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import InvalidMemory, MemoryNotFound, MemoryUnreadable
from memlane.domain.model import (
    Cursor,
    Memory,
    MemoryFilter,
    MemoryStats,
    Owner,
    Page,
    StoredMemory,
)
from memlane.domain.reach import Reach
from memlane.ports.clock import Clock
from memlane.ports.memories import MaintenancePort, MemoryStorePort, SupersessionPort
from memlane.service.memories.validation import check_filter
from memlane.service.security import Sealer


class Reading:
    """Reads of an owner's memories; a row that does not decrypt is left out of a list or an
    export, and is MemoryUnreadable when asked for by id."""

    def __init__(
        self, store: MemoryStorePort, maintenance: MaintenancePort, sealer: Sealer,
        clock: Clock, base_rate: float, supersession: SupersessionPort | None = None,
    ) -> None:
        self._supersession = supersession
        self._store = store
        self._maintenance = maintenance
        self._sealer = sealer
        self._clock = clock
        self._base_rate = base_rate

    async def get(self, owner: Owner, memory_id: UUID) -> Memory:
        return self.opened(await self.stored(owner, memory_id), self._clock())

    async def expand(self, owner: Owner, memory_ids: Sequence[UUID]) -> list[Memory]:
        """Memories a context showed in brief, read in full to show deeper (progressive
        disclosure), in the order asked; one not found or unreadable is left out. Asking is
        a use (RMG: expanding is a signal of weight): each counts as accessed."""
        ids = list(dict.fromkeys(memory_ids))
        if not ids:
            return []
        now = self._clock()
        rows = {s.id: s for s in await self._store.get_many(owner, ids, indexed=False)}
        opened = [self._sealer.readable(rows[i], now) for i in ids if i in rows]
        found = [m for m in opened if m is not None]
        if found:
            await self._maintenance.record_access(
                owner, [m.id for m in found], now, self._base_rate)
        return found

    async def stored(self, owner: Owner, memory_id: UUID) -> StoredMemory:
        """The sealed row; MemoryNotFound when it is not the owner's."""
        stored = await self._store.get(owner, memory_id)
        if stored is None:
            raise MemoryNotFound(memory_id)
        return stored

    def opened(self, stored: StoredMemory, now: datetime) -> Memory:
        """The memory asked for by id; MemoryUnreadable when its ciphertext does not open."""
        memory = self._sealer.readable(stored, now)
        if memory is None:
            raise MemoryUnreadable(stored.id)
        return memory

    async def page(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[Memory]:
        """Newest first, keyset-paginated; importance computed at now."""
        if limit < 1:
            raise InvalidMemory("limit must be at least 1")
        check_filter(filters)
        wanted = self._sealer.attributes.index_filter(owner.tenant, filters)
        page = await self._store.list(owner, wanted, cursor, limit)
        now = self._clock()
        opened = (self._sealer.readable(s, now) for s in page.items)
        # A row that does not decrypt is left out; the cursor still moves past it.
        return Page([m for m in opened if m is not None], page.next_cursor)

    async def export(self, owner: Owner) -> AsyncIterator[Memory]:
        """Every memory of the owner, oldest first, decrypted, streamed."""
        async for stored in self._store.export(owner):
            memory = self._sealer.readable(stored, self._clock())
            if memory is not None:
                yield memory

    async def current_of(self, owner: Owner, memories: Iterable[Memory]) -> dict[UUID, UUID]:
        """For each superseded memory among these, the current memory its chain leads to
        (what a link from it should open)."""
        replaced = [m.id for m in memories if m.superseded_by is not None]
        if not replaced:
            return {}
        if self._supersession is None:
            return {m.id: m.superseded_by for m in memories if m.superseded_by is not None}
        return await self._supersession.heads(owner, replaced)

    async def stats(self, owner: Reach) -> MemoryStats:
        return await self._maintenance.stats(owner, self._clock(), self._base_rate)
