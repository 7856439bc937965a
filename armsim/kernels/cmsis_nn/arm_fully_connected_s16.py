"""arm_fully_connected_s16 (Source/FullyConnectedFunctions/arm_fully_connected_s16.c).

    const int32_t reduced_multiplier = REDUCE_MULTIPLIER(quant_params->multiplier);
    while (batch_cnt) {
        arm_nn_vec_mat_mult_t_s16(input, kernel, bias, output, reduced_multiplier,
                                  quant_params->shift, filter_dims->n, output_dims->c,
                                  fc_params->activation.min, fc_params->activation.max);
        input += filter_dims->n; output += output_dims->c; batch_cnt--;
    }

The input offset, filter offset and output offset are ignored (16x8 quantization is
symmetric); the scratch buffer size is 0 (arm_fully_connected_s16_get_buffer_size).

Calibration: the measured entry function executes 43 (dsp_O2) / 44 (scalar_O2) instructions
around one call (fc_s16_128_32): frame, the struct fields, six stacked arguments per call;
the parameter loads and stacked-argument stores are fitted to those totals.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cbz, fitted_ldr_sp, fitted_ldrd_sp, fitted_mov,
                            fitted_strd_sp, pop_pc, push, sub)

from .arm_nn_requantize_s64 import reduce_multiplier
from .arm_nn_vec_mat_mult_t_s16 import arm_nn_vec_mat_mult_t_s16


def arm_fully_connected_s16_get_buffer_size(filter_dims):
    """arm_fully_connected_get_buffer_sizes_s16.c: no scratch buffer."""
    return 0


@kernel
def arm_fully_connected_s16(m, input, kernel_, bias, output, multiplier, shift, act_min,
                            act_max, batch_cnt, accum_depth, output_depth):
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, sp, #stacked-argument area
    for _ in range(8):                                # fitted: struct fields, stacked args
        fitted_ldr_sp(m)
    fitted_ldrd_sp(m)
    reduced_multiplier = reduce_multiplier(m, multiplier)
    cbz(m, batch_cnt == 0)                            # while (batch_cnt)
    while batch_cnt:
        for _ in range(3):                            # fitted: six stacked arguments
            fitted_strd_sp(m)
        for _ in range(2):
            fitted_mov(m)
        bl(m)
        arm_nn_vec_mat_mult_t_s16(m, input, kernel_, bias, output, reduced_multiplier, shift,
                                  accum_depth, output_depth, act_min, act_max)
        input = add(m, input, accum_depth << 1)       # input += filter_dims->n;
        output = add(m, output, output_depth << 1)    # output += output_dims->c;
        batch_cnt = sub(m, batch_cnt, 1)              # batch_cnt--;  (SUBS)
        bcc(m, batch_cnt != 0)
    add(m, 0, 0)                                      # add sp, sp, #...
    pop_pc(m, 9)
    return 0
