"""Depthwise convolution, int16 activations and int8 weights: arm_depthwise_conv_wrapper_s16
-> arm_depthwise_conv_fast_s16 (ch_mult 1, no dilation; the DSP build's im2col + SMLAD
kernel, the plain-C build's fallback to the generic one) or arm_depthwise_conv_s16; int64
bias and arm_nn_requantize_s64."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_depthwise_conv_fast_s16 import (
    arm_depthwise_conv_fast_s16, arm_depthwise_conv_fast_s16_get_buffer_size,
    arm_depthwise_conv_wrapper_s16, use_fast)
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s16 import arm_depthwise_conv_s16
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import depthwise_conv_s16
from armsim.kernels.tflm.depthwise_conv_s16 import run_reference  # noqa: F401

FUNCTIONS = ("arm_depthwise_conv_wrapper_s16", "arm_depthwise_conv_fast_s16",
             "arm_depthwise_conv_s16")
ARRAYS = {"input": ("sram", np.int16), "bias": ("flash", np.int64)}
OUTPUT_DTYPE = np.int16


def _fast(case):
    p, f = case["dw_conv_params"], case["filter_dims"]
    return use_fast(p["ch_mult"], p["dilation"]["w"], p["dilation"]["h"], f["w"], f["h"])


def buffer_size(case, dsp, armclang):
    """arm_depthwise_conv_wrapper_s16_get_buffer_size: the fast kernel's im2col buffer."""
    if not _fast(case):
        return 0
    return arm_depthwise_conv_fast_s16_get_buffer_size(case["input_dims"], case["filter_dims"], dsp)


def run_cmsis(m, case, addr, function, tracer):
    name = case.get("case", "?")
    if function is None:
        function = FUNCTIONS[0]
    if function not in FUNCTIONS:
        raise CaseError(f"{name}: {function} is not an int16 depthwise entry point (choose "
                        f"from {', '.join(FUNCTIONS)})")
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["dw_conv_params"]
    geometry = (f["w"], f["h"], p["padding"]["w"], p["padding"]["h"], p["stride"]["w"],
                p["stride"]["h"], addr["bias"], addr["output"], addr["output_shift"],
                addr["output_mult"], o["w"], o["h"], p["activation"]["min"], p["activation"]["max"])
    if function == "arm_depthwise_conv_s16":
        run(arm_depthwise_conv_s16, m, addr["input"], i["n"], i["w"], i["h"], i["c"],
            addr["weights"], p["ch_mult"], *geometry, p["dilation"]["w"], p["dilation"]["h"],
            tracer=tracer)
        return [function]
    if function == "arm_depthwise_conv_fast_s16":
        status = run(arm_depthwise_conv_fast_s16, m, addr["scratch"], addr["input"], i["n"],
                     i["w"], i["h"], i["c"], addr["weights"], *geometry, o["c"], tracer=tracer)
        fast = True
    else:
        status, fast = run(arm_depthwise_conv_wrapper_s16, m, addr["scratch"], addr["input"],
                           i["n"], i["w"], i["h"], i["c"], addr["weights"], p["ch_mult"],
                           *geometry, p["dilation"]["w"], p["dilation"]["h"], o["c"],
                           tracer=tracer)
    if status != 0:
        raise CaseError(f"{name}: {function} returned ARM_CMSIS_NN_ARG_ERROR")
    chain = [function] if function != FUNCTIONS[0] else [function]
    if function == FUNCTIONS[0]:
        chain.append("arm_depthwise_conv_fast_s16" if fast else "arm_depthwise_conv_s16")
    if fast and not m.dsp:
        chain.append("arm_depthwise_conv_s16")        # the plain-C fallback
    return chain


ORACLE = depthwise_conv_s16
