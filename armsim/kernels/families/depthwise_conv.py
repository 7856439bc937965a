"""Depthwise convolution family: CMSIS-NN's arm_depthwise_conv_wrapper_s8 and its kernels.

`function` None or 'arm_depthwise_conv_wrapper_s8' runs the wrapper (which dispatches as
CMSIS-NN does); a leaf name runs that kernel directly.  The chain returned is what the
machine actually executed: entry point, the kernel it reached, and the hot helper
(arm_q7_to_q15_with_offset for the DSP opt kernel, arm_depthwise_conv_s8 when the plain-C
opt kernel falls back to it), as in the measured `kernel_chain`.
"""
from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_depthwise_conv_get_buffer_sizes_s8 as sizes
from armsim.kernels.cmsis_nn.arm_depthwise_conv_3x3_s8 import arm_depthwise_conv_3x3_s8
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8 import arm_depthwise_conv_s8
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8_opt import arm_depthwise_conv_s8_opt
from armsim.kernels.cmsis_nn.arm_depthwise_conv_wrapper_s8 import (
    DISPATCH_3X3, DISPATCH_GENERIC, DISPATCH_OPT, DISPATCH_OPT_FALLBACK,
    call_depthwise_conv_wrapper_s8)
from armsim.kernels import oracle
from armsim.kernels.tflm.depthwise_conv import run_reference  # noqa: F401 (the reference path)

WRAPPER = "arm_depthwise_conv_wrapper_s8"
K3X3 = "arm_depthwise_conv_3x3_s8"
OPT = "arm_depthwise_conv_s8_opt"
GENERIC = "arm_depthwise_conv_s8"
Q7_TO_Q15 = "arm_q7_to_q15_with_offset"
FUNCTIONS = (WRAPPER, K3X3, OPT, GENERIC)

_CHAIN = {DISPATCH_3X3: [K3X3], DISPATCH_GENERIC: [GENERIC]}


def _params(case):
    p = case["dw_conv_params"]
    i, f, o = case["input_dims"], case["filter_dims"], case["output_dims"]
    return p, i, f, o


def buffer_size(case, dsp, armclang):
    """The scratch size the caller asks for: `*_get_buffer_size` of the case's entry point
    (the opt kernel's own for an opt unit test, else the wrapper's)."""
    p, i, f, o = _params(case)
    if case.get("function") == OPT:
        return sizes.opt_buffer_size(i["c"], f["w"], f["h"], dsp)
    return sizes.wrapper_buffer_size(i["c"], o["c"], i["n"], f["w"], f["h"], p["padding"]["w"],
                                     p["padding"]["h"], p["dilation"]["w"], p["dilation"]["h"],
                                     dsp)


def run_cmsis(m, case, addr, function, tracer):
    from armsim.errors import CaseError
    function = function or WRAPPER
    if function not in FUNCTIONS:
        raise CaseError(f"unknown depthwise function {function!r} (known: {', '.join(FUNCTIONS)})")
    p, i, f, o = _params(case)
    act = p["activation"]
    common = (i["w"], i["h"], i["c"])
    tail = (addr["weights"], addr["bias"], o["c"], o["w"], o["h"], addr["output"],
            addr["output_mult"], addr["output_shift"], p["padding"]["w"], p["padding"]["h"],
            p["stride"]["w"], p["stride"]["h"])
    full = (*common, i["n"], addr["input"], f["w"], f["h"], *tail, p["dilation"]["w"],
            p["dilation"]["h"], p["ch_mult"], p["input_offset"], p["output_offset"], act["min"],
            act["max"])
    buf = addr["scratch"]
    if function == WRAPPER:
        status = call_depthwise_conv_wrapper_s8(m, buf, *full, tracer=tracer)
        chain = [WRAPPER]
        if status == DISPATCH_OPT:
            chain += [OPT] + ([Q7_TO_Q15] if m.dsp else [])
        elif status == DISPATCH_OPT_FALLBACK:
            chain += [OPT, GENERIC]
        elif status >= 0:
            chain += _CHAIN[status]
    elif function == K3X3:
        status = run(arm_depthwise_conv_3x3_s8, m, *common, addr["input"], f["w"], f["h"], *tail,
                     p["input_offset"], p["output_offset"], act["min"], act["max"], tracer=tracer)
        chain = [K3X3]
    elif function == OPT:
        status = run(arm_depthwise_conv_s8_opt, m, buf, *full, tracer=tracer)
        chain = [OPT] + ([GENERIC] if status == 1 else [Q7_TO_Q15] if status == 0 else [])
    else:
        status = run(arm_depthwise_conv_s8, m, *full, tracer=tracer)
        chain = [GENERIC]
    if status < 0:
        raise CaseError(f"{function}: ARM_CMSIS_NN_ARG_ERROR for case {case.get('case', '?')}")
    return chain


ORACLE = oracle.depthwise_conv
