"""The proxy's memory: read a context (a failure only leaves it out), learn one exchange."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from memlane.domain.errors import EmbeddingUnavailable, StorageUnavailable
from memlane.domain.memories import AddedMessages, Message, Role
from memlane.domain.model import Cursor, Memory, MemoryFilter, Owner, Page, PromptContext
from memlane.domain.proxy import SOURCE, SOURCE_KEY, TURN_KEY
from memlane.domain.retrieval import ContextOptions


class ProxyMemory(Protocol):
    """MemoryService's public methods the proxy calls (the same as the REST routes')."""

    def prompt_context(
        self, owner: Owner, /, query: str, limit: int | None = None,
        options: ContextOptions | None = None,
    ) -> Awaitable[PromptContext]: ...

    def add_messages(
        self, owner: Owner, /, conversation_id: str, messages: Sequence[Message],
        metadata: Mapping[str, Any] | None = None,
    ) -> Awaitable[AddedMessages]: ...

    def list(
        self, owner: Owner, /, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Awaitable[Page[Memory]]: ...

    def delete(self, owner: Owner, /, memory_id: UUID) -> Awaitable[None]: ...


log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LearnJob:
    """An exchange to store: whose, in which conversation, for which turn."""

    owner: Owner
    conversation_id: str
    turn: str
    question: str
    answer: str


async def learn(memory: ProxyMemory, job: LearnJob) -> None:
    """Store the exchange as one segment of its conversation (POST /v1/conversations/{id}/
    messages' path: chain, supersession, facts). When the conversation's newest segment
    answers the same turn, the answer was regenerated: it replaces that segment."""
    newest = await memory.list(
        job.owner, MemoryFilter(conversation_id=job.conversation_id), None, 1
    )
    for earlier in newest.items:
        if earlier.metadata.get(TURN_KEY) == job.turn:
            await memory.delete(job.owner, earlier.id)
    await memory.add_messages(
        job.owner,
        job.conversation_id,
        [Message(Role.USER, job.question), Message(Role.ASSISTANT, job.answer)],
        {SOURCE_KEY: SOURCE, TURN_KEY: job.turn},
    )


log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MemoryRead:
    """The context found (None: nothing asked), or what failed (`failed`, for a header)."""

    context: PromptContext | None = None
    failed: str | None = None


async def read_memory(
    memory: ProxyMemory, owner: Owner, query: str, options: ContextOptions
) -> MemoryRead:
    """POST /v1/context's path (MemoryService.prompt_context, its budget) for the query. A
    database or embedder down, or any other failure, is logged without content and reported;
    the chat goes on without memory."""
    if not query:
        return MemoryRead()
    try:
        return MemoryRead(await memory.prompt_context(owner, query, None, options))
    except StorageUnavailable:
        log.warning("proxy: the database is unavailable; forwarded without memory")
        return MemoryRead(failed="database unavailable")
    except EmbeddingUnavailable:
        log.warning("proxy: the embedder is unavailable; forwarded without memory")
        return MemoryRead(failed="embedder unavailable")
    except Exception as error:
        # Type and frames, never the message: it may quote the user's words.
        log.error(
            "proxy: reading memory failed (%s); forwarded without memory\n%s",
            type(error).__name__, "".join(traceback.format_tb(error.__traceback__)),
        )
        return MemoryRead(failed="memory failed")
