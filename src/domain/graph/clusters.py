"""Clusters as nodes: an owner's memories grouped by a name they share and by meaning, the
groups matched to the clusters already there, and each summarised extractively."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

# A group needs three members: two memories alike are a pair, which a semantic edge joins.
MIN_MEMBERS = 3
# At most this many members: the summary's overview (L1, 1,000 characters) holds about this
# many one-line abstracts, and a bigger group says less about any one question.
MAX_MEMBERS = 12
# A name at most this many memories mention is one group as it is (all it was said about):
# only a bigger one, a chat partner's say, is split by meaning.
WHOLE_NAME = MAX_MEMBERS
# Two memories of a bigger name pair when each is among the other's three nearest (mutual nearest
# neighbours) at or above the semantic line: plain single-linkage over a threshold chains
# loosely alike memories into one group as big as the name.
NEAREST_IN_ANCHOR = 3
# Per name, its latest memories at most are grouped: the pairs statement compares every two
# of them (200 x 200 cosines), so a name mentioned a thousand times costs what 200 do.
ANCHOR_MEMORIES = 200
# A new group that shares at least half its members with an existing cluster (Jaccard) is
# that cluster refreshed, not a new one: a member added or edited keeps the summary's id.
SAME_CLUSTER = 0.5
# The summary is the members' abstracts: L1 joins them by centrality, L2 lists them in time.
OVERVIEW_SEPARATOR = " · "


@dataclass(frozen=True, slots=True)
class Pair:
    """Two memories of one owner that mention `anchor` and are each other's near neighbours."""

    anchor: UUID
    first: UUID
    second: UUID


@dataclass(frozen=True, slots=True)
class Regrouping:
    """One owner's names to group again (those its changed memories mention, and those of
    emptied clusters), with the pairs among their memories."""

    anchors: frozenset[UUID] = frozenset()
    pairs: tuple[Pair, ...] = ()


@dataclass(frozen=True, slots=True)
class Group:
    """Members sorted by id (the group's identity); `central`: the same, most linked first."""

    anchor: UUID | None
    members: tuple[UUID, ...]
    central: tuple[UUID, ...] = ()


@dataclass(frozen=True, slots=True)
class Cluster:
    """A summary node already stored: its id (a memory's), anchor and members; `stale`: a
    member was edited after the summary was made."""

    id: UUID
    anchor: UUID | None
    members: tuple[UUID, ...]
    stale: bool = False


@dataclass(frozen=True, slots=True)
class ClusterPlan:
    """What one owner's grouping changes: groups to make, clusters to refresh (id and the
    group it becomes), clusters to drop; a cluster whose members stay is in none."""

    made: list[Group] = field(default_factory=list)
    refreshed: list[tuple[UUID, Group]] = field(default_factory=list)
    dropped: list[UUID] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.made or self.refreshed or self.dropped)


@dataclass(frozen=True, slots=True)
class MemberText:
    """What a summary quotes of a member: its abstract (L0) and when it was written."""

    id: UUID
    abstract: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SummaryText:
    abstract: str
    overview: str
    content: str


def groups_of(
    pairs: Iterable[Pair], least: int = MIN_MEMBERS, most: int = MAX_MEMBERS
) -> list[Group]:
    """Per anchor, the pairs joined into groups (what pairs with a member joins it); groups
    of at least `least`, cut to the `most` most linked members (ties by id). The same
    members reached through two names are one group (the anchor first by id keeps it)."""
    by_anchor: dict[UUID, list[Pair]] = {}
    for pair in pairs:
        by_anchor.setdefault(pair.anchor, []).append(pair)
    groups: dict[tuple[UUID, ...], Group] = {}
    for anchor in sorted(by_anchor):
        for members, degree in _components(by_anchor[anchor]):
            if len(members) < least:
                continue
            central = tuple(sorted(members, key=lambda m: (-degree[m], str(m)))[:most])
            key = tuple(sorted(central, key=str))
            groups.setdefault(key, Group(anchor, key, central))
    return sorted(groups.values(), key=lambda g: [str(m) for m in g.members])


def _components(pairs: Sequence[Pair]) -> list[tuple[set[UUID], dict[UUID, int]]]:
    parent: dict[UUID, UUID] = {}
    degree: dict[UUID, int] = {}

    def root(node: UUID) -> UUID:
        while parent.setdefault(node, node) != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for pair in pairs:
        degree[pair.first] = degree.get(pair.first, 0) + 1
        degree[pair.second] = degree.get(pair.second, 0) + 1
        first, second = root(pair.first), root(pair.second)
        if first != second:
            parent[max(first, second, key=str)] = min(first, second, key=str)
    members: dict[UUID, set[UUID]] = {}
    for node in parent:
        members.setdefault(root(node), set()).add(node)
    return [(found, degree) for _, found in sorted(members.items(), key=lambda i: str(i[0]))]


def reconcile(
    existing: Sequence[Cluster], groups: Sequence[Group],
    anchors: frozenset[UUID] | None = None, same: float = SAME_CLUSTER,
) -> ClusterPlan:
    """The groups matched to the owner's clusters: each group takes the unmatched cluster it
    overlaps most (Jaccard at least `same`); an exact match changes nothing unless the
    cluster is stale, another match is a refresh; a group matching none is made, a cluster
    of the regrouped `anchors` (None: of every name) matched by none is dropped."""
    plan = ClusterPlan()
    free = {c.id: c for c in existing}
    for group in groups:
        wanted = set(group.members)
        best, score = None, same
        for cluster in sorted(free.values(), key=lambda c: str(c.id)):
            overlap = _jaccard(wanted, set(cluster.members))
            if overlap >= score and (best is None or overlap > score):
                best, score = cluster, overlap
        if best is None:
            plan.made.append(group)
            continue
        del free[best.id]
        if best.stale or best.members != group.members or best.anchor != group.anchor:
            plan.refreshed.append((best.id, group))
    plan.dropped.extend(sorted(
        (c.id for c in free.values() if anchors is None or c.anchor in anchors), key=str))
    return plan


def _jaccard(first: set[UUID], second: set[UUID]) -> float:
    union = first | second
    return len(first & second) / len(union) if union else 0.0


def summary_of(
    group: Group, texts: Sequence[MemberText], limits: tuple[int, int, int]
) -> SummaryText:
    """The group's extractive tiers from its members' abstracts: L0 the most central
    member's, L1 the abstracts most central first as far as they fit, L2 (the content) one
    line per member in time order as far as it fits. `limits`: the L0, L1 and L2 sizes in
    characters (a text cut to fit is cut at a word, with an ellipsis)."""
    l0, l1, l2 = limits
    by_id = {t.id: MemberText(t.id, cut(t.abstract, l0), t.created_at)
             for t in texts if t.abstract.strip()}
    central = [by_id[m] for m in group.central or group.members if m in by_id]
    if not central:
        return SummaryText("", "", "")
    overview = _fitted([t.abstract for t in central], OVERVIEW_SEPARATOR, l1)
    timed = sorted(central, key=lambda t: (t.created_at, str(t.id)))
    content = _fitted([f"- {t.abstract}" for t in timed], "\n", l2)
    return SummaryText(cut(central[0].abstract, l0), overview, content)


def cut(text: str, limit: int) -> str:
    """Whitespace collapsed; when longer than `limit`, cut at a word, with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    head = flat[: max(0, limit - 1)]
    if " " in head[limit // 2 :]:
        head = head[: head.rindex(" ")]
    return head.rstrip() + "…"


def _fitted(parts: Sequence[str], separator: str, limit: int) -> str:
    """As many parts as fit, joined; the first alone, cut, when even it does not."""
    taken: list[str] = []
    used = 0
    for part in parts:
        cost = len(part) + (len(separator) if taken else 0)
        if used + cost > limit:
            break
        taken.append(part)
        used += cost
    return separator.join(taken) if taken else cut(parts[0], limit)
