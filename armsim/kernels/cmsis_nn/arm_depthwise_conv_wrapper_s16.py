"""arm_depthwise_conv_wrapper_s16 (Source/ConvolutionFunctions/arm_depthwise_conv_wrapper_s16.c),
non-MVE build: arm_depthwise_conv_fast_s16 when USE_FAST_DW_CONV_S16_FUNCTION holds (ch_mult 1,
no dilation, kernel_x * kernel_y < 512), else arm_depthwise_conv_s16.

gcc compiles each call as a tail call (the stacked arguments copied back, POP without PC,
B to the kernel).  Every instruction is read off gcc 12.2 -O2's code; the M4 and M3 builds
order the loads of the stacked arguments differently.  The wrapper's own instructions are
one compiled kernel returning which kernel it calls; `call_depthwise_conv_wrapper_s16`
(host side) then runs that kernel.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, b, bcc, cmp, ldr_sp, ldrd_sp, mov, mul, pop, push, str_sp, strd_sp, sub
from armsim.kernels.cmsis_nn.arm_depthwise_conv_fast_s16 import call_depthwise_conv_fast_s16
from armsim.kernels.cmsis_nn.arm_depthwise_conv_get_buffer_sizes_s16 import MAX_COL_COUNT
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s16 import arm_depthwise_conv_s16

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

KERNEL_FAST = 0
KERNEL_GENERIC = 1


@kernel
def arm_depthwise_conv_wrapper_s16(m, dw_conv_params, filter_dims):
    """The wrapper's own instructions, up to its tail call; returns the kernel it calls."""
    ch_mult = dw_conv_params.ch_mult
    dilation_x = dw_conv_params.dilation.w
    dilation_y = dw_conv_params.dilation.h
    push(m, 9)                                                # push {r4-r11, lr}
    ldr_sp(m)                                                 # dw_conv_params->ch_mult
    sub(m, 0, 0)                                              # sub sp, #20
    cmp(m, ch_mult, 1)
    if m.dsp:
        strd_sp(m)
        for _ in range(3):                                    # the stacked arguments
            ldrd_sp(m)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
    else:
        mov(m, 0)
        for _ in range(3):
            ldrd_sp(m)
        strd_sp(m)
        ldr_sp(m)
        str_sp(m)
    called = KERNEL_GENERIC
    # USE_FAST_DW_CONV_S16_FUNCTION(dw_conv_params, filter_dims, input_dims)
    bcc(m, ch_mult != 1)
    if ch_mult == 1:
        ldr_sp(m)                                             # dilation.w
        cmp(m, dilation_x, 1)
        bcc(m, not (dilation_x != 1))                         # BEQ to the next check
        if dilation_x == 1:
            ldr_sp(m)                                         # dilation.h
            cmp(m, dilation_y, 1)
            bcc(m, dilation_y != 1)
            if dilation_y == 1:
                ldrd_sp(m)                                    # filter_dims->h, w
                taps = mul(m, filter_dims.h, filter_dims.w)
                cmp(m, taps, MAX_COL_COUNT)
                bcc(m, taps >= MAX_COL_COUNT)
                if taps < MAX_COL_COUNT:
                    called = KERNEL_FAST
    if called == KERNEL_FAST:
        for _ in range(3):
            strd_sp(m)
        str_sp(m)
    elif m.dsp:
        ldrd_sp(m)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        for _ in range(3):
            strd_sp(m)
    else:
        ldrd_sp(m)
        mov(m, 0)
        ldr_sp(m)
        for _ in range(3):
            strd_sp(m)
        str_sp(m)
    add(m, 0, 0)                                              # add sp, #20
    pop(m, 9)                                                 # pop {r4-r11, lr}
    b(m)                                                      # b.w <kernel>  (tail call)
    return called


def call_depthwise_conv_wrapper_s16(m, ctx, dw_conv_params, quant_params, input_dims, input,
                                    filter_dims, kernel, bias_dims, bias, output_dims, output,
                                    tracer=None):
    """Run arm_depthwise_conv_wrapper_s16 and the kernel it tail-calls.  Returns
    (KERNEL_*, the kernel's status)."""
    called = run(arm_depthwise_conv_wrapper_s16, m, dw_conv_params, filter_dims, tracer=tracer)
    args = (ctx, dw_conv_params, quant_params, input_dims, input, filter_dims, kernel,
            bias_dims, bias, output_dims, output)
    if called == KERNEL_FAST:
        return called, call_depthwise_conv_fast_s16(m, *args, tracer=tracer)
    return called, run(arm_depthwise_conv_s16, m, *args, tracer=tracer)
