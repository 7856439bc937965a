"""Shared helpers of the model-layer tests: shared-model paths and small generated models."""
import os
from pathlib import Path

import numpy as np

from armsim.data import modelgen

MODELS_DIR = Path(os.environ.get("ARMSIM_MODELS",
                                 Path(__file__).resolve().parents[2] / "shared" / "models"))
SHARED = ("kws", "vww", "ic", "ad")


def shared_model(name):
    return MODELS_DIR / name / "model.tflite"


def tiny_graph(seed=0):
    """A two-op int8 model: 3x3 conv then fully connected (fast to build and run)."""
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 6, 6, 2), scale=0.02, zero_point=-3, name="x")
    y = g.conv2d(x, 4, (3, 3), padding="SAME", activation="RELU", name="conv")
    y = g.reshape(y, (1, -1), name="flat")
    g.output(g.fully_connected(y, 5, name="fc"))
    return g


def tiny_model_bytes(seed=0):
    return tiny_graph(seed).build()


def tflm_reference(model_bytes, x):
    """The tflite-micro Python interpreter's output (the end-to-end oracle)."""
    from tflite_micro.python.tflite_micro import runtime
    it = runtime.Interpreter.from_bytes(model_bytes)
    it.set_input(np.asarray(x), 0)
    it.invoke()
    return it.get_output(0)


def tflm_outputs(model_bytes, inputs, arena_size=None):
    """Every graph output of the tflite-micro interpreter for `inputs` (one per graph input);
    `arena_size` for activations larger than the interpreter's default (10x the model)."""
    from tflite_micro.python.tflite_micro import runtime
    it = runtime.Interpreter.from_bytes(model_bytes, arena_size=arena_size)
    for k, x in enumerate(inputs):
        it.set_input(np.asarray(x), k)
    it.invoke()
    n = len(modelgen_outputs(model_bytes))
    return [it.get_output(k) for k in range(n)]


def modelgen_outputs(model_bytes):
    """The graph output tensor names of a .tflite model."""
    from armsim.pipeline import model
    return [t.name for t in model.parse(model_bytes).output_tensors()]
