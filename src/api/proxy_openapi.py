"""The proxy routes in the OpenAPI document: OpenAI's request shape, a 200 that may stream."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from litestar.openapi.spec import OpenAPIMediaType, OpenAPIType, Operation, Schema

_CONTENT = {
    "oneOf": [
        {"type": "string"},
        {"type": "array", "items": {"type": "object", "additionalProperties": True}},
        {"type": "null"},
    ]
}
# Documented, not enforced: the proxy reads `messages` and passes every field on.
CHAT_REQUEST: dict[str, Any] = {
    "type": "object",
    "required": ["model", "messages"],
    "additionalProperties": True,
    "properties": {
        "model": {"type": "string", "minLength": 1},
        "messages": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["role"],
                "additionalProperties": True,
                "properties": {
                    "role": {
                        "type": "string",
                        "enum": ["system", "developer", "user", "assistant", "tool"],
                    },
                    "content": _CONTENT,
                },
            },
        },
        "stream": {"type": "boolean"},
        "user": {"type": "string", "minLength": 1, "maxLength": 200},
    },
}


# One event of a streamed answer: `data` is a chat.completion.chunk as JSON, or [DONE].
SERVER_SENT_EVENT = Schema(
    type=OpenAPIType.OBJECT,
    required=["data"],
    properties={
        "data": Schema(type=OpenAPIType.STRING),
        "event": Schema(type=OpenAPIType.STRING),
        "id": Schema(type=OpenAPIType.STRING),
    },
)


@dataclass
class ChatOperation(Operation):
    """A chat completion's 200 is JSON, or server-sent events when `stream` is true."""

    def __post_init__(self) -> None:
        ok = (self.responses or {}).get("200")
        content = getattr(ok, "content", None)
        if isinstance(content, dict):
            content["text/event-stream"] = OpenAPIMediaType(schema=SERVER_SENT_EVENT)
