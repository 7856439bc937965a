"""Convolution, int16 activations and int8 weights: arm_convolve_wrapper_s16 ->
arm_convolve_s16 -> arm_nn_mat_mult_kernel_s16 (im2col of int16 columns; int64 bias with
arm_nn_requantize_s64, or an int32 bias with arm_nn_requantize: `is_int32_bias`)."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_convolve_s16 import (arm_convolve_s16,
                                                      arm_convolve_s16_get_buffer_size,
                                                      arm_convolve_wrapper_s16)
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import conv_s16
from armsim.kernels.tflm.conv_s16 import is_int32_bias, run_reference  # noqa: F401

FUNCTIONS = ("arm_convolve_wrapper_s16", "arm_convolve_s16")
ARRAYS = {"input": ("sram", np.int16)}
OUTPUT_DTYPE = np.int16


def case_arrays(case):
    return {"bias": ("flash", np.int32 if is_int32_bias(case) else np.int64)}


def buffer_size(case, dsp, armclang):
    return arm_convolve_s16_get_buffer_size(case["input_dims"], case["filter_dims"])


def run_cmsis(m, case, addr, function, tracer):
    if function is None:
        function = FUNCTIONS[0]
    if function not in FUNCTIONS:
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 convolution "
                        f"entry point (choose from {', '.join(FUNCTIONS)})")
    if case.get("groups", 1) != 1:
        raise CaseError(f"{case.get('case', '?')}: arm_convolve_s16 has no grouped convolution")
    kern = arm_convolve_wrapper_s16 if function == FUNCTIONS[0] else arm_convolve_s16
    status, gemm = run(kern, m, types.Context(int(addr["scratch"]), int(addr["scratch_bytes"])),
                       types.conv_params(case["conv_params"]),
                       types.PerChannelQuantParams(int(addr["output_mult"]),
                                                   int(addr["output_shift"])),
                       types.dims(case["input_dims"]), int(addr["input"]),
                       types.dims(case["filter_dims"]), int(addr["weights"]),
                       types.BiasData(int(addr["bias"]), int(is_int32_bias(case))),
                       types.dims(case["output_dims"]), int(addr["output"]), tracer=tracer)
    if status != 0:
        raise CaseError(f"{case.get('case', '?')}: {function} returned ARM_CMSIS_NN_ARG_ERROR")
    chain = [function] if function == "arm_convolve_s16" else [function, "arm_convolve_s16"]
    return chain + (["arm_nn_mat_mult_kernel_s16"] if gemm else [])


ORACLE = conv_s16
