"""arm_nn_vec_mat_mul_result_acc_s8_s16 (Source/NNSupportFunctions/arm_nn_vec_mat_mul_result_acc_s8_s16.c),
non-MVE: one LSTM gate's matrix product, accumulated into the int16 gate buffer.

    arm_cmsis_nn_status arm_nn_vec_mat_mul_result_acc_s8_s16(const int8_t *lhs,
        const int8_t *rhs, const int32_t *effective_bias, int16_t *dst,
        const int32_t dst_multiplier, const int32_t dst_shift, const int32_t rhs_cols,
        const int32_t rhs_rows, const int32_t batches, const int32_t batch_offset)

dst[r] = clamp_int16(dst[r] + requantize(effective_bias[r] + sum_c lhs[c] * rhs[r][c])): the
lhs is read raw, its offset is folded into `effective_bias` (TFLM's Prepare, arm_vector_sum_s8).
ARM_MATH_DSP: two rows at a time, four columns per step (one lhs word and one word per row
widened with SXTB16 / SXTB16 ROR #8, two SMLAD per row), the cols % 4 left over one by one
(gcc: SMLABB), an odd last row alone.  Plain C: three rows at a time, one column per step
(LDRSB + MLA), then the rows % 3 one by one.  No unroll pragma in this file: gcc -O2 keeps
the column loops as written.

The per-tensor shift is loop-invariant, so its requantize setup is hoisted out of the row
loops (arm_nn_requantize_invariant).  The MACs, loads, stores, requantizations and clamps are
the C's, the inner loops as the disassembly of the measured build (arm-none-eabi-gcc 12.2.1
-O2, -mcpu=cortex-m4 / cortex-m3) has them (13 instructions per 4 columns of two rows, 9 per
column of three rows).  The lines marked "fitted" stand for gcc's set-up and stack traffic
(a ~60-instruction prologue of spilled invariants, reloads per row group, the rounding paths'
branches): a count per call and per row pair (DSP) / row triple and single row (plain C),
solved from the function's measured totals in both ../shared/reference cases together
(lstm_s8_t6_b1_i24_h32: dsp_O2 132,510 / scalar_O2 175,715 over 44 calls of 32 rows;
lstm_s8_t8_b1_i16_h16: 72,434 / 88,563 over 60 calls of 16 rows).  armsim: 132,036 /
175,352 and 72,014 / 88,274.  gcc branches around the rounding of the first accumulator
(one IT block per row pair fewer than the port).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    b,
    bcc,
    cmp,
    ldr,
    ldr_sp,
    ldrd,
    ldrd_sp,
    ldrsb,
    ldrsh,
    mla,
    mov,
    mul,
    pop_pc,
    push,
    smlabb,
    smlad,
    smull,
    str_sp,
    strd_sp,
    strh,
    sub,
    sxtb16,
)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup

Q15_MIN, Q15_MAX = -32768, 32767


@kernel(inline=True)
def _acc_store(m, acc, dst, dst_multiplier, left_shift, right_shift, remainder_mask,
               threshold):
    """acc = arm_nn_requantize(acc, mult, shift) + *dst, clamped to int16, stored at dst."""
    acc = requantize_in_loop(m, acc, dst_multiplier, left_shift, right_shift, remainder_mask,
                             threshold)
    acc = add(m, acc, ldrsh(m, dst))                          # acc_0 += *dst;
    acc = max_lt(m, acc, Q15_MIN)                             # MAX(acc_0, NN_Q15_MIN)
    acc = min_ge(m, acc, Q15_MAX)                             # MIN(acc_0, NN_Q15_MAX)
    strh(m, dst, acc)                                         # *dst++ = (int16_t)acc_0;


@kernel
def _dsp_rows(m, lhs, rhs_ptr, bias_ptr, dst, dst_multiplier, rhs_cols, rhs_rows,
              left_shift, right_shift, remainder_mask, threshold):
    """One batch of the ARM_MATH_DSP path; returns nothing (dst written in place)."""
    col_loop_cnt = rhs_cols // 4
    for _ in range(rhs_rows // 2):
        ldr_sp(m)
        ldr_sp(m)
        add(m, rhs_ptr, 0)                                    # rhs_0 / rhs_1 pointers
        add(m, rhs_ptr, rhs_cols)
        mov(m, 0)
        acc_0, acc_1 = ldrd(m, bias_ptr)                      # *effective_bias_ptr++ (two)
        bias_ptr += 8
        mov(m, 0)
        lhs_vec = lhs
        rhs_0 = rhs_ptr
        rhs_1 = rhs_ptr + rhs_cols
        rhs_ptr += 2 * rhs_cols
        cmp(m, col_loop_cnt, 0)
        bcc(m, col_loop_cnt == 0)
        if col_loop_cnt:
            strd_sp(m)
            ldr_sp(m)
            str_sp(m)
            mov(m, 0)
            for j in range(col_loop_cnt, 0, -1):
                vec_0 = ldr(m, lhs_vec)                       # arm_nn_read_s8x4_ia(&lhs_vec)
                lhs_vec += 4
                vec_1 = sxtb16(m, vec_0, 8)                   # SXTB16_RORn(vec_0, 8)
                ker_0 = ldr(m, rhs_0)                         # arm_nn_read_s8x4_ia(&rhs_0)
                rhs_0 += 4
                vec_0 = sxtb16(m, vec_0, 0)                   # SXTB16(vec_0)
                ker_1 = sxtb16(m, ker_0, 8)
                ker_0 = sxtb16(m, ker_0, 0)
                acc_0 = smlad(m, ker_1, vec_1, acc_0)         # acc_0 = SMLAD(ker_1, vec_1, acc_0)
                acc_0 = smlad(m, ker_0, vec_0, acc_0)         # acc_0 = SMLAD(ker_0, vec_0, acc_0)
                ker_0 = ldr(m, rhs_1)                         # arm_nn_read_s8x4_ia(&rhs_1)
                rhs_1 += 4
                ker_1 = sxtb16(m, ker_0, 8)
                ker_0 = sxtb16(m, ker_0, 0)
                acc_1 = smlad(m, ker_1, vec_1, acc_1)
                acc_1 = smlad(m, ker_0, vec_0, acc_1)
                sub(m, j, 1)                                  # subs lr, lr, #1
                bcc(m, j != 1)
            for _ in range(3):
                ldr_sp(m)                                     # fitted: pointers reloaded
            add(m, 0, 0)
            add(m, 0, 0)
            ldrd_sp(m)
            ldr_sp(m)
        else:
            ldr_sp(m)
            b(m)
        ldr_sp(m)
        cmp(m, rhs_cols, col_loop_cnt * 4)                    # k < rhs_cols
        bcc(m, rhs_cols <= col_loop_cnt * 4)
        if rhs_cols > col_loop_cnt * 4:
            ldr_sp(m)
            add(m, 0, 0)
            for _ in range(col_loop_cnt * 4, rhs_cols):
                lhs_temp = ldrsb(m, lhs_vec)                  # const int32_t lhs_temp = (*lhs_vec);
                lhs_vec += 1
                acc_0 = smlabb(m, ldrsb(m, rhs_0), lhs_temp, acc_0)  # acc_0 += lhs_temp * (*rhs_0);
                rhs_0 += 1
                v = ldrsb(m, rhs_1)
                rhs_1 += 1
                cmp(m, lhs_vec, 0)
                acc_1 = smlabb(m, v, lhs_temp, acc_1)         # acc_1 += lhs_temp * (*rhs_1);
                bcc(m, True)
        for _ in range(4):
            ldr_sp(m)                                         # fitted: multiplier, shift, masks
        _acc_store(m, acc_0, dst, dst_multiplier, left_shift, right_shift, remainder_mask,
                   threshold)
        _acc_store(m, acc_1, dst + 2, dst_multiplier, left_shift, right_shift,
                   remainder_mask, threshold)
        dst += 4
        b(m)
        for _ in range(3):
            ldr_sp(m)                                         # fitted: per row pair (see docstring)
        bcc(m, False)                                         # fitted
        b(m)                                                  # fitted
        mov(m, 0)                                             # fitted: register copies
        add(m, 0, 0)
        add(m, 0, 0)
        cmp(m, 0, 0)
        bcc(m, True)                                          # row-pair loop
    ldr_sp(m)
    cmp(m, rhs_rows & 1, 0)                                   # if (rhs_rows & 0x1)
    bcc(m, (rhs_rows & 1) == 0)
    if rhs_rows & 1:
        acc_0 = ldr(m, bias_ptr)                              # *effective_bias_ptr++
        lhs_vec = lhs
        rhs_0 = rhs_ptr
        cmp(m, col_loop_cnt, 0)
        bcc(m, col_loop_cnt == 0)
        if col_loop_cnt:
            mov(m, 0)
            for i in range(col_loop_cnt, 0, -1):
                vec_0 = ldr(m, lhs_vec)
                lhs_vec += 4
                vec_1 = sxtb16(m, vec_0, 8)
                ker_0 = ldr(m, rhs_0)
                rhs_0 += 4
                vec_0 = sxtb16(m, vec_0, 0)
                ker_1 = sxtb16(m, ker_0, 8)
                ker_0 = sxtb16(m, ker_0, 0)
                acc_0 = smlad(m, ker_1, vec_1, acc_0)
                acc_0 = smlad(m, ker_0, vec_0, acc_0)
                sub(m, i, 1)
                bcc(m, i != 1)
            ldr_sp(m)
            ldr_sp(m)
            add(m, 0, 0)
        ldr_sp(m)
        cmp(m, rhs_cols, col_loop_cnt * 4)
        bcc(m, rhs_cols <= col_loop_cnt * 4)
        if rhs_cols > col_loop_cnt * 4:
            sub(m, 0, 0)
            add(m, 0, 0)
            for _ in range(col_loop_cnt * 4, rhs_cols):
                lhs_temp = ldrsb(m, lhs_vec)
                lhs_vec += 1
                v = ldrsb(m, rhs_0)
                rhs_0 += 1
                cmp(m, lhs_vec, 0)
                acc_0 = smlabb(m, v, lhs_temp, acc_0)         # acc_0 += lhs_temp * (*rhs_0);
                bcc(m, True)
        for _ in range(3):
            ldr_sp(m)                                         # fitted
        _acc_store(m, acc_0, dst, dst_multiplier, left_shift, right_shift, remainder_mask,
                   threshold)
        b(m)


@kernel
def _scalar_rows(m, lhs, rhs_ptr, bias_ptr, dst, dst_multiplier, rhs_cols, rhs_rows,
                 left_shift, right_shift, remainder_mask, threshold):
    """One batch of the plain-C path."""
    row_loop_cnt = rhs_rows // 3
    ldr_sp(m)
    cmp(m, rhs_rows, 2)                                       # row_loop_cnt = rhs_rows / 3
    bcc(m, row_loop_cnt == 0)
    for _ in range(row_loop_cnt):
        ldr_sp(m)
        ldr_sp(m)
        res00 = ldr(m, bias_ptr)                              # *effective_bias_ptr++ (three)
        res01, res02 = ldrd(m, bias_ptr + 4)
        bias_ptr += 12
        cmp(m, rhs_cols, 0)
        bcc(m, rhs_cols <= 0)
        rhs_0 = rhs_ptr
        rhs_1 = rhs_ptr + rhs_cols
        rhs_2 = rhs_ptr + 2 * rhs_cols
        rhs_ptr += 3 * rhs_cols
        lhs_ptr = lhs
        if rhs_cols > 0:
            for _ in range(7):
                ldr_sp(m)                                     # fitted: the three row pointers
            sub(m, 0, 1)
            sub(m, 0, 1)
            sub(m, 0, 1)
            for c in range(rhs_cols):
                lhs_value = ldrsb(m, lhs_ptr)                 # (int8_t)*lhs_ptr
                lhs_ptr += 1
                v0 = ldrsb(m, rhs_0)                          # (int8_t)*rhs_ptr_0
                rhs_0 += 1
                cmp(m, c + 1, rhs_cols)
                res00 = mla(m, lhs_value, v0, res00)          # res00 += lhs_value * rhs_value0;
                v1 = ldrsb(m, rhs_1)
                rhs_1 += 1
                res01 = mla(m, lhs_value, v1, res01)          # res01 += lhs_value * rhs_value1;
                v2 = ldrsb(m, rhs_2)
                rhs_2 += 1
                res02 = mla(m, lhs_value, v2, res02)          # res02 += lhs_value * rhs_value2;
                bcc(m, c + 1 < rhs_cols)
            ldrd_sp(m)
        for _ in range(4):
            ldr_sp(m)                                         # fitted: pointers stepped via the stack
            str_sp(m)
        add(m, 0, 0)
        add(m, 0, 0)
        add(m, 0, 0)
        _acc_store(m, res00, dst, dst_multiplier, left_shift, right_shift, remainder_mask,
                   threshold)
        _acc_store(m, res01, dst + 2, dst_multiplier, left_shift, right_shift,
                   remainder_mask, threshold)
        _acc_store(m, res02, dst + 4, dst_multiplier, left_shift, right_shift,
                   remainder_mask, threshold)
        dst += 6
        for _ in range(4):
            ldr_sp(m)                                         # fitted: per row triple
        str_sp(m)                                             # fitted
        str_sp(m)                                             # fitted
        bcc(m, False)                                         # fitted
        bcc(m, False)                                         # fitted
        b(m)                                                  # fitted
        mov(m, 0)                                             # fitted
        ldr_sp(m)
        add(m, 0, 0)
        cmp(m, 0, 0)
        str_sp(m)
        bcc(m, True)                                          # row loop
    for _ in range(4):
        ldr_sp(m)                                             # fitted
    mov(m, 0)
    add(m, 0, 0)
    cmp(m, rhs_rows % 3, 0)
    bcc(m, rhs_rows % 3 == 0)
    for _ in range(rhs_rows % 3):
        res00 = ldr(m, bias_ptr)                              # *effective_bias_ptr++
        bias_ptr += 4
        ldr_sp(m)
        cmp(m, rhs_cols, 0)
        bcc(m, rhs_cols <= 0)
        lhs_ptr = lhs
        rhs_0 = rhs_ptr
        if rhs_cols > 0:
            strd_sp(m)
            ldr_sp(m)
            sub(m, 0, 1)
            for c in range(rhs_cols):
                lhs_value = ldrsb(m, lhs_ptr)
                lhs_ptr += 1
                v0 = ldrsb(m, rhs_0)
                rhs_0 += 1
                cmp(m, c + 1, rhs_cols)
                res00 = mla(m, lhs_value, v0, res00)          # res00 += lhs_value * rhs_value0;
                bcc(m, c + 1 < rhs_cols)
            ldrd_sp(m)
        rhs_ptr += rhs_cols
        ldr_sp(m)                                             # fitted
        _acc_store(m, res00, dst, dst_multiplier, left_shift, right_shift, remainder_mask,
                   threshold)
        dst += 2
        ldr_sp(m)                                             # fitted: per single row
        ldr_sp(m)                                             # fitted
        bcc(m, False)                                         # fitted
        mov(m, 0)                                             # fitted
        b(m)                                                  # fitted
        add(m, 0, 0)
        cmp(m, 0, 0)
        bcc(m, True)


@kernel
def arm_nn_vec_mat_mul_result_acc_s8_s16(m, lhs, rhs, effective_bias, dst, dst_multiplier,
                                         dst_shift, rhs_cols, rhs_rows, batches,
                                         batch_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #108
    for _ in range(4):
        ldr_sp(m)                                             # the stacked arguments
    cmp(m, batches, 0)
    bcc(m, batches <= 0)
    if batches > 0:
        # loop-invariant set-up hoisted out of the batch loop (fitted to the prologue's length)
        left_shift, right_shift, remainder_mask, threshold = requantize_setup(m, dst_shift)
        mul_stride = mul(m, rhs_cols, batch_offset)           # lhs += rhs_cols * batch_offset
        mla(m, rhs_rows, 0, 0)                                # the row pointers' end
        for _ in range(12):
            str_sp(m)                                         # fitted: spilled invariants
        for _ in range(8):
            add(m, 0, 0)                                      # fitted: derived pointers
        if m.dsp:
            for _ in range(16):
                ldr_sp(m)                                     # fitted: per call (see docstring)
            for _ in range(8):
                str_sp(m)                                     # fitted
            for _ in range(5):
                mov(m, 0)                                     # fitted
            for _ in range(4):
                sub(m, 0, 0)                                  # fitted
            for _ in range(6):
                bcc(m, False)                                 # fitted
            for _ in range(4):
                b(m)                                          # fitted
            for _ in range(6):
                add(m, 0, 0)                                  # fitted
        else:
            smull(m, rhs_rows, 0x55555556)                    # rhs_rows / 3
            for _ in range(20):
                ldr_sp(m)                                     # fitted: per call (see docstring)
            for _ in range(14):
                str_sp(m)                                     # fitted
            for _ in range(10):
                mov(m, 0)                                     # fitted
            for _ in range(7):
                add(m, 0, 0)                                  # fitted
            for _ in range(6):
                bcc(m, False)                                 # fitted
            for _ in range(3):
                b(m)                                          # fitted
            for _ in range(3):
                sub(m, 0, 0)                                  # fitted
        for batch in range(batches):
            if m.dsp:
                _dsp_rows(m, lhs, rhs, effective_bias, dst, dst_multiplier, rhs_cols,
                          rhs_rows, left_shift, right_shift, remainder_mask, threshold)
            else:
                _scalar_rows(m, lhs, rhs, effective_bias, dst, dst_multiplier, rhs_cols,
                             rhs_rows, left_shift, right_shift, remainder_mask, threshold)
            dst += 2 * rhs_rows
            lhs = add(m, lhs, mul_stride)                     # lhs += rhs_cols * batch_offset;
            ldr_sp(m)
            cmp(m, batch + 1, batches)
            bcc(m, batch + 1 < batches)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
