"""What handlers share: the user parameter, scope options, error lists, the limit rule."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from litestar.exceptions import (
    HTTPException,
    NotAuthorizedException,
    NotFoundException,
    PermissionDeniedException,
    ServiceUnavailableException,
    ValidationException,
)
from litestar.params import Parameter

from memlane.api.config import MAX_PAGE_LIMIT
from memlane.domain.security import Scope

USER_ID_DOC = "The user to act for; required for keys not pinned to a user."
UserParam = Annotated[str | None, Parameter(description=USER_ID_DOC, max_length=200)]
# Keyset pagination, as every listing route takes it.
CursorParam = Annotated[
    str | None, Parameter(description="`next_cursor` of the previous page.")
]
PageLimitParam = Annotated[
    int | None, Parameter(ge=1, le=MAX_PAGE_LIMIT, description="Page size (default 50).")
]

# Levels of detail (docs/levels.md): which tier of a memory `content` holds.
TierParam = Annotated[
    Literal["L0", "L1", "L2"],
    Parameter(description="L0: the abstract, L1: the overview, L2: the full text."),
]

# Whether what is listed still holds: named and valued alike for memories and facts (MCP and
# the client say true, false and null/None for all).
CurrentParam = Annotated[
    Literal["true", "false", "all"],
    Parameter(description="true: only what holds now; false: only what was replaced or "
                          "ended; all: both."),
]
CURRENT: dict[str, bool | None] = {"true": True, "false": False, "all": None}
T = TypeVar("T")

# The scope a handler needs, read by the guard (api/auth.py).
READ: dict[str, Any] = {"scope": Scope.READ.value}
WRITE: dict[str, Any] = {"scope": Scope.WRITE.value}

# For the OpenAPI document: what a handler may answer besides success (problem+json).
ERRORS: list[type[HTTPException]] = [
    NotAuthorizedException,
    PermissionDeniedException,
    NotFoundException,
    ValidationException,
    ServiceUnavailableException,
]


def bounded_limit(limit: int | None, default: int, maximum: int) -> int:
    """The limit to use, or a 422 when it is outside 1..maximum."""
    if limit is None:
        return default
    if not 1 <= limit <= maximum:
        raise ValidationException(
            f"limit must be between 1 and {maximum}",
            extra=[{"key": "limit", "message": f"must be between 1 and {maximum}"}],
        )
    return limit


def aliased(name: str, value: T | None, alias: str, old: T | None) -> T | None:
    """A parameter given by its name or by its deprecated alias (one release); both, unequal,
    is a 422."""
    if value is not None and old is not None and value != old:
        raise ValidationException(
            f"{alias} is the deprecated name of {name}: give one of them",
            extra=[{"key": alias, "message": f"conflicts with {name}"}],
        )
    return value if value is not None else old
