"""arm_fully_connected_per_channel_s8
(Source/FullyConnectedFunctions/arm_fully_connected_per_channel_s8.c), non-MVE.

arm_fully_connected_s8 with a `cmsis_nn_per_channel_quant_params` (the multiplier and shift
arrays) handed to arm_nn_vec_mat_mult_t_per_ch_s8.  gcc compiles it to the same
instructions as arm_fully_connected_s8 (the two struct fields are pointers here, values
there), on both builds; the pieces are shared from there.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import bl, cbz

from .arm_fully_connected_s8 import fc_call_setup, fc_head, fc_loop_setup, fc_next_batch, fc_return
from .arm_nn_vec_mat_mult_t_per_ch_s8 import arm_nn_vec_mat_mult_t_per_ch_s8

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel
def arm_fully_connected_per_channel_s8(m, ctx, fc_params, quant_params, input_dims, input,
                                       filter_dims, kernel_, bias_dims, bias, output_dims,
                                       output):
    """`quant_params`: a PerChannelQuantParams.  Returns ARM_CMSIS_NN_SUCCESS (0)."""
    batch_cnt = input_dims.n
    kernel_sum = ctx.buf
    fc_head(m)
    cbz(m, batch_cnt == 0)                            # while (batch_cnt)
    if batch_cnt:
        fc_loop_setup(m)
    while batch_cnt:
        fc_call_setup(m)
        bl(m)
        arm_nn_vec_mat_mult_t_per_ch_s8(m, input, kernel_, kernel_sum, bias, output,
                                        fc_params.input_offset, fc_params.output_offset,
                                        quant_params.multiplier, quant_params.shift,
                                        filter_dims.n, output_dims.c,
                                        fc_params.activation.min, fc_params.activation.max,
                                        1, fc_params.filter_offset)
        batch_cnt, input, output = fc_next_batch(m, batch_cnt, input, output, filter_dims.n,
                                                 output_dims.c)
    fc_return(m)
    return 0
