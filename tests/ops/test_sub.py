"""SUB (int8) on TFLM's counted reference kernel: scales and zero points on both sides, fused
activations, bit-exact with the TFLM interpreter on all three paths, each op simulated
(counted); a broadcast SUB runs BroadcastQuantSubSlow (more: tests/ops/test_broadcast_binary.py)."""
import numpy as np
import pytest
import tflite
from model_helpers import tflm_outputs

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.pipeline.build import Build

PATHS = ("simd", "scalar", "reference")
ACT = tflite.ActivationFunctionType


def sub(g, a, b, scale, zero_point, activation=ACT.NONE):
    y = g.tensor(np.broadcast_shapes(g.shape(a), g.shape(b)), "int8", scale, zero_point)
    return g._op(tflite.BuiltinOperator.SUB, [a, b], [y], tflite.BuiltinOptions.SubOptions,
                 (tflite.SubOptionsStart, [(tflite.SubOptionsAddFusedActivationFunction,
                                            activation)], tflite.SubOptionsEnd))


@pytest.fixture(scope="module")
def built():
    g = modelgen.Graph(seed=15)
    a = g.input((2, 5, 6), scale=0.05, zero_point=-7, name="a")
    b = g.input((2, 5, 6), scale=0.03, zero_point=12, name="b")
    g.output(sub(g, a, b, 0.06, 3), sub(g, b, a, 0.1, -20, ACT.RELU),
             sub(g, a, a, 0.02, 0, ACT.RELU6), sub(g, a, b, 0.01, -128, ACT.RELU_N1_TO_1))
    data = g.build()
    m = model.parse(data, "sub.tflite")
    xs = profiler.random_inputs(m, seed=16)
    return m, xs, tflm_outputs(data, xs)


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_simulated(built, path):
    m, xs, want = built
    prof = profiler.run(m, Build(path), inputs=xs)
    for k, (got, exp) in enumerate(zip(prof.outputs, want)):
        assert got.shape == exp.shape and np.array_equal(got, exp), (path, k)
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o


def test_broadcast_sub_is_simulated():
    g = modelgen.Graph()
    a = g.input((2, 3), scale=0.05)
    b = g.input((1, 3), scale=0.05)
    g.output(sub(g, a, b, 0.05, 0))
    (step,) = prepare.prepare(model.parse(g.build(), "sub_b.tflite"))
    assert step.reference_only and not step.host and step.case["input2_shape"] == [1, 3]


def test_int16_sub_is_simulated_and_matches_tflm():
    """int16 SUB (left shift 15, halfwords) runs the reference port on every path, bit-exact
    with TFLM's interpreter."""
    g = modelgen.Graph(seed=17)
    a = g.input((2, 3, 4), scale=0.001, dtype="int16")
    b = g.input((2, 3, 4), scale=0.0015, dtype="int16")
    y = g.tensor((2, 3, 4), "int16", 0.002, 0)
    g._op(tflite.BuiltinOperator.SUB, [a, b], [y], tflite.BuiltinOptions.SubOptions,
          (tflite.SubOptionsStart, [], tflite.SubOptionsEnd))
    g.output(y)
    data = g.build()
    m = model.parse(data, "sub16.tflite")
    (step,) = prepare.prepare(m)
    assert not step.host and step.case["left_shift"] == 15 and step.case["elem"] == 2
    xs = profiler.random_inputs(m, seed=18)
    want = tflm_outputs(data, xs)[0]
    for path in ("simd", "scalar", "reference"):
        assert np.array_equal(profiler.run(m, Build(path), inputs=xs).outputs[0], want), path
