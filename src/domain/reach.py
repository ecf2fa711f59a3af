"""Whose memories a maintenance job or a count covers: one user, one tenant, or everyone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from memlane.domain.model import Owner


@dataclass(frozen=True, slots=True)
class TenantReach:
    """Every user of one tenant: what a tenant's admin key covers when it names no user."""

    tenant: str

    def __post_init__(self) -> None:
        if not self.tenant:
            raise ValueError("a tenant reach needs a tenant")


# One owner, one tenant, or None: every tenant (the operator's scope, the CLI, the worker).
Reach: TypeAlias = Owner | TenantReach | None


def covers(reach: Reach, owner: Owner) -> bool:
    """Whether `owner`'s memories lie within `reach`."""
    if reach is None:
        return True
    if isinstance(reach, TenantReach):
        return owner.tenant == reach.tenant
    return owner == reach


def describe(reach: Reach) -> str:
    """`user`, `tenant` or `all`: what a maintenance answer says it covered."""
    if reach is None:
        return "all"
    return "tenant" if isinstance(reach, TenantReach) else "user"


def bounds(reach: Reach) -> tuple[str | None, str | None]:
    """The tenant and the user a reach names, None for what it leaves open: a statement's
    parameters for `($1 IS NULL OR tenant = $1) AND ($2 IS NULL OR user_id = $2)`."""
    if reach is None:
        return (None, None)
    if isinstance(reach, TenantReach):
        return (reach.tenant, None)
    return (reach.tenant, reach.user_id)
