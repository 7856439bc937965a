"""arm_depthwise_conv_get_buffer_sizes_s16.c: the non-MVE scratch sizes of the 16x8 depthwise
kernels.

    arm_depthwise_conv_fast_s16_get_buffer_size(input_dims, filter_dims):
        ARM_MATH_DSP: input_dims->c * filter_dims->w * filter_dims->h * sizeof(int16_t); else 0
    arm_depthwise_conv_wrapper_s16_get_buffer_size(dw_conv_params, input_dims, filter_dims,
                                                   output_dims):
        the fast kernel's size when USE_FAST_DW_CONV_S16_FUNCTION holds, else 0.

`arm_depthwise_conv_fast_s16_get_buffer_size` is a kernel: arm_depthwise_conv_fast_s16 calls
it when ctx->buf is NULL (the plain-C build's check always calls it), read off gcc 12.2 -O2's
code (M4: LDRD, LDR, two MULs, LSLS, BX; M3: MOVS #0, BX).  The caller asks for the size
before the counted call: `wrapper_buffer_size` and `fast_buffer_size` are the host-side twins.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import bx, ldr_sp, ldrd_sp, lsl, mov, mul

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

#: MAX_COL_COUNT (arm_nnsupportfunctions.h): the fast kernel's limit on kernel_x * kernel_y
MAX_COL_COUNT = 512


@kernel
def arm_depthwise_conv_fast_s16_get_buffer_size(m, input_dims, filter_dims):
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


def use_fast(dw_conv_params, filter_dims):
    """USE_FAST_DW_CONV_S16_FUNCTION (arm_nnsupportfunctions.h)."""
    return dw_conv_params.ch_mult == 1 and dw_conv_params.dilation.w == 1 \
        and dw_conv_params.dilation.h == 1 and filter_dims.w * filter_dims.h < MAX_COL_COUNT


def fast_buffer_size(input_dims, filter_dims, dsp):
    """arm_depthwise_conv_fast_s16_get_buffer_size, host side."""
    return input_dims.c * filter_dims.w * filter_dims.h * 2 if dsp else 0


def wrapper_buffer_size(dw_conv_params, input_dims, filter_dims, output_dims, dsp):
    """arm_depthwise_conv_wrapper_s16_get_buffer_size (non-MVE build), host side."""
    return fast_buffer_size(input_dims, filter_dims, dsp) if use_fast(dw_conv_params, filter_dims) else 0
