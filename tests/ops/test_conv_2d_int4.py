"""CONV_2D with packed int4 weights (issue 10, family conv_s4).  On every conv_s4 case of
../shared: the family through the harness (arm_convolve_wrapper_s4 and the leaf it picks:
arm_convolve_1x1_s4_fast / arm_convolve_1x1_s4 via arm_nn_mat_mult_nt_t_s4,
arm_convolve_1_x_n_s4, arm_convolve_s4) on the simd, scalar and reference paths, bit-exact with
output_ref and the int8 conv oracle on the unpacked weights, taking the measured kernel chain
and within 5 % of the measured instruction totals; the generic leaf arm_convolve_s4 run
directly on every case (it computes any convolution); arm_convolve_1_x_n_s4 on its vectors;
arm_convolve_wrapper_s4's dispatch on every case.  (tests/kernels/test_oracle.py,
test_reference_path.py, test_trace_equivalence.py pick the family's cases up as well.)"""
import json

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.cpu.kernel import run
from armsim.kernels import oracle
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_convolve_1_x_n_s4 import arm_convolve_1_x_n_s4
from armsim.kernels.cmsis_nn import arm_convolve_wrapper_s4 as wrapper
from armsim.kernels.cmsis_nn.arm_convolve_s4 import ARG_ERROR, arm_convolve_s4
from armsim.errors import CaseError
from armsim.pipeline.harness import run_case
from armsim.kernels.tflm.conv_s4 import reference_buffer_size, run_reference
from armsim.pipeline.build import Build

from conftest import REFERENCE, VECTORS, load_case

FAMILY = "conv_s4"


def _cases(directory):
    return [p for p in sorted(directory.glob("*.json"))
            if json.loads(p.read_text()).get("family") == FAMILY]


CASE_FILES = _cases(VECTORS) + _cases(REFERENCE)


def _weight_count(case):
    f = case["filter_dims"]
    return case["output_dims"]["c"] * f["h"] * f["w"] * case["input_dims"]["c"]


def _packed(case):
    return np.asarray(case.get("weights_packed_int4", case["weights"]), np.int8)


def _unpacked(case):
    packed = _packed(case).astype(np.int16)
    low, high = ((packed & 0xF) ^ 8) - 8, packed >> 4
    return np.stack([low, high], axis=1).ravel()[:_weight_count(case)]


def _layout(case, scratch_bytes):
    """The case's arrays in simulated memory (as the harness places a family's): (Memory,
    addresses by name; bias 0 for a NULL bias)."""
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 0).region("flash", machine.FLASH_BASE, 0)
    addr = {"input": mem.place("sram", np.asarray(case["input"], np.int8)),
            "packed_weights": mem.place("flash", _packed(case)),
            "bias": (0 if case.get("bias_is_null")
                     else mem.place("flash", np.asarray(case["bias"], np.int32))),
            "output_mult": mem.place("flash", np.asarray(case["output_mult"], np.int32)),
            "output_shift": mem.place("flash", np.asarray(case["output_shift"], np.int32)),
            "output": mem.place("sram", _output_count(case)),
            "scratch": mem.place("sram", scratch_bytes), "scratch_bytes": scratch_bytes}
    return mem, addr


def _output_count(case):
    d = case["output_dims"]
    return d["n"] * d["h"] * d["w"] * d["c"]


def _run_convolve_s4(case, dsp, leaf=arm_convolve_s4):
    f = case["filter_dims"]
    scratch_bytes = 2 * 2 * f["h"] * f["w"] * f["c"]   # arm_convolve_s4_get_buffer_size
    mem, addr = _layout(case, scratch_bytes)
    m = machine.build(mem, dsp=dsp)
    status = run(leaf, m, types.Context(int(addr["scratch"]), scratch_bytes),
                 types.conv_params(case["conv_params"]),
                 types.PerChannelQuantParams(int(addr["output_mult"]), int(addr["output_shift"])),
                 types.dims(case["input_dims"]), int(addr["input"]), types.dims(f),
                 int(addr["packed_weights"]), int(addr["bias"]), types.dims(case["output_dims"]),
                 int(addr["output"]))
    assert status == 0, status
    return machine.read(m, addr["output"], _output_count(case)), m


def _oracle(case):
    return np.asarray(oracle.conv({**case, "weights": _unpacked(case)})).ravel()


def test_the_directories_hold_the_int4_conv_cases():
    assert len(CASE_FILES) == 20


@pytest.mark.parametrize("dsp", [True, False], ids=["simd", "scalar"])
@pytest.mark.parametrize("file", CASE_FILES, ids=lambda p: p.stem)
def test_convolve_s4_bit_exact(file, dsp):
    case = load_case(file)
    output, _ = _run_convolve_s4(case, dsp)
    np.testing.assert_array_equal(output, np.asarray(case["output_ref"], np.int8).ravel())
    np.testing.assert_array_equal(output, _oracle(case))


@pytest.mark.parametrize("file", CASE_FILES, ids=lambda p: p.stem)
def test_reference_path_bit_exact(file):
    """TFLM's reference: UnpackDenseInt4IntoInt8 into Prepare's scratch, then ConvPerChannel."""
    case = load_case(file)
    mem, addr = _layout(case, reference_buffer_size(case))
    m = machine.build(mem, dsp=False)
    chain = run_reference(m, case, addr, None)
    assert chain[0] == "tflite::tensor_utils::UnpackDenseInt4IntoInt8"
    output = machine.read(m, addr["output"], _output_count(case))
    np.testing.assert_array_equal(output, np.asarray(case["output_ref"], np.int8).ravel())
    np.testing.assert_array_equal(output, _oracle(case))


#: instructions the port executes as gcc does, one for one, on conv_s4_3x3_8x8x16_o16_s1_p1
EXACT_MNEMONICS = {"simd": ("smlad", "sxtb16", "ror", "pkhbt", "pkhtb", "uxtb", "bfi", "orr"),
                   "scalar": ("ldrsb", "sbfx", "strh")}


@pytest.mark.parametrize("path", ["simd", "scalar"])
def test_convolve_s4_counts_against_measured(path):
    case = load_case(REFERENCE / "conv_s4_3x3_8x8x16_o16_s1_p1.json")
    measured = case["measured"][Build(path).measured_build]
    assert measured["kernel_chain"][1:] == ["arm_convolve_s4", "arm_nn_mat_mult_kernel_s4_s16"]
    _, m = _run_convolve_s4(case, path == "simd")
    counts = machine.counts(m)
    total, want = sum(counts.values()), measured["instructions"]
    assert abs(total - want) <= 0.05 * want, (total, want, f"{total / want - 1:+.1%}")
    for mnemonic in EXACT_MNEMONICS[path]:
        assert counts.get(mnemonic, 0) == measured["mnemonic_histogram"][mnemonic], mnemonic


ONE_X_N_FILES = [p for p in CASE_FILES if load_case(p)["function"] == "arm_convolve_1_x_n_s4"]


@pytest.mark.parametrize("dsp", [True, False], ids=["simd", "scalar"])
@pytest.mark.parametrize("file", ONE_X_N_FILES, ids=lambda p: p.stem)
def test_convolve_1_x_n_s4_bit_exact(file, dsp):
    case = load_case(file)
    output, _ = _run_convolve_s4(case, dsp, arm_convolve_1_x_n_s4)
    np.testing.assert_array_equal(output, np.asarray(case["output_ref"], np.int8).ravel())


def test_convolve_1_x_n_s4_refuses_input_height_above_one():
    case = load_case(ONE_X_N_FILES[0])
    case["input_dims"] = {**case["input_dims"], "h": 2}
    case["input"] = case["input"] * 2
    with pytest.raises(AssertionError, match=str(ARG_ERROR)):
        _run_convolve_s4(case, True, arm_convolve_1_x_n_s4)


_LEAF_NAME = {wrapper.LEAF_1X1_FAST: "arm_convolve_1x1_s4_fast",
              wrapper.LEAF_1X1: "arm_convolve_1x1_s4", wrapper.LEAF_1_X_N: "arm_convolve_1_x_n_s4",
              wrapper.LEAF_CONVOLVE: "arm_convolve_s4"}


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", CASE_FILES, ids=lambda p: p.stem)
def test_wrapper_dispatch(file, path):
    """The wrapper's own instructions pick the kernel the vectors name (wrapper_dispatch); on
    the measured cases its instruction count equals the measured one."""
    case = load_case(file)
    m = machine.build(_layout(case, 0)[0], dsp=path == "simd")
    leaf = run(wrapper.arm_convolve_wrapper_s4, m, types.conv_params(case["conv_params"]),
               types.dims(case["input_dims"]), types.dims(case["filter_dims"]))
    assert _LEAF_NAME[leaf] == case["wrapper_dispatch"]
    if "measured" in case:
        functions = case["measured"][Build(path).measured_build]["functions"]
        assert sum(machine.counts(m).values()) == functions["arm_convolve_wrapper_s4"]


MEASURED_FILES = _cases(REFERENCE)


@pytest.mark.parametrize("path", ["simd", "scalar", "reference"])
@pytest.mark.parametrize("file", CASE_FILES, ids=lambda p: p.stem)
def test_family_bit_exact_on_every_path(file, path):
    case = load_case(file)
    result = run_case(case, Build(path))
    np.testing.assert_array_equal(result.output, np.asarray(case["output_ref"], np.int8).ravel())
    np.testing.assert_array_equal(result.output, _oracle(case))
    if path != "reference":
        assert result.kernel_path[:2] == ["arm_convolve_wrapper_s4", case["wrapper_dispatch"]]


ONE_BY_ONE_FILES = [p for p in CASE_FILES
                    if load_case(p)["function"] in ("arm_convolve_1x1_s4_fast",
                                                    "arm_convolve_1x1_s4")]


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", ONE_BY_ONE_FILES, ids=lambda p: p.stem)
def test_1x1_leaf_called_directly(file, path):
    """The 1x1 kernel the vector names, called as its unit test does (no wrapper)."""
    case = load_case(file)
    result = run_case(case, Build(path), function=case["function"])
    assert result.kernel_path == [case["function"], "arm_nn_mat_mult_nt_t_s4"]
    np.testing.assert_array_equal(result.output, np.asarray(case["output_ref"], np.int8).ravel())


def test_the_1x1_vectors_reach_every_path_of_the_gemm():
    """Odd and even rhs_cols (the spillover nibble), an odd lhs row, left-over rhs rows, and in
    the DSP build the 16- and 4-column steps."""
    cases = [load_case(p) for p in ONE_BY_ONE_FILES + MEASURED_FILES]
    shapes = [(c["input_dims"]["c"], c["output_dims"]["c"]) for c in cases]
    assert {c % 2 for c, _ in shapes} == {0, 1}
    assert any(c["output_dims"]["w"] * c["output_dims"]["h"] % 2 for c in cases)
    assert any(o % 4 for _, o in shapes) and any(c >= 16 for c, _ in shapes)
    assert any(c % 16 >= 4 for c, _ in shapes)


def test_1x1_fast_refuses_a_stride():
    case = load_case(next(p for p in ONE_BY_ONE_FILES
                          if load_case(p)["function"] == "arm_convolve_1x1_s4"))
    with pytest.raises(CaseError, match="arm_convolve_1x1_s4_fast returned ARM_CMSIS_NN_ARG_ERROR"):
        run_case(case, Build("simd"), function="arm_convolve_1x1_s4_fast")


def test_bad_packed_length_is_one_clear_line():
    case = load_case(CASE_FILES[0])
    case["weights"] = case["weights"][:-1]
    with pytest.raises(CaseError, match="weights: .* packed int4 bytes, expected"):
        run_case(case, Build("simd"))


@pytest.mark.parametrize("path", ["simd", "scalar"])
def test_1x1_fast_own_instructions_equal_the_measured(path):
    """arm_convolve_1x1_s4_fast is transcribed from the objdump: the leaf's count less its
    GEMM run alone equals its measured per-function count (43 dsp_O2, 45 scalar_O2)."""
    from armsim.kernels.cmsis_nn.arm_nn_mat_mult_nt_t_s4 import arm_nn_mat_mult_nt_t_s4
    case = load_case(REFERENCE / "conv_s4_1x1_8x8x32_o16_s1_p0.json")
    measured = case["measured"][Build(path).measured_build]["functions"]
    leaf = run_case(case, Build(path), function="arm_convolve_1x1_s4_fast")
    mem, addr = _layout(case, 0)
    m = machine.build(mem, dsp=path == "simd")
    i, p = case["input_dims"], case["conv_params"]
    run(arm_nn_mat_mult_nt_t_s4, m, int(addr["input"]), int(addr["packed_weights"]),
        int(addr["bias"]), int(addr["output"]), int(addr["output_mult"]),
        int(addr["output_shift"]), i["n"] * i["h"] * i["w"], case["output_dims"]["c"], i["c"],
        p["input_offset"], p["output_offset"], p["activation"]["min"], p["activation"]["max"],
        i["c"])
    np.testing.assert_array_equal(machine.read(m, addr["output"], _output_count(case)),
                                  leaf.output)
    own = leaf.instructions - sum(machine.counts(m).values())
    assert own == measured["arm_convolve_1x1_s4_fast"]
