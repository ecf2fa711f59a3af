"""The search's demotion stage: what was superseded ranks below what replaced it, or is left out."""

from __future__ import annotations

from uuid import UUID

from memlane.domain.retrieval import demoted
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.pipeline import Retrieval


def replaced(candidate: Candidate) -> bool:
    """Whether something replaced the candidate's memory (a newer memory, or a stated fact)."""
    return candidate.hit.valid_until is not None or candidate.hit.superseded_by is not None


class Demotion:
    """Reads and re-ranks `candidates` by their final score (the `score` a search result
    carries): a superseded memory keeps half its fused match and lands below its replacement
    when both were found (domain.retrieval.demotion). With `current` set, the search keeps
    only the memories that hold (True) or only the replaced ones (False)."""

    async def __call__(self, r: Retrieval) -> None:
        if r.current is not None:
            r.candidates = [c for c in r.candidates if replaced(c) != r.current]
        by: dict[UUID, UUID | None] = {
            c.id: c.hit.superseded_by for c in r.candidates if replaced(c)
        }
        if not by:
            return
        scores = demoted({c.id: c.match for c in r.candidates}, by)
        for candidate in r.candidates:
            candidate.match = scores[candidate.id]
        r.candidates.sort(key=lambda c: -c.match)
        if not r.candidates:
            r.finish()
