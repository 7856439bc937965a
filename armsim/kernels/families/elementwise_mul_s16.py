"""Element-wise multiply, int16: arm_elementwise_mul_s16 (no scratch buffer; offsets ignored)."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_elementwise_mul_s16 import arm_elementwise_mul_s16
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import elementwise_mul_s16
from armsim.kernels.tflm import elementwise_mul as _tflm_mul


def run_reference(m, case, addr, tracer):
    """TFLM's Mul<int16_t>: the int8 reference template on halfwords."""
    return _tflm_mul.run_reference(m, case, addr, tracer, element_bytes=2)


FUNCTIONS = ("arm_elementwise_mul_s16",)
ARRAYS = {"input": ("sram", np.int16), "input2": ("sram", np.int16)}
OUTPUT_DTYPE = np.int16


def buffer_size(case, dsp, armclang):
    return 0


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, *FUNCTIONS):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 element-wise "
                        f"multiply entry point (use {FUNCTIONS[0]})")
    c = case
    run(arm_elementwise_mul_s16, m, addr["input"], addr["input2"], c["input_1_offset"],
        c["input_2_offset"], addr["output"], c["out_offset"], c["out_mult"], c["out_shift"],
        c["out_activation_min"], c["out_activation_max"], c["block_size"], tracer=tracer)
    return list(FUNCTIONS)


ORACLE = elementwise_mul_s16


def output_count(case):
    return case["block_size"]
