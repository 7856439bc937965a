"""arm_depthwise_conv_wrapper_s8 (Source/ConvolutionFunctions/arm_depthwise_conv_wrapper_s8.c),
non-MVE build.

    if (1 == ch_mult && input_dims->n == 1 && dilation.w == 1 && dilation.h == 1)
        if (filter 3x3 && padding.h <= 1 && padding.w <= 1)  -> arm_depthwise_conv_3x3_s8
        else                                                 -> arm_depthwise_conv_s8_opt
    else                                                     -> arm_depthwise_conv_s8

gcc compiles each call as a tail call: the wrapper restores its registers (POP without PC)
and branches (B) to the kernel, whose return goes straight back to the caller.

Arguments are the C function's, flattened (struct fields as ints, pointers as simulated
addresses, bias 0 = NULL, buf 0 = NULL).  Returns which kernel ran: DISPATCH_3X3,
DISPATCH_OPT, DISPATCH_OPT_FALLBACK (opt, which called arm_depthwise_conv_s8),
DISPATCH_GENERIC, or a negative ARM_CMSIS_NN_ARG_ERROR from the kernel.

The wrapper's own instructions are one compiled kernel that returns which kernel it calls;
`call_depthwise_conv_wrapper_s8` (host side) then runs that kernel, so a model compiles only the
kernels it reaches, and the instructions and their order are those of the C.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import b, bcc, cmp, fitted_ldr_sp, fitted_ldrd_sp, fitted_str_sp, pop, push, sub
from armsim.kernels.cmsis_nn.arm_depthwise_conv_3x3_s8 import arm_depthwise_conv_3x3_s8
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8 import arm_depthwise_conv_s8
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8_opt import arm_depthwise_conv_s8_opt

DISPATCH_3X3 = 0
DISPATCH_OPT = 1
DISPATCH_OPT_FALLBACK = 2
DISPATCH_GENERIC = 3

# the kernel the wrapper tail-calls
KERNEL_3X3 = 0
KERNEL_OPT = 1
KERNEL_GENERIC = 2


@kernel(inline=True)
def _check(m, value, expected):
    cmp(m, value, expected)
    bcc(m, value != expected)
    return value == expected


@kernel
def arm_depthwise_conv_wrapper_s8(m, input_n, filter_w, filter_h, pad_x, pad_y, dilation_x,
                                  dilation_y, ch_mult):
    """The wrapper's own instructions, up to its tail call; returns the kernel it calls
    (KERNEL_*).  `call_depthwise_conv_wrapper_s8` then runs that kernel."""
    push(m, 5)                                                # push {r4-r7, lr}
    sub(m, 0, 0)                                              # sub sp, #frame (outgoing arguments)
    for _ in range(2):                                        # the stacked arguments
        fitted_ldr_sp(m)
    fitted_ldr_sp(m)                                          # dw_conv_params->ch_mult
    ok = _check(m, ch_mult, 1)                                # 1 == dw_conv_params->ch_mult
    if ok:
        fitted_ldr_sp(m)                                      # input_dims->n
        ok = _check(m, input_n, 1)
    if ok:
        fitted_ldr_sp(m)                                      # dilation.w
        ok = _check(m, dilation_x, 1)
    if ok:
        fitted_ldr_sp(m)                                      # dilation.h
        ok = _check(m, dilation_y, 1)
    if ok:
        fitted_ldr_sp(m)                                      # filter_dims->w
        three = _check(m, filter_w, 3)
        if three:                                             # filter_dims->h (loaded with ->w)
            three = _check(m, filter_h, 3)
        if three:                                             # padding.h <= 1 (ldrd with padding.w)
            fitted_ldrd_sp(m)
            cmp(m, pad_y, 1)
            bcc(m, pad_y > 1)
            three = pad_y <= 1
        if three:                                             # padding.w <= 1
            cmp(m, pad_x, 1)
            bcc(m, pad_x > 1)
            three = pad_x <= 1
    else:
        three = False
    for _ in range(7):                                        # the seven stacked arguments of the callee
        fitted_ldr_sp(m)
        fitted_str_sp(m)
    sub(m, 0, 0)                                              # add sp, #frame
    pop(m, 5)                                                 # pop {r4-r7, lr}
    b(m)                                                      # b.w <kernel>  (tail call)
    if ok and three:
        return KERNEL_3X3
    return KERNEL_OPT if ok else KERNEL_GENERIC


def call_depthwise_conv_wrapper_s8(m, buf, input_x, input_y, input_ch, input_n, input,
                                   filter_w, filter_h, kernel, bias, output_ch, output_x,
                                   output_y, output, output_mult, output_shift, pad_x, pad_y,
                                   stride_x, stride_y, dilation_x, dilation_y, ch_mult,
                                   input_offset, output_offset, act_min, act_max, tracer=None):
    """Run arm_depthwise_conv_wrapper_s8 as the C does: its dispatch, then the kernel it
    tail-calls (each compiled on its own, so a model compiles only the kernels it reaches).
    Returns DISPATCH_* or a negative ARM_CMSIS_NN_ARG_ERROR from the kernel."""
    called = run(arm_depthwise_conv_wrapper_s8, m, input_n, filter_w, filter_h, pad_x, pad_y,
                 dilation_x, dilation_y, ch_mult, tracer=tracer)
    if called == KERNEL_3X3:
        status = run(arm_depthwise_conv_3x3_s8, m, input_x, input_y, input_ch, input, filter_w,
                     filter_h, kernel, bias, output_ch, output_x, output_y, output, output_mult,
                     output_shift, pad_x, pad_y, stride_x, stride_y, input_offset, output_offset,
                     act_min, act_max, tracer=tracer)
        return status if status < 0 else DISPATCH_3X3
    if called == KERNEL_OPT:
        status = run(arm_depthwise_conv_s8_opt, m, buf, input_x, input_y, input_ch, input_n,
                     input, filter_w, filter_h, kernel, bias, output_ch, output_x, output_y,
                     output, output_mult, output_shift, pad_x, pad_y, stride_x, stride_y,
                     dilation_x, dilation_y, ch_mult, input_offset, output_offset, act_min,
                     act_max, tracer=tracer)
        if status < 0:
            return status
        return DISPATCH_OPT_FALLBACK if status == 1 else DISPATCH_OPT
    status = run(arm_depthwise_conv_s8, m, input_x, input_y, input_ch, input_n, input, filter_w,
                 filter_h, kernel, bias, output_ch, output_x, output_y, output, output_mult,
                 output_shift, pad_x, pad_y, stride_x, stride_y, dilation_x, dilation_y,
                 ch_mult, input_offset, output_offset, act_min, act_max, tracer=tracer)
    return status if status < 0 else DISPATCH_GENERIC
