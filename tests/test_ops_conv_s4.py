"""CONV_2D with packed int4 weights (issue 10), work in progress: the generic leaf
arm_convolve_s4 (with arm_nn_mat_mult_kernel_s4_s16) run directly on every conv_s4 case of
../shared (it computes any convolution, whichever kernel the wrapper would pick), on the simd
and scalar builds, bit-exact with the vectors' output_ref and with the int8 conv oracle on the
unpacked weights; and the measured instruction totals of the case whose wrapper reaches
arm_convolve_s4 (conv_s4_3x3_8x8x16_o16_s1_p1).  The family module (wrapper, 1x1 / 1xN leaves, reference path, measured
counts) is not there yet, so conv_s4 stays in NOT_PORTED."""
import json

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.cpu.kernel import run
from armsim.kernels import oracle
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_convolve_s4 import arm_convolve_s4

from conftest import MEASURED_BUILD, REFERENCE, VECTORS, load_case

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


def _run_convolve_s4(case, dsp):
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 0).region("flash", machine.FLASH_BASE, 0)
    src = mem.place("sram", np.asarray(case["input"], np.int8))
    weights = mem.place("flash", _packed(case))
    bias = 0 if case.get("bias_is_null") else mem.place("flash", np.asarray(case["bias"], np.int32))
    mult = mem.place("flash", np.asarray(case["output_mult"], np.int32))
    shift = mem.place("flash", np.asarray(case["output_shift"], np.int32))
    d = case["output_dims"]
    count = d["n"] * d["h"] * d["w"] * d["c"]
    out = mem.place("sram", count)
    f = case["filter_dims"]
    scratch_bytes = 2 * 2 * f["h"] * f["w"] * case["input_dims"]["c"]   # two int16 columns
    scratch = mem.place("sram", scratch_bytes)
    m = machine.build(mem, dsp=dsp)
    filter_dims = {**f, "c": case["input_dims"]["c"]}
    status = run(arm_convolve_s4, m, types.Context(int(scratch), scratch_bytes),
                 types.conv_params(case["conv_params"]),
                 types.PerChannelQuantParams(int(mult), int(shift)),
                 types.dims(case["input_dims"]), int(src), types.dims(filter_dims),
                 int(weights), int(bias), types.dims(d), int(out))
    assert status == 0
    return machine.read(m, out, count), m


def test_the_directories_hold_the_int4_conv_cases():
    assert len(CASE_FILES) == 20


@pytest.mark.parametrize("dsp", [True, False], ids=["simd", "scalar"])
@pytest.mark.parametrize("file", CASE_FILES, ids=lambda p: p.stem)
def test_convolve_s4_bit_exact(file, dsp):
    case = load_case(file)
    output, _ = _run_convolve_s4(case, dsp)
    np.testing.assert_array_equal(output, np.asarray(case["output_ref"], np.int8).ravel())
    want = oracle.conv({**case, "weights": _unpacked(case),
                        "filter_dims": {**case["filter_dims"], "c": case["input_dims"]["c"]}})
    np.testing.assert_array_equal(output, np.asarray(want).ravel())


#: instructions the port executes as gcc does, one for one, on conv_s4_3x3_8x8x16_o16_s1_p1
EXACT_MNEMONICS = {"simd": ("smlad", "sxtb16", "ror", "pkhbt", "pkhtb", "uxtb", "bfi", "orr"),
                   "scalar": ("ldrsb", "sbfx", "strh")}


@pytest.mark.parametrize("path", ["simd", "scalar"])
def test_convolve_s4_counts_against_measured(path):
    case = load_case(REFERENCE / "conv_s4_3x3_8x8x16_o16_s1_p1.json")
    measured = case["measured"][MEASURED_BUILD[path]]
    assert measured["kernel_chain"][1:] == ["arm_convolve_s4", "arm_nn_mat_mult_kernel_s4_s16"]
    _, m = _run_convolve_s4(case, path == "simd")
    counts = machine.counts(m)
    total, want = sum(counts.values()), measured["instructions"]
    assert abs(total - want) <= 0.05 * want, (total, want, f"{total / want - 1:+.1%}")
    for mnemonic in EXACT_MNEMONICS[path]:
        assert counts.get(mnemonic, 0) == measured["mnemonic_histogram"][mnemonic], mnemonic
