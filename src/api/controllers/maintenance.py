"""Maintenance jobs, each its own resource: a decay run and a cleanup run."""

from __future__ import annotations

from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.status_codes import HTTP_200_OK

from memlane.api.deps import MEMORIES, OWNER_OR_EVERYONE, Memories
from memlane.api.metrics import ApiMetrics
from memlane.api.params import ERRORS, WRITE
from memlane.api.schemas import MaintenanceOut
from memlane.domain.model import Owner

# Decay is a pure function of stored fields and cleanup applies the one configured threshold,
# so running either for everyone (an unpinned admin key naming no user) exposes nothing of
# other tenants; it only does early what the background worker does anyway.
JOB_DEPENDENCIES = {"memories": MEMORIES, "owner": OWNER_OR_EVERYONE}


class DecayController(Controller):
    """/v1/memories/decay: materialise current importance (idempotent)."""

    path = "/v1/memories/decay"
    tags = ["maintenance"]
    dependencies = JOB_DEPENDENCIES

    @post("/", operation_id="runDecay", opt=WRITE, raises=ERRORS, status_code=HTTP_200_OK)
    async def decay(
        self,
        memories: Memories,
        owner: NamedDependency[Owner | None],
        metrics: NamedDependency[ApiMetrics],
    ) -> MaintenanceOut:
        """Materialise current importance (idempotent): one user, or everyone for `admin`."""
        changed = await memories.decay(owner)
        metrics.decay_runs.inc()
        return MaintenanceOut(affected=changed, scope="all" if owner is None else "user")


class CleanupController(Controller):
    """/v1/memories/cleanup: delete memories that faded to min_importance."""

    path = "/v1/memories/cleanup"
    tags = ["maintenance"]
    dependencies = JOB_DEPENDENCIES

    @post("/", operation_id="runCleanup", opt=WRITE, raises=ERRORS, status_code=HTTP_200_OK)
    async def cleanup(
        self, memories: Memories, owner: NamedDependency[Owner | None]
    ) -> MaintenanceOut:
        """Delete unpinned memories decayed to min_importance: one user, or everyone for admin."""
        deleted = await memories.cleanup(owner)
        return MaintenanceOut(affected=deleted, scope="all" if owner is None else "user")
