"""Issue 9's reference-kernel ops of this file's port, each on whole modelgen models bit-exact
with TFLM's Python interpreter on simd / scalar / reference, the op simulated (counted):

- ADD / MUL with broadcasting (int8, int16): TFLM's CMSIS-NN glue falls back to the reference
  BroadcastAdd4DSlow / BroadcastMul4DSlow (BroadcastBinaryOpSimple), so every path runs that
  port, marked reference; shapes whose extended forms are equal stay elementwise (CMSIS-NN).
  SUB (int8, reference only): BroadcastQuantSubSlow on the same loop.
- MEAN, SUM (int8, int16: QuantizedMeanOrSum) and REDUCE_MAX (int8: ReduceGeneric) over every
  axes combination of a 4-D input and of other ranks, keep_dims true / false, negative and
  repeated axes, same and different input / output quantization; TFLM's refusals in one line,
  each checked against the interpreter.
- LOG_SOFTMAX (int8: LogSoftmaxQuantized) and L2_NORMALIZATION (int8: L2Normalization): row
  lengths and ranks, input scales and zero points, the kernels' special rows (a constant row,
  L2's sums <= 1 and >= 2^29); their Prepare refusals checked against the interpreter.
"""
import itertools

import numpy as np
import pytest
from model_helpers import tflm_outputs

import tflm_diff as td
from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.kernels.tflm.broadcast_binary import fused_loops
from armsim.errors import ModelError
from armsim.pipeline.build import Build
from armsim.pipeline import harness

PATHS = ("simd", "scalar", "reference")
ACTIVATIONS = ("NONE", "RELU", "RELU6", "RELU_N1_TO_1")


def _check(data, name, seed, expect_reference):
    """Run `data` on every path against TFLM; `expect_reference`: op index -> whether that op
    runs TFLM's reference kernel (else CMSIS-NN on simd / scalar).  Returns the profiles."""
    m = model.parse(data, name)
    xs = profiler.random_inputs(m, seed=seed)
    want = tflm_outputs(data, xs)
    profiles = {}
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        for k, (got, exp) in enumerate(zip(prof.outputs, want)):
            assert got.dtype == exp.dtype and np.array_equal(got, exp), (name, path, k)
        for o in prof.ops:
            assert o.simulated and o.instructions > 0 and o.cycles > 0, (path, o)
            assert o.reference == (expect_reference[o.index] or path == "reference"), (path, o)
        profiles[path] = prof
    return profiles


# --- ADD / MUL broadcasting --------------------------------------------------------------

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
    profiles = _check(g.build(), f"{op}_b.tflite", 22, dict(enumerate(reference)))
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
    profiles = _check(g.build(), f"{op}_c.tflite", 24, {0: True, 1: True, 2: True})
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
    profiles = _check(g.build(), "sub_b.tflite", 28, {k: True for k in range(n)})
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
    profiles = _check(g.build(), f"{op}_e.tflite", 30, {0: False})
    assert "arm_elementwise" in profiles["simd"].ops[0].kernel


# --- MEAN / SUM / REDUCE_MAX ---------------------------------------------------------------

REDUCERS = ("mean", "sum", "reduce_max")
AXES_4D = [c for k in range(1, 5) for c in itertools.combinations(range(4), k)]


def _reducer_kwargs(op, k):
    """MEAN / SUM alternate the input's quantization with another one; REDUCE_MAX keeps it
    (TFLM requires that)."""
    if op == "reduce_max" or k % 2 == 0:
        return {}
    return {"out_scale": 0.04 if op == "mean" else 0.9, "out_zero_point": 5 - k}


@pytest.mark.parametrize("op", REDUCERS)
def test_reducer_every_4d_axes_combination(op):
    """All 15 axes sets of a 4-D input, keep_dims alternating, every other one written with
    negative axes."""
    g = modelgen.Graph(seed=31)
    x = g.input((2, 3, 4, 5), scale=0.05, zero_point=-7)
    outs = []
    for k, axes in enumerate(AXES_4D):
        if k % 3 == 1:
            axes = tuple(a - 4 for a in axes)
        outs.append(getattr(g, op)(x, axes, keep_dims=k % 2 == 0, **_reducer_kwargs(op, k)))
    g.output(*outs)
    _check(g.build(), f"{op}_4d.tflite", 32, {k: True for k in range(len(outs))})


@pytest.mark.parametrize("op", REDUCERS)
def test_reducer_other_ranks_repeated_axes_and_int16(op):
    g = modelgen.Graph(seed=33)
    v = g.input((7,), scale=0.05, zero_point=3)
    t = g.input((3, 1, 6), scale=0.02, zero_point=-100)
    f = g.input((2, 2, 3, 2, 3), scale=0.1, zero_point=0)
    outs = [getattr(g, op)(v, (0,), keep_dims=True, **_reducer_kwargs(op, 1)),
            getattr(g, op)(v, (-1, 0), keep_dims=False),
            getattr(g, op)(t, (2, -1, 2), keep_dims=False, **_reducer_kwargs(op, 3)),
            getattr(g, op)(t, (1,), keep_dims=True),
            getattr(g, op)(f, (4, 0, 2), keep_dims=True, **_reducer_kwargs(op, 5)),
            getattr(g, op)(f, (1, 3), keep_dims=False)]
    if op != "reduce_max":                       # int16 (zero point 0, as int16 tensors are)
        s = g.input((3, 4, 5), scale=0.001, zero_point=0, dtype="int16")
        outs += [getattr(g, op)(s, (1,), keep_dims=True),
                 getattr(g, op)(s, (0, -1), keep_dims=False, out_scale=0.003 if op == "mean"
                                else 0.05, out_zero_point=0)]
    g.output(*outs)
    profiles = _check(g.build(), f"{op}_ranks.tflite", 34, {k: True for k in range(len(outs))})
    want = "ReduceGeneric" if op == "reduce_max" else "QuantizedMeanOrSum<signed char, int>"
    assert want in profiles["simd"].ops[0].kernel
    if op != "reduce_max":
        assert "QuantizedMeanOrSum<short, int>" in profiles["simd"].ops[-1].kernel


def test_reducer_arena_requests_tflm_scratch_buffers():
    """PrepareMeanOrSumHelper: temp_sum (4 x outputs), input_iter (4 x rank), resolved_axis
    (4 x axes); PrepareMinMaxHelper the last two."""
    g = modelgen.Graph(seed=35)
    x = g.input((2, 3, 4, 5), scale=0.05)
    g.output(g.mean(x, (1, 2, 2)), g.reduce_max(x, (3,), keep_dims=False))
    mean, rmax = prepare.prepare(model.parse(g.build(), "arena.tflite"))
    assert mean.case["scratch_bytes"] == [4 * 10, 16, 12]
    assert rmax.case["scratch_bytes"] == [16, 4]


def _refused_by_both(data, inputs, *needles):
    """armsim's Prepare refuses in one line naming the op; TFLM's interpreter refuses too."""
    with pytest.raises(ModelError) as e:
        prepare.prepare(model.parse(data, "bad.tflite"))
    message = str(e.value)
    assert "\n" not in message and all(n in message for n in needles), message
    assert td.tflm_run(data, inputs).kind == "refused"


def test_reduce_max_with_other_output_quantization_refused():
    g = modelgen.Graph(seed=37)
    x = g.input((2, 3, 4), scale=0.05, zero_point=1)
    g.output(g.reduce_max(x, (1,), out_scale=0.1))
    _refused_by_both(g.build(), [np.zeros((2, 3, 4), np.int8)], "REDUCE_MAX",
                     "requires them equal")
    g = modelgen.Graph(seed=37)
    x = g.input((2, 3, 4), scale=0.05, zero_point=1)
    g.output(g.reduce_max(x, (1,), out_zero_point=2))
    _refused_by_both(g.build(), [np.zeros((2, 3, 4), np.int8)], "REDUCE_MAX", "zero point 2")


def _with_axis(op, value):
    """A 2 x 3 input reduced over one axis whose value is then rewritten in the buffer."""
    g = modelgen.Graph(seed=39)
    g.output(getattr(g, op)(g.input((2, 3), scale=0.05, zero_point=4), (0,),
                            **_reducer_kwargs(op, 1)))
    m = td.unpack(g.build())
    m.buffers[m.subgraphs[0].tensors[2].buffer].data = np.array([value], np.int32).view(np.uint8)
    return td.pack(m)


def test_reduce_max_axis_out_of_range_refused():
    _refused_by_both(_with_axis("reduce_max", 2), [np.zeros((2, 3), np.int8)], "REDUCE_MAX",
                     "axis 2 out of range")


@pytest.mark.parametrize("op", REDUCERS)
def test_reducer_axis_not_int32_refused(op):
    g = modelgen.Graph(seed=39)
    g.output(getattr(g, op)(g.input((2, 3), scale=0.05), (0,), axes_dtype="int64"))
    _refused_by_both(g.build(), [np.zeros((2, 3), np.int8)], op.upper(), "is INT64",
                     "requires INT32")


@pytest.mark.parametrize("op", ["mean", "sum"])
def test_mean_sum_axis_out_of_range_leave_zeros_as_tflm(op):
    """ResolveAxis fails, EvalIntegerMean / EvalSumHelper ignore it: the cleared output."""
    for value in (2, -3):
        profiles = _check(_with_axis(op, value), f"{op}_axis.tflite", 40, {0: True})
        assert not profiles["simd"].outputs[0].any()


def test_traced_run_equals_counted_run():
    """The ports trace exactly what they count (armsim.cpu.kernel.Tracer): same outputs,
    same counters, one record per counted instruction."""
    from armsim.cpu import machine
    from armsim.cpu.kernel import Tracer
    g = modelgen.Graph(seed=41)
    x = g.input((2, 3, 4), scale=0.05, zero_point=-3)
    row = g.input((4,), scale=0.03, zero_point=2)
    g.output(g.add(x, row, out_scale=0.1), g.mul(row, x, out_scale=0.01),
             g.mean(x, (0, -1), keep_dims=False, out_scale=0.03), g.sum(x, (1,), out_scale=0.2),
             g.reduce_max(x, (2, 0)), g.log_softmax(x), g.l2_normalization(x))
    m = model.parse(g.build(), "traced.tflite")
    values = dict(zip(m.inputs, profiler.random_inputs(m, seed=42)))
    for step in prepare.prepare(m):
        tracer = Tracer()
        mt, _, _, out_t = harness.run_step(step, values, Build("scalar"), tracer=tracer)
        mc, _, _, out_c = harness.run_step(step, values, Build("scalar"))
        assert np.array_equal(out_t, out_c), step.op
        assert machine.counts(mt) == machine.counts(mc), step.op
        assert len(tracer.records) == sum(machine.counts(mc).values()), step.op


# --- LOG_SOFTMAX / L2_NORMALIZATION --------------------------------------------------------

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
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        for k, (got, exp) in enumerate(zip(prof.outputs, want)):
            assert np.array_equal(got, exp), (path, k)
        for o in prof.ops:
            assert o.simulated and o.reference and o.instructions > 0, o
            assert "LogSoftmaxQuantized" in o.kernel


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
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        for k, (got, exp) in enumerate(zip(prof.outputs, want)):
            assert np.array_equal(got, exp), (path, k)
        for o in prof.ops:
            assert o.simulated and o.reference and "L2Normalization" in o.kernel, o


def _unary_model(build, shape=(2, 8), dtype="int8", **kw):
    g = modelgen.Graph(seed=47)
    x = g.input(shape, scale=0.05 if dtype != "int16" else 0.001, zero_point=0, dtype=dtype)
    g.output(build(g, x, **kw))
    return g.build(), [np.zeros(shape, np.dtype(dtype))]


@pytest.mark.parametrize("kw, needle", [({"out_scale": 0.0625001}, "requires 16/256"),
                                        ({"out_zero_point": 0}, "zero point 0")])
def test_log_softmax_output_quantization_refused(kw, needle):
    data, xs = _unary_model(lambda g, x, **k: g.log_softmax(x, **k), **kw)
    _refused_by_both(data, xs, "LOG_SOFTMAX", needle)


def test_log_softmax_int16_refused():
    data, xs = _unary_model(lambda g, x: g.log_softmax(x, out_scale=0.001, out_zero_point=0),
                            dtype="int16")
    _refused_by_both(data, xs, "LOG_SOFTMAX", "INT16")


@pytest.mark.parametrize("activation", ["RELU", "RELU6", "RELU_N1_TO_1"])
def test_l2_normalization_activation_refused(activation):
    data, xs = _unary_model(lambda g, x: g.l2_normalization(x, activation=activation))
    _refused_by_both(data, xs, "L2_NORMALIZATION", "requires NONE")


def test_l2_normalization_rank_5_and_int16_refused():
    data, xs = _unary_model(lambda g, x: g.l2_normalization(x), shape=(1, 2, 1, 2, 3))
    _refused_by_both(data, xs, "L2_NORMALIZATION", "at most 4")
    data, xs = _unary_model(lambda g, x: g.l2_normalization(x, out_scale=0.001), dtype="int16")
    _refused_by_both(data, xs, "L2_NORMALIZATION", "INT16")
