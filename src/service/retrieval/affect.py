"""The question's emotional charge, read once for the emotional-resonance term of ranking."""

from __future__ import annotations

import asyncio

from memlane.ports.affect import AffectPort
from memlane.service.retrieval.pipeline import Retrieval


class QueryAffect:
    """Writes `query_affect` (declared only when the resonance weight is above zero: the
    lexicon's read then costs ~0.1 ms a question, off the event loop)."""

    def __init__(self, affect: AffectPort) -> None:
        self._affect = affect

    async def __call__(self, r: Retrieval) -> None:
        read = await asyncio.to_thread(self._affect.affect, [r.query])
        r.query_affect = read[0] if read else None
