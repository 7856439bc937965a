"""arm_batch_matmul_s16 (Source/FullyConnectedFunctions/arm_batch_matmul_s16.c), non-MVE.

    arm_cmsis_nn_status arm_batch_matmul_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_bmm_params *bmm_params,
        const cmsis_nn_per_tensor_quant_params *quant_params,
        const cmsis_nn_dims *input_lhs_dims, const int16_t *input_lhs,
        const cmsis_nn_dims *input_rhs_dims, const int16_t *input_rhs,
        const cmsis_nn_dims *output_dims, int16_t *output)

The loop nest of arm_batch_matmul_s8 over int16 operands: the multiplier reduced once
(REDUCE_MULTIPLIER: gcc's ITTE LE / ITEE GT), then for every output batch and height one
arm_nn_vec_mat_mult_t_s16_s16 call per lhs row (the rhs passed transposed, [N, K]; bias
NULL); the lhs and rhs pointers step or rewind by the broadcast diffs (gcc's branches on the
height and batch comparisons).  No offsets: TFLM requires zero points of 0 for int16.
adj_x / adj_y are not read: TFLM's Eval has already transposed the operands.  The parameter
structs are the caller's (`ldr_sp`; activation and shift reloaded for every call).  Read
off the measured objects' disassembly (gcc 12.2 -O2, Cortex-M4 / M3); no fitted line.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bl, cmp, it, ldr_lit, ldr_sp, ldrd_sp, lsl, mls,
                            mov, mul, pop_pc, push, rsb, str_sp, strd_sp, sub)

from .arm_nn_vec_mat_mult_t_s16_s16 import arm_nn_vec_mat_mult_t_s16_s16

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
    if lhs_h < rhs_h:
        mul(m, rhs_cols, lhs_rows)                    # inner_lhs_diff = lhs_rows * rhs_cols
    else:
        mov(m, 0)                                     # inner_lhs_diff = 0
        bcc(m, lhs_h == rhs_h)                        # beq
    if lhs_h <= rhs_h:
        ldr_sp(m)                                     # input_lhs_dims->n
        ldr_sp(m)                                     # input_rhs_dims->n
        ldr_sp(m)                                     # rhs_rows
        cmp(m, lhs_n, rhs_n)
        mul(m, rhs_cols, rhs_rows)                    # inner_rhs_diff = rhs_rows * rhs_cols
        bcc(m, lhs_n >= rhs_n)                        # bge
    else:
        ldr_sp(m)                                     # input_lhs_dims->n
        ldr_sp(m)                                     # input_rhs_dims->n
        if m.dsp:
            cmp(m, lhs_n, rhs_n)
            mov(m, 0)                                 # inner_rhs_diff = 0
        else:
            mov(m, 0)
            cmp(m, lhs_n, rhs_n)
        bcc(m, lhs_n < rhs_n)                         # blt
    if lhs_n < rhs_n:                                 # outer_lhs_diff = -(lhs_size - inner) * h
        outer_lhs_diff = mul(m, lhs_h, mls(m, rhs_cols, lhs_rows, inner_lhs_diff))
        rhs_rest = True
    else:
        outer_lhs_diff = inner_lhs_diff
        if m.dsp:
            bcc(m, lhs_n == rhs_n)                    # beq
            if lhs_n > rhs_n:                         # outer_rhs_diff = -inner_rhs_diff * h
                outer_rhs_diff = mul(m, rhs_h, rsb(m, inner_rhs_diff, 0))
            mov(m, inner_lhs_diff)
            b(m)
        else:
            mov(m, inner_lhs_diff)
            bcc(m, lhs_n == rhs_n)                    # beq
            if lhs_n > rhs_n:
                outer_rhs_diff = mul(m, rhs_h, rsb(m, inner_rhs_diff, 0))
                b(m)
        rhs_rest = lhs_n == rhs_n
    if rhs_rest:                                      # outer_rhs_diff = rhs_size - inner
        ldr_sp(m)                                     # rhs_rows
        mul(m, rhs_cols, rhs_rows)
        outer_rhs_diff = sub(m, rhs_size, inner_rhs_diff)
    return inner_lhs_diff, inner_rhs_diff, outer_lhs_diff, outer_rhs_diff


@kernel
def arm_batch_matmul_s16(m, ctx, bmm_params, quant_params, input_lhs_dims, input_lhs,
                         input_rhs_dims, input_rhs, output_dims, output):
    """`bmm_params`: a BmmParams; `quant_params`: a PerTensorQuantParams.  Returns
    ARM_CMSIS_NN_SUCCESS (0)."""
    fc = bmm_params.fc_params
    output_batch = output_dims.n
    output_height = output_dims.h
    lhs_rows = input_lhs_dims.w
    rhs_rows = input_rhs_dims.w
    rhs_cols = input_rhs_dims.c
    multiplier = quant_params.multiplier
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #100
    if m.dsp:
        mov(m, 0)
        ldr_sp(m)                                     # input_rhs_dims
        ldr_sp(m)                                     # output_dims
        ldr_sp(m)                                     # input_lhs_dims->h
        ldr_sp(m)                                     # input_rhs_dims->h
        ldr_sp(m)                                     # input_lhs
        ldr_sp(m)                                     # input_rhs
        ldr_sp(m)                                     # input_lhs_dims->w
        mov(m, 0)
        ldr_sp(m)                                     # output_dims->n
        ldr_sp(m)                                     # output_dims->h
        str_sp(m)
        cmp(m, input_lhs_dims.h, input_rhs_dims.h)
        ldr_sp(m)                                     # input_rhs_dims->w
        str_sp(m)
        mov(m, 0)
        ldr_sp(m)                                     # input_rhs_dims->c
        ldr_sp(m)                                     # output
        str_sp(m)
    else:
        ldr_sp(m)                                     # output_dims
        ldrd_sp(m)                                    # input_lhs, input_rhs_dims
        ldr_sp(m)                                     # output_dims->n
        ldr_sp(m)                                     # output_dims->h
        ldr_sp(m)                                     # input_rhs_dims->h
        str_sp(m)
        ldr_sp(m)                                     # input_rhs_dims->w
        mov(m, 0)
        ldrd_sp(m)                                    # input_lhs_dims->h, ->w
        cmp(m, input_lhs_dims.h, input_rhs_dims.h)
        str_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)                                     # input_rhs
        ldr_sp(m)                                     # output
        ldr_sp(m)                                     # input_rhs_dims->c
    bcc(m, input_lhs_dims.h >= input_rhs_dims.h)      # bge.w
    inner_lhs_diff, inner_rhs_diff, outer_lhs_diff, outer_rhs_diff = _diffs(
        m, input_lhs_dims.n, input_lhs_dims.h, input_rhs_dims.n, input_rhs_dims.h, lhs_rows,
        rhs_rows, rhs_cols)
    # const int32_t reduced_multiplier = REDUCE_MULTIPLIER(quant_params->multiplier);
    ldr_sp(m)                                         # quant_params->multiplier
    ldr_lit(m)                                        # 0x7FFEFFFF
    cmp(m, multiplier, 0x7FFEFFFF)
    small = multiplier < 0x7FFF0000
    it(m, 1 if small else 2)                          # ITTE LE / ITEE GT
    if small:
        reduced_multiplier = asr(m, add(m, multiplier, 1 << 15), 16)
    else:
        reduced_multiplier = mov(m, 0x7FFF)
    str_sp(m)
    ldr_sp(m)                                         # output_batch
    cmp(m, output_batch, 0)                           # for (i_out_batch = 0; ...)
    bcc(m, output_batch <= 0)
    if output_batch > 0:
        if not m.dsp:
            mov(m, 0)                                 # i_out_batch = 0
        lsl(m, inner_lhs_diff, 1)
        rsb(m, 2 * inner_lhs_diff, 0)
        str_sp(m)
        lsl(m, outer_lhs_diff, 1)
        str_sp(m)
        lsl(m, outer_rhs_diff, 1)
        str_sp(m)
        ldr_sp(m)                                     # rhs_rows
        lsl(m, rhs_cols, 1)
        lsl(m, rhs_rows, 1)
        mul(m, lhs_rows, 2 * rhs_cols)
        str_sp(m)
        mul(m, lhs_rows, 2 * rhs_rows)
        str_sp(m)
        ldr_sp(m)                                     # output_height
        lsl(m, inner_rhs_diff, 1)
        mul(m, 2 * inner_rhs_diff, output_height)
        if m.dsp:
            mov(m, 0)                                 # i_out_batch = 0
            strd_sp(m)
            str_sp(m)
            str_sp(m)
            mov(m, 0)
            mov(m, input_rhs)
        else:
            strd_sp(m)
            str_sp(m)
            mov(m, output)
            str_sp(m)
            mov(m, input_rhs)
            mov(m, 0)
            mov(m, input_lhs)
    for i_out_batch in range(output_batch):
        ldr_sp(m)                                     # output_height
        cmp(m, output_height, 0)                      # for (i_out_height = 0; ...)
        bcc(m, output_height <= 0)
        if output_height > 0:
            mov(m, input_rhs)
            mov(m, 0)                                 # i_out_height = 0
            str_sp(m)
            str_sp(m)
        rhs = input_rhs
        for i_out_height in range(output_height):
            cmp(m, lhs_rows, 0)                       # for (j = 0; j < lhs_rows; j++)
            bcc(m, lhs_rows <= 0)
            if lhs_rows > 0:
                if m.dsp:
                    strd_sp(m)
                    mov(m, output)
                    mov(m, input_lhs)
                    mov(m, 0)                         # j = 0
                    str_sp(m)
                else:
                    mov(m, output)
                    mov(m, input_lhs)
                    mov(m, 0)                         # j = 0
                    strd_sp(m)
                    str_sp(m)
            lhs = input_lhs
            out = output
            for j in range(lhs_rows):
                if m.dsp:
                    ldr_sp(m)                         # rhs_rows
                    str_sp(m)
                    ldr_sp(m)                         # rhs_cols
                    str_sp(m)
                    ldr_sp(m)                         # reduced_multiplier
                    str_sp(m)
                    ldr_sp(m)                         # bmm_params->fc_params.activation.max
                    str_sp(m)
                    ldr_sp(m)                         # ...activation.min
                    ldr_sp(m)                         # 2 * rhs_cols
                    str_sp(m)
                    ldr_sp(m)                         # quant_params->shift
                    str_sp(m)
                    mov(m, lhs)
                    mov(m, out)
                    add(m, j, 1)
                    add(m, lhs, 2 * rhs_cols)
                    mov(m, rhs)
                    mov(m, 0)                         # bias NULL
                else:
                    ldr_sp(m)                         # rhs_rows
                    ldr_sp(m)                         # 2 * rhs_cols
                    str_sp(m)
                    ldr_sp(m)                         # rhs_cols
                    mov(m, lhs)
                    str_sp(m)
                    ldr_sp(m)                         # reduced_multiplier
                    mov(m, rhs)
                    str_sp(m)
                    ldr_sp(m)                         # bmm_params->fc_params.activation.max
                    add(m, j, 1)
                    str_sp(m)
                    ldr_sp(m)                         # ...activation.min
                    add(m, lhs, 2 * rhs_cols)
                    str_sp(m)
                    ldr_sp(m)                         # quant_params->shift
                    mov(m, 0)                         # bias NULL
                    str_sp(m)
                    mov(m, out)
                bl(m)
                arm_nn_vec_mat_mult_t_s16_s16(m, lhs, rhs, 0, out, reduced_multiplier,
                                              quant_params.shift, rhs_cols, rhs_rows,
                                              fc.activation.min, fc.activation.max)
                cmp(m, lhs_rows, j + 1)
                lhs += 2 * rhs_cols                   # input_lhs += rhs_cols;
                out = add(m, out, 2 * rhs_rows)       # output += rhs_rows;
                bcc(m, j + 1 < lhs_rows)              # bne
            if lhs_rows > 0:
                ldrd_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                add(m, input_lhs, 2 * lhs_rows * rhs_cols)
                ldr_sp(m)
                add(m, output, 2 * lhs_rows * rhs_rows)
            input_lhs += 2 * lhs_rows * rhs_cols
            output += 2 * lhs_rows * rhs_rows
            ldr_sp(m)                                 # -inner_lhs_diff (bytes)
            if m.dsp:
                input_lhs = add(m, input_lhs, -2 * inner_lhs_diff)  # input_lhs -= inner_lhs_diff;
                ldr_sp(m)                             # inner_rhs_diff (bytes)
                rhs = add(m, rhs, 2 * inner_rhs_diff)  # input_rhs += inner_rhs_diff;
                ldr_sp(m)                             # output_height
                add(m, i_out_height, 1)
            else:
                add(m, i_out_height, 1)
                input_lhs = add(m, input_lhs, -2 * inner_lhs_diff)
                ldr_sp(m)
                rhs = add(m, rhs, 2 * inner_rhs_diff)
                ldr_sp(m)                             # output_height
            cmp(m, output_height, i_out_height + 1)
            bcc(m, i_out_height + 1 < output_height)  # bne
        if output_height > 0:
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)                                 # i_out_batch
            input_rhs = add(m, input_rhs, 2 * inner_rhs_diff * output_height)
        if m.dsp:
            ldr_sp(m)                                 # outer_lhs_diff (bytes)
            input_lhs = add(m, input_lhs, 2 * outer_lhs_diff)  # input_lhs += outer_lhs_diff;
            ldr_sp(m)                                 # outer_rhs_diff (bytes)
            input_rhs = add(m, input_rhs, 2 * outer_rhs_diff)  # input_rhs += outer_rhs_diff;
            ldr_sp(m)                                 # output_batch
            add(m, i_out_batch, 1)
        else:
            ldr_sp(m)
            add(m, i_out_batch, 1)
            input_lhs = add(m, input_lhs, 2 * outer_lhs_diff)
            ldr_sp(m)
            input_rhs = add(m, input_rhs, 2 * outer_rhs_diff)
            ldr_sp(m)                                 # output_batch
        cmp(m, output_batch, i_out_batch + 1)
        bcc(m, i_out_batch + 1 < output_batch)        # bne
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
