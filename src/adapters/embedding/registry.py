"""The embedding backends by provider: the composition root opens the configured one.

A new backend is one member of `EmbeddingProvider` (ports/embedding.py, which settings
validate against), one adapter module and one line in EMBEDDING_BACKENDS.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.embedding.ollama import OllamaEmbeddingAdapter
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.embedding.quantized import prepare_model
from memlane.domain.errors import ConfigurationError
from memlane.ports.embedding import EmbeddingPort, EmbeddingProvider


class EmbeddingConfig(Protocol):
    """What a backend factory reads (the `[memory.embedding]` settings section)."""

    @property
    def model(self) -> str: ...
    @property
    def dimension(self) -> int: ...
    @property
    def timeout_ms(self) -> int: ...
    @property
    def ollama_url(self) -> str: ...
    @property
    def max_retries(self) -> int: ...
    @property
    def batch_size(self) -> int: ...
    @property
    def model_cache_dir(self) -> Path | None: ...
    @property
    def query_threads(self) -> int: ...


# `load_model`: warm the model now (False for commands that never embed: decay, cleanup).
BackendFactory = Callable[[EmbeddingConfig, bool], Awaitable[EmbeddingPort]]


async def _onnx(config: EmbeddingConfig, load_model: bool) -> EmbeddingPort:
    model = ONNX_MODELS.get(config.model)
    if model is None or model.dimension != config.dimension:
        shipped = ", ".join(f"{name!r} ({m.dimension}-d)" for name, m in ONNX_MODELS.items())
        raise ConfigurationError(
            f"the onnx provider ships {shipped}, not {config.model!r} "
            f"({config.dimension}-d): set memory.embedding.model (and dimension) to one of "
            "them, or use provider = 'ollama'"
        )
    adapter = OnnxEmbeddingAdapter(
        model, cache_dir=config.model_cache_dir, query_threads=config.query_threads
    )
    if load_model:
        await adapter.warm_up()
    return adapter


async def _ollama(config: EmbeddingConfig, load_model: bool) -> EmbeddingPort:
    return OllamaEmbeddingAdapter(
        model=config.model,
        dimension=config.dimension,
        url=config.ollama_url,
        timeout_ms=config.timeout_ms,
        max_retries=config.max_retries,
        batch_size=config.batch_size,
    )


EMBEDDING_BACKENDS: dict[EmbeddingProvider, BackendFactory] = {
    EmbeddingProvider.ONNX: _onnx,
    EmbeddingProvider.OLLAMA: _ollama,
}


async def open_embedder(
    provider: EmbeddingProvider, config: EmbeddingConfig, load_model: bool
) -> EmbeddingPort:
    """The configured backend's adapter (ConfigurationError naming the known ones)."""
    factory = EMBEDDING_BACKENDS.get(provider)
    if factory is None:
        known = ", ".join(EMBEDDING_BACKENDS)
        raise ConfigurationError(f"unknown embedding provider {provider!r}; use one of {known}")
    return await factory(config, load_model)


def onnx_model_names() -> tuple[str, ...]:
    """The models the onnx provider ships (`memory.embedding.model`)."""
    return tuple(ONNX_MODELS)


def prepare_embedding_model(model: str, cache_dir: Path | None) -> Path:
    """Derive the onnx provider's int8 build of `model` into its cache now."""
    if model not in ONNX_MODELS:
        raise ConfigurationError(
            f"the onnx provider has no model {model!r}; use one of {', '.join(ONNX_MODELS)}"
        )
    try:
        return prepare_model(ONNX_MODELS[model], cache_dir)
    except OSError as exc:
        raise ConfigurationError(
            f"cannot write the model cache ({exc}); set memory.embedding.model_cache_dir "
            "to a writable directory"
        ) from exc
