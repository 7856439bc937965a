"""Fully connected, pooling, softmax and element-wise kernels: bit-exactness on every shared
case (vectors and measurements, both CMSIS-NN paths, every entry point the case names),
measured instruction counts, traced == counted, and seeded property tests against the
numpy oracle."""
import copy

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from armsim.cpu import machine
from armsim.cpu.kernel import Tracer
from armsim.errors import CaseError
from armsim.pipeline.harness import run_case
from armsim.kernels.families import oracle
from armsim.pipeline.build import Build

from conftest import REFERENCE, VECTORS, load_case

FAMILIES = ("fully_connected", "avgpool", "maxpool", "softmax", "elementwise_add",
            "elementwise_mul")
PATHS = ("simd", "scalar")
EXACT_MNEMONICS = ("smlad", "sxtb16", "sxtab16", "pkhbt")

# Entry points a case may name (`function`, `functions_validated`) and how to run them.
ENTRY_POINTS = {
    "fully_connected": ("arm_fully_connected_s8", "arm_fully_connected_per_channel_s8",
                        "arm_fully_connected_wrapper_s8"),
    "avgpool": ("arm_avgpool_s8",),
    "maxpool": ("arm_max_pool_s8",),
    "softmax": ("arm_softmax_s8", "arm_nn_softmax_common_s8"),
    "elementwise_add": ("arm_elementwise_add_s8",),
    "elementwise_mul": ("arm_elementwise_mul_s8",),
}


def _case_files(directory):
    files = []
    for path in sorted(directory.glob("*.json")):
        if load_case(path).get("family") in FAMILIES:
            files.append(path)
    return files


VECTOR_FILES = _case_files(VECTORS)
REFERENCE_FILES = _case_files(REFERENCE)
ALL_FILES = VECTOR_FILES + REFERENCE_FILES


def test_the_shared_directories_hold_cases_of_every_family():
    """Guards the globs: an empty or renamed directory must fail, not skip."""
    assert len(VECTOR_FILES) >= 16 and len(REFERENCE_FILES) >= 6
    families = {load_case(p)["family"] for p in ALL_FILES}
    assert families == set(FAMILIES)


def _expected(case):
    return np.asarray(case["output_ref"], np.int8).ravel()


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case_file", ALL_FILES, ids=lambda p: p.stem)
def test_default_entry_point_is_bit_exact(case_file, path):
    case = load_case(case_file)
    result = run_case(case, Build(path))
    np.testing.assert_array_equal(result.output, _expected(case))
    np.testing.assert_array_equal(result.output, oracle(case))
    per_channel = case.get("quant_params", {}).get("per_channel", False)
    entry = "arm_fully_connected_per_channel_s8" if per_channel else case["function"]
    assert result.kernel_path[0] == entry


def _named_functions(case):
    names = [case["function"], *case.get("functions_validated", [])]
    if case["family"] == "fully_connected":
        names.append("arm_fully_connected_wrapper_s8")
    if case["family"] == "softmax":
        names.append("arm_nn_softmax_common_s8")
    return sorted(set(names))


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case_file", ALL_FILES, ids=lambda p: p.stem)
def test_every_named_entry_point_is_bit_exact(case_file, path):
    case = load_case(case_file)
    for function in _named_functions(case):
        assert function in ENTRY_POINTS[case["family"]], function
        result = run_case(case, Build(path), function=function)
        np.testing.assert_array_equal(result.output, _expected(case), err_msg=function)
        assert result.kernel_path[0] == function


def test_fc_wrapper_dispatches_on_quantization():
    per_tensor = load_case(VECTORS / "fully_connected_mve_0.json")
    per_channel = load_case(VECTORS / "fc_per_ch.json")
    assert run_case(per_tensor, Build("simd"),
                    function="arm_fully_connected_wrapper_s8").kernel_path == [
        "arm_fully_connected_wrapper_s8", "arm_fully_connected_s8", "arm_nn_vec_mat_mult_t_s8"]
    assert run_case(per_channel, Build("simd"),
                    function="arm_fully_connected_wrapper_s8").kernel_path == [
        "arm_fully_connected_wrapper_s8", "arm_fully_connected_per_channel_s8",
        "arm_nn_vec_mat_mult_t_per_ch_s8"]


def test_wrong_entry_points_are_errors():
    per_tensor = load_case(VECTORS / "fully_connected_mve_0.json")
    with pytest.raises(CaseError, match="per-tensor"):
        run_case(per_tensor, Build("simd"), function="arm_fully_connected_per_channel_s8")
    with pytest.raises(CaseError, match="not a max pooling"):
        run_case(load_case(VECTORS / "maxpooling.json"), Build("simd"), function="arm_avgpool_s8")
    with pytest.raises(CaseError, match="not a softmax"):
        run_case(load_case(VECTORS / "softmax__rows_0_1.json"), Build("simd"),
                 function="arm_softmax_s16")


def test_memcpy_calls_of_max_pool_are_counted():
    """arm_max_pool_s8 copies the first tap of every window with newlib memcpy (one BL
    each, 16 in the measured case)."""
    case = load_case(REFERENCE / "maxpool2x2_s2_8x8x16.json")
    for path in PATHS:
        counts = run_case(case, Build(path)).counts()
        assert counts["bl"] == case["measured"][Build(path).measured_build]["calls"]["arm_max_pool_s8->memcpy"]


def test_fc_column_loop_is_unrolled_by_gcc_only():
    """The GCC pragma unrolls arm_nn_vec_mat_mult_t_s8's column loop by four; under Arm
    Compiler 6 (toolchain armclang) it runs one step per iteration: same SIMD work, one
    loop branch per step instead of per four steps."""
    case = load_case(REFERENCE / "fc_64_32.json")
    gcc = run_case(case, Build("simd", "gcc"))
    armclang = run_case(case, Build("simd", "armclang"))
    np.testing.assert_array_equal(armclang.output, _expected(case))
    for mnemonic in EXACT_MNEMONICS:
        assert armclang.counts().get(mnemonic, 0) == gcc.counts().get(mnemonic, 0)
    row_pairs, steps = case["output_dims"]["c"] // 2, case["filter_dims"]["n"] // 4
    # gcc: ANDS/BEQ on n % 4, then one BNE per block; armclang: one BNE per step
    assert armclang.counts()["bcc"] - gcc.counts()["bcc"] == row_pairs * (steps - 1 - steps // 4)


# --- the traced twin ---------------------------------------------------------------------

TRACED_CASES = ("fully_connected_mve_1", "fully_connected_w_zp", "fc_per_ch",
                "avgpooling_3", "maxpooling_7", "softmax_invalid_diff_min",
                "add__elements_0_85", "mul__elements_0_107")


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name", TRACED_CASES)
def test_traced_run_equals_counted_run(name, path):
    case = load_case(VECTORS / f"{name}.json")
    fast = run_case(case, Build(path))
    tracer = Tracer()
    traced = run_case(case, Build(path), tracer=tracer)
    np.testing.assert_array_equal(fast.output, traced.output)
    np.testing.assert_array_equal(fast.m.st, traced.m.st)
    assert len(tracer.records) == fast.instructions


def test_a_fault_outside_memory_is_reported():
    case = copy.deepcopy(load_case(VECTORS / "fully_connected_mve_1.json"))
    case["filter_dims"]["n"] += 64            # reads past the weights and the flash region
    case["input"] = case["input"] + [0] * 64
    with pytest.raises(machine.MemoryFault, match="HardFault"):
        run_case(case, Build("simd"))


# --- property tests against the oracle ----------------------------------------------------

PROPERTY = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))
i8 = st.integers(-128, 127)
multipliers = st.integers(1 << 30, (1 << 31) - 1)


def _activation(draw):
    lo = draw(st.integers(-128, 100))
    return lo, draw(st.integers(lo, 127))


def _check_all_paths(case):
    want = oracle(case)
    outputs = {path: run_case(case, Build(path)).output for path in PATHS}
    for path, got in outputs.items():
        np.testing.assert_array_equal(got, want, err_msg=path)


@st.composite
def fc_cases(draw):
    batches = draw(st.integers(1, 3))
    depth = draw(st.integers(1, 37))
    out_c = draw(st.integers(1, 11))
    per_channel = draw(st.booleans())
    lo, hi = _activation(draw)
    n_w = depth * out_c
    case = {
        "family": "fully_connected", "case": "property",
        "input_dims": {"n": batches, "h": 1, "w": 1, "c": depth},
        "filter_dims": {"n": depth, "h": 1, "w": 1, "c": out_c},
        "output_dims": {"n": batches, "h": 1, "w": 1, "c": out_c},
        "fc_params": {"input_offset": draw(st.integers(-127, 128)),
                      "filter_offset": draw(st.sampled_from([0, 0, 1, -3, 127])),
                      "output_offset": draw(st.integers(-128, 127)),
                      "activation": {"min": lo, "max": hi}},
        "input": draw(st.lists(i8, min_size=batches * depth, max_size=batches * depth)),
        "weights": draw(st.lists(i8, min_size=n_w, max_size=n_w)),
        "bias": draw(st.lists(st.integers(-5000, 5000), min_size=out_c, max_size=out_c)),
        "bias_is_null": draw(st.booleans()),
    }
    if case["bias_is_null"]:
        case["bias"] = [0] * out_c
    shifts = st.integers(-12, 2)
    if per_channel:
        case["quant_params"] = {"per_channel": True}
        case["output_mult"] = draw(st.lists(multipliers, min_size=out_c, max_size=out_c))
        case["output_shift"] = draw(st.lists(shifts, min_size=out_c, max_size=out_c))
    else:
        case["quant_params"] = {"per_channel": False, "multiplier": draw(multipliers),
                                "shift": draw(shifts)}
    return case


@seed(3)
@PROPERTY
@given(fc_cases())
def test_property_fully_connected(case):
    _check_all_paths(case)
    wrapped = run_case(case, Build("simd"), function="arm_fully_connected_wrapper_s8")
    np.testing.assert_array_equal(wrapped.output, oracle(case))


@st.composite
def pool_cases(draw, family):
    c = draw(st.integers(1, 9))
    fh, fw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    sh, sw = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    h, w = draw(st.integers(fh, 7)), draw(st.integers(fw, 7))
    same = draw(st.booleans())
    if same:       # TFLite SAME: out = ceil(in / stride), pad before = total // 2
        oh, ow = -(-h // sh), -(-w // sw)
        ph = max((oh - 1) * sh + fh - h, 0) // 2
        pw = max((ow - 1) * sw + fw - w, 0) // 2
    else:
        oh, ow = (h - fh) // sh + 1, (w - fw) // sw + 1
        ph = pw = 0
    n = draw(st.integers(1, 2))
    lo, hi = _activation(draw)
    size = n * h * w * c
    return {
        "family": family, "case": "property",
        "input_dims": {"n": n, "h": h, "w": w, "c": c},
        "filter_dims": {"n": 1, "h": fh, "w": fw, "c": 1},
        "output_dims": {"n": n, "h": oh, "w": ow, "c": c},
        "pool_params": {"stride": {"h": sh, "w": sw}, "padding": {"h": ph, "w": pw},
                        "activation": {"min": lo, "max": hi}},
        "input": draw(st.lists(i8, min_size=size, max_size=size)),
    }


@seed(4)
@PROPERTY
@given(pool_cases("avgpool"))
def test_property_avgpool(case):
    _check_all_paths(case)


@seed(5)
@PROPERTY
@given(pool_cases("maxpool"))
def test_property_maxpool(case):
    _check_all_paths(case)


@st.composite
def softmax_cases(draw):
    rows, size = draw(st.integers(1, 3)), draw(st.integers(1, 20))
    # TFLM's Prepare for int8 softmax with beta 1 and input scales 1/16 .. 1/4096
    mult = draw(st.integers(1 << 30, (1 << 31) - 1))
    shift = draw(st.integers(18, 25))
    diff_min = draw(st.one_of(st.integers(-400, -1), st.just(2**31 - 1), st.just(-(2**31))))
    return {"family": "softmax", "case": "property", "num_rows": rows, "row_size": size,
            "mult": mult, "shift": shift, "diff_min": diff_min,
            "input": draw(st.lists(i8, min_size=rows * size, max_size=rows * size))}


@seed(6)
@PROPERTY
@given(softmax_cases())
def test_property_softmax(case):
    _check_all_paths(case)


@st.composite
def elementwise_cases(draw, family):
    n = draw(st.integers(1, 23))
    lo, hi = _activation(draw)
    case = {"family": family, "case": "property", "block_size": n,
            "input": draw(st.lists(i8, min_size=n, max_size=n)),
            "input2": draw(st.lists(i8, min_size=n, max_size=n)),
            "input_1_offset": draw(st.integers(-127, 128)),
            "input_2_offset": draw(st.integers(-127, 128)),
            "out_offset": draw(st.integers(-128, 127)),
            "out_mult": draw(multipliers), "out_activation_min": lo, "out_activation_max": hi}
    if family == "elementwise_add":
        case.update(left_shift=20, input_1_mult=draw(multipliers),
                    input_1_shift=draw(st.integers(-3, 0)), input_2_mult=draw(multipliers),
                    input_2_shift=draw(st.integers(-3, 0)),
                    out_shift=draw(st.integers(-24, -14)))
    else:
        case["out_shift"] = draw(st.integers(-12, 0))
    return case


@seed(7)
@PROPERTY
@given(elementwise_cases("elementwise_add"))
def test_property_elementwise_add(case):
    _check_all_paths(case)


@seed(8)
@PROPERTY
@given(elementwise_cases("elementwise_mul"))
def test_property_elementwise_mul(case):
    _check_all_paths(case)
