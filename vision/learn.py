"""The reader's network for training (JAX, the ``train`` extra; never imported by the table): a small convolutional
embedder, a cosine classifier over (kind, way up), Adam, and the export of the embedder to ONNX for ``cv2.dnn``.

Four 3x3 convolutions (``LAYERS``: 16, 32, 64 and 64 channels, a 2x2 max-pool after the first three) and one
dense layer to an ``EMBED``-wide embedding: about 4.4 M multiply-adds for a 32 x 40 crop, so that the 20 tiles of
a frame take ~7 ms on one core here (six convolutions of 16-16-32-32-64-64 channels, 12.5 M, took ~14 ms). The
classifier is the cosine of the unit embedding to one unit weight row per kind and way up, times a learned scale:
those rows are the default model's templates, so enrolment (adding the embeddings of a set's own faces as
templates) and the default model are read by the same nearest-template rule.
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from vision.features import CROP_H, CROP_W

LAYERS = ((16, True), (32, True), (64, True), (64, False))
"""(channels, a 2x2 max-pool after it) of each 3x3 convolution."""
POOLS = sum(pool for _, pool in LAYERS)
EMBED = 128
KINDS = 42
CLASSES = 2 * KINDS + 1
"""42 kinds, each upright (row ``2 * kind``) and turned (``2 * kind + 1``), and "no tile" (the last row): the
classifier also says which way up a face lies, and what is not a face has a row of its own."""
NOTHING_ROW = 2 * KINDS
MARGIN = 0.2
"""Additive cosine margin (CosFace): the right row must beat the others by this much, so that classes stay apart
on sets never seen."""

Params = dict[str, jnp.ndarray]


def init(seed: int) -> Params:
    """He-initialised weights."""
    key = jax.random.PRNGKey(seed)
    params: Params = {}
    channels = 3
    for index, (width, _) in enumerate(LAYERS):
        key, sub = jax.random.split(key)
        fan_in = 9 * channels
        params[f"c{index}"] = jax.random.normal(sub, (3, 3, channels, width)) * np.sqrt(2 / fan_in)
        params[f"b{index}"] = jnp.zeros(width)
        channels = width
    flat = channels * (CROP_H >> POOLS) * (CROP_W >> POOLS)
    key, sub, head = jax.random.split(key, 3)
    params["dense"] = jax.random.normal(sub, (flat, EMBED)) * np.sqrt(1 / flat)
    params["dense_b"] = jnp.zeros(EMBED)
    params["rows"] = jax.random.normal(head, (CLASSES, EMBED))
    params["scale"] = jnp.array(3.0)  # log of the softmax scale
    return params


def embed(params: Params, images: jnp.ndarray) -> jnp.ndarray:
    """Embeddings (not unit) of a batch of prepared crops, NHWC."""
    x = images
    for index, (_, pool) in enumerate(LAYERS):
        x = jax.lax.conv_general_dilated(
            x, params[f"c{index}"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        x = jax.nn.relu(x + params[f"b{index}"])
        if pool:
            x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    x = jnp.transpose(x, (0, 3, 1, 2)).reshape(x.shape[0], -1)  # ONNX's Flatten order (C, H, W)
    return x @ params["dense"] + params["dense_b"]


def _unit(x: jnp.ndarray) -> jnp.ndarray:
    return x / (jnp.linalg.norm(x, axis=-1, keepdims=True) + 1e-6)


def cosines(params: Params, images: jnp.ndarray) -> jnp.ndarray:
    return _unit(embed(params, images)) @ _unit(params["rows"]).T


def loss(params: Params, images: jnp.ndarray, targets: jnp.ndarray, weights: jnp.ndarray) -> jnp.ndarray:
    """Weighted cross-entropy of the scaled cosines, the margin taken off the right rows. ``targets`` marks the
    right rows of each crop: one, or both ways up of its kind when a real photo's label does not say which way up
    it lies (the likelihood of either)."""
    logits = jnp.exp(params["scale"]) * (cosines(params, images) - MARGIN * targets)
    right = jax.nn.logsumexp(jnp.where(targets > 0, logits, -1e9), axis=1)
    nll = jax.nn.logsumexp(logits, axis=1) - right
    return jnp.sum(nll * weights) / jnp.sum(weights)


def adam_init(params: Params) -> tuple[Params, Params]:
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return zeros, jax.tree_util.tree_map(jnp.zeros_like, params)


@jax.jit
def step(
    params: Params, moments: tuple[Params, Params], count: jnp.ndarray, rate: jnp.ndarray, batch: tuple
) -> tuple[Params, tuple[Params, Params], jnp.ndarray]:
    """One Adam step (with decoupled weight decay on the convolutions and the dense layer)."""
    value, grads = jax.value_and_grad(loss)(params, *batch)
    first, second = moments
    first = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, first, grads)
    second = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, second, grads)
    t = count + 1
    correction = jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)

    def update(name: str, p: jnp.ndarray) -> jnp.ndarray:
        decay = 1e-4 * p if name.startswith(("c", "dense")) and not name.endswith("_b") else 0.0
        return p - rate * (correction * first[name] / (jnp.sqrt(second[name]) + 1e-8) + decay)

    return {name: update(name, p) for name, p in params.items()}, (first, second), value


embed_jit = jax.jit(embed)


def export_onnx(params: Params, path: Path) -> None:
    """The embedder as an ONNX graph (opset 13: Conv, Relu, MaxPool, Flatten, Gemm), NCHW float input
    ``crops`` of N x 3 x CROP_H x CROP_W, output ``embedding`` N x EMBED."""
    nodes, inits = [], []
    name = "crops"
    for index, (_, pool) in enumerate(LAYERS):
        weight = np.transpose(np.asarray(params[f"c{index}"], np.float32), (3, 2, 0, 1))  # HWIO -> OIHW
        inits += [
            numpy_helper.from_array(weight, f"w{index}"),
            numpy_helper.from_array(np.asarray(params[f"b{index}"], np.float32), f"bias{index}"),
        ]
        nodes.append(
            helper.make_node(
                "Conv", [name, f"w{index}", f"bias{index}"], [f"conv{index}"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]
            )
        )
        nodes.append(helper.make_node("Relu", [f"conv{index}"], [f"relu{index}"]))
        name = f"relu{index}"
        if pool:
            nodes.append(helper.make_node("MaxPool", [name], [f"pool{index}"], kernel_shape=[2, 2], strides=[2, 2]))
            name = f"pool{index}"
    nodes.append(helper.make_node("Flatten", [name], ["flat"], axis=1))
    inits += [
        numpy_helper.from_array(np.asarray(params["dense"], np.float32), "dense"),
        numpy_helper.from_array(np.asarray(params["dense_b"], np.float32), "dense_b"),
    ]
    nodes.append(helper.make_node("Gemm", ["flat", "dense", "dense_b"], ["embedding"]))
    graph = helper.make_graph(
        nodes,
        "tile_reader",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, CROP_H, CROP_W])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["n", EMBED])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="mjtable")
    onnx.checker.check_model(model)
    path.write_bytes(model.SerializeToString())
