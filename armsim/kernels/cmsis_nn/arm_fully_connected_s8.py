"""arm_fully_connected_s8 (Source/FullyConnectedFunctions/arm_fully_connected_s8.c).

    while (batch_cnt) {
        arm_nn_vec_mat_mult_t_s8(input, kernel, kernel_sum, bias, output,
                                 fc_params->input_offset, fc_params->output_offset,
                                 quant_params->multiplier, quant_params->shift,
                                 filter_dims->n, output_dims->c,
                                 fc_params->activation.min, fc_params->activation.max,
                                 1L, fc_params->filter_offset);
        input += filter_dims->n; output += output_dims->c; batch_cnt--;
    }

Calibration: the measured entry function executes 45 (dsp_O2) / 44 (scalar_O2) instructions
around one call: frame, loads of the parameter structs, eleven stacked arguments.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cbz, fitted_ldr_sp, fitted_ldrd_sp, fitted_mov,
                            fitted_str_sp, fitted_strd_sp, pop_pc, push, sub)

from .arm_nn_vec_mat_mult_t_s8 import arm_nn_vec_mat_mult_t_s8


@kernel(inline=True)
def fc_batch_loop_head(m):
    """Frame and parameter loads shared by both fully connected entry points."""
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, sp, #stacked-argument area
    for _ in range(10):                               # the cmsis_nn_* struct fields, stacked args
        fitted_ldr_sp(m)
    for _ in range(3):
        fitted_ldrd_sp(m)


@kernel(inline=True)
def fc_call_setup(m):
    """Per batch: the eleven stacked arguments of the call and r0-r3."""
    for _ in range(4):
        fitted_strd_sp(m)
    for _ in range(3):
        fitted_str_sp(m)
    for _ in range(3):
        fitted_mov(m)


@kernel
def arm_fully_connected_s8(m, input, kernel_, bias, output, input_offset, filter_offset,
                           output_offset, act_min, act_max, multiplier, shift, batch_cnt,
                           accum_depth, output_depth):
    fc_batch_loop_head(m)
    cbz(m, batch_cnt == 0)                            # while (batch_cnt)
    while batch_cnt:
        fc_call_setup(m)
        bl(m)
        arm_nn_vec_mat_mult_t_s8(m, input, kernel_, 0, bias, output, input_offset,
                                 output_offset, multiplier, shift, accum_depth, output_depth,
                                 act_min, act_max, 1, filter_offset)
        input = add(m, input, accum_depth)            # input += filter_dims->n;
        output = add(m, output, output_depth)         # output += output_dims->c;
        batch_cnt = sub(m, batch_cnt, 1)              # batch_cnt--;  (SUBS)
        bcc(m, batch_cnt != 0)
    add(m, 0, 0)                                      # add sp, sp, #...
    pop_pc(m, 9)
    return 0
