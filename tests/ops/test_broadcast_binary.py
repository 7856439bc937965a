"""ADD, MUL and SUB with broadcasting (int8, int16) on TFLM's counted reference kernels
(kernels/tflm/broadcast_binary.py), whole modelgen models bit-exact with TFLM's interpreter
on simd / scalar / reference, the op simulated (counted).  TFLM's CMSIS-NN glue falls back to
the reference BroadcastAdd4DSlow / BroadcastMul4DSlow (BroadcastBinaryOpSimple), so every
path runs that port, marked reference; shapes whose extended forms are equal stay
elementwise (CMSIS-NN).  SUB (int8, reference only): BroadcastQuantSubSlow on the same loop.
"""
import numpy as np
import pytest

from armsim.data import modelgen
from armsim.kernels.tflm.broadcast_binary import fused_loops
from armsim.pipeline import model, prepare, profiler
from armsim.pipeline.build import Build
from model_helpers import assert_traced_equals_counted, check_every_path

ACTIVATIONS = ("NONE", "RELU", "RELU6", "RELU_N1_TO_1")

BROADCAST_SHAPES = [
    ((2, 3, 1), (1, 3, 4)),            # both broadcast
    ((1, 4, 4, 3), (3,)),              # per-channel vector, lower rank
    ((1,), (2, 5)),                    # a scalar first
    ((2, 1, 3, 1, 2), (1, 4, 1, 5, 1)),  # 5-D, alternating
    ((2, 1, 2, 1, 2, 3), (1, 2, 1, 2, 1, 1)),  # 6-D
]


def test_fused_loops_cover_the_broadcast():
    """The host set-up's loop nest addresses every output once with numpy's broadcast."""
    rng = np.random.default_rng(0)
    for s1, s2 in BROADCAST_SHAPES + [((3, 4), (1, 4)), ((1, 4), (4,))]:
        out_shape = np.broadcast_shapes(s1, s2)
        a, b = rng.integers(0, 1000, s1), rng.integers(0, 1000, s2)
        dims, top, o_shape, a_st, b_st, o_st, _ = fused_loops(s1, s2, out_shape)
        got = np.full(int(np.prod(out_shape)), -1)
        fa, fb = a.ravel(), b.ravel()
        for idx in np.ndindex(*[o_shape[k] for k in range(top, -1, -1)]):
            digits = idx[::-1]
            i = sum(d * a_st[k] for k, d in enumerate(digits))
            j = sum(d * b_st[k] for k, d in enumerate(digits))
            o = sum(d * o_st[k] for k, d in enumerate(digits))
            got[o] = fa[i] * 1000 + fb[j]
        assert np.array_equal(got, (a * 1000 + b).ravel()), (s1, s2)


@pytest.mark.parametrize("op", ["add", "mul"])
def test_broadcast_int8_bit_exact_every_shape_and_activation(op):
    g = modelgen.Graph(seed=21)
    outs, reference = [], []
    for k, (s1, s2) in enumerate(BROADCAST_SHAPES):
        a = g.input(s1, scale=0.05, zero_point=-7 + k)
        b = g.input(s2, scale=0.03, zero_point=12 - 3 * k)
        scale = 0.07 if op == "add" else 0.02
        outs.append(getattr(g, op)(a, b, ACTIVATIONS[k % 4], out_scale=scale,
                                   out_zero_point=3 - k))
        outs.append(getattr(g, op)(b, a, ACTIVATIONS[(k + 1) % 4], out_scale=scale * 2,
                                   out_zero_point=-20))
        reference += [True, True]
    same = g.input((1, 6), scale=0.05, zero_point=1)     # extended shapes equal: elementwise
    outs.append(getattr(g, op)(same, g.input((6,), scale=0.04, zero_point=-2), out_scale=0.1))
    reference.append(False)
    g.output(*outs)
    profiles = check_every_path(g.build(), f"{op}_b.tflite", 22, dict(enumerate(reference)))
    for o in profiles["simd"].ops[:-1]:
        assert "Broadcast" in o.kernel and "BroadcastBinaryOpSimple" in o.kernel, o.kernel
    assert "arm_elementwise" in profiles["simd"].ops[-1].kernel


@pytest.mark.parametrize("op", ["add", "mul"])
def test_broadcast_constant_operand_and_int16(op):
    """A constant operand (a bias-like vector, read from flash) and the int16 instances
    (zero points 0, as cmsis_nn/add.cc and mul_common.cc require)."""
    g = modelgen.Graph(seed=23)
    x = g.input((1, 3, 3, 4), scale=0.05, zero_point=-3)
    c = g.tensor((4,), "int8", 0.02, 5, data=np.array([-100, -1, 60, 127], np.int8))
    y = g.input((2, 1, 4), scale=0.001, zero_point=0, dtype="int16")
    z = g.input((3, 1), scale=0.002, zero_point=0, dtype="int16")
    scale16 = 0.004 if op == "add" else 0.00001
    g.output(getattr(g, op)(x, c, out_scale=0.1 if op == "add" else 0.01, out_zero_point=4),
             getattr(g, op)(y, z, "RELU", out_scale=scale16),
             getattr(g, op)(z, y, out_scale=scale16))
    profiles = check_every_path(g.build(), f"{op}_c.tflite", 24, {0: True, 1: True, 2: True})
    assert "<short>" in profiles["scalar"].ops[1].kernel


def test_broadcast_runs_every_element_once():
    """The counted loop's stores: one per output element (a larger broadcast costs more)."""
    def instructions(shape):
        g = modelgen.Graph(seed=25)
        a = g.input(shape, scale=0.05)
        b = g.input((shape[-1],), scale=0.05)
        g.output(g.add(a, b, out_scale=0.1))
        m = model.parse(g.build(), "n.tflite")
        (o,) = profiler.run(m, Build("simd")).ops
        return o.mnemonics
    small, large = instructions((2, 3, 4)), instructions((4, 3, 4))
    store = lambda c: sum(n for k, n in c.items() if k.lower().startswith("strb"))   # noqa: E731
    assert store(large) - store(small) == 24


def test_broadcast_steps_are_reference_only():
    g = modelgen.Graph()
    a = g.input((2, 3), scale=0.05)
    b = g.input((1, 3), scale=0.05)
    g.output(g.add(a, b), g.mul(a, b))
    for step in prepare.prepare(model.parse(g.build(), "s.tflite")):
        assert step.reference_only and not step.host
        assert step.case["input1_shape"] == [2, 3] and step.case["input2_shape"] == [1, 3]


def test_broadcast_sub_every_shape_activation_and_a_constant():
    """SUB: TFLM's BroadcastQuantSubSlow (reference on every path), a constant operand read
    from flash, and shapes whose extended forms are equal (Sub, elementwise)."""
    import tflite

    def sub(g, a, b, scale, zero_point, activation):
        code = dict(NONE=0, RELU=1, RELU_N1_TO_1=2, RELU6=3)[activation]
        y = g.tensor(np.broadcast_shapes(g.shape(a), g.shape(b)), "int8", scale, zero_point)
        return g._op(tflite.BuiltinOperator.SUB, [a, b], [y], tflite.BuiltinOptions.SubOptions,
                     (tflite.SubOptionsStart, [(tflite.SubOptionsAddFusedActivationFunction,
                                                code)], tflite.SubOptionsEnd))

    g = modelgen.Graph(seed=27)
    outs = []
    for k, (s1, s2) in enumerate(BROADCAST_SHAPES):
        a = g.input(s1, scale=0.05, zero_point=-7 + k)
        b = g.input(s2, scale=0.03, zero_point=12 - 3 * k)
        outs += [sub(g, a, b, 0.07, 3 - k, ACTIVATIONS[k % 4]),
                 sub(g, b, a, 0.09, -20, ACTIVATIONS[(k + 1) % 4])]
    x = g.input((2, 3, 4), scale=0.05, zero_point=1)
    c = g.tensor((4,), "int8", 0.02, -5, data=np.array([-128, -1, 60, 127], np.int8))
    outs += [sub(g, x, c, 0.1, 2, "NONE"), sub(g, c, x, 0.1, 2, "RELU"),
             sub(g, g.input((1, 6), scale=0.05), g.input((6,), scale=0.04), 0.1, 0, "NONE")]
    g.output(*outs)
    n = len(outs)
    profiles = check_every_path(g.build(), "sub_b.tflite", 28, {k: True for k in range(n)})
    kernels = [o.kernel for o in profiles["simd"].ops]
    assert all("BroadcastQuantSubSlow" in k for k in kernels[:-1]), kernels
    assert "SubElementwise" in kernels[-1]


@pytest.mark.parametrize("op", ["add", "mul"])
def test_elementwise_constant_operand_runs_cmsis_nn(op):
    """Without a broadcast a constant operand goes to arm_elementwise_* like an activation."""
    g = modelgen.Graph(seed=29)
    x = g.input((2, 4), scale=0.05, zero_point=-3)
    c = g.tensor((2, 4), "int8", 0.02, 5, data=np.arange(-60, 60, 15, dtype=np.int8))
    g.output(getattr(g, op)(c, x, out_scale=0.1 if op == "add" else 0.01, out_zero_point=4))
    profiles = check_every_path(g.build(), f"{op}_e.tflite", 30, {0: False})
    assert "arm_elementwise" in profiles["simd"].ops[0].kernel



def test_traced_run_equals_counted_run():
    g = modelgen.Graph(seed=41)
    x = g.input((2, 3, 4), scale=0.05, zero_point=-3)
    row = g.input((4,), scale=0.03, zero_point=2)
    g.output(g.add(x, row, out_scale=0.1), g.mul(row, x, out_scale=0.01))
    m = model.parse(g.build(), "traced.tflite")
    assert_traced_equals_counted(m, profiler.random_inputs(m, seed=42))
