"""UpstreamPort: the OpenAI-compatible model server the memory proxy forwards to."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UpstreamCall:
    """One request to the upstream: a path under its base URL (`chat/completions`, `models`),
    maybe one more segment taken literally (a model id: the adapter quotes it whole, so no
    id reaches another path of the upstream), and a JSON body. The adapter adds the
    upstream's own key; the client's memlane key is never part of it."""

    method: str
    path: str
    body: bytes | None = None
    segment: str | None = None


class UpstreamReply(ABC):
    """The upstream's answer once its status and headers are in; the body follows."""

    status: int
    content_type: str

    @abstractmethod
    def chunks(self) -> AsyncIterator[bytes]:
        """The body as it arrives. Raises UpstreamTimedOut when the first byte or the next
        chunk is late, UpstreamUnreachable when the connection breaks."""

    @abstractmethod
    async def read(self, max_bytes: int) -> bytes:
        """The whole body (at most `max_bytes`; more is UpstreamUnreachable)."""

    @abstractmethod
    async def close(self) -> None:
        """Stop the request: an unread rest is abandoned and the upstream sees it go."""

    @property
    def streams(self) -> bool:
        return self.content_type.partition(";")[0].strip().lower() == "text/event-stream"


class UpstreamPort(ABC):
    """Sending to the upstream, with separate timeouts for connecting, the first byte and the
    gap between chunks (no single total: a CPU model may think for minutes)."""

    @abstractmethod
    async def send(self, call: UpstreamCall) -> UpstreamReply:
        """Send and wait for the status line. Raises UpstreamUnreachable or UpstreamTimedOut."""

    @abstractmethod
    async def close(self) -> None:
        """Release the connections."""
