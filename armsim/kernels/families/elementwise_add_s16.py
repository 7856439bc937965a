"""Element-wise add, int16: arm_elementwise_add_s16 (no scratch buffer; offsets ignored)."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_elementwise_add_s16 import arm_elementwise_add_s16
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import elementwise_add_s16
from armsim.kernels.tflm.elementwise_add_s16 import run_reference  # noqa: F401 (reference path)

FUNCTIONS = ("arm_elementwise_add_s16",)
ARRAYS = {"input": ("sram", np.int16), "input2": ("sram", np.int16)}
OUTPUT_DTYPE = np.int16


def buffer_size(case, dsp, armclang):
    return 0


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, *FUNCTIONS):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 element-wise add "
                        f"entry point (use {FUNCTIONS[0]})")
    c = case
    run(arm_elementwise_add_s16, m, addr["input"], addr["input2"], c["input_1_offset"],
        c["input_1_mult"], c["input_1_shift"], c["input_2_offset"], c["input_2_mult"],
        c["input_2_shift"], c["left_shift"], addr["output"], c["out_offset"], c["out_mult"],
        c["out_shift"], c["out_activation_min"], c["out_activation_max"], c["block_size"],
        tracer=tracer)
    return list(FUNCTIONS)


ORACLE = elementwise_add_s16


def output_count(case):
    return case["block_size"]
