"""The convolution *_get_buffer_size functions
(Source/ConvolutionFunctions/arm_convolve_get_buffer_sizes_s8.c), non-MVE builds.

Host-side functions (the firmware calls them once at Prepare time, outside the counted
kernel): plain Python over the case's dims.  `dsp` is ARM_MATH_DSP, `armclang` Arm
Compiler 6 (__ARMCC_VERSION >= 6010050).
"""


def arm_convolve_s8_get_buffer_size(input_dims, filter_dims):
    rhs_cols = filter_dims["w"] * filter_dims["h"] * input_dims["c"]
    remainder = rhs_cols % 4
    aligned_rhs_cols = rhs_cols + 4 - remainder if remainder != 0 else rhs_cols
    return (2 * aligned_rhs_cols) * 2                 # * sizeof(int16_t)


def arm_convolve_1_x_n_s8_get_buffer_size(conv_params, input_dims, filter_dims, output_dims):
    return arm_convolve_s8_get_buffer_size(input_dims, filter_dims)


def arm_convolve_1x1_s8_fast_get_buffer_size(input_dims, dsp, armclang):
    if dsp and armclang:                              # arm_convolve_1x1_s8_fast_get_buffer_size_dsp
        return (2 * input_dims["c"]) * 2
    return 0


def arm_nn_is_convolve_1x1(conv_params, input_dims, filter_dims):
    return (conv_params["padding"]["w"] == 0 and conv_params["padding"]["h"] == 0
            and filter_dims["w"] == 1 and filter_dims["h"] == 1
            and conv_params["dilation"]["w"] == 1 and conv_params["dilation"]["h"] == 1
            and input_dims["c"] == filter_dims["c"])


def arm_nn_is_convolve_1x1_fast(conv_params):
    return conv_params["stride"]["w"] == 1 and conv_params["stride"]["h"] == 1


def arm_nn_is_convolve_1_x_n(conv_params, input_dims, filter_dims):
    return (input_dims["h"] == 1 and conv_params["dilation"]["w"] == 1 and filter_dims["h"] == 1
            and (conv_params["stride"]["w"] * input_dims["c"]) % 4 == 0
            and input_dims["c"] == filter_dims["c"])


def arm_convolve_wrapper_s8_get_buffer_size(conv_params, input_dims, filter_dims, output_dims,
                                            dsp, armclang):
    """arm_convolve_wrapper_s8_get_buffer_size (the _dsp variant with ARM_MATH_DSP; the two
    agree on non-MVE builds)."""
    if arm_nn_is_convolve_1x1(conv_params, input_dims, filter_dims):
        if arm_nn_is_convolve_1x1_fast(conv_params):
            return arm_convolve_1x1_s8_fast_get_buffer_size(input_dims, dsp, armclang)
        return 0
    if arm_nn_is_convolve_1_x_n(conv_params, input_dims, filter_dims):
        return arm_convolve_1_x_n_s8_get_buffer_size(conv_params, input_dims, filter_dims,
                                                     output_dims)
    return arm_convolve_s8_get_buffer_size(input_dims, filter_dims)


def buffer_size_for(function, conv_params, input_dims, filter_dims, output_dims, dsp, armclang):
    """The buffer size a caller of `function` asks for (its own *_get_buffer_size)."""
    if function in (None, "arm_convolve_wrapper_s8"):
        return arm_convolve_wrapper_s8_get_buffer_size(conv_params, input_dims, filter_dims,
                                                       output_dims, dsp, armclang)
    if function == "arm_convolve_1x1_s8_fast":
        return arm_convolve_1x1_s8_fast_get_buffer_size(input_dims, dsp, armclang)
    if function == "arm_convolve_1x1_s8":
        return 0
    if function == "arm_convolve_1_x_n_s8":
        return arm_convolve_1_x_n_s8_get_buffer_size(conv_params, input_dims, filter_dims,
                                                     output_dims)
    if function == "arm_convolve_s8":
        return arm_convolve_s8_get_buffer_size(input_dims, filter_dims)
    raise ValueError(f"no convolution function {function!r}")
