"""Depthwise convolution, int16 activations and int8 weights: arm_depthwise_conv_wrapper_s16
-> arm_depthwise_conv_fast_s16 (ch_mult 1, no dilation, fewer than 512 taps; the DSP build's
im2col + SMLAD kernel, the plain-C build's tail call of the generic one) or
arm_depthwise_conv_s16; int64 bias and arm_nn_requantize_s64."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_depthwise_conv_get_buffer_sizes_s16 as sizes
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_depthwise_conv_fast_s16 import (TAIL_CALL_GENERIC,
                                                                 call_depthwise_conv_fast_s16)
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s16 import arm_depthwise_conv_s16
from armsim.kernels.cmsis_nn.arm_depthwise_conv_wrapper_s16 import (
    KERNEL_FAST, call_depthwise_conv_wrapper_s16)
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import depthwise_conv_s16
from armsim.kernels.tflm.depthwise_conv_s16 import run_reference  # noqa: F401

WRAPPER = "arm_depthwise_conv_wrapper_s16"
FAST = "arm_depthwise_conv_fast_s16"
GENERIC = "arm_depthwise_conv_s16"
FUNCTIONS = (WRAPPER, FAST, GENERIC)
ARRAYS = {"input": ("sram", np.int16), "bias": ("flash", np.int64)}
OUTPUT_DTYPE = np.int16


def buffer_size(case, dsp, armclang):
    """The scratch size the caller asks for: the fast kernel's own for a fast unit test, else
    arm_depthwise_conv_wrapper_s16_get_buffer_size."""
    p = types.dw_conv_params(case["dw_conv_params"])
    i, f, o = (types.dims(case[k]) for k in ("input_dims", "filter_dims", "output_dims"))
    if case.get("function") == FAST:
        return sizes.fast_buffer_size(i, f, dsp)
    return sizes.wrapper_buffer_size(p, i, f, o, dsp)


def _args(case, addr):
    out_c = case["output_dims"]["c"]
    return (types.Context(int(addr["scratch"]), int(addr["scratch_bytes"])),
            types.dw_conv_params(case["dw_conv_params"]),
            types.PerChannelQuantParams(int(addr["output_mult"]), int(addr["output_shift"])),
            types.dims(case["input_dims"]), int(addr["input"]),
            types.dims(case["filter_dims"]), int(addr["weights"]),
            types.dims(case.get("bias_dims", {"n": 1, "h": 1, "w": 1, "c": out_c})),
            int(addr["bias"]), types.dims(case["output_dims"]), int(addr["output"]))


def _fast_chain(status):
    return [FAST, GENERIC] if status == TAIL_CALL_GENERIC else [FAST]


def run_cmsis(m, case, addr, function, tracer):
    name = case.get("case", "?")
    function = function or WRAPPER
    if function not in FUNCTIONS:
        raise CaseError(f"{name}: {function} is not an int16 depthwise entry point (choose "
                        f"from {', '.join(FUNCTIONS)})")
    args = _args(case, addr)
    if function == WRAPPER:
        called, status = call_depthwise_conv_wrapper_s16(m, *args, tracer=tracer)
        chain = [WRAPPER] + (_fast_chain(status) if called == KERNEL_FAST else [GENERIC])
    elif function == FAST:
        status = call_depthwise_conv_fast_s16(m, *args, tracer=tracer)
        chain = _fast_chain(status)
    else:
        status = run(arm_depthwise_conv_s16, m, *args, tracer=tracer)
        chain = [GENERIC]
    if status < 0:
        raise CaseError(f"{name}: {function} returned ARM_CMSIS_NN_ARG_ERROR")
    return chain


ORACLE = depthwise_conv_s16
