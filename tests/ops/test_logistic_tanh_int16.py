"""LOGISTIC and TANH with int16 activations (issue 10): TFLM's int16 reference kernels,
counted on every path, bit-exact with TFLM's interpreter and the numpy oracle over every int16
input value, for the input scales TFLM's Prepare treats differently (a power of two it keeps,
one it rescales, general scales, inputs that saturate the table), and its int16 refusals."""
import numpy as np
import pytest

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.kernels.oracle_s16 import sigmoid_s16
from armsim.errors import ModelError
from armsim.pipeline.build import Build
from model_helpers import tflm_outputs

PATHS = ("simd", "scalar", "reference")
#: the interpreter's arena: input and two outputs of 64 Ki int16 each, plus room
ARENA = 1 << 20
ALL_INT16 = np.arange(-32768, 32768, dtype=np.int64).astype(np.int16).reshape(1, 256, 256)

#: input scale -> (LOGISTIC's (multiplier, left shift), TANH's), as TFLM's Prepare computes
SCALES = {
    2.0**-12: ((0, 0), (0, 0)),             # a power of two both keep (3 << 0)
    2.0**-11: ((24576, 12), (0, 1)),        # kept by TANH only (3 << 1)
    2.0**-10: ((24576, 11), (24576, 11)),   # a power of two both rescale
    0.0007: ((17616, 11), (17616, 11)),       # general
    0.01: ((31457, 8), (31457, 8)),             # most inputs saturate the table
    4.0: ((49152, 0), (49152, 0)),          # a multiplier beyond 32767 (TFLM only DCHECKs)
}


def build(scale):
    g = modelgen.Graph(seed=2)
    x = g.input(ALL_INT16.shape, scale=scale, zero_point=0, dtype="int16", name="x")
    g.output(g.logistic(x, name="logistic"), g.tanh(x, name="tanh"))
    return g.build()


@pytest.fixture(scope="module", params=sorted(SCALES))
def built(request):
    data = build(request.param)
    return request.param, model.parse(data, "act16.tflite"), tflm_outputs(data, [ALL_INT16], ARENA)


def test_prepare_computes_tflms_input_multipliers(built):
    scale, m, _ = built
    steps = prepare.prepare(m)
    got = tuple((s.case["multiplier"], s.case["left_shift"]) for s in steps)
    assert [s.op for s in steps] == ["LOGISTIC", "TANH"]
    assert got == SCALES[scale]


@pytest.mark.parametrize("path", PATHS)
def test_bit_exact_vs_tflite_micro_and_oracle(built, path):
    scale, m, want = built
    prof = profiler.run(m, Build(path), inputs=[ALL_INT16])
    steps = prepare.prepare(m)
    for step, got, exp in zip(steps, prof.outputs, want):
        assert got.dtype == exp.dtype == np.int16 and got.shape == exp.shape
        assert np.array_equal(got, exp), (scale, path, step.op, np.argwhere(got != exp)[:5])
        oracle = sigmoid_s16(ALL_INT16, step.case["multiplier"], step.case["left_shift"],
                             step.op == "TANH")
        assert np.array_equal(oracle, exp), (scale, step.op)
    for o in prof.ops:
        assert o.simulated and o.reference and o.instructions > 0 and o.cycles > 0, o
        assert "(int16)" in o.kernel and "not simulated" not in o.kernel


def test_saturated_inputs_give_the_kernels_ends():
    """At scale 0.01 most inputs lie beyond +-10.7 and take the saturated branch: LOGISTIC
    1 .. 32767 and TANH -32767 .. 32767 (the mirror of 0x7FFF << 10 / 0xFFFF << 8 after the
    rounding terms), in TFLM and on every path."""
    data = build(0.01)
    m = model.parse(data, "act16.tflite")
    want = tflm_outputs(data, [ALL_INT16], ARENA)
    for path in PATHS:
        logistic, tanh = profiler.run(m, Build(path), inputs=[ALL_INT16]).outputs
        for got, exp, low in ((logistic, want[0], 1), (tanh, want[1], -32767)):
            assert np.array_equal(got, exp)
            assert got.min() == low and got.max() == 32767
            assert (got == low).sum() > 30000 and (got == 32767).sum() > 30000


#: instructions an element of the disassembly's loops: path -> value -> (LOGISTIC, TANH);
#: 30000 saturates (no table loads).  The M4 build (simd, reference) moves the saturated
#: value in first; the M3 build (scalar) branches to a MOV and B for it instead
PER_ELEMENT = {"simd": {0: (23, 24), 30000: (18, 19)},
               "reference": {0: (23, 24), 30000: (18, 19)},
               "scalar": {0: (22, 23), 30000: (19, 20)}}


@pytest.mark.parametrize("path", PATHS)
def test_counts_follow_the_compiled_loop_and_saturation(path):
    """No CMSIS-NN kernel: simd and reference run the same M4 code, scalar the M3 code; the
    prologue / epilogue are a handful of instructions besides the loop."""
    m = model.parse(build(0.01), "act16.tflite")
    n = ALL_INT16.size
    for value, per_element in PER_ELEMENT[path].items():
        x = np.full(ALL_INT16.shape, value, np.int16)
        for o, instructions in zip(profiler.run(m, Build(path), inputs=[x]).ops, per_element):
            assert o.mnemonics.get("ldrh", 0) == (2 * n if value == 0 else 0)
            kernel = o.instructions - o.stages["glue"]["instructions"]
            assert kernel // n == instructions and kernel % n < 20, (o.op, value, kernel)


def test_a_16x8_model_runs_every_op_simulated():
    """int8 -> QUANTIZE int16 (2^-12: LOGISTIC's power-of-two case) -> FULLY_CONNECTED 16x8 ->
    LOGISTIC -> TANH (input 2^-15: rescaled) -> QUANTIZE int8, bit-exact with TFLM."""
    g = modelgen.Graph(seed=4)
    x = g.input((2, 24), scale=0.05, zero_point=3, name="x")
    h = g.quantize(x, scale=2.0**-12, zero_point=0, dtype="int16", name="to16")
    h = g.fully_connected(h, 12, out_scale=2.0**-11, name="fc")
    h = g.tanh(g.logistic(h, name="logistic"), name="tanh")
    g.output(g.quantize(h, scale=1 / 128, zero_point=0, name="to8"))
    data = g.build()
    m = model.parse(data, "act16_chain.tflite")
    steps = prepare.prepare(m)
    assert [s.op for s in steps] == ["QUANTIZE", "FULLY_CONNECTED", "LOGISTIC", "TANH",
                                     "QUANTIZE"]
    xs = profiler.random_inputs(m, seed=9)
    (want,) = tflm_outputs(data, xs)
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        np.testing.assert_array_equal(prof.outputs[0], want, err_msg=path)
        assert all(o.simulated for o in prof.ops), [o.kernel for o in prof.ops]
        assert len(np.unique(want)) > 5


def _one_op(op, in_scale=2.0**-12, in_zero_point=0, out_scale=None, out_zero_point=None):
    g = modelgen.Graph()
    x = g.input((1, 8), scale=in_scale, zero_point=in_zero_point, dtype="int16")
    g.output(getattr(g, op)(x, out_scale=out_scale, out_zero_point=out_zero_point))
    return model.parse(g.build(), f"{op}_s16.tflite")


@pytest.mark.parametrize("op", ["logistic", "tanh"])
@pytest.mark.parametrize("kwargs, message", [
    ({"in_zero_point": 3}, r"input .* has zero point 3; TFLM's int16 \w+ requires 0"),
    ({"out_zero_point": -5}, r"output .* has zero point -5; TFLM's int16 \w+ requires 0"),
    ({"out_scale": 2.0**-14}, r"output .* has scale 6.1\d*e-05; TFLM's int16 \w+ requires 2\^-15"),
    ({"out_scale": 1 / 30000}, r"output .* TFLM's int16 \w+ requires 2\^-15"),
    ({"in_scale": 1e6}, r"input .* scale 1e\+06 gives no valid input multiplier"),
])
def test_refused_as_tflm_prepare_refuses(op, kwargs, message):
    with pytest.raises(ModelError, match=op.upper() + ".*" + message):
        prepare.prepare(_one_op(op, **kwargs))
