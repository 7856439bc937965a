"""GATHER (int8 data, int32 positions) on TFLM's counted reference kernel: one-op models
built with armsim.data.modelgen (axes incl. negative, batch_dims, position ranks 0-2, constant
and computed positions), bit-exact with the TFLM interpreter on all three paths, each op
simulated (counted), and the refusals of TFLM's Prepare."""
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


def gather(g, x, coords, axis=0, batch_dims=0):
    """GATHER of `x` at `coords` (a tensor index, or values made a constant)."""
    if not isinstance(coords, int):
        values = np.asarray(coords, np.int32)
        coords = g.tensor(values.shape, "int32", data=values)
    shape, cshape = g.shape(x), g.shape(coords)
    a = axis % len(shape)
    b = batch_dims % len(cshape) if batch_dims < 0 else batch_dims
    out = list(shape[:a]) + list(cshape[b:]) + list(shape[a + 1:])
    y = g.tensor(out or (1,), "int8", *g.quant(x))
    opts = (tflite.GatherOptionsStart, [(tflite.GatherOptionsAddAxis, axis),
                                        (tflite.GatherOptionsAddBatchDims, batch_dims)],
            tflite.GatherOptionsEnd)
    return g._op(BO.GATHER, [x, coords], [y], tflite.BuiltinOptions.GatherOptions, opts)


def _graph():
    g = modelgen.Graph(seed=4)
    x = g.input((3, 5, 4), scale=0.1, zero_point=2, name="x")
    pos = g.input((2, 3), dtype="int32", name="positions")
    g.output(gather(g, x, [2, 0, 2, 1]),                      # axis 0, repeated rows
             gather(g, x, [[4, 0], [1, 3]], axis=1),          # 2-D positions
             gather(g, x, [3, 1], axis=-1),                   # innermost: 1-byte copies
             gather(g, x, [[1, 4], [0, 0], [3, 2]], axis=1, batch_dims=1),
             gather(g, x, [[0, 3], [2, 2], [1, 0]], axis=-1, batch_dims=-1),
             gather(g, x, pos, axis=1))                       # positions computed by the graph
    return g.build()


@pytest.fixture(scope="module")
def built():
    data = _graph()
    m = model.parse(data, "gather.tflite")
    rng = np.random.default_rng(5)
    xs = [rng.integers(-128, 128, (3, 5, 4), dtype=np.int8),
          rng.integers(0, 5, (2, 3), dtype=np.int32)]
    return m, xs, tflm_outputs(data, xs)


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    m, xs, want = built
    prof = profiler.run(m, Build(path), inputs=xs)
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.shape == exp.shape and np.array_equal(got, exp), (path, k)
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o


def test_computed_position_outside_the_axis_is_one_clear_error(built):
    m, xs, _ = built
    bad = np.array([[0, 1, 2], [3, 4, 5]], np.int32)
    with pytest.raises(ValueError, match="position 5 outside"):
        profiler.run(m, Build("reference"), inputs=[xs[0], bad])


def _refused(build, match):
    g = modelgen.Graph()
    x = g.input((2, 3, 4), scale=0.1, zero_point=0)
    g.output(build(g, x))
    with pytest.raises(ModelError, match=match):
        prepare.prepare(model.parse(g.build(), "refused.tflite"))


def test_refusals():
    _refused(lambda g, x: gather(g, x, [0, 3]), "GATHER.*position 3 outside")
    _refused(lambda g, x: gather(g, x, [[0], [1]], axis=0, batch_dims=1),
             "GATHER.*batch_dims")

    def int64_positions(g, x):
        c = g.tensor((2,), "int64", data=np.array([0, 1], np.int64))
        y = g.tensor((2, 3, 4), "int8", 0.1, 0)
        return g._op(BO.GATHER, [x, c], [y])
    _refused(int64_positions, "GATHER.*int32")
