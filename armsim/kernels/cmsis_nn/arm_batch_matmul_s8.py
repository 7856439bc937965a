"""arm_batch_matmul_s8 (Source/FullyConnectedFunctions/arm_batch_matmul_s8.c), non-MVE.

    arm_cmsis_nn_status arm_batch_matmul_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_bmm_params *bmm_params,
        const cmsis_nn_per_tensor_quant_params *quant_params,
        const cmsis_nn_dims *input_lhs_dims, const int8_t *input_lhs,
        const cmsis_nn_dims *input_rhs_dims, const int8_t *input_rhs,
        const cmsis_nn_dims *output_dims, int8_t *output)

For every output batch and height, one arm_nn_vec_mat_mult_t_s8 call per lhs row (the rhs
is passed transposed, [N, K]; kernel_sum and bias NULL, address_offset 1, the rhs offset
as filter_offset); the lhs and rhs pointers then step or rewind by the broadcast diffs
(inner_* and outer_*, gcc's branches on the batch and height comparisons).  adj_x / adj_y
are not read: TFLM's Eval has already transposed the operands.  gcc reloads the parameter
structs' fields for every call (`ldr_sp`: the structs are the caller's); read off the
measured objects' disassembly (gcc 12.2 -O2, Cortex-M4 / M3); no fitted line.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, cmp, ldr_sp, ldrd_sp, mls, mov, mul, pop_pc, push,
                            rsb, str_sp, strd_sp, sub)

from .arm_nn_vec_mat_mult_t_s8 import arm_nn_vec_mat_mult_t_s8

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _diffs(m, lhs_n, lhs_h, rhs_n, rhs_h, lhs_rows, rhs_rows, rhs_cols):
    """inner_lhs_diff, inner_rhs_diff, outer_lhs_diff, outer_rhs_diff as gcc branches over
    them (from the CMP of the heights, whose branch has already been issued)."""
    lhs_size = lhs_rows * rhs_cols
    rhs_size = rhs_rows * rhs_cols
    inner_lhs_diff = 0 if lhs_h >= rhs_h else lhs_size
    inner_rhs_diff = rhs_size if rhs_h >= lhs_h else 0
    if lhs_h >= rhs_h:
        mov(m, 0)                                     # inner_lhs_diff = 0
        bcc(m, lhs_h == rhs_h)                        # beq
    else:
        mul(m, rhs_cols, lhs_rows)                    # inner_lhs_diff = lhs_rows * rhs_cols
    if lhs_h > rhs_h:
        ldr_sp(m)                                     # input_lhs_dims->n
        ldr_sp(m)                                     # input_rhs_dims->n
        if m.dsp:
            cmp(m, lhs_n, rhs_n)
            mov(m, 0)                                 # inner_rhs_diff = 0
        else:
            mov(m, 0)
            cmp(m, lhs_n, rhs_n)
        bcc(m, lhs_n < rhs_n)                         # blt
    else:
        ldr_sp(m)                                     # input_lhs_dims->n
        ldr_sp(m)                                     # input_rhs_dims->n
        if m.dsp:
            cmp(m, lhs_n, rhs_n)
            mul(m, rhs_cols, rhs_rows)                # inner_rhs_diff = rhs_rows * rhs_cols
        else:
            mul(m, rhs_cols, rhs_rows)
            cmp(m, lhs_n, rhs_n)
        bcc(m, lhs_n >= rhs_n)                        # bge
    if lhs_n < rhs_n:                                 # outer_lhs_diff = -(lhs_size - inner) * h
        mls(m, rhs_cols, lhs_rows, inner_lhs_diff)
        outer_lhs_diff = mul(m, lhs_h, inner_lhs_diff - lhs_size)
    else:
        outer_lhs_diff = inner_lhs_diff
        if not m.dsp:
            mov(m, inner_lhs_diff)
        bcc(m, lhs_n == rhs_n)                        # beq
        if lhs_n == rhs_n and m.dsp:
            mov(m, inner_lhs_diff)
            b(m)
    if rhs_n >= lhs_n:                                # outer_rhs_diff = rhs_size - inner_rhs_diff
        mul(m, rhs_cols, rhs_rows)
        outer_rhs_diff = sub(m, rhs_size, inner_rhs_diff)
        str_sp(m)
    else:                                             # outer_rhs_diff = -inner_rhs_diff * rhs_h
        if not m.dsp:
            ldr_sp(m)                                 # input_rhs_dims->h
        outer_rhs_diff = mul(m, rsb(m, inner_rhs_diff, 0), rhs_h)
        str_sp(m)
        if m.dsp:
            mov(m, inner_lhs_diff)
        b(m)
    return inner_lhs_diff, inner_rhs_diff, outer_lhs_diff, outer_rhs_diff


@kernel
def arm_batch_matmul_s8(m, ctx, bmm_params, quant_params, input_lhs_dims, input_lhs,
                        input_rhs_dims, input_rhs, output_dims, output):
    """`bmm_params`: a BmmParams; `quant_params`: a PerTensorQuantParams.  Returns
    ARM_CMSIS_NN_SUCCESS (0)."""
    fc = bmm_params.fc_params
    output_batch = output_dims.n
    output_height = output_dims.h
    lhs_rows = input_lhs_dims.w
    rhs_rows = input_rhs_dims.w
    rhs_cols = input_rhs_dims.c
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #108
    if m.dsp:
        ldrd_sp(m)                                    # input_lhs, input_rhs_dims
        ldr_sp(m)                                     # input_lhs_dims->h
        ldr_sp(m)                                     # input_rhs
        ldr_sp(m)                                     # output
        ldr_sp(m)                                     # input_lhs_dims->w
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)                                     # output_dims
        ldr_sp(m)                                     # input_rhs_dims->h
        ldr_sp(m)                                     # output_dims->n
        ldr_sp(m)                                     # output_dims->h
        str_sp(m)
        cmp(m, input_lhs_dims.h, input_rhs_dims.h)
        ldrd_sp(m)                                    # input_rhs_dims->w, ->c
        str_sp(m)
    else:
        ldr_sp(m)                                     # output_dims
        ldrd_sp(m)                                    # input_lhs, input_rhs_dims
        ldr_sp(m)                                     # input_rhs_dims->h
        ldr_sp(m)                                     # output_dims->n
        ldr_sp(m)                                     # output_dims->h
        mov(m, 0)
        ldrd_sp(m)                                    # input_lhs_dims->h, ->w
        ldrd_sp(m)                                    # input_rhs_dims->w, ->c
        cmp(m, input_lhs_dims.h, input_rhs_dims.h)
        str_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)                                     # input_rhs
        ldr_sp(m)                                     # output
        str_sp(m)
    bcc(m, input_lhs_dims.h >= input_rhs_dims.h)      # bge
    inner_lhs_diff, inner_rhs_diff, outer_lhs_diff, outer_rhs_diff = _diffs(
        m, input_lhs_dims.n, input_lhs_dims.h, input_rhs_dims.n, input_rhs_dims.h, lhs_rows,
        rhs_rows, rhs_cols)
    ldr_sp(m)                                         # output_batch
    cmp(m, output_batch, 0)                           # for (i_out_batch = 0; ...)
    bcc(m, output_batch <= 0)
    if output_batch > 0:
        if m.dsp:
            rsb(m, inner_lhs_diff, 0)
            str_sp(m)
            mul(m, lhs_rows, rhs_cols)
            str_sp(m)
            mul(m, lhs_rows, rhs_rows)
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            mul(m, inner_rhs_diff, output_height)
            mov(m, 0)                                 # i_out_batch = 0
            str_sp(m)
            str_sp(m)
            mov(m, 0)
            mov(m, input_rhs)
            mov(m, output)
        else:
            mov(m, 0)                                 # i_out_batch = 0
            rsb(m, inner_lhs_diff, 0)
            str_sp(m)
            mul(m, lhs_rows, rhs_cols)
            str_sp(m)
            mul(m, lhs_rows, rhs_rows)
            str_sp(m)
            ldr_sp(m)
            mov(m, 0)
            mul(m, inner_rhs_diff, output_height)
            mov(m, output)
            strd_sp(m)
            mov(m, input_rhs)
            str_sp(m)
    for i_out_batch in range(output_batch):
        ldr_sp(m)                                     # output_height
        cmp(m, output_height, 0)                      # for (i_out_height = 0; ...)
        bcc(m, output_height <= 0)
        if output_height > 0:
            mov(m, input_rhs)
            mov(m, 0)                                 # i_out_height = 0
            str_sp(m)
            str_sp(m)
        for i_out_height in range(output_height):
            cmp(m, lhs_rows, 0)                       # for (i_lhs_rows = 0; ...)
            bcc(m, lhs_rows <= 0)
            if lhs_rows > 0:
                if m.dsp:
                    strd_sp(m)
                    strd_sp(m)
                    for _ in range(3):
                        mov(m, 0)
                else:
                    for _ in range(3):
                        mov(m, 0)
                    strd_sp(m)
                    strd_sp(m)
            lhs = input_lhs
            out = output
            for i_lhs_rows in range(lhs_rows):
                if m.dsp:
                    strd_sp(m)                        # rhs_cols, rhs_rows
                    mov(m, 1)
                    str_sp(m)                         # output
                    str_sp(m)                         # 1
                    add(m, i_lhs_rows, 1)
                    for _ in range(7):                # the struct fields, restacked
                        ldr_sp(m)
                        str_sp(m)
                    mov(m, 0)                         # bias NULL
                    mov(m, lhs)
                    ldr_sp(m)                         # input_rhs
                    mov(m, 0)                         # kernel_sum NULL
                else:
                    mov(m, 1)
                    str_sp(m)
                    add(m, i_lhs_rows, 1)
                    mov(m, 0)                         # NULL
                    strd_sp(m)                        # rhs_cols, rhs_rows
                    str_sp(m)                         # output
                    ldr_sp(m)                         # bmm_params->fc_params.filter_offset
                    mov(m, lhs)
                    str_sp(m)
                    ldr_sp(m)                         # ...activation.max
                    ldr_sp(m)                         # input_rhs
                    str_sp(m)
                    ldr_sp(m)                         # ...activation.min
                    add(m, out, rhs_rows)
                    str_sp(m)
                    ldr_sp(m)                         # quant_params->shift
                    add(m, lhs, rhs_cols)
                    str_sp(m)
                    ldr_sp(m)                         # quant_params->multiplier
                    str_sp(m)
                    ldr_sp(m)                         # ...output_offset
                    str_sp(m)
                    ldr_sp(m)                         # ...input_offset
                    str_sp(m)
                    mov(m, 0)
                bl(m)
                arm_nn_vec_mat_mult_t_s8(m, lhs, input_rhs, 0, 0, out, fc.input_offset,
                                         fc.output_offset, quant_params.multiplier,
                                         quant_params.shift, rhs_cols, rhs_rows,
                                         fc.activation.min, fc.activation.max, 1,
                                         fc.filter_offset)
                cmp(m, lhs_rows, i_lhs_rows + 1)
                if m.dsp:
                    add(m, out, rhs_rows)
                    add(m, lhs, rhs_cols)
                lhs += rhs_cols                       # input_lhs += rhs_cols;
                out += rhs_rows                       # output += rhs_rows;
                bcc(m, i_lhs_rows + 1 < lhs_rows)     # bne
            if lhs_rows > 0:
                if m.dsp:
                    ldrd_sp(m)
                    ldr_sp(m)
                    ldrd_sp(m)
                    add(m, input_lhs, lhs_rows * rhs_cols)
                    ldr_sp(m)
                    add(m, output, lhs_rows * rhs_rows)
                else:
                    ldrd_sp(m)
                    ldrd_sp(m)
                    ldr_sp(m)
                    add(m, input_lhs, lhs_rows * rhs_cols)
                    ldr_sp(m)
                    add(m, output, lhs_rows * rhs_rows)
            input_lhs += lhs_rows * rhs_cols
            output += lhs_rows * rhs_rows
            ldr_sp(m)                                 # -inner_lhs_diff
            if m.dsp:
                input_lhs = add(m, input_lhs, -inner_lhs_diff)  # input_lhs -= inner_lhs_diff;
                ldr_sp(m)                             # inner_rhs_diff
                input_rhs = add(m, input_rhs, inner_rhs_diff)  # input_rhs += inner_rhs_diff;
                ldr_sp(m)                             # output_height
                add(m, i_out_height, 1)
            else:
                add(m, i_out_height, 1)
                input_lhs = add(m, input_lhs, -inner_lhs_diff)
                ldr_sp(m)
                input_rhs = add(m, input_rhs, inner_rhs_diff)
                ldr_sp(m)                             # output_height
            cmp(m, output_height, i_out_height + 1)
            bcc(m, i_out_height + 1 < output_height)  # bne
        if output_height > 0:
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)                                 # i_out_batch
            add(m, 0, 0)
        if m.dsp:
            ldr_sp(m)                                 # outer_lhs_diff
            input_lhs = add(m, input_lhs, outer_lhs_diff)  # input_lhs += outer_lhs_diff;
            ldr_sp(m)                                 # outer_rhs_diff
            input_rhs = add(m, input_rhs, outer_rhs_diff)  # input_rhs += outer_rhs_diff;
            ldr_sp(m)                                 # output_batch
            add(m, i_out_batch, 1)
        else:
            ldr_sp(m)
            add(m, i_out_batch, 1)
            input_lhs = add(m, input_lhs, outer_lhs_diff)
            ldr_sp(m)
            input_rhs = add(m, input_rhs, outer_rhs_diff)
            ldr_sp(m)                                 # output_batch
        cmp(m, output_batch, i_out_batch + 1)
        bcc(m, i_out_batch + 1 < output_batch)        # bne
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
