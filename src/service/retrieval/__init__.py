"""Retrieval use cases: candidates, fusion, expansion and the selection of context."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.service.retrieval.affect import (
        QueryAffect as QueryAffect,
    )
    from memlane.service.retrieval.centring import (
        QuestionCentring as QuestionCentring,
    )
    from memlane.service.retrieval.cluster_recall import (
        ClusterRecall as ClusterRecall,
    )
    from memlane.service.retrieval.contexts import (
        Contexts as Contexts,
    )
    from memlane.service.retrieval.conversation_prior import (
        ConversationPrior as ConversationPrior,
    )
    from memlane.service.retrieval.demotion import (
        Demotion as Demotion,
    )
    from memlane.service.retrieval.entity_recall import (
        EntityRecall as EntityRecall,
    )
    from memlane.service.retrieval.fact_recall import (
        FactRecall as FactRecall,
    )
    from memlane.service.retrieval.filters import (
        ActiveContext as ActiveContext,
        Eligibility as Eligibility,
        Join as Join,
        Superseded as Superseded,
    )
    from memlane.service.retrieval.focus import (
        Focus as Focus,
        FocusRecording as FocusRecording,
    )
    from memlane.service.retrieval.fusion import (
        Fusion as Fusion,
    )
    from memlane.service.retrieval.graph_expansion import (
        GraphExpansion as GraphExpansion,
        JoinExpansion as JoinExpansion,
        StartExpansion as StartExpansion,
    )
    from memlane.service.retrieval.language import (
        LanguageBias as LanguageBias,
    )
    from memlane.service.retrieval.level_of_detail import (
        LevelOfDetail as LevelOfDetail,
    )
    from memlane.service.retrieval.neighbours import (
        Neighbours as Neighbours,
    )
    from memlane.service.retrieval.opening import (
        Opening as Opening,
        SearchCut as SearchCut,
    )
    from memlane.service.retrieval.pipeline import (
        Pipeline as Pipeline,
        Stage as Stage,
    )
    from memlane.service.retrieval.prompt import (
        Budget as Budget,
        Profile as Profile,
        ProfileSource as ProfileSource,
        Rendering as Rendering,
        Repeats as Repeats,
        StartProfile as StartProfile,
    )
    from memlane.service.retrieval.rankings import (
        FirstRankings as FirstRankings,
    )
    from memlane.service.retrieval.recording import (
        Recording as Recording,
    )
    from memlane.service.retrieval.replies import (
        Replies as Replies,
    )
    from memlane.service.retrieval.retriever import (
        Retriever as Retriever,
    )
    from memlane.service.retrieval.selection import (
        Prefetch as Prefetch,
        Ranking as Ranking,
        Selection as Selection,
    )
    from memlane.service.retrieval.surroundings import (
        Surrounding as Surrounding,
    )
    from memlane.service.retrieval.whose import (
        Whose as Whose,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "ClusterRecall": "cluster_recall",
    "QuestionCentring": "centring",
    "ActiveContext": "filters",
    "Budget": "prompt",
    "Contexts": "contexts",
    "ConversationPrior": "conversation_prior",
    "Demotion": "demotion",
    "Eligibility": "filters",
    "Focus": "focus",
    "FocusRecording": "focus",
    "EntityRecall": "entity_recall",
    "FactRecall": "fact_recall",
    "FirstRankings": "rankings",
    "Fusion": "fusion",
    "GraphExpansion": "graph_expansion",
    "Join": "filters",
    "LanguageBias": "language",
    "JoinExpansion": "graph_expansion",
    "Neighbours": "neighbours",
    "Opening": "opening",
    "Pipeline": "pipeline",
    "LevelOfDetail": "level_of_detail",
    "Prefetch": "selection",
    "Profile": "prompt",
    "QueryAffect": "affect",
    "Surrounding": "surroundings",
    "ProfileSource": "prompt",
    "Ranking": "selection",
    "Recording": "recording",
    "Rendering": "prompt",
    "Repeats": "prompt",
    "Replies": "replies",
    "Retriever": "retriever",
    "SearchCut": "opening",
    "Selection": "selection",
    "Stage": "pipeline",
    "StartExpansion": "graph_expansion",
    "StartProfile": "prompt",
    "Superseded": "filters",
    "Whose": "whose",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
