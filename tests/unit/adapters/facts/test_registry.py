"""The fact extractors' registry: one factory for every provider settings accept."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.facts.ollama import OllamaFactExtractor
from memlane.adapters.facts.registry import FACT_EXTRACTORS, open_fact_extractor
from memlane.ports.facts import FactExtractorProvider

CONFIG = SimpleNamespace(model="llama3.2", ollama_url="http://127.0.0.1:9", timeout_ms=10)


def test_the_registry_covers_every_provider() -> None:
    assert set(FACT_EXTRACTORS) == set(FactExtractorProvider)


@pytest.mark.parametrize(("provider", "kind"), [
    (FactExtractorProvider.HEURISTIC, HeuristicFactExtractor),
    (FactExtractorProvider.OLLAMA, OllamaFactExtractor),
])
async def test_each_provider_opens_its_extractor(
    provider: FactExtractorProvider, kind: type
) -> None:
    extractor = open_fact_extractor(provider, CONFIG)
    try:
        assert isinstance(extractor, kind)
    finally:
        await extractor.close()
