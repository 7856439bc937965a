"""CAST among int8, int16 and int32 on TFLM's counted reference kernel: every pair (narrowing
wraps, as static_cast), bit-exact with the TFLM interpreter on all three paths, each op
simulated (counted); other types are left to TFLM on the host."""
import numpy as np
import pytest
import tflite
from model_helpers import tflm_outputs

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.pipeline.build import Build

PATHS = ("simd", "scalar", "reference")
TYPES = ("int8", "int16", "int32")


def cast(g, x, dtype):
    y = g.tensor(g.shape(x), dtype)
    return g._op(tflite.BuiltinOperator.CAST, [x], [y], tflite.BuiltinOptions.CastOptions,
                 (tflite.CastOptionsStart, [], tflite.CastOptionsEnd))


@pytest.fixture(scope="module")
def built():
    g = modelgen.Graph(seed=13)
    xs = {t: g.input((3, 5, 7), scale=None, dtype=t, name=t) for t in TYPES}
    g.output(*[cast(g, xs[a], b) for a in TYPES for b in TYPES])
    data = g.build()
    m = model.parse(data, "cast.tflite")
    inputs = profiler.random_inputs(m, seed=14)        # each type's full range
    return m, inputs, tflm_outputs(data, inputs)


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    m, xs, want = built
    prof = profiler.run(m, Build(path), inputs=xs)
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.dtype == exp.dtype and np.array_equal(got, exp), (path, k)
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o


def test_float_cast_left_to_tflm():
    g = modelgen.Graph()
    x = g.input((4,), dtype="float32")
    g.output(cast(g, x, "int8"))
    (step,) = prepare.prepare(model.parse(g.build(), "cast_f.tflite"))
    assert step.host and "FLOAT32" in step.host_reason
