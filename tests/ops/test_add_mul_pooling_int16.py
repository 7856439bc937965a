"""int16 ADD, MUL, AVERAGE_POOL_2D and MAX_POOL_2D (issue 10): the elementwise_add_s16,
elementwise_mul_s16, avgpool_s16 and maxpool_s16 families against the CMSIS-NN vectors and
the measured counts of ../shared on all three paths, and a test-built 16x8 model with the
four ops against TFLM's Python interpreter (`armsim run` and the profiler); TFLM's Prepare
refusals, the host fallback (ADD zero points) and the broadcast's reference kernel.

    python -m pytest -q -p no:cacheprovider -n 0 tests/ops/test_add_mul_pooling_int16.py
"""
import numpy as np
import pytest
import tflite
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from armsim.pipeline import model, prepare, profiler
from armsim.data import modelgen
from armsim.cli.main import main
from armsim.pipeline.harness import run_case
from armsim.kernels.families import oracle
from armsim.errors import ModelError
from armsim.pipeline.build import Build

from conftest import REFERENCE, VECTORS, expected_output, load_case, shared_cases
from model_helpers import tflm_outputs
from test_properties import SETTINGS, _agree, _image_dims, _rng, _spatial

FAMILIES = ("elementwise_add_s16", "elementwise_mul_s16", "avgpool_s16", "maxpool_s16")
VECTOR_FILES = [f for fam in FAMILIES for f in shared_cases(VECTORS, fam)]
REFERENCE_FILES = [f for fam in FAMILIES for f in shared_cases(REFERENCE, fam)]
PATHS = ("simd", "scalar", "reference")


def test_the_directories_hold_the_cases():
    assert len(VECTOR_FILES) == 9 and len(REFERENCE_FILES) == 7
    assert {load_case(f)["family"] for f in VECTOR_FILES + REFERENCE_FILES} == set(FAMILIES)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("file", VECTOR_FILES + REFERENCE_FILES, ids=lambda p: p.stem)
def test_bit_exact_on_every_path(file, path):
    case = load_case(file)
    result = run_case(case, Build(path))
    assert result.output.dtype == np.int16
    np.testing.assert_array_equal(result.output, expected_output(case).ravel())
    np.testing.assert_array_equal(result.output, oracle(case))
    if path == "reference":
        assert result.kernel_path[0].startswith("tflite::")
    else:
        assert result.kernel_path[0] == case["function"]


def test_odd_block_sizes_take_the_tail():
    """block_size odd (add_s16_spill 105, mul_s16_spill 245): one STRH for the last element."""
    for name in ("add_s16_spill", "mul_s16_spill"):
        case = load_case(VECTORS / f"{name}.json")
        assert case["block_size"] % 2 == 1
        for path in ("simd", "scalar"):
            assert run_case(case, Build(path)).counts()["strh"] == 1


# --- properties: random shapes and parameters, all three paths and the oracle agree --------

def _activation16(draw):
    lo = draw(st.integers(-32768, 5000))
    return {"min": lo, "max": draw(st.integers(lo, 32767))}


@st.composite
def pool_s16_cases(draw, family):
    """Odd channel counts (the halfword tails), padding, strides, batches, clamps."""
    rng = _rng(draw)
    n, c = draw(st.integers(1, 2)), draw(st.integers(1, 9))
    g = _spatial(draw, dilation=False)
    return {"case": "property", "family": family, **_image_dims(n, g, c, c),
            "filter_dims": {"n": 1, "h": g["fh"], "w": g["fw"], "c": 1},
            "pool_params": {"stride": g["stride"], "padding": g["pad"],
                            "activation": _activation16(draw)},
            "input": rng.integers(-32768, 32768, n * g["in_h"] * g["in_w"] * c).tolist()}


@st.composite
def add_s16_cases(draw):
    """TFLM's int16 ADD parameters: left shift 15, shifts <= 0 (multipliers below one)."""
    rng = _rng(draw)
    n, act = draw(st.integers(1, 41)), _activation16(draw)
    mult = st.integers(1 << 30, (1 << 31) - 1)
    return {"case": "property", "family": "elementwise_add_s16",
            "input_1_offset": 0, "input_1_mult": draw(mult), "input_1_shift": draw(st.integers(-3, 0)),
            "input_2_offset": 0, "input_2_mult": draw(mult), "input_2_shift": draw(st.integers(-3, 0)),
            "left_shift": 15, "out_offset": 0, "out_mult": draw(mult),
            "out_shift": draw(st.integers(-16, -12)),
            "out_activation_min": act["min"], "out_activation_max": act["max"], "block_size": n,
            "input": rng.integers(-32768, 32768, n).tolist(),
            "input2": rng.integers(-32768, 32768, n).tolist()}


@st.composite
def mul_s16_cases(draw):
    """Shifts of both signs (an int16 product's multiplier may exceed one: the no-rounding
    path)."""
    rng = _rng(draw)
    n, act = draw(st.integers(1, 41)), _activation16(draw)
    return {"case": "property", "family": "elementwise_mul_s16", "input_1_offset": 0,
            "input_2_offset": 0, "out_offset": 0,
            "out_mult": draw(st.integers(1 << 30, (1 << 31) - 1)),
            "out_shift": draw(st.sampled_from([-20, -15, -12, -8, 0, 1])),
            "out_activation_min": act["min"], "out_activation_max": act["max"], "block_size": n,
            "input": rng.integers(-32768, 32768, n).tolist(),
            "input2": rng.integers(-32768, 32768, n).tolist()}


@SETTINGS
@given(pool_s16_cases("avgpool_s16"))
def test_property_avgpool_s16(case):
    _agree(case)


@SETTINGS
@given(pool_s16_cases("maxpool_s16"))
def test_property_maxpool_s16(case):
    _agree(case)


@SETTINGS
@given(add_s16_cases())
def test_property_elementwise_add_s16(case):
    _agree(case)


@SETTINGS
@given(mul_s16_cases())
def test_property_elementwise_mul_s16(case):
    _agree(case)


# --- models against TFLM -------------------------------------------------------------------

def _model(seed=3):
    """int16 in and out (armsim has no int8 <-> int16 QUANTIZE): both pools with SAME padding
    feeding ADD, MUL (RELU6) and a second ADD (RELU); then VALID pools; two graph outputs."""
    g = modelgen.Graph(seed=seed)
    x = g.input((1, 9, 9, 6), scale=0.0005, zero_point=0, dtype="int16", name="x")
    a = g.average_pool2d(x, (3, 3), stride=(2, 2), padding="SAME")
    b = g.max_pool2d(x, (3, 3), stride=(2, 2), padding="SAME", activation="RELU")
    s = g.add(a, b, out_scale=0.0007)
    p = g.mul(s, a, out_scale=0.0004, activation="RELU6")
    q = g.add(p, s, activation="RELU", name="q")
    y = g.average_pool2d(q, (2, 2), stride=(1, 1), padding="VALID")
    g.output(q, g.max_pool2d(y, (2, 3), padding="VALID", name="y"))
    return g


@pytest.fixture(scope="module")
def s16_model(tmp_path_factory):
    data = _model().build()
    d = tmp_path_factory.mktemp("s16")
    (d / "model.tflite").write_bytes(data)
    m = model.parse(data, "s16_pool_add_mul.tflite")
    (x,) = profiler.random_inputs(m, seed=11)
    np.save(d / "x.npy", x)
    return d, m, x, tflm_outputs(data, [x])


def test_the_model_dispatches_to_the_s16_kernels(s16_model):
    _, m, _, expected = s16_model
    steps = prepare.prepare(m)
    assert [s.family for s in steps] == ["avgpool_s16", "maxpool_s16", "elementwise_add_s16",
                                         "elementwise_mul_s16", "elementwise_add_s16",
                                         "avgpool_s16", "maxpool_s16"]
    assert not any(s.host for s in steps)
    assert all(w.dtype == np.int16 for w in expected)
    assert np.unique(expected[0]).size > 100 and np.unique(expected[1]).size > 4


@pytest.mark.parametrize("path", PATHS)
def test_16x8_model_bit_exact_vs_tflite_micro(s16_model, path, tmp_path):
    d, m, x, expected = s16_model
    out = tmp_path / "out.npz"
    r = CliRunner().invoke(main, ["run", str(d / "model.tflite"), "--input", str(d / "x.npy"),
                                  "--output", str(out), "--path", path])
    assert r.exit_code == 0, r.output
    with np.load(out) as z:
        for name, want in zip(("q", "y"), expected):
            np.testing.assert_array_equal(z[name], want, err_msg=f"{path} {name}")
    prof = profiler.run(m, Build(path), inputs=[x])
    for got, want in zip(prof.outputs, expected):
        np.testing.assert_array_equal(got, want)
    assert all(o.simulated and o.instructions > 0 for o in prof.ops)


def _binary_model(op, shape_a, shape_b, zero_point=0, dtype_b="int16"):
    g = modelgen.Graph(seed=7)
    a = g.input(shape_a, scale=0.0005, zero_point=zero_point, dtype="int16", name="a")
    b = g.input(shape_b, scale=0.0007 if dtype_b == "int16" else 0.02, zero_point=0,
                dtype=dtype_b, name="b")
    if op == "add":
        g.output(g.add(a, b, out_scale=0.0009, name="y"))
    else:
        g.output(g.mul(a, b, out_scale=0.01, name="y"))
    return g.build()


def _host_ops_match_tflm(data, name):
    m = model.parse(data, name)
    steps = prepare.prepare(m)
    assert [s.host for s in steps] == [True]
    xs = profiler.random_inputs(m, seed=4)
    (want,) = tflm_outputs(data, xs)
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        np.testing.assert_array_equal(prof.outputs[0], want, err_msg=path)
        assert [o.simulated for o in prof.ops] == [False]
    return steps[0].host_reason


@pytest.mark.parametrize("op", ["add", "mul"])
def test_broadcast_int16_runs_the_reference_kernel(op):
    """TFLM's cmsis_nn add.cc / mul.cc send a broadcast int16 op to the reference
    BroadcastAdd4DSlow / BroadcastMul4DSlow: armsim runs that port (counted) on every path
    (more shapes: tests/ops/test_broadcast_binary.py)."""
    data = _binary_model(op, (1, 4, 5, 3), (1, 1, 5, 1))
    m = model.parse(data, f"bcast_{op}.tflite")
    xs = profiler.random_inputs(m, seed=4)
    (want,) = tflm_outputs(data, xs)
    for path in PATHS:
        prof = profiler.run(m, Build(path), inputs=xs)
        np.testing.assert_array_equal(prof.outputs[0], want, err_msg=path)
        (o,) = prof.ops
        assert o.simulated and o.reference and "<short>" in o.kernel, o


def test_int16_add_with_a_zero_point_runs_on_the_host():
    """cmsis_nn/add.cc requires int16 zero points 0, the reference add.cc does not."""
    reason = _host_ops_match_tflm(_binary_model("add", (1, 3, 4, 2), (1, 3, 4, 2), zero_point=3),
                                  "add_zp.tflite")
    assert "zero point 3" in reason


def test_int16_mul_with_a_zero_point_is_refused_as_tflm_does():
    data = _binary_model("mul", (1, 3, 4, 2), (1, 3, 4, 2), zero_point=3)
    with pytest.raises(ModelError) as e:
        prepare.prepare(model.parse(data, "mul_zp.tflite"))
    assert "\n" not in str(e.value) and "op 0" in str(e.value) and "zero point 3" in str(e.value)
    with pytest.raises(Exception):                  # mul_common.cc refuses it as well
        tflm_outputs(data, [np.zeros((1, 3, 4, 2), np.int16)] * 2)


def test_int16_add_with_an_int8_operand_is_refused():
    """TFLM's reference add.cc does not compare the operand types: it reads the INT8 operand
    as INT16, past the end of its buffer, so its output depends on the arena's other bytes
    (the one-op model and the whole model disagree): no result to match, a one-line refusal."""
    data = _binary_model("add", (1, 3, 4, 2), (1, 3, 4, 2), dtype_b="int8")
    with pytest.raises(ModelError) as e:
        prepare.prepare(model.parse(data, "hybrid_add.tflite"))
    assert "\n" not in str(e.value) and "input2" in str(e.value) and "past the end" in str(e.value)


def test_int16_mul_with_an_int8_operand_is_refused_as_tflm_does():
    data = _binary_model("mul", (1, 3, 4, 2), (1, 3, 4, 2), dtype_b="int8")
    with pytest.raises(ModelError) as e:
        prepare.prepare(model.parse(data, "hybrid_mul.tflite"))
    assert "\n" not in str(e.value) and "input2" in str(e.value) and "INT8" in str(e.value)
    with pytest.raises(Exception):                  # TF_LITE_ENSURE_TYPES_EQ(input1, input2)
        tflm_outputs(data, [np.zeros((1, 3, 4, 2), np.int16), np.zeros((1, 3, 4, 2), np.int8)])


@pytest.mark.parametrize("code", [tflite.BuiltinOperator.AVERAGE_POOL_2D,
                                  tflite.BuiltinOperator.MAX_POOL_2D])
def test_int16_pool_with_an_int8_output_runs_on_the_host(code):
    g = modelgen.Graph(seed=1)
    x = g.input((1, 4, 4, 2), scale=0.0005, zero_point=0, dtype="int16", name="x")
    y = g.tensor((1, 2, 2, 2), "int8", 0.0005, 0, name="y")
    g._op(code, [x], [y], tflite.BuiltinOptions.Pool2DOptions,
          (tflite.Pool2DOptionsStart, [(tflite.Pool2DOptionsAddPadding, 1),
                                       (tflite.Pool2DOptionsAddStrideW, 2),
                                       (tflite.Pool2DOptionsAddStrideH, 2),
                                       (tflite.Pool2DOptionsAddFilterWidth, 2),
                                       (tflite.Pool2DOptionsAddFilterHeight, 2)],
           tflite.Pool2DOptionsEnd))
    g.output(y)
    assert "INT8" in _host_ops_match_tflm(g.build(), "pool_i16_i8.tflite")


@pytest.mark.parametrize("name", ["mul_s16", "maxpool_int16_1"])
def test_trace_of_an_int16_vector(name):
    """`armsim trace CASE.json` compares the int16 output with output_ref in its own type."""
    r = CliRunner().invoke(main, ["trace", str(VECTORS / f"{name}.json"), "--max-lines", "5"])
    assert r.exit_code == 0, r.output
    assert "output (int16" in r.output and "equals the case's output_ref: yes" in r.output
