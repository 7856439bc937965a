"""arm_depthwise_conv_wrapper_s4 (Source/ConvolutionFunctions/arm_depthwise_conv_wrapper_s4.c).

    if (1 == ch_mult && input_dims->n == 1 && dilation.w == 1 && dilation.h == 1)
        -> arm_depthwise_conv_s4_opt
    else
        -> arm_depthwise_conv_s4

As for the s8 wrapper, the wrapper's own instructions are one compiled kernel returning which
kernel it calls; `call_depthwise_conv_wrapper_s4` (host side) then runs that kernel.  Its
instructions are the C's compares and the call (measured: 24-31 per call; not fitted yet).
Returns DISPATCH_OPT / DISPATCH_GENERIC, or the kernel's negative ARM_CMSIS_NN_ARG_ERROR.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import b, bcc, cmp, pop, push
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s4 import arm_depthwise_conv_s4
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s4_opt import arm_depthwise_conv_s4_opt

DISPATCH_OPT = 0
DISPATCH_GENERIC = 1


@kernel(inline=True)
def _check(m, value, expected):
    cmp(m, value, expected)
    bcc(m, value != expected)
    return value == expected


@kernel
def arm_depthwise_conv_wrapper_s4(m, input_n, dilation_x, dilation_y, ch_mult):
    """The wrapper's own instructions up to its tail call; returns DISPATCH_*."""
    push(m, 5)
    ok = _check(m, ch_mult, 1)                                # 1 == dw_conv_params->ch_mult
    if ok:
        ok = _check(m, input_n, 1)                            # input_dims->n == 1
    if ok:
        ok = _check(m, dilation_x, 1)                         # dilation.w == 1
    if ok:
        ok = _check(m, dilation_y, 1)                         # dilation.h == 1
    pop(m, 5)
    b(m)                                                      # tail call
    return DISPATCH_OPT if ok else DISPATCH_GENERIC


def call_depthwise_conv_wrapper_s4(m, buf, input_x, input_y, input_ch, input_n, input, filter_w,
                                   filter_h, kernel_, bias, output_ch, output_x, output_y, output,
                                   output_mult, output_shift, pad_x, pad_y, stride_x, stride_y,
                                   dilation_x, dilation_y, ch_mult, input_offset, output_offset,
                                   act_min, act_max, tracer=None):
    """Run the wrapper, then the kernel it dispatched to; returns DISPATCH_* or the kernel's
    negative status."""
    dispatch = run(arm_depthwise_conv_wrapper_s4, m, input_n, dilation_x, dilation_y, ch_mult,
                   tracer=tracer)
    if dispatch == DISPATCH_OPT:
        status = run(arm_depthwise_conv_s4_opt, m, buf, input_x, input_y, input_ch, input,
                     filter_w, filter_h, kernel_, bias, output_ch, output_x, output_y, output,
                     output_mult, output_shift, pad_x, pad_y, stride_x, stride_y, input_offset,
                     output_offset, act_min, act_max, tracer=tracer)
    else:
        status = run(arm_depthwise_conv_s4, m, input_x, input_y, input_ch, input_n, input,
                     filter_w, filter_h, kernel_, bias, output_x, output_y, output, output_mult,
                     output_shift, pad_x, pad_y, stride_x, stride_y, dilation_x, dilation_y,
                     ch_mult, input_offset, output_offset, act_min, act_max, tracer=tracer)
    return status if status < 0 else dispatch
