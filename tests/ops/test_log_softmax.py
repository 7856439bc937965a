"""LOG_SOFTMAX (int8: LogSoftmaxQuantized) on TFLM's counted reference kernel: row lengths
and ranks, input scales and zero points, a constant row, bit-exact with TFLM's interpreter on
every path; its Prepare's refusals checked against the interpreter."""
import numpy as np
import pytest

from armsim.data import modelgen
from armsim.pipeline import model, profiler
from armsim.pipeline.build import Build
from model_helpers import (REFERENCE_PATHS, assert_traced_equals_counted, refused_by_both,
                           tflm_outputs, unary_model)


def test_log_softmax_bit_exact():
    """Row lengths 1..300, ranks 1..4, input scales from 0.004 to 2 (diff_min cuts rows at
    the small ones), a constant row."""
    g = modelgen.Graph(seed=43)
    shapes_scales = [((2, 3, 16), 0.05, -7), ((5,), 0.5, 100), ((1, 2, 300), 0.004, 0),
                     ((3, 4), 2.0, 5), ((2, 1, 1, 1), 0.1, 0), ((4, 7), 0.02, -128)]
    ins = [g.input(shape, scale=scale, zero_point=zp) for shape, scale, zp in shapes_scales]
    g.output(*[g.log_softmax(x) for x in ins])
    data = g.build()
    m = model.parse(data, "log_softmax.tflite")
    xs = profiler.random_inputs(m, seed=44)
    xs[3][1] = 5                                  # a constant row
    want = tflm_outputs(data, xs)
    for path in REFERENCE_PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        for k, (got, exp) in enumerate(zip(prof.outputs, want)):
            assert np.array_equal(got, exp), (path, k)
        for o in prof.ops:
            assert o.simulated and o.reference and o.instructions > 0, o
            assert "LogSoftmaxQuantized" in o.kernel

@pytest.mark.parametrize("kw, needle", [({"out_scale": 0.0625001}, "requires 16/256"),
                                        ({"out_zero_point": 0}, "zero point 0")])
def test_log_softmax_output_quantization_refused(kw, needle):
    data, xs = unary_model(lambda g, x, **k: g.log_softmax(x, **k), **kw)
    refused_by_both(data, xs, "LOG_SOFTMAX", needle)


def test_log_softmax_int16_refused():
    data, xs = unary_model(lambda g, x: g.log_softmax(x, out_scale=0.001, out_zero_point=0),
                            dtype="int16")
    refused_by_both(data, xs, "LOG_SOFTMAX", "INT16")


def test_traced_run_equals_counted_run():
    g = modelgen.Graph(seed=41)
    x = g.input((2, 3, 4), scale=0.05, zero_point=-3)
    g.output(g.log_softmax(x))
    m = model.parse(g.build(), "traced.tflite")
    assert_traced_equals_counted(m, profiler.random_inputs(m, seed=42))
