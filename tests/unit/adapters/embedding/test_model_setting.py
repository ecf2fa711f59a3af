"""memory.embedding.model chooses the onnx provider's model; any other name is a clear error."""

from __future__ import annotations

import pytest

from memlane.adapters.embedding.registry import onnx_model_names, open_embedder
from memlane.domain.errors import ConfigurationError
from memlane.settings import EmbeddingSettings


async def test_the_default_is_e5_and_minilm_is_one_setting_away() -> None:
    assert EmbeddingSettings().model == "multilingual-e5-small"
    assert not EmbeddingSettings().model_chosen()
    assert EmbeddingSettings(model="all-MiniLM-L6-v2").model_chosen()
    assert onnx_model_names() == ("all-MiniLM-L6-v2", "multilingual-e5-small")
    for name, window in (("all-MiniLM-L6-v2", 256), ("multilingual-e5-small", 512)):
        # load_model=False: nothing is read or derived until the first embedding.
        embedder = await open_embedder("onnx", EmbeddingSettings(model=name), False)
        try:
            assert (embedder.model, embedder.dimension, embedder.window_tokens) == (
                name, 384, window)
        finally:
            await embedder.close()


@pytest.mark.parametrize(("model", "dimension"), [("bge-m3", 1024), ("multilingual-e5-small", 768)])
async def test_a_model_the_onnx_provider_does_not_ship_names_the_ones_it_does(
    model: str, dimension: int
) -> None:
    with pytest.raises(ConfigurationError) as refused:
        await open_embedder("onnx", EmbeddingSettings(model=model, dimension=dimension), False)
    assert "'all-MiniLM-L6-v2' (384-d)" in str(refused.value)
    assert "'multilingual-e5-small' (384-d)" in str(refused.value)


async def test_query_threads_reach_the_onnx_adapter_and_are_at_least_one() -> None:
    assert EmbeddingSettings().query_threads == 2
    embedder = await open_embedder("onnx", EmbeddingSettings(query_threads=1), False)
    try:
        assert embedder._query_threads == 1  # type: ignore[attr-defined]
    finally:
        await embedder.close()
    with pytest.raises(ValueError, match="query_threads"):
        EmbeddingSettings(query_threads=0)
