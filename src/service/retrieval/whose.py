"""The whose stage: for a question about the user or a relative, the candidates about
another person than the one asked about rank lower (domain.facts.whose)."""

from __future__ import annotations

from memlane.domain.detail import Provenance
from memlane.domain.errors import DecryptionFailed
from memlane.domain.facts import person_asked, stated_factor
from memlane.domain.policy import RecallTuning
from memlane.ports.memories import MemoryStorePort
from memlane.service.retrieval.pipeline import Retrieval
from memlane.service.security import Sealer

# How many of the best candidates are read for whose fact they state: the answer is among
# them when only the person is wrong; reading costs one query and a decryption each.
WHOSE_DEPTH = 20


class Whose:
    """Reads `candidates` (the best WHOSE_DEPTH, decrypted) and re-ranks them: each match
    times `whose_factor` of the person the question asks about and the person the memory
    speaks of. A question about nobody of the user's ("Wann ist das Teamtreffen?", "What
    did Caroline's mother do?") reads nothing."""

    def __init__(self, store: MemoryStorePort, sealer: Sealer, tuning: RecallTuning) -> None:
        self._store = store
        self._sealer = sealer
        self._weight = tuning.whose_weight

    async def __call__(self, r: Retrieval) -> None:
        asked = person_asked(r.query)
        if asked.holder is None or not r.candidates:
            return
        best = r.candidates[:WHOSE_DEPTH]
        rows = await self._store.get_many(r.owner, [c.id for c in best], indexed=False)
        r.prefetched.update((row.id, row) for row in rows)  # Prefetch and Opening reuse them
        texts = {}
        for row in rows:
            try:
                texts[row.id] = self._sealer.open_content(row)
            except DecryptionFailed:
                continue  # left as it ranks; Opening reports a row that does not open
        changed = False
        for candidate in best:
            text = texts.get(candidate.id)
            if text is None:
                continue
            traits = candidate.hit.traits
            replied = traits is not None and traits.provenance is Provenance.REPLIED
            factor = stated_factor(asked, text, self._weight, replied=replied)
            if factor != 1.0:
                candidate.match *= factor
                changed = True
        if changed:
            r.candidates.sort(key=lambda c: -c.match)
