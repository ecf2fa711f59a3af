"""The topic index filled in for memories stored before it was kept (a `memlane upgrade`
step), in batches that each commit: stop it any time, run it again."""

from __future__ import annotations

import logging
from collections.abc import Callable

from memlane.domain.errors import DecryptionFailed
from memlane.domain.facts import MemoryTopicTokens, TopicIndexReport, topics_of
from memlane.domain.security import RowKey
from memlane.ports.encryption import EncryptionPort
from memlane.ports.facts import TopicIndexPort
from memlane.service.security import AttributeSealer, KeyringService, owners_of

log = logging.getLogger(__name__)
DEFAULT_BATCH_ROWS = 500


class TopicIndexer:
    """Walks every owner's memories without topic tokens, opens their attributes and writes
    the tokens of their topics. Reads stay right throughout: a memory without tokens is read
    the old way (docs/facts.md, "Topics")."""

    def __init__(
        self, rows: TopicIndexPort, encryption: EncryptionPort,
        keyring: KeyringService | None = None,
    ) -> None:
        self._rows = rows
        self._attributes = AttributeSealer(encryption)
        self._keyring = keyring

    async def pending(self) -> int:
        """How many memories `fill` would visit now, read only."""
        return await self._rows.count_untokened()

    async def fill(
        self, *, batch_rows: int = DEFAULT_BATCH_ROWS, progress: Callable[[int], None] | None = None
    ) -> TopicIndexReport:
        """Tokens for every memory without them; `progress` hears how many were filled so
        far. A memory whose attributes do not open keeps none (the reads leave it out, as
        before) and is counted: `memlane verify` finds it."""
        if batch_rows < 1:
            raise ValueError("batch_rows must be at least 1")
        filled = unreadable = 0
        after: RowKey | None = None
        while batch := await self._rows.untokened_batch(after, batch_rows):
            if self._keyring is not None:
                await self._keyring.ready(owners_of(batch))
            tokens = []
            for row in batch:
                try:
                    attributes = self._attributes.open(row)
                except DecryptionFailed:
                    unreadable += 1
                    continue
                topics = topics_of(attributes.tags, attributes.metadata)
                tokens.append(MemoryTopicTokens(
                    row.owner, row.id, self._attributes.topic_tokens(row.owner, topics)))
            filled += await self._rows.store_tokens(tokens)
            last = batch[-1]
            after = (last.owner.tenant, last.owner.user_id, last.id)
            if progress is not None:
                progress(filled)
        remaining = await self._rows.count_untokened()
        log.info("topic index: %d memories filled, %d unreadable, %d left",
                 filled, unreadable, remaining)
        return TopicIndexReport(filled=filled, unreadable=unreadable, remaining=remaining)
