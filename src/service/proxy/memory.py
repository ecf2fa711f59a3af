"""The part of MemoryService the proxy uses, and the learning of one exchange through it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from memlane.domain.memories import AddedMessages, Message, Role
from memlane.domain.model import Cursor, Memory, MemoryFilter, Owner, Page, PromptContext
from memlane.domain.proxy import SOURCE, SOURCE_KEY, TURN_KEY
from memlane.domain.retrieval import ContextOptions


class ProxyMemory(Protocol):
    """MemoryService's public methods the proxy calls (the same as the REST routes')."""

    async def prompt_context(
        self, owner: Owner, query: str, limit: int | None = None,
        options: ContextOptions | None = None,
    ) -> PromptContext: ...

    async def add_messages(
        self, owner: Owner, conversation_id: str, messages: Sequence[Message],
        metadata: Mapping[str, Any] | None = None,
    ) -> AddedMessages: ...

    async def list(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[Memory]: ...

    async def delete(self, owner: Owner, memory_id: Any) -> None: ...


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
