"""STRIDED_SLICE (int8) on TFLM's counted reference kernel: one-op models built with
armsim.data.modelgen covering begin/end/shrink masks, negative indices and strides, clamped
bounds and ranks 1-4, bit-exact with the TFLM interpreter on all three paths, each op
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


def numpy_shape(shape, begin, end, strides, begin_mask=0, end_mask=0, shrink=0):
    """The output shape by numpy's slicing (TF's semantics for these masks)."""
    idx = []
    for a in range(len(shape)):
        if shrink >> a & 1:
            idx.append(begin[a])
        else:
            idx.append(slice(None if begin_mask >> a & 1 else begin[a],
                             None if end_mask >> a & 1 else end[a], strides[a]))
    return np.empty(shape)[tuple(idx)].shape


def strided_slice(g, x, begin, end, strides, begin_mask=0, end_mask=0, shrink=0,
                  out_shape=None):
    shape = out_shape or numpy_shape(g.shape(x), begin, end, strides, begin_mask, end_mask,
                                     shrink)
    y = g.tensor(shape, "int8", *g.quant(x))
    consts = [g.tensor((len(v),), "int32", data=np.asarray(v, np.int32))
              for v in (begin, end, strides)]
    opts = (tflite.StridedSliceOptionsStart,
            [(tflite.StridedSliceOptionsAddBeginMask, begin_mask),
             (tflite.StridedSliceOptionsAddEndMask, end_mask),
             (tflite.StridedSliceOptionsAddShrinkAxisMask, shrink)],
            tflite.StridedSliceOptionsEnd)
    return g._op(BO.STRIDED_SLICE, [x] + consts, [y], tflite.BuiltinOptions.StridedSliceOptions,
                 opts)


def _rank4(g):
    x = g.input((2, 5, 6, 4), scale=0.1, zero_point=3)
    return [
        strided_slice(g, x, [0, 1, 1, 0], [2, 4, 5, 4], [1, 1, 1, 1]),       # memcpy rows
        strided_slice(g, x, [0, 0, 1, 0], [2, 5, 6, 4], [1, 2, 2, 3]),       # inner stride 3
        strided_slice(g, x, [1, -1, -2, 3], [0, 0, 0, 0], [-1, -1, -2, -1],  # reversed
                      begin_mask=0b0001, end_mask=0b1000),
        strided_slice(g, x, [0, -4, 0, -3], [1, -1, 6, -1], [1, 1, 1, 1],    # negative ids
                      begin_mask=0b0100),
        strided_slice(g, x, [1, 2, 0, 0], [2, 3, 6, 4], [1, 1, 2, 1],        # shrink 0, 1
                      shrink=0b0011),
        strided_slice(g, x, [0, 0, -100, 0], [2, 99, 100, 4], [1, 3, 5, 2],  # clamped
                      end_mask=0b0001),
        strided_slice(g, x, [0, 3, 0, 2], [0, 0, 0, 0], [1, 1, 1, 1],        # shrink last
                      begin_mask=0b0101, end_mask=0b0111, shrink=0b1000),
    ]


def _low_ranks(g):
    v = g.input((11,), scale=0.1, zero_point=3)
    w = g.input((4, 7), scale=0.1, zero_point=3)
    t = g.input((3, 4, 5), scale=0.1, zero_point=3)
    return [strided_slice(g, v, [1], [10], [3]), strided_slice(g, v, [-1], [0], [-2]),
            strided_slice(g, v, [4], [0], [1], shrink=1),
            strided_slice(g, w, [1, 0], [3, 7], [1, 1]),
            strided_slice(g, w, [3, 6], [0, 0], [-1, -3], end_mask=0b11),
            strided_slice(g, t, [0, 1, 0], [3, 3, 5], [2, 1, 1], begin_mask=0b100),
            strided_slice(g, t, [2, 0, 4], [0, 4, 0], [1, 1, -1], shrink=0b001)]


BUILDERS = {f.__name__.strip("_"): f for f in (_rank4, _low_ranks)}


@pytest.fixture(scope="module", params=sorted(BUILDERS))
def built(request):
    g = modelgen.Graph(seed=3)
    g.output(*BUILDERS[request.param](g))
    data = g.build()
    m = model.parse(data, f"{request.param}.tflite")
    xs = profiler.random_inputs(m, seed=11)
    return request.param, m, xs, tflm_outputs(data, xs)


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    name, m, xs, want = built
    prof = profiler.run(m, Build(path), inputs=xs)
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.dtype == exp.dtype and got.shape == exp.shape, (name, k)
        assert np.array_equal(got, exp), (name, path, k, np.argwhere(got != exp)[:5])
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o


def test_inner_stride_one_copies_with_memcpy():
    g = modelgen.Graph()
    x = g.input((2, 3, 8), scale=0.1, zero_point=0)
    g.output(strided_slice(g, x, [0, 0, 0], [2, 3, 8], [1, 1, 1]),
             strided_slice(g, x, [0, 0, 0], [2, 3, 8], [1, 1, 2]))
    prof = profiler.run(model.parse(g.build(), "inner.tflite"), Build("reference"))
    assert "memcpy" in prof.ops[0].kernel and "memcpy" not in prof.ops[1].kernel


def _refused(build, match):
    g = modelgen.Graph()
    x = g.input((2, 3, 4), scale=0.1, zero_point=0)
    g.output(build(g, x))
    with pytest.raises(ModelError, match=match):
        prepare.prepare(model.parse(g.build(), "refused.tflite"))


def test_refusals():
    _refused(lambda g, x: strided_slice(g, x, [0, 0, 0], [2, 3, 4], [1, 0, 1],
                                        out_shape=(2, 3, 4)), "STRIDED_SLICE.*non-zero")
    _refused(lambda g, x: strided_slice(g, x, [0, 0, 0], [2, 3, 4], [1, 1, 1],
                                        out_shape=(2, 3, 3)), "STRIDED_SLICE.*Prepare computes")

    def rank5(g, x):
        y = g.input((1, 2, 3, 4, 5), scale=0.1, zero_point=0)
        return strided_slice(g, y, [0] * 5, [1, 2, 3, 4, 5], [1] * 5)
    _refused(rank5, "STRIDED_SLICE.*at most 4")

    def variable_begin(g, x):
        y = g.tensor((2, 3, 4), "int8", 0.1, 0)
        b = g.input((3,), dtype="int32")
        c = [g.tensor((3,), "int32", data=np.asarray(v, np.int32)) for v in ([2, 3, 4], [1] * 3)]
        return g._op(BO.STRIDED_SLICE, [x, b] + c, [y])
    _refused(variable_begin, "STRIDED_SLICE.*not constant")
