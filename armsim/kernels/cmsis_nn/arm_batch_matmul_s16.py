"""arm_batch_matmul_s16 (Source/FullyConnectedFunctions/arm_batch_matmul_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_batch_matmul_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_bmm_params *bmm_params,
        const cmsis_nn_per_tensor_quant_params *quant_params,
        const cmsis_nn_dims *input_lhs_dims, const int16_t *input_lhs,
        const cmsis_nn_dims *input_rhs_dims, const int16_t *input_rhs,
        const cmsis_nn_dims *output_dims, int16_t *output)

The loop nest of arm_batch_matmul_s8 over int16 operands: the multiplier reduced once
(REDUCE_MULTIPLIER), then for every output batch and height one
arm_nn_vec_mat_mult_t_s16_s16 call per lhs row (the rhs passed transposed, [N, K]; bias
NULL); the lhs and rhs pointers step or rewind by the broadcast diffs.  No offsets: TFLM
requires zero points of 0 for int16.  adj_x / adj_y are not read.

Not calibrated: ../shared/reference has no int16 batch matmul case.  The per-call argument
set-up (four register arguments, six stacked) is what the calling convention needs.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cmp, fitted_ldr_sp, fitted_ldrd_sp, fitted_str_sp,
                            fitted_strd_sp, mov, mul, pop_pc, push, rsb, sub)

from .arm_nn_requantize_s64 import reduce_multiplier
from .arm_nn_vec_mat_mult_t_s16_s16 import arm_nn_vec_mat_mult_t_s16_s16


@kernel
def arm_batch_matmul_s16(m, activation_min, activation_max, multiplier, shift, lhs_n, lhs_h,
                         lhs_w, lhs_c, input_lhs, rhs_n, rhs_h, rhs_w, rhs_c, input_rhs,
                         output_batch, output_height, output):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    for _ in range(4):                                     # the dims structs' fields
        fitted_ldrd_sp(m)
    lhs_rows = lhs_w                                       # input_lhs_dims->w
    rhs_rows = rhs_w                                       # input_rhs_dims->w
    rhs_cols = rhs_c                                       # input_rhs_dims->c
    lhs_size = mul(m, lhs_rows, rhs_cols)                  # lhs_rows * rhs_cols
    rhs_size = mul(m, rhs_rows, rhs_cols)                  # rhs_rows * rhs_cols
    cmp(m, lhs_h, rhs_h)                                   # inner_lhs_diff: lhs h >= rhs h ? 0 : ..
    bcc(m, lhs_h >= rhs_h)
    inner_lhs_diff = 0 if lhs_h >= rhs_h else lhs_size
    cmp(m, rhs_h, lhs_h)                                   # inner_rhs_diff: rhs h >= lhs h ? ..: 0
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
    fitted_ldr_sp(m)                                       # quant_params->multiplier
    reduced_multiplier = reduce_multiplier(m, multiplier)  # REDUCE_MULTIPLIER(...)
    cmp(m, output_batch, 0)                                # for (i_out_batch ...)
    bcc(m, output_batch <= 0)
    for i_out_batch in range(output_batch):
        cmp(m, output_height, 0)                           # for (i_out_height ...)
        bcc(m, output_height <= 0)
        for i_out_height in range(output_height):
            cmp(m, lhs_rows, 0)                            # for (j ...)
            bcc(m, lhs_rows <= 0)
            for j in range(lhs_rows):
                for _ in range(4):                         # shift, rhs_cols, rhs_rows, activation
                    fitted_ldr_sp(m)
                fitted_str_sp(m)                           # the six stacked arguments
                fitted_strd_sp(m)
                fitted_strd_sp(m)
                fitted_str_sp(m)
                mov(m, input_lhs)                          # lhs, rhs, bias NULL, output
                mov(m, input_rhs)
                mov(m, 0)
                mov(m, output)
                bl(m)
                arm_nn_vec_mat_mult_t_s16_s16(m, input_lhs, input_rhs, 0, output,
                                              reduced_multiplier, shift, rhs_cols, rhs_rows,
                                              activation_min, activation_max)
                input_lhs = add(m, input_lhs, 2 * rhs_cols)    # input_lhs += rhs_cols;
                output = add(m, output, 2 * rhs_rows)          # output += rhs_rows;
                cmp(m, j + 1, lhs_rows)
                bcc(m, j + 1 < lhs_rows)
            input_lhs = sub(m, input_lhs, 2 * inner_lhs_diff)  # input_lhs -= inner_lhs_diff;
            input_rhs = add(m, input_rhs, 2 * inner_rhs_diff)  # input_rhs += inner_rhs_diff;
            cmp(m, i_out_height + 1, output_height)
            bcc(m, i_out_height + 1 < output_height)
        input_lhs = add(m, input_lhs, 2 * outer_lhs_diff)  # input_lhs += outer_lhs_diff;
        input_rhs = add(m, input_rhs, 2 * outer_rhs_diff)  # input_rhs += outer_rhs_diff;
        cmp(m, i_out_batch + 1, output_batch)
        bcc(m, i_out_batch + 1 < output_batch)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
