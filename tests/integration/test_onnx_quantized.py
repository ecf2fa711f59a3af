"""The int8 build of the pinned model: derived once, cached, checked, and faithful to the source."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from bench.embedding import source_vectors

from memlane.adapters.embedding import quantized
from memlane.adapters.embedding.catalog import (
    MINILM,
    OnnxModel,
    load_minilm_tokenizer,
    packaged_source,
)
from memlane.adapters.embedding.fused import rebuild
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.embedding.quantized import derived_name, prepare_model, quantized_model

MODEL_SHA256 = MINILM.sha256

TEXTS = [
    "I live in Lisbon",
    "My sister Anna moved to Porto in 2023 and works as a nurse near the river.",
    "Remember that Alice is allergic to peanuts",
    "The quarterly report is due on the first Monday of next month",
]


@pytest.fixture
def derivations(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    made: list[Path] = []
    derive = quantized._derive

    def counting(model: OnnxModel, source: Path, target: Path) -> None:
        made.append(target)
        derive(model, source, target)

    monkeypatch.setattr(quantized, "_derive", counting)
    return made


def test_the_model_is_derived_once_and_then_reused(tmp_path: Path, derivations: list[Path]) -> None:
    source = packaged_source(MINILM)
    with quantized_model(MINILM, source, MODEL_SHA256, tmp_path) as first:
        assert first == tmp_path / derived_name(MINILM, MODEL_SHA256) and first.is_file()
    with quantized_model(MINILM, source, MODEL_SHA256, tmp_path) as second:
        assert second == first
    assert len(derivations) == 1
    # Only the model and its checksum are left behind (no staging files).
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [first.name, first.name + ".sha256"]
    )


def test_a_damaged_cached_model_is_derived_again(tmp_path: Path, derivations: list[Path]) -> None:
    source = packaged_source(MINILM)
    with quantized_model(MINILM, source, MODEL_SHA256, tmp_path) as path:
        intact = path.read_bytes()
    with path.open("r+b") as handle:
        handle.seek(len(intact) // 2)
        handle.write(b"\x00" * 64)
    with quantized_model(MINILM, source, MODEL_SHA256, tmp_path) as again:
        assert again.read_bytes() == intact
    assert len(derivations) == 2


def test_an_unwritable_cache_falls_back_to_a_temporary_build(
    tmp_path: Path, derivations: list[Path]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with quantized_model(MINILM, packaged_source(MINILM), MODEL_SHA256, blocker / "cache") as path:
        assert path.is_file() and not path.is_relative_to(tmp_path)
    assert not path.exists()  # the temporary build is gone after loading
    assert len(derivations) == 1


async def test_int8_vectors_agree_with_the_source_model(tmp_path: Path) -> None:
    adapter = OnnxEmbeddingAdapter(cache_dir=tmp_path)
    try:
        derived = np.asarray(await adapter.embed(TEXTS))
    finally:
        await adapter.close()
    cosines = (derived * source_vectors(TEXTS)).sum(axis=1)
    assert cosines.min() > 0.98, cosines
    graph_ops = {n.op_type for n in onnx.load(
        str(tmp_path / derived_name(MINILM, MODEL_SHA256))).graph.node}
    # Truly int8 matmuls (not dequantised fp32 ones), attention fused and int8 too.
    assert {"MatMulInteger", "QAttention"} <= graph_ops


async def test_a_prepared_cache_is_used_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `memlane prepare-model` at image build; the running service must then only read it
    # (a read-only root filesystem): any derivation would fail here.
    prepared = prepare_model(MINILM, tmp_path)

    def no_derivation(model: OnnxModel, source: Path, target: Path) -> None:
        raise AssertionError("derived again although the cache held the model")

    monkeypatch.setattr(quantized, "_derive", no_derivation)
    adapter = OnnxEmbeddingAdapter(cache_dir=tmp_path)
    try:
        (vector,) = await adapter.embed(["I live in Lisbon"])
    finally:
        await adapter.close()
    assert len(vector) == 384 and prepared.is_file()


def test_the_fused_rebuild_computes_what_the_exported_graph_computes(tmp_path: Path) -> None:
    folded, fused = tmp_path / "folded.onnx", tmp_path / "fused.onnx"
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(folded)
    ort.InferenceSession(str(packaged_source(MINILM)), options, providers=["CPUExecutionProvider"])
    rebuild(folded, fused)
    exported, rebuilt = (
        ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        for path in (folded, fused)
    )
    assert len(onnx.load(str(fused)).graph.node) < 80
    tokenizer = load_minilm_tokenizer()
    for text in TEXTS:
        ids = np.asarray([tokenizer.encode(text).ids], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids),
                 "token_type_ids": np.zeros_like(ids)}
        (expected,), (actual,) = exported.run(None, feeds), rebuilt.run(None, feeds)
        assert expected.shape == actual.shape
        assert np.abs(expected - actual).max() < 1e-4
