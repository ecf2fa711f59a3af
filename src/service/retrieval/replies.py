"""The replies stage: a memory of the assistant's words alone keeps a share of its match."""

from __future__ import annotations

from memlane.domain.policy import RecallTuning
from memlane.domain.retrieval import asks_about_replies, reply_share
from memlane.service.retrieval.pipeline import Retrieval


class Replies:
    """Reads and re-ranks `candidates`: each match times `reply_share` of its memory's
    traits (domain.retrieval.scoring), so the user's statement ranks above the reply that
    echoes it. Neighbours are weighed the same way where they are brought
    (service.retrieval.neighbours). A question about the assistant's own words
    (`asks_about_replies`: "what sealant did you recommend?") leaves every match whole."""

    def __init__(self, tuning: RecallTuning) -> None:
        self._weight = tuning.reply_weight

    async def __call__(self, r: Retrieval) -> None:
        if asks_about_replies(r.query):
            return
        changed = False
        for candidate in r.candidates:
            share = reply_share(candidate.hit.traits, self._weight)
            if share != 1.0:
                candidate.match *= share
                changed = True
        if changed:
            r.candidates.sort(key=lambda c: -c.match)
