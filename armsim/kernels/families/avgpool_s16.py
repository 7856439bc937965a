"""Average pooling, int16: arm_avgpool_s16 (scratch: arm_avgpool_s16_get_buffer_size, ch_src
int32 in the DSP build, none in plain C)."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_avgpool_s16 import arm_avgpool_s16
from armsim.kernels.families.avgpool import pool_args
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import avgpool_s16
from armsim.kernels.tflm.avgpool import run_reference_s16 as run_reference  # noqa: F401

FUNCTIONS = ("arm_avgpool_s16",)
ARRAYS = {"input": ("sram", np.int16)}
OUTPUT_DTYPE = np.int16


def buffer_size(case, dsp, armclang):
    """arm_avgpool_s16_get_buffer_size(output_x, ch_src): ch_src * sizeof(int32_t) with DSP."""
    return case["input_dims"]["c"] * 4 if dsp else 0


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, *FUNCTIONS):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 average pooling "
                        f"entry point (use {FUNCTIONS[0]})")
    status = run(arm_avgpool_s16, m, *pool_args(case, addr), tracer=tracer)
    if status != 0:
        raise CaseError(f"{case.get('case', '?')}: arm_avgpool_s16 returned ARM_CMSIS_NN_ARG_ERROR")
    return list(FUNCTIONS)


ORACLE = avgpool_s16
