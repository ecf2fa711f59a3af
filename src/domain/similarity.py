"""Each embedding model's cosine scale: every similarity constant, calibrated per model, here.

Cosines of two models are not on one scale. all-MiniLM-L6-v2 gives a question and an
unrelated memory about 0.0-0.3; multilingual-e5-small gives the same pair 0.73-0.81, and
its related pairs only a few hundredths more. A line drawn for one model means nothing for
the other, so each model has its own `SimilarityScale`, and the settings take their
defaults from the configured model's (`memory.embedding.model`); a value set explicitly
in config.toml or the environment still wins. bench/similarity_scales.py measures where each
of MiniLM's lines sits among pairs of known meaning and carries it to the same place under
another model (docs/embeddings.md has the figures).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SimilarityScale:
    """The cosine lines of one embedding model.

    rag_threshold: a memory found only by meaning needs at least this cosine to the
    question to enter a context. merge_threshold: a new plain memory above it merges into
    its nearest (DESIGN §2). semantic_threshold: a new memory links to older ones from this
    cosine on (graph). supersession_band: the cosines within which an older memory may be
    the one a new statement replaces. active_context: a candidate at or above it to a text
    already in the prompt would only repeat it. relevance_similarity: the weight of the
    cosine in DESIGN's relevance (0.5 for MiniLM), scaled so that the same difference in
    meaning moves the relevance as much under every model. unrelated: the cosine a question
    has to a turn of its conversation that does not answer it (the 10th percentile,
    bench/score_distributions.py), where a neighbour's relevance starts (retrieval's
    `neighbour_floor`). query_centring: the share of the mean document vector taken out of
    each question before it is compared (domain/retrieval/centring.py); every line a
    question's cosine meets (rag_threshold, relevance_similarity, unrelated, the language
    offsets) is then measured on the centred cosines.
    """

    rag_threshold: float
    merge_threshold: float
    semantic_threshold: float
    supersession_band: tuple[float, float]
    active_context: float
    relevance_similarity: float
    unrelated: float
    # (question's language, memory's language, cosine): how much higher than between two
    # English texts an unrelated pair's cosine sits (bench/language_offsets.py). Retrieval
    # subtracts it (`language_offset`): e5 rates any German memory higher, most of all
    # for a German question, by as much as an answer stands above the rest.
    language_offsets: tuple[tuple[str, str, float], ...] = ()
    query_centring: float = 0.0

    def language_offset(self, question: str, memory: str) -> float:
        """The cosine a (question, memory) pair of these languages has in excess of two
        English texts'; 0 for a pair not measured."""
        for asked, stored, offset in self.language_offsets:
            if (asked, stored) == (question, memory):
                return offset
        return 0.0


MINILM = "all-MiniLM-L6-v2"
MULTILINGUAL_E5 = "multilingual-e5-small"
# The model a new installation embeds with (`memory.embedding.model`'s default): at least as
# good as MiniLM on every development set and far better in German (docs/embeddings.md). An
# installation that never chose its model keeps the one its vectors come from.
DEFAULT_EMBEDDING_MODEL = MULTILINGUAL_E5
# Whose lines the domain's own defaults carry, built without a model (in tests and fakes):
# MiniLM's, the scale DESIGN's numbers were set on. Settings pass the configured model's.
REFERENCE_MODEL = MINILM

SCALES: dict[str, SimilarityScale] = {
    # DESIGN's values, set for MiniLM (docs/recall.md, docs/graph.md, docs/proxy.md).
    MINILM: SimilarityScale(
        rag_threshold=0.25,
        merge_threshold=0.85,
        semantic_threshold=0.35,
        # No floor (docs/supersession.md): the words decide, so both write routes judge the
        # same nearest candidates.
        supersession_band=(0.0, 1.0),
        active_context=0.85,
        relevance_similarity=0.5,
        # Its 10th percentile is -0.03: 0 keeps the neighbours' relevance as measured.
        unrelated=0.0,
    ),
    # MiniLM's lines carried to the same places among e5's cosines of the same pairs
    # (bench/similarity_scales.py on the LoCoMo development split and the supersession
    # scenarios; docs/embeddings.md): the rag line at the 57th percentile of questions with
    # turns that do not answer them, the semantic line at the 2nd of dated turn pairs, the
    # merge line at the 97th of a new statement with its history, the active-context line a
    # third of the way from same-topic turn pairs (p90) to a turn restated on another day
    # (p10), and the relevance weight times the ratio of the models' spreads between a
    # question's evidence and its other turns (2.6). Every line a question meets (rag,
    # relevance, unrelated, the language offsets) is measured on centred questions
    # (query_centring; docs/recall.md, "Centring the question"): uncentred they were rag
    # 0.80, relevance 2.2, unrelated 0.73 and offsets 0.020 / -0.014 / 0.037.
    MULTILINGUAL_E5: SimilarityScale(
        rag_threshold=0.60,
        merge_threshold=0.95,
        semantic_threshold=0.83,
        supersession_band=(0.0, 1.0),  # no floor, as MiniLM's
        active_context=0.94,
        relevance_similarity=1.32,
        unrelated=0.48,
        # Unrelated (question, statement) pairs of the labelled facts and relation
        # questions (bench/language_offsets.py), against English-English's mean 0.561.
        # MiniLM has none: it reads no German (an answer stands 0.03-0.05 above the rest
        # there, against 0.20 in English), so its German cosines carry little to correct.
        language_offsets=(("en", "de", 0.017), ("de", "en", -0.021), ("de", "de", 0.044)),
        # Half the mean document vector out: on all three development sets the dense
        # ranking alone and the whole context gain from 0.35 to 0.75 alike (docs/recall.md).
        query_centring=0.5,
    ),
}


def scale_of(model: str) -> SimilarityScale:
    """The scale of `model`; a model not calibrated here (an Ollama model, or MiniLM under
    Ollama's name) gets MiniLM's lines, to be set in config.toml for that model."""
    return SCALES.get(model, SCALES[MINILM])


DEFAULT_SCALE = scale_of(REFERENCE_MODEL)
