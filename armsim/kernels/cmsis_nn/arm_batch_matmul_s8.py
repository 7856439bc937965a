"""arm_batch_matmul_s8 (Source/FullyConnectedFunctions/arm_batch_matmul_s8.c), non-MVE code.

    arm_cmsis_nn_status arm_batch_matmul_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_bmm_params *bmm_params,
        const cmsis_nn_per_tensor_quant_params *quant_params,
        const cmsis_nn_dims *input_lhs_dims, const int8_t *input_lhs,
        const cmsis_nn_dims *input_rhs_dims, const int8_t *input_rhs,
        const cmsis_nn_dims *output_dims, int8_t *output)

For every output batch and height, one arm_nn_vec_mat_mult_t_s8 call per lhs row (the rhs
is passed transposed, [N, K]; kernel_sum and bias NULL, address_offset 1, the rhs offset
as filter_offset); the lhs and rhs pointers then step or rewind by the broadcast diffs.
The DSP / plain-C difference is all in arm_nn_vec_mat_mult_t_s8.  adj_x / adj_y are not
read: TFLM's Eval has already transposed the operands.

Calibration (../shared/reference, gcc -O2): bmm_s8_l1x2x16x32_r1x2x24x32 (32 calls).
The per-call instructions (the 15 arguments: 11 stored to the outgoing stack area, the
param struct reloads, the pointer steps) and the set-up are FITTED to its per-function
count and mnemonic histogram, not read off a disassembly.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, mla, mov, mul, pop_pc, push,
                            rsb, sub)

from .arm_nn_vec_mat_mult_t_s8 import arm_nn_vec_mat_mult_t_s8


@kernel
def arm_batch_matmul_s8(m, input_offset, filter_offset, output_offset, activation_min,
                        activation_max, multiplier, shift, lhs_n, lhs_h, lhs_w, lhs_c,
                        input_lhs, rhs_n, rhs_h, rhs_w, rhs_c, input_rhs, output_batch,
                        output_height, output):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    for _ in range(4):                                     # the dims structs (fitted)
        fitted_ldrd_sp(m)
    fitted_ldr_sp(m)
    lhs_rows = lhs_w                                       # input_lhs_dims->w
    rhs_rows = rhs_w                                       # input_rhs_dims->w
    rhs_cols = rhs_c                                       # input_rhs_dims->c
    lhs_size = mul(m, lhs_rows, rhs_cols)                  # lhs_rows * rhs_cols
    rhs_size = mul(m, rhs_rows, rhs_cols)                  # rhs_rows * rhs_cols
    cmp(m, lhs_h, rhs_h)                                   # inner_lhs_diff = lhs h >= rhs h ? 0 : ...
    bcc(m, lhs_h >= rhs_h)
    inner_lhs_diff = 0 if lhs_h >= rhs_h else lhs_size
    cmp(m, rhs_h, lhs_h)                                   # inner_rhs_diff = rhs h >= lhs h ? ... : 0
    bcc(m, rhs_h >= lhs_h)
    inner_rhs_diff = rhs_size if rhs_h >= lhs_h else 0
    cmp(m, lhs_n, rhs_n)                                   # outer_lhs_diff
    bcc(m, lhs_n >= rhs_n)
    if lhs_n >= rhs_n:
        outer_lhs_diff = inner_lhs_diff
    else:
        outer_lhs_diff = mul(m, rsb(m, lhs_size - inner_lhs_diff, 0), lhs_h)
    cmp(m, rhs_n, lhs_n)                                   # outer_rhs_diff
    bcc(m, rhs_n >= lhs_n)
    if rhs_n >= lhs_n:
        outer_rhs_diff = sub(m, rhs_size, inner_rhs_diff)
    else:
        outer_rhs_diff = mul(m, rsb(m, inner_rhs_diff, 0), rhs_h)
    for _ in range(2):                                     # spills (fitted)
        fitted_str_sp(m)
    cmp(m, output_batch, 0)                                # for (i_out_batch ...)
    bcc(m, output_batch <= 0)
    for i_out_batch in range(output_batch):
        cmp(m, output_height, 0)                           # for (i_out_height ...)
        bcc(m, output_height <= 0)
        for i_out_height in range(output_height):
            fitted_ldr_sp(m)
            cmp(m, lhs_rows, 0)                            # for (i_lhs_rows ...)
            bcc(m, lhs_rows <= 0)
            for i_lhs_rows in range(lhs_rows):
                for _ in range(11):                        # the 11 stacked arguments (fitted)
                    fitted_ldr_sp(m)
                fitted_add(m)
                fitted_add(m)
                fitted_mov(m)
                fitted_mov(m)
                for _ in range(3):
                    fitted_str_sp(m)
                for _ in range(4):
                    fitted_strd_sp(m)
                mov(m, input_lhs)                          # lhs, rhs, kernel_sum NULL, bias NULL
                mov(m, input_rhs)
                fitted_mov(m)
                bl(m)
                arm_nn_vec_mat_mult_t_s8(m, input_lhs, input_rhs, 0, 0, output, input_offset,
                                         output_offset, multiplier, shift, rhs_cols, rhs_rows,
                                         activation_min, activation_max, 1, filter_offset)
                input_lhs = add(m, input_lhs, rhs_cols)    # input_lhs += rhs_cols;
                output = add(m, output, rhs_rows)          # output += rhs_rows;
                cmp(m, i_lhs_rows + 1, lhs_rows)
                bcc(m, i_lhs_rows + 1 < lhs_rows)
            input_lhs = sub(m, input_lhs, inner_lhs_diff)  # input_lhs -= inner_lhs_diff;
            input_rhs = add(m, input_rhs, inner_rhs_diff)  # input_rhs += inner_rhs_diff;
            mla(m, 0, 0, 0)                                # (fitted)
            b(m)
            cmp(m, i_out_height + 1, output_height)
            bcc(m, i_out_height + 1 < output_height)
        input_lhs = add(m, input_lhs, outer_lhs_diff)      # input_lhs += outer_lhs_diff;
        input_rhs = add(m, input_rhs, outer_rhs_diff)      # input_rhs += outer_rhs_diff;
        cmp(m, i_out_batch + 1, output_batch)
        bcc(m, i_out_batch + 1 < output_batch)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0
