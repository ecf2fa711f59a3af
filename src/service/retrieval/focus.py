"""Session focus (RMG decisions 5-8): distance from a conversation's focus raises a memory's
match, a new conversation resumes its topic's last focus, and each context feeds the focus."""

from __future__ import annotations

from memlane.domain.policy import DetailTuning
from memlane.domain.retrieval import FocusQuery, focus_factor, resumed_match
from memlane.ports.clock import Clock
from memlane.ports.memories import CandidateSearchPort, FocusPort
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.pipeline import Retrieval
from memlane.service.security import AttributeSealer


class Focus:
    """Reads `candidates` and `vector`, raises each candidate's match by its closeness in
    hops to the conversation's focus (re-ranked); writes `resumed`. A conversation without
    a focus yet takes that of the user's latest conversation whose focus is on the
    question's topic (a memory at the model's semantic-link cosine or more to it): its
    memories the question did not find join the candidates. Without a conversation id,
    nothing happens."""

    def __init__(
        self, focus: FocusPort, search: CandidateSearchPort, attributes: AttributeSealer,
        tuning: DetailTuning, resume_similarity: float,
    ) -> None:
        self._focus = focus
        self._search = search
        self._attributes = attributes
        self._tuning = tuning
        self._query = FocusQuery(
            size=tuning.focus_size, hops=tuning.focus_hops, recent=tuning.resume_recent,
            resume_similarity=resume_similarity if tuning.resume_recent > 0 else None,
        )

    async def __call__(self, r: Retrieval) -> None:
        token = self._attributes.conversation_token(r.owner.tenant, r.options.conversation_id)
        if token is None or not self._query.size or not r.candidates:
            return
        view = await self._focus.closeness(
            r.owner, token, [c.id for c in r.candidates], r.vector, self._query
        )
        if not view.focus:
            return
        weight = self._tuning.focus_weight
        best = max(c.match for c in r.candidates)
        for c in r.candidates:
            c.match *= focus_factor(view.hops.get(c.id), weight)
        if view.resumed:
            known = {c.id for c in r.candidates}
            rank = {memory_id: n for n, memory_id in enumerate(view.focus)}
            missing = [i for i in view.focus if i not in known]
            found = await self._search.candidates_by_id(r.owner, missing, r.vector)
            joined = [
                Candidate(hit, hit.score, focus_factor(0, weight) * resumed_match(
                    best, self._tuning.resume_share, rank[hit.id]), False)
                for hit in found if not r.excluded(hit.conversation_id)
            ]
            r.candidates.extend(joined)
            r.resumed = frozenset(c.id for c in joined)
        r.candidates.sort(key=lambda c: -c.match)


class FocusRecording:
    """Reads `contexts`: in a conversation, each memory handed out is touched in its focus."""

    def __init__(self, focus: FocusPort, attributes: AttributeSealer, clock: Clock) -> None:
        self._focus = focus
        self._attributes = attributes
        self._clock = clock

    async def __call__(self, r: Retrieval) -> None:
        token = self._attributes.conversation_token(r.owner.tenant, r.options.conversation_id)
        if token is None or not r.contexts:
            return
        await self._focus.touch(r.owner, token, [c.id for c in r.contexts], self._clock())
