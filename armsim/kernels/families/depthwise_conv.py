"""Depthwise convolution family: CMSIS-NN's arm_depthwise_conv_wrapper_s8 and its kernels.

`function` None or 'arm_depthwise_conv_wrapper_s8' runs the wrapper (which dispatches as
CMSIS-NN does); a leaf name runs that kernel directly.  The chain returned is what the
machine actually executed: entry point, the kernel it reached, and the hot helper
(arm_q7_to_q15_with_offset for the DSP opt kernel, arm_depthwise_conv_s8 when the plain-C
opt kernel falls back to it, depthwise_conv_s8_mult_4 behind arm_depthwise_conv_s8), as in
the measured `kernel_chain`.
"""
from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_depthwise_conv_get_buffer_sizes_s8 as sizes
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_depthwise_conv_3x3_s8 import arm_depthwise_conv_3x3_s8
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8 import MULT_4, call_depthwise_conv_s8
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8_opt import (TAIL_CALL_GENERIC,
                                                               call_depthwise_conv_s8_opt)
from armsim.kernels.cmsis_nn.arm_depthwise_conv_wrapper_s8 import (
    KERNEL_3X3, KERNEL_OPT, call_depthwise_conv_wrapper_s8)
from armsim.kernels import oracle
from armsim.kernels.tflm.depthwise_conv import run_reference  # noqa: F401 (the reference path)

WRAPPER = "arm_depthwise_conv_wrapper_s8"
K3X3 = "arm_depthwise_conv_3x3_s8"
OPT = "arm_depthwise_conv_s8_opt"
GENERIC = "arm_depthwise_conv_s8"
Q7_TO_Q15 = "arm_q7_to_q15_with_offset"
FUNCTIONS = (WRAPPER, K3X3, OPT, GENERIC)


def buffer_size(case, dsp, armclang):
    """The scratch size the caller asks for: `*_get_buffer_size` of the case's entry point
    (the opt kernel's own for an opt unit test, else the wrapper's)."""
    p = types.dw_conv_params(case["dw_conv_params"])
    i, f, o = (types.dims(case[k]) for k in ("input_dims", "filter_dims", "output_dims"))
    if case.get("function") == OPT:
        return sizes.opt_buffer_size(i, f, dsp)
    return sizes.wrapper_buffer_size(p, i, f, o, dsp)


def _args(case, addr):
    """The C API's arguments (ctx, dw_conv_params, quant_params, input_dims, input,
    filter_dims, kernel, bias_dims, bias, output_dims, output) as `arm_nn_types` structs
    and simulated addresses."""
    out_c = case["output_dims"]["c"]
    return (types.Context(int(addr["scratch"]), int(addr["scratch_bytes"])),
            types.dw_conv_params(case["dw_conv_params"]),
            types.PerChannelQuantParams(int(addr["output_mult"]), int(addr["output_shift"])),
            types.dims(case["input_dims"]), int(addr["input"]),
            types.dims(case["filter_dims"]), int(addr["weights"]),
            types.dims(case.get("bias_dims", {"n": 1, "h": 1, "w": 1, "c": out_c})),
            int(addr["bias"]), types.dims(case["output_dims"]), int(addr["output"]))


def _opt_chain(status, dsp):
    if status == TAIL_CALL_GENERIC:
        return [OPT, GENERIC]
    return [OPT, Q7_TO_Q15] if dsp else [OPT]


def run_cmsis(m, case, addr, function, tracer):
    from armsim.errors import CaseError
    function = function or WRAPPER
    if function not in FUNCTIONS:
        raise CaseError(f"unknown depthwise function {function!r} (known: {', '.join(FUNCTIONS)})")
    args = _args(case, addr)
    if function == WRAPPER:
        called, status = call_depthwise_conv_wrapper_s8(m, *args, tracer=tracer)
        if called == KERNEL_3X3:
            chain = [WRAPPER, K3X3]
        elif called == KERNEL_OPT:
            chain = [WRAPPER] + _opt_chain(status, m.dsp)
        else:
            status, path = status
            chain = [WRAPPER, GENERIC] + (["depthwise_conv_s8_mult_4"] if path == MULT_4 else [])
    elif function == K3X3:
        status = run(arm_depthwise_conv_3x3_s8, m, *args, tracer=tracer)
        chain = [K3X3]
    elif function == OPT:
        status = call_depthwise_conv_s8_opt(m, *args, tracer=tracer)
        chain = _opt_chain(status, m.dsp)
    else:
        status, path = call_depthwise_conv_s8(m, *args, tracer=tracer)
        chain = [GENERIC] + (["depthwise_conv_s8_mult_4"] if path == MULT_4 else [])
    if status < 0:
        raise CaseError(f"{function}: ARM_CMSIS_NN_ARG_ERROR for case {case.get('case', '?')}")
    return chain


ORACLE = oracle.depthwise_conv
