"""A stub OpenAI-compatible upstream (raw ASGI) that records every request it receives.

By default it answers like a model that samples: "Reply N: noted." (N counts requests), as
JSON or as server-sent events when `stream` is true, one choice per `n`, with the usage
chunk when `stream_options.include_usage` asks. A test may script the next replies: a
status and body, or events of its own, optionally holding the stream after some events
until the test releases it (or the client goes away, which it records)."""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

SendEvent = dict[str, Any] | str  # a chunk object, or a raw data line such as "[DONE]"


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def system(self) -> str:
        """The text of every system or developer message the upstream received."""
        texts = []
        for message in (self.body or {}).get("messages", []):
            if message.get("role") in ("system", "developer"):
                content = message.get("content")
                texts.append(content if isinstance(content, str) else json.dumps(content))
        return "\n".join(texts)


@dataclass
class Scripted:
    """One scripted reply: `status` with `body` (JSON), or `events` as a stream."""

    status: int = 200
    body: Any = None
    events: list[SendEvent] | None = None
    hold_after: int | None = None  # events sent before waiting for `release`
    hold_headers: bool = False  # wait for `release` before even the status line


@dataclass
class StubUpstream:
    received: list[Received] = field(default_factory=list)
    script: deque[Scripted] = field(default_factory=deque)
    release: asyncio.Event = field(default_factory=asyncio.Event)
    holding: asyncio.Event = field(default_factory=asyncio.Event)
    disconnected: asyncio.Event = field(default_factory=asyncio.Event)
    models: list[str] = field(default_factory=lambda: ["stub-model", "stub-task-model"])
    any_model: bool = False  # every model id exists (the OpenAPI fuzz run asks for any)

    def chats(self) -> list[Received]:
        return [r for r in self.received if r.path.endswith("/chat/completions")]

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        body = json.loads(raw) if raw else None
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        # The path as sent (percent-escapes kept): what an upstream routes on.
        path = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1")
        self.received.append(Received(scope["method"], path, headers, body))
        if path.endswith("/models"):
            await _json(send, 200, {"object": "list", "data": [_model(m) for m in self.models]})
        elif "/models/" in path:
            name = path.split("/models/", 1)[1]
            if name in self.models or self.any_model:
                await _json(send, 200, _model(name))
            else:
                await _json(send, 404, {"error": {"message": f"model {name} not found"}})
        elif path.endswith("/chat/completions"):
            await self._chat(body or {}, receive, send)
        else:
            await _json(send, 404, {"error": {"message": "no such route"}})

    async def _chat(self, body: dict[str, Any], receive: Any, send: Any) -> None:
        scripted = self.script.popleft() if self.script else None
        if scripted is not None and scripted.hold_headers:
            self.holding.set()
            gone = asyncio.create_task(_until_disconnect(receive))
            waiting = asyncio.create_task(self.release.wait())
            await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if gone.done():
                self.disconnected.set()
                return
            gone.cancel()
        if scripted is not None and scripted.events is None:
            await _json(send, scripted.status, scripted.body)
            return
        number = len(self.chats())
        if scripted is None:
            if body.get("stream") is not True:
                await _json(send, 200, _completion(body, number))
                return
            scripted = Scripted(events=_events(body, number))
        await send({"type": "http.response.start", "status": scripted.status,
                    "headers": [(b"content-type", b"text/event-stream")]})
        events = scripted.events or []
        gone = asyncio.create_task(_until_disconnect(receive))
        try:
            for index, event in enumerate(events):
                if scripted.hold_after is not None and index == scripted.hold_after:
                    self.holding.set()
                    waiting = asyncio.create_task(self.release.wait())
                    await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
                    waiting.cancel()
                    if gone.done():
                        self.disconnected.set()
                        return
                data = event if isinstance(event, str) else json.dumps(event)
                await send({"type": "http.response.body", "body": f"data: {data}\n\n".encode(),
                            "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            self.disconnected.set()
        finally:
            gone.cancel()


async def _until_disconnect(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _json(send: Any, status: int, body: Any) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": data})


def _model(name: str) -> dict[str, Any]:
    return {"id": name, "object": "model", "created": 0, "owned_by": "stub"}


def answer_text(number: int, choice: int = 0) -> str:
    return f"Reply {number}: noted." if choice == 0 else f"Alternative {choice} of {number}."


def _completion(body: dict[str, Any], number: int) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{number}", "object": "chat.completion", "created": int(time.time()),
        "model": body.get("model", "stub-model"),
        "choices": [
            {"index": i, "finish_reason": "stop",
             "message": {"role": "assistant", "content": answer_text(number, i)}}
            for i in range(int(body.get("n") or 1))
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def chunk(content: str | None = None, finish: str | None = None, index: int = 0,
          **delta: Any) -> dict[str, Any]:
    """One chat.completion.chunk with a delta for choice `index`."""
    if content is not None:
        delta["content"] = content
    return {"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 0,
            "model": "stub-model",
            "choices": [{"index": index, "delta": delta, "finish_reason": finish}]}


def _events(body: dict[str, Any], number: int) -> list[SendEvent]:
    events: list[SendEvent] = []
    for i in range(int(body.get("n") or 1)):
        events.append(chunk(index=i, role="assistant"))
        for word in answer_text(number, i).split(" "):
            events.append(chunk(word + " ", index=i))
        events.append(chunk(finish="stop", index=i))
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append({"id": "chatcmpl-s", "object": "chat.completion.chunk", "created": 0,
                       "model": "stub-model", "choices": [],
                       "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                 "total_tokens": 2}})
    events.append("[DONE]")
    return events
