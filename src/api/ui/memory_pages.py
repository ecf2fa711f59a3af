"""The inspector's memory pages: the list (filtered, searched, paged) and one memory in full."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import urlencode
from uuid import UUID

from litestar import Controller, Response, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, QueryParameter

from memlane.api.cursor import decode_cursor, encode_cursor
from memlane.api.deps import MEMORIES, Memories
from memlane.api.ui import forms
from memlane.api.ui.forms import Form
from memlane.api.ui.graph_drawing import draw_neighbourhood
from memlane.api.ui.history_view import history_rows
from memlane.api.ui.rendering import page, see_other
from memlane.api.ui.session import UI_PATH, WRITING, UiSession, current_session
from memlane.domain.errors import InvalidMemory
from memlane.domain.model import Memory, MemoryFilter, MemoryPatch, MemoryType, Owner
from memlane.service.security import AuditService

PAGE_SIZE = 25
SEARCH_POOL = 100  # search ranks this many, the filters and pages apply to them
MEMORIES_PATH = f"{UI_PATH}/memories"


def _matches(memory: Memory, filters: MemoryFilter) -> bool:
    """The list filters applied to a search hit (the store applies them to a listing)."""
    if filters.memory_type is not None and memory.memory_type != filters.memory_type:
        return False
    if filters.current is not None and memory.current != filters.current:
        return False
    if filters.tag is not None and filters.tag not in memory.tags:
        return False
    return filters.min_importance is None or memory.importance >= filters.min_importance


def _link(params: dict[str, str], **more: str) -> str:
    return f"{MEMORIES_PATH}?{urlencode({**params, **more})}"


@dataclass(frozen=True, slots=True)
class Listing:
    """One page of the list: the memories, their search score (what orders a search), the
    current memory each superseded one leads to, the page links."""

    items: Sequence[Memory] = ()
    scores: Mapping[UUID, float] = field(default_factory=dict)
    next_link: str | None = None
    first_link: str | None = None
    current: Mapping[UUID, UUID] = field(default_factory=dict)


async def _searched(
    memories: Memories, owner: Owner, text: str, filters: MemoryFilter,
    query: forms.ListQuery, page_number: int,
) -> Listing:
    hits = await memories.search(owner, text, limit=SEARCH_POOL)
    found = [h for h in hits if _matches(h.memory, filters)]
    start = (page_number - 1) * PAGE_SIZE
    shown = found[start : start + PAGE_SIZE]
    params = query.as_params()
    return Listing(
        items=[h.memory for h in shown],
        scores={h.memory.id: h.score for h in shown},
        current=await memories.current_of(owner, [h.memory for h in shown]),
        next_link=_link(params, page=str(page_number + 1))
        if start + PAGE_SIZE < len(found) else None,
        first_link=_link(params) if page_number > 1 else None,
    )


async def _listed(
    memories: Memories, owner: Owner, filters: MemoryFilter, query: forms.ListQuery,
    cursor: str | None,
) -> Listing:
    position = decode_cursor(cursor) if cursor else None
    listed = await memories.list(owner, filters, position, PAGE_SIZE)
    params = query.as_params()
    return Listing(
        items=listed.items,
        current=await memories.current_of(owner, listed.items),
        next_link=_link(params, cursor=encode_cursor(listed.next_cursor))
        if listed.next_cursor is not None else None,
        first_link=_link(params) if cursor else None,  # keyset pages go forward only
    )


class MemoryPagesController(Controller):
    """/ui/memories: what the signed-in key's user has stored, and its correction."""

    path = MEMORIES_PATH
    include_in_schema = False
    dependencies = {"memories": MEMORIES, "session": Provide(current_session)}

    @get("/")
    async def list_memories(
        self,
        memories: Memories,
        session: NamedDependency[UiSession],
        memory_type: Annotated[str, QueryParameter(name="type", max_length=40)] = "",
        tag: Annotated[str, QueryParameter(max_length=200)] = "",
        min_importance: Annotated[str, QueryParameter(max_length=20)] = "",
        q: Annotated[str, QueryParameter(max_length=forms.MAX_QUERY_CHARS)] = "",
        cursor: Annotated[str | None, QueryParameter(max_length=400)] = None,
        page_number: Annotated[int, QueryParameter(name="page", ge=1, le=10)] = 1,
        deleted: Annotated[bool, QueryParameter()] = False,
        current: Annotated[str, QueryParameter(max_length=5)] = "",
    ) -> Response[Any]:
        """Newest first with keyset pages; with `q`, the hybrid search's best matches."""
        query = forms.ListQuery(memory_type, tag, min_importance, q, current)
        error, status, listing = None, 200, Listing()
        try:
            filters, text = query.filters(), query.query()
        except InvalidMemory as refused:
            error, status = str(refused), 422
        else:
            if text is not None:
                listing = await _searched(memories, session.owner, text, filters, query,
                                          page_number)
            else:
                listing = await _listed(memories, session.owner, filters, query, cursor)
        return page(
            "memories.html", session, status, query=query, listing=listing, error=error,
            deleted=deleted, types=list(MemoryType),
        )

    @get("/{memory_id:uuid}")
    async def show(
        self,
        memory_id: FromPath[UUID],
        state: State,
        memories: Memories,
        session: NamedDependency[UiSession],
        depth: Annotated[int, QueryParameter(ge=1, le=2)] = 1,
        done: Annotated[str, QueryParameter(max_length=20)] = "",
    ) -> Response[Any]:
        """One memory in full, its edit form, its history and its neighbourhood drawn."""
        memory = await memories.get(session.owner, memory_id)
        return await self._detail(state, memories, session, memory, depth, done, None, 200)

    async def _detail(
        self, state: State, memories: Memories, session: UiSession, memory: Memory,
        depth: int, done: str, error: str | None, status: int,
        form: dict[str, str] | None = None,
    ) -> Response[Any]:
        try:
            hood = await memories.neighbourhood(session.owner, memory.id, depth)
            drawing = draw_neighbourhood(memory.id, hood, MEMORIES_PATH)
        except InvalidMemory:  # this memlane runs without graph memory
            drawing = None
        audit: AuditService | None = state.services.audit  # None: no audit trail kept
        history = (
            history_rows(await audit.memory_history(session.owner, memory.id))
            if audit is not None else None
        )
        heads = await memories.current_of(session.owner, [memory])
        return page(
            "memory.html", session, status, memory=memory, drawing=drawing, depth=depth,
            done=done, error=error, form=form, types=list(MemoryType), history=history,
            current=heads.get(memory.id, memory.superseded_by),
        )

    @post("/{memory_id:uuid}", status_code=303, dependencies=WRITING)
    async def edit(
        self, memory_id: FromPath[UUID], data: Form, memories: Memories,
        session: NamedDependency[UiSession], state: State,
    ) -> Response[Any]:
        """Content, type, tags and importance as the form shows them."""
        try:
            await memories.update(session.owner, memory_id, forms.patch(data))
        except InvalidMemory as error:
            memory = await memories.get(session.owner, memory_id)
            return await self._detail(
                state, memories, session, memory, 1, "", str(error), 422, data
            )
        return see_other(f"{MEMORIES_PATH}/{memory_id}?done=saved")

    @post("/{memory_id:uuid}/pin", status_code=303, dependencies=WRITING)
    async def pin(
        self, memory_id: FromPath[UUID], data: Form, memories: Memories,
        session: NamedDependency[UiSession],
    ) -> Response[Any]:
        """Pin (cleanup never deletes a pinned memory) or unpin."""
        pinned = data.get("pinned") == "true"
        await memories.update(session.owner, memory_id, MemoryPatch(pinned=pinned))
        return see_other(f"{MEMORIES_PATH}/{memory_id}?done={'pinned' if pinned else 'unpinned'}")

    @post("/{memory_id:uuid}/delete", status_code=303, dependencies=WRITING)
    async def delete(
        self, memory_id: FromPath[UUID], data: Form, memories: Memories,
        session: NamedDependency[UiSession],
    ) -> Response[Any]:
        """Delete for good; the form must tick the confirmation."""
        if data.get("confirm") != "yes":
            raise InvalidMemory("tick the confirmation to delete this memory")
        await memories.delete(session.owner, memory_id)
        return see_other(f"{MEMORIES_PATH}?deleted=true")
