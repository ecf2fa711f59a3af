"""The sleep cycle's clusters: each owner's related memories grouped into summary nodes."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from uuid import UUID, uuid4

from memlane.domain.detail import Provenance, Tiers
from memlane.domain.graph import (
    ANCHOR_MEMORIES,
    MIN_MEMBERS,
    NEAREST_IN_ANCHOR,
    WHOLE_NAME,
    ClusterPlan,
    Edge,
    EdgeKind,
    Group,
    MemberText,
    Regrouping,
    groups_of,
    reconcile,
    summary_of,
)
from memlane.domain.memories import (
    L0_MAX_CHARS,
    L1_MAX_CHARS,
    L2_MAX_CHARS,
    SleepReport,
    build_tiers,
    importance_at,
    summarize,
    traits_of,
)
from memlane.domain.model import Heat, Memory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.domain.reach import Reach
from memlane.ports.clusters import ClusterPort, ClusterWrite
from memlane.ports.memories import MemoryStorePort
from memlane.service.security import KeyringService, Sealer

log = logging.getLogger(__name__)

# Owners grouped per round: one statement finds their pairs, one reads their clusters.
OWNERS_PER_ROUND = 200
# A summary's link to a member: as strong as a woven story link, fading unless used.
MEMBER_WEIGHT = 0.5


class ClusterStep:
    """A step of the sleep cycle (after merging and weaving, before pruning). Owners with
    a memory written or edited since their mark are grouped again; what grouping changes is
    saved (summaries made, refreshed or dropped), the rest stays as it is, so a second cycle
    over the same memories changes nothing. Bounded: an owner's pairs come from at most
    ANCHOR_MEMORIES memories per name, and only owners whose memories changed are read."""

    def __init__(
        self, port: ClusterPort, store: MemoryStorePort, sealer: Sealer, policy: MemoryPolicy,
        keyring: KeyringService | None = None,
    ) -> None:
        self._port = port
        self._store = store
        self._sealer = sealer
        self._policy = policy
        self._keyring = keyring

    async def __call__(self, reach: Reach, now: datetime) -> SleepReport:
        saved = 0
        while owners := await self._port.owners(reach, now, OWNERS_PER_ROUND):
            plans = await self._plans(owners)
            if plans and self._keyring is not None:
                await self._keyring.ready(list(plans))
            for owner, plan in plans.items():
                saved += await self._apply(owner, plan, now)
            await self._port.mark(dict.fromkeys(owners, now))
        return SleepReport(clusters=saved)

    async def _plans(self, owners: Sequence[Owner]) -> dict[Owner, ClusterPlan]:
        """Only the names a changed memory mentions are grouped again: the owner's other
        clusters stay as they are."""
        regrouping = await self._port.pairs(
            owners, self._policy.graph.semantic_threshold, NEAREST_IN_ANCHOR,
            ANCHOR_MEMORIES, MIN_MEMBERS, WHOLE_NAME)
        existing = await self._port.clusters(owners)
        plans = {}
        for owner in owners:
            again = regrouping.get(owner, Regrouping())
            plans[owner] = reconcile(
                existing.get(owner, []), groups_of(again.pairs), again.anchors)
        return {o: p for o, p in plans.items() if not p.empty}

    async def _apply(self, owner: Owner, plan: ClusterPlan, now: datetime) -> int:
        """The plan's summaries built from their members and saved in one transaction; a
        group none of whose members opens is dropped instead."""
        groups = [*((uuid4(), g) for g in plan.made), *plan.refreshed]
        ids = sorted({m for _, g in groups for m in g.members}, key=str)
        opened: dict[UUID, Memory] = {}
        for stored in await self._store.get_many(owner, ids, indexed=False):
            if (memory := self._sealer.readable(stored, now)) is not None:
                opened[memory.id] = memory
        writes: list[ClusterWrite] = []
        dropped = list(plan.dropped)
        refreshed = {summary_id for summary_id, _ in plan.refreshed}
        for summary_id, group in groups:
            write = self._write(owner, summary_id, group, opened, now)
            if write is not None:
                writes.append(write)
            elif summary_id in refreshed:
                dropped.append(summary_id)
        await self._port.save(owner, writes, dropped, now)
        return len(writes)

    def _write(
        self, owner: Owner, summary_id: UUID, group: Group, opened: Mapping[UUID, Memory],
        now: datetime,
    ) -> ClusterWrite | None:
        members = [opened[m] for m in group.members if m in opened]
        texts = [MemberText(m.id, (m.tiers or build_tiers(m.content)).abstract, m.created_at)
                 for m in members]
        text = summary_of(group, texts, (L0_MAX_CHARS, L1_MAX_CHARS, L2_MAX_CHARS))
        if not text.content:
            return None
        memory_type = Counter(m.memory_type for m in members).most_common(1)[0][0]
        # As important as its most important member: it lives as long as they do.
        heat = Heat(max(m.base_importance for m in members), 0, now)
        memory = Memory(
            id=summary_id, owner=owner, memory_type=memory_type, content=text.content,
            summary=summarize(text.content),
            importance=importance_at(heat, memory_type, now, self._policy.base_rate),
            heat=heat, created_at=now, updated_at=now,
            metadata={"cluster": {"members": len(group.members)}},
            tiers=Tiers(text.abstract, text.overview),
            traits=traits_of(text.content, Provenance.CONSOLIDATED, None, cluster=True),
        )
        # No vector and no index terms on the row: no search, dedup or merge meets a summary
        # as an ordinary memory; its vector (the members' mean) is the cluster's.
        stored = replace(self._sealer.seal(memory, None, now), keywords=())
        edges = tuple(Edge(summary_id, m, EdgeKind.NARRATIVE, MEMBER_WEIGHT, now, now)
                      for m in group.members)
        return ClusterWrite(stored, group.anchor, group.members, edges)
