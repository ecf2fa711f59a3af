"""memlane over HTTP: `MemlaneClient` (sync) and `AsyncMemlaneClient` (asyncio), with the
method names of the in-process `memlane.open_memory()`, memlane's result types, 503 retries
honouring Retry-After, and problem+json answers raised as memlane's exceptions."""

from .async_client import AsyncMemlaneClient
from .errors import (
    Forbidden,
    NotFound,
    Problem,
    RemoteError,
    ServiceUnavailable,
    Unauthorized,
)
from .retry import NO_RETRY, RetryPolicy
from .sync_client import MemlaneClient
from .types import (
    AddedMessages,
    Consolidated,
    FactPage,
    GraphEdge,
    GraphNode,
    HistoryEvent,
    MemoryPage,
    Neighbourhood,
    Readiness,
    TopicView,
)

__all__ = [
    "NO_RETRY",
    "AddedMessages",
    "AsyncMemlaneClient",
    "Consolidated",
    "FactPage",
    "Forbidden",
    "GraphEdge",
    "GraphNode",
    "HistoryEvent",
    "MemlaneClient",
    "MemoryPage",
    "Neighbourhood",
    "NotFound",
    "Problem",
    "Readiness",
    "RemoteError",
    "RetryPolicy",
    "ServiceUnavailable",
    "TopicView",
    "Unauthorized",
]
