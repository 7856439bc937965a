"""Depthwise convolution with packed int4 weights: CMSIS-NN's arm_depthwise_conv_wrapper_s4,
which dispatches to arm_depthwise_conv_s4_opt (ch_mult 1, one batch, no dilation) or to the
generic arm_depthwise_conv_s4.  The reference path is TFLM's: the int4 weights unpacked to
int8 into a scratch buffer, then the int8 reference DepthwiseConvPerChannel
(kernels/tflm/depthwise_conv_s4.py).

Weights: the CMSIS-NN vectors store the packed bytes in `weights`, the measured cases the
int4 values in `weights` and the packed bytes in `weights_packed_int4`; `packed_weights` is
the one place that tells them apart, the kernels read the packed bytes."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels import oracle
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s4 import arm_depthwise_conv_s4
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s4_opt import arm_depthwise_conv_s4_opt
from armsim.kernels.cmsis_nn.arm_depthwise_conv_wrapper_s4 import (
    DISPATCH_OPT, call_depthwise_conv_wrapper_s4)
from armsim.errors import CaseError
from armsim.kernels.tflm import depthwise_conv_s4 as tflm_dw_s4

WRAPPER = "arm_depthwise_conv_wrapper_s4"
OPT = "arm_depthwise_conv_s4_opt"
GENERIC = "arm_depthwise_conv_s4"
Q7_TO_Q15 = "arm_q7_to_q15_with_offset"
FUNCTIONS = (WRAPPER, OPT, GENERIC)
reference_buffer_size = tflm_dw_s4.reference_buffer_size


def weight_count(case):
    f = case["filter_dims"]
    return f["h"] * f["w"] * case["output_dims"]["c"]


def packed_weights(case):
    """The packed bytes (two int4 weights per byte, element 2k in the low nibble of byte k)."""
    count = weight_count(case)
    packed = case.get("weights_packed_int4", case["weights"])
    if len(packed) != (count + 1) // 2:
        raise CaseError(f"{case.get('case', '?')}: weights: {len(packed)} packed int4 bytes, "
                        f"expected {(count + 1) // 2} for {count} weights")
    return np.asarray(packed, np.int8)


def unpacked_weights(case):
    """The int4 weights as int8 values, from the packed bytes."""
    packed = packed_weights(case).astype(np.int16)
    low = ((packed & 0xF) ^ 8) - 8
    return np.stack([low, packed >> 4], axis=1).ravel()[:weight_count(case)]


def derived_arrays(case):
    return {"packed_weights": ("flash", packed_weights(case))}


def _opt_reachable(case):
    p, i, o = case["dw_conv_params"], case["input_dims"], case["output_dims"]
    return (i["c"] == o["c"] and i["n"] == 1 and p["dilation"]["w"] == 1
            and p["dilation"]["h"] == 1)


def buffer_size(case, dsp, armclang):
    """arm_depthwise_conv_wrapper_s4_get_buffer_size (or the opt kernel's own for an opt unit
    test): input_ch * kernel_x * kernel_y int16 when the opt kernel runs (DSP or not), else 0."""
    i, f = case["input_dims"], case["filter_dims"]
    if case.get("function") == OPT or _opt_reachable(case):
        return i["c"] * f["w"] * f["h"] * 2
    return 0


def run_cmsis(m, case, addr, function, tracer):
    function = function or WRAPPER
    if function not in FUNCTIONS:
        raise CaseError(f"unknown int4 depthwise function {function!r} "
                        f"(known: {', '.join(FUNCTIONS)})")
    p, i, f, o = case["dw_conv_params"], case["input_dims"], case["filter_dims"], \
        case["output_dims"]
    act = p["activation"]
    geometry = (addr["output_mult"], addr["output_shift"], p["padding"]["w"], p["padding"]["h"],
                p["stride"]["w"], p["stride"]["h"])
    if function == WRAPPER:
        status = call_depthwise_conv_wrapper_s4(
            m, addr["scratch"], i["w"], i["h"], i["c"], i["n"], addr["input"], f["w"], f["h"],
            addr["packed_weights"], addr["bias"], o["c"], o["w"], o["h"], addr["output"],
            *geometry, p["dilation"]["w"], p["dilation"]["h"], p["ch_mult"],
            p["input_offset"], p["output_offset"], act["min"], act["max"], tracer=tracer)
        chain = [WRAPPER] + ([OPT, Q7_TO_Q15] if status == DISPATCH_OPT else [GENERIC])
    elif function == OPT:
        status = run(arm_depthwise_conv_s4_opt, m, addr["scratch"], i["w"], i["h"], i["c"],
                     addr["input"], f["w"], f["h"], addr["packed_weights"], addr["bias"], o["c"],
                     o["w"], o["h"], addr["output"], *geometry, p["input_offset"],
                     p["output_offset"], act["min"], act["max"], tracer=tracer)
        chain = [OPT, Q7_TO_Q15]
    else:
        status = run(arm_depthwise_conv_s4, m, i["w"], i["h"], i["c"], i["n"], addr["input"],
                     f["w"], f["h"], addr["packed_weights"], addr["bias"], o["w"], o["h"],
                     addr["output"], *geometry, p["dilation"]["w"], p["dilation"]["h"],
                     p["ch_mult"], p["input_offset"], p["output_offset"], act["min"],
                     act["max"], tracer=tracer)
        chain = [GENERIC]
    if status < 0:
        raise CaseError(f"{function}: ARM_CMSIS_NN_ARG_ERROR for case {case.get('case', '?')}")
    return chain


def run_reference(m, case, addr, tracer):
    return tflm_dw_s4.run_reference(m, case, {**addr, "weights": addr["packed_weights"]},
                                    tracer)


def ORACLE(case):
    """The int8 depthwise oracle on the unpacked weights."""
    return oracle.depthwise_conv({**case, "weights": unpacked_weights(case)})
