"""An OpenAI-compatible stub that answers at once, for bench/proxy_overhead.py (its own process).

    python bench/proxy_stub.py PORT

POST /v1/chat/completions answers a fixed short reply, streamed as server-sent events when
`stream` is true, else as JSON; GET /v1/models lists one model. Nothing is recorded."""

from __future__ import annotations

import json
import sys

import uvicorn

REPLY = ["Noted", ", thank", " you", "."]
_HEAD = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 0,
         "model": "bench-model"}


def _event(delta: dict[str, str], finish: str | None = None) -> bytes:
    chunk = {**_HEAD, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


STREAM = [_event({"role": "assistant"}), *(_event({"content": p}) for p in REPLY),
          _event({}, "stop"), b"data: [DONE]\n\n"]
COMPLETION = json.dumps({
    "id": "chatcmpl-bench", "object": "chat.completion", "created": 0, "model": "bench-model",
    "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "".join(REPLY)}}],
}).encode()
MODELS = json.dumps({"object": "list", "data": [{"id": "bench-model", "object": "model"}]})


async def app(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
    if scope["type"] != "http":
        return
    body = b""
    while True:
        message = await receive()  # type: ignore[operator]
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    if scope["path"].endswith("/models"):
        await _send(send, "application/json", [MODELS.encode()])
    elif b'"stream":true' in body.replace(b" ", b""):
        await _send(send, "text/event-stream", STREAM)
    else:
        await _send(send, "application/json", [COMPLETION])


async def _send(send: object, media_type: str, parts: list[bytes]) -> None:
    await send({"type": "http.response.start", "status": 200,  # type: ignore[operator]
                "headers": [(b"content-type", media_type.encode())]})
    for index, part in enumerate(parts):
        await send({"type": "http.response.body", "body": part,  # type: ignore[operator]
                    "more_body": index < len(parts) - 1})


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                access_log=False, lifespan="off")
