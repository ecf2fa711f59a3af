"""The embedding model an opening serves: the configured one, or the stored vectors' own when
the installation never chose one (an upgrade that changed the default model)."""

from __future__ import annotations

import logging

from memlane.adapters.embedding.registry import onnx_model_names
from memlane.ports.embedding import EmbeddingProvider
from memlane.ports.installation import InstallationPort
from memlane.settings import Settings

log = logging.getLogger(__name__)


async def served_settings(settings: Settings, installation: InstallationPort) -> Settings:
    """`settings`, with the model its stored vectors come from when `memory.embedding.model`
    was left at its default and every vector comes from one other shipped model.

    Without this, an installation embedded with the earlier default would be refused at
    start after an upgrade (two models' vectors cannot be compared) though its owner never
    chose a model; it keeps serving its own until `memlane reembed` moves it over. A model
    set in the config or environment is always served as set (and checked as before).
    """
    embedding = settings.memory.embedding
    if embedding.model_chosen() or embedding.provider is not EmbeddingProvider.ONNX:
        return settings
    stored = await installation.embedding_models()
    if len(stored) != 1 or stored[0] == embedding.model or stored[0] not in onnx_model_names():
        return settings
    log.warning(
        "serving embedding model %r, which this installation's memories were embedded with; "
        "the default for new installations is %r. Run `memlane reembed` to move over, or set "
        "memory.embedding.model to keep %r", stored[0], embedding.model, stored[0])
    served = embedding.model_copy(update={"model": stored[0]})
    memory = settings.memory.model_copy(update={"embedding": served})
    return settings.model_copy(update={"memory": memory})
