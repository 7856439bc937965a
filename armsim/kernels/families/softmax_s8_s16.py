"""Softmax, int8 in / int16 out: arm_softmax_s8_s16 -> arm_nn_softmax_common_s8 with
int16_output (no scratch buffer); output zero point -32768, scale 1/65536."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_softmax_s8_s16 import arm_softmax_s8_s16
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import softmax_s8_s16
from armsim.kernels.tflm.softmax import run_reference_s8_s16 as run_reference  # noqa: F401

FUNCTIONS = ("arm_softmax_s8_s16",)
OUTPUT_DTYPE = np.int16
ORACLE = softmax_s8_s16


def buffer_size(case, dsp, armclang):
    return 0


def output_count(case):
    return case["num_rows"] * case["row_size"]


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, *FUNCTIONS):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int8 -> int16 softmax "
                        f"entry point (use {FUNCTIONS[0]})")
    run(arm_softmax_s8_s16, m, addr["input"], case["num_rows"], case["row_size"], case["mult"],
        case["shift"], case["diff_min"], addr["output"], tracer=tracer)
    return ["arm_softmax_s8_s16", "arm_nn_softmax_common_s8"]
