"""Maintenance and erasure: decay, cleanup, and deleting all of a user's memories."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, delete, post
from litestar.di import NamedDependency
from litestar.exceptions import ValidationException
from litestar.params import Parameter
from litestar.status_codes import HTTP_200_OK

from memlane.api.config import ApiConfig
from memlane.api.controllers.common import USER_ID_DOC, WRITE_ERRORS, acting_owner
from memlane.api.deps import ApiServices
from memlane.api.metrics import ApiMetrics
from memlane.api.schemas import DeletedOut, MaintenanceOut
from memlane.domain.auth import Principal, Scope
from memlane.domain.model import Owner

UserParam = Annotated[str | None, Parameter(description=USER_ID_DOC, max_length=200)]
WRITE = {"scope": Scope.WRITE.value}


def _maintenance_owner(
    principal: NamedDependency[Principal], user_id: str | None, config: NamedDependency[ApiConfig]
) -> Owner | None:
    """None (everyone) for an unpinned admin key naming no user, otherwise one user.

    `admin` is the installation operator's scope: without a user it runs the same
    job as the background worker, across every tenant. Decay is a pure function of stored
    fields and cleanup applies the one configured threshold, so this exposes nothing of
    other tenants; it only does early what the worker would do anyway.
    """
    if principal.is_admin and principal.user_id is None and user_id is None:
        return None
    return acting_owner(principal, user_id, config)


class MaintenanceController(Controller):
    """Decay and cleanup runs, and erasure of a user's data."""

    path = "/v1/memories"
    tags = ["maintenance"]

    @post(
        "/decay",
        operation_id="runDecay",
        opt=WRITE,
        raises=WRITE_ERRORS,
        status_code=HTTP_200_OK,
    )
    async def decay(
        self,
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        metrics: NamedDependency[ApiMetrics],
        user_id: UserParam = None,
    ) -> MaintenanceOut:
        """Materialise current importance (idempotent): one user, or everyone for `admin`."""
        owner = _maintenance_owner(principal, user_id, config)
        changed = await services.service.decay(owner)
        metrics.decay_runs.inc()
        return MaintenanceOut(affected=changed, scope="all" if owner is None else "user")

    @post(
        "/cleanup",
        operation_id="runCleanup",
        opt=WRITE,
        raises=WRITE_ERRORS,
        status_code=HTTP_200_OK,
    )
    async def cleanup(
        self,
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        user_id: UserParam = None,
    ) -> MaintenanceOut:
        """Delete unpinned memories decayed to min_importance: one user, or everyone for admin."""
        owner = _maintenance_owner(principal, user_id, config)
        deleted = await services.service.cleanup(owner)
        return MaintenanceOut(affected=deleted, scope="all" if owner is None else "user")

    @delete(
        "/",
        operation_id="eraseUserMemories",
        opt=WRITE,
        raises=WRITE_ERRORS,
        status_code=HTTP_200_OK,
    )
    async def erase(
        self,
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        confirm: Annotated[
            bool, Parameter(description="Must be true: erasure cannot be undone.")
        ] = False,
        user_id: UserParam = None,
    ) -> DeletedOut:
        """Erase every memory of one user (right to erasure); needs `confirm=true`."""
        owner = acting_owner(principal, user_id, config)
        if not confirm:
            raise ValidationException(
                "erasing all memories needs confirm=true",
                extra=[{"key": "confirm", "message": "must be true"}],
            )
        return DeletedOut(deleted=await services.service.delete_all(owner))
