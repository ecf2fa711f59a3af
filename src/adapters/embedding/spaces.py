"""Model names that denote one vector space: the same model served by another provider."""

from __future__ import annotations

# Ollama's all-minilm (its default tag and 22m) is all-MiniLM-L6-v2 converted to GGUF: its
# vectors and the onnx provider's compare as one space (cosine ~0.99 between the two
# builds' vectors of a text). Ollama's all-minilm:33m is all-MiniLM-L12-v2, another space.
# Vectors stored under any name of a group may be searched with a model of any other.
SHARED_SPACES: tuple[frozenset[str], ...] = (
    frozenset({
        "all-MiniLM-L6-v2", "all-minilm", "all-minilm:latest", "all-minilm:22m",
        "all-minilm:l6-v2",
    }),
)


def same_space(model: str) -> frozenset[str]:
    """Every name whose stored vectors share `model`'s space, `model` included."""
    for group in SHARED_SPACES:
        if model in group:
            return group
    return frozenset({model})
