"""HttpMemoryContextAdapter: MemoryContextPort over memlane's REST API (POST /v1/context)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import httpx
import msgspec

from memlane.domain.errors import ConfigurationError, InvalidMemory, StorageUnavailable
from memlane.domain.model import MemoryContext, MemoryType, PromptContext
from memlane.ports.context import MemoryContextPort

CONTEXT_PATH = "/v1/context"


class _WireMemory(msgspec.Struct):
    """One memory of the /v1/context response; unknown fields are ignored so newer servers
    can add fields without breaking older clients."""

    id: UUID
    content: str
    memory_type: MemoryType
    relevance: float
    similarity: float
    importance: float
    created_at: datetime
    tags: list[str] = msgspec.field(default_factory=list)
    metadata: dict[str, Any] = msgspec.field(default_factory=dict)


class _WireContext(msgspec.Struct):
    memories: list[_WireMemory]
    context: str


_decoder = msgspec.json.Decoder(_WireContext)


def _to_domain(body: _WireContext) -> PromptContext:
    memories = tuple(
        MemoryContext(
            id=m.id,
            content=m.content,
            memory_type=m.memory_type,
            relevance=m.relevance,
            similarity=m.similarity,
            importance=m.importance,
            created_at=m.created_at,
            tags=tuple(m.tags),
            metadata=m.metadata,
        )
        for m in body.memories
    )
    return PromptContext(memories=memories, text=body.context)


class HttpMemoryContextAdapter(MemoryContextPort):
    """Fetches prompt context from a remote memlane server.

    Keeps one pooled HTTP client (keep-alive) for its lifetime; close it with `aclose()` or
    use the adapter as an async context manager. Server or network trouble raises
    StorageUnavailable (the caller can answer without memories); a rejected token or a user
    outside the token's reach raises ConfigurationError; a rejected query InvalidMemory.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        timeout_ms: int = 5_000,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if timeout_ms <= 0:
            raise ValueError("timeout_ms must be positive")
        self._client = httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
            timeout=timeout_ms / 1000,
            transport=transport,
        )

    async def retrieve_context(
        self, user_id: str, query: str, limit: int | None = None
    ) -> list[MemoryContext]:
        return list((await self.prompt_context(user_id, query, limit)).memories)

    async def prompt_context(
        self, user_id: str, query: str, limit: int | None = None
    ) -> PromptContext:
        payload: dict[str, Any] = {"user_id": user_id, "query": query}
        if limit is not None:
            payload["limit"] = limit
        try:
            response = await self._client.post(
                CONTEXT_PATH,
                content=msgspec.json.encode(payload),
                headers={"Content-Type": "application/json"},
            )
        except httpx.HTTPError as exc:
            raise StorageUnavailable(f"memlane server unreachable: {type(exc).__name__}") from exc
        if response.status_code == 200:
            try:
                return _to_domain(_decoder.decode(response.content))
            except msgspec.ValidationError as exc:
                raise StorageUnavailable("memlane server sent an unexpected response") from exc
        raise _error_for(response)

    async def aclose(self) -> None:
        await self._client.aclose()

    async def __aenter__(self) -> HttpMemoryContextAdapter:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def _error_for(response: httpx.Response) -> Exception:
    """The domain error for a problem+json answer (its detail, never memory content)."""
    try:
        detail = str(response.json().get("detail", ""))
    except ValueError:
        detail = ""
    status = response.status_code
    if status in (401, 403):
        return ConfigurationError(f"memlane rejected the token ({status}): {detail}")
    if status == 404:
        return ConfigurationError(f"user outside this token's reach: {detail}")
    if 400 <= status < 500:
        return InvalidMemory(f"memlane rejected the request ({status}): {detail}")
    return StorageUnavailable(f"memlane server error ({status}): {detail}")
