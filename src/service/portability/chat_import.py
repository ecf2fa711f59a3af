"""Importing chat exports: each chat a conversation, only messages not imported before."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from memlane.domain.model import Owner
from memlane.domain.portability import (
    IMPORT_ACTOR,
    SOURCE_KEY,
    TITLE_KEY,
    ChatSource,
    ImportedChat,
    ImportInProgress,
    ImportSummary,
    keyed_messages,
    plan_chat,
)
from memlane.ports.encryption import EncryptionPort
from memlane.ports.portability import ChatExportPort, ImportLedgerPort
from memlane.service.memory_service import MemoryService

# Chats read and checked against the ledger together (one statement per batch); a batch
# closes at this many messages or chats, whichever comes first.
BATCH_MESSAGES = 512
BATCH_CHATS = 64
# Imports running at once in one process; more wait their turn. Each holds a database
# connection for its lock beside the ones its writes take, so unbounded imports could take
# the whole pool and leave their writes waiting for a connection forever.
MAX_RUNNING_IMPORTS = 2


class ImportProgress(Protocol):
    """Told the number of chats once the file is checked, then each batch as it is done."""

    def start(self, chats: int) -> None: ...

    def advance(self, chats: int) -> None: ...


class ChatImporter:
    """Checks the whole export before writing anything, then stores each chat's new messages
    through the conversation use case (MemoryService.add_messages): an exchange per memory,
    chained. A message's key joins the ledger once its memory is stored."""

    def __init__(
        self,
        memories: MemoryService,
        ledger: ImportLedgerPort,
        exports: ChatExportPort,
        encryption: EncryptionPort,
        actor: str = IMPORT_ACTOR,
    ) -> None:
        self._memories = memories
        self._ledger = ledger
        self._exports = exports
        self._encryption = encryption
        # Who an audit trail names for these writes; passed on once writes carry an actor.
        self.actor = actor
        self._running = asyncio.Semaphore(MAX_RUNNING_IMPORTS)

    async def import_file(
        self,
        owner: Owner,
        path: Path,
        source: ChatSource,
        *,
        titles: bool = True,
        progress: ImportProgress | None = None,
    ) -> ImportSummary:
        """Import an export file (conversations.json or the zip) for the owner.

        Raises ImportFormatError, storing nothing, when the file is malformed anywhere, and
        ImportInProgress when an import for the same owner is running."""
        chats = await asyncio.to_thread(_count_checked, self._exports.read(path, source))
        if progress is not None:
            progress.start(chats)
        summary = ImportSummary()
        async with self._running, self._ledger.hold(owner) as held:
            if not held:
                raise ImportInProgress(
                    f"an import for user {owner.user_id} is already running; try again later"
                )
            reading = self._exports.read(path, source)
            while batch := await asyncio.to_thread(_next_batch, reading):
                summary += await self._import_batch(owner, batch, titles)
                if progress is not None:
                    progress.advance(len(batch))
        return summary

    async def _import_batch(
        self, owner: Owner, chats: list[ImportedChat], titles: bool
    ) -> ImportSummary:
        keyed = [keyed_messages(chat) for chat in chats]
        plain = [key for messages in keyed for key, _ in messages]
        blinded = dict(zip(plain, self._encryption.blind_terms(owner.tenant, plain), strict=True))
        known = await self._ledger.known(owner, list(set(blinded.values())))
        summary = ImportSummary(chats=len(chats))
        for chat, messages in zip(chats, keyed, strict=True):
            calls = plan_chat(
                chat.conversation_id,
                [(blinded[key], message) for key, message in messages],
                known,
                max_content_bytes=self._memories.policy.max_content_bytes,
            )
            summary += ImportSummary(
                chats_added=1 if calls else 0,
                messages_known=len(messages) - sum(len(c.keys) for c in calls),
            )
            for call in calls:
                added = await self._memories.add_messages(
                    owner, call.conversation_id, call.messages, _metadata(chat, titles)
                )
                await self._ledger.record(owner, call.keys)
                known.update(call.keys)  # a chat repeated in the file is not stored twice
                summary += ImportSummary(
                    messages_added=len(call.keys),
                    messages_shortened=call.shortened,
                    memories_added=len(added.memories),
                )
        return summary


def _metadata(chat: ImportedChat, titles: bool) -> dict[str, Any]:
    metadata: dict[str, Any] = {SOURCE_KEY: chat.source}
    if titles and chat.title and chat.title.strip():
        metadata[TITLE_KEY] = chat.title.strip()
    return metadata


def _count_checked(chats: Iterator[ImportedChat]) -> int:
    """Read every chat once, so a fault anywhere in the file fails before any write."""
    return sum(1 for _ in chats)


def _next_batch(chats: Iterator[ImportedChat]) -> list[ImportedChat]:
    batch: list[ImportedChat] = []
    size = 0
    for chat in itertools.islice(chats, BATCH_CHATS):
        batch.append(chat)
        size += len(chat.messages)
        if size >= BATCH_MESSAGES:
            break
    return batch
