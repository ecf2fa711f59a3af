"""The memory proxy's rules (OpenAI chat completions in, memory out): pure, no I/O."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.proxy.answer import (
        Answer as Answer,
        StreamAssembler as StreamAssembler,
        answer_from_json as answer_from_json,
    )
    from memlane.domain.proxy.chat import (
        ChatMessage as ChatMessage,
        Exchange as Exchange,
        exchanges as exchanges,
        is_background_task as is_background_task,
        read_messages as read_messages,
        with_memory as with_memory,
    )
    from memlane.domain.proxy.conversation import (
        KeyedDigest as KeyedDigest,
        derived_id as derived_id,
        named_id as named_id,
        turn_key as turn_key,
    )
    from memlane.domain.proxy.errors import (
        InvalidChatRequest as InvalidChatRequest,
        ProxyError as ProxyError,
        UpstreamNotConfigured as UpstreamNotConfigured,
        UpstreamRefused as UpstreamRefused,
        UpstreamTimedOut as UpstreamTimedOut,
        UpstreamUnreachable as UpstreamUnreachable,
        UserNotNamed as UserNotNamed,
    )
    from memlane.domain.proxy.learning import (
        SOURCE as SOURCE,
        SOURCE_KEY as SOURCE_KEY,
        TURN_KEY as TURN_KEY,
        LearnedExchange as LearnedExchange,
        learned_exchange as learned_exchange,
    )
    from memlane.domain.proxy.modes import (
        Applied as Applied,
        MemoryMode as MemoryMode,
        allowed_mode as allowed_mode,
        asked_mode as asked_mode,
    )
    from memlane.domain.proxy.query import (
        PreviousTurn as PreviousTurn,
        QueryRule as QueryRule,
        active_texts as active_texts,
        query_for as query_for,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "Answer": "answer",
    "Applied": "modes",
    "ChatMessage": "chat",
    "Exchange": "chat",
    "InvalidChatRequest": "errors",
    "KeyedDigest": "conversation",
    "LearnedExchange": "learning",
    "MemoryMode": "modes",
    "PreviousTurn": "query",
    "ProxyError": "errors",
    "QueryRule": "query",
    "SOURCE": "learning",
    "SOURCE_KEY": "learning",
    "StreamAssembler": "answer",
    "TURN_KEY": "learning",
    "UpstreamNotConfigured": "errors",
    "UpstreamRefused": "errors",
    "UpstreamTimedOut": "errors",
    "UpstreamUnreachable": "errors",
    "UserNotNamed": "errors",
    "active_texts": "query",
    "allowed_mode": "modes",
    "answer_from_json": "answer",
    "asked_mode": "modes",
    "derived_id": "conversation",
    "exchanges": "chat",
    "is_background_task": "chat",
    "learned_exchange": "learning",
    "named_id": "conversation",
    "query_for": "query",
    "read_messages": "chat",
    "turn_key": "conversation",
    "with_memory": "chat",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
