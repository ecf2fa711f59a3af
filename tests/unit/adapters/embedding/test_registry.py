"""The embedding backends' registry: one factory for every provider settings accept."""

from __future__ import annotations

import pytest

from memlane.adapters.embedding.registry import EMBEDDING_BACKENDS, prepare_embedding_model
from memlane.domain.errors import ConfigurationError
from memlane.ports.embedding import EmbeddingProvider


def test_the_registry_covers_every_provider() -> None:
    assert set(EMBEDDING_BACKENDS) == set(EmbeddingProvider)


def test_only_a_model_the_onnx_backend_ships_can_be_prepared() -> None:
    with pytest.raises(ConfigurationError, match="multilingual-e5-small"):
        prepare_embedding_model("nomic-embed-text", None)
