"""The sleep cycle's rules: what a cycle reports, and which near-duplicates merge together."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.memories.consolidation import MAX_SOURCES
from memlane.domain.model import Owner

# Memories a cycle reads per batch: one statement finds their near-duplicates, one weaves
# their stories, one moves their owners' watermarks (docs/graph.md, "The sleep cycle").
DEFAULT_BATCH = 1_000
# Nearest memories looked at per changed memory: a near-duplicate is the nearest or close.
NEAR_NEIGHBOURS = 5
# What a merge counts against a run's budget, in memories read: it embeds a text and commits
# an audited transaction, ~240 times a memory's read in a batch (bench/scale_sleep.py: ~6,400
# memories read a second, ~27 merges). Data full of near-duplicates then stops a run after
# ~125 merges instead of holding the database for every one of them.
MERGE_COST = 200
# A woven link says two conversation memories tell one story about the same name: weaker
# than a consolidation's own link (1.0), and it fades (half-life 180 days) unless used.
WEAVE_WEIGHT = 0.5


@dataclass(frozen=True, slots=True)
class Changed:
    """A memory written or edited since its owner's watermark."""

    owner: Owner
    id: UUID
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class NearPair:
    """Two memories of one owner at or above the merge line."""

    owner: Owner
    first: UUID
    second: UUID


@dataclass(frozen=True, slots=True)
class SleepReport:
    """What a cycle did. scanned: memories read since the watermarks; merged: new memories
    made from near-duplicates, sources: the memories they replace; woven: narrative links
    added; pruned: faded links removed; skipped: groups left as they are (a content too
    long to merge, or a source that went away meanwhile); clusters: summary nodes made or
    refreshed; left: memories still to read when the run stopped at its budget (the next
    run goes on from there)."""

    scanned: int = 0
    merged: int = 0
    sources: int = 0
    woven: int = 0
    pruned: int = 0
    skipped: int = 0
    clusters: int = 0
    left: int = 0

    def plus(self, other: SleepReport) -> SleepReport:
        mine, theirs = asdict(self), asdict(other)
        return SleepReport(**{k: mine[k] + theirs[k] for k in mine})

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @property
    def spent(self) -> int:
        """The run's work against its budget: memories read, merges at MERGE_COST each."""
        return self.scanned + MERGE_COST * self.merged


def next_batch_size(batch_size: int, budget: int | None, done: SleepReport) -> int:
    """A run's next batch: `batch_size` without a budget; within one, what is left of it at
    the run's cost per memory read so far, or, before any, as if every two memories merged
    (the most merges a batch can hold), so that no batch outruns the budget by much. 0: the
    budget is spent."""
    if budget is None:
        return batch_size
    if (left := budget - done.spent) <= 0:
        return 0
    per_read = done.spent / done.scanned if done.scanned else 1 + MERGE_COST / 2
    return max(1, min(batch_size, int(left / per_read)))


def merges_within(
    batch: Sequence[Changed], groups: Mapping[Owner, list[tuple[UUID, ...]]], allowed: int
) -> tuple[list[tuple[Owner, tuple[UUID, ...]]], int]:
    """The groups a batch merges now, in the order of their first member in the batch, at
    most `allowed` of them (at least one, so that a run always gets on), and how many of
    the batch's memories are done: those before the first member of a group left for
    later (the whole batch when none is). The rest is read again by the next run."""
    where = {(c.owner, c.id): i for i, c in enumerate(batch)}
    ordered = sorted(
        ((min(where.get((owner, m), len(batch)) for m in group), owner, group)
         for owner, owned in groups.items() for group in owned),
        key=lambda found: found[0])
    now, later = ordered[:max(1, allowed)], ordered[max(1, allowed):]
    return [(owner, group) for _, owner, group in now], later[0][0] if later else len(batch)


def watermarks(batch: Iterable[Changed]) -> dict[Owner, tuple[datetime, UUID]]:
    """Each owner's last memory of the batch, by (updated_at, id): its next watermark."""
    marks: dict[Owner, tuple[datetime, UUID]] = {}
    for changed in batch:
        mark = (changed.updated_at, changed.id)
        held = marks.get(changed.owner)
        if held is None or (mark[0], str(mark[1])) > (held[0], str(held[1])):
            marks[changed.owner] = mark
    return marks


def fragment_groups(
    pairs: Iterable[NearPair], mergeable: Mapping[UUID, bool], limit: int = MAX_SOURCES
) -> dict[Owner, list[tuple[UUID, ...]]]:
    """Near-duplicates joined into groups (what is near one member joins it), per owner,
    among the memories `mergeable` allows; each group of at least two, at most `limit`
    (the rest of a bigger group waits for the next cycle), ids in sorted order."""
    parent: dict[tuple[Owner, UUID], tuple[Owner, UUID]] = {}

    def root(node: tuple[Owner, UUID]) -> tuple[Owner, UUID]:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for pair in pairs:
        if mergeable.get(pair.first) and mergeable.get(pair.second):
            first, second = root((pair.owner, pair.first)), root((pair.owner, pair.second))
            if first != second:
                parent[max(first, second, key=_key)] = min(first, second, key=_key)
    members: dict[tuple[Owner, UUID], list[UUID]] = {}
    for node in sorted(parent, key=_key):
        members.setdefault(root(node), []).append(node[1])
    groups: dict[Owner, list[tuple[UUID, ...]]] = {}
    for (owner, _), ids in members.items():
        if len(ids) >= 2:
            groups.setdefault(owner, []).append(tuple(ids[:limit]))
    return groups


def _key(node: tuple[Owner, UUID]) -> tuple[str, str, str]:
    return (node[0].tenant, node[0].user_id, str(node[1]))
