"""The probe registry: every provider has a factory; the heuristics open no model."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from memlane.adapters.facts.ollama_probe import OllamaProbe
from memlane.adapters.facts.registry import PROBES, open_probe
from memlane.domain.errors import ConfigurationError
from memlane.ports.facts import ExtractionProvider


@dataclass(frozen=True)
class Config:
    model: str = "llama3.2"
    url: str = "http://127.0.0.1:11434"
    timeout_ms: int = 500


def test_every_provider_has_a_factory() -> None:
    assert set(PROBES) == set(ExtractionProvider)


async def test_the_heuristics_open_no_model_and_ollama_opens_its_probe() -> None:
    assert open_probe(ExtractionProvider.HEURISTIC, Config()) is None
    probe = open_probe(ExtractionProvider.OLLAMA, Config())
    assert isinstance(probe, OllamaProbe)
    await probe.close()


def test_an_unknown_provider_names_the_known_ones() -> None:
    with pytest.raises(ConfigurationError, match="heuristic, ollama"):
        open_probe("gpt", Config())  # type: ignore[arg-type]
