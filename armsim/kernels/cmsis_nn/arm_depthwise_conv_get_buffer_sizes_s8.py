"""arm_depthwise_conv_get_buffer_sizes_s8.c: the non-MVE scratch sizes.

    arm_depthwise_conv_s8_opt_get_buffer_size(input_dims, filter_dims):
        ARM_MATH_DSP: input_dims->c * filter_dims->w * filter_dims->h * sizeof(int16_t); else 0
    arm_depthwise_conv_wrapper_s8_get_buffer_size(dw_conv_params, input_dims, filter_dims,
                                                  output_dims):
        the opt size when input_dims->c == output_dims->c, batch 1 and no dilation, except 0
        for the 3x3 kernel (3x3 filter, both paddings <= 1); else 0.

`arm_depthwise_conv_s8_opt_get_buffer_size` is a kernel (arm_depthwise_conv_s8_opt calls it
when ctx->buf is NULL; the measured scalar_O2 build executes its two instructions);
`wrapper_buffer_size` is the host-side twin the harness uses to size the scratch buffer,
one formula with the kernel through `_opt_size`.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import bx, lsl, mov, mul


def _opt_size(input_ch, filter_w, filter_h, dsp):
    return input_ch * filter_w * filter_h * 2 if dsp else 0


@kernel
def arm_depthwise_conv_s8_opt_get_buffer_size(m, input_ch, filter_w, filter_h):
    if m.dsp:
        size = lsl(m, mul(m, mul(m, input_ch, filter_w), filter_h), 1)  # (c * w * h) * sizeof(int16_t)
    else:
        size = mov(m, 0)                                      # return 0;
    bx(m)
    return size


def wrapper_buffer_size(input_ch, output_ch, input_n, filter_w, filter_h, pad_w, pad_h,
                        dilation_w, dilation_h, dsp):
    """arm_depthwise_conv_wrapper_s8_get_buffer_size (non-MVE build), host side."""
    if input_ch == output_ch and input_n == 1 and dilation_w == 1 and dilation_h == 1:
        if filter_w == 3 and filter_h == 3 and pad_h <= 1 and pad_w <= 1:
            return 0
        return _opt_size(input_ch, filter_w, filter_h, dsp)
    return 0


def opt_buffer_size(input_ch, filter_w, filter_h, dsp):
    """arm_depthwise_conv_s8_opt_get_buffer_size, host side."""
    return _opt_size(input_ch, filter_w, filter_h, dsp)
