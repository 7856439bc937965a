"""arm_fully_connected_s4 (Source/FullyConnectedFunctions/arm_fully_connected_s4.c).

    while (batch_cnt) {
        arm_nn_vec_mat_mult_t_s4(input, kernel, bias, output, fc_params->input_offset,
                                 fc_params->output_offset, quant_params->multiplier,
                                 quant_params->shift, filter_dims->n, output_dims->c,
                                 fc_params->activation.min, fc_params->activation.max);
        input += filter_dims->n; output += output_dims->c; batch_cnt--;
    }

Packed int4 weights, per-tensor quantization; the filter offset is ignored (int4 weights are
symmetric).  Calibration: the measured entry function executes 38 instructions on both
dsp_O2 and scalar_O2 (fc_s4_128_32) around one call: frame, parameter-struct loads and the
eight stacked arguments, the `fitted_*` ops below.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cbz, fitted_ldr_sp, fitted_mov, fitted_str_sp, pop_pc,
                            push, sub)

from .arm_nn_vec_mat_mult_t_s4 import arm_nn_vec_mat_mult_t_s4


@kernel
def arm_fully_connected_s4(m, input, kernel_, bias, output, input_offset, output_offset,
                           act_min, act_max, multiplier, shift, batch_cnt, accum_depth,
                           output_depth):
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, sp, #stacked-argument area
    for _ in range(16):                               # fitted: cmsis_nn_* struct fields, stacked args
        fitted_ldr_sp(m)
    cbz(m, batch_cnt == 0)                            # while (batch_cnt)
    while batch_cnt:
        for _ in range(8):                            # fitted: the eight stacked arguments
            fitted_str_sp(m)
        for _ in range(4):                            # fitted: r0-r3
            fitted_mov(m)
        bl(m)
        arm_nn_vec_mat_mult_t_s4(m, input, kernel_, bias, output, input_offset, output_offset,
                                 multiplier, shift, accum_depth, output_depth, act_min, act_max)
        input = add(m, input, accum_depth)            # input += filter_dims->n;
        output = add(m, output, output_depth)         # output += output_dims->c;
        batch_cnt = sub(m, batch_cnt, 1)              # batch_cnt--;  (SUBS)
        bcc(m, batch_cnt != 0)
    add(m, 0, 0)                                      # add sp, sp, #...
    pop_pc(m, 9)
    return 0
