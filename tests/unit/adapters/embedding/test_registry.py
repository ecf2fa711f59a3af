"""The embedding backends' registry: one factory for every provider settings accept."""

from __future__ import annotations

from memlane.adapters.embedding.registry import EMBEDDING_BACKENDS, prepare_embedding_model
from memlane.ports.embedding import EmbeddingProvider


def test_the_registry_covers_every_provider() -> None:
    assert set(EMBEDDING_BACKENDS) == set(EmbeddingProvider)


def test_only_the_onnx_backend_has_a_model_to_prepare() -> None:
    assert prepare_embedding_model(EmbeddingProvider.OLLAMA, None) is None
