"""SVDF with int16 state and time weights: arm_svdf_state_s16_s8 (TFLM's CMSIS-NN glue
calls it for int16 time weights).  Everything but the kernel and the array types is the
svdf family's (kernels/families/svdf.py)."""
import numpy as np

from armsim.kernels import oracle
from armsim.kernels.cmsis_nn.arm_svdf_state_s16_s8 import arm_svdf_state_s16_s8
from armsim.kernels.families.svdf import (  # noqa: F401
    buffer_size,
    buffer_sizes,
    output_count,
    run_steps,
)
from armsim.kernels.tflm.svdf import (  # noqa: F401
    reference_buffer_size,
    reference_buffer_sizes,
    run_reference,
)

FUNCTIONS = ("arm_svdf_state_s16_s8",)
ARRAYS = {"state": ("sram", np.int16), "weights_feature": ("flash", np.int8),
          "weights_time": ("flash", np.int16)}
CHAIN = ["arm_svdf_state_s16_s8", "memmove", "arm_nn_vec_mat_mult_t_svdf_s8"]


def run_cmsis(m, case, addr, function, tracer):
    return run_steps(arm_svdf_state_s16_s8, "arm_svdf_state_s16_s8", m, case, addr, function,
                     tracer, FUNCTIONS, CHAIN)


ORACLE = oracle.svdf
