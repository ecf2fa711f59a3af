"""Who acts for an HTTP request: each request runs in its own actor slot, which
authentication fills with the request's key (the audit trail records it)."""

from __future__ import annotations

from typing import Any

from memlane.domain.security import API_WITHOUT_AUTH
from memlane.service.security import acting_as


def actor_middleware(app: Any) -> Any:
    """ASGI middleware: a fresh actor slot per HTTP request (`api` until a key is known)."""

    async def with_actor(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        with acting_as(API_WITHOUT_AUTH):
            await app(scope, receive, send)

    return with_actor
