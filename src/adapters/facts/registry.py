"""The fact extractors by provider: the composition root opens the configured one.

A new extractor is one member of `FactExtractorProvider` (ports/facts/extraction.py, which
settings validate against), one adapter module and one line in FACT_EXTRACTORS.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.facts.ollama import OllamaFactExtractor
from memlane.domain.errors import ConfigurationError
from memlane.ports.facts import FactExtractionPort, FactExtractorProvider, FallbackListener


class ExtractorConfig(Protocol):
    """What an extractor factory reads (the `[facts]` settings section)."""

    @property
    def model(self) -> str: ...
    @property
    def ollama_url(self) -> str: ...
    @property
    def timeout_ms(self) -> int: ...


# `on_fallback` hears each time an optional extractor falls back to the heuristics.
ExtractorFactory = Callable[[ExtractorConfig, FallbackListener | None], FactExtractionPort]


def _heuristic(config: ExtractorConfig, on_fallback: FallbackListener | None) -> FactExtractionPort:
    return HeuristicFactExtractor()


def _ollama(config: ExtractorConfig, on_fallback: FallbackListener | None) -> FactExtractionPort:
    return OllamaFactExtractor(config.model, config.ollama_url, config.timeout_ms, on_fallback)


FACT_EXTRACTORS: dict[FactExtractorProvider, ExtractorFactory] = {
    FactExtractorProvider.HEURISTIC: _heuristic,
    FactExtractorProvider.OLLAMA: _ollama,
}


def open_fact_extractor(
    provider: FactExtractorProvider,
    config: ExtractorConfig,
    on_fallback: FallbackListener | None = None,
) -> FactExtractionPort:
    """The configured extractor (ConfigurationError naming the known ones)."""
    factory = FACT_EXTRACTORS.get(provider)
    if factory is None:
        known = ", ".join(FACT_EXTRACTORS)
        raise ConfigurationError(f"unknown fact extractor {provider!r}; use one of {known}")
    return factory(config, on_fallback)
