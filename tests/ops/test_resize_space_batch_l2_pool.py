"""RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND and
L2_POOL_2D (int8) on TFLM's counted reference kernels: models built with armsim.data.modelgen,
bit-exact with the TFLM interpreter on all three paths with every op simulated, and what
TFLM's Prepare refuses refused in one line (each refusal checked against the interpreter)."""
import numpy as np
import pytest
import tflite
from model_helpers import tflm_outputs

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.cpu import machine
from armsim.cpu.kernel import Tracer
from armsim.errors import ModelError
from armsim.pipeline.build import Build
from armsim.pipeline import harness

PATHS = ("simd", "scalar", "reference")
BO = tflite.BuiltinOperator
OPT = tflite.BuiltinOptions
FLAGS = [(a, h) for a in (False, True) for h in (False, True)]   # align x half_pixel


def _resize(method):
    def build(g):
        x = g.input((2, 3, 5, 3), scale=0.1, zero_point=3)
        one = g.input((1, 1, 1, 2), scale=0.1, zero_point=-2)
        outs = []
        for align, half in FLAGS if method == "NEAREST_NEIGHBOR" else FLAGS[:3]:
            for size in ((7, 4), (2, 9), (3, 5), (1, 2)):     # up, non-square, same, down
                outs.append(g.resize(x, size, method, align, half))
            outs.append(g.resize(one, (3, 2), method, align, half))
        return outs
    build.__name__ = method.lower()
    return build


def _batch_to_space_nd(g):
    x = g.input((8, 2, 3, 3), scale=0.1, zero_point=3)
    v = g.input((6, 4, 2), scale=0.1, zero_point=-1)
    return [g.batch_to_space_nd(x, [2, 2], [[0, 0], [0, 0]]),       # batch 8 -> 2
            g.batch_to_space_nd(x, [2, 4], [[1, 2], [3, 2]]),       # non-square, cropped
            g.batch_to_space_nd(x, [1, 8], [[0, 1], [0, 0]]),
            g.batch_to_space_nd(x, [1, 1], [[0, 0], [1, 1]]),
            g.batch_to_space_nd(v, [3], [[1, 2]]),                  # 3-D NHC
            g.batch_to_space_nd(v, [2], [[0, 0]])]


def _space_to_batch_nd(g):
    x = g.input((2, 4, 6, 3), scale=0.1, zero_point=3)
    v = g.input((3, 5, 2), scale=0.1, zero_point=-1)
    return [g.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]),
            g.space_to_batch_nd(x, [2, 3], [[1, 1], [2, 1]]),       # non-square, padded
            g.space_to_batch_nd(x, [1, 4], [[0, 0], [1, 1]]),
            g.space_to_batch_nd(x, [1, 1], [[1, 0], [0, 2]]),
            g.space_to_batch_nd(v, [3], [[0, 1]]),                  # 3-D NHC
            g.space_to_batch_nd(v, [2], [[1, 2]])]


BUILDERS = {f.__name__.strip("_"): f for f in (
    _resize("NEAREST_NEIGHBOR"), _resize("BILINEAR"), _batch_to_space_nd,
    _space_to_batch_nd)}


def padding_mask(m, op_index):
    """SPACE_TO_BATCH_ND's padded output elements (TensorFlow's definition: pad, split
    the blocks off the spatial dims, move them to the batch)."""
    op = m.operators[op_index]
    x = np.ones(m.tensors[op.inputs[0]].shape, np.int8)
    block = [int(b) for b in m.tensors[op.inputs[1]].data]
    pads = np.asarray(m.tensors[op.inputs[2]].data).reshape(-1, 2)
    if x.ndim == 3:
        x, block, pads = x[:, :, None, :], block + [1], np.vstack([pads, [[0, 0]]])
    x = np.pad(x, [(0, 0), tuple(pads[0]), tuple(pads[1]), (0, 0)])
    n, h, w, c = x.shape
    bh, bw = block
    x = x.reshape(n, h // bh, bh, w // bw, bw, c).transpose(2, 4, 0, 1, 3, 5)
    return x.reshape(bh * bw * n, h // bh, w // bw, c).reshape(
        m.tensors[op.outputs[0]].shape) == 0


@pytest.fixture(scope="module", params=sorted(BUILDERS))
def built(request):
    g = modelgen.Graph(seed=2)
    g.output(*BUILDERS[request.param](g))
    data = g.build()
    m = model.parse(data, f"{request.param}.tflite")
    xs = profiler.random_inputs(m, seed=7)
    return request.param, data, m, xs, tflm_outputs(data, xs)


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    name, _, m, xs, want = built
    prof = profiler.run(m, Build(path), inputs=xs)
    assert len(prof.outputs) == len(want)
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.dtype == exp.dtype and got.shape == exp.shape, (name, k)
        if name == "space_to_batch_nd":
            # TFLM pads with a SpaceToBatchParams.output_offset nothing writes (whatever
            # its arena held there); armsim with 0
            pad = padding_mask(m, k)
            assert pad.any() == (k != 0), k          # output 0 has no padding
            assert not got[pad].any(), (name, path, k)
            got, exp = got[~pad], exp[~pad]
        assert np.array_equal(got, exp), (name, path, k, np.argwhere(got != exp)[:5])
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o


def tflm_refuses(data):
    """Whether TFLM's interpreter fails to build or run the model (Prepare or Eval error)."""
    xs = profiler.random_inputs(model.parse(data, "refused.tflite"), seed=1)
    try:
        tflm_outputs(data, xs)
    except (RuntimeError, ValueError):
        return True
    return False


def refused(g, match, tflm_too=True):
    """armsim refuses the graph in one line matching `match`; TFLM's interpreter refuses it
    too (`tflm_too`), or runs it (armsim refuses what its kernel would write out of bounds)."""
    data = g.build()
    with pytest.raises(ModelError, match=match) as e:
        prepare.prepare(model.parse(data, "refused.tflite"))
    assert "\n" not in str(e.value)
    if tflm_too is not None:
        assert tflm_refuses(data) == tflm_too


def resize_raw(g, method, x, size_tensor, out_shape):
    y = g.tensor(out_shape, "int8", *g.quant(x))
    return g._op(getattr(BO, f"RESIZE_{method}"), [x, size_tensor], [y])


@pytest.mark.parametrize("method", ["NEAREST_NEIGHBOR", "BILINEAR"])
def test_resize_refusals(method):
    op = f"RESIZE_{method}"
    g = modelgen.Graph()
    x = g.input((1, 2, 3, 2), scale=0.1)
    g.output(resize_raw(g, method, x, g.input((2,), dtype="int32"), (1, 4, 6, 2)))
    refused(g, f"{op}.*size .* not constant")
    g = modelgen.Graph()
    x = g.input((2, 3, 2), scale=0.1)
    g.output(resize_raw(g, method, x, g.tensor((2,), "int32", data=[4, 6]), (4, 6, 2)))
    refused(g, f"{op}.*rank 3; TFLM takes 4")
    g = modelgen.Graph()
    x = g.input((1, 2, 3, 2), scale=0.1)
    g.output(resize_raw(g, method, x, g.tensor((3,), "int32", data=[4, 6, 1]), (1, 4, 6, 2)))
    if method == "NEAREST_NEIGHBOR":
        refused(g, f"{op}.*size .*INT32 \\[3\\]; TFLM takes INT32 \\[2\\]")
    g = modelgen.Graph()
    x = g.input((1, 2, 3, 2), scale=0.1)
    g.output(resize_raw(g, method, x, g.tensor((2,), "int64", data=[4, 6]), (1, 4, 6, 2)))
    refused(g, f"{op}.*size .*INT64")
    g = modelgen.Graph()
    x = g.input((1, 2, 3, 2), scale=0.1)
    g.output(resize_raw(g, method, x, g.tensor((2,), "int32", data=[4, 6]), (1, 4, 5, 2)))
    refused(g, f"{op}.*size \\[4, 6\\] makes it \\[1, 4, 6, 2\\]", tflm_too=False)


def test_resize_bilinear_refusals():
    g = modelgen.Graph()
    x = g.input((1, 2, 3, 2), scale=0.1)
    g.output(g.resize(x, (4, 6), "BILINEAR", align_corners=True, half_pixel_centers=True))
    refused(g, "RESIZE_BILINEAR.*half_pixel_centers and align_corners both set")
    g = modelgen.Graph()
    x = g.input((1, 2, 3, 2), dtype="int16", scale=0.1)
    g.output(g.resize(x, (4, 6), "BILINEAR"))
    refused(g, "RESIZE_BILINEAR.*INT16: TFLM's Eval takes float32 or int8")


def test_resize_bilinear_size_of_three_reads_two():
    """TFLM's bilinear Prepare takes a size of any length; its kernel reads two values."""
    g = modelgen.Graph(seed=3)
    x = g.input((1, 2, 3, 2), scale=0.1, zero_point=1)
    g.output(resize_raw(g, "BILINEAR", x, g.tensor((3,), "int32", data=[4, 5, 9]),
                        (1, 4, 5, 2)))
    data = g.build()
    m = model.parse(data, "size3.tflite")
    xs = profiler.random_inputs(m, seed=2)
    (want,) = tflm_outputs(data, xs)
    (got,) = profiler.run(m, Build("scalar"), inputs=xs).outputs
    assert np.array_equal(got, want)


def test_traced_run_equals_counted_run():
    """Each port traces exactly what it counts (scalar build; one model of every op)."""
    g = modelgen.Graph(seed=6)
    for build in BUILDERS.values():
        g.output(*build(g)[:3])
    m = model.parse(g.build(), "traced.tflite")
    values = dict(zip(m.inputs, profiler.random_inputs(m, seed=4)))
    for step in prepare.prepare(m):
        tracer = Tracer()
        mt, _, _, out_t = harness.run_step(step, values, Build("scalar"), tracer=tracer)
        mc, _, _, out_c = harness.run_step(step, values, Build("scalar"))
        assert np.array_equal(out_t, out_c), step.op
        assert machine.counts(mt) == machine.counts(mc), step.op
        assert len(tracer.records) == sum(machine.counts(mc).values()), step.op


def batch_space_raw(g, to_batch, x, block, margins, out_shape, dtype="int8"):
    y = g.tensor(out_shape, dtype, *g.quant(x))
    b = g.tensor((len(block),), "int32", data=block)
    mg = g.tensor((len(margins), 2), "int32", data=margins)
    return g._op(BO.SPACE_TO_BATCH_ND if to_batch else BO.BATCH_TO_SPACE_ND, [x, b, mg], [y])


@pytest.mark.parametrize("to_batch", [False, True])
def test_batch_space_refusals(to_batch):
    op = "SPACE_TO_BATCH_ND" if to_batch else "BATCH_TO_SPACE_ND"
    g = modelgen.Graph()
    x = g.input((4, 6), scale=0.1)
    g.output(batch_space_raw(g, to_batch, x, [1], [[0, 0]], (4, 6)))
    refused(g, f"{op}.*input .* rank 2; TFLM takes 3 or 4")
    g = modelgen.Graph()
    x = g.input((4, 2, 2, 2, 2), scale=0.1)
    g.output(batch_space_raw(g, to_batch, x, [1, 1, 1], [[0, 0]] * 3, (4, 2, 2, 2, 2)))
    refused(g, f"{op}.*input .* rank 5; TFLM takes 3 or 4")
    g = modelgen.Graph()
    x = g.input((4, 2, 2, 2), scale=0.1)
    g.output(batch_space_raw(g, to_batch, x, [1, 1], [[0, 0]] * 2, (4, 2, 2, 2), "int16"))
    refused(g, f"{op}.*input INT8, output INT16: TFLM takes the same type")
    g = modelgen.Graph()
    x = g.input((4, 2, 2, 2), scale=0.1, dtype="int16")
    g.output(batch_space_raw(g, to_batch, x, [1, 1], [[0, 0]] * 2, (4, 2, 2, 2), "int16"))
    refused(g, f"{op}.*INT16: TFLM's Eval takes float32 or int8")
    g = modelgen.Graph()
    x = g.input((4, 2, 2, 2), scale=0.1)
    g.output(batch_space_raw(g, to_batch, x, [1, 1], [[0, 0]] * 2, (4, 2, 1, 2)))
    refused(g, f"{op}.*make it \\[4, 2, 2, 2\\]", tflm_too=False)
    g = modelgen.Graph()
    x = g.input((4, 2, 2, 2), scale=0.1)
    g.output(batch_space_raw(g, to_batch, x, [0, 1], [[0, 0]] * 2, (4, 2, 2, 2)))
    refused(g, f"{op}.*block shape \\[0, 1\\] must be >= 1", tflm_too=None)  # TFLM: / 0


def test_l2_pool_2d_int8_refused_as_tflm_refuses_it():
    g = modelgen.Graph()
    g.output(g.l2_pool2d(g.input((1, 4, 4, 3), scale=0.1), (2, 2)))
    refused(g, "L2_POOL_2D.*INT8: TFLM's L2_POOL_2D takes float32 only")


def test_l2_pool_2d_float32_runs_on_the_host_as_tflm():
    g = modelgen.Graph()
    g.output(g.l2_pool2d(g.input((1, 4, 6, 3), dtype="float32"), (2, 3), padding="SAME"))
    data = g.build()
    m = model.parse(data, "l2.tflite")
    (step,) = prepare.prepare(m)
    assert step.host
    xs = profiler.random_inputs(m, seed=3)
    prof = profiler.run(m, Build("scalar"), inputs=xs)
    assert not prof.ops[0].simulated
    assert np.array_equal(prof.outputs[0], tflm_outputs(data, xs)[0])


@pytest.mark.parametrize("value, per_channel", [(5, 56), (-5, 58)])
def test_resize_bilinear_channel_loop_matches_disassembly(value, per_channel):
    """gcc's channel loop of ResizeBilinearInteger<int8_t> (0x29a..0x34e, 60 instructions):
    two of ITEET's four fail, and a positive sum skips the 0xFFFFF bias (LDR, ADDS)."""
    def instructions(channels):
        g = modelgen.Graph()
        x = g.input((1, 3, 3, channels), scale=0.1)
        g.output(g.resize(x, (5, 5), "BILINEAR"))
        m = model.parse(g.build(), "channels.tflite")
        xs = [np.full((1, 3, 3, channels), value, np.int8)]
        return profiler.run(m, Build("scalar"), inputs=xs).ops[0].instructions
    assert instructions(9) - instructions(1) == 8 * 25 * per_channel
