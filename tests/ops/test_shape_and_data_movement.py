"""Shape and data-movement ops (int8) on TFLM's counted reference kernels: one-op models
built with armsim.data.modelgen, bit-exact with the TFLM interpreter on all three paths, every op
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
OPT = tflite.BuiltinOptions


def const(g, values, dtype="int32"):
    values = np.asarray(values)
    return g.tensor(values.shape, dtype, data=values)


def expand_dims(g, x, axis, axis_shape=(1,)):
    shape = list(g.shape(x))
    a = axis + len(shape) + 1 if axis < 0 else axis
    y = g.tensor(shape[:a] + [1] + shape[a:], "int8", *g.quant(x))
    ax = const(g, np.full(axis_shape, axis, np.int32))
    return g._op(BO.EXPAND_DIMS, [x, ax], [y], OPT.ExpandDimsOptions,
                 (tflite.ExpandDimsOptionsStart, [], tflite.ExpandDimsOptionsEnd))


def slice_(g, x, begin, size, dtype="int32"):
    shape = g.shape(x)
    out = [d - b if s == -1 else s for d, b, s in zip(shape, begin, size)]
    y = g.tensor(out, "int8", *g.quant(x))
    return g._op(BO.SLICE, [x, const(g, begin, dtype), const(g, size, dtype)], [y],
                 OPT.SliceOptions, (tflite.SliceOptionsStart, [], tflite.SliceOptionsEnd))


def _expand_dims(g):
    x = g.input((2, 3, 4), scale=0.1, zero_point=3)
    return [expand_dims(g, x, a) for a in (0, 1, 3, -1, -4)] + [
        expand_dims(g, x, 2, axis_shape=())]


def _slice(g):
    x = g.input((2, 3, 4, 5), scale=0.1, zero_point=3)
    return [slice_(g, x, [0, 1, 1, 0], [2, 2, -1, 5]),
            slice_(g, x, [1, 0, 2, 1], [1, -1, 2, 3]),
            slice_(g, x, [0, 0, 0, 0], [-1, -1, -1, -1]),
            slice_(g, x, [1, 2, 3, 4], [1, 1, 1, 1], dtype="int64")]


def _slice_ranks(g):
    x = g.input((3, 2, 2, 3, 4), scale=0.1, zero_point=3)
    v = g.input((17,), scale=0.1, zero_point=3)
    return [slice_(g, x, [1, 0, 1, 0, 1], [2, 2, 1, -1, 2]), slice_(g, v, [5], [9])]


def shape(g, x):
    y = g.tensor((len(g.shape(x)),), "int32")
    return g._op(BO.SHAPE, [x], [y], OPT.ShapeOptions,
                 (tflite.ShapeOptionsStart, [(tflite.ShapeOptionsAddOutType,
                                              tflite.TensorType.INT32)], tflite.ShapeOptionsEnd))


def pack(g, xs, axis):
    shape = list(g.shape(xs[0]))
    a = axis + len(shape) + 1 if axis < 0 else axis
    y = g.tensor(shape[:a] + [len(xs)] + shape[a:], "int8", *g.quant(xs[0]))
    return g._op(BO.PACK, list(xs), [y], OPT.PackOptions,
                 (tflite.PackOptionsStart, [(tflite.PackOptionsAddValuesCount, len(xs)),
                                            (tflite.PackOptionsAddAxis, axis)],
                  tflite.PackOptionsEnd))


def unpack(g, x, axis):
    shape = list(g.shape(x))
    a = axis % len(shape)
    ys = [g.tensor(shape[:a] + shape[a + 1:], "int8", *g.quant(x)) for _ in range(shape[a])]
    g._op(BO.UNPACK, [x], ys, OPT.UnpackOptions,
          (tflite.UnpackOptionsStart, [(tflite.UnpackOptionsAddNum, len(ys)),
                                       (tflite.UnpackOptionsAddAxis, axis)],
           tflite.UnpackOptionsEnd))
    return ys


def split(g, x, axis, num):
    shape = list(g.shape(x))
    a = axis % len(shape)
    out = shape[:a] + [shape[a] // num] + shape[a + 1:]
    ys = [g.tensor(out, "int8", *g.quant(x)) for _ in range(num)]
    g._op(BO.SPLIT, [const(g, [axis]), x], ys, OPT.SplitOptions,
          (tflite.SplitOptionsStart, [(tflite.SplitOptionsAddNumSplits, num)],
           tflite.SplitOptionsEnd))
    return ys


def split_v(g, x, axis, sizes):
    shape = list(g.shape(x))
    a = axis % len(shape)
    ys = [g.tensor(shape[:a] + [s] + shape[a + 1:], "int8", *g.quant(x)) for s in sizes]
    g._op(BO.SPLIT_V, [x, const(g, sizes), const(g, [axis])], ys, OPT.SplitVOptions,
          (tflite.SplitVOptionsStart, [(tflite.SplitVOptionsAddNumSplits, len(sizes))],
           tflite.SplitVOptionsEnd))
    return ys


def _shape(g):
    x = g.input((2, 3, 4, 5), scale=0.1, zero_point=3)
    v = g.input((7,), scale=0.1, zero_point=3)
    return [shape(g, x), shape(g, v), shape(g, g.input((1, 2, 1, 3, 1, 2), scale=0.1))]


def _pack(g):
    xs = [g.input((3, 4), scale=0.1, zero_point=3) for _ in range(3)]
    return [pack(g, xs, 0), pack(g, xs, 1), pack(g, xs, -1), pack(g, xs[:1], 2)]


def _unpack(g):
    x = g.input((3, 2, 4), scale=0.1, zero_point=3)
    return unpack(g, x, 0) + unpack(g, x, 1) + unpack(g, x, -1)


def _split(g):
    x = g.input((2, 6, 4), scale=0.1, zero_point=3)
    return split(g, x, 1, 3) + split(g, x, -1, 2) + split(g, x, 0, 1) + \
        split_v(g, x, 1, [1, 3, 2]) + split_v(g, x, -1, [3, 1]) + split_v(g, x, 0, [2])


def depth_space(g, x, block, to_space):
    n, h, w, c = g.shape(x)
    shape = (n, h * block, w * block, c // block // block) if to_space else \
        (n, h // block, w // block, c * block * block)
    y = g.tensor(shape, "int8", *g.quant(x))
    if to_space:
        opts = (OPT.DepthToSpaceOptions, (tflite.DepthToSpaceOptionsStart, [
            (tflite.DepthToSpaceOptionsAddBlockSize, block)], tflite.DepthToSpaceOptionsEnd))
    else:
        opts = (OPT.SpaceToDepthOptions, (tflite.SpaceToDepthOptionsStart, [
            (tflite.SpaceToDepthOptionsAddBlockSize, block)], tflite.SpaceToDepthOptionsEnd))
    return g._op(BO.DEPTH_TO_SPACE if to_space else BO.SPACE_TO_DEPTH, [x], [y], *opts)


def _depth_space(g):
    x = g.input((2, 3, 2, 8), scale=0.1, zero_point=3)
    s = g.input((1, 6, 4, 3), scale=0.1, zero_point=3)
    return [depth_space(g, x, 2, True), depth_space(g, x, 1, True),
            depth_space(g, s, 2, False), depth_space(g, s, 1, False),
            depth_space(g, g.input((1, 3, 3, 2), scale=0.1), 3, False)]


BUILDERS = {f.__name__.strip("_"): f for f in (_expand_dims, _slice, _slice_ranks, _shape,
                                                _pack, _unpack, _split, _depth_space)}


@pytest.fixture(scope="module", params=sorted(BUILDERS))
def built(request):
    g = modelgen.Graph(seed=2)
    g.output(*BUILDERS[request.param](g))
    data = g.build()
    m = model.parse(data, f"{request.param}.tflite")
    xs = profiler.random_inputs(m, seed=7)
    return request.param, m, xs, tflm_outputs(data, xs)


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    name, m, xs, want = built
    prof = profiler.run(m, Build(path), inputs=xs)
    assert len(prof.outputs) == len(want)
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.dtype == exp.dtype and got.shape == exp.shape, (name, k)
        assert np.array_equal(got, exp), (name, path, k, np.argwhere(got != exp)[:5])
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o


def _refused(build, match):
    g = modelgen.Graph()
    x = g.input((2, 3, 4), scale=0.1, zero_point=0)
    g.output(build(g, x))
    with pytest.raises(ModelError, match=match):
        prepare.prepare(model.parse(g.build(), "refused.tflite"))


def test_expand_dims_refusals():
    def axis_out_of_range(g, x):
        y = g.tensor((2, 3, 4, 1), "int8", 0.1, 0)
        return g._op(BO.EXPAND_DIMS, [x, const(g, [5])], [y])

    def wrong_output(g, x):
        y = g.tensor((2, 1, 3, 4), "int8", 0.1, 0)
        return g._op(BO.EXPAND_DIMS, [x, const(g, [0])], [y])

    def int64_axis(g, x):
        y = g.tensor((1, 2, 3, 4), "int8", 0.1, 0)
        return g._op(BO.EXPAND_DIMS, [x, const(g, [0], "int64")], [y])
    _refused(axis_out_of_range, "EXPAND_DIMS.*axis 5 out of range")
    _refused(wrong_output, "EXPAND_DIMS.*expanding")
    _refused(int64_axis, "EXPAND_DIMS.*INT64")


def test_slice_refusals():
    def outside(g, x):
        y = g.tensor((2, 3, 2), "int8", 0.1, 0)
        return g._op(BO.SLICE, [x, const(g, [0, 1, 3]), const(g, [2, 3, 2])], [y])

    def wrong_count(g, x):
        y = g.tensor((2, 3, 3), "int8", 0.1, 0)
        return g._op(BO.SLICE, [x, const(g, [0, 0, 0]), const(g, [2, 3, 2])], [y])
    _refused(outside, "SLICE.*outside")
    _refused(wrong_count, "SLICE.*elements")


def test_shape_pack_unpack_split_refusals():
    def shape_int64(g, x):
        y = g.tensor((3,), "int64")
        return g._op(BO.SHAPE, [x], [y])

    def pack_count(g, x):
        y = g.tensor((2, 2, 3, 4), "int8", 0.1, 0)
        return g._op(BO.PACK, [x], [y], OPT.PackOptions,
                     (tflite.PackOptionsStart, [(tflite.PackOptionsAddValuesCount, 2)],
                      tflite.PackOptionsEnd))

    def unpack_num(g, x):
        y = g.tensor((3, 4), "int8", 0.1, 0)
        return g._op(BO.UNPACK, [x], [y], OPT.UnpackOptions,
                     (tflite.UnpackOptionsStart, [(tflite.UnpackOptionsAddNum, 2)],
                      tflite.UnpackOptionsEnd))

    def split_axis(g, x):
        y = g.tensor((2, 3, 4), "int8", 0.1, 0)
        return g._op(BO.SPLIT, [const(g, [3]), x], [y])

    def split_variable_axis(g, x):
        y = g.tensor((2, 3, 4), "int8", 0.1, 0)
        return g._op(BO.SPLIT, [g.input((1,), dtype="int32"), x], [y])
    _refused(shape_int64, "SHAPE.*int32 only")
    _refused(pack_count, "PACK.*ValuesCount = 2")
    _refused(unpack_num, "UNPACK.*Num = 2")
    _refused(split_axis, "SPLIT.*axis 3 out of range")
    _refused(split_variable_axis, "SPLIT.*not constant")


def test_depth_space_refusals():
    def d2s_channels(g, x):
        y = g.tensor((2, 6, 8, 1), "int8", 0.1, 0)
        return depth_space_raw(g, x, y, 2, True)

    def s2d_height(g, x):
        y = g.tensor((2, 1, 2, 16), "int8", 0.1, 0)
        return depth_space_raw(g, x, y, 2, False)

    def s2d_zero_block(g, x):
        y = g.tensor((2, 3, 4), "int8", 0.1, 0)
        return depth_space_raw(g, x, y, 0, False)
    _refused(lambda g, x: d2s_channels(g, g.input((2, 3, 4, 2), scale=0.1)),
             "DEPTH_TO_SPACE.*multiple of block_size")
    _refused(lambda g, x: s2d_height(g, g.input((2, 3, 4, 4), scale=0.1)),
             "SPACE_TO_DEPTH.*multiple of block_size")
    _refused(lambda g, x: s2d_zero_block(g, g.input((1, 2, 3, 4), scale=0.1)),
             "SPACE_TO_DEPTH.*block_size 0")


def depth_space_raw(g, x, y, block, to_space):
    code, opt, start, add, end = (
        (BO.DEPTH_TO_SPACE, OPT.DepthToSpaceOptions, tflite.DepthToSpaceOptionsStart,
         tflite.DepthToSpaceOptionsAddBlockSize, tflite.DepthToSpaceOptionsEnd) if to_space
        else (BO.SPACE_TO_DEPTH, OPT.SpaceToDepthOptions, tflite.SpaceToDepthOptionsStart,
              tflite.SpaceToDepthOptionsAddBlockSize, tflite.SpaceToDepthOptionsEnd))
    return g._op(code, [x], [y], opt, (start, [(add, block)], end))
