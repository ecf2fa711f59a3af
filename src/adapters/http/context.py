"""HttpMemoryContextAdapter: MemoryContextPort over memlane's REST API, on AsyncMemlaneClient."""

from __future__ import annotations

import httpx

from memlane.client import AsyncMemlaneClient, RetryPolicy
from memlane.domain.model import MemoryContext, PromptContext
from memlane.ports.context import MemoryContextPort


class HttpMemoryContextAdapter(MemoryContextPort):
    """Fetches prompt context from a remote memlane server (POST /v1/context).

    Keeps one pooled client (keep-alive) for its lifetime; close it with `aclose()` or use
    the adapter as an async context manager; `client` is the whole REST API for a service
    that also writes. Server or network trouble raises StorageUnavailable (the caller can
    answer without memories); a rejected token or a user outside the token's reach raises
    ConfigurationError; a rejected query InvalidMemory. 503 answers are retried after their
    Retry-After, waiting no longer than `timeout_ms` in all unless `retry` says otherwise.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        timeout_ms: int = 5_000,
        *,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        if timeout_ms <= 0:
            raise ValueError("timeout_ms must be positive")
        self.client = AsyncMemlaneClient(
            base_url, token, timeout_s=timeout_ms / 1000,
            retry=retry or RetryPolicy(max_total_s=timeout_ms / 1000), transport=transport,
        )

    async def retrieve_context(
        self, user_id: str, query: str, limit: int | None = None
    ) -> list[MemoryContext]:
        return await self.client.retrieve_context(user_id, query, limit)

    async def prompt_context(
        self, user_id: str, query: str, limit: int | None = None
    ) -> PromptContext:
        return await self.client.prompt_context(user_id, query, limit)

    async def aclose(self) -> None:
        await self.client.aclose()

    async def __aenter__(self) -> HttpMemoryContextAdapter:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
