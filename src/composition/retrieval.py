"""The retrieval pipelines, declared in one place: which stages run, and in what order."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from memlane.domain.errors import ConfigurationError
from memlane.domain.policy import MemoryPolicy
from memlane.ports.affect import AffectPort
from memlane.ports.clock import Clock
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.storage import MemoryPorts
from memlane.service.retrieval import (
    ActiveContext,
    Budget,
    ClusterRecall,
    Contexts,
    ConversationPrior,
    Demotion,
    Eligibility,
    EntityRecall,
    FactRecall,
    FirstRankings,
    Focus,
    FocusRecording,
    Fusion,
    GraphExpansion,
    Join,
    JoinExpansion,
    LanguageBias,
    LevelOfDetail,
    Neighbours,
    Opening,
    Pipeline,
    Prefetch,
    Profile,
    ProfileSource,
    QueryAffect,
    QuestionCentring,
    Ranking,
    Recording,
    Rendering,
    Repeats,
    Replies,
    Retriever,
    SearchCut,
    Selection,
    Stage,
    StartExpansion,
    StartProfile,
    Superseded,
    Surrounding,
    Whose,
)
from memlane.service.security import Sealer


@dataclass(frozen=True)
class RetrievalParts:
    """What the stages are built from; a capability that is off is None (its stage too)."""

    memories: MemoryPorts
    embedder: EmbeddingPort
    sealer: Sealer
    policy: MemoryPolicy
    clock: Clock
    names: EntityRecall | None = None
    facts: FactRecall | None = None
    expansion: GraphExpansion | None = None
    profile: ProfileSource | None = None
    surroundings: Surrounding | None = None
    affect: AffectPort | None = None
    clusters: ClusterRecall | None = None
    skip: frozenset[str] = frozenset()  # the stages left out (set by `retriever`)

    @property
    def entity_weight(self) -> float:
        return 0.0 if self.names is None else self.names.weight

    @cached_property
    def language(self) -> LanguageBias | None:
        """The language stage, one for both places that use it: the first rankings read its
        projections with the lexical hits' cosines (one query), the stage applies them."""
        offsets = self.policy.recall.language_offsets
        if not offsets or "language" in self.skip:
            return None
        return LanguageBias(self.memories.search, self.embedder, offsets)

    @cached_property
    def centring(self) -> QuestionCentring | None:
        """The question's centring, one centre for every pipeline (None: its share is 0)."""
        weight = self.policy.recall.query_centring
        if weight == 0:
            return None
        return QuestionCentring(self.embedder, weight)


Declared = Sequence[tuple[str, Callable[[RetrievalParts], Stage | None]]]

# Search and context share the first stages: what the query finds, fused into one ranking.
FIRST: Declared = (
    # "Four weeks ago", "letzte Woche": the time a question points at ranks too (recall.md).
    ("rankings", lambda p: FirstRankings(
        p.memories.search, p.embedder, p.sealer, p.names, p.policy.recall.time_weight > 0,
        p.language, p.centring)),
    # A multilingual model's cosines less what each pair of languages adds (recall.md).
    ("language", lambda p: p.language),
    ("fusion", lambda p: Fusion(p.policy.recall, p.entity_weight)),
    # Clusters (docs/graph.md): the question's nearest summaries bring their best members.
    ("cluster_recall", lambda p: p.clusters),
    ("fact_recall", lambda p: p.facts),
    ("conversation_prior", lambda p: ConversationPrior(p.policy.recall)),
    # The assistant's words alone weigh less than the user's (docs/recall.md).
    ("replies", lambda p: Replies(p.policy.recall) if p.policy.recall.reply_weight < 1 else None),
    # Whose fact: "my brother's" allergy is not the user's (docs/recall.md, "Whose fact").
    ("whose", lambda p: Whose(p.memories.store, p.sealer, p.policy.recall)
     if p.policy.recall.whose_weight > 0 else None),
)
SEARCH: Declared = (
    *FIRST,
    ("demotion", lambda p: Demotion()),
    ("search_cut", lambda p: SearchCut()),
    ("opening", lambda p: Opening(
        p.memories.store, p.sealer, p.policy.weights, unindexed=False)),
)
AFTER_FIRST: Declared = (
    ("eligibility", lambda p: Eligibility(p.sealer.attributes, p.policy.rag_threshold)),
    # Session focus (docs/levels.md): closeness to the conversation's focus, session resume.
    ("focus", lambda p: None if p.memories.focus is None or not p.policy.detail.focus
     else Focus(p.memories.focus, p.memories.search, p.sealer.attributes, p.policy.detail,
                p.policy.graph.semantic_threshold)),
    ("graph_expansion", lambda p: None if p.expansion is None
     else StartExpansion(p.expansion, p.policy)),
    ("active_context", lambda p: ActiveContext(
        p.embedder, p.memories.search, p.policy.active_context_similarity)),
    # Chvor's emotional resonance: the question's charge, read only when it weighs.
    ("query_affect", lambda p: QueryAffect(p.affect)
     if p.affect is not None and p.policy.weights.emotion > 0 else None),
    ("prefetch", lambda p: Prefetch(p.memories.store, Ranking(p.policy))),
    ("neighbours", lambda p: Neighbours(p.memories.search, p.policy.recall)),
    ("graph_join", lambda p: JoinExpansion()),
    ("supersession", lambda p: Superseded()),
    ("join", lambda p: Join(p.memories.search, p.policy.active_context_similarity)),
    ("selection", lambda p: Selection(Ranking(p.policy))),
    ("opening", lambda p: Opening(p.memories.store, p.sealer, p.policy.weights, unindexed=True)),
    ("contexts", lambda p: Contexts(p.policy.rag_threshold)),
)
CONTEXT: Declared = (*FIRST, *AFTER_FIRST)
# The prompt's profile is read while the memories are chosen: started after the first
# rankings, so its query does not go out before the lexical search's.
PROMPT_START: Declared = (
    ("profile_start", lambda p: None if p.profile is None else StartProfile(p.profile)),
)
RECORDING: Declared = (
    ("recording", lambda p: Recording(
        p.memories.maintenance, p.clock, p.policy.base_rate, p.expansion)),
    ("focus_recording", lambda p: None if p.memories.focus is None or not p.policy.detail.focus
     else FocusRecording(p.memories.focus, p.sealer.attributes, p.clock)),
)
# The prompt's closing stages run even when no memory was chosen (the profile still opens it).
PROMPT: Declared = (
    ("profile", lambda p: None if p.profile is None else Profile(p.profile)),
    ("repeats", lambda p: None if p.profile is None else Repeats()),
    ("budget", lambda p: None if p.policy.detail.level_of_detail else Budget()),
    ("level_of_detail", lambda p: LevelOfDetail(p.embedder, p.policy.detail, p.surroundings)
     if p.policy.detail.level_of_detail else None),
    *RECORDING,
    ("rendering", lambda p: None if p.policy.detail.level_of_detail else Rendering()),
)
# Stages a deployment may leave out (`memory.recall.skip_stages`): ranking choices only.
OPTIONAL = frozenset({"cluster_recall", "fact_recall", "conversation_prior", "focus",
                      "graph_expansion", "language", "neighbours", "prefetch"})


def retriever(parts: RetrievalParts, skip: Collection[str] = ()) -> Retriever:
    """The retriever with its three pipelines, leaving out the stages named in `skip`."""
    if unknown := sorted(set(skip) - OPTIONAL):
        raise ConfigurationError(
            f"memory.recall.skip_stages: {', '.join(unknown)} cannot be left out; "
            f"optional stages are {', '.join(sorted(OPTIONAL))}"
        )

    parts = replace(parts, skip=frozenset(skip))

    def built(declared: Declared) -> list[Stage]:
        stages = (make(parts) for name, make in declared if name not in skip)
        return [stage for stage in stages if stage is not None]

    return Retriever(
        search=Pipeline(built(SEARCH)),
        context=Pipeline(built((*CONTEXT, *RECORDING))),
        prompt=Pipeline(built((*FIRST, *PROMPT_START, *AFTER_FIRST)), closing=built(PROMPT)),
        policy=parts.policy,
        clock=parts.clock,
    )
