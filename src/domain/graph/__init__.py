"""The memory graph's rules: edges, activation, supersession, semantic, causal, temporal links."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.graph import knowledge as knowledge
    from memlane.domain.graph.activation import (
        HOP_DECAY as HOP_DECAY,
        Adjacency as Adjacency,
        Reached as Reached,
        adjacency as adjacency,
        spread as spread,
    )
    from memlane.domain.graph.activation_walk import (
        REPLACEMENT_DEPTH as REPLACEMENT_DEPTH,
        Walk as Walk,
        join_floor as join_floor,
    )
    from memlane.domain.graph.causal import (
        CAUSAL_WEIGHT as CAUSAL_WEIGHT,
        follows_causally as follows_causally,
    )
    from memlane.domain.graph.clusters import (
        ANCHOR_MEMORIES as ANCHOR_MEMORIES,
        MAX_MEMBERS as MAX_MEMBERS,
        MIN_MEMBERS as MIN_MEMBERS,
        NEAREST_IN_ANCHOR as NEAREST_IN_ANCHOR,
        WHOLE_NAME as WHOLE_NAME,
        Cluster as Cluster,
        ClusterPlan as ClusterPlan,
        Group as Group,
        MemberText as MemberText,
        Pair as Pair,
        Regrouping as Regrouping,
        SummaryText as SummaryText,
        groups_of as groups_of,
        reconcile as reconcile,
        summary_of as summary_of,
    )
    from memlane.domain.graph.edges import (
        HALF_LIFE_DAYS as HALF_LIFE_DAYS,
        REPLACING_KINDS as REPLACING_KINDS,
        USE_BOOST as USE_BOOST,
        Edge as Edge,
        EdgeKind as EdgeKind,
        check_weight as check_weight,
        strength as strength,
    )
    from memlane.domain.graph.holders import (
        holder_of as holder_of,
        people_named as people_named,
    )
    from memlane.domain.graph.knowledge import (
        Entity as Entity,
        EntityNotFound as EntityNotFound,
        KnowledgeGraph as KnowledgeGraph,
        Relation as Relation,
        role_of as role_of,
    )
    from memlane.domain.graph.semantic import semantic_edges as semantic_edges
    from memlane.domain.graph.supersession import (
        Candidate as Candidate,
        SupersessionDecision as SupersessionDecision,
        asks_about_past as asks_about_past,
        judge_supersession as judge_supersession,
    )
    from memlane.domain.graph.supersession_learned import (
        InvalidJudgeWeights as InvalidJudgeWeights,
        LearnedJudge as LearnedJudge,
    )
    from memlane.domain.graph.supersession_words import (
        content_words as content_words,
        stem as stem,
    )
    from memlane.domain.graph.temporal import (
        Moment as Moment,
        temporal_edge_to as temporal_edge_to,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ANCHOR_MEMORIES": "clusters",
    "Cluster": "clusters",
    "ClusterPlan": "clusters",
    "Group": "clusters",
    "MAX_MEMBERS": "clusters",
    "MIN_MEMBERS": "clusters",
    "MemberText": "clusters",
    "NEAREST_IN_ANCHOR": "clusters",
    "Pair": "clusters",
    "Regrouping": "clusters",
    "SummaryText": "clusters",
    "WHOLE_NAME": "clusters",
    "groups_of": "clusters",
    "reconcile": "clusters",
    "summary_of": "clusters",
    "Adjacency": "activation",
    "CAUSAL_WEIGHT": "causal",
    "Candidate": "supersession",
    "Edge": "edges",
    "EdgeKind": "edges",
    "Entity": "knowledge",
    "EntityNotFound": "knowledge",
    "HALF_LIFE_DAYS": "edges",
    "HOP_DECAY": "activation",
    "InvalidJudgeWeights": "supersession_learned",
    "KnowledgeGraph": "knowledge",
    "LearnedJudge": "supersession_learned",
    "Moment": "temporal",
    "REPLACEMENT_DEPTH": "activation_walk",
    "REPLACING_KINDS": "edges",
    "Reached": "activation",
    "Relation": "knowledge",
    "SupersessionDecision": "supersession",
    "USE_BOOST": "edges",
    "Walk": "activation_walk",
    "adjacency": "activation",
    "asks_about_past": "supersession",
    "check_weight": "edges",
    "content_words": "supersession_words",
    "follows_causally": "causal",
    "holder_of": "holders",
    "join_floor": "activation_walk",
    "judge_supersession": "supersession",
    "role_of": "knowledge",
    "people_named": "holders",
    "semantic_edges": "semantic",
    "spread": "activation",
    "stem": "supersession_words",
    "strength": "edges",
    "temporal_edge_to": "temporal",
}, submodules=("knowledge",))


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
