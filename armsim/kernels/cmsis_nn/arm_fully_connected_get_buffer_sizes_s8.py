"""arm_fully_connected_get_buffer_sizes_s8.c: scratch sizes of the s8 fully connected kernels.

    arm_fully_connected_s8_get_buffer_size_dsp(filter_dims) -> 0
    arm_fully_connected_s8_get_buffer_size_mve(filter_dims) -> filter_dims->c * sizeof(int32_t)
    arm_fully_connected_s8_get_buffer_size: the MVE one on ARM_MATH_MVEI, else the DSP one.

Host-side (the harness sizes the context before the counted call, as the measured firmware
did: not counted), plain Python; `filter_dims` is a Dims.
Only non-MVE cores are simulated, so it is always the `_dsp` variant.
"""


def arm_fully_connected_s8_get_buffer_size_dsp(filter_dims):
    return 0


def arm_fully_connected_s8_get_buffer_size_mve(filter_dims):
    return filter_dims.c * 4


def arm_fully_connected_s8_get_buffer_size(filter_dims, mvei=False):
    if mvei:
        return arm_fully_connected_s8_get_buffer_size_mve(filter_dims)
    return arm_fully_connected_s8_get_buffer_size_dsp(filter_dims)
