"""arm_nn_mat_mult_kernel_row_offset_s8_s16
(Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_row_offset_s8_s16.c), non-MVE.

    int8_t *arm_nn_mat_mult_kernel_row_offset_s8_s16(const int8_t *input_a,
        const int16_t *input_b, const uint16_t output_ch, const int32_t *out_shift,
        const int32_t *out_mult, const int32_t out_offset, const int16_t activation_min,
        const int16_t activation_max, const int32_t num_col_a,
        const int32_t aligned_num_col_a, const int32_t *const output_bias,
        const int32_t row_address_offset, int8_t *out_0)

arm_convolve_s8's GEMM for grouped convolution: the C of arm_nn_mat_mult_kernel_s8_s16
(its `mat_mult_kernel_body`), with the second column's output row at out_0 +
row_address_offset (the full output channel count) and the returned pointer advanced by
2 * row_address_offset - output_ch.  gcc 12.2 -O2 compiles its loops as that kernel's; the
set-up, the pointer updates after the row loop, the odd channel's stack reloads (M3) and the
return value differ and are transcribed from this file's disassembly (`row_offset`).
"""
from armsim.cpu.kernel import kernel

from .arm_nn_mat_mult_kernel_s8_s16 import mat_mult_kernel_body

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel
def arm_nn_mat_mult_kernel_row_offset_s8_s16(m, input_a, input_b, output_ch, out_shift,
                                             out_mult, out_offset, activation_min,
                                             activation_max, num_col_a, aligned_num_col_a,
                                             output_bias, row_address_offset, out_0):
    return mat_mult_kernel_body(m, input_a, input_b, output_ch, out_shift, out_mult,
                                out_offset, activation_min, activation_max, num_col_a,
                                aligned_num_col_a, output_bias, row_address_offset, out_0, True)
