"""arm_nn_vec_mat_mult_t_s8 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s8.c), non-MVE.

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_s8(const int8_t *lhs, const int8_t *rhs,
        const int32_t *kernel_sum, const int32_t *bias, int8_t *dst, const int32_t lhs_offset,
        const int32_t dst_offset, const int32_t dst_multiplier, const int32_t dst_shift,
        const int32_t rhs_cols, const int32_t rhs_rows, const int32_t activation_min,
        const int32_t activation_max, const int32_t address_offset, const int32_t rhs_offset)

dst[r * address_offset] = clamp(requantize(bias[r] + sum_c (lhs[c] + lhs_offset) *
(rhs[r][c] + rhs_offset)) + dst_offset).  The C has one copy of the loops for a non-zero
rhs_offset and one without it (`if (rhs_offset)`); gcc compiles both.

ARM_MATH_DSP: two rows at a time, four columns per step (the lhs word widened with SXTAB16
and the packed lhs offset, the rhs words with SXTAB16 and the packed rhs offset, or SXTB16
without one, two SMLAD per row), the rhs_cols % 4 columns one by one, an odd last row alone.
The file switches on `#pragma GCC optimize("unroll-loops")` for GCC DSP builds: every column
loop is unrolled by four (col_loop_cnt % 4 peeled steps behind a compare chain, then blocks
of four steps addressing with immediate offsets), the one-by-one loops by four (row pairs)
or eight (odd row) the same way; those run rhs_cols % 4 < 4 times, so only their peeled
iterations are ever reached.  Without an rhs offset the odd row keeps its accumulator in a
stack slot (the rhs_offset argument's own, 0 there).  Plain C: three rows at a time, one
column per step (LDRSB, ADD of the offsets, MLA), the requantizations of the three rows
interleaved with branches on the quotients' signs, then the rhs_rows % 3 rows one by one.

Every instruction below is one of the measured objects' (arm-none-eabi-gcc 12.2 -O2,
-mcpu=cortex-m4 with ARM_MATH_DSP / -mcpu=cortex-m3), in gcc's order: prologue, spills and
reloads, loop rotation, the peeled steps, IT blocks with their failing slots, the epilogue.
No fitted line.  Arm Compiler 6 (toolchain armclang) does not see the GCC pragma: there the
column loops are modelled rolled, one step per iteration with its SUBS/BNE, the rest as gcc's.
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
    ldr,
    ldr_lit,
    ldr_sp,
    ldrd,
    ldrd_sp,
    ldrsb,
    lsl,
    lsr,
    mla,
    mov,
    orr,
    pkhbt,
    pop_pc,
    push,
    rsb,
    smlad,
    smlal,
    smull,
    str_sp,
    strb,
    strd_sp,
    sub,
    sxtab16,
    sxtb16,
    sxth,
)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


# --- ARM_MATH_DSP -----------------------------------------------------------------------

@kernel(inline=True)
def _ker(m, word, rotation, rhs_offset_s16x2, has_rhs_offset):
    """SXTAB16_RORn(rhs_offset_s16x2, ker_0, rotation) with an rhs offset, else
    SXTB16_RORn(ker_0, rotation)."""
    if has_rhs_offset:
        return sxtab16(m, rhs_offset_s16x2, word, rotation)
    return sxtb16(m, word, rotation)


@kernel(inline=True)
def _row_macs(m, word, vec_0, vec_1, acc, rhs_offset_s16x2, has_rhs_offset):
    """ker_1 = SXTB16_RORn(ker_0, 8); ker_0 = SXTB16(ker_0);
    acc = SMLAD(ker_1, vec_1, acc); acc = SMLAD(ker_0, vec_0, acc);"""
    ker_1 = _ker(m, word, 8, rhs_offset_s16x2, has_rhs_offset)
    ker_0 = _ker(m, word, 0, rhs_offset_s16x2, has_rhs_offset)
    acc = smlad(m, ker_1, vec_1, acc)
    return smlad(m, ker_0, vec_0, acc)


@kernel(inline=True)
def _pair_rest(m, rhs_0_word, rhs_1_ptr, vec_0, vec_1, acc_0, acc_1, rhs_offset_s16x2,
               has_rhs_offset):
    """The rest of a two-row step once the rhs_0 word is loaded: its MACs, the rhs_1 word
    (ldr ker_0, [rhs_1_ptr]) and its MACs."""
    acc_0 = _row_macs(m, rhs_0_word, vec_0, vec_1, acc_0, rhs_offset_s16x2, has_rhs_offset)
    rhs_1_word = ldr(m, rhs_1_ptr)                            # arm_nn_read_s8x4_ia(&rhs_1_ptr)
    acc_1 = _row_macs(m, rhs_1_word, vec_0, vec_1, acc_1, rhs_offset_s16x2, has_rhs_offset)
    return acc_0, acc_1


@kernel(inline=True)
def _pair_columns_rolled(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1, col_loop_cnt,
                         lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset):
    """Arm Compiler 6 (a model, no disassembly): the column loop of a row pair rolled."""
    for j in range(col_loop_cnt, 0, -1):
        vec_0 = ldr(m, lhs_vec)                               # arm_nn_read_s8x4_ia(&lhs_vec)
        vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
        word = ldr(m, rhs_0_ptr)
        vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
        acc_0, acc_1 = _pair_rest(m, word, rhs_1_ptr, vec_0, vec_1, acc_0, acc_1,
                                  rhs_offset_s16x2, has_rhs_offset)
        lhs_vec += 4
        rhs_0_ptr += 4
        rhs_1_ptr += 4
        sub(m, j, 1)
        bcc(m, j != 1)
    return acc_0, acc_1


@kernel(inline=True)
def _pair_columns(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1, col_loop_cnt,
                  lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset):
    """for (j = col_loop_cnt; j != 0; j--) of a row pair (col_loop_cnt > 0), unrolled by
    four: col_loop_cnt % 4 peeled steps, then blocks of four.  Returns the accumulators;
    the pointers end at + 4 * col_loop_cnt (gcc recomputes them from the stack)."""
    rem = and_(m, col_loop_cnt, 3)                            # ands r5, r5, #3
    if has_rhs_offset:
        ldr_sp(m)                                             # lhs
    bcc(m, rem == 0)
    if rem != 0:
        cmp(m, rem, 1)
        bcc(m, rem == 1)
        if rem != 1:
            cmp(m, rem, 2)
            bcc(m, rem == 2)
    if rem == 3:
        ldr_sp(m)                                             # lhs
        if has_rhs_offset:
            ldr_sp(m)                                         # lhs_offset_s16x2
        vec_0 = ldr(m, lhs_vec)                               # arm_nn_read_s8x4_ia(&lhs_vec)
        vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)        # SXTAB16_RORn(lhs_offset_s16x2, vec_0, 8)
        vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)        # SXTAB16(lhs_offset_s16x2, vec_0)
        word = ldr(m, rhs_0_ptr)                              # arm_nn_read_s8x4_ia(&rhs_0_ptr)
        acc_0, acc_1 = _pair_rest(m, word, rhs_1_ptr, vec_0, vec_1, acc_0, acc_1,
                                  rhs_offset_s16x2, has_rhs_offset)
        mov(m, 0)                                             # j--
        lhs_vec += 4
        rhs_0_ptr += 4
        rhs_1_ptr += 4
    if rem >= 2:
        vec_0 = ldr(m, lhs_vec)
        if has_rhs_offset:
            ldr_sp(m)
        vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
        vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
        word = ldr(m, rhs_0_ptr)
        acc_0, acc_1 = _pair_rest(m, word, rhs_1_ptr, vec_0, vec_1, acc_0, acc_1,
                                  rhs_offset_s16x2, has_rhs_offset)
        sub(m, 0, 1)                                          # j--
        lhs_vec += 4
        rhs_0_ptr += 4
        rhs_1_ptr += 4
    j = col_loop_cnt - rem
    if rem >= 1:
        vec_0 = ldr(m, lhs_vec)
        if has_rhs_offset:
            ldr_sp(m)
        vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
        word = ldr(m, rhs_0_ptr)
        vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
        acc_0, acc_1 = _pair_rest(m, word, rhs_1_ptr, vec_0, vec_1, acc_0, acc_1,
                                  rhs_offset_s16x2, has_rhs_offset)
        sub(m, j + 1, 1)                                      # j--
        bcc(m, j == 0)
        lhs_vec += 4
        rhs_0_ptr += 4
        rhs_1_ptr += 4
    if j != 0:                                                # blocks of four steps
        if has_rhs_offset:
            ldr_sp(m)
            for _ in range(4):
                str_sp(m)
        else:
            strd_sp(m)
            str_sp(m)
        while j != 0:
            mov(m, 0)
            vec_0 = ldr(m, lhs_vec)
            vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
            mov(m, 0)
            vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
            word = ldr(m, rhs_0_ptr)
            acc_0 = _row_macs(m, word, vec_0, vec_1, acc_0, rhs_offset_s16x2, has_rhs_offset)
            mov(m, 0)
            word = ldr(m, rhs_1_ptr)
            acc_1 = _row_macs(m, word, vec_0, vec_1, acc_1, rhs_offset_s16x2, has_rhs_offset)
            for k in range(4, 12, 4):                         # ldr r, [ptr, #4] / [ptr, #8]
                vec_0 = ldr(m, lhs_vec + k)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                word = ldr(m, rhs_0_ptr + k)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                acc_0, acc_1 = _pair_rest(m, word, rhs_1_ptr + k, vec_0, vec_1, acc_0, acc_1,
                                          rhs_offset_s16x2, has_rhs_offset)
            vec_0 = ldr(m, lhs_vec + 12)
            lhs_vec = add(m, lhs_vec, 16)
            vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
            word = ldr(m, rhs_0_ptr + 12)
            vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
            rhs_0_ptr = add(m, rhs_0_ptr, 16)
            acc_0 = _row_macs(m, word, vec_0, vec_1, acc_0, rhs_offset_s16x2, has_rhs_offset)
            word = ldr(m, rhs_1_ptr + 12)
            rhs_1_ptr = add(m, rhs_1_ptr, 16)
            acc_1 = _row_macs(m, word, vec_0, vec_1, acc_1, rhs_offset_s16x2, has_rhs_offset)
            if has_rhs_offset:
                ldr_sp(m)
            j = sub(m, j, 4)                                  # subs ..., #4
            if has_rhs_offset:
                str_sp(m)
            bcc(m, j != 0)
        if has_rhs_offset:
            for _ in range(3):
                ldr_sp(m)
        else:
            ldrd_sp(m)
            ldr_sp(m)
    return acc_0, acc_1


@kernel(inline=True)
def _pair_leftover(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1, count, lhs_offset,
                   rhs_offset, has_rhs_offset):
    """for (k = col_loop_cnt * 4; k < rhs_cols; k++) of a row pair, unrolled by four: its
    count (rhs_cols % 4, 1 to 3) picks the first of the peeled iterations."""
    ldr_sp(m)                                                 # the count
    left = and_(m, count, 3)
    add(m, lhs_vec, count)                                    # the end of lhs_vec
    bcc(m, left == 0)
    cmp(m, left, 1)
    bcc(m, left == 1)
    if left != 1:
        cmp(m, left, 2)
        bcc(m, left == 2)
    for k in range(count):
        lhs_temp = ldrsb(m, lhs_vec)                          # (*lhs_vec + lhs_offset); lhs_vec++;
        lhs_vec += 1
        r0 = ldrsb(m, rhs_0_ptr)
        rhs_0_ptr += 1
        r1 = ldrsb(m, rhs_1_ptr)
        rhs_1_ptr += 1
        lhs_temp = add(m, lhs_temp, lhs_offset)
        if has_rhs_offset:
            r0 = add(m, r0, rhs_offset)                       # (*rhs_0_ptr + rhs_offset)
            r1 = add(m, r1, rhs_offset)
        if k == count - 1:
            cmp(m, k + 1, count)                              # lhs_vec == its end
        acc_0 = mla(m, lhs_temp, r0, acc_0)                   # acc_0 += lhs_temp * ...
        acc_1 = mla(m, lhs_temp, r1, acc_1)                   # acc_1 += lhs_temp * ...
    bcc(m, True)                                              # beq: the loop ends here
    return acc_0, acc_1


@kernel(inline=True)
def _pair_requantize(m, acc_0, acc_1, dst_multiplier, dst_shift, left_shift, right_shift,
                     remainder_mask, threshold, has_rhs_offset):
    """arm_nn_requantize of both accumulators of a row pair as gcc interleaves them: the
    first doubling multiply, then a branch on the shift's sign.  Shift > 0 (exponent 0, no
    rounding): the second doubling multiply, and where the first quotient is negative a
    rounding of the second that never rounds.  Shift <= 0: a branch on the sign of the first
    quotient (its threshold + 1 comes from the stack), the roundings in IT blocks."""
    for _ in range(3):
        ldr_sp(m)                                             # left_shift, dst_multiplier, dst_shift
    acc_0 = lsl(m, acc_0, left_shift)                         # val * (1 << LEFT_SHIFT(shift))
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, acc_0, dst_multiplier)
    low_bit = lsr(m, lo, 31)
    cmp(m, dst_shift, 0)
    res_0 = orr(m, low_bit, hi << 1)
    bcc(m, dst_shift <= 0)                                    # ble
    if dst_shift > 0:
        ldr_sp(m)
        ldr_sp(m)
        acc_1 = lsl(m, acc_1, left_shift)
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        lo, hi = smlal(m, lo, hi, dst_multiplier, acc_1)
        low_bit = lsr(m, lo, 31)
        cmp(m, res_0, 0)
        res_1 = orr(m, low_bit, hi << 1)
        bcc(m, res_0 < 0)                                     # blt
        if res_0 < 0:
            remainder = mov(m, 0)
            thr = mov(m, 0)
            b(m)
            cmp(m, res_1, 0)
            negative = res_1 < 0
            it(m, not negative)
            if negative:
                thr = add(m, thr, 1)
            cmp(m, thr, remainder)
            up = thr < remainder
            it(m, not up)
            if up:
                res_1 = add(m, res_1, 1)
            b(m)
        return res_0, res_1
    ldr_sp(m)                                                 # remainder_mask
    ldr_sp(m)                                                 # -shift
    rem_0 = and_(m, res_0, remainder_mask)
    res_0 = asr(m, res_0, right_shift)                        # ASRS: N = the quotient's sign
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    bcc(m, res_0 < 0)                                         # bmi
    ldr_sp(m)                                                 # dst_multiplier
    lo, hi = smlal(m, lo, hi, dst_multiplier, acc_1)          # (left shift 0 on this path)
    low_bit = lsr(m, lo, 31)
    res_1 = orr(m, low_bit, hi << 1)
    if res_0 >= 0:
        thr_0 = threshold
        if has_rhs_offset:
            rem_1 = and_(m, remainder_mask, res_1)
            ldr_sp(m)                                         # threshold
        else:
            ldr_sp(m)
            rem_1 = and_(m, remainder_mask, res_1)
        res_1 = asr(m, res_1, right_shift)
    else:
        thr_0 = threshold + 1                                 # threshold + 1, kept on the stack
        ldrd_sp(m)                                            # remainder_mask, threshold + 1
        ldr_sp(m)                                             # -shift
        rem_1 = and_(m, remainder_mask, res_1)
        res_1 = asr(m, res_1, right_shift)
        b(m)
    cmp(m, rem_0, thr_0)                                      # if (remainder > threshold)
    ldr_sp(m)                                                 # threshold
    up = rem_0 > thr_0
    it(m, not up)
    if up:
        res_0 = add(m, res_0, 1)                              #     result++;
    thr_1 = threshold
    cmp(m, res_1, 0)                                          # if (result < 0)
    negative = res_1 < 0
    it(m, not negative)
    if negative:
        thr_1 = add(m, thr_1, 1)                              #     threshold++;
    cmp(m, thr_1, rem_1)                                      # if (remainder > threshold)
    up = thr_1 < rem_1
    it(m, not up)
    if up:
        res_1 = add(m, res_1, 1)                              #     result++;
    b(m)
    return res_0, res_1


@kernel
def _dsp_row_pairs(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
                   rhs_cols, row_loop_cnt, activation_min, activation_max, address_offset,
                   rhs_offset, lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset):
    """for (i = 0; i < row_loop_cnt; i++) of the ARM_MATH_DSP path (row_loop_cnt > 0), both
    copies (has_rhs_offset: the `if (rhs_offset)` one): its set-up, the rows, and the
    pointers after it.  Returns (rhs, bias, dst) as the odd row starts."""
    cols = rhs_cols
    if has_rhs_offset:                                        # 0x40-0xc4
        ldr_sp(m)                                             # rhs_cols
        ldr_sp(m)                                             # dst_shift
        str_sp(m)
        right_shift = rsb(m, dst_shift, 0)                    # -shift
        cmp(m, rhs_cols, 0)
        one = mov(m, 1)
        mask_1 = lsl(m, one, right_shift)
        it(m, rhs_cols >= 0)                                  # addlt: rhs_cols / 4 rounds to zero
        if rhs_cols < 0:
            cols = add(m, rhs_cols, 3)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        col4 = bic(m, cols, 3)                                # col_loop_cnt * 4
        col_loop_cnt = asr(m, cols, 2)                        # rhs_cols / 4
        remainder_mask = add(m, mask_1, -1)                   # (1 << exponent) - 1
        str_sp(m)
        lsl(m, rhs_cols, 1)                                   # 2 * rhs_cols
        ldr_sp(m)                                             # address_offset
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        threshold = asr(m, remainder_mask, 1)                 # remainder_mask >> 1
        add(m, rhs, col4)
        lsl(m, address_offset, 1)                             # 2 * address_offset
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)                                             # lhs
        str_sp(m)
        mov(m, 0)                                             # i = 0
        mov(m, 0)
        ldr_sp(m)                                             # bias
        str_sp(m)
        add(m, lhs, col4)
        str_sp(m)
        str_sp(m)
        left_shift = bic(m, dst_shift, dst_shift >> 31)       # shift > 0 ? shift : 0
        sub(m, rhs_cols, col4)                                # the columns left over
        add(m, threshold, 1)
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                             # lhs_offset
        ldr_sp(m)                                             # rhs_offset
        str_sp(m)
        mov(m, 0)                                             # dst
        for _ in range(3):
            str_sp(m)
    else:                                                     # 0xaa0-0xb18
        ldr_sp(m)                                             # dst_shift
        ldr_sp(m)                                             # rhs_cols
        ldr_sp(m)
        str_sp(m)
        right_shift = rsb(m, dst_shift, 0)                    # -shift
        one = mov(m, 1)
        mask_1 = lsl(m, one, right_shift)
        remainder_mask = add(m, mask_1, -1)                   # (1 << exponent) - 1
        mov(m, 0)
        cmp(m, rhs_cols, 0)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        it(m, rhs_cols >= 0)                                  # addlt: rhs_cols / 4 rounds to zero
        if rhs_cols < 0:
            cols = add(m, rhs_cols, 3)
        col4 = bic(m, cols, 3)                                # col_loop_cnt * 4
        col_loop_cnt = asr(m, cols, 2)                        # rhs_cols / 4
        ldr_sp(m)                                             # address_offset
        str_sp(m)
        threshold = asr(m, remainder_mask, 1)                 # remainder_mask >> 1
        left_shift = bic(m, dst_shift, dst_shift >> 31)       # shift > 0 ? shift : 0
        lsl(m, rhs_cols, 1)                                   # 2 * rhs_cols
        str_sp(m)
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)                                             # lhs
        str_sp(m)
        ldr_sp(m)                                             # bias
        str_sp(m)
        lsl(m, address_offset, 1)                             # 2 * address_offset
        add(m, lhs, col4)
        mov(m, 0)                                             # i = 0
        str_sp(m)
        add(m, threshold, 1)
        add(m, rhs, col4)
        sub(m, rhs_cols, col4)                                # the columns left over
        str_sp(m)
        str_sp(m)
        mov(m, 0)                                             # dst
        ldr_sp(m)                                             # lhs_offset
        str_sp(m)
        mov(m, 0)
        str_sp(m)
        str_sp(m)
        mov(m, 0)
        str_sp(m)
        str_sp(m)
    if dst_shift > 0:                                         # (exponent 0 on that path)
        right_shift, remainder_mask, threshold = 0, 0, 0

    cmp(m, bias, 0)                                           # if (bias)
    bcc(m, bias == 0)
    for i in range(row_loop_cnt):
        if bias != 0:
            acc_1 = ldr(m, bias + 4)                          # acc_1 = *bias++; (ldr r3, [r7, #4])
            acc_0 = ldr(m, bias)                              # acc_0 = *bias++; (ldr r2, [r7], #8)
            bias += 8
            str_sp(m)
        else:
            acc_0 = 0                                         # ldr r2, [sp, #8]: the NULL bias
            ldr_sp(m)
            acc_1 = mov(m, acc_0)
            b(m)
        lhs_vec = lhs
        rhs_0_ptr = rhs
        ldr_sp(m)                                             # 2 * rhs_cols
        ldr_sp(m)                                             # rhs_cols
        rhs = add(m, rhs, 2 * rhs_cols)                       # rhs += 2 * rhs_cols;
        str_sp(m)
        ldr_sp(m)                                             # col_loop_cnt
        if not has_rhs_offset:
            ldr_sp(m)                                         # lhs
        rhs_1_ptr = add(m, rhs_0_ptr, rhs_cols)               # rhs_1_ptr = rhs + rhs_cols;
        cmp(m, col_loop_cnt, 0)
        bcc(m, col_loop_cnt == 0)
        if col_loop_cnt == 0:
            if has_rhs_offset:
                ldr_sp(m)                                     # lhs_vec
                b(m)
        else:
            mov(m, col_loop_cnt)                              # j = col_loop_cnt
            sub(m, col_loop_cnt, 1)
            if m.armclang:
                if has_rhs_offset:
                    ldr_sp(m)
                acc_0, acc_1 = _pair_columns_rolled(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0,
                                                    acc_1, col_loop_cnt, lhs_offset_s16x2,
                                                    rhs_offset_s16x2, has_rhs_offset)
            else:
                acc_0, acc_1 = _pair_columns(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1,
                                             col_loop_cnt, lhs_offset_s16x2, rhs_offset_s16x2,
                                             has_rhs_offset)
            if has_rhs_offset:                                # the pointers after the columns
                for _ in range(3):
                    ldr_sp(m)
                add(m, rhs_0_ptr, rhs_cols)
            else:
                ldr_sp(m)
                ldr_sp(m)
                add(m, rhs_0_ptr, rhs_cols)
                mov(m, 0)
        lhs_vec += col4
        rhs_0_ptr += col4
        rhs_1_ptr += col4
        ldr_sp(m)                                             # rhs_cols
        ldr_sp(m)                                             # col_loop_cnt * 4
        cmp(m, rhs_cols, col4)                                # for (k = col_loop_cnt * 4; k < rhs_cols; k++)
        bcc(m, rhs_cols <= col4)
        if rhs_cols > col4:
            acc_0, acc_1 = _pair_leftover(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1,
                                          rhs_cols - col4, lhs_offset, rhs_offset,
                                          has_rhs_offset)
        acc_0, acc_1 = _pair_requantize(m, acc_0, acc_1, dst_multiplier, dst_shift,
                                        left_shift, right_shift, remainder_mask, threshold,
                                        has_rhs_offset)
        for _ in range(7):
            ldr_sp(m)                                         # dst_offset, activation_min/max, ...
        acc_0 = add(m, acc_0, dst_offset)                     # acc_0 += dst_offset;
        acc_1 = add(m, acc_1, dst_offset)                     # acc_1 += dst_offset;
        acc_0 = max_lt(m, acc_0, activation_min)              # acc_0 = MAX(acc_0, activation_min);
        acc_1 = max_lt(m, acc_1, activation_min)              # acc_1 = MAX(acc_1, activation_min);
        acc_0 = min_ge(m, acc_0, activation_max)              # acc_0 = MIN(acc_0, activation_max);
        acc_1 = min_ge(m, acc_1, activation_max)              # acc_1 = MIN(acc_1, activation_max);
        strb(m, dst, acc_0)                                   # *dst = (int8_t)acc_0;
        strb(m, dst + address_offset, acc_1)                  # *(dst + address_offset) = (int8_t)acc_1;
        last = i + 1 == row_loop_cnt
        if has_rhs_offset:
            ldr_sp(m)                                         # i
            ldr_sp(m)                                         # row_loop_cnt
            add(m, i, 1)
            add(m, 0, 0)
            cmp(m, row_loop_cnt, i + 1)
            str_sp(m)
            dst = add(m, dst, 2 * address_offset)             # dst += 2 * address_offset;
            str_sp(m)
        else:
            ldr_sp(m)                                         # i
            add(m, i, 1)
            cmp(m, row_loop_cnt, i + 1)
            str_sp(m)
            dst = add(m, dst, 2 * address_offset)             # dst += 2 * address_offset;
            add(m, 0, 0)
        bcc(m, last)                                          # ble: the loop ends
        if not last:
            ldr_sp(m)                                         # bias
            ldr_sp(m)                                         # rhs
            cmp(m, bias, 0)
            bcc(m, bias != 0)                                 # bne: the rotated if (bias)
    return rhs, bias, dst


@kernel(inline=True)
def _odd_step(m, lhs_vec, rhs_ptr, acc, lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset,
              early_rhs):
    """One step of the odd row's column loop in a block of four: the lhs word, vec_1, the
    rhs word (early_rhs: before vec_0), vec_0, ker_1, ker_0, two SMLAD."""
    vec_0 = ldr(m, lhs_vec)                                   # arm_nn_read_s8x4_ia(&lhs_vec)
    vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
    if early_rhs:
        word = ldr(m, rhs_ptr)                                # arm_nn_read_s8x4_ia(&rhs_ptr)
        vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
    else:
        vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
        word = ldr(m, rhs_ptr)
    return _row_macs(m, word, vec_0, vec_1, acc, rhs_offset_s16x2, has_rhs_offset)


@kernel
def _dsp_odd_row(m, lhs, rhs, bias, lhs_offset, rhs_cols, rhs_offset, lhs_offset_s16x2,
                 rhs_offset_s16x2, has_rhs_offset):
    """if (rhs_rows & 0x1) of the ARM_MATH_DSP path, up to its requantization: returns acc_0.
    Without an rhs offset gcc keeps acc_0 in the stack slot of rhs_offset (0 there, so a
    NULL bias leaves it as it is) around every peeled step."""
    ldr_sp(m)                                                 # bias
    if has_rhs_offset:
        cmp(m, bias, 0)                                       # if (bias)
        bcc(m, bias == 0)
        if bias != 0:
            acc = ldr(m, bias)                                # acc_0 = *bias++;
        else:
            acc = 0
            ldr_sp(m)                                         # the NULL bias
            b(m)
    else:
        cbz(m, bias == 0)                                     # if (bias)
        acc = 0
        if bias != 0:
            acc = ldr(m, bias)                                # acc_0 = *bias++;
            str_sp(m)
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_cols, 0)
    cols = rhs_cols
    it(m, rhs_cols >= 0)                                      # addlt: rhs_cols / 4 rounds to zero
    if rhs_cols < 0:
        cols = add(m, rhs_cols, 3)
    col_loop_cnt = asr(m, cols, 2)                            # const int32_t col_loop_cnt = rhs_cols / 4;
    it(m, col_loop_cnt != 0)                                  # moveq: k starts at 0
    if col_loop_cnt == 0:
        mov(m, col_loop_cnt)
    bcc(m, col_loop_cnt == 0)
    lhs_vec = lhs
    rhs_ptr = rhs
    if col_loop_cnt != 0:
        rem = and_(m, col_loop_cnt, 3)                        # unrolled by four
        ldr_sp(m)                                             # lhs
        mov(m, rhs)
        mov(m, col_loop_cnt)                                  # i = col_loop_cnt
        add(m, col_loop_cnt, -1)
        if m.armclang:                                        # (a model: rolled)
            for i in range(col_loop_cnt, 0, -1):
                acc = _odd_step(m, lhs_vec, rhs_ptr, acc, lhs_offset_s16x2, rhs_offset_s16x2,
                                has_rhs_offset, True)
                lhs_vec += 4
                rhs_ptr += 4
                sub(m, i, 1)
                bcc(m, i != 1)
            rem = col_loop_cnt
            i = 0
        else:
            bcc(m, rem == 0)
            if rem != 0:
                cmp(m, rem, 1)
                bcc(m, rem == 1)
                if rem != 1:
                    cmp(m, rem, 2)
                    bcc(m, rem == 2)
            if rem == 3:
                ldr_sp(m)                                     # lhs
                vec_0 = ldr(m, lhs_vec)                       # arm_nn_read_s8x4_ia(&lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)  # SXTAB16_RORn(lhs_offset_s16x2, vec_0, 8)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)  # SXTAB16(lhs_offset_s16x2, vec_0)
                if has_rhs_offset:
                    mov(m, rhs_ptr)
                word = ldr(m, rhs_ptr)                        # arm_nn_read_s8x4_ia(&rhs_ptr)
                ker_1 = _ker(m, word, 8, rhs_offset_s16x2, has_rhs_offset)
                ker_0 = _ker(m, word, 0, rhs_offset_s16x2, has_rhs_offset)
                if not has_rhs_offset:
                    ldr_sp(m)                                 # acc_0
                acc = smlad(m, ker_1, vec_1, acc)             # acc_0 = SMLAD(ker_1, vec_1, acc_0);
                acc = smlad(m, ker_0, vec_0, acc)             # acc_0 = SMLAD(ker_0, vec_0, acc_0);
                if not has_rhs_offset:
                    str_sp(m)
                mov(m, 0)                                     # i--
                lhs_vec += 4
                rhs_ptr += 4
            if rem >= 2:
                vec_0 = ldr(m, lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                word = ldr(m, rhs_ptr)
                ker_1 = _ker(m, word, 8, rhs_offset_s16x2, has_rhs_offset)
                ker_0 = _ker(m, word, 0, rhs_offset_s16x2, has_rhs_offset)
                if not has_rhs_offset:
                    ldr_sp(m)
                acc = smlad(m, ker_1, vec_1, acc)
                acc = smlad(m, ker_0, vec_0, acc)
                if has_rhs_offset:
                    add(m, 0, -1)                             # i--
                else:
                    str_sp(m)
                    sub(m, 0, 1)                              # i--
                lhs_vec += 4
                rhs_ptr += 4
            i = col_loop_cnt - rem
            if rem >= 1:
                vec_0 = ldr(m, lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                word = ldr(m, rhs_ptr)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                ker_1 = _ker(m, word, 8, rhs_offset_s16x2, has_rhs_offset)
                if not has_rhs_offset:
                    ldr_sp(m)
                ker_0 = _ker(m, word, 0, rhs_offset_s16x2, has_rhs_offset)
                acc = smlad(m, ker_1, vec_1, acc)
                acc = smlad(m, ker_0, vec_0, acc)
                sub(m, i + 1, 1)                              # i--
                if not has_rhs_offset:
                    str_sp(m)
                bcc(m, i == 0)
                lhs_vec += 4
                rhs_ptr += 4
        if i != 0:                                            # blocks of four steps
            if has_rhs_offset:
                str_sp(m)
            else:
                ldr_sp(m)                                     # acc_0
            while i != 0:
                mov(m, 0)
                vec_0 = ldr(m, lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                if not has_rhs_offset:
                    mov(m, 0)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                if has_rhs_offset:
                    mov(m, 0)
                word = ldr(m, rhs_ptr)
                acc = _row_macs(m, word, vec_0, vec_1, acc, rhs_offset_s16x2, has_rhs_offset)
                acc = _odd_step(m, lhs_vec + 4, rhs_ptr + 4, acc, lhs_offset_s16x2,
                                rhs_offset_s16x2, has_rhs_offset, False)
                acc = _odd_step(m, lhs_vec + 8, rhs_ptr + 8, acc, lhs_offset_s16x2,
                                rhs_offset_s16x2, has_rhs_offset, True)
                vec_0 = ldr(m, lhs_vec + 12)
                lhs_vec = add(m, lhs_vec, 16)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                word = ldr(m, rhs_ptr + 12)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                rhs_ptr = add(m, rhs_ptr, 16)
                acc = _row_macs(m, word, vec_0, vec_1, acc, rhs_offset_s16x2, has_rhs_offset)
                i = sub(m, i, 4)                              # subs ..., #4
                bcc(m, i != 0)
            if has_rhs_offset:
                ldr_sp(m)
            else:
                str_sp(m)                                     # acc_0
        ldr_sp(m)                                             # lhs
        lhs_vec = add(m, lhs, 4 * col_loop_cnt)
        rhs_ptr = add(m, rhs, 4 * col_loop_cnt)
        str_sp(m)
        lsl(m, col_loop_cnt, 2)                               # k = col_loop_cnt * 4
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_cols, 4 * col_loop_cnt)                        # for (j = col_loop_cnt * 4; j < rhs_cols; j++)
    bcc(m, rhs_cols <= 4 * col_loop_cnt)
    if rhs_cols > 4 * col_loop_cnt:
        # unrolled by eight: rhs_cols % 4 < 8 peeled iterations
        neg = rsb(m, rhs_cols, 0)
        and_(m, neg, 3)
        count = and_(m, rhs_cols, 3)                          # rhs_cols % 4
        ldr_sp(m)                                             # lhs_vec
        it(m, 1)                                              # negpl: rhs_cols > 0
        left = and_(m, count, 7)
        add(m, lhs_vec, count)
        bcc(m, left == 0)
        for c in range(1, count):                             # the compare chain to the first
            cmp(m, left, c)
            bcc(m, False)
        cmp(m, left, count)
        bcc(m, True)
        for j in range(count):
            ldr_sp(m)                                         # lhs_vec
            ldr_sp(m)                                         # lhs_offset
            lhs_temp = ldrsb(m, lhs_vec)                      # (*lhs_vec + lhs_offset); lhs_vec++;
            lhs_vec += 1
            if has_rhs_offset:
                r = ldrsb(m, rhs_ptr)
                ldr_sp(m)                                     # rhs_offset
                str_sp(m)                                     # lhs_vec
                lhs_temp = add(m, lhs_temp, lhs_offset)
                r = add(m, r, rhs_offset)                     # (*rhs_ptr + rhs_offset)
                if j == count - 1:
                    cmp(m, j + 1, count)
                acc = mla(m, lhs_temp, r, acc)                # acc_0 += lhs_temp * ...;
            else:
                ldr_sp(m)                                     # acc_0
                r = ldrsb(m, rhs_ptr)
                str_sp(m)                                     # lhs_vec
                lhs_temp = add(m, lhs_temp, lhs_offset)
                acc = mla(m, lhs_temp, r, acc)                # acc_0 += lhs_temp * (*rhs_ptr);
                if j == count - 1:
                    cmp(m, j + 1, count)
                str_sp(m)                                     # acc_0
            rhs_ptr += 1
        bcc(m, True)                                          # beq: the loop ends here
    return acc


@kernel(inline=True)
def _dsp_last_requantize(m, acc, dst, dst_offset, dst_multiplier, dst_shift, left_shift,
                         activation_min, activation_max):
    """The odd row's arm_nn_requantize, offset, clamp and store (0xa2c-0xa7e, shared by both
    copies of the C)."""
    ldr_sp(m)                                                 # dst_multiplier
    ldr_sp(m)                                                 # dst_shift
    acc = lsl(m, acc, left_shift)                             # val * (1 << LEFT_SHIFT(shift))
    hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, acc, dst_multiplier)
    low_bit = lsr(m, lo, 31)
    cmp(m, dst_shift, 0)
    res = orr(m, low_bit, hi << 1)
    bcc(m, dst_shift > 0)                                     # bgt: no rounding
    if dst_shift <= 0:
        exponent = rsb(m, dst_shift, 0)
        one = mov(m, 1)
        remainder_mask = sub(m, lsl(m, one, exponent), 1)     # (1 << exponent) - 1
        remainder = and_(m, res, remainder_mask)
        threshold = asr(m, remainder_mask, 1)
        res = asr(m, res, exponent)                           # ASRS: N = the quotient's sign
        negative = res < 0
        it(m, not negative)
        if negative:
            threshold = add(m, threshold, 1)                  # threshold++
        cmp(m, remainder, threshold)
        up = remainder > threshold
        it(m, not up)
        if up:
            res = add(m, res, 1)                              # result++
    for _ in range(3):
        ldr_sp(m)                                             # dst_offset, activation_min, activation_max
    res = add(m, res, dst_offset)                             # acc_0 += dst_offset;
    res = max_lt(m, res, activation_min)                      # acc_0 = MAX(acc_0, activation_min);
    res = min_ge(m, res, activation_max)                      # acc_0 = MIN(acc_0, activation_max);
    strb(m, dst, res)                                         # *dst = (int8_t)acc_0;


@kernel
def _dsp(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift, rhs_cols,
         rhs_rows, activation_min, activation_max, address_offset, rhs_offset):
    """The ARM_MATH_DSP body after the frame: both copies of the C."""
    mov(m, rhs)
    str_sp(m)                                                 # bias
    ldr_sp(m)                                                 # rhs_offset
    str_sp(m)                                                 # lhs
    ldr_sp(m)                                                 # dst
    ldr_sp(m)                                                 # rhs_rows
    cmp(m, rhs_offset, 0)                                     # if (rhs_offset)
    bcc(m, rhs_offset == 0)
    has_rhs_offset = rhs_offset != 0
    ldr_sp(m)                                                 # lhs_offset
    if has_rhs_offset:
        ldr_sp(m)                                             # rhs_offset
    rounded = add(m, rhs_rows, (rhs_rows >> 31) & 1)          # rhs_rows / 2 rounds to zero
    row_loop_cnt = asr(m, rounded, 1)                         # const int32_t row_loop_cnt = rhs_rows / 2;
    cmp(m, rhs_rows, 1)
    lhs_offset_s16 = sxth(m, lhs_offset, 0)                   # (int16_t)lhs_offset
    rhs_offset_s16x2 = 0
    if has_rhs_offset:
        rhs_offset_s16 = sxth(m, rhs_offset, 0)               # (int16_t)rhs_offset
    str_sp(m)
    lhs_offset_s16x2 = pkhbt(m, lhs_offset_s16, lhs_offset_s16, 16)  # PKHBT(lhs_offset_s16, lhs_offset_s16, 16)
    if has_rhs_offset:
        rhs_offset_s16x2 = pkhbt(m, rhs_offset_s16, rhs_offset_s16, 16)
    bcc(m, rhs_rows <= 1)
    if rhs_rows > 1:
        rhs, bias, dst = _dsp_row_pairs(m, lhs, rhs, bias, dst, lhs_offset, dst_offset,
                                        dst_multiplier, dst_shift, rhs_cols, row_loop_cnt,
                                        activation_min, activation_max, address_offset,
                                        rhs_offset, lhs_offset_s16x2, rhs_offset_s16x2,
                                        has_rhs_offset)
        for _ in range(5):
            ldr_sp(m)                                         # rhs_rows, rhs, dst, ...
        cmp(m, rhs_rows, 1)
        if has_rhs_offset:
            mov(m, row_loop_cnt)
        it(m, 1)                                              # movle: rhs_rows > 1 here
        mla(m, row_loop_cnt, 2 * rhs_cols, 0)                 # rhs after the row pairs
        mla(m, row_loop_cnt, 2 * address_offset, 0)           # dst after the row pairs
    lsl(m, rhs_rows, 31)                                      # if (rhs_rows & 0x1)
    bcc(m, (rhs_rows & 1) == 0)                               # bpl
    if rhs_rows & 1:
        acc = _dsp_odd_row(m, lhs, rhs, bias, lhs_offset, rhs_cols, rhs_offset,
                           lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset)
        ldr_sp(m)                                             # dst_shift
        if not has_rhs_offset:
            ldr_sp(m)                                         # acc_0
        left_shift = bic(m, dst_shift, dst_shift >> 31)       # LEFT_SHIFT(shift)
        if has_rhs_offset:
            b(m)
        _dsp_last_requantize(m, acc, dst, dst_offset, dst_multiplier, dst_shift, left_shift,
                             activation_min, activation_max)



# --- plain C (no ARM_MATH_DSP) ----------------------------------------------------------

@kernel(inline=True)
def _double(m, val, multiplier):
    """arm_nn_doubling_high_mult_no_sat(val, multiplier) of the three-row requantization
    (left shift 0 or already applied): MOV #1 << 30, MOV #0, SMLAL, LSR #31, ORR LSL #1."""
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, multiplier, val)
    return orr(m, lsr(m, lo, 31), hi << 1)


@kernel(inline=True)
def _round_last_two(m, res_1, rem_1, res_2, rem_2, threshold):
    """The roundings of the second and third rows from gcc's shared tail (0x582 / 0x5f6):
    branches on their signs pick threshold or threshold + 1, IT blocks round."""
    cmp(m, res_1, 0)                                          # if (result < 0)
    bcc(m, res_1 < 0)                                         # blt
    thr_2 = mov(m, threshold)
    thr_1 = threshold
    if res_1 < 0:
        thr_1 = add(m, threshold, 1)                          #     threshold++;
        b(m)
    return _round_last_two_from_second(m, res_1, rem_1, thr_1, res_2, rem_2, thr_2)


@kernel(inline=True)
def _round_last_two_from_second(m, res_1, rem_1, thr_1, res_2, rem_2, thr_2):
    """0x588 / 0x5fc: the second row's rounding, the third row's sign and rounding."""
    cmp(m, thr_1, rem_1)                                      # if (remainder > threshold)
    up = thr_1 < rem_1
    it(m, not up)
    if up:
        res_1 = add(m, res_1, 1)                              #     result++;
    cmp(m, res_2, 0)
    bcc(m, res_2 < 0)                                         # blt
    if res_2 < 0:
        thr_2 = add(m, thr_2, 1)                              #     threshold++;
        b(m)
    res_2 = _round_third(m, res_2, rem_2, thr_2)
    return res_1, res_2


@kernel(inline=True)
def _round_third(m, res_2, rem_2, thr_2):
    """0x592 / 0x606: the third row's rounding, then back to the clamps."""
    cmp(m, rem_2, thr_2)                                      # if (remainder > threshold)
    up = rem_2 > thr_2
    it(m, not up)
    if up:
        res_2 = add(m, res_2, 1)                              #     result++;
    b(m)
    return res_2


@kernel(inline=True)
def _requantize_three(m, res00, res01, res02, dst_multiplier, dst_shift, left_shift,
                      right_shift, remainder_mask, threshold, has_rhs_offset):
    """arm_nn_requantize of a row triple as gcc's plain-C build interleaves the three: the
    first doubling multiply, a branch on the shift's sign, then on the sign of the first
    quotient; the second and third rows share one tail of branches on their signs (the
    threshold or threshold + 1) and IT blocks (the roundings).  With a positive shift the
    exponent is 0 and the tail runs with zero remainders: it never rounds."""
    ldr_sp(m)                                                 # left_shift
    hi = mov(m, 0)
    res00 = lsl(m, res00, left_shift)                         # val * (1 << LEFT_SHIFT(shift))
    lo = mov(m, 1 << 30)
    ldr_sp(m)                                                 # dst_multiplier
    lo, hi = smlal(m, lo, hi, res00, dst_multiplier)
    ldr_sp(m)                                                 # dst_shift
    low_bit = lsr(m, lo, 31)
    cmp(m, dst_shift, 0)
    res00 = orr(m, low_bit, hi << 1)
    bcc(m, dst_shift <= 0)                                    # ble: the rounding path
    if dst_shift > 0:
        if not has_rhs_offset:
            ldr_sp(m)                                         # left_shift
        cmp(m, res00, 0)
        if not has_rhs_offset:
            res02 = lsl(m, res02, left_shift)
            res01 = lsl(m, res01, left_shift)
        bcc(m, res00 < 0)                                     # blt
        if res00 >= 0:                                        # 0x114 / 0x3a8
            if has_rhs_offset:
                ldr_sp(m)
                mov(m, 0)
                res02 = lsl(m, res02, left_shift)
                res01 = lsl(m, res01, left_shift)
                mov(m, 1 << 30)
                ldr_sp(m)
                lo, hi = smlal(m, 1 << 30, 0, dst_multiplier, res02)
                res02 = orr(m, lsr(m, lo, 31), hi << 1)
            else:
                mov(m, 1 << 30)
                mov(m, 0)
                ldr_sp(m)
                lo, hi = smlal(m, 1 << 30, 0, dst_multiplier, res02)
                res02 = orr(m, lsr(m, lo, 31), hi << 1)
            res01 = _double(m, res01, dst_multiplier)         # ORRS: N = the sign
            bcc(m, res01 < 0)                                 # bmi
            if res01 < 0:                                     # 0x618 / 0x632
                for _ in range(3):
                    mov(m, 0)                                 # remainders and threshold 0
                thr_2 = mov(m, 0)
                thr_1 = add(m, 0, 1)
                b(m)
                res01, res02 = _round_last_two_from_second(m, res01, 0, thr_1, res02, 0,
                                                           thr_2)
            else:
                cmp(m, res02, 0)
                bcc(m, res02 < 0)                             # blt
                if res02 < 0:                                 # 0x60e / 0x628
                    mov(m, 0)
                    thr_2 = mov(m, 0)
                    thr_2 = add(m, thr_2, 1)
                    b(m)
                    res02 = _round_third(m, res02, 0, thr_2)
            return res00, res01, res02
        # 0x67e / 0x650: the first quotient negative
        mov(m, 0)
        mov(m, 1 << 30)
        mov(m, 0)
        if has_rhs_offset:
            ldr_sp(m)
            res02 = lsl(m, res02, left_shift)
            res01 = lsl(m, res01, left_shift)
        ldr_sp(m)                                             # dst_multiplier
        lo, hi = smlal(m, 1 << 30, 0, dst_multiplier, res02)
        res02 = orr(m, lsr(m, lo, 31), hi << 1)
        res01 = _double(m, res01, dst_multiplier)
        mov(m, 0)
        mov(m, 0)
        b(m)
        res01, res02 = _round_last_two(m, res01, 0, res02, 0, 0)
        return res00, res01, res02
    ldr_sp(m)                                                 # remainder_mask
    ldr_sp(m)                                                 # -shift
    rem00 = and_(m, res00, remainder_mask)
    res00 = asr(m, res00, right_shift)                        # ASRS: N = the quotient's sign
    if not has_rhs_offset:
        str_sp(m)                                             # rem00
    bcc(m, res00 < 0)                                         # bmi
    if res00 >= 0:                                            # 0x53c / 0x5b0
        thr_0 = threshold
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        ldr_sp(m)                                             # dst_multiplier
        lo, hi = smlal(m, lo, hi, dst_multiplier, res02)
        res02 = orr(m, lsr(m, lo, 31), hi << 1)
        hi = mov(m, 0)
        lo = mov(m, 1 << 30)
        lo, hi = smlal(m, lo, hi, dst_multiplier, res01)
        mov(m, remainder_mask)
        ldr_sp(m)                                             # -shift
        res01 = orr(m, lsr(m, lo, 31), hi << 1)
        rem01 = and_(m, remainder_mask, res01)
        res01 = asr(m, res01, right_shift)
        rem02 = and_(m, remainder_mask, res02)
        ldr_sp(m)
        ldr_sp(m)                                             # threshold
        res02 = asr(m, res02, right_shift)
    else:                                                     # 0x6ea / 0x6b0
        thr_0 = threshold + 1                                 # threshold + 1, kept on the stack
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        ldr_sp(m)                                             # dst_multiplier
        ldr_sp(m)                                             # threshold + 1
        lo, hi = smlal(m, lo, hi, dst_multiplier, res01)
        res01 = orr(m, lsr(m, lo, 31), hi << 1)
        hi = mov(m, 0)
        lo = mov(m, 1 << 30)
        lo, hi = smlal(m, lo, hi, dst_multiplier, res02)
        res02 = orr(m, lsr(m, lo, 31), hi << 1)
        ldr_sp(m)                                             # -shift
        ldr_sp(m)                                             # remainder_mask
        rem01 = and_(m, remainder_mask, res01)
        rem02 = and_(m, remainder_mask, res02)
        res01 = asr(m, res01, right_shift)
        res02 = asr(m, res02, right_shift)
        b(m)
    if not has_rhs_offset:                                    # 0x578 / 0x5ec
        ldr_sp(m)                                             # rem00
    cmp(m, rem00, thr_0)                                      # if (remainder > threshold)
    ldr_sp(m)                                                 # threshold
    up = rem00 > thr_0
    it(m, not up)
    if up:
        res00 = add(m, res00, 1)                              #     result++;
    res01, res02 = _round_last_two(m, res01, rem01, res02, rem02, threshold)
    return res00, res01, res02


@kernel
def _scalar_row_triples(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                        dst_shift, rhs_cols, row_loop_cnt, activation_min, activation_max,
                        address_offset, rhs_offset, has_rhs_offset):
    """for (i_row_loop_cnt = 0; i_row_loop_cnt < row_loop_cnt; i_row_loop_cnt++) of the
    plain-C path (row_loop_cnt > 0), both copies: set-up and rows.  Returns (bias, dst)."""
    if has_rhs_offset:                                        # 0x34-0x90
        mov(m, 1)
        mov(m, 0)                                             # i_row_loop_cnt = 0
        mov(m, rhs)
        ldr_sp(m)                                             # rhs_cols
        ldr_sp(m)                                             # dst_shift
        add(m, rhs, 2 * rhs_cols)
        sub(m, 0, 1)
        str_sp(m)
        ldr_sp(m)                                             # address_offset
        right_shift = rsb(m, dst_shift, 0)                    # -shift
        lsl(m, address_offset, 1)                             # 2 * address_offset
        str_sp(m)
        ldr_sp(m)
        mask_1 = lsl(m, 1, right_shift)
        add(m, address_offset, 2 * address_offset)            # 3 * address_offset
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)                                             # dst
        add(m, rhs_cols, 2 * rhs_cols)                        # 3 * rhs_cols
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        left_shift = bic(m, dst_shift, dst_shift >> 31)       # shift > 0 ? shift : 0
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        sub(m, rhs_cols, 1)
        str_sp(m)
        ldr_sp(m)
        add(m, lhs, rhs_cols)                                 # the end of the lhs
        remainder_mask = sub(m, mask_1, 1)                    # (1 << exponent) - 1
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        str_sp(m)
        threshold = asr(m, remainder_mask, 1)                 # remainder_mask >> 1
        str_sp(m)
        add(m, threshold, 1)
        str_sp(m)
    else:                                                     # 0x2c6-0x322
        mov(m, 1)
        ldr_sp(m)                                             # dst_shift
        ldr_sp(m)                                             # rhs
        mov(m, 0)                                             # i_row_loop_cnt = 0
        right_shift = rsb(m, dst_shift, 0)                    # -shift
        ldr_sp(m)
        mov(m, rhs)
        add(m, rhs, 2 * rhs_cols)
        add(m, 0, -1)
        ldr_sp(m)
        ldr_sp(m)
        lsl(m, address_offset, 1)                             # 2 * address_offset
        str_sp(m)
        ldr_sp(m)
        mask_1 = lsl(m, 1, right_shift)
        add(m, address_offset, 2 * address_offset)            # 3 * address_offset
        str_sp(m)
        ldr_sp(m)
        remainder_mask = sub(m, mask_1, 1)                    # (1 << exponent) - 1
        add(m, rhs_cols, 2 * rhs_cols)                        # 3 * rhs_cols
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        left_shift = bic(m, dst_shift, dst_shift >> 31)       # shift > 0 ? shift : 0
        str_sp(m)
        ldr_sp(m)
        threshold = asr(m, remainder_mask, 1)                 # remainder_mask >> 1
        sub(m, rhs_cols, 1)
        str_sp(m)
        ldr_sp(m)                                             # lhs
        str_sp(m)
        ldr_sp(m)                                             # dst
        add(m, threshold, 1)
        str_sp(m)
        add(m, lhs, rhs_cols)                                 # the end of the lhs
        for _ in range(4):
            str_sp(m)
    if dst_shift > 0:                                         # (exponent 0 on that path)
        right_shift, remainder_mask, threshold = 0, 0, 0

    for i in range(row_loop_cnt):
        cmp(m, bias, 0)                                       # if (bias)
        bcc(m, bias == 0)
        if bias != 0:
            res00, res01 = ldrd(m, bias)                      # res00 = *bias++; res01 = *bias++;
            res02 = ldr(m, bias + 8)                          # res02 = *bias++;
            bias = add(m, bias, 12)
        else:
            res00 = mov(m, 0)
            res01 = mov(m, 0)
            res02 = mov(m, 0)
            b(m)
        ldr_sp(m)                                             # rhs_cols
        cmp(m, rhs_cols, 0)                                   # for (rhs_cols_idx = 0; rhs_cols_idx < rhs_cols; ...)
        bcc(m, rhs_cols <= 0)
        if rhs_cols > 0:
            if has_rhs_offset:
                ldrd_sp(m)
                ldr_sp(m)
                strd_sp(m)
                add(m, rhs, rhs_cols - 1)
                ldr_sp(m)                                     # rhs_offset
                add(m, rhs, -1)
            else:
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)                                     # lhs
                add(m, rhs, -1)
                add(m, rhs, rhs_cols - 1)
                str_sp(m)
                str_sp(m)
            lhs_ptr = lhs
            rhs_ptr_0 = rhs
            rhs_ptr_1 = rhs + rhs_cols
            rhs_ptr_2 = rhs + 2 * rhs_cols
            for c in range(rhs_cols):
                lhs_value = ldrsb(m, lhs_ptr)                 # (int8_t)*lhs_ptr
                lhs_ptr += 1
                rhs_value0 = ldrsb(m, rhs_ptr_0)              # (int8_t)*rhs_ptr_0
                rhs_ptr_0 += 1
                lhs_value = add(m, lhs_value, lhs_offset)     # ... + lhs_offset
                if has_rhs_offset:
                    rhs_value0 = add(m, rhs_value0, rhs_offset)  # ... + rhs_offset
                res00 = mla(m, lhs_value, rhs_value0, res00)  # res00 += lhs_value * rhs_value0;
                rhs_value1 = ldrsb(m, rhs_ptr_1)
                rhs_ptr_1 += 1
                cmp(m, c + 1, rhs_cols)
                if has_rhs_offset:
                    rhs_value1 = add(m, rhs_value1, rhs_offset)
                res01 = mla(m, lhs_value, rhs_value1, res01)  # res01 += lhs_value * rhs_value1;
                rhs_value2 = ldrsb(m, rhs_ptr_2)
                rhs_ptr_2 += 1
                if has_rhs_offset:
                    rhs_value2 = add(m, rhs_value2, rhs_offset)
                res02 = mla(m, lhs_value, rhs_value2, res02)  # res02 += lhs_value * rhs_value2;
                bcc(m, c + 1 < rhs_cols)
            if has_rhs_offset:
                ldrd_sp(m)
                str_sp(m)
            else:
                ldr_sp(m)
                ldr_sp(m)
        res00, res01, res02 = _requantize_three(m, res00, res01, res02, dst_multiplier,
                                                dst_shift, left_shift, right_shift,
                                                remainder_mask, threshold, has_rhs_offset)
        if has_rhs_offset:                                    # 0x14a
            ldr_sp(m)                                         # dst_offset
            ldr_sp(m)
            res00 = add(m, res00, dst_offset)                 # res00 += dst_offset;
            res02 = add(m, res02, dst_offset)                 # res02 += dst_offset;
            res01 = add(m, res01, dst_offset)                 # res01 += dst_offset;
            ldr_sp(m)                                         # activation_min
            add(m, i, 1)
        else:                                                 # 0x3d6
            ldr_sp(m)
            add(m, i, 1)
            res00 = add(m, res00, dst_offset)
            res01 = add(m, res01, dst_offset)
            res02 = add(m, res02, dst_offset)
            ldr_sp(m)
        res00 = max_lt(m, res00, activation_min)              # res00 = MAX(res00, activation_min);
        res01 = max_lt(m, res01, activation_min)
        res02 = max_lt(m, res02, activation_min)
        ldr_sp(m)                                             # 3 * rhs_cols
        add(m, 0, 0)
        rhs = add(m, rhs, 3 * rhs_cols)                       # rhs += 3 * rhs_cols;
        ldr_sp(m)                                             # activation_max
        if has_rhs_offset:
            str_sp(m)
        res00 = min_ge(m, res00, activation_max)              # res00 = MIN(res00, activation_max);
        res01 = min_ge(m, res01, activation_max)
        res02 = min_ge(m, res02, activation_max)
        strb(m, dst, res00)                                   # *dst = (int8_t)res00;
        ldr_sp(m)
        strb(m, dst + address_offset, res01)                  # *(dst + address_offset) = (int8_t)res01;
        ldr_sp(m)
        strb(m, dst + 2 * address_offset, res02)              # *(dst + 2 * address_offset) = (int8_t)res02;
        ldr_sp(m)
        dst = add(m, dst, 3 * address_offset)                 # dst += 3 * address_offset;
        ldr_sp(m)                                             # row_loop_cnt
        cmp(m, row_loop_cnt, i + 1)
        bcc(m, i + 1 < row_loop_cnt)                          # bgt
    return bias, dst


@kernel
def _scalar_rows(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
                 rhs_cols, loop_cnt, activation_min, activation_max, address_offset,
                 rhs_offset, has_rhs_offset):
    """for (i_loop_cnt = 0; i_loop_cnt < loop_cnt; i_loop_cnt++): the rhs_rows % 3 rows
    left (loop_cnt > 0), both copies."""
    if has_rhs_offset:                                        # 0x1e4-0x218
        mov(m, 0)                                             # i_loop_cnt = 0
        one = mov(m, 1)
        mov(m, 0)
        ldr_sp(m)                                             # dst_shift
        ldr_sp(m)
        right_shift = rsb(m, dst_shift, 0)                    # -shift
        mask_1 = lsl(m, one, right_shift)
        remainder_mask = sub(m, mask_1, 1)                    # (1 << exponent) - 1
        ldr_sp(m)                                             # rhs_cols
        left_shift = bic(m, dst_shift, dst_shift >> 31)       # shift > 0 ? shift : 0
        ldr_sp(m)                                             # lhs
        str_sp(m)
        str_sp(m)
        threshold = asr(m, remainder_mask, 1)                 # remainder_mask >> 1
        str_sp(m)
        ldr_sp(m)                                             # rhs
        ldr_sp(m)                                             # dst
        str_sp(m)
        add(m, lhs, rhs_cols)                                 # the end of the lhs
        str_sp(m)
    else:                                                     # 0x466-0x49e
        one = mov(m, 1)
        mov(m, 0)                                             # i_loop_cnt = 0
        ldr_sp(m)                                             # dst_shift
        ldr_sp(m)                                             # rhs_cols
        right_shift = rsb(m, dst_shift, 0)                    # -shift
        mask_1 = lsl(m, one, right_shift)
        remainder_mask = add(m, mask_1, -1)                   # (1 << exponent) - 1
        left_shift = bic(m, dst_shift, dst_shift >> 31)       # shift > 0 ? shift : 0
        ldr_sp(m)                                             # lhs
        threshold = asr(m, remainder_mask, 1)                 # remainder_mask >> 1
        strd_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)                                             # rhs
        ldr_sp(m)                                             # dst
        add(m, lhs, rhs_cols)                                 # the end of the lhs
        str_sp(m)

    cmp(m, bias, 0)                                           # if (bias)
    bcc(m, bias == 0)
    for i in range(loop_cnt):
        if bias != 0:
            res00 = ldr(m, bias)                              # res00 = *bias++;
            bias += 4
        else:
            res00 = mov(m, 0)
            b(m)
        if has_rhs_offset:
            ldr_sp(m)                                         # rhs_cols
        cmp(m, rhs_cols, 0)                                   # for (rhs_cols_idx = 0; ...)
        bcc(m, rhs_cols <= 0)
        if rhs_cols > 0:
            ldr_sp(m)                                         # lhs
            add(m, rhs, -1)
            if not has_rhs_offset:
                str_sp(m)
            lhs_ptr = lhs
            rhs_ptr = rhs
            for c in range(rhs_cols):
                lhs_value = ldrsb(m, lhs_ptr)                 # (int8_t)lhs_ptr[0]
                lhs_ptr += 1
                rhs_value0 = ldrsb(m, rhs_ptr)                # (int8_t)rhs_ptr[0]
                rhs_ptr += 1
                lhs_value = add(m, lhs_value, lhs_offset)     # ... + lhs_offset
                if has_rhs_offset:
                    rhs_value0 = add(m, rhs_value0, rhs_offset)  # ... + rhs_offset
                cmp(m, c + 1, rhs_cols)
                res00 = mla(m, lhs_value, rhs_value0, res00)  # res00 += lhs_value * rhs_value0;
                bcc(m, c + 1 < rhs_cols)
            if not has_rhs_offset:
                ldr_sp(m)
        # arm_nn_requantize(res00, dst_multiplier, dst_shift)
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        if has_rhs_offset:
            ldr_sp(m)                                         # dst_multiplier
        val = lsl(m, res00, left_shift)
        lo, hi = smlal(m, lo, hi, val, dst_multiplier)
        if has_rhs_offset:
            ldr_sp(m)                                         # dst_shift
            low_bit = lsr(m, lo, 31)
            cmp(m, dst_shift, 0)
            res00 = orr(m, low_bit, hi << 1)
        else:
            low_bit = lsr(m, lo, 31)
            res00 = orr(m, low_bit, hi << 1)
            ldr_sp(m)
            cmp(m, dst_shift, 0)
        bcc(m, dst_shift > 0)                                 # bgt: no rounding
        if dst_shift <= 0:
            negative = False
            if has_rhs_offset:
                ldr_sp(m)                                     # remainder_mask
                remainder = and_(m, res00, remainder_mask)
                ldr_sp(m)                                     # -shift
                res00 = asr(m, res00, right_shift)            # ASRS: N = the sign
                negative = res00 < 0
                it(m, 1 if negative else 2)                   # ITET MI
                ldr_sp(m)                                     # threshold (LDRMI or LDRPL)
                thr = threshold
                if negative:
                    thr = add(m, threshold, 1)                # threshold + 1
            else:
                ldr_sp(m)
                ldr_sp(m)
                remainder = and_(m, remainder_mask, res00)
                res00 = asr(m, res00, right_shift)
                ldr_sp(m)                                     # threshold
                negative = res00 < 0
                thr = threshold
                it(m, not negative)
                if negative:
                    thr = add(m, thr, 1)                      # threshold++
            cmp(m, remainder, thr)                            # if (remainder > threshold)
            up = remainder > thr
            it(m, not up)
            if up:
                res00 = add(m, res00, 1)                      #     result++;
        ldr_sp(m)                                             # dst_offset
        add(m, i, 1)
        res00 = add(m, res00, dst_offset)                     # res00 += dst_offset;
        ldr_sp(m)                                             # activation_min
        if has_rhs_offset:
            res00 = max_lt(m, res00, activation_min)          # res00 = MAX(res00, activation_min);
            ldr_sp(m)
            rhs = add(m, rhs, rhs_cols)                       # rhs += rhs_cols;
        else:
            rhs = add(m, rhs, rhs_cols)
            res00 = max_lt(m, res00, activation_min)
        ldr_sp(m)                                             # activation_max
        res00 = min_ge(m, res00, activation_max)              # res00 = MIN(res00, activation_max);
        if has_rhs_offset:
            ldr_sp(m)                                         # address_offset
            strb(m, dst, res00)                               # *dst = (int8_t)res00;
        else:
            strb(m, dst, res00)
            ldr_sp(m)
        dst = add(m, dst, address_offset)                     # dst += address_offset;
        ldr_sp(m)                                             # loop_cnt
        cmp(m, loop_cnt, i + 1)
        last = i + 1 == loop_cnt
        if has_rhs_offset:
            bcc(m, not last)                                  # bne
            if not last:
                cmp(m, bias, 0)                               # the rotated if (bias)
                bcc(m, bias == 0)
        else:
            bcc(m, last)                                      # beq: done
            if not last:
                cmp(m, bias, 0)
                bcc(m, bias != 0)                             # bne


@kernel
def _scalar(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift, rhs_cols,
            rhs_rows, activation_min, activation_max, address_offset, rhs_offset):
    """The plain-C body after the frame: both copies of the C."""
    ldr_sp(m)                                                 # rhs_offset
    mov(m, bias)
    ldr_sp(m)                                                 # lhs_offset
    ldr_sp(m)                                                 # dst_multiplier
    ldr_sp(m)                                                 # rhs_rows
    str_sp(m)                                                 # lhs
    str_sp(m)                                                 # rhs
    cmp(m, rhs_offset, 0)                                     # if (rhs_offset)
    bcc(m, rhs_offset == 0)
    has_rhs_offset = rhs_offset != 0
    ldr_lit(m)                                                # 0x55555556
    if has_rhs_offset:
        mov(m, rhs)
        _lo, q = smull(m, 0x55555556, rhs_rows)               # rhs_rows / 3 by the reciprocal
        cmp(m, rhs_rows, 2)
    else:
        cmp(m, rhs_rows, 2)
        _lo, q = smull(m, 0x55555556, rhs_rows)
    row_loop_cnt = sub(m, q, rhs_rows >> 31)                  # const int32_t row_loop_cnt = rhs_rows / 3;
    str_sp(m)
    sign = asr(m, rhs_rows, 31)
    bcc(m, rhs_rows <= 2)                                     # ble: no row triple
    if rhs_rows > 2:
        bias, dst = _scalar_row_triples(m, lhs, rhs, bias, dst, lhs_offset, dst_offset,
                                        dst_multiplier, dst_shift, rhs_cols, row_loop_cnt,
                                        activation_min, activation_max, address_offset,
                                        rhs_offset, has_rhs_offset)
        rhs += 3 * rhs_cols * row_loop_cnt
        if has_rhs_offset:                                    # 0x1a2
            ldr_sp(m)                                         # rhs_rows
            ldr_sp(m)                                         # row_loop_cnt
            cmp(m, rhs_rows, 2)
            it(m, 1)                                          # movle: rhs_rows > 2 here
            mov(m, bias)
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            mla(m, row_loop_cnt, 3 * address_offset, 0)       # dst after the triples
            ldr_sp(m)
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)                                         # rhs_offset
            mla(m, row_loop_cnt, 3 * rhs_cols, 0)             # rhs after the triples
            ldr_sp(m)
            str_sp(m)
        else:                                                 # 0x42a
            ldr_sp(m)                                         # rhs_rows
            mov(m, row_loop_cnt)
            cmp(m, rhs_rows, 2)
            it(m, 1)                                          # movle: rhs_rows > 2 here
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            mla(m, row_loop_cnt, 3 * address_offset, 0)
            ldr_sp(m)
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            mla(m, row_loop_cnt, 3 * rhs_cols, 0)
            str_sp(m)
    ldr_lit(m)                                                # 0x55555556
    _lo, q = smull(m, 0x55555556, rhs_rows)
    q = sub(m, q, sign)
    loop_cnt = sub(m, rhs_rows, add(m, q, q << 1))            # const int loop_cnt = rhs_rows % 3;
    cmp(m, loop_cnt, 0)
    bcc(m, loop_cnt <= 0)
    if loop_cnt > 0:
        _scalar_rows(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                     dst_shift, rhs_cols, loop_cnt, activation_min, activation_max,
                     address_offset, rhs_offset, has_rhs_offset)


@kernel
def arm_nn_vec_mat_mult_t_s8(m, lhs, rhs, kernel_sum, bias, dst, lhs_offset, dst_offset,
                             dst_multiplier, dst_shift, rhs_cols, rhs_rows, activation_min,
                             activation_max, address_offset, rhs_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0); `kernel_sum` is MVE's, unused here."""
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #92 / #68
    if m.dsp:
        _dsp(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
             rhs_cols, rhs_rows, activation_min, activation_max, address_offset, rhs_offset)
    else:
        _scalar(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
                rhs_cols, rhs_rows, activation_min, activation_max, address_offset, rhs_offset)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
