"""A stub of Ollama's HTTP API on loopback: records each request, answers by script.

One request per connection. Each scripted reply writes a JSON answer (or nothing, or waits);
with the script empty the server answers with its `fallback` reply. The embedding and the
chat stubs differ only in their replies."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable
from typing import Any

Reply = Callable[[asyncio.StreamWriter, dict[str, Any]], Awaitable[None]]


async def send(writer: asyncio.StreamWriter, status: int, payload: object) -> None:
    body = json.dumps(payload).encode()
    head = (
        f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    writer.write(head.encode() + body)
    await writer.drain()


def status(code: int, error: str) -> Reply:
    async def reply(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
        await send(writer, code, {"error": error})
    return reply


async def hang_up(writer: asyncio.StreamWriter, request: dict[str, Any]) -> None:
    """Close the connection without answering, like a crashing server."""


def free_port_url() -> str:
    """An address where nothing listens (a port bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


class StubOllamaServer:
    """The server; `requests` holds (method, path, body) of each request received."""

    def __init__(self, fallback: Reply) -> None:
        self.script: list[Reply] = []
        self.requests: list[tuple[str, str, dict[str, Any]]] = []
        self._fallback = fallback
        self._handlers: set[asyncio.Task[Any]] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in self._handlers:
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            first = (await reader.readline()).decode().split()
            if len(first) != 3:  # a client that gave up before sending its request
                return
            method, path, _ = first
            headers: dict[str, str] = {}
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, value = line.decode().split(":", 1)
                headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            request = json.loads(body)
            self.requests.append((method, path, request))
            reply = self.script.pop(0) if self.script else self._fallback
            await reply(writer, request)
        finally:
            writer.close()
            self._handlers.discard(task)
