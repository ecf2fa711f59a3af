"""The pinned MiniLM rebuilt from its weights with onnxruntime's fused transformer operators."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from numpy.typing import NDArray
from onnx import TensorProto, numpy_helper

from memlane.adapters.embedding.encoder_graph import (
    INPUTS,
    OUTPUT,
    Dense,
    GraphBuilder,
    LayerWeights,
    Norm,
    encoder_layer,
)

# all-MiniLM-L6-v2: BERT with 6 layers of 12 heads over 384 dimensions.
LAYERS = 6
HEADS = 12
HIDDEN = 384
LAYER_NORM_EPSILON = 1e-12


class _Weights:
    """Initializers of the exported graph, found by the parameter names it keeps."""

    def __init__(self, graph: onnx.GraphProto) -> None:
        self._arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
        self._nodes = list(graph.node)
        self._producer = {out: node for node in graph.node for out in node.output}

    def named(self, name: str) -> NDArray[np.float32]:
        return self._arrays[name]

    def projection(self, bias: str) -> NDArray[np.float32]:
        """The [in, out] weight of the linear layer whose bias is `bias`: the exporter
        names the bias but gives the (pre-transposed) weight a generated name."""
        add = next(n for n in self._nodes if n.op_type == "Add" and bias in n.input)
        (product,) = (name for name in add.input if name != bias)
        matmul = self._producer[product]
        if matmul.op_type != "MatMul":
            raise ValueError(f"expected the MatMul of {bias}, found {matmul.op_type}")
        return self._arrays[matmul.input[1]]

    def dense(self, name: str) -> Dense:
        return Dense(self.projection(name + ".bias"), self.named(name + ".bias"))

    def norm(self, name: str) -> Norm:
        return Norm(self.named(name + ".weight"), self.named(name + ".bias"))


def build_minilm_graph(source: Path, target: Path) -> None:
    """The packaged file (int8 weights dequantised in the graph: Cast -> Mul) folded to fp32
    weights by onnxruntime, then rebuilt with fused operators into `target`."""
    folded = target.with_name(target.name + ".folded")
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(folded)
    try:
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        rebuild(folded, target)
    finally:
        folded.unlink(missing_ok=True)


def rebuild(exported: Path, target: Path) -> None:
    """Write to `target` the same network as `exported` (an fp32 graph from the torch
    exporter, dequantisation folded), in ~70 fused nodes instead of ~315.

    The exporter's attention (reshapes, transposes, a mask built from ranges, softmax with
    NaN guards) and GELU (Div, Erf, Add, Mul, Mul) match none of onnxruntime's fusion
    patterns, so each layer ran ~50 small kernels. Here a layer is Attention (the three
    projections packed into one matrix), two MatMul+Add+residual+LayerNormalization and
    BiasGelu; the quantiser then turns Attention into QAttention and MatMul into int8.
    Same outputs as `exported` to float rounding (tests/integration/test_onnx_quantized.py).
    """
    source = onnx.load(str(exported))
    weights = _Weights(source.graph)
    graph = GraphBuilder()
    embeddings = "inner.embeddings."
    # The fused operators take int32 ids and mask; the model keeps BERT's int64 inputs.
    ids, mask, types = (
        graph.node("Cast", [name], f"{name}_int32", to=TensorProto.INT32) for name in INPUTS
    )
    graph.node(
        "EmbedLayerNormalization",
        [ids, types,
         graph.weight("word_embeddings", weights.named(embeddings + "word_embeddings.weight")),
         graph.weight("position_embeddings",
                      weights.named(embeddings + "position_embeddings.weight")),
         graph.weight("token_type_embeddings",
                      weights.named(embeddings + "token_type_embeddings.weight")),
         graph.weight("embeddings_gamma", weights.named(embeddings + "LayerNorm.weight")),
         graph.weight("embeddings_beta", weights.named(embeddings + "LayerNorm.bias")),
         mask],
        ["hidden_0", "mask_index"], epsilon=LAYER_NORM_EPSILON,
    )
    hidden = "hidden_0"
    for layer in range(LAYERS):
        hidden = encoder_layer(
            graph, _layer_weights(weights, layer), layer, hidden, "mask_index", HEADS,
            LAYER_NORM_EPSILON, OUTPUT if layer == LAYERS - 1 else None,
        )
    onnx.save(graph.model("all-MiniLM-L6-v2", HIDDEN, source.ir_version), str(target))


def _layer_weights(weights: _Weights, index: int) -> LayerWeights:
    """Layer `index` of the exported graph, by the parameter names the exporter kept."""
    prefix = f"inner.encoder.layer.{index}."
    attention = prefix + "attention."
    heads = [f"{attention}self.{head}.bias" for head in ("query", "key", "value")]
    return LayerWeights(
        qkv=Dense(np.concatenate([weights.projection(bias) for bias in heads], axis=1),
                  np.concatenate([weights.named(bias) for bias in heads])),
        attention_output=weights.dense(attention + "output.dense"),
        attention_norm=weights.norm(attention + "output.LayerNorm"),
        intermediate=weights.dense(prefix + "intermediate.dense"),
        output=weights.dense(prefix + "output.dense"),
        output_norm=weights.norm(prefix + "output.LayerNorm"),
    )
