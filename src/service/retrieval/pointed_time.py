"""The pointed-time stage: memories from the time a question points at rank higher."""

from __future__ import annotations

from memlane.domain.policy import RecallTuning
from memlane.domain.retrieval import pointed_window
from memlane.service.retrieval.pipeline import Retrieval


class PointedTime:
    """Reads and re-ranks `candidates`: when the question points at a time relative to when
    it is asked ("four weeks ago", "last Saturday": domain.retrieval.when), a candidate
    written within it has its match raised by `time_weight` of it. A question that names no
    such time is left as it is."""

    def __init__(self, tuning: RecallTuning) -> None:
        self._weight = tuning.time_weight

    async def __call__(self, r: Retrieval) -> None:
        window = pointed_window(r.query, r.options.asked_at or r.now)
        if window is None:
            return
        raised = False
        for candidate in r.candidates:
            if window.holds(candidate.hit.created_at):
                candidate.match *= 1.0 + self._weight
                raised = True
        if raised:
            r.candidates.sort(key=lambda c: -c.match)
