"""One HTTP exchange described without doing it (sans-I/O): what both transports send, and
how any answer becomes a result or an exception. The route builders return `Call`s."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, TypeVar
from urllib.parse import quote
from uuid import UUID

import httpx
import msgspec

from memlane.domain.errors import MemlaneError

from .errors import ServiceUnavailable, error_for, parse_problem
from .retry import RetryPolicy

T = TypeVar("T")

HEADERS = {"Accept": "application/json, application/problem+json"}


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """A request and the decoder of its successful answer (of each NDJSON line, for export)."""

    method: str
    path: str
    decode: Callable[[bytes], T]
    params: Mapping[str, str] = field(default_factory=dict)
    body: bytes | None = None
    # Statuses besides 2xx whose body is a result, not a problem (503 of /readyz).
    accept: frozenset[int] = frozenset()
    retry: bool = True
    content_type: str = "application/json"  # of `body`

    @property
    def headers(self) -> dict[str, str]:
        return HEADERS if self.body is None else {**HEADERS, "Content-Type": self.content_type}


def nothing(raw: bytes) -> None:
    """The decoder of a 204 answer."""
    return None


def query(**values: Any) -> dict[str, str]:
    """Query parameters: None left out, booleans as true/false, sequences comma-joined."""
    params: dict[str, str] = {}
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, bool):
            params[name] = "true" if value else "false"
        elif isinstance(value, Enum):
            params[name] = str(value.value)
        elif isinstance(value, Sequence) and not isinstance(value, str):
            params[name] = ",".join(str(getattr(v, "value", v)) for v in value)
        else:
            params[name] = str(value)
    return params


def body(**values: Any) -> bytes:
    """A JSON body of the fields that are not None (None means "not given" on every route)."""
    return msgspec.json.encode({k: v for k, v in values.items() if v is not None})


def uuid_of(value: UUID | str) -> UUID:
    """A memory id; one given as text is checked here (ValueError) rather than by a 404."""
    return value if isinstance(value, UUID) else UUID(value)


def segment(text: str) -> str:
    """A free-text path segment (a conversation id), percent-encoded."""
    return quote(text, safe="")


def http_options(
    base_url: str, token: str | None, headers: Mapping[str, str] | None, timeout_s: float
) -> dict[str, Any]:
    """The httpx client options both transports open with: the bearer token on every call."""
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    return {"base_url": base_url.rstrip("/"), "headers": sent, "timeout": timeout_s}


class Attempts:
    """The tries of one call under a retry policy: how many, and since when."""

    def __init__(self, call: Call[Any], policy: RetryPolicy) -> None:
        self._call, self._policy = call, policy
        self._started, self._count = time.monotonic(), 0

    def delay_after(self, response: httpx.Response) -> float | None:
        """Seconds to wait before sending the call again, or None to take this answer."""
        self._count += 1
        if not self._call.retry or response.status_code in self._call.accept:
            return None
        return self._policy.delay_s(
            response.status_code, response.headers.get("retry-after"), self._count,
            time.monotonic() - self._started,
        )


def succeeded(call: Call[Any], status: int) -> bool:
    return 200 <= status < 300 or status in call.accept


def problem_error(status: int, content: bytes) -> MemlaneError:
    """The exception for an answer that is not a success (its problem+json body)."""
    return error_for(parse_problem(status, _json_or_none(content)))


def finish(call: Call[T], status: int, content: bytes) -> T:
    """The result of a complete answer, or the exception its problem maps to."""
    if not succeeded(call, status):
        raise problem_error(status, content)
    return decoded(call, content)


def decoded(call: Call[T], content: bytes) -> T:
    """The decoded success body (or one NDJSON line of it)."""
    try:
        return call.decode(content)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise ServiceUnavailable(f"memlane sent an unexpected answer: {exc}") from None


def unreachable(exc: Exception) -> ServiceUnavailable:
    """The error for a request that got no answer (refused, reset, timed out)."""
    return ServiceUnavailable(f"memlane server unreachable: {type(exc).__name__}")


def _json_or_none(content: bytes) -> Any:
    try:
        return msgspec.json.decode(content)
    except msgspec.DecodeError:
        return None
