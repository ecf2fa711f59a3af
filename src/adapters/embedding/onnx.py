"""OnnxEmbeddingAdapter: a catalog model (int8 MatMuls) on onnxruntime, off the event loop."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import cast

import numpy as np
import onnx
import onnxruntime as ort
from numpy.typing import NDArray
from onnx import helper

from memlane.adapters.embedding.catalog import MINILM, OnnxModel, packaged_source
from memlane.adapters.embedding.quantized import checked_source, quantized_model
from memlane.adapters.embedding.slots import DOCUMENT, QUERY, PrioritySlots
from memlane.adapters.embedding.spaces import same_space
from memlane.adapters.embedding.tokens import WindowTokenizer
from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind

# A query runs on this many intra-op threads when nothing else holds the model.
QUERY_THREADS = 2
# How long after a document run the model counts as busy (a write between two runs).
QUIET_MS = 100.0
# Initializers at least this large are shared between the two sessions.
SHARED_WEIGHT_BYTES = 1 << 20


class OnnxEmbeddingAdapter(EmbeddingPort):
    """Embeds each text in its own model run, on a few worker threads of one session.

    One text per run, on one intra-op thread each, with one run per core in parallel:
    - a text's vector never depends on what else is embedded with it: the int8 model
      quantises activations per run, so a padded batch gave each row a slightly different
      vector (cosine 0.988 to its single run) and a query's vector would have depended on
      the traffic around it;
    - no padding is computed, and no thread wakes up for a short query: on two cores
      (bench/embedding.py) ~425 memories/s of ~61 tokens and a short query in ~2 ms
      (on the previous build of the model, padded length-sorted batches on two intra-op
      threads were ~15 % slower for memories and ~35 % for queries);
    - queries take the next free thread before the runs a large write queued;
    - a query arriving while nothing else holds the model (no run, nobody waiting, no
      document run for `quiet_ms`: no write, backfill or import under way) runs on a second
      session with `query_threads` intra-op threads instead (spinning off, so an idle
      thread sleeps): the idle core halves its latency. Its vectors are those of the
      single-thread session to within float rounding (cosine > 0.9999); the largest weights
      (the word embeddings) are shared by both sessions.
    The sessions are created on first use or by warm_up().
    """

    def __init__(
        self,
        model: OnnxModel = MINILM,
        *,
        model_path: Path | None = None,
        expected_sha256: str | None = None,
        threads: int | None = None,
        cache_dir: Path | None = None,
        query_threads: int | None = None,
        quiet_ms: float = QUIET_MS,
    ) -> None:
        self._spec = model
        # Another copy of the source file, checked against `expected_sha256` (the pinned
        # one when None): for tests of a tampered or missing file.
        self._model_path = model_path
        self._expected_sha256 = expected_sha256
        # One run per core; beyond four the database and the web workers need the rest.
        self._threads = threads or min(os.cpu_count() or 1, 4)
        # Intra-op threads of a query run while the model is otherwise idle (1: never wider).
        self._query_threads = min(self._threads, QUERY_THREADS if query_threads is None
                                  else query_threads)
        self._quiet_s = quiet_ms / 1000
        self._last_document = -float("inf")
        # Where the int8 build of the model is kept (quantized.py); None: the user cache.
        self._cache_dir = cache_dir
        self._prefixes = {"query": model.query_prefix, "document": model.document_prefix}
        self._session: ort.InferenceSession | None = None
        self._wide: ort.InferenceSession | None = None
        self._shared: dict[str, ort.OrtValue] = {}
        self._tokenizer: WindowTokenizer | None = None
        self._load_lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._executor_lock = threading.Lock()
        self._slots = PrioritySlots(self._threads)

    @property
    def model(self) -> str:
        return self._spec.name

    @property
    def dimension(self) -> int:
        return self._spec.dimension

    @property
    def same_space_models(self) -> frozenset[str]:
        return same_space(self.model)

    @property
    def window_tokens(self) -> int:
        return self._spec.window_tokens

    @property
    def texts_cut(self) -> int:
        return 0 if self._tokenizer is None else self._tokenizer.texts_cut

    async def count_tokens(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[int]:
        prefix = self._prefixes[kind]
        return await asyncio.get_running_loop().run_in_executor(
            self._worker(), lambda: [self._load()[1].count(prefix + text) for text in texts]
        )

    async def warm_up(self) -> None:
        """Load the model and run it once, so the first real request is not the slow one."""
        await self.embed(["warm up"], kind="query")

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        if not texts:
            return []
        priority = QUERY if kind == "query" else DOCUMENT
        prefix = self._prefixes[kind]
        if priority == QUERY and len(texts) == 1:
            return cast(list[Vector], [await self._embed_query(prefix + texts[0])])
        vectors = await asyncio.gather(
            *(self._embed_one(prefix + text, priority) for text in texts)
        )
        # 1-D float32 arrays: Sequence[float]-compatible and taken as-is by the pgvector codec.
        return cast(list[Vector], vectors)

    async def close(self) -> None:
        with self._executor_lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.get_running_loop().run_in_executor(None, executor.shutdown)
        self._session = self._wide = None
        self._shared = {}

    async def _embed_query(self, text: str) -> NDArray[np.float32]:
        """On the wide session when the model is idle and no document ran lately, else as
        any text."""
        quiet = time.monotonic() - self._last_document >= self._quiet_s
        async with self._slots.idle_slots(self._query_threads if quiet else 0) as wide:
            if wide:
                return await asyncio.get_running_loop().run_in_executor(
                    self._worker(), self._infer, text, True
                )
        return await self._embed_one(text, QUERY)

    async def _embed_one(self, text: str, priority: int) -> NDArray[np.float32]:
        async with self._slots.slot(priority):
            try:
                return await asyncio.get_running_loop().run_in_executor(
                    self._worker(), self._infer, text
                )
            finally:
                if priority == DOCUMENT:
                    self._last_document = time.monotonic()

    def _worker(self) -> ThreadPoolExecutor:
        with self._executor_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    self._threads, thread_name_prefix="memlane-onnx"
                )
            return self._executor

    def _infer(self, text: str, on_idle_cores: bool = False) -> NDArray[np.float32]:
        """Mean of the token states, L2-normalised (one text: no padding, no mask)."""
        session, tokenizer = self._load()
        if on_idle_cores and self._wide is not None:
            session = self._wide
        input_ids = np.asarray([tokenizer.ids(text)], dtype=np.int64)
        try:
            (hidden,) = session.run(
                None,
                {
                    "input_ids": input_ids,
                    "attention_mask": np.ones_like(input_ids),
                    "token_type_ids": np.zeros_like(input_ids),
                },
            )
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise EmbeddingUnavailable(f"ONNX inference failed: {type(exc).__name__}") from exc
        mean = np.asarray(hidden, dtype=np.float32)[0].mean(axis=0)
        norm = max(float(np.linalg.norm(mean)), 1e-12)
        return np.ascontiguousarray(mean / norm, dtype=np.float32)

    def _load(self) -> tuple[ort.InferenceSession, WindowTokenizer]:
        if self._session is not None and self._tokenizer is not None:
            return self._session, self._tokenizer
        # Worker threads may arrive together on first use: one loads, the others wait.
        with self._load_lock:
            if self._session is None or self._tokenizer is None:
                self._session, self._wide, self._tokenizer = self._open()
            return self._session, self._tokenizer

    def _open(
        self,
    ) -> tuple[ort.InferenceSession, ort.InferenceSession | None, WindowTokenizer]:
        path = self._model_path or packaged_source(self._spec)
        actual = checked_source(self._spec, path, self._expected_sha256)
        try:
            with quantized_model(self._spec, path, actual, self._cache_dir) as derived:
                # The sessions read these buffers: they live as long as the adapter.
                self._shared = shared_weights(derived) if self._query_threads > 1 else {}
                # Parallel across texts, not inside one: each run gets one thread.
                session = _session(derived, 1, self._shared)
                wide = (None if self._query_threads < 2
                        else _session(derived, self._query_threads, self._shared))
            return session, wide, self._spec.tokenizer(path)
        except Exception as exc:
            raise EmbeddingUnavailable(
                f"cannot load the ONNX embedding model {self._spec.name}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc


def shared_weights(model: Path) -> dict[str, ort.OrtValue]:
    """The model's largest initializers (the word embeddings: ~45 MB) as values both sessions
    read, instead of a copy each."""
    proto = onnx.load(str(model))
    return {
        tensor.name: ort.OrtValue.ortvalue_from_numpy(_array(tensor))
        for tensor in proto.graph.initializer
        if len(tensor.raw_data) >= SHARED_WEIGHT_BYTES
    }


def _array(tensor: onnx.TensorProto) -> NDArray[np.generic]:
    """The tensor's stored bytes as a writable array of its own (onnxruntime may write to
    an initializer's buffer: a read-only view of the protobuf's bytes crashed it)."""
    dtype = helper.tensor_dtype_to_np_dtype(tensor.data_type)
    return np.frombuffer(tensor.raw_data, dtype=dtype).reshape(tuple(tensor.dims)).copy()


def _session(
    model: Path, threads: int, shared: dict[str, ort.OrtValue]
) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # An idle intra-op thread sleeps instead of spinning: on a small host a spinning thread
    # takes the core a database backend or another run needs.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # Memory patterns pre-plan one buffer set per input shape and keep it; with shapes
    # varying by text length they held ~200 MB more for no measurable speed.
    options.enable_mem_pattern = False
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    for name, value in shared.items():
        options.add_initializer(name, value)
    return ort.InferenceSession(
        str(model), options, providers=["CPUExecutionProvider"],
        # onnxruntime's CPU SkipLayerNormalization took ~7x as long as the Add +
        # LayerNormalization it replaces at this width (384): ~25 % of a run (onnxruntime
        # 1.31).
        disabled_optimizers=["SkipLayerNormFusion"],
    )
