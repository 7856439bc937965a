"""L2_NORMALIZATION (int8: L2Normalization) on TFLM's counted reference kernel: ranks, zero
points, the kernel's special rows (sums 0, 1 and >= 2^29), bit-exact with TFLM's interpreter
on every path; its Prepare's refusals checked against the interpreter."""
import numpy as np
import pytest

from armsim.data import modelgen
from armsim.pipeline import model, profiler
from armsim.pipeline.build import Build
from model_helpers import (REFERENCE_PATHS, assert_traced_equals_counted, refused_by_both,
                           tflm_outputs, unary_model)


def test_l2_normalization_bit_exact():
    """Ranks 1..4, zero points, a row at the zero point (sum 0), a row of sum 1, a row whose
    sum reaches 2^29 (GetInvSqrtQuantizedMultiplierExp's divide-by-4 loop); the output's own
    quantization is ignored by TFLM's kernel (1/128 written whatever it says)."""
    g = modelgen.Graph(seed=45)
    ins = [g.input((2, 3, 16), scale=0.05, zero_point=-7), g.input((5,), scale=0.5, zero_point=100),
           g.input((1, 2, 2, 30), scale=0.01, zero_point=0),
           g.input((3, 4), scale=0.01, zero_point=5), g.input((1, 9000), scale=0.1, zero_point=127)]
    outs = [g.l2_normalization(x) for x in ins[:-2]]
    outs += [g.l2_normalization(ins[3], out_scale=0.3, out_zero_point=9),
             g.l2_normalization(ins[4])]
    g.output(*outs)
    data = g.build()
    m = model.parse(data, "l2.tflite")
    xs = profiler.random_inputs(m, seed=46)
    xs[3][1] = 5                                  # sum 0
    xs[3][2] = [5, 6, 5, 5]                       # sum 1
    xs[4][:] = -128                               # 9000 x 255^2 >= 2^29
    want = tflm_outputs(data, xs, arena_size=1 << 17)
    for path in REFERENCE_PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        for k, (got, exp) in enumerate(zip(prof.outputs, want)):
            assert np.array_equal(got, exp), (path, k)
        for o in prof.ops:
            assert o.simulated and o.reference and "L2Normalization" in o.kernel, o

@pytest.mark.parametrize("activation", ["RELU", "RELU6", "RELU_N1_TO_1"])
def test_l2_normalization_activation_refused(activation):
    data, xs = unary_model(lambda g, x: g.l2_normalization(x, activation=activation))
    refused_by_both(data, xs, "L2_NORMALIZATION", "requires NONE")


def test_l2_normalization_rank_5_and_int16_refused():
    data, xs = unary_model(lambda g, x: g.l2_normalization(x), shape=(1, 2, 1, 2, 3))
    refused_by_both(data, xs, "L2_NORMALIZATION", "at most 4")
    data, xs = unary_model(lambda g, x: g.l2_normalization(x, out_scale=0.001), dtype="int16")
    refused_by_both(data, xs, "L2_NORMALIZATION", "INT16")


def test_traced_run_equals_counted_run():
    g = modelgen.Graph(seed=41)
    x = g.input((2, 3, 4), scale=0.05, zero_point=-3)
    g.output(g.l2_normalization(x))
    m = model.parse(g.build(), "traced.tflite")
    assert_traced_equals_counted(m, profiler.random_inputs(m, seed=42))
