"""arm_depthwise_conv_get_buffer_sizes_s8.c: the non-MVE scratch sizes.

    arm_depthwise_conv_s8_opt_get_buffer_size(input_dims, filter_dims):
        ARM_MATH_DSP: input_dims->c * filter_dims->w * filter_dims->h * sizeof(int16_t); else 0
    arm_depthwise_conv_wrapper_s8_get_buffer_size(dw_conv_params, input_dims, filter_dims,
                                                  output_dims):
        the opt size when input_dims->c == output_dims->c, batch 1 and no dilation, except 0
        for the 3x3 kernel (3x3 filter, both paddings <= 1); else 0.

`arm_depthwise_conv_s8_opt_get_buffer_size` is a kernel: arm_depthwise_conv_s8_opt calls it
when ctx->buf is NULL (the plain-C opt kernel's check always calls it), read off gcc 12.2
-O2's code (M4: LDRD, LDR, two MULs, LSLS, BX; M3: MOVS #0, BX).  The caller asks for the
size before the counted call, so `wrapper_buffer_size` and `opt_buffer_size` are the host-side
twins the harness uses to size the scratch buffer, one formula with the kernel.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import bx, ldr_sp, ldrd_sp, lsl, mov, mul

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


def _opt_size(input_ch, filter_w, filter_h, dsp):
    return input_ch * filter_w * filter_h * 2 if dsp else 0


@kernel
def arm_depthwise_conv_s8_opt_get_buffer_size(m, input_dims, filter_dims):
    if m.dsp:
        ldrd_sp(m)                                            # filter_dims->h, w
        ldr_sp(m)                                             # input_dims->c
        size = mul(m, filter_dims.w, input_dims.c)
        size = mul(m, filter_dims.h, size)
        size = lsl(m, size, 1)                                # (c * w * h) * sizeof(int16_t)
    else:
        size = mov(m, 0)                                      # return 0;
    bx(m)
    return size


def wrapper_buffer_size(dw_conv_params, input_dims, filter_dims, output_dims, dsp):
    """arm_depthwise_conv_wrapper_s8_get_buffer_size (non-MVE build), host side."""
    if input_dims.c == output_dims.c and input_dims.n == 1 and dw_conv_params.dilation.w == 1 \
            and dw_conv_params.dilation.h == 1:
        if filter_dims.w == 3 and filter_dims.h == 3 and dw_conv_params.padding.h <= 1 \
                and dw_conv_params.padding.w <= 1:
            return 0
        return opt_buffer_size(input_dims, filter_dims, dsp)
    return 0


def opt_buffer_size(input_dims, filter_dims, dsp):
    """arm_depthwise_conv_s8_opt_get_buffer_size, host side."""
    return _opt_size(input_dims.c, filter_dims.w, filter_dims.h, dsp)
