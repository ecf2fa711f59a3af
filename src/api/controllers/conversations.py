"""Conversations (/v1/conversations/{id}/messages): a chat's messages stored as segments."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from litestar.status_codes import HTTP_201_CREATED

from memlane.api.deps import MEMORIES, Memories, owner_from_body
from memlane.api.graph_schemas import AddedMessagesOut, EdgeOut, MessagesIn
from memlane.api.mapping import memory_out
from memlane.api.metrics import ApiMetrics
from memlane.api.params import ERRORS, WRITE
from memlane.domain.memories import Message, Role
from memlane.domain.model import Owner

ConversationIdParam = Annotated[
    str, Parameter(min_length=1, max_length=200, description="The conversation (session) id.")
]


class ConversationsController(Controller):
    """Messages of a conversation, remembered as PMG segments."""

    path = "/v1/conversations"
    tags = ["conversations"]
    dependencies = {"memories": MEMORIES, "owner": owner_from_body(MessagesIn)}

    @post(
        "/{conversation_id:str}/messages", operation_id="addMessages", opt=WRITE,
        raises=ERRORS, status_code=HTTP_201_CREATED,
    )
    async def add_messages(
        self,
        conversation_id: ConversationIdParam,
        data: JSONBody[MessagesIn],
        memories: Memories,
        owner: NamedDependency[Owner],
        metrics: NamedDependency[ApiMetrics],
    ) -> AddedMessagesOut:
        """Store the messages: each user message with the assistant reply after it is one
        memory (never merged), a tool message a tool_result memory; consecutive segments are
        chained both ways. Answers the memories created and every edge made."""
        messages = [
            Message(Role(m.role), m.content, m.created_at, m.name) for m in data.messages
        ]
        added = await memories.add_messages(owner, conversation_id, messages)
        for _ in added.memories:
            metrics.stored(False)
        return AddedMessagesOut(
            memories=[memory_out(m) for m in added.memories],
            edges=[
                EdgeOut(source=e.source, target=e.target, kind=e.kind.value, weight=e.weight)
                for e in added.edges
            ],
        )
