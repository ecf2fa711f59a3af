"""A memory's metadata in ranking: confidence and emotional resonance break near-ties with
their small weights; resonance weighs only when configured (docs/levels.md)."""

from __future__ import annotations

from dataclasses import replace

from memlane.domain.detail import Affect, MemoryDomain, Provenance, Traits
from memlane.domain.policy import MemoryPolicy
from memlane.domain.retrieval import RelevanceWeights
from memlane.service.retrieval.affect import QueryAffect
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.selection import Ranking, Selection
from tests.unit.service.retrieval.stage_builders import candidate, request

CALM = Affect(0.0, 0.0)
JOYFUL = Affect(0.8, 0.9)


def with_traits(c: Candidate, provenance: Provenance, confidence: float,
                affect: Affect | None = None) -> Candidate:
    traits = Traits(provenance, confidence, affect, MemoryDomain.PERSONAL)
    return replace(c, hit=replace(c.hit, traits=traits))


async def test_a_stated_memory_beats_an_inferred_one_of_equal_match() -> None:
    inferred = with_traits(candidate(1.0, 0.5), Provenance.INFERRED, 0.5)
    stated = with_traits(candidate(1.0, 0.5), Provenance.STATED, 1.0)
    r = request(places=1)
    r.candidates = [inferred, stated]
    await Selection(Ranking(MemoryPolicy()))(r)
    assert r.chosen == [stated]
    off = request(places=1)  # without the confidence weight the first stays first
    off.candidates = [inferred, stated]
    await Selection(Ranking(MemoryPolicy(weights=RelevanceWeights(confidence=0.0))))(off)
    assert off.chosen == [inferred]


class Lexicon:
    lexicon = "test"

    def affect(self, texts: list[str]) -> list[Affect | None]:
        return [JOYFUL if "!" in t else CALM for t in texts]


async def test_a_charged_question_raises_the_memory_of_like_charge_when_resonance_weighs() -> None:
    calm = with_traits(candidate(1.0, 0.5), Provenance.STATED, 1.0, CALM)
    joyful = with_traits(candidate(1.0, 0.5), Provenance.STATED, 1.0, JOYFUL)
    weighing = MemoryPolicy(weights=RelevanceWeights(emotion=0.1))
    r = request("the best day of my life!", places=1)
    await QueryAffect(Lexicon())(r)  # type: ignore[arg-type]
    assert r.query_affect == JOYFUL
    r.candidates = [calm, joyful]
    await Selection(Ranking(weighing))(r)
    assert r.chosen == [joyful]
    default = request(places=1)  # off by default: no resonance term
    default.query_affect = JOYFUL
    default.candidates = [calm, joyful]
    await Selection(Ranking(MemoryPolicy()))(default)
    assert default.chosen == [calm]
