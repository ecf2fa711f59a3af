"""The memory tools: remember, add_messages, recall, get_context, forget, update."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from memlane.domain.memories import Message, Role
from memlane.domain.model import MemoryPatch, MemoryType, NewMemory
from memlane.domain.security import Scope
from memlane.mcp_server.caller import acting, tool_errors
from memlane.mcp_server.views import context_entry_view, memory_view, scored_view
from memlane.service.tenant_inputs import context_options

READS = ToolAnnotations(read_only_hint=True)
ADDS = ToolAnnotations(read_only_hint=False, destructive_hint=False)
CHANGES = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True)

UserId = Annotated[
    str | None,
    Field(description="Only for a key not bound to a user (an operator's key): whose memory. "
                      "Leave it out otherwise."),
]
Importance = Annotated[float | None, Field(ge=0, le=1, description="0-1; estimated if left out.")]
Tags = Annotated[list[str] | None, Field(description="Short labels to filter and group by.")]
# As REST's `current` on memories: null (the default) shows both.
Current = Annotated[
    bool | None,
    Field(description="true: only memories that hold now; false: only replaced ones; "
                      "null: both."),
]


class ChatMessage(BaseModel):
    role: Literal["user", "assistant", "system", "tool"]
    content: str
    name: str | None = Field(None, description="Who spoke, in a conversation of several people.")
    created_at: datetime | None = Field(None, description="When it was said (ISO 8601).")


def register_memory_tools(server: MCPServer) -> None:
    """Add the memory tools to `server`."""

    @server.tool(annotations=ADDS)
    async def remember(
        content: Annotated[str, Field(description="One self-contained statement to keep.")],
        memory_type: MemoryType | None = None,
        importance: Importance = None,
        tags: Tags = None,
        pinned: Annotated[bool, Field(description="Pinned memories never fade.")] = False,
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """Store something worth remembering about the user across conversations: a fact,
        a preference, a correction of something remembered wrongly. Write it so it reads on
        its own later ("Ana is allergic to peanuts", not "she is allergic"). A near-duplicate
        of a stored memory merges into it (merged: true). The type is inferred when omitted."""
        with tool_errors("remember"):
            owner, services = acting(Scope.WRITE, user_id)
            new = NewMemory(content=content, memory_type=memory_type, importance=importance,
                            tags=tuple(tags or ()), pinned=pinned)
            result = await services.memories.remember(owner, new)
            return {"memory": memory_view(result.memory), "merged": result.merged}

    @server.tool(annotations=ADDS)
    async def add_messages(
        conversation_id: Annotated[str, Field(description="The conversation's stable id.")],
        messages: Annotated[list[ChatMessage], Field(min_length=1)],
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """Store the turns of a conversation, in order, as memories of that conversation
        (a user message with the reply after it becomes one segment; nothing is merged).
        Use it to keep a transcript; use `remember` for single facts."""
        with tool_errors("add_messages"):
            owner, services = acting(Scope.WRITE, user_id)
            turns = [Message(Role(m.role), m.content, m.created_at, m.name) for m in messages]
            added = await services.memories.add_messages(owner, conversation_id, turns)
            return {"memory_ids": [str(m.id) for m in added.memories], "edges": len(added.edges)}

    @server.tool(annotations=READS)
    async def recall(
        query: Annotated[str, Field(description="What to look for, in natural language.")],
        limit: Annotated[int, Field(ge=1, le=50)] = 10,
        current: Current = None,
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """Search the user's memories by meaning and by words, best first (`score` orders
        them), with their ids (for `update` and `forget`). A memory something newer replaced
        (a move, a changed plan) has current: false and superseded_by, and ranks below what
        replaced it. Use it to look something up; use `get_context` for a ready-to-read
        block before answering."""
        with tool_errors("recall"):
            owner, services = acting(Scope.READ, user_id)
            hits = await services.memories.search(owner, query, limit=limit, current=current)
            return {"results": [scored_view(h) for h in hits]}

    @server.tool(annotations=READS)
    async def get_context(
        query: Annotated[str, Field(description="The user's message or the topic at hand.")],
        limit: Annotated[int | None, Field(ge=1, le=50)] = None,
        conversation_id: Annotated[
            str | None,
            Field(description="The current conversation: its own memories are left out."),
        ] = None,
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """What memlane remembers that bears on the query, as one block of text to read
        before answering (corrections and facts first, within a size budget), and the
        memories it drew on."""
        with tool_errors("get_context"):
            owner, services = acting(Scope.READ, user_id)
            options = context_options(conversation_id=conversation_id)
            context = await services.memories.prompt_context(owner, query, limit, options)
            return {"context": context.text,
                    "memories": [context_entry_view(m) for m in context.memories]}

    @server.tool(annotations=CHANGES)
    async def forget(memory_id: UUID, user_id: UserId = None) -> dict[str, Any]:
        """Delete one memory for good (its links go with it). Find its id with `recall`.
        What it had replaced holds again (the user asked to forget the newer statement)."""
        with tool_errors("forget"):
            owner, services = acting(Scope.WRITE, user_id)
            await services.memories.delete(owner, memory_id)
            return {"forgotten": str(memory_id)}

    @server.tool(annotations=CHANGES)
    async def update(
        memory_id: UUID,
        content: Annotated[str | None, Field(description="The corrected text.")] = None,
        memory_type: MemoryType | None = None,
        importance: Importance = None,
        tags: Annotated[list[str] | None, Field(description="Replaces the tags.")] = None,
        pinned: bool | None = None,
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """Correct or re-file one memory: only the fields given change. New content is
        embedded again; a new importance restarts its fading. Find its id with `recall`."""
        with tool_errors("update"):
            owner, services = acting(Scope.WRITE, user_id)
            patch = MemoryPatch(content=content, memory_type=memory_type, importance=importance,
                                tags=None if tags is None else tuple(tags), pinned=pinned)
            return memory_view(await services.memories.update(owner, memory_id, patch))
