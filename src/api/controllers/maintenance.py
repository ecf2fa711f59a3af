"""Maintenance jobs, each its own resource: a decay run, a cleanup run, a sleep cycle."""

from __future__ import annotations

from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.status_codes import HTTP_200_OK

from memlane.api.deps import MEMORIES, REACH, Memories, Reached
from memlane.api.graph_schemas import SleepOut
from memlane.api.metrics import ApiMetrics
from memlane.api.params import ERRORS, WRITE
from memlane.api.schemas import MaintenanceOut
from memlane.domain.reach import describe

# A job covers one user, every user of the key's tenant (an unpinned admin key naming no
# user) or every tenant (an operator key, created only by the CLI): a tenant's admin never
# decays or deletes another tenant's memories.
JOB_DEPENDENCIES = {"memories": MEMORIES, "owner": REACH}


class DecayController(Controller):
    """/v1/memories/decay: materialise current importance (idempotent)."""

    path = "/v1/memories/decay"
    tags = ["maintenance"]
    dependencies = JOB_DEPENDENCIES

    @post("/", operation_id="runDecay", opt=WRITE, raises=ERRORS, status_code=HTTP_200_OK)
    async def decay(
        self,
        memories: Memories,
        owner: Reached,
        metrics: NamedDependency[ApiMetrics],
    ) -> MaintenanceOut:
        """Materialise current importance (idempotent): one user, the key's tenant for an
        `admin` key naming no user, every tenant for an `operator` key."""
        changed = await memories.decay(owner)
        metrics.decay_runs.inc()
        return MaintenanceOut(affected=changed, scope=describe(owner))


class CleanupController(Controller):
    """/v1/memories/cleanup: delete memories that faded to min_importance."""

    path = "/v1/memories/cleanup"
    tags = ["maintenance"]
    dependencies = JOB_DEPENDENCIES

    @post("/", operation_id="runCleanup", opt=WRITE, raises=ERRORS, status_code=HTTP_200_OK)
    async def cleanup(
        self, memories: Memories, owner: Reached
    ) -> MaintenanceOut:
        """Delete unpinned memories decayed to min_importance: one user, the tenant for
        `admin`, every tenant for `operator`."""
        deleted = await memories.cleanup(owner)
        return MaintenanceOut(affected=deleted, scope=describe(owner))


class SleepController(Controller):
    """/v1/memories/consolidate/cycle: the sleep cycle, as the worker runs it after decay.
    (POST /v1/memories/consolidate itself is a user's own consolidation of chosen memories.)"""

    path = "/v1/memories/consolidate/cycle"
    tags = ["maintenance"]
    dependencies = JOB_DEPENDENCIES

    @post("/", operation_id="runConsolidationCycle", opt=WRITE, raises=ERRORS,
          status_code=HTTP_200_OK)
    async def cycle(self, memories: Memories, owner: Reached) -> SleepOut:
        """Merge near-duplicates, weave stories, prune faded links, over the memories
        written or edited since the last cycle: one user, the tenant for `admin`, every
        tenant for `operator`. Reads at most `graph.sleep_budget` memories: `left` says how
        many wait for the next call. Idempotent: run again, it finds nothing to do."""
        done = await memories.sleep.bounded(owner)
        return SleepOut(scope=describe(owner), **done.as_dict())
