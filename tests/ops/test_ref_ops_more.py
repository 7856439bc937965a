"""PRELU, SQUARED_DIFFERENCE and MIRROR_PAD (int8) on TFLM's counted reference kernels:
models built with armsim.data.modelgen, bit-exact with the TFLM interpreter on all three paths,
each op simulated (counted), broadcasting where TFLM's kernel has it, and the refusals."""
import numpy as np
import pytest

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.cpu import machine
from armsim.cpu.kernel import Tracer
from armsim.errors import ModelError
from armsim.pipeline.build import Build
from armsim.pipeline import harness
from model_helpers import tflm_outputs

PATHS = ("simd", "scalar", "reference")


def run_all_paths(data, name, seed):
    """Each path's outputs equal TFLM's, every op simulated on TFLM's reference kernel."""
    m = model.parse(data, name)
    xs = profiler.random_inputs(m, seed=seed)
    want = tflm_outputs(data, xs)
    for path in PATHS:
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


# --- PRELU ---------------------------------------------------------------------------------

def prelu_model():
    g = modelgen.Graph(seed=31)
    x = g.input((1, 4, 5, 6), scale=0.04, zero_point=-9, name="x")
    a_in = g.input((1, 4, 5, 6), scale=0.02, zero_point=7, name="alpha_in")
    per_channel = g.rng.integers(-128, 128, (6,))
    g.output(
        g.prelu(x, a_in, out_scale=0.05, out_zero_point=4),              # same shapes, both inputs
        g.prelu(x, per_channel, alpha_scale=0.008, alpha_zero_point=-3,
                out_scale=0.03, out_zero_point=-20),                     # alpha per channel [6]
        g.prelu(x, np.array([[[90]], [[-40]], [[0]], [[127]]]), alpha_scale=0.01,
                out_scale=0.02, out_zero_point=10),                      # alpha [4, 1, 1]
        g.prelu(x, np.array([[-128]]), alpha_scale=0.05, alpha_zero_point=20,
                out_scale=0.01, out_zero_point=-128),                    # one alpha, clamps
    )
    return g.build()


def test_prelu_bit_exact_vs_tflite_micro_on_every_path():
    m, _ = run_all_paths(prelu_model(), "prelu.tflite", seed=32)
    assert [s.op for s in prepare.prepare(m)] == ["PRELU"] * 4


def test_prelu_alpha_not_broadcasting_refused():
    g = modelgen.Graph()
    x = g.input((2, 3), scale=0.05)
    a = g.input((2, 3), scale=0.05)
    y = g.prelu(x, a)
    g.tensors[a].shape = (2, 2)
    g.output(y)
    with pytest.raises(ModelError, match=r"PRELU.*alpha shape \[2, 2\] does not broadcast"):
        prepare.prepare(model.parse(g.build(), "prelu_bad.tflite"))


def test_prelu_rank_5_refused():
    g = modelgen.Graph()
    x = g.input((1, 2, 1, 2, 3), scale=0.05)
    g.output(g.prelu(x, np.ones(3)))
    with pytest.raises(ModelError, match=r"PRELU.*input .* has rank 5: TFLM's "
                                         r"BroadcastPrelu4DSlow takes at most 4"):
        prepare.prepare(model.parse(g.build(), "prelu_rank5.tflite"))


# --- SQUARED_DIFFERENCE --------------------------------------------------------------------

def squared_difference_model():
    g = modelgen.Graph(seed=41)
    a = g.input((2, 3, 4, 5), scale=0.03, zero_point=-11, name="a")
    b = g.input((2, 3, 4, 5), scale=0.05, zero_point=6, name="b")
    row = g.input((5,), scale=0.04, zero_point=0, name="row")
    col = g.input((3, 1, 1), scale=0.02, zero_point=-128, name="col")
    const = g.tensor((1, 4, 1), "int8", 0.06, 9, data=np.array([[[-100], [0], [57], [127]]]),
                     name="const")
    sd = g.squared_difference
    g.output(sd(a, b, out_scale=0.05, out_zero_point=-120),            # equal shapes
             sd(b, a, out_scale=0.002, out_zero_point=-128),           # mostly clamped
             sd(a, row, out_scale=0.01, out_zero_point=-100),          # [5] broadcast
             sd(col, a, out_scale=0.03, out_zero_point=3),             # [3, 1, 1] broadcast
             sd(a, const),                                             # constant [1, 4, 1]
             sd(row, col, out_scale=0.004, out_zero_point=-64))        # both broadcast
    return g.build()


def test_squared_difference_bit_exact_vs_tflite_micro_on_every_path():
    m, _ = run_all_paths(squared_difference_model(), "squared_difference.tflite", seed=42)
    assert [s.op for s in prepare.prepare(m)] == ["SQUARED_DIFFERENCE"] * 6


def test_squared_difference_mixed_types_refused_as_tflm_does():
    g = modelgen.Graph()
    a = g.input((2, 3), scale=0.05)
    b = g.input((2, 3), scale=0.05, dtype="int16")
    g.output(g.squared_difference(a, b, out_scale=0.05))
    data = g.build()
    with pytest.raises(ModelError, match=r"SQUARED_DIFFERENCE.*input1 .* is INT8, input2 .* "
                                         r"INT16 \(TFLM requires equal types\)"):
        prepare.prepare(model.parse(data, "sd_types.tflite"))
    with pytest.raises(RuntimeError):
        tflm_outputs(data, [np.zeros((2, 3), np.int8), np.zeros((2, 3), np.int16)])


# --- MIRROR_PAD ----------------------------------------------------------------------------

def mirror_pad_model():
    g = modelgen.Graph(seed=51)
    x = g.input((1, 3, 4, 5), scale=0.05, zero_point=-4, name="x")
    row = g.input((6,), scale=0.02, zero_point=9, name="row")
    grid = g.input((2, 3, 4), scale=0.03, zero_point=0, name="grid")
    mp = g.mirror_pad
    g.output(mp(x, [[0, 0], [2, 1], [3, 3], [0, 4]], "REFLECT"),        # the widest REFLECT
             mp(x, [[1, 0], [3, 3], [0, 4], [5, 2]], "SYMMETRIC"),      # the widest SYMMETRIC
             mp(row, [[5, 0]], "REFLECT", paddings_dtype="int64"),      # int64 paddings
             mp(row, [[2, 6]], "SYMMETRIC"),
             mp(grid, [[1, 1], [0, 0], [1, 2]], "REFLECT"),
             mp(grid, [[0, 2], [1, 1], [0, 0]], "SYMMETRIC", paddings_dtype="int64"))
    return g.build()


def test_mirror_pad_both_modes_bit_exact_vs_tflite_micro_on_every_path():
    m, _ = run_all_paths(mirror_pad_model(), "mirror_pad.tflite", seed=52)
    assert [s.case["offset"] for s in prepare.prepare(m)] == [1, 0, 1, 0, 1, 0]


def test_mirror_pad_paddings_rows_not_input_rank_refused_as_tflm_does():
    g = modelgen.Graph()
    x = g.input((2, 3), scale=0.05)
    y = g.mirror_pad(x, [[1, 1], [1, 1]])
    g.ops[-1].inputs[1] = g.tensor((3, 2), "int32", data=np.ones((3, 2)), name="pads3")
    g.output(y)
    data = g.build()
    with pytest.raises(ModelError, match=r"MIRROR_PAD.*paddings .* have shape \[3, 2\]: "
                                         r"TFLM's Prepare requires \[2, 2\]"):
        prepare.prepare(model.parse(data, "mirror_pad_rows.tflite"))
    with pytest.raises(RuntimeError):
        tflm_outputs(data, [np.zeros((2, 3), np.int8)])


@pytest.mark.parametrize("mode, pad", [("REFLECT", 3), ("SYMMETRIC", 4)])
def test_mirror_pad_beyond_the_mirror_refused(mode, pad):
    g = modelgen.Graph()
    x = g.input((2, 3), scale=0.05)
    g.output(g.mirror_pad(x, [[0, 0], [0, pad]], mode))
    with pytest.raises(ModelError, match=rf"MIRROR_PAD.*paddings \[0, {pad}\] of dim 1 "
                                         rf"\(size 3\) outside"):
        prepare.prepare(model.parse(g.build(), "mirror_pad_far.tflite"))


def test_mirror_pad_requests_two_scratch_buffers_of_rank_ints():
    from armsim.pipeline import arena
    g = modelgen.Graph()
    x = g.input((2, 3, 4), scale=0.05)
    g.output(g.mirror_pad(x, [[1, 1], [0, 2], [1, 0]]))
    m = model.parse(g.build(), "mirror_pad_arena.tflite")
    p = arena.plan(m, prepare.prepare(m), Build("reference"))
    assert sorted(b.size for b in p.buffers if b.kind == "scratch") == [12, 12]
    assert p.tail_parts["scratch_handles"] == 2 * arena.SCRATCH_HANDLE
