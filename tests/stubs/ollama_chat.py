"""A stub of Ollama's POST /api/chat on loopback (tests/stubs/ollama_server.py): each
scripted reply is a message content (the model's JSON, or not), a status with an error, a
hang-up, or a stall that holds the connection until the client gives up; with the script
empty it answers an empty patch."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.stubs.ollama_server import (
    Reply,
    StubOllamaServer,
    free_port_url,
    hang_up,
    send,
    status,
)

__all__ = ["Reply", "StubOllamaChat", "content", "free_port_url", "hang_up", "patch", "stall",
           "status"]

EMPTY_PATCH = {"nodes": [], "edges": [], "facts": []}


def content(text: str) -> Reply:
    """A chat answer whose message content is `text`."""
    async def reply(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
        await send(writer, 200, {
            "model": request["model"], "created_at": "2030-06-01T12:00:00Z",
            "message": {"role": "assistant", "content": text}, "done": True,
        })
    return reply


def patch(**lists: list[dict[str, Any]]) -> Reply:
    """A chat answer holding a patch (lists not given are empty)."""
    return content(json.dumps({**EMPTY_PATCH, **lists}))


def stall(released: asyncio.Event, then: Reply | None = None) -> Reply:
    """Hold the answer (`then`, or an empty patch) until `released` is set (or the client
    goes away)."""
    async def reply(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
        await released.wait()
        await (then or patch())(writer, request)
    return reply


class StubOllamaChat(StubOllamaServer):
    """The chat server: answers an empty patch when its script is empty."""

    def __init__(self) -> None:
        super().__init__(patch())

    def chats(self) -> list[dict[str, Any]]:
        return [body for method, path, body in self.requests
                if (method, path) == ("POST", "/api/chat")]

