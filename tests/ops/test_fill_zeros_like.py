"""ZEROS_LIKE and FILL (int8) on TFLM's counted reference kernels: one-op models (constant
and computed fill values, ranks 1-4), bit-exact with the TFLM interpreter on all three
paths, each op simulated (counted), and FILL's Prepare refusals."""
import numpy as np
import pytest
import tflite
from model_helpers import tflm_outputs

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline.build import Build

PATHS = ("simd", "scalar", "reference")
BO = tflite.BuiltinOperator


def fill(g, shape, value, dims=None):
    """FILL of `shape` with the scalar tensor `value` (constant or computed)."""
    d = g.tensor((len(shape),), "int32", data=np.asarray(dims or shape, np.int32))
    y = g.tensor(shape, "int8", 0.1, 0)
    return g._op(BO.FILL, [d, value], [y], tflite.BuiltinOptions.FillOptions,
                 (tflite.FillOptionsStart, [], tflite.FillOptionsEnd))


@pytest.fixture(scope="module")
def built():
    g = modelgen.Graph(seed=10)
    x = g.input((2, 3, 5, 4), scale=0.1, zero_point=3, name="x")
    v = g.input((), scale=0.1, zero_point=0, name="v")
    z = g.tensor(g.shape(x), "int8", 0.1, 3)
    zeros = g._op(BO.ZEROS_LIKE, [x], [z], tflite.BuiltinOptions.ZerosLikeOptions,
                  (tflite.ZerosLikeOptionsStart, [], tflite.ZerosLikeOptionsEnd))
    const = g.tensor((), "int8", 0.1, 0, data=np.array(-77, np.int8))
    g.output(zeros, fill(g, (3, 7), const), fill(g, (37,), v), fill(g, (1, 2, 2, 3), v))
    data = g.build()
    m = model.parse(data, "fill.tflite")
    xs = profiler.random_inputs(m, seed=12)
    return m, xs, tflm_outputs(data, xs)


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    m, xs, want = built
    prof = profiler.run(m, Build(path), inputs=xs)
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.shape == exp.shape and np.array_equal(got, exp), (path, k)
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o
    assert "memset" in prof.ops[0].kernel


def test_fill_refusals():
    for build, match in (
            (lambda g: fill(g, (2, 3), g.tensor((1,), "int8", 0.1, 0,
                                                data=np.array([1], np.int8))), "scalar"),
            (lambda g: fill(g, (2, 3), g.tensor((), "int8", 0.1, 0,
                                                data=np.array(1, np.int8)), dims=(3, 2)),
             "differ")):
        g = modelgen.Graph()
        g.input((1,), scale=0.1)
        g.output(build(g))
        with pytest.raises(ModelError, match=f"FILL.*{match}"):
            prepare.prepare(model.parse(g.build(), "fill_bad.tflite"))
