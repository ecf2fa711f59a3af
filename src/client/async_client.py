"""AsyncMemlaneClient: the REST API from asyncio (a chat service, an agent runtime)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any, TypeVar

import httpx

from memlane.domain.model import Memory, MemoryFilter

from . import memory_calls
from .call import (
    Attempts,
    Call,
    decoded,
    finish,
    http_options,
    problem_error,
    succeeded,
    unreachable,
)
from .retry import RetryPolicy
from .routes import AsyncRoutes
from .types import MemoryPage

T = TypeVar("T")


class AsyncMemlaneClient(AsyncRoutes):
    """A memlane server over HTTP from asyncio: every route method is awaited.

    Close it with `aclose()` or use it as an async context manager. Retries and errors as
    MemlaneClient's."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        timeout_s: float = 10.0,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.retry = retry or RetryPolicy()
        self._http = httpx.AsyncClient(
            **http_options(base_url, token, headers, timeout_s), transport=transport
        )

    async def send(self, call: Call[T]) -> T:
        response = await self._exchange(call)
        return finish(call, response.status_code, response.content)

    async def export(self, *, user_id: str | None = None) -> AsyncIterator[Memory]:
        """All of the user's memories, oldest first, read as the server streams them."""
        async for memory in self.lines(memory_calls.export(user_id=user_id)):
            if memory is not None:
                yield memory

    def export_records(self, *, user_id: str | None = None) -> AsyncIterator[dict[str, Any]]:
        """The whole export line by line (memories, edges, entities), e.g. for a backup."""
        return self.lines(memory_calls.export_records(user_id=user_id))

    async def lines(self, call: Call[T]) -> AsyncIterator[T]:
        """An NDJSON answer, each line decoded as it arrives."""
        response = await self._exchange(call, stream=True)
        try:
            if not succeeded(call, response.status_code):
                raise problem_error(response.status_code, await response.aread())
            async for line in response.aiter_lines():
                if line.strip():
                    yield decoded(call, line.encode())
        except httpx.TransportError as exc:
            raise unreachable(exc) from exc
        finally:
            await response.aclose()

    async def pages(
        self, *, user_id: str | None = None, filters: MemoryFilter | None = None,
        limit: int = 50,
    ) -> AsyncIterator[MemoryPage]:
        """Every page of `list`, fetched as it is consumed."""
        cursor: str | None = None
        while True:
            page = await self.send(memory_calls.list_page(
                user_id=user_id, filters=filters, cursor=cursor, limit=limit))
            yield page
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    async def _exchange(self, call: Call[Any], *, stream: bool = False) -> httpx.Response:
        request = self._http.build_request(
            call.method, call.path, params=call.params, content=call.body, headers=call.headers
        )
        attempts = Attempts(call, self.retry)
        while True:
            try:
                response = await self._http.send(request, stream=stream)
            except httpx.TransportError as exc:
                raise unreachable(exc) from exc
            delay = attempts.delay_after(response)
            if delay is None:
                return response
            await response.aclose()
            await asyncio.sleep(delay)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncMemlaneClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
