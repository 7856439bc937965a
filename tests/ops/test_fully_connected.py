"""FULLY_CONNECTED's int8 kernels (arm_fully_connected_wrapper_s8 and the two kernels it
dispatches to): the wrapper's choice, gcc's unrolled column loop, a fault past the weights.
(Its cases run through every entry point in tests/kernels/test_entry_points.py, its
properties in tests/ops/test_properties.py.)"""
import copy

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.pipeline.build import Build
from armsim.pipeline.harness import run_case

from conftest import REFERENCE, VECTORS, load_case

#: the DSP extension's MAC and unpacking instructions
SIMD_MNEMONICS = ("smlad", "sxtb16", "sxtab16", "pkhbt")


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


def test_fc_column_loop_is_unrolled_by_gcc_only():
    """The GCC pragma unrolls arm_nn_vec_mat_mult_t_s8's column loop by four; under Arm
    Compiler 6 (toolchain armclang) it runs one step per iteration: same SIMD work, one
    loop branch per step instead of per four steps."""
    case = load_case(REFERENCE / "fc_64_32.json")
    gcc = run_case(case, Build("simd", "gcc"))
    armclang = run_case(case, Build("simd", "armclang"))
    np.testing.assert_array_equal(armclang.output, np.asarray(case["output_ref"], np.int8))
    for mnemonic in SIMD_MNEMONICS:
        assert armclang.counts().get(mnemonic, 0) == gcc.counts().get(mnemonic, 0)
    row_pairs, steps = case["output_dims"]["c"] // 2, case["filter_dims"]["n"] // 4
    # gcc: ANDS/BEQ on n % 4, then one BNE per block; armclang: one BNE per step
    assert armclang.counts()["bcc"] - gcc.counts()["bcc"] == row_pairs * (steps - 1 - steps // 4)


def test_a_fault_outside_memory_is_reported():
    case = copy.deepcopy(load_case(VECTORS / "fully_connected_mve_1.json"))
    case["filter_dims"]["n"] += 64            # reads past the weights and the flash region
    case["input"] = case["input"] + [0] * 64
    with pytest.raises(machine.MemoryFault, match="HardFault"):
        run_case(case, Build("simd"))

