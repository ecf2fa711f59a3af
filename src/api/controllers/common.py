"""Small helpers shared by controllers: owner resolution and limit checks."""

from __future__ import annotations

from litestar.exceptions import (
    HTTPException,
    NotAuthorizedException,
    NotFoundException,
    PermissionDeniedException,
    ServiceUnavailableException,
    ValidationException,
)

from memlane.api.auth import owner_for
from memlane.api.config import ApiConfig
from memlane.domain.auth import Principal
from memlane.domain.model import Owner

USER_ID_DOC = "The user to act for; required for keys not pinned to a user."

# For the OpenAPI document: what a handler may answer besides success (problem+json).
READ_ERRORS: list[type[HTTPException]] = [
    NotAuthorizedException,
    PermissionDeniedException,
    NotFoundException,
    ValidationException,
    ServiceUnavailableException,
]
WRITE_ERRORS = READ_ERRORS


def acting_owner(principal: Principal, user_id: str | None, config: ApiConfig) -> Owner:
    """The owner this request acts for (see `owner_for`), rejecting blank user ids."""
    if user_id is not None and not user_id.strip():
        raise ValidationException("user_id must not be blank")
    return owner_for(principal, user_id, config.default_user_id)


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
