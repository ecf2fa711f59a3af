"""BERT encoder layers as onnxruntime's fused operators: the part MiniLM's and e5's graphs share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
from numpy.typing import NDArray
from onnx import TensorProto, helper, numpy_helper

OUTPUT = "last_hidden_state"
# Both models take BERT's three int64 inputs; e5 (BERT over XLM-R's vocabulary) reads
# token_type_ids as all zeros, like MiniLM.
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_OPSETS = (helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1))
_CONTRIB = {"Attention", "BiasGelu", "EmbedLayerNormalization", "GatherBlockQuantized"}


@dataclass(frozen=True, slots=True)
class Norm:
    weight: NDArray[np.float32]
    bias: NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Dense:
    """A linear layer; `weight` is [in, out], as MatMul takes it."""

    weight: NDArray[np.float32]
    bias: NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class LayerWeights:
    """One BERT layer: Q, K, V packed side by side ([hidden, 3 * hidden]), then the rest."""

    qkv: Dense
    attention_output: Dense
    attention_norm: Norm
    intermediate: Dense
    output: Dense
    output_norm: Norm


class GraphBuilder:
    """Nodes and initializers of one graph, added in order."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []

    def weight(self, name: str, array: NDArray[Any]) -> str:
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(self, op: str, inputs: Sequence[str], output: str | Sequence[str],
             **attributes: Any) -> str:
        """Add `op`; returns its (first) output's name."""
        outputs = [output] if isinstance(output, str) else list(output)
        domain = "com.microsoft" if op in _CONTRIB else ""
        self.nodes.append(helper.make_node(op, list(inputs), outputs, domain=domain,
                                           **attributes))
        return outputs[0]

    def model(self, name: str, hidden: int, ir_version: int) -> onnx.ModelProto:
        """The graph over BERT's inputs, giving the last hidden state."""
        model = helper.make_model(
            helper.make_graph(
                self.nodes, name,
                [helper.make_tensor_value_info(n, TensorProto.INT64, ["batch", "sequence"])
                 for n in INPUTS],
                [helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT,
                                               ["batch", "sequence", hidden])],
                self.initializers,
            ),
            opset_imports=list(_OPSETS),
        )
        model.ir_version = ir_version
        return model


def encoder_layer(
    graph: GraphBuilder, weights: LayerWeights, index: int, hidden: str, mask_index: str,
    heads: int, epsilon: float, output: str | None,
) -> str:
    """One encoder layer on `hidden`: Attention (the three projections in one matrix), two
    MatMul + Add + residual + LayerNormalization, and BiasGelu; returns its output's name.
    The quantiser turns Attention into QAttention and each MatMul into int8."""
    name = f"layer_{index}_"
    context = graph.node(
        "Attention",
        [hidden, graph.weight(name + "qkv_weight", weights.qkv.weight),
         graph.weight(name + "qkv_bias", weights.qkv.bias), mask_index],
        name + "context", num_heads=heads)
    attended = dense_residual_norm(
        graph, weights.attention_output, weights.attention_norm, context, hidden,
        name + "attended", epsilon)
    intermediate = graph.node(
        "MatMul",
        [attended, graph.weight(name + "intermediate_weight", weights.intermediate.weight)],
        name + "intermediate")
    activated = graph.node(
        "BiasGelu",
        [intermediate, graph.weight(name + "intermediate_bias", weights.intermediate.bias)],
        name + "activated")
    return dense_residual_norm(
        graph, weights.output, weights.output_norm, activated, attended,
        output or name + "output", epsilon)


def dense_residual_norm(
    graph: GraphBuilder, dense: Dense, norm: Norm, value: str, residual: str, output: str,
    epsilon: float,
) -> str:
    """LayerNorm(value @ W + b + residual)."""
    projected = graph.node(
        "MatMul", [value, graph.weight(output + "_weight", dense.weight)], output + "_projected")
    biased = graph.node("Add", [projected, graph.weight(output + "_bias", dense.bias)],
                        output + "_biased")
    summed = graph.node("Add", [biased, residual], output + "_summed")
    return graph.node(
        "LayerNormalization",
        [summed, graph.weight(output + "_norm_weight", norm.weight),
         graph.weight(output + "_norm_bias", norm.bias)],
        output, epsilon=epsilon, axis=-1)
