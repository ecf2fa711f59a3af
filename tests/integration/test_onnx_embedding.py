"""OnnxEmbeddingAdapter against the real int8 all-MiniLM-L6-v2 model (no database needed)."""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from memlane.adapters.embedding.catalog import MINILM, load_minilm_tokenizer, packaged_source
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.domain.errors import EmbeddingUnavailable


def cosine(a: object, b: object) -> float:
    return float(np.dot(np.asarray(a), np.asarray(b)))


async def test_vectors_are_384_dimensional_float32_unit_vectors(
    embedder: OnnxEmbeddingAdapter,
) -> None:
    vectors = await embedder.embed(["I live in Lisbon", "", "2023"])
    assert embedder.model == "all-MiniLM-L6-v2" and embedder.dimension == MINILM.dimension
    assert len(vectors) == 3
    for vector in vectors:
        array = np.asarray(vector)
        assert array.shape == (MINILM.dimension,) and array.dtype == np.float32
        assert abs(float(np.linalg.norm(array)) - 1.0) < 1e-5


async def test_a_paraphrase_ranks_above_unrelated_text(embedder: OnnxEmbeddingAdapter) -> None:
    query, paraphrase, unrelated = await embedder.embed(
        ["I live in Lisbon", "My home is in Lisbon, Portugal", "The cat sat on the mat"]
    )
    assert cosine(query, paraphrase) > 0.6
    assert cosine(query, paraphrase) > cosine(query, unrelated) + 0.3


async def test_a_batch_gives_the_same_vectors_as_single_calls(
    embedder: OnnxEmbeddingAdapter,
) -> None:
    # Texts of very different lengths end up in padded chunks; padding must not leak in.
    texts = [
        "coffee",
        "My sister Anna moved to Porto in 2023 and works as a nurse near the river.",
        "I prefer green tea",
        "word " * 80,
    ]
    batched = await embedder.embed(texts)
    for text, vector in zip(texts, batched, strict=True):
        (single,) = await embedder.embed([text])
        # The int8 model quantises activations per run: the same text must give the same
        # vector whatever it is embedded with.
        assert np.array_equal(np.asarray(single), np.asarray(vector))


async def test_a_large_batch_keeps_the_input_order_on_every_worker_thread() -> None:
    adapter = OnnxEmbeddingAdapter(threads=3)
    try:
        texts = [f"memory number {i} " + "about cats " * (i % 5) for i in range(11)]
        batched = await adapter.embed(texts)
        singles = [(await adapter.embed([t]))[0] for t in texts]
        assert len(batched) == len(texts)
        assert all(
            np.array_equal(np.asarray(a), np.asarray(b))
            for a, b in zip(batched, singles, strict=True)
        )
    finally:
        await adapter.close()


async def test_a_query_is_not_held_up_behind_a_long_batch() -> None:
    adapter = OnnxEmbeddingAdapter(threads=2)
    try:
        await adapter.warm_up()
        backfill = asyncio.create_task(adapter.embed([f"old memory {i}" for i in range(120)]))
        await asyncio.sleep(0)  # the backfill has queued its runs
        (vector,) = await adapter.embed(["where do I live?"], kind="query")
        # The query took the next free thread: most of the backfill is still to run.
        assert not backfill.done()
        assert len(await backfill) == 120 and len(vector) == MINILM.dimension
    finally:
        await adapter.close()


async def test_a_query_on_the_idle_cores_is_the_single_thread_vector_to_rounding() -> None:
    # Dedup at 0.85 and the semantic edges compare query-time and write-time vectors.
    wide, narrow = OnnxEmbeddingAdapter(threads=2), OnnxEmbeddingAdapter(threads=2,
                                                                         query_threads=1)
    runs: list[bool] = []
    infer = wide._infer
    wide._infer = lambda text, on_idle_cores=False: runs.append(on_idle_cores) or infer(  # type: ignore[method-assign]
        text, on_idle_cores)
    try:
        topics = ["garden", "kitchen", "piano lessons", "tax return"] * 8
        questions = [f"What did Anna say about the {w} on day {i}?"
                     for i, w in enumerate(topics)]
        for question in questions:
            ((a,), (b,)) = (await wide.embed([question], kind="query"),
                            await narrow.embed([question], kind="query"))
            assert cosine(a, b) > 0.9999
        assert runs == [True] * len(questions)  # nothing else held the model
    finally:
        await wide.close()
        await narrow.close()


async def test_a_query_takes_one_thread_while_documents_hold_the_model() -> None:
    adapter = OnnxEmbeddingAdapter(threads=2, quiet_ms=60_000)
    runs: list[bool] = []
    infer = adapter._infer
    adapter._infer = lambda text, on_idle_cores=False: runs.append(on_idle_cores) or infer(  # type: ignore[method-assign]
        text, on_idle_cores)
    try:
        await adapter.warm_up()
        assert runs == [True]
        writing = asyncio.create_task(adapter.embed([f"new memory {i}" for i in range(40)]))
        for _ in range(3):  # the write's runs take the slots
            await asyncio.sleep(0)
        assert not adapter._slots.idle
        await adapter.embed(["where do I live?"], kind="query")
        await writing
        # Between two writes the model still counts as busy (quiet_ms has not passed).
        await adapter.embed(["and where does Anna live?"], kind="query")
        assert runs.count(True) == 1 and len(runs) == 1 + 40 + 2
    finally:
        await adapter.close()


async def test_an_empty_list_embeds_to_an_empty_list(embedder: OnnxEmbeddingAdapter) -> None:
    assert await embedder.embed([]) == []


async def test_text_longer_than_the_model_window_is_truncated_without_error(
    embedder: OnnxEmbeddingAdapter,
) -> None:
    long_text = "I remember the long summer in Lisbon. " * 400
    # The model reads the first 255 ids and [SEP], as the library truncates; the count is
    # the whole text's, for whoever splits long text into windows.
    library = load_minilm_tokenizer()
    library.enable_truncation(max_length=256)
    assert MINILM.tokenizer(packaged_source(MINILM)).ids(long_text) == (
        library.encode(long_text).ids
    )
    assert embedder.window_tokens == 256
    assert await embedder.count_tokens([long_text, "I live in Lisbon"]) == [
        2 + 8 * 400, 2 + 4,
    ]
    cut_before = embedder.texts_cut
    (vector,) = await embedder.embed([long_text])
    await embedder.embed(["I live in Lisbon"], kind="query")
    assert embedder.texts_cut == cut_before + 1  # counted, not silent (/metrics shows it)
    (prefix,) = await embedder.embed([" ".join(long_text.split()[:300])])
    assert abs(float(np.linalg.norm(np.asarray(vector))) - 1.0) < 1e-5
    assert cosine(vector, prefix) > 0.999


async def test_concurrent_requests_are_all_answered(embedder: OnnxEmbeddingAdapter) -> None:
    texts = [f"fact {i}" for i in range(8)]
    results = await asyncio.gather(*(embedder.embed([t]) for t in texts))
    assert [len(r) for r in results] == [1] * 8


async def test_a_tampered_model_file_is_refused(tmp_path: Path) -> None:
    tampered = tmp_path / "model.onnx"
    shutil.copyfile(packaged_source(MINILM), tampered)
    with tampered.open("r+b") as handle:
        handle.seek(1_000_000)
        byte = handle.read(1)
        handle.seek(1_000_000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    adapter = OnnxEmbeddingAdapter(model_path=tampered)
    try:
        with pytest.raises(EmbeddingUnavailable, match="sha256"):
            await adapter.embed(["hello"])
        assert await adapter.ready() is False
    finally:
        await adapter.close()


async def test_a_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    adapter = OnnxEmbeddingAdapter(model_path=tmp_path / "nowhere.onnx")
    try:
        with pytest.raises(EmbeddingUnavailable, match="missing"):
            await adapter.embed(["hello"])
    finally:
        await adapter.close()


async def test_the_embedder_reports_ready_when_the_model_answers(
    embedder: OnnxEmbeddingAdapter,
) -> None:
    assert await embedder.ready() is True


async def test_a_missing_model_package_tells_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    missing = dataclasses.replace(MINILM, package="no_such_model_pkg")
    adapter = OnnxEmbeddingAdapter(missing)
    try:
        with pytest.raises(EmbeddingUnavailable, match=r"memlane\[embedded\]"):
            await adapter.embed(["hello"])
    finally:
        await adapter.close()
