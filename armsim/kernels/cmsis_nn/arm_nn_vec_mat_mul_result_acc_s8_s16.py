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

The MACs, loads, stores, requantizations and clamps are the C's; both builds follow the
disassembly of the measured objects (arm-none-eabi-gcc 12.2.1 -O2, -mcpu=cortex-m4 with
ARM_MATH_DSP and -mcpu=cortex-m3) instruction for instruction: the prologue that computes
and spills every loop invariant (the requantize mask and thresholds of the per-tensor shift,
rhs_rows / 3 by SMULL in the plain-C build), 15 instructions per 4 columns of two rows (DSP)
and 9 per column of three rows (plain C), the requantizations of a row group interleaved
with branches on the quotients' signs where gcc has them, the int16 clamps.  No fitted line.
Function totals, armsim and measured alike (../shared/reference): lstm_s8_t6_b1_i24_h32
dsp_O2 132,510, scalar_O2 175,715; lstm_s8_t8_b1_i16_h16 72,434 / 88,563.  A positive
dst_shift (a gate multiplier above one) follows gcc's code as well, its count is not
measured.  gcc's LDM of three stacked arguments is `ldm_sp`.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    and_,
    asr,
    b,
    bcc,
    bic,
    cbz,
    cmp,
    it,
    ldm_sp,
    ldr,
    ldr_lit,
    ldr_sp,
    ldrd,
    ldrd_sp,
    ldrsb,
    ldrsh,
    lsl,
    lsr,
    mla,
    mov,
    mul,
    orr,
    pop_pc,
    push,
    rsb,
    smlabb,
    smlad,
    smlal,
    smull,
    str_sp,
    strd_sp,
    strh,
    sub,
    sxtb16,
)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

Q15_MIN, Q15_MAX = -32768, 32767


@kernel(inline=True)
def _dsp_columns(m, lhs_vec, rhs_0, rhs_1, acc_0, acc_1, col_loop_cnt, two_rows):
    """for (j = col_loop_cnt; j != 0; j--): one lhs word and one word per row, widened with
    SXTB16, two SMLAD per row (gcc: 15 instructions per step for two rows, 10 for one)."""
    for j in range(col_loop_cnt, 0, -1):
        vec_0 = ldr(m, lhs_vec)                               # arm_nn_read_s8x4_ia(&lhs_vec)
        lhs_vec += 4
        vec_1 = sxtb16(m, vec_0, 8)                           # SXTB16_RORn((uint32_t)vec_0, 8)
        ker_0 = ldr(m, rhs_0)                                 # arm_nn_read_s8x4_ia(&rhs_0)
        rhs_0 += 4
        vec_0 = sxtb16(m, vec_0, 0)                           # SXTB16(vec_0)
        ker_1 = sxtb16(m, ker_0, 8)
        ker_0 = sxtb16(m, ker_0, 0)
        acc_0 = smlad(m, ker_1, vec_1, acc_0)                 # acc_0 = SMLAD(ker_1, vec_1, acc_0)
        acc_0 = smlad(m, ker_0, vec_0, acc_0)                 # acc_0 = SMLAD(ker_0, vec_0, acc_0)
        if two_rows:
            ker_0 = ldr(m, rhs_1)                             # arm_nn_read_s8x4_ia(&rhs_1)
            rhs_1 += 4
            ker_1 = sxtb16(m, ker_0, 8)
            ker_0 = sxtb16(m, ker_0, 0)
            acc_1 = smlad(m, ker_1, vec_1, acc_1)             # acc_1 = SMLAD(ker_1, vec_1, acc_1)
            acc_1 = smlad(m, ker_0, vec_0, acc_1)             # acc_1 = SMLAD(ker_0, vec_0, acc_1)
        sub(m, j, 1)                                          # subs lr, lr, #1
        bcc(m, j != 1)                                        # bne
    return lhs_vec, rhs_0, rhs_1, acc_0, acc_1


@kernel(inline=True)
def _high_mult(m, val, multiplier):
    """arm_nn_doubling_high_mult_no_sat: MOV #0, MOV #1<<30, SMLAL, LSR #31, ORR LSL #1."""
    hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, val, multiplier)
    return orr(m, lsr(m, lo, 31), hi << 1)


@kernel(inline=True)
def _requantize_pair(m, acc_0, acc_1, dst_multiplier, dst_shift, left_shift, right_shift,
                     remainder_mask, threshold):
    """arm_nn_requantize of both accumulators of a row pair as gcc interleaves them: the
    first one's doubling multiply, then a branch on the shift's sign; for shift <= 0 (no
    left shift) a branch on the sign of the first quotient instead of its IT block."""
    for _ in range(2):
        ldr_sp(m)                                             # left_shift, dst_multiplier
    res_0 = _high_mult(m, lsl(m, acc_0, left_shift), dst_multiplier)
    ldr_sp(m)                                                 # dst_shift
    cmp(m, dst_shift, 0)
    bcc(m, dst_shift <= 0)                                    # ble
    if dst_shift > 0:                                         # exponent 0: no rounding
        for _ in range(2):
            ldr_sp(m)
        res_1 = _high_mult(m, lsl(m, acc_1, left_shift), dst_multiplier)
        cmp(m, res_0, 0)
        bcc(m, res_0 < 0)
        if res_0 < 0:                                         # shared tail: remainder 0
            rem_1 = mov(m, 0)
            thr_1 = mov(m, 0)
            b(m)
            cmp(m, res_1, 0)
            negative = res_1 < 0
            it(m, not negative)
            if negative:
                thr_1 = add(m, thr_1, 1)
            cmp(m, thr_1, rem_1)
            it(m, 1)                                          # never rounds
            b(m)
        return res_0, res_1
    ldr_sp(m)                                                 # remainder mask, -shift
    ldr_sp(m)
    rem_0 = and_(m, res_0, remainder_mask)
    res_0 = asr(m, res_0, right_shift)                        # ASRS: N = the quotient's sign
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    bcc(m, res_0 < 0)                                         # bmi
    ldr_sp(m)                                                 # dst_multiplier
    lo, hi = smlal(m, lo, hi, dst_multiplier, acc_1)          # (left shift 0)
    res_1 = orr(m, lsr(m, lo, 31), hi << 1)
    if res_0 < 0:
        thr_0 = threshold + 1                                 # threshold + 1 from the stack
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        rem_1 = and_(m, res_1, remainder_mask)
        res_1 = asr(m, res_1, right_shift)
        b(m)
    else:
        thr_0 = threshold
        rem_1 = and_(m, remainder_mask, res_1)
        mov(m, right_shift)
        ldr_sp(m)                                             # threshold
        res_1 = asr(m, res_1, right_shift)
    cmp(m, rem_0, thr_0)                                      # if (remainder > threshold)
    thr_1 = threshold
    ldr_sp(m)
    up = rem_0 > thr_0
    it(m, not up)
    if up:
        res_0 = add(m, res_0, 1)                              #     result++;
    cmp(m, res_1, 0)                                          # if (result < 0)
    negative = res_1 < 0
    it(m, not negative)
    if negative:
        thr_1 = add(m, thr_1, 1)                              #     threshold++;
    cmp(m, thr_1, rem_1)
    up = thr_1 < rem_1
    it(m, not up)
    if up:
        res_1 = add(m, res_1, 1)                              #     result++;
    b(m)
    return res_0, res_1


@kernel
def _dsp_rows(m, lhs, rhs_ptr, bias_ptr, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows,
              left_shift, right_shift, remainder_mask, threshold):
    """One batch of the ARM_MATH_DSP path (dst written in place)."""
    col_loop_cnt = rhs_cols // 4
    row_pairs = rhs_rows // 2
    ldr_sp(m)
    ldr_sp(m)
    sub(m, 0, 0)
    cmp(m, row_pairs, 0)
    bcc(m, row_pairs == 0)                                    # beq: no row pair
    if row_pairs:
        ldr_sp(m)
        str_sp(m)
        add(m, bias_ptr, 8)
        strd_sp(m)
        ldr_sp(m)
        str_sp(m)
        sub(m, 0, 0)
        add(m, dst, 4)
        str_sp(m)
        mov(m, Q15_MAX)                                       # movw r1, #32767
        for _ in range(3):
            mov(m, 0)
    for pair in range(row_pairs):
        ldr_sp(m)
        ldr_sp(m)
        rhs_0 = add(m, rhs_ptr, 0)
        rhs_1 = add(m, rhs_ptr, rhs_cols)
        rhs_ptr += 2 * rhs_cols
        lhs_vec = mov(m, lhs)
        acc_0, acc_1 = ldrd(m, bias_ptr)                      # *effective_bias_ptr++ (two)
        bias_ptr += 8
        mov(m, 0)
        cmp(m, col_loop_cnt, 0)
        bcc(m, col_loop_cnt == 0)
        if col_loop_cnt:
            strd_sp(m)
            ldr_sp(m)
            str_sp(m)
            mov(m, col_loop_cnt)
            lhs_vec, rhs_0, rhs_1, acc_0, acc_1 = _dsp_columns(
                m, lhs_vec, rhs_0, rhs_1, acc_0, acc_1, col_loop_cnt, True)
            ldr_sp(m)
            ldr_sp(m)
            add(m, 0, 0)
            ldr_sp(m)
            ldrd_sp(m)
            add(m, 0, 0)
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
            for k in range(col_loop_cnt * 4, rhs_cols):
                lhs_temp = ldrsb(m, lhs_vec)                  # const int32_t lhs_temp = (*lhs_vec);
                lhs_vec += 1
                acc_0 = smlabb(m, ldrsb(m, rhs_0), lhs_temp, acc_0)  # acc_0 += lhs_temp * (*rhs_0);
                rhs_0 += 1
                v = ldrsb(m, rhs_1)
                rhs_1 += 1
                cmp(m, k + 1, rhs_cols)
                acc_1 = smlabb(m, v, lhs_temp, acc_1)         # acc_1 += lhs_temp * (*rhs_1);
                bcc(m, k + 1 < rhs_cols)
        acc_0, acc_1 = _requantize_pair(m, acc_0, acc_1, dst_multiplier, dst_shift,
                                        left_shift, right_shift, remainder_mask, threshold)
        acc_0 = add(m, ldrsh(m, dst), acc_0)                  # acc_0 += *dst;
        ldr_lit(m)                                            # NN_Q15_MIN
        cmp(m, acc_0, Q15_MIN)
        acc_1 = add(m, ldrsh(m, dst + 2), acc_1)              # acc_1 += *dst;
        clamp = acc_0 < Q15_MIN                               # MAX(acc_0, NN_Q15_MIN)
        it(m, not clamp)
        if clamp:
            acc_0 = mov(m, Q15_MIN)
        acc_0 = min_ge(m, acc_0, Q15_MAX)                     # MIN(acc_0, NN_Q15_MAX)
        acc_1 = max_lt(m, acc_1, Q15_MIN)                     # MAX(acc_1, NN_Q15_MIN)
        acc_1 = min_ge(m, acc_1, Q15_MAX)                     # MIN(acc_1, NN_Q15_MAX)
        sub(m, row_pairs - pair, 1)                           # subs r0, #1
        strh(m, dst, acc_0)                                   # *dst++ = (int16_t)acc_0;
        strh(m, dst + 2, acc_1)                               # *dst++ = (int16_t)acc_1;
        dst += 4
        add(m, 0, 0)
        add(m, 0, 0)
        bcc(m, pair + 1 < row_pairs)                          # bne
    if row_pairs:
        for _ in range(3):
            ldr_sp(m)
        add(m, 0, 0)
        ldrd_sp(m)
        ldrd_sp(m)
    else:
        ldrd_sp(m)
        b(m)
    ldr_sp(m)
    cmp(m, rhs_rows & 1, 0)                                   # if (rhs_rows & 0x1)
    bcc(m, (rhs_rows & 1) != 0)
    if rhs_rows & 1:
        ldr_sp(m)
        acc_0 = ldr(m, bias_ptr)                              # *effective_bias_ptr++
        lhs_vec = lhs
        rhs_0 = rhs_ptr
        cbz(m, col_loop_cnt == 0)
        if col_loop_cnt:
            mov(m, 0)
            lhs_vec, rhs_0, rhs_1, acc_0, acc_1 = _dsp_columns(
                m, lhs_vec, rhs_0, 0, acc_0, 0, col_loop_cnt, False)
            ldr_sp(m)
            ldr_sp(m)
            add(m, 0, 0)
        ldr_sp(m)
        cmp(m, rhs_cols, col_loop_cnt * 4)
        bcc(m, rhs_cols <= col_loop_cnt * 4)
        if rhs_cols > col_loop_cnt * 4:
            sub(m, 0, 0)
            add(m, 0, 0)
            for k in range(col_loop_cnt * 4, rhs_cols):
                lhs_temp = ldrsb(m, lhs_vec)
                lhs_vec += 1
                v = ldrsb(m, rhs_0)
                rhs_0 += 1
                cmp(m, k + 1, rhs_cols)
                acc_0 = smlabb(m, v, lhs_temp, acc_0)         # acc_0 += lhs_temp * (*rhs_0);
                bcc(m, k + 1 < rhs_cols)
        ldr_sp(m)
        ldr_sp(m)
        acc_0 = lsl(m, acc_0, left_shift)
        res = _high_mult(m, acc_0, dst_multiplier)
        ldr_sp(m)
        cmp(m, dst_shift, 0)
        bcc(m, dst_shift > 0)                                 # bgt: no rounding
        if dst_shift <= 0:
            ldr_sp(m)
            remainder = and_(m, remainder_mask, res)
            ldr_sp(m)
            res = asr(m, res, right_shift)
            ldr_sp(m)
            thr = threshold
            negative = res < 0
            it(m, not negative)
            if negative:
                thr = add(m, thr, 1)                          # threshold++
            cmp(m, remainder, thr)
            up = remainder > thr
            it(m, not up)
            if up:
                res = add(m, res, 1)                          # result++
        acc_0 = add(m, ldrsh(m, dst), res)                    # acc_0 += dst[0];
        ldr_lit(m)
        acc_0 = max_lt(m, acc_0, Q15_MIN)                     # MAX(acc_0, NN_Q15_MIN)
        mov(m, Q15_MAX)
        mov(m, dst)
        acc_0 = min_ge(m, acc_0, Q15_MAX)                     # MIN(acc_0, NN_Q15_MAX)
        strh(m, dst, acc_0)                                   # *dst++ = (int16_t)acc_0;
        mov(m, dst + 2)
        b(m)


@kernel(inline=True)
def _round(m, res, remainder, threshold):
    """cmp threshold, remainder; IT LT; ADDLT result, #1 (if (remainder > threshold) result++)."""
    cmp(m, threshold, remainder)
    up = threshold < remainder
    it(m, not up)
    if up:
        res = add(m, res, 1)
    return res


@kernel(inline=True)
def _requantize_three(m, acc_0, acc_1, acc_2, dst_multiplier, dst_shift, left_shift,
                      right_shift, remainder_mask, threshold):
    """arm_nn_requantize of a row triple's three accumulators as gcc -O2 (Cortex-M3)
    interleaves them: the first quotient decides between two code paths, the second and
    third quotients' signs are branches, the roundings IT blocks."""
    ldr_sp(m)                                                 # left_shift
    res_0 = _high_mult(m, lsl(m, acc_0, left_shift), dst_multiplier)
    ldr_sp(m)                                                 # dst_shift
    cmp(m, dst_shift, 0)
    bcc(m, dst_shift <= 0)                                    # ble
    if dst_shift > 0:                                         # exponent 0: no rounding
        ldr_sp(m)
        cmp(m, res_0, 0)
        acc_2 = lsl(m, acc_2, left_shift)
        acc_1 = lsl(m, acc_1, left_shift)
        bcc(m, res_0 < 0)                                     # blt
        res_2 = _high_mult(m, acc_2, dst_multiplier)
        res_1 = _high_mult(m, acc_1, dst_multiplier)          # ORRS: N = sign
        rem_1, rem_2, thr = 0, 0, 0
        if res_0 < 0:
            b(m)
        else:
            bcc(m, res_1 < 0)                                 # bmi
            if res_1 >= 0:
                cmp(m, res_2, 0)
                bcc(m, res_2 < 0)                             # blt
                if res_2 < 0:
                    mov(m, 0)
                    mov(m, 0)
                    add(m, 0, 1)
                    b(m)
                    res_2 = _round(m, res_2, rem_2, thr + 1)
                    b(m)
                return res_0, res_1, res_2
            for _ in range(3):
                mov(m, 0)
    else:
        ldr_sp(m)                                             # remainder mask
        ldr_sp(m)                                             # -shift
        rem_0 = and_(m, res_0, remainder_mask)
        res_0 = asr(m, res_0, right_shift)                    # ASRS: N = the quotient's sign
        str_sp(m)
        bcc(m, res_0 < 0)                                     # bmi
        if res_0 >= 0:
            lo = mov(m, 1 << 30)
            hi = mov(m, 0)
            lo, hi = smlal(m, lo, hi, dst_multiplier, acc_2)
            res_2 = orr(m, lsr(m, lo, 31), hi << 1)
            hi = mov(m, 0)
            lo = mov(m, 1 << 30)
            mov(m, remainder_mask)
            lo, hi = smlal(m, lo, hi, dst_multiplier, acc_1)
            res_1 = orr(m, lsr(m, lo, 31), hi << 1)
            ldr_sp(m)
            rem_1 = and_(m, remainder_mask, res_1)
            res_1 = asr(m, res_1, right_shift)
            rem_2 = and_(m, remainder_mask, res_2)
            ldr_sp(m)
            ldr_sp(m)                                         # threshold
            res_2 = asr(m, res_2, right_shift)
            thr_0 = threshold
        else:
            lo = mov(m, 1 << 30)
            hi = mov(m, 0)
            lo, hi = smlal(m, lo, hi, dst_multiplier, acc_1)
            res_1 = orr(m, lsr(m, lo, 31), hi << 1)
            hi = mov(m, 0)
            lo = mov(m, 1 << 30)
            lo, hi = smlal(m, lo, hi, dst_multiplier, acc_2)
            ldr_sp(m)
            ldr_sp(m)
            res_2 = orr(m, lsr(m, lo, 31), hi << 1)
            ldr_sp(m)                                         # threshold + 1
            rem_1 = and_(m, remainder_mask, res_1)
            rem_2 = and_(m, remainder_mask, res_2)
            res_1 = asr(m, res_1, right_shift)
            res_2 = asr(m, res_2, right_shift)
            b(m)
            thr_0 = threshold + 1
        ldr_sp(m)                                             # remainder 0
        cmp(m, rem_0, thr_0)                                  # if (remainder > threshold)
        ldr_sp(m)                                             # threshold
        up = rem_0 > thr_0
        it(m, not up)
        if up:
            res_0 = add(m, res_0, 1)                          #     result++;
        thr = threshold
    cmp(m, res_1, 0)                                          # second quotient's sign
    bcc(m, res_1 < 0)                                         # blt
    thr_2 = thr
    if res_1 >= 0:
        cmp(m, rem_1, thr)
        up = rem_1 > thr
        it(m, not up)
        if up:
            res_1 = add(m, res_1, 1)
        cmp(m, res_2, 0)
        mov(m, thr)
        bcc(m, res_2 < 0)                                     # blt
    else:
        mov(m, thr)
        thr_1 = add(m, thr, 1)                                # threshold++
        cmp(m, rem_1, thr_1)
        up = rem_1 > thr_1
        it(m, not up)
        if up:
            res_1 = add(m, res_1, 1)
        cmp(m, res_2, 0)
        bcc(m, res_2 >= 0)                                    # bge
    if res_2 < 0:
        thr_2 = add(m, thr, 1)                                # threshold++
        b(m)
    res_2 = _round(m, res_2, rem_2, thr_2)
    b(m)
    return res_0, res_1, res_2


@kernel
def _scalar_rows(m, lhs, rhs_ptr, bias_ptr, dst, dst_multiplier, dst_shift, rhs_cols,
                 rhs_rows, left_shift, right_shift, remainder_mask, threshold):
    """One batch of the plain-C path (dst written in place)."""
    row_loop_cnt = rhs_rows // 3
    ldr_sp(m)
    sub(m, 0, 0)
    str_sp(m)
    ldr_sp(m)
    cmp(m, rhs_rows, 2)
    bcc(m, rhs_rows <= 2)                                     # ble: no row triple
    if row_loop_cnt:
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        strd_sp(m)
        add(m, 0, 12)
        add(m, dst, 6)
        add(m, 0, 0)
        str_sp(m)
        str_sp(m)
        mov(m, Q15_MAX)                                       # movw r8, #32767
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)
        str_sp(m)
    for row in range(row_loop_cnt):
        ldr_sp(m)                                             # rhs_cols
        res02 = ldr(m, bias_ptr + 8)                          # *effective_bias_ptr++ (three)
        cmp(m, rhs_cols, 0)
        res00, res01 = ldrd(m, bias_ptr)
        bias_ptr += 12
        bcc(m, rhs_cols <= 0)
        rhs_0 = rhs_ptr
        rhs_1 = rhs_ptr + rhs_cols
        rhs_2 = rhs_ptr + 2 * rhs_cols
        rhs_ptr += 3 * rhs_cols
        lhs_ptr = lhs
        if rhs_cols > 0:
            ldr_sp(m)
            strd_sp(m)
            add(m, rhs_0, -1)                                 # add.w ip, r6, #-1
            ldr_sp(m)
            ldr_sp(m)
            sub(m, rhs_1, 1)
            ldr_sp(m)
            sub(m, rhs_2, 1)
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
        res00, res01, res02 = _requantize_three(m, res00, res01, res02, dst_multiplier,
                                                dst_shift, left_shift, right_shift,
                                                remainder_mask, threshold)
        for _ in range(3):                                    # the three row pointers
            ldr_sp(m)
            add(m, 0, 0)
            str_sp(m)
        ldr_sp(m)
        add(m, row, 1)
        add(m, 0, 12)
        res00 = add(m, ldrsh(m, dst), res00)                  # res00 += (int32_t)*dst;
        res01_old = ldrsh(m, dst + 2)
        res00 = min_ge(m, res00, Q15_MAX)                     # CLAMP(res00, NN_Q15_MAX, NN_Q15_MIN)
        res01 = add(m, res01, res01_old)
        res02 = add(m, res02, ldrsh(m, dst + 4))
        res01 = min_ge(m, res01, Q15_MAX)
        res02 = min_ge(m, res02, Q15_MAX)
        res00 = max_lt(m, res00, Q15_MIN)
        res01 = max_lt(m, res01, Q15_MIN)
        mov(m, 0)
        res02 = max_lt(m, res02, Q15_MIN)
        strh(m, dst + 4, res02)                               # *dst++ = (int16_t)res02;
        ldr_sp(m)
        add(m, dst, 6)
        cmp(m, row_loop_cnt, row + 1)
        str_sp(m)
        strh(m, dst, res00)                                   # *dst++ = (int16_t)res00;
        strh(m, dst + 2, res01)                               # *dst++ = (int16_t)res01;
        dst += 6
        bcc(m, row + 1 < row_loop_cnt)                        # bgt
    if row_loop_cnt:
        ldrd_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        mov(m, 0)
        ldr_sp(m)
        add(m, 0, 0)
    else:
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)
        b(m)
    loop_cnt = rhs_rows % 3
    ldr_sp(m)
    cmp(m, loop_cnt, 0)
    bcc(m, loop_cnt <= 0)                                     # ble
    if loop_cnt:
        ldr_sp(m)
        mov(m, dst)
        add(m, dst, 2 * loop_cnt)
        mov(m, 1 << 30)
        mov(m, Q15_MAX)                                       # movw ip, #32767
        mov(m, 0)
        ldr_sp(m)
        for _ in range(loop_cnt):
            cmp(m, rhs_cols, 0)
            res00 = ldr(m, bias_ptr)                          # *effective_bias_ptr++
            bias_ptr += 4
            bcc(m, rhs_cols <= 0)
            lhs_ptr = lhs
            rhs_0 = rhs_ptr
            if rhs_cols > 0:
                strd_sp(m)
                ldr_sp(m)
                sub(m, rhs_0, 1)
                for c in range(rhs_cols):
                    lhs_value = ldrsb(m, lhs_ptr)
                    lhs_ptr += 1
                    v0 = ldrsb(m, rhs_0)
                    rhs_0 += 1
                    cmp(m, c + 1, rhs_cols)
                    res00 = mla(m, lhs_value, v0, res00)      # res00 += lhs_value * rhs_value0;
                    bcc(m, c + 1 < rhs_cols)
                ldrd_sp(m)
            ldr_sp(m)
            res = _high_mult(m, lsl(m, res00, left_shift), dst_multiplier)
            ldr_sp(m)
            cmp(m, dst_shift, 0)
            bcc(m, dst_shift > 0)                             # bgt: no rounding
            if dst_shift <= 0:
                ldr_sp(m)
                ldr_sp(m)
                remainder = and_(m, res, remainder_mask)
                res = asr(m, res, right_shift)
                negative = res < 0
                it(m, 1)                                      # ite mi: one load fails
                ldr_sp(m)                                     # threshold or threshold + 1
                thr = threshold + 1 if negative else threshold
                cmp(m, remainder, thr)
                up = remainder > thr
                it(m, not up)
                if up:
                    res = add(m, res, 1)                      # result++
            res00 = add(m, ldrsh(m, dst), res)                # res00 += (int32_t)dst[0];
            add(m, rhs_ptr, rhs_cols)                         # rhs_ptr += rhs_cols;
            rhs_ptr += rhs_cols
            res00 = min_ge(m, res00, Q15_MAX)                 # CLAMP(res00, NN_Q15_MAX, NN_Q15_MIN)
            res00 = max_lt(m, res00, Q15_MIN)
            strh(m, dst, res00)                               # *dst++ = (int16_t)res00;
            dst += 2
            cmp(m, dst, 0)
            bcc(m, True)                                      # bne (the last one falls through)
        mov(m, 0)
    else:
        mov(m, 0)
        b(m)


@kernel
def _dsp_prologue(m, dst_shift, rhs_cols, rhs_rows, batch_offset):
    """gcc's set-up of the DSP build (0x10-0x9a): every loop invariant computed once and
    spilled.  Returns (lhs stride, left_shift, right_shift, remainder_mask, threshold)."""
    ldr_sp(m)
    stride = mul(m, rhs_cols, batch_offset)                   # rhs_cols * batch_offset
    str_sp(m)
    and_(m, rhs_rows, 1)                                      # rhs_rows & 0x1
    add(m, rhs_rows, 0)                                       # rhs_rows / 2 (sign fix-up)
    str_sp(m)
    ldr_sp(m)
    asr(m, rhs_rows, 1)                                       # mov.w sl, r2, asr #1: row pairs
    ldr_sp(m)
    right_shift = rsb(m, dst_shift, 0)                        # -shift
    mov(m, right_shift)
    cmp(m, rhs_cols, 0)
    str_sp(m)
    one = mov(m, 1)
    it(m, rhs_cols >= 0)                                      # addlt: rhs_cols / 4 sign fix-up
    if rhs_cols < 0:
        add(m, rhs_cols, 3)
    remainder_mask = sub(m, lsl(m, one, right_shift), 1)      # (1 << exponent) - 1
    asr(m, rhs_cols, 2)                                       # col_loop_cnt
    bic(m, rhs_cols, 3)                                       # col_loop_cnt * 4
    mov(m, remainder_mask)
    str_sp(m)
    add(m, 0, 0)
    str_sp(m)
    threshold = asr(m, remainder_mask, 1)                     # remainder_mask >> 1
    ldr_sp(m)
    str_sp(m)
    rsb(m, 0, 0)
    lsl(m, 0, 1)
    str_sp(m)
    sub(m, 0, 0)
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    add(m, 0, 0)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    lsl(m, batch_offset, 1)
    mla(m, rhs_rows >> 1, 0, 0)                               # the odd row's weights
    str_sp(m)
    lsl(m, rhs_rows >> 1, 2)                                  # mov.w r3, sl, lsl #2
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    left_shift = bic(m, dst_shift, dst_shift >> 31)           # shift > 0 ? shift : 0
    mov(m, 0)
    str_sp(m)
    add(m, threshold, 1)                                      # threshold + 1 (negative results)
    str_sp(m)
    for _ in range(4):
        mov(m, 0)
    if dst_shift > 0:                                         # (exponent 0 on that path)
        right_shift, remainder_mask, threshold = 0, 0, 0
    return stride, left_shift, right_shift, remainder_mask, threshold


@kernel
def _scalar_prologue(m, dst_shift, rhs_cols, rhs_rows, batch_offset):
    """gcc's set-up of the plain-C build (0x18-0xbe): rhs_rows / 3 by SMULL with 0x55555556,
    the loop invariants computed once and spilled; five IT blocks on rhs_rows > 2.  Returns
    (lhs stride, left_shift, right_shift, remainder_mask, threshold)."""
    triples = rhs_rows > 2
    mov(m, 0)
    ldr_sp(m)
    mov(m, 0)
    cmp(m, rhs_rows, 2)
    ldr_sp(m)
    ldr_sp(m)
    stride = mul(m, batch_offset, rhs_cols)                   # rhs_cols * batch_offset
    one = mov(m, 1)
    str_sp(m)
    ldr_sp(m)
    mov(m, 0)
    add(m, 0, rhs_cols)
    ldr_lit(m)                                                # 0x55555556
    it(m, triples)                                            # movle
    if not triples:
        mov(m, one)
    smull(m, rhs_rows, 0x55555556)                            # rhs_rows / 3
    ldr_sp(m)
    ldr_sp(m)
    sub(m, 0, 0)
    add(m, 0, 0)
    lsl(m, 0, 2)
    it(m, not triples)                                        # movgt
    if triples:
        mov(m, 0)
    str_sp(m)
    it(m, not triples)                                        # movgt
    if triples:
        mov(m, 0)
    lsl(m, 0, 1)
    it(m, triples)                                            # movle
    if not triples:
        mov(m, 6)
    str_sp(m)
    ldr_sp(m)
    sub(m, 0, 0)
    add(m, 0, 0)
    ldr_sp(m)
    add(m, 0, 0)
    str_sp(m)
    mla(m, 0, 0, 0)
    right_shift = rsb(m, dst_shift, 0)                        # -shift
    str_sp(m)
    lsl(m, 0, 1)
    str_sp(m)
    remainder_mask = add(m, lsl(m, one, right_shift), -1)     # (1 << exponent) - 1
    it(m, triples)                                            # movle
    if not triples:
        mov(m, 12)
    mov(m, 0)
    str_sp(m)
    ldr_sp(m)
    mov(m, 0)
    left_shift = bic(m, dst_shift, dst_shift >> 31)           # shift > 0 ? shift : 0
    str_sp(m)
    str_sp(m)
    for _ in range(3):
        mov(m, 0)                                             # a2-a6: mov r7, fp; ...
    add(m, 0, 0)
    str_sp(m)
    threshold = asr(m, remainder_mask, 1)                     # remainder_mask >> 1
    str_sp(m)
    ldr_lit(m)                                                # NN_Q15_MIN
    add(m, threshold, 1)                                      # threshold + 1
    for _ in range(4):
        str_sp(m)
    if dst_shift > 0:                                         # (exponent 0 on that path)
        right_shift, remainder_mask, threshold = 0, 0, 0
    return stride, left_shift, right_shift, remainder_mask, threshold


@kernel
def arm_nn_vec_mat_mul_result_acc_s8_s16(m, lhs, rhs, effective_bias, dst, dst_multiplier,
                                         dst_shift, rhs_cols, rhs_rows, batches,
                                         batch_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #108
    if m.dsp:
        strd_sp(m)
        add(m, 0, 0)
        mov(m, dst)
        ldm_sp(m, 3)                                          # ldmia r1, {r1, r2, r3}: 3 stacked arguments
        cmp(m, batches, 0)
    else:
        mov(m, 0)                                             # 6: mov lr, r3
        ldr_sp(m)                                             # 8: the stacked arguments
        ldr_sp(m)
        cmp(m, batches, 0)
        ldr_sp(m)
        str_sp(m)                                             # 12: str r2, [sp, #76]
    bcc(m, batches <= 0)
    if batches > 0 and m.dsp:
        mul_stride, left_shift, right_shift, remainder_mask, threshold = _dsp_prologue(
            m, dst_shift, rhs_cols, rhs_rows, batch_offset)
        for batch in range(batches):
            _dsp_rows(m, lhs, rhs, effective_bias, dst, dst_multiplier, dst_shift, rhs_cols,
                      rhs_rows, left_shift, right_shift, remainder_mask, threshold)
            dst += 2 * rhs_rows
            ldr_sp(m)
            ldr_sp(m)
            lhs = add(m, lhs, mul_stride)                     # lhs += rhs_cols * batch_offset;
            str_sp(m)
            ldr_sp(m)
            add(m, batch, 1)
            cmp(m, batch + 1, batches)
            bcc(m, batch + 1 < batches)
    elif batches > 0:
        mul_stride, left_shift, right_shift, remainder_mask, threshold = _scalar_prologue(
            m, dst_shift, rhs_cols, rhs_rows, batch_offset)
        for batch in range(batches):
            _scalar_rows(m, lhs, rhs, effective_bias, dst, dst_multiplier, dst_shift,
                         rhs_cols, rhs_rows, left_shift, right_shift, remainder_mask,
                         threshold)
            dst += 2 * rhs_rows
            ldr_sp(m)
            ldr_sp(m)
            lhs = add(m, lhs, mul_stride)                     # lhs += rhs_cols * batch_offset;
            ldr_sp(m)
            add(m, batch, 1)
            cmp(m, batch + 1, batches)
            str_sp(m)
            bcc(m, batch + 1 < batches)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
