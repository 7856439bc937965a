"""RELU, RELU6, LEAKY_RELU, ABS, HARD_SWISH, LOGISTIC and TANH (int8) on TFLM's counted reference kernels: one-op models built
with armsim.data.modelgen, every int8 input value, bit-exact with the TFLM interpreter on all three
paths, each op simulated (counted), and the Prepare refusals TFLM makes."""
import numpy as np
import pytest
import tflite

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.errors import ModelError
from armsim.pipeline.build import Build
from model_helpers import tflm_outputs

PATHS = ("simd", "scalar", "reference")
BO = tflite.BuiltinOperator
ALL_INT8 = np.arange(-128, 128, dtype=np.int8).reshape(1, 4, 8, 8)


def unary(g, code, x, scale, zero_point, options=None, dtype="int8"):
    """One activation op reading `x`; `options`: (options type, (start, fields, end))."""
    y = g.tensor(g.shape(x), dtype, scale, zero_point)
    if options is None:
        return g._op(code, [x], [y])
    return g._op(code, [x], [y], *options)


def leaky(alpha):
    return (tflite.BuiltinOptions.LeakyReluOptions,
            (tflite.LeakyReluOptionsStart, [(tflite.LeakyReluOptionsAddAlpha, alpha)],
             tflite.LeakyReluOptionsEnd))


#: (input scale, input zero point) -> [(op, output scale, output zero point, options)]
MODELS = {
    "relu": ((0.05, -10), [
        (BO.RELU, 0.03, 5, None),             # output finer: left-shifting multiplier
        (BO.RELU, 0.2, -128, None),           # coarser: right shift, min at -128
        (BO.RELU, 0.05, -10, None),           # identity quantization
        (BO.RELU, 0.0125, 100, None),         # most values clamp at 127
    ]),
    "relu6": ((0.05, 3), [
        (BO.RELU6, 0.05, 3, None),            # six = 123
        (BO.RELU6, 0.5, -20, None),           # output quantization is not read by TFLM
    ]),
    "relu6_saturated": ((0.02, -128), [
        (BO.RELU6, 0.02, -128, None),         # six = 172 clamps to 127, zero = -128
    ]),
    "relu6_negative_zero_point": ((0.1, 100), [
        (BO.RELU6, 0.1, 100, None),           # six clamps at 127, zero at 100
    ]),
    "abs": ((0.04, 7), [
        (BO.ABS, 0.04, 7, None),              # same scale: no rescale
        (BO.ABS, 0.03, -128, None),           # rescaled, clamps at 127
        (BO.ABS, 0.08, -5, None),
    ]),
    "hard_swish": ((0.05, -10), [
        (BO.HARD_SWISH, 0.03, -100, None),    # reluish exponent > 0
        (BO.HARD_SWISH, 0.05, -10, None),
    ]),
    "hard_swish_fine": ((0.002, 20), [
        (BO.HARD_SWISH, 0.001, 5, None),      # reluish exponent < 0
        (BO.HARD_SWISH, 0.2, -128, None),     # a coarse output
    ]),
    "hard_swish_unit": ((0.008, -3), [
        (BO.HARD_SWISH, 0.01, 0, None),       # reluish exponent 0
    ]),
    "hard_swish_coarse": ((0.4, 127), [
        (BO.HARD_SWISH, 0.3, 0, None),        # zero point 127: hires reaches -32768
    ]),
    "logistic": ((0.05, -10), [
        (BO.LOGISTIC, 1 / 256, -128, None),
    ]),
    "logistic_wide": ((0.2, 30), [
        (BO.LOGISTIC, 1 / 256, -128, None),   # most inputs beyond the radius
    ]),
    "logistic_fine": ((0.004, -128), [
        (BO.LOGISTIC, 1 / 256, -128, None),
    ]),
    "tanh": ((0.03, 5), [
        (BO.TANH, 1 / 128, 0, None),
    ]),
    "tanh_wide": ((0.1, -40), [
        (BO.TANH, 1 / 128, 0, None),          # most inputs beyond the radius
    ]),
    "tanh_fine": ((0.002, 0), [
        (BO.TANH, 0.5, 9, None),              # output quantization not read by TFLM
    ]),
    "leaky_relu": ((0.04, 7), [
        (BO.LEAKY_RELU, 0.04, 7, leaky(0.1)),
        (BO.LEAKY_RELU, 0.02, -30, leaky(0.3)),
        (BO.LEAKY_RELU, 0.05, 0, leaky(-0.5)),   # negative alpha: the sign taken out
        (BO.LEAKY_RELU, 0.04, 7, leaky(0.0)),    # alpha 0: a zero multiplier
        (BO.LEAKY_RELU, 0.03, -2, leaky(1.5)),   # alpha > 1
    ]),
}


def build(name):
    (scale, zp), ops = MODELS[name]
    g = modelgen.Graph(seed=1)
    x = g.input(ALL_INT8.shape, scale=scale, zero_point=zp, name="x")
    g.output(*[unary(g, code, x, s, z, opts) for code, s, z, opts in ops])
    return g.build()


@pytest.fixture(scope="module", params=sorted(MODELS))
def built(request):
    data = build(request.param)
    m = model.parse(data, f"{request.param}.tflite")
    return request.param, m, tflm_outputs(data, [ALL_INT8])


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    name, m, want = built
    prof = profiler.run(m, Build(path), inputs=[ALL_INT8])
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.dtype == exp.dtype and got.shape == exp.shape
        assert np.array_equal(got, exp), (name, path, k, np.argwhere(got != exp)[:5])
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o
        assert "not simulated" not in o.kernel


def test_leaky_relu_types_must_match():
    g = modelgen.Graph()
    x = g.input((1, 8), scale=0.05, zero_point=0)
    g.output(unary(g, BO.LEAKY_RELU, x, 0.05, 0, leaky(0.2), dtype="int16"))
    m = model.parse(g.build(), "leaky_types.tflite")
    with pytest.raises(ModelError, match="LEAKY_RELU.*equal types"):
        prepare.prepare(m)


def test_relu_counts_follow_the_clamp():
    """A clamped element skips the predicated MOV: counts come from the executed path."""
    g = modelgen.Graph()
    x = g.input((1, 256), scale=0.05, zero_point=0)
    g.output(unary(g, BO.RELU, x, 0.05, 0))
    m = model.parse(g.build(), "relu_counts.tflite")
    low = profiler.run(m, Build("reference"), inputs=[np.full((1, 256), -100, np.int8)])
    high = profiler.run(m, Build("reference"), inputs=[np.full((1, 256), 100, np.int8)])
    assert low.ops[0].mnemonics.get("mov", 0) != high.ops[0].mnemonics.get("mov", 0)


def test_logistic_output_zero_point_must_be_minus_128():
    g = modelgen.Graph()
    x = g.input((1, 8), scale=0.05, zero_point=0)
    g.output(unary(g, BO.LOGISTIC, x, 1 / 256, 0))
    with pytest.raises(ModelError, match="LOGISTIC.*requires -128"):
        prepare.prepare(model.parse(g.build(), "logistic_zp.tflite"))
