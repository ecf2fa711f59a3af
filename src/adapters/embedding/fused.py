"""The pinned MiniLM rebuilt from its weights with onnxruntime's fused transformer operators."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import TensorProto, helper, numpy_helper

# all-MiniLM-L6-v2: BERT with 6 layers of 12 heads over 384 dimensions.
LAYERS = 6
HEADS = 12
HIDDEN = 384
LAYER_NORM_EPSILON = 1e-12
OUTPUT = "last_hidden_state"
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_OPSETS = (helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1))


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


class _Graph:
    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []

    def weight(self, name: str, array: NDArray[np.float32]) -> str:
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(self, op: str, inputs: Sequence[str], output: str, **attributes: Any) -> str:
        domain = "com.microsoft" if op in {"Attention", "BiasGelu"} else ""
        self.nodes.append(helper.make_node(op, list(inputs), [output], domain=domain, **attributes))
        return output


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
    graph = _Graph()
    embeddings = "inner.embeddings."
    # The fused operators take int32 ids and mask; the model keeps BERT's int64 inputs.
    ids, mask, types = (
        graph.node("Cast", [name], f"{name}_int32", to=TensorProto.INT32) for name in INPUTS
    )
    graph.nodes.append(helper.make_node(
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
        ["hidden_0", "mask_index"], domain="com.microsoft", epsilon=LAYER_NORM_EPSILON,
    ))
    hidden = "hidden_0"
    for layer in range(LAYERS):
        hidden = _layer(graph, weights, layer, hidden, OUTPUT if layer == LAYERS - 1 else None)
    model = helper.make_model(
        helper.make_graph(
            graph.nodes, "all-MiniLM-L6-v2",
            [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"])
             for n in INPUTS],
            [helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT,
                                           ["batch", "sequence", HIDDEN])],
            graph.initializers,
        ),
        opset_imports=list(_OPSETS),
    )
    model.ir_version = source.ir_version
    onnx.save(model, str(target))


def _layer(graph: _Graph, weights: _Weights, index: int, hidden: str, output: str | None) -> str:
    """One encoder layer on `hidden`; returns the name of its output."""
    prefix = f"inner.encoder.layer.{index}."
    attention = prefix + "attention."
    name = f"layer_{index}_"
    heads = ("query", "key", "value")
    packed = graph.weight(name + "qkv_weight", np.concatenate(
        [weights.projection(f"{attention}self.{head}.bias") for head in heads], axis=1))
    packed_bias = graph.weight(name + "qkv_bias", np.concatenate(
        [weights.named(f"{attention}self.{head}.bias") for head in heads]))
    context = graph.node("Attention", [hidden, packed, packed_bias, "mask_index"],
                         name + "context", num_heads=HEADS)
    attended = _dense_residual_norm(
        graph, weights, context, hidden, attention + "output.dense",
        attention + "output.LayerNorm", name + "attended")
    intermediate = graph.node(
        "MatMul",
        [attended, graph.weight(name + "intermediate_weight",
                                weights.projection(prefix + "intermediate.dense.bias"))],
        name + "intermediate")
    activated = graph.node(
        "BiasGelu",
        [intermediate, graph.weight(name + "intermediate_bias",
                                    weights.named(prefix + "intermediate.dense.bias"))],
        name + "activated")
    return _dense_residual_norm(
        graph, weights, activated, attended, prefix + "output.dense",
        prefix + "output.LayerNorm", output or name + "output")


def _dense_residual_norm(
    graph: _Graph, weights: _Weights, value: str, residual: str, dense: str, norm: str,
    output: str,
) -> str:
    """LayerNorm(value @ W + b + residual)."""
    projected = graph.node(
        "MatMul", [value, graph.weight(dense + ".weight", weights.projection(dense + ".bias"))],
        output + "_projected")
    biased = graph.node("Add", [projected, graph.weight(dense + ".bias",
                                                        weights.named(dense + ".bias"))],
                        output + "_biased")
    summed = graph.node("Add", [biased, residual], output + "_summed")
    return graph.node(
        "LayerNormalization",
        [summed, graph.weight(norm + ".weight", weights.named(norm + ".weight")),
         graph.weight(norm + ".bias", weights.named(norm + ".bias"))],
        output, epsilon=LAYER_NORM_EPSILON, axis=-1)
