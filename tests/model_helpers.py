"""Shared helpers of the model-layer tests: shared-model paths, small generated models, TFLM's
interpreter as the oracle, and the run of a reference-kernel op model on every path."""
import os
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.cpu.kernel import Tracer
from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline import harness, model, prepare, profiler
from armsim.pipeline.build import Build

import tflm_diff

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
    return [t.name for t in model.parse(model_bytes).output_tensors()]


REFERENCE_PATHS = ("simd", "scalar", "reference")


def run_all_paths(data, name, seed):
    """Each path's outputs equal TFLM's, every op simulated on TFLM's reference kernel."""
    m = model.parse(data, name)
    xs = profiler.random_inputs(m, seed=seed)
    want = tflm_outputs(data, xs)
    for path in REFERENCE_PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        for k, (got, exp) in enumerate(zip(prof.outputs, want)):
            assert got.shape == exp.shape and np.array_equal(got, exp), (path, k)
        for o in prof.ops:
            assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o
    assert_traced_equals_counted(m, xs)
    return m, xs


def assert_traced_equals_counted(m, xs):
    """Each op's traced run has the counted run's output, counters and one record per
    counted instruction (scalar build)."""
    values = dict(zip(m.inputs, xs))
    for step in prepare.prepare(m):
        tracer = Tracer()
        mt, _, _, out_t = harness.run_step(step, values, Build("scalar"), tracer=tracer)
        mc, _, _, out_c = harness.run_step(step, values, Build("scalar"))
        assert np.array_equal(out_t, out_c), step.op
        assert machine.counts(mt) == machine.counts(mc), step.op
        assert len(tracer.records) == sum(machine.counts(mc).values()), step.op


def random_int8(shape, seed=0):
    """A seeded int8 input of `shape`, spread over the whole range."""
    return np.random.default_rng(seed).integers(-128, 128, shape, dtype=np.int8)


def run_on_every_path(model_bytes, xs):
    """Profiles of the model on every path ({path: ModelProfile}), each path's first output
    checked against TFLM's interpreter."""
    want = tflm_outputs(model_bytes, xs)[0]
    m = model.parse(model_bytes)
    profiles = {}
    for path in REFERENCE_PATHS:
        p = profiler.run(m, Build(path), inputs=xs)
        np.testing.assert_array_equal(p.outputs[0], want, err_msg=path)
        profiles[path] = p
    return profiles


def check_every_path(data, name, seed, expect_reference):
    """Run `data` on every path against TFLM; `expect_reference`: op index -> whether that op
    runs TFLM's reference kernel (else CMSIS-NN on simd / scalar).  Returns the profiles."""
    m = model.parse(data, name)
    xs = profiler.random_inputs(m, seed=seed)
    want = tflm_outputs(data, xs)
    profiles = {}
    for path in REFERENCE_PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        for k, (got, exp) in enumerate(zip(prof.outputs, want)):
            assert got.dtype == exp.dtype and np.array_equal(got, exp), (name, path, k)
        for o in prof.ops:
            assert o.simulated and o.instructions > 0 and o.cycles > 0, (path, o)
            assert o.reference == (expect_reference[o.index] or path == "reference"), (path, o)
        profiles[path] = prof
    return profiles


def refused_by_both(data, inputs, *needles):
    """armsim's Prepare refuses in one line naming the op; TFLM's interpreter refuses too."""
    with pytest.raises(ModelError) as e:
        prepare.prepare(model.parse(data, "bad.tflite"))
    message = str(e.value)
    assert "\n" not in message and all(n in message for n in needles), message
    assert tflm_diff.tflm_run(data, inputs).kind == "refused"


def unary_model(build, shape=(2, 8), dtype="int8", **kw):
    """A one-op model: `build(g, x, **kw)` of an input of `shape` and `dtype`, and a zero
    input for it."""
    g = modelgen.Graph(seed=47)
    x = g.input(shape, scale=0.05 if dtype != "int16" else 0.001, zero_point=0, dtype=dtype)
    g.output(build(g, x, **kw))
    return g.build(), [np.zeros(shape, np.dtype(dtype))]
