"""Minimum: arm_minimum_s8 (no scratch buffer), as the maximum family."""
import numpy as np

from armsim.kernels.cmsis_nn.arm_minimum_s8 import arm_minimum_s8
from armsim.kernels.families.maximum import buffer_size, oracle_of, output_count, run_binary  # noqa: F401
from armsim.kernels.tflm.maximum_minimum import run_reference  # noqa: F401 (the reference path)

FUNCTIONS = ("arm_minimum_s8",)


def run_cmsis(m, case, addr, function, tracer):
    return run_binary(m, case, addr, function, tracer, FUNCTIONS, arm_minimum_s8)


def ORACLE(case):
    return oracle_of(case, np.minimum)
