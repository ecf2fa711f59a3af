"""The memory proxy's use cases: a chat forwarded with memory, and its exchange learned."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.service.proxy.chat_proxy import (
        ChatProxy as ChatProxy,
        ProxyCall as ProxyCall,
        ProxyReply as ProxyReply,
    )
    from memlane.service.proxy.memory import (
        LearnJob as LearnJob,
        ProxyMemory as ProxyMemory,
        learn as learn,
    )
    from memlane.service.proxy.queue import (
        LearningQueue as LearningQueue,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ChatProxy": "chat_proxy",
    "LearnJob": "memory",
    "LearningQueue": "queue",
    "ProxyCall": "chat_proxy",
    "ProxyMemory": "memory",
    "ProxyReply": "chat_proxy",
    "learn": "memory",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
