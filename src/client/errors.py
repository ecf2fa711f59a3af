"""Problem+json answers as memlane's exceptions, so remote and in-process callers catch alike."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memlane.domain.errors import (
    ConfigurationError,
    InvalidMemory,
    MemlaneError,
    MemoryNotFound,
    StorageUnavailable,
)
from memlane.domain.facts import FactNotFound, TopicNotFound

PROBLEM_BASE = "urn:memlane:problem:"


@dataclass(frozen=True, slots=True)
class Problem:
    """An RFC 9457 problem as the server sent it (`slug` is the type without its prefix)."""

    status: int
    type: str = "about:blank"
    title: str = ""
    detail: str = ""
    instance: str | None = None
    extensions: Mapping[str, Any] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return self.type.removeprefix(PROBLEM_BASE)


class RemoteError(MemlaneError):
    """Base of the errors only a remote memlane raises; `problem` is the server's answer."""

    def __init__(self, message: str, problem: Problem | None = None) -> None:
        super().__init__(message)
        self.problem = problem


class Unauthorized(RemoteError, ConfigurationError):
    """401: the token is missing, invalid or revoked."""


class Forbidden(RemoteError, ConfigurationError):
    """403: the token lacks the scope the route needs."""


class NotFound(RemoteError, ConfigurationError):
    """404 for something other than a memory: a user outside a pinned key's reach, or a
    route this server does not have (a wrong base URL or an older server)."""


class ServiceUnavailable(RemoteError, StorageUnavailable):
    """The server is unreachable, timed out, kept answering 503 after the retries, or failed
    (5xx); the caller may try again later."""


class RemoteMemoryNotFound(MemoryNotFound):
    """404 for a memory the request named (another user's memory is 'not found' too)."""

    def __init__(self, memory_id: object, problem: Problem) -> None:
        super().__init__(memory_id)
        self.problem = problem


class RemoteFactNotFound(FactNotFound):
    """404 for a fact the request named."""

    def __init__(self, fact_id: object, problem: Problem) -> None:
        super().__init__(fact_id)
        self.problem = problem


class RemoteTopicNotFound(TopicNotFound):
    """404 for a topic no memory of the user carries."""

    def __init__(self, problem: Problem) -> None:
        super().__init__("")
        self.problem = problem


class RemoteInvalidMemory(InvalidMemory):
    """400, 409, 413, 415 or 422: the server rejected the input and changed nothing."""

    def __init__(self, message: str, problem: Problem) -> None:
        super().__init__(message)
        self.problem = problem


def parse_problem(status: int, body: Any) -> Problem:
    """The problem in a decoded JSON body (anything else yields a bare problem)."""
    if not isinstance(body, Mapping):
        return Problem(status=status)
    known = {"type", "title", "status", "detail", "instance"}
    return Problem(
        status=status,
        type=str(body.get("type") or "about:blank"),
        title=str(body.get("title") or ""),
        detail=str(body.get("detail") or ""),
        instance=body.get("instance") if isinstance(body.get("instance"), str) else None,
        extensions={k: v for k, v in body.items() if k not in known},
    )


def error_for(problem: Problem) -> MemlaneError:
    """The exception for a problem; messages quote the server's detail, which never
    contains memory content."""
    status, detail = problem.status, problem.detail or problem.title
    if status == 401:
        return Unauthorized(f"memlane rejected the token (401): {detail}", problem)
    if status == 403:
        return Forbidden(f"memlane refused (403): {detail}", problem)
    if status == 404:
        if problem.slug == "memory-not-found":
            return RemoteMemoryNotFound(problem.extensions.get("memory_id"), problem)
        if problem.slug == "fact-not-found":
            return RemoteFactNotFound(problem.extensions.get("fact_id"), problem)
        if problem.slug == "topic-not-found":
            return RemoteTopicNotFound(problem)
        return NotFound(f"not found (404): {detail}", problem)
    if 400 <= status < 500:
        return RemoteInvalidMemory(f"memlane rejected the request ({status}): {detail}", problem)
    return ServiceUnavailable(f"memlane server error ({status}): {detail}", problem)
