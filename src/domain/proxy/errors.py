"""What can go wrong between a chat client, memlane and the upstream model server."""

from __future__ import annotations

from memlane.domain.errors import MemlaneError


class ProxyError(MemlaneError):
    """Base of the proxy's errors; each has one HTTP meaning at the edge (api/proxy_errors)."""


class InvalidChatRequest(ProxyError):
    """The body is not a chat-completions request this proxy can read (400)."""


class UserNotNamed(ProxyError):
    """An unpinned key sent no `user` (nor a trusted Open WebUI user header) (400)."""


class UpstreamNotConfigured(ProxyError):
    """No `[proxy] upstream_url` is set (503)."""


class UpstreamUnreachable(ProxyError):
    """The upstream refused the connection or broke it off (502)."""


class UpstreamTimedOut(ProxyError):
    """The upstream did not connect, answer or go on within its timeout (504).

    `phase` is one of "connect", "first byte", "between chunks"."""

    def __init__(self, phase: str) -> None:
        super().__init__(f"the upstream timed out ({phase})")
        self.phase = phase


class UpstreamRefused(ProxyError):
    """The upstream answered 401 or 403: it refused memlane's upstream key, not the client's
    memlane key (502)."""

    def __init__(self, status: int) -> None:
        super().__init__(
            f"the upstream refused the upstream key (HTTP {status}): check "
            "MEMLANE_UPSTREAM_KEY or proxy.upstream_key_file"
        )
        self.status = status
