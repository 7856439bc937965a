"""The transpose-convolution buffer-size functions
(Source/ConvolutionFunctions/arm_transpose_conv_get_buffer_sizes_s8.c), non-MVE builds.

Host-side (TFLM's Prepare calls them once): plain Python over the case's dims.  Note that
arm_transpose_conv_s8_get_buffer_size takes MAX(filter w, stride.h) where the kernel uses
MAX(filter w, stride.w); ported as written (the two agree unless stride.w > filter w and
stride.w != stride.h).
"""
from .arm_convolve_get_buffer_sizes_s8 import arm_convolve_s8_get_buffer_size
from .arm_transpose_conv_wrapper_s8 import uses_reverse_conv


def arm_transpose_conv_s8_get_buffer_size(params, input_dims, filter_dims, output_dims):
    """ctx->buf: the int32 rolling buffer, or arm_convolve_s8's im2col buffer for the
    upscaled input on the reverse path."""
    stride = params["stride"]
    if uses_reverse_conv(stride["w"], stride["h"], input_dims["c"]):
        upscaled = {"n": input_dims["n"], "h": input_dims["h"] * stride["h"],
                    "w": input_dims["w"] * stride["w"], "c": input_dims["c"]}
        return arm_convolve_s8_get_buffer_size(upscaled, filter_dims)
    buf_x = ((input_dims["w"] - 1) * stride["w"] + max(filter_dims["w"], stride["h"])) \
        * output_dims["c"]
    buf_y = max(filter_dims["h"], stride["h"])
    return buf_x * buf_y * 4                          # * sizeof(int32_t)


def arm_transpose_conv_s8_get_reverse_conv_buffer_size(params, input_dims, filter_dims):
    """reverse_conv_ctx->buf: the reversed filter (reverse path only)."""
    stride = params["stride"]
    if uses_reverse_conv(stride["w"], stride["h"], input_dims["c"]):
        return input_dims["c"] * filter_dims["w"] * filter_dims["h"] * filter_dims["n"]
    return 0
