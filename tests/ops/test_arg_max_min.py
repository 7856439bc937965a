"""ARG_MAX / ARG_MIN (int8 input, int32 axis and output) on TFLM's counted reference kernel:
one-op models over every axis (incl. negative) with many ties (the first index wins),
bit-exact with the TFLM interpreter on all three paths, each op simulated (counted), and the
refusals of TFLM's Eval."""
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
SHAPE = (2, 3, 5, 4)


def arg(g, x, axis, is_max=True, out_dtype="int32"):
    shape = list(g.shape(x))
    del shape[axis % len(shape)]
    y = g.tensor(shape, out_dtype)
    ax = g.tensor((1,), "int32", data=np.array([axis], np.int32))
    if is_max:
        opts = (tflite.BuiltinOptions.ArgMaxOptions, (tflite.ArgMaxOptionsStart, [
            (tflite.ArgMaxOptionsAddOutputType, tflite.TensorType.INT32)],
            tflite.ArgMaxOptionsEnd))
    else:
        opts = (tflite.BuiltinOptions.ArgMinOptions, (tflite.ArgMinOptionsStart, [
            (tflite.ArgMinOptionsAddOutputType, tflite.TensorType.INT32)],
            tflite.ArgMinOptionsEnd))
    return g._op(BO.ARG_MAX if is_max else BO.ARG_MIN, [x, ax], [y], *opts)


@pytest.fixture(scope="module")
def built():
    g = modelgen.Graph(seed=8)
    x = g.input(SHAPE, scale=0.1, zero_point=0, name="x")
    g.output(*[arg(g, x, a, is_max) for is_max in (True, False) for a in (0, 1, 2, 3, -1)])
    data = g.build()
    xs = [np.random.default_rng(9).integers(-3, 3, SHAPE, dtype=np.int8)]   # many ties
    return model.parse(data, "arg.tflite"), xs, tflm_outputs(data, xs)


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    m, xs, want = built
    prof = profiler.run(m, Build(path), inputs=xs)
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.dtype == exp.dtype and got.shape == exp.shape, k
        assert np.array_equal(got, exp), (path, k)
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o


def test_int64_output_refused():
    g = modelgen.Graph()
    x = g.input((2, 3), scale=0.1, zero_point=0)
    g.output(arg(g, x, 1, out_dtype="int64"))
    with pytest.raises(ModelError, match="ARG_MAX.*int32 only"):
        prepare.prepare(model.parse(g.build(), "arg64.tflite"))
