"""MemlaneClient: the REST API from synchronous Python (scripts, notebooks, WSGI apps)."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
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
from .routes import SyncRoutes
from .types import MemoryPage

T = TypeVar("T")


class MemlaneClient(SyncRoutes):
    """A memlane server over HTTP, one pooled connection set (keep-alive) per client.

    Close it with `close()` or use it as a context manager. 503 answers are retried after
    their Retry-After within `retry`; problem+json answers raise memlane's exceptions
    (memlane.client.errors)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        timeout_s: float = 10.0,
        retry: RetryPolicy | None = None,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.retry = retry or RetryPolicy()
        self._http = httpx.Client(
            **http_options(base_url, token, headers, timeout_s), transport=transport
        )

    def send(self, call: Call[T]) -> T:
        response = self._exchange(call)
        return finish(call, response.status_code, response.content)

    def export(self, *, user_id: str | None = None) -> Iterator[Memory]:
        """All of the user's memories, oldest first, read as the server streams them."""
        for memory in self.lines(memory_calls.export(user_id=user_id)):
            if memory is not None:
                yield memory

    def export_records(self, *, user_id: str | None = None) -> Iterator[dict[str, Any]]:
        """The whole export line by line (memories, edges, entities), e.g. for a backup."""
        return self.lines(memory_calls.export_records(user_id=user_id))

    def lines(self, call: Call[T]) -> Iterator[T]:
        """An NDJSON answer, each line decoded as it arrives."""
        response = self._exchange(call, stream=True)
        try:
            if not succeeded(call, response.status_code):
                raise problem_error(response.status_code, response.read())
            for line in response.iter_lines():
                if line.strip():
                    yield decoded(call, line.encode())
        except httpx.TransportError as exc:
            raise unreachable(exc) from exc
        finally:
            response.close()

    def pages(
        self, *, user_id: str | None = None, filters: MemoryFilter | None = None,
        limit: int = 50,
    ) -> Iterator[MemoryPage]:
        """Every page of `list`, fetched as it is consumed."""
        cursor: str | None = None
        while True:
            page = self.send(memory_calls.list_page(
                user_id=user_id, filters=filters, cursor=cursor, limit=limit))
            yield page
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def _exchange(self, call: Call[Any], *, stream: bool = False) -> httpx.Response:
        request = self._http.build_request(
            call.method, call.path, params=call.params, content=call.body, headers=call.headers
        )
        attempts = Attempts(call, self.retry)
        while True:
            try:
                response = self._http.send(request, stream=stream)
            except httpx.TransportError as exc:
                raise unreachable(exc) from exc
            delay = attempts.delay_after(response)
            if delay is None:
                return response
            response.close()
            time.sleep(delay)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> MemlaneClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
