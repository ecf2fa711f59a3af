"""Erasing an owner; the erasure journal's replay (a restored database's erased owners, again)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Protocol

from memlane.domain.model import Owner
from memlane.domain.security import (
    ERASURE_REPLAY_ACTOR,
    KeyRef,
    ReplayReport,
    to_erase_again,
)
from memlane.ports.memories import MemoryStorePort
from memlane.ports.security import DataKeyPort, ErasureJournalPort, ReplayStorePort
from memlane.service.security.actors import acting_as
from memlane.service.security.audit_trail import AuditTrail, Changes

log = logging.getLogger(__name__)
PAGE_KEYS = 5_000  # data keys compared with the journal per read


class ErasesFacts(Protocol):
    def delete_all(self, owner: Owner, /) -> Awaitable[int]: ...


async def erase_owner(
    owner: Owner, changes: Changes, store: MemoryStorePort, facts: ErasesFacts | None,
    trail: AuditTrail,
) -> int:
    """Inside the owner's unit of work (`trail.change`): every memory (their graph, postings,
    quarantined copies and import ledger go with them), every fact, the data key (journaled
    first) and the history down to tombstones. How many memories there were."""
    erased = await store.delete_all(owner)
    facts_deleted = 0 if facts is None else await facts.delete_all(owner)
    await trail.erase(owner, changes, memories_deleted=erased, facts_deleted=facts_deleted)
    return erased


class _NotTheJournaledKey(Exception):
    """The owner's key changed since the scan (erased meanwhile): roll back, erase nothing."""


class ErasureReplay:
    """At every start and in `memlane upgrade`, before the first request: each data key the
    database holds is compared with the journal; an owner whose key the journal names was
    erased after this database was copied, so everything of theirs in it is erased again,
    under the actor `system:erasure-replay`. Only that key: an owner who was erased and
    wrote again has a new key, and those memories stay."""

    def __init__(
        self,
        journal: ErasureJournalPort | None,
        database: ReplayStorePort,
        data_keys: DataKeyPort,
        store: MemoryStorePort,
        facts: ErasesFacts | None,
        trail: AuditTrail,
        page_keys: int = PAGE_KEYS,
    ) -> None:
        self._journal = journal
        self._database = database
        self._data_keys = data_keys
        self._store = store
        self._facts = facts
        self._trail = trail
        self._page_keys = page_keys

    async def pending(self) -> ReplayReport:
        """What a replay would erase now (`memlane verify`, `upgrade --dry-run`); writes nothing."""
        records, damaged, checked, found = await self._scan()
        return ReplayReport(records, checked, tuple(k.owner for k in found), 0, damaged)

    async def replay(self) -> ReplayReport:
        """Erase again every owner whose stored key the journal names; logged with its count."""
        if self._journal is not None:
            # From now on a start without this journal's key is refused, never given a new one.
            await self._database.journal_key(self._journal.key_id)
        records, damaged, checked, found = await self._scan()
        owners: list[Owner] = []
        memories = 0
        with acting_as(ERASURE_REPLAY_ACTOR):
            for key in found:
                erased = await self._erase_if_still(key)
                if erased is not None:
                    owners.append(key.owner)
                    memories += erased
        report = ReplayReport(records, checked, tuple(owners), memories, damaged)
        if damaged:
            log.warning("erasure journal: %d damaged lines skipped (not records)", damaged)
        if owners:
            log.warning("erasure journal replayed: %d erased owners found in the database "
                        "(restored from before their erasure) erased again, %d memories",
                        len(owners), memories)
        elif records:
            log.info("erasure journal: %d records, %d data keys checked, nothing to erase again",
                     records, checked)
        return report

    async def _scan(self) -> tuple[int, int, int, list[KeyRef]]:
        if self._journal is None:
            return 0, 0, 0, []
        contents = await self._journal.contents()
        if not contents.digests:
            return 0, contents.damaged, 0, []
        journal, found, checked = self._journal, [], 0
        after: Owner | None = None
        while page := await self._database.keys_after(after, self._page_keys):
            checked += len(page)
            found += to_erase_again(page, lambda key: journal.names(contents, key))
            after = page[-1].owner
        return len(contents.digests), contents.damaged, checked, found

    async def _erase_if_still(self, key: KeyRef) -> int | None:
        """Erase the owner if `key` is still their key, checked under their lock (a live
        erasure may have replaced it since the scan); the memories erased, or None."""
        try:
            async with self._trail.change(key.owner) as changes:
                current = await self._data_keys.load([key.owner])
                if [k.id for k in current] != [key.key_id]:
                    raise _NotTheJournaledKey
                return await erase_owner(key.owner, changes, self._store, self._facts,
                                         self._trail)
        except _NotTheJournaledKey:
            return None
