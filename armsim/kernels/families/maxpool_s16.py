"""Max pooling, int16: arm_max_pool_s16 (no scratch buffer)."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_max_pool_s16 import arm_max_pool_s16
from armsim.kernels.families.avgpool import pool_args
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import maxpool_s16
from armsim.kernels.tflm.maxpool import run_reference_s16 as run_reference  # noqa: F401

FUNCTIONS = ("arm_max_pool_s16",)
ARRAYS = {"input": ("sram", np.int16)}
OUTPUT_DTYPE = np.int16


def buffer_size(case, dsp, armclang):
    return 0


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, *FUNCTIONS):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 max pooling entry "
                        f"point (use {FUNCTIONS[0]})")
    status = run(arm_max_pool_s16, m, *pool_args(case, addr), tracer=tracer)
    if status != 0:
        raise CaseError(f"{case.get('case', '?')}: arm_max_pool_s16 returned ARM_CMSIS_NN_ARG_ERROR")
    return list(FUNCTIONS)


ORACLE = maxpool_s16
