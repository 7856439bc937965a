"""arm_depthwise_conv_wrapper_s8 (Source/ConvolutionFunctions/arm_depthwise_conv_wrapper_s8.c),
non-MVE build.

    if (1 == ch_mult && input_dims->n == 1 && dilation.w == 1 && dilation.h == 1)
        if (filter 3x3 && padding.h <= 1 && padding.w <= 1)  -> arm_depthwise_conv_3x3_s8
        else                                                 -> arm_depthwise_conv_s8_opt
    else                                                     -> arm_depthwise_conv_s8

gcc compiles each call as a tail call: the wrapper copies the seven stacked arguments back
into its caller's argument area, restores its registers (POP without PC) and branches (B)
to the kernel, whose return goes straight back to the caller.  Every instruction is read off
gcc 12.2 -O2's code of this file; the M4 and M3 builds schedule the loads of the stacked
arguments differently.  Where gcc branches when a check holds (BEQ to the next check), the
port writes the branch as `bcc(m, not (<failed check>))`: `armsim why` reads the failed
check from it.

The wrapper's own instructions are one compiled kernel that returns which kernel it calls;
`call_depthwise_conv_wrapper_s8` (host side) then runs that kernel, so a model compiles only
the kernels it reaches, and the instructions and their order are those of the C.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, b, bcc, cmp, ldr_sp, ldrd_sp, mov, pop, push, str_sp, strd_sp, sub
from armsim.kernels.cmsis_nn.arm_depthwise_conv_3x3_s8 import arm_depthwise_conv_3x3_s8
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8 import call_depthwise_conv_s8
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8_opt import call_depthwise_conv_s8_opt

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

# the kernel the wrapper tail-calls
KERNEL_3X3 = 0
KERNEL_OPT = 1
KERNEL_GENERIC = 2


@kernel
def arm_depthwise_conv_wrapper_s8(m, dw_conv_params, input_dims, filter_dims):
    """The wrapper's own instructions, up to its tail call; returns the kernel it calls
    (KERNEL_*).  `call_depthwise_conv_wrapper_s8` then runs that kernel."""
    ch_mult = dw_conv_params.ch_mult
    input_n = input_dims.n
    dilation_x = dw_conv_params.dilation.w
    dilation_y = dw_conv_params.dilation.h
    filter_w = filter_dims.w
    filter_h = filter_dims.h
    pad_x = dw_conv_params.padding.w
    pad_y = dw_conv_params.padding.h
    push(m, 9)                                                # push {r4-r11, lr}
    if m.dsp:
        ldr_sp(m)                                             # dw_conv_params->ch_mult
        sub(m, 0, 0)                                          # sub sp, #12
        cmp(m, ch_mult, 1)
        for _ in range(3):                                    # the stacked arguments
            ldrd_sp(m)
        ldr_sp(m)
        str_sp(m)                                             # ctx, quant_params kept
        mov(m, 0)
        str_sp(m)
        mov(m, 0)
    else:
        sub(m, 0, 0)                                          # sub sp, #12
        ldr_sp(m)                                             # the stacked arguments
        mov(m, 0)
        for _ in range(3):
            ldrd_sp(m)
        str_sp(m)
        ldr_sp(m)                                             # dw_conv_params->ch_mult
        mov(m, 0)
        cmp(m, ch_mult, 1)
        mov(m, 0)
        str_sp(m)
    called = KERNEL_GENERIC
    # if (1 == dw_conv_params->ch_mult && input_dims->n == 1 &&
    #     dw_conv_params->dilation.w == 1 && dw_conv_params->dilation.h == 1)
    bcc(m, ch_mult != 1)
    if ch_mult == 1:
        ldr_sp(m)                                             # input_dims->n
        cmp(m, input_n, 1)
        bcc(m, not (input_n != 1))                            # BEQ to the dilation checks
        if input_n == 1:
            ldr_sp(m)                                         # dw_conv_params->dilation.w
            cmp(m, dilation_x, 1)
            bcc(m, dilation_x != 1)
            if dilation_x == 1:
                ldr_sp(m)                                     # dw_conv_params->dilation.h
                cmp(m, dilation_y, 1)
                bcc(m, dilation_y != 1)
                if dilation_y == 1:
                    called = KERNEL_OPT
                    # if (filter_dims->w == 3 && filter_dims->h == 3 &&
                    #     dw_conv_params->padding.h <= 1 && dw_conv_params->padding.w <= 1)
                    ldr_sp(m)                                 # filter_dims->w
                    cmp(m, filter_w, 3)
                    bcc(m, filter_w != 3)
                    if filter_w == 3:
                        ldr_sp(m)                             # filter_dims->h
                        cmp(m, filter_h, 3)
                        bcc(m, not (filter_h != 3))           # BEQ to the padding checks
                        if filter_h == 3:
                            ldr_sp(m)                         # dw_conv_params->padding.h
                            cmp(m, pad_y, 1)
                            bcc(m, pad_y > 1)
                            if pad_y <= 1:
                                ldr_sp(m)                     # dw_conv_params->padding.w
                                cmp(m, pad_x, 1)
                                bcc(m, pad_x > 1)
                                if pad_x <= 1:
                                    called = KERNEL_3X3
    # the tail call: the stacked arguments back in place, the frame popped
    if called == KERNEL_3X3:
        if not m.dsp:
            ldr_sp(m)
        for _ in range(3):
            strd_sp(m)
        str_sp(m)
    elif m.dsp:
        ldr_sp(m)                                             # quant_params, ctx
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        for _ in range(3):
            strd_sp(m)
    else:
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)
        for _ in range(3):
            strd_sp(m)
        str_sp(m)
    add(m, 0, 0)                                              # add sp, #12
    pop(m, 9)                                                 # pop {r4-r11, lr}
    b(m)                                                      # b.w <kernel>  (tail call)
    return called


def call_depthwise_conv_wrapper_s8(m, ctx, dw_conv_params, quant_params, input_dims, input,
                                   filter_dims, kernel, bias_dims, bias, output_dims, output,
                                   tracer=None):
    """Run arm_depthwise_conv_wrapper_s8 as the C does: its dispatch, then the kernel it
    tail-calls (each compiled on its own, so a model compiles only the kernels it reaches).
    The arguments are the C's (structs from `arm_nn_types`).  Returns (kernel, status):
    KERNEL_* and the kernel's return value (arm_depthwise_conv_s8's is (status, helper))."""
    called = run(arm_depthwise_conv_wrapper_s8, m, dw_conv_params, input_dims, filter_dims,
                 tracer=tracer)
    args = (ctx, dw_conv_params, quant_params, input_dims, input, filter_dims, kernel,
            bias_dims, bias, output_dims, output)
    if called == KERNEL_3X3:
        return called, run(arm_depthwise_conv_3x3_s8, m, *args, tracer=tracer)
    if called == KERNEL_OPT:
        return called, call_depthwise_conv_s8_opt(m, *args, tracer=tracer)
    return called, call_depthwise_conv_s8(m, *args, tracer=tracer)
