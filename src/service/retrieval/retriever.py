"""Reading by meaning: hybrid search and the memories chosen for prompt context."""

from __future__ import annotations

from datetime import datetime

from memlane.domain.model import MemoryContext, Owner, PromptContext, ScoredMemory
from memlane.domain.policy import MemoryPolicy
from memlane.domain.retrieval import ContextOptions
from memlane.ports.clock import Clock
from memlane.service.memories import check_options
from memlane.service.retrieval.pipeline import Pipeline, Retrieval

# A search reads at least this many candidates per ranking, and this many per result.
MIN_CANDIDATES = 20
CANDIDATES_PER_RESULT = 4
# By level of detail the profile picks its lines within this many characters per token of
# the budget (its tokens are then counted with the rest; no tokenizer packs more).
CHARS_PER_TOKEN_CAP = 8


class Retriever:
    """Three pipelines over the same first stages (composition/retrieval.py declares them):
    search (does not count as an access), the memories for a context (recorded as
    accessed), and the prompt block (its memories fit the budget; those are recorded)."""

    def __init__(
        self,
        search: Pipeline,
        context: Pipeline,
        prompt: Pipeline,
        policy: MemoryPolicy,
        clock: Clock,
    ) -> None:
        self._search = search
        self._context = context
        self._prompt = prompt
        self._policy = policy
        self._clock = clock

    async def search(
        self, owner: Owner, query: str, *, limit: int, min_similarity: float | None,
        current: bool | None = None, asked_at: datetime | None = None,
    ) -> list[ScoredMemory]:
        """Dense and lexical hits fused, best first by `score`, at most `limit`.

        `score` is the fused match that orders the results, a superseded memory's demotion
        included; `similarity` is the cosine to the query as compared, centred under a model
        with centring (0.0 when the memory or the query has no embedding); `min_similarity`
        applies to every result, lexical-only hits included. When the query cannot be
        embedded, lexical hits alone answer (similarity 0.0). `current`: True leaves
        replaced memories out, False keeps only them. `asked_at`: when the question is
        asked (ContextOptions.asked_at; None: now).
        """
        if limit < 1 or not query.strip():
            return []
        pool = max(MIN_CANDIDATES, CANDIDATES_PER_RESULT * limit)
        r = Retrieval(owner, query, self._clock(), limit, pool, ContextOptions(asked_at=asked_at),
                      min_similarity=min_similarity, current=current)
        return (await self._search.run(r)).opened

    async def retrieve_context(
        self, owner: Owner, query: str, limit: int | None = None,
        options: ContextOptions | None = None,
    ) -> list[MemoryContext]:
        """The best memories for a prompt in the options' order; records their access."""
        return (await self._context.run(self._request(owner, query, limit, options))).contexts

    async def prompt_context(
        self, owner: Owner, query: str, limit: int | None = None,
        options: ContextOptions | None = None,
    ) -> PromptContext:
        """The memories that fit the budget and the rendered block; the block opens with
        the profile's core facts unless options.include_profile is off. By level of detail
        (`memory.detail.level_of_detail`, off by default) the budget is options.token_budget
        or the configured one, in the embedder's tokens; else the character budget."""
        r = self._request(owner, query, limit, options)
        detail = self._policy.detail
        if detail.level_of_detail:  # the token budget holds; the profile's own choice is
            r.token_budget = r.options.token_budget or detail.token_budget  # bounded in chars
            r.char_budget = r.token_budget * CHARS_PER_TOKEN_CAP
        else:
            r.char_budget = self._policy.context_char_budget
        await self._prompt.run(r)
        return PromptContext(memories=tuple(r.contexts), text=r.text, levels=tuple(r.levels))

    def _request(
        self, owner: Owner, query: str, limit: int | None, options: ContextOptions | None
    ) -> Retrieval:
        options = options or ContextOptions()
        check_options(options)
        places = limit or self._policy.rag_limit
        pool = max(self._policy.recall.candidate_pool, CANDIDATES_PER_RESULT * places)
        r = Retrieval(owner, query, self._clock(), places, pool, options)
        if not query.strip():
            r.finish()
        return r
