"""arm_fully_connected_per_channel_s8 (Source/FullyConnectedFunctions/arm_fully_connected_per_channel_s8.c).

arm_fully_connected_s8 with `cmsis_nn_per_channel_quant_params` (multiplier and shift
arrays) passed through to arm_nn_vec_mat_mult_t_per_ch_s8; same batch loop.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import add, bcc, bl, cbz, pop_pc, sub

from .arm_fully_connected_s8 import fc_batch_loop_head, fc_call_setup
from .arm_nn_vec_mat_mult_t_per_ch_s8 import arm_nn_vec_mat_mult_t_per_ch_s8


@kernel
def arm_fully_connected_per_channel_s8(m, input_data, kernel_, bias_data, output_data,
                                       input_offset, filter_offset, output_offset, act_min,
                                       act_max, multiplier, shift, batch_cnt, accum_depth,
                                       output_depth):
    fc_batch_loop_head(m)
    cbz(m, batch_cnt == 0)                            # while (batch_cnt)
    while batch_cnt:
        fc_call_setup(m)
        bl(m)
        arm_nn_vec_mat_mult_t_per_ch_s8(m, input_data, kernel_, 0, bias_data, output_data,
                                        input_offset, output_offset, multiplier, shift,
                                        accum_depth, output_depth, act_min, act_max, 1,
                                        filter_offset)
        input_data = add(m, input_data, accum_depth)
        output_data = add(m, output_data, output_depth)
        batch_cnt = sub(m, batch_cnt, 1)
        bcc(m, batch_cnt != 0)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
