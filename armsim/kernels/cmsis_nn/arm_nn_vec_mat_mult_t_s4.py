"""arm_nn_vec_mat_mult_t_s4 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s4.c), non-MVE.

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_s4(const int8_t *lhs, const int8_t *packed_rhs,
        const int32_t *bias, int8_t *dst, const int32_t lhs_offset, const int32_t dst_offset,
        const int32_t dst_multiplier, const int32_t dst_shift, const int32_t rhs_cols,
        const int32_t rhs_rows, const int32_t activation_min, const int32_t activation_max)

dst[r] = clamp(requantize(bias[r] + sum_c (lhs[c] + lhs_offset) * w[r][c]) + dst_offset),
w packed two per byte over the whole [rhs_rows, rhs_cols] matrix, element 2k in the low
nibble of byte k.  With an odd rhs_cols every other row starts in the middle of a byte.

Four rows per outer iteration: row i and row i + 2 * row_loop_cnt (rhs_offset bytes apart)
together, first the even row of the pair (its last odd-column high nibble spills into the next
row's first column: `spillover`), then the odd one; the rhs_rows % 4 rows after them one at a
time.  ARM_MATH_DSP: four columns per step (read_and_pad_s4 per row: LDRH, BFI, the byte
shuffle, SXTB16 / ROR #4 / SXTB16; SXTAB16 for the lhs, two SMLAD per row), a 2-column tail
when rhs_cols % 4 is 2 or 3.  The first row pair's requantizations branch on the shift's and
the quotients' signs; gcc keeps the remainder mask, exponent and threshold they leave (0 for a
positive shift) in registers, and the second pair's requantizations are branch-free with IT
blocks.  Plain C: two columns per step (LDRSB, SBFX / ASR for the nibbles, MLA).

Every instruction is one of the measured objects' (arm-none-eabi-gcc 12.2 -O2,
-mcpu=cortex-m4 with ARM_MATH_DSP / -mcpu=cortex-m3), in gcc's order.  No fitted line.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    and_,
    asr,
    b,
    bcc,
    bfi,
    bic,
    cbz,
    cmp,
    it,
    ldr,
    ldr_sp,
    ldrd_sp,
    ldrh,
    ldrsb,
    lsl,
    lsr,
    mla,
    mov,
    mul,
    orr,
    pkhbt,
    pop_pc,
    push,
    ror,
    rsb,
    sbfx,
    smlad,
    smlal,
    str_sp,
    strb,
    strd_sp,
    sub,
    sxtab16,
    sxtb16,
    sxth,
    tst,
    uxtb,
)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _low_nibble(m, value):
    return sbfx(m, value, 0, 4)                               # (int8_t)(value << 4) >> 4


@kernel(inline=True)
def _high_nibble(m, value):
    return asr(m, value, 4)                                   # value >> 4


# --- ARM_MATH_DSP -----------------------------------------------------------------------

@kernel(inline=True)
def _pair_step(m, rhs_ptr, rhs_offset, lhs_ptr, lhs_offset_s16x2, res0, res1):
    """One step of a row pair's column loop: read_and_pad_s4 of both rows (rhs_offset bytes
    apart) interleaved, the lhs word widened by SXTAB16, four SMLAD."""
    in_0 = ldrh(m, rhs_ptr)                                   # arm_nn_read_s8x2(rhs_ptr)
    lhs_high = ldr(m, lhs_ptr)                                # arm_nn_read_s8x4_ia(&lhs_ptr)
    lhs_low = sxtab16(m, lhs_offset_s16x2, lhs_high, 0)       # SXTAB16(lhs_offset_s16x2, lhs_high)
    in_0 = bfi(m, 0, in_0, 0, 16)
    ldr_sp(m)                                                 # rhs_offset
    in_1 = ldrh(m, rhs_ptr + rhs_offset)                      # arm_nn_read_s8x2(&rhs_ptr[rhs_offset])
    hi_0 = lsl(m, in_0, 8)
    in_1 = bfi(m, 0, in_1, 0, 16)
    lo_0 = uxtb(m, in_0, 0)
    hi_1 = lsl(m, in_1, 8)
    hi_0 = and_(m, hi_0, 0xFF0000)
    in_a0 = orr(m, hi_0, lo_0)                                # inA = (in & 0x00FF) | ((in & 0xFF00) << 8)
    hi_1 = and_(m, hi_1, 0xFF0000)
    lo_1 = uxtb(m, in_1, 0)
    in_a1 = orr(m, hi_1, lo_1)
    low_1 = lsl(m, in_a1, 4)                                  # inA << 4
    low_0 = lsl(m, in_a0, 4)
    low_0 = sxtb16(m, low_0, 0)                               # __sxtb16(inA << 4)
    high_0 = sxtb16(m, in_a0, 0)                              # __sxtb16(inA)
    low_1 = sxtb16(m, low_1, 0)
    high_1 = sxtb16(m, in_a1, 0)
    add(m, rhs_ptr, 2)                                        # rhs_ptr += 2;
    low_0 = ror(m, low_0, 4)                                  # SXTB16_RORn(.., 4)
    high_0 = ror(m, high_0, 4)
    low_1 = ror(m, low_1, 4)
    high_1 = ror(m, high_1, 4)
    rhs_low0 = sxtb16(m, low_0, 0)
    rhs_high0 = sxtb16(m, high_0, 0)
    rhs_low1 = sxtb16(m, low_1, 0)
    rhs_high1 = sxtb16(m, high_1, 0)
    lhs_high = sxtab16(m, lhs_offset_s16x2, lhs_high, 8)      # SXTAB16_RORn(lhs_offset_s16x2, lhs_high, 8)
    res0 = smlad(m, lhs_low, rhs_low0, res0)                  # res0 = SMLAD(lhs_low, rhs_low0, res0);
    res0 = smlad(m, lhs_high, rhs_high0, res0)                # res0 = SMLAD(lhs_high, rhs_high0, res0);
    res1 = smlad(m, lhs_low, rhs_low1, res1)                  # res1 = SMLAD(lhs_low, rhs_low1, res1);
    res1 = smlad(m, lhs_high, rhs_high1, res1)                # res1 = SMLAD(lhs_high, rhs_high1, res1);
    return res0, res1


@kernel(inline=True)
def _pair_columns(m, rhs_ptr, rhs_offset, lhs_ptr, lhs_offset_s16x2, res0, res1, col_steps):
    """for (rhs_cols_idx = 0; rhs_cols_idx < rhs_cols / 4; ++rhs_cols_idx) of a row pair."""
    for idx in range(col_steps):
        res0, res1 = _pair_step(m, rhs_ptr, rhs_offset, lhs_ptr, lhs_offset_s16x2, res0, res1)
        rhs_ptr += 2
        lhs_ptr += 4
        ldr_sp(m)                                             # rhs_cols / 4
        add(m, idx, 1)
        cmp(m, idx + 1, col_steps)
        bcc(m, idx + 1 < col_steps)                           # blt
    return res0, res1


@kernel(inline=True)
def _round(m, result, remainder, threshold, up_when_greater):
    """CMP remainder, threshold; IT GT; ADDGT result, #1 (the operands as gcc placed them:
    `up_when_greater` False for CMP threshold, remainder; IT LT)."""
    if up_when_greater:
        cmp(m, remainder, threshold)
    else:
        cmp(m, threshold, remainder)
    up = remainder > threshold
    it(m, not up)
    if up:
        result = add(m, result, 1)                            # result++;
    return result


@kernel(inline=True)
def _first_pair_requantize(m, res0, res1, dst_multiplier, dst_shift, left_shift, exponent,
                           remainder_mask, threshold):
    """arm_nn_requantize of the even row pair's accumulators (0x210): the first doubling
    multiply, branches on the shift's sign and on the quotients' signs.  Returns (res0, res1,
    the mask, exponent and threshold gcc leaves for the second pair: 0 for a positive shift)."""
    rem1_kept = 0
    thr = 0
    ldr_sp(m)                                                 # LEFT_SHIFT(shift)
    ldr_sp(m)                                                 # dst_multiplier
    val = lsl(m, res0, left_shift)
    hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, val, dst_multiplier)
    low_bit = lsr(m, lo, 31)
    res0 = orr(m, low_bit, hi << 1)
    ldr_sp(m)                                                 # dst_shift
    cmp(m, dst_shift, 0)
    bcc(m, dst_shift <= 0)                                    # ble
    if dst_shift > 0:                                         # exponent 0: the roundings never fire
        ldr_sp(m)
        cmp(m, res0, 0)
        val = lsl(m, res1, left_shift)
        lo = mov(m, 1 << 30)
        bcc(m, res0 < 0)                                      # blt
        if res0 >= 0:
            ldr_sp(m)
            hi = mov(m, 0)
            lo, hi = smlal(m, lo, hi, dst_multiplier, val)
            low_bit = lsr(m, lo, 31)
            res1 = orr(m, low_bit, hi << 1)                   # ORRS: N = the sign
            bcc(m, res1 < 0)                                  # bmi
            if res1 >= 0:
                mov(m, 0)
                mov(m, 0)
                str_sp(m)
                return res0, res1, 0, 0, 0
            mov(m, 0)                                         # remainder 0
            mov(m, 0)
            thr = mov(m, 0)
            str_sp(m)
            mov(m, thr)
            thr = add(m, thr, 1)                              # threshold++
            b(m)
            res1 = _round(m, res1, 0, thr, False)
            b(m)
            return res0, res1, 0, 0, 0
        ldr_sp(m)
        hi = mov(m, 0)
        lo, hi = smlal(m, lo, hi, dst_multiplier, val)
        low_bit = lsr(m, lo, 31)
        mov(m, 0)                                             # remainder 0
        res1 = orr(m, low_bit, hi << 1)
        str_sp(m)
        thr = mov(m, 0)
        mov(m, 0)
        b(m)
    else:
        ldr_sp(m)                                             # remainder_mask
        ldr_sp(m)                                             # -shift
        rem0 = and_(m, res0, remainder_mask)
        res0 = asr(m, res0, exponent)                         # ASRS: N = the quotient's sign
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        bcc(m, res0 < 0)                                      # bmi
        ldr_sp(m)                                             # dst_multiplier
        lo, hi = smlal(m, lo, hi, dst_multiplier, res1)       # (left shift 0 on this path)
        low_bit = lsr(m, lo, 31)
        if res0 >= 0:
            res1 = orr(m, low_bit, hi << 1)
            ldr_sp(m)                                         # threshold
            thr0 = threshold
        else:
            ldr_sp(m)                                         # remainder_mask
            res1 = orr(m, low_bit, hi << 1)
            thr0 = threshold + 1
        rem1 = and_(m, remainder_mask, res1)
        if res0 < 0:
            ldr_sp(m)                                         # -shift
            ldr_sp(m)                                         # threshold + 1
        res1 = asr(m, res1, exponent)
        if res0 < 0:
            b(m)
        cmp(m, rem0, thr0)
        for _ in range(3):
            ldr_sp(m)                                         # remainder_mask, threshold, -shift
        str_sp(m)
        up = rem0 > thr0
        it(m, not up)
        if up:
            res0 = add(m, res0, 1)                            # result++;
        thr = threshold
        rem1_kept = rem1
    if dst_shift > 0:
        rem1_kept = 0
        thr = 0
    cmp(m, res1, 0)                                           # if (result < 0)
    bcc(m, res1 < 0)                                          # blt
    mov(m, thr)
    thr1 = thr
    if res1 < 0:
        thr1 = add(m, thr, 1)                                 #     threshold++;
        b(m)
    res1 = _round(m, res1, rem1_kept, thr1, False)
    b(m)
    if dst_shift > 0:
        return res0, res1, 0, 0, 0
    return res0, res1, remainder_mask, exponent, threshold


@kernel(inline=True)
def _second_pair_requantize(m, res0, res1, dst_multiplier, left_shift, exponent,
                            remainder_mask, threshold):
    """arm_nn_requantize of the odd row pair's accumulators (0x390), branch-free: the mask,
    exponent and threshold the first pair left (0 for a positive shift)."""
    ldr_sp(m)                                                 # LEFT_SHIFT(shift)
    ldr_sp(m)                                                 # dst_multiplier
    ldr_sp(m)
    val = lsl(m, res0, left_shift)
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, val, dst_multiplier)
    low_bit = lsr(m, lo, 31)
    res0 = orr(m, low_bit, hi << 1)
    ldr_sp(m)                                                 # remainder_mask
    rem0 = and_(m, remainder_mask, res0)
    res0 = asr(m, res0, exponent)                             # ASRS: N = the sign
    it(m, 1)                                                  # ite mi
    if res0 < 0:
        thr0 = add(m, threshold, 1)
    else:
        thr0 = mov(m, threshold)
    cmp(m, rem0, thr0)
    ldr_sp(m)
    hi = mov(m, 0)
    val = lsl(m, res1, left_shift)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, val, dst_multiplier)
    low_bit = lsr(m, lo, 31)
    ldr_sp(m)                                                 # remainder_mask
    res1 = orr(m, low_bit, hi << 1)
    rem1 = and_(m, remainder_mask, res1)
    up = rem0 > thr0
    it(m, not up)
    if up:
        res0 = add(m, res0, 1)                                # result++;
    res1 = asr(m, res1, exponent)                             # ASRS: N = the sign
    thr1 = threshold
    negative = res1 < 0
    it(m, not negative)
    if negative:
        thr1 = add(m, threshold, 1)                           # threshold++;
    cmp(m, rem1, thr1)
    ldr_sp(m)                                                 # dst_offset
    up = rem1 > thr1
    it(m, not up)
    if up:
        res1 = add(m, res1, 1)                                # result++;
    return res0, res1


@kernel
def _dsp_row_quads(m, lhs, rhs_ptr, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                   dst_shift, rhs_cols, row_loop_cnt, rhs_offset, activation_min,
                   activation_max, lhs_offset_s16x2):
    """for (i_row_loop_cnt = 0; i_row_loop_cnt < row_loop_cnt; ++i_row_loop_cnt)
    (row_loop_cnt > 0): set-up and rows.  Returns (rhs_ptr, bias)."""
    col_steps = rhs_cols >> 2                                 # rhs_cols / 4 (rhs_cols >= 0)
    lsl(m, row_loop_cnt, 3)                                   # 2 * row_loop_cnt int32s
    str_sp(m)
    ldr_sp(m)                                                 # rhs_cols
    str_sp(m)
    cmp(m, rhs_cols, 0)
    it(m, 1)                                                  # addlt: rhs_cols / 4 rounds to zero
    asr(m, rhs_cols, 2)
    ldr_sp(m)
    str_sp(m)
    rsb(m, rhs_cols, 0)                                       # rhs_cols % 4 ...
    and_(m, 0, 3)
    tail = and_(m, rhs_cols, 3)
    it(m, rhs_cols > 0)                                       # rsbpl: rhs_cols % 4 of rhs_cols <= 0
    if rhs_cols <= 0:
        tail = rsb(m, 0, 0)
    sub(m, tail, 2)                                           # (rhs_cols % 4) - 2
    str_sp(m)
    ldr_sp(m)                                                 # dst_shift
    ldr_sp(m)                                                 # rhs_cols
    str_sp(m)
    exponent = rsb(m, dst_shift, 0)                           # -shift
    cmp(m, rhs_cols, 0)
    str_sp(m)
    mov(m, exponent)
    one = mov(m, 1)
    remainder_mask = add(m, lsl(m, one, exponent), -1)        # (1 << exponent) - 1
    ldr_sp(m)
    str_sp(m)
    odd = and_(m, rhs_cols, 1)                                # rhs_cols % 2
    it(m, rhs_cols >= 0)                                      # rsblt
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    cmp(m, rhs_cols, 3)
    ldr_sp(m)                                                 # row_loop_cnt
    lsl(m, row_loop_cnt, 1)
    lsl(m, col_steps, 2)
    it(m, rhs_cols <= 3)                                      # movgt
    if rhs_cols > 3:
        mov(m, 4 * col_steps)
    mov(m, remainder_mask)
    threshold = asr(m, remainder_mask, 1)                     # remainder_mask >> 1
    str_sp(m)
    add(m, 2 * row_loop_cnt, 1)
    add(m, dst, 2 * row_loop_cnt + 1)
    str_sp(m)
    lsl(m, col_steps, 1)
    it(m, 1)                                                  # ite gt
    mov(m, 0)
    str_sp(m)
    mov(m, 0)                                                 # i_row_loop_cnt = 0
    str_sp(m)
    ldr_sp(m)                                                 # dst_shift
    ldr_sp(m)                                                 # threshold
    left_shift = bic(m, dst_shift, dst_shift >> 31)           # LEFT_SHIFT(shift)
    str_sp(m)
    add(m, dst, 2)
    str_sp(m)
    add(m, threshold, 1)
    ldr_sp(m)                                                 # lhs
    it(m, rhs_cols > 3)                                       # movle
    if rhs_cols <= 3:
        mov(m, 4)
    strd_sp(m)
    strd_sp(m)
    add(m, lhs, 4)
    str_sp(m)
    str_sp(m)
    tail_cols = tail == 2 or tail == 3
    for i in range(row_loop_cnt):
        # the even row pair: rows i and i + 2 * row_loop_cnt
        ldr_sp(m)                                             # bias
        cmp(m, bias, 0)                                       # if (bias)
        bcc(m, bias == 0)
        if bias != 0:
            ldr_sp(m)                                         # 2 * row_loop_cnt int32s
            res0 = ldr(m, bias)                               # res0 += *bias;
            res1 = ldr(m, bias + 8 * row_loop_cnt)            # res1 += bias[2 * row_loop_cnt];
            bias = add(m, bias, 4)                            # ++bias;
            str_sp(m)
            ldr_sp(m)                                         # rhs_cols
            cmp(m, rhs_cols, 3)
            bcc(m, rhs_cols <= 3)
        else:
            res0 = res1 = 0
            ldr_sp(m)                                         # rhs_cols
            ldr_sp(m)                                         # the NULL bias
            cmp(m, rhs_cols, 3)
            mov(m, 0)
            bcc(m, rhs_cols > 3)                              # bgt
        lhs_ptr = lhs
        if rhs_cols > 3:
            ldrd_sp(m)
            str_sp(m)
            ldr_sp(m)                                         # lhs
            ldr_sp(m)                                         # rhs_ptr
            ldr_sp(m)                                         # lhs_offset_s16x2
            str_sp(m)
            mov(m, 0)                                         # rhs_cols_idx = 0
            res0, res1 = _pair_columns(m, rhs_ptr, rhs_offset, lhs_ptr, lhs_offset_s16x2,
                                       res0, res1, col_steps)
            rhs_ptr += 2 * col_steps
            lhs_ptr += 4 * col_steps
            for _ in range(4):
                ldr_sp(m)
            add(m, rhs_ptr, 0)
            strd_sp(m)
            str_sp(m)
            ldr_sp(m)                                         # lhs_ptr
        else:
            ldr_sp(m)                                         # lhs_ptr = lhs
            b(m)
        ldr_sp(m)                                             # (rhs_cols % 4) - 2
        cmp(m, tail - 2, 1)
        bcc(m, not tail_cols)                                 # bhi
        if tail_cols:                                         # ((rhs_cols % 4) == 2) || ((rhs_cols % 4) == 3)
            ldr_sp(m)                                         # rhs_ptr
            ldr_sp(m)                                         # rhs_offset
            rhs_value0 = ldrsb(m, rhs_ptr)                    # rhs_ptr[0]
            rhs_value1 = ldrsb(m, rhs_ptr + rhs_offset)       # rhs_ptr[rhs_offset]
            ldr_sp(m)                                         # lhs_offset
            ldr_sp(m)
            add(m, rhs_ptr, 1)                                # ++rhs_ptr;
            rhs_ptr += 1
            str_sp(m)
            lhs_value_0 = add(m, ldrsb(m, lhs_ptr), lhs_offset)  # lhs_ptr[0] + lhs_offset
            lhs_value_1 = ldrsb(m, lhs_ptr + 1)
            lower0 = _low_nibble(m, rhs_value0)
            lhs_value_1 = add(m, lhs_value_1, lhs_offset)     # lhs_ptr[1] + lhs_offset
            higher0 = _high_nibble(m, rhs_value0)
            res0 = mla(m, lhs_value_0, lower0, res0)          # res0 += lhs_value_0 * lower0;
            res0 = mla(m, lhs_value_1, higher0, res0)         # res0 += lhs_value_1 * higher0;
            lower1 = _low_nibble(m, rhs_value1)
            res1 = mla(m, lhs_value_0, lower1, res1)          # res1 += lhs_value_0 * lower1;
            higher1 = _high_nibble(m, rhs_value1)
            add(m, lhs_ptr, 2)                                # lhs_ptr += 2;
            lhs_ptr += 2
            res1 = mla(m, lhs_value_1, higher1, res1)         # res1 += lhs_value_1 * higher1;
        ldr_sp(m)                                             # rhs_cols % 2
        cmp(m, odd, 1)                                        # if (rhs_cols % 2 == 1)
        bcc(m, odd == 1)
        if odd == 1:
            lhs_low = ldrsb(m, lhs_ptr)                       # (int8_t)lhs_ptr[0]
            ldr_sp(m)                                         # lhs_offset
            ldr_sp(m)                                         # rhs_ptr
            ldr_sp(m)                                         # lhs
            lhs_low = add(m, lhs_low, lhs_offset)             # ... + lhs_offset
            ldr_sp(m)                                         # rhs_offset
            rhs_0 = ldrsb(m, rhs_ptr)                         # rhs_ptr[0]
            rhs_1 = ldrsb(m, rhs_ptr + rhs_offset)            # rhs_ptr[rhs_offset]
            add(m, rhs_ptr, 1)                                # ++rhs_ptr;
            rhs_ptr += 1
            str_sp(m)
            lhs_high = ldrsb(m, lhs)                          # lhs_ptr = &lhs[0]; lhs_ptr[0]; ++lhs_ptr;
            lhs_ptr = lhs + 1
            str_sp(m)
            ldr_sp(m)                                         # lhs_offset
            rhs_low0 = _low_nibble(m, rhs_0)
            lhs_high = add(m, lhs_high, lhs_offset)           # ... + lhs_offset
            res0 = mla(m, lhs_low, rhs_low0, res0)            # res0 += lhs_low * rhs_low0;
            rhs_high0 = _high_nibble(m, rhs_0)
            rhs_low1 = _low_nibble(m, rhs_1)
            rhs_high1 = _high_nibble(m, rhs_1)
            spillover0 = mul(m, lhs_high, rhs_high0)          # spillover0 = lhs_high * rhs_high0;
            res1 = mla(m, lhs_low, rhs_low1, res1)            # res1 += lhs_low * rhs_low1;
            spillover1 = mul(m, lhs_high, rhs_high1)          # spillover1 = lhs_high * rhs_high1;
            b(m)
        else:
            ldr_sp(m)                                         # lhs_ptr = &lhs[0];
            str_sp(m)
            spillover1 = mov(m, 0)                            # spillover1 = 0;
            spillover0 = mov(m, spillover1)                   # spillover0 = 0;
            lhs_ptr = lhs
        res0, res1, remainder_mask_2, exponent_2, threshold_2 = _first_pair_requantize(
            m, res0, res1, dst_multiplier, dst_shift, left_shift, exponent, remainder_mask,
            threshold)
        ldr_sp(m)                                             # dst_offset
        res0 = add(m, res0, dst_offset)                       # res0 += dst_offset;
        res1 = add(m, res1, dst_offset)                       # res1 += dst_offset;
        ldr_sp(m)                                             # activation_min
        res0 = max_lt(m, res0, activation_min)                # res0 = MAX(res0, activation_min);
        res1 = max_lt(m, res1, activation_min)                # res1 = MAX(res1, activation_min);
        ldr_sp(m)                                             # activation_max
        res0 = min_ge(m, res0, activation_max)                # res0 = MIN(res0, activation_max);
        ldr_sp(m)
        strb(m, dst, res0)                                    # *dst = (int8_t)res0;
        ldr_sp(m)                                             # activation_max
        res1 = min_ge(m, res1, activation_max)                # res1 = MIN(res1, activation_max);
        ldr_sp(m)
        strb(m, dst + 2 * row_loop_cnt, res1)                 # *(dst + 2 * row_loop_cnt) = (int8_t)res1;
        dst += 1                                              # dst++;
        # the odd row pair: rows i + 1 ... as the C writes it, res0 = spillover0 ...
        res0 = spillover0
        res1 = spillover1
        ldr_sp(m)                                             # bias
        cbz(m, bias == 0)                                     # if (bias)
        if bias != 0:
            b0 = ldr(m, bias)                                 # res0 += *bias;
            res0 = add(m, res0, b0)
            ldr_sp(m)
            b1 = ldr(m, bias + 8 * row_loop_cnt)              # res1 += bias[2 * row_loop_cnt];
            res1 = add(m, res1, b1)
            mov(m, bias)
            bias = add(m, bias, 4)                            # ++bias;
            str_sp(m)
        ldr_sp(m)                                             # rhs_cols
        cmp(m, rhs_cols, 3)
        bcc(m, rhs_cols <= 3)
        if rhs_cols > 3:
            ldrd_sp(m)                                        # rhs_ptr, lhs_ptr
            str_sp(m)
            ldr_sp(m)                                         # lhs_offset_s16x2
            str_sp(m)
            mov(m, 0)                                         # rhs_cols_idx = 0
            res0, res1 = _pair_columns(m, rhs_ptr, rhs_offset, lhs_ptr, lhs_offset_s16x2,
                                       res0, res1, col_steps)
            rhs_ptr += 2 * col_steps
            lhs_ptr += 4 * col_steps
            ldr_sp(m)
            ldr_sp(m)
            add(m, rhs_ptr, 0)
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            ldrd_sp(m)
            add(m, lhs_ptr, 0)
            str_sp(m)
        ldr_sp(m)                                             # (rhs_cols % 4) - 2
        cmp(m, tail - 2, 1)
        bcc(m, not tail_cols)                                 # bhi
        if tail_cols:
            ldr_sp(m)                                         # rhs_ptr
            ldr_sp(m)                                         # rhs_offset
            rhs_value0 = ldrsb(m, rhs_ptr)                    # rhs_ptr[0]
            rhs_value1 = ldrsb(m, rhs_ptr + rhs_offset)       # rhs_ptr[rhs_offset]
            ldr_sp(m)                                         # lhs_offset
            add(m, rhs_ptr, 1)                                # ++rhs_ptr;
            rhs_ptr += 1
            str_sp(m)
            ldr_sp(m)                                         # lhs_ptr
            lhs_value_0 = ldrsb(m, lhs_ptr)
            lhs_value_1 = ldrsb(m, lhs_ptr + 1)
            lhs_value_0 = add(m, lhs_value_0, lhs_offset)     # lhs_ptr[0] + lhs_offset
            ldr_sp(m)                                         # lhs_offset
            lhs_value_1 = add(m, lhs_value_1, lhs_offset)     # lhs_ptr[1] + lhs_offset
            lower0 = _low_nibble(m, rhs_value0)
            res0 = mla(m, lhs_value_0, lower0, res0)          # res0 += lhs_value_0 * lower0;
            higher0 = _high_nibble(m, rhs_value0)
            res0 = mla(m, lhs_value_1, higher0, res0)         # res0 += lhs_value_1 * higher0;
            lower1 = _low_nibble(m, rhs_value1)
            res1 = mla(m, lhs_value_0, lower1, res1)          # res1 += lhs_value_0 * lower1;
            higher1 = _high_nibble(m, rhs_value1)
            res1 = mla(m, lhs_value_1, higher1, res1)         # res1 += lhs_value_1 * higher1;
        res0, res1 = _second_pair_requantize(m, res0, res1, dst_multiplier, left_shift,
                                             exponent_2, remainder_mask_2, threshold_2)
        res0 = add(m, res0, dst_offset)                       # res0 += dst_offset;
        res1 = add(m, res1, dst_offset)                       # res1 += dst_offset;
        ldr_sp(m)                                             # activation_min
        res0 = max_lt(m, res0, activation_min)                # res0 = MAX(res0, activation_min);
        cmp(m, activation_min, res1)                          # res1 = MAX(res1, activation_min);
        raise_ = activation_min < res1
        it(m, not raise_)
        if raise_:
            mov(m, res1)
        else:
            res1 = activation_min
        ldr_sp(m)                                             # activation_max
        res0 = min_ge(m, res0, activation_max)                # res0 = MIN(res0, activation_max);
        ldr_sp(m)
        strb(m, dst, res0)                                    # *dst = (int8_t)res0;
        ldr_sp(m)                                             # activation_max
        res1 = min_ge(m, res1, activation_max)                # res1 = MIN(res1, activation_max);
        ldr_sp(m)
        strb(m, dst + 2 * row_loop_cnt, res1)                 # *(dst + 2 * row_loop_cnt) = (int8_t)res1;
        dst += 1                                              # dst++;
        str_sp(m)
        mov(m, dst)
        ldr_sp(m)                                             # i_row_loop_cnt
        add(m, dst, 2)
        str_sp(m)
        ldr_sp(m)                                             # row_loop_cnt
        add(m, i, 1)
        cmp(m, row_loop_cnt, i + 1)
        str_sp(m)
        bcc(m, i + 1 < row_loop_cnt)                          # bgt
    return rhs_ptr, bias


@kernel
def _dsp_rows(m, lhs, rhs_ptr, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
              rhs_cols, rhs_rows, row_loop_cnt, rhs_offset, activation_min, activation_max,
              lhs_offset_s16x2):
    """for (i_row_loop_cnt = 0; i_row_loop_cnt < rhs_rows % 4; ++i_row_loop_cnt) (0x44c)."""
    rsb(m, rhs_rows, 0)                                       # rhs_rows % 4 ...
    and_(m, 0, 3)
    left = and_(m, rhs_rows, 3)
    it(m, rhs_rows > 0)                                       # rsbpl
    cmp(m, left, 0)
    str_sp(m)
    bcc(m, left <= 0)                                         # ble
    if left <= 0:
        return
    col_steps = rhs_cols >> 2
    tail = rhs_cols & 3
    odd = rhs_cols & 1
    ldr_sp(m)                                                 # row_loop_cnt
    ldr_sp(m)                                                 # rhs_cols
    ldr_sp(m)                                                 # lhs
    ldr_sp(m)                                                 # bias
    lsl(m, row_loop_cnt, 3)
    str_sp(m)
    mov(m, rhs_cols)
    cmp(m, rhs_cols, 0)
    ldr_sp(m)
    add(m, dst, 2 * row_loop_cnt)
    ldr_sp(m)
    it(m, 1)                                                  # addlt: rhs_cols >= 0
    rsb(m, rhs_cols, 0)
    and_(m, 0, 3)
    and_(m, rhs_cols, 3)
    it(m, rhs_cols > 0)                                       # rsbpl
    sub(m, tail, 2)                                           # (rhs_cols % 4) - 2
    str_sp(m)
    ldr_sp(m)                                                 # dst_shift
    ldr_sp(m)                                                 # rhs_cols
    exponent = rsb(m, dst_shift, 0)                           # -shift
    cmp(m, rhs_cols, 0)
    str_sp(m)
    mov(m, exponent)
    one = mov(m, 1)
    remainder_mask = add(m, lsl(m, one, exponent), -1)        # (1 << exponent) - 1
    ldr_sp(m)
    str_sp(m)
    and_(m, rhs_cols, 1)                                      # rhs_cols % 2
    it(m, rhs_cols >= 0)                                      # rsblt
    str_sp(m)
    ldr_sp(m)
    asr(m, rhs_cols, 2)                                       # rhs_cols / 4
    cmp(m, rhs_cols, 3)
    lsl(m, col_steps, 1)
    it(m, rhs_cols > 3)                                       # movle
    if rhs_cols <= 3:
        mov(m, 2)
    str_sp(m)
    lsl(m, col_steps, 2)
    it(m, rhs_cols > 3)                                       # movle
    if rhs_cols <= 3:
        mov(m, 4)
    str_sp(m)
    threshold = asr(m, remainder_mask, 1)                     # remainder_mask >> 1
    str_sp(m)
    ldr_sp(m)                                                 # dst_shift
    mov(m, 0)                                                 # i_row_loop_cnt = 0
    left_shift = bic(m, dst_shift, dst_shift >> 31)           # LEFT_SHIFT(shift)
    mov(m, 0)
    ldr_sp(m)                                                 # rhs_ptr
    str_sp(m)
    spillover0 = mov(m, 0)                                    # spillover0 = 0;
    dst += 2 * row_loop_cnt
    lhs_ptr = lhs
    for i in range(left):
        cmp(m, bias, 0)                                       # if (bias)
        bcc(m, bias == 0)
        if bias != 0:
            ldr_sp(m)
            b0 = ldr(m, bias + 8 * row_loop_cnt)              # res0 += bias[2 * row_loop_cnt];
            bias = add(m, bias, 4)                            # ++bias;
            res0 = add(m, b0, spillover0)
        else:
            res0 = mov(m, spillover0)
            b(m)
        ldr_sp(m)                                             # rhs_cols
        cmp(m, rhs_cols, 3)
        bcc(m, rhs_cols <= 3)
        if rhs_cols > 3:
            ldr_sp(m)                                         # rhs_offset
            strd_sp(m)
            add(m, rhs_ptr, rhs_offset)
            mov(m, lhs_ptr)
            mov(m, 0)                                         # rhs_cols_idx = 0
            for idx in range(col_steps):
                in_0 = ldrh(m, rhs_ptr + rhs_offset)          # arm_nn_read_s8x2(&rhs_ptr[rhs_offset])
                lhs_high = ldr(m, lhs_ptr)                    # arm_nn_read_s8x4_ia(&lhs_ptr)
                lhs_low = sxtab16(m, lhs_offset_s16x2, lhs_high, 0)
                in_0 = bfi(m, 0, in_0, 0, 16)
                hi_0 = lsl(m, in_0, 8)
                lo_0 = uxtb(m, in_0, 0)
                hi_0 = and_(m, hi_0, 0xFF0000)
                in_a = orr(m, hi_0, lo_0)
                low = lsl(m, in_a, 4)
                low = sxtb16(m, low, 0)
                high = sxtb16(m, in_a, 0)
                low = ror(m, low, 4)
                high = ror(m, high, 4)
                rhs_high0 = sxtb16(m, low, 0)                 # read_and_pad_s4(.., &rhs_high0, &rhs_low0)
                rhs_low0 = sxtb16(m, high, 0)
                lhs_high = sxtab16(m, lhs_offset_s16x2, lhs_high, 8)
                res0 = smlad(m, lhs_low, rhs_high0, res0)     # res0 = SMLAD(lhs_low, rhs_high0, res0);
                res0 = smlad(m, lhs_high, rhs_low0, res0)     # res0 = SMLAD(lhs_high, rhs_low0, res0);
                rhs_ptr += 2
                lhs_ptr += 4
                add(m, idx, 1)
                cmp(m, idx + 1, col_steps)
                bcc(m, idx + 1 < col_steps)                   # blt
            ldr_sp(m)
            ldrd_sp(m)
            add(m, rhs_ptr, 0)
            ldr_sp(m)
            add(m, lhs_ptr, 0)
        ldr_sp(m)                                             # (rhs_cols % 4) - 2
        cmp(m, tail - 2, 1)
        bcc(m, not (tail == 2 or tail == 3))                  # bhi
        if tail == 2 or tail == 3:
            ldr_sp(m)                                         # rhs_offset
            lhs_value_0 = ldrsb(m, lhs_ptr)
            rhs_value0 = ldrsb(m, rhs_ptr + rhs_offset)       # rhs_ptr[rhs_offset]
            ldr_sp(m)                                         # lhs_offset
            lhs_value_1 = ldrsb(m, lhs_ptr + 1)
            lower0 = _low_nibble(m, rhs_value0)
            lhs_value_0 = add(m, lhs_value_0, lhs_offset)     # lhs_ptr[0] + lhs_offset
            lhs_value_1 = add(m, lhs_value_1, lhs_offset)     # lhs_ptr[1] + lhs_offset
            res0 = mla(m, lhs_value_0, lower0, res0)          # res0 += lhs_value_0 * lower0;
            higher0 = _high_nibble(m, rhs_value0)
            add(m, rhs_ptr, 1)                                # ++rhs_ptr;
            rhs_ptr += 1
            add(m, lhs_ptr, 2)                                # lhs_ptr += 2;
            lhs_ptr += 2
            res0 = mla(m, higher0, lhs_value_1, res0)         # res0 += lhs_value_1 * higher0;
        ldr_sp(m)                                             # rhs_cols % 2
        cmp(m, odd, 1)
        spill = odd == 1 and i % 2 == 0                       # (rhs_cols % 2 == 1) && (i_row_loop_cnt % 2 == 0)
        bcc(m, odd == 1)
        if odd == 1:
            tst(m, i, 1)
            bcc(m, i % 2 != 0)
        if spill:
            lhs_low = ldrsb(m, lhs_ptr)                       # (int8_t)lhs_ptr[0]
            ldr_sp(m)                                         # lhs_offset
            ldr_sp(m)                                         # lhs
            ldr_sp(m)                                         # lhs_offset
            lhs_high = ldrsb(m, lhs)                          # lhs_ptr = &lhs[0]; lhs_ptr[0]; ++lhs_ptr;
            lhs_ptr = lhs + 1
            lhs_low = add(m, lhs_low, lhs_offset)
            ldr_sp(m)                                         # rhs_offset
            rhs_0 = ldrsb(m, rhs_ptr + rhs_offset)            # rhs_ptr[rhs_offset]
            lhs_high = add(m, lhs_high, lhs_offset)
            rhs_low0 = _low_nibble(m, rhs_0)
            rhs_high0 = _high_nibble(m, rhs_0)
            add(m, rhs_ptr, 1)                                # ++rhs_ptr;
            rhs_ptr += 1
            res0 = mla(m, lhs_low, rhs_low0, res0)            # res0 += lhs_low * rhs_low0;
            spillover0 = mul(m, lhs_high, rhs_high0)          # spillover0 = lhs_high * rhs_high0;
            b(m)
        else:
            ldr_sp(m)                                         # lhs_ptr = &lhs[0];
            spillover0 = mov(m, 0)                            # spillover0 = 0;
            lhs_ptr = lhs
        # res0 = arm_nn_requantize(res0, dst_multiplier, dst_shift);
        ldr_sp(m)                                             # LEFT_SHIFT(shift)
        val = lsl(m, res0, left_shift)
        ldr_sp(m)                                             # dst_multiplier
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        lo, hi = smlal(m, lo, hi, val, dst_multiplier)
        ldr_sp(m)                                             # dst_shift
        low_bit = lsr(m, lo, 31)
        cmp(m, dst_shift, 0)
        res0 = orr(m, low_bit, hi << 1)
        bcc(m, dst_shift > 0)                                 # bgt: no rounding
        if dst_shift <= 0:
            ldr_sp(m)                                         # remainder_mask
            remainder = and_(m, res0, remainder_mask)
            ldr_sp(m)                                         # -shift
            res0 = asr(m, res0, exponent)                     # ASRS: N = the sign
            negative = res0 < 0
            it(m, 1 if negative else 2)                       # ITET MI
            ldr_sp(m)                                         # threshold (LDRMI or LDRPL)
            thr = threshold
            if negative:
                thr = add(m, threshold, 1)                    # threshold + 1
            res0 = _round(m, res0, remainder, thr, True)
        ldr_sp(m)                                             # dst_offset
        res0 = add(m, res0, dst_offset)                       # res0 += dst_offset;
        ldr_sp(m)                                             # activation_min
        res0 = max_lt(m, res0, activation_min)                # res0 = MAX(res0, activation_min);
        ldr_sp(m)                                             # activation_max
        res0 = min_ge(m, res0, activation_max)                # res0 = MIN(res0, activation_max);
        strb(m, dst, res0)                                    # *(dst + 2 * row_loop_cnt) = (int8_t)res0;
        dst += 1                                              # dst++;
        ldr_sp(m)                                             # rhs_rows % 4
        add(m, i, 1)
        cmp(m, left, i + 1)
        bcc(m, i + 1 < left)                                  # bne


@kernel
def _dsp(m, lhs, packed_rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
         rhs_cols, rhs_rows, activation_min, activation_max):
    """The ARM_MATH_DSP body after the frame."""
    str_sp(m)                                                 # lhs
    ldr_sp(m)                                                 # rhs_rows
    str_sp(m)                                                 # packed_rhs
    cmp(m, rhs_rows, 0)
    mov(m, dst)
    it(m, 1)                                                  # ite lt: rhs_rows / 4
    if rhs_rows < 0:
        rounded = add(m, rhs_rows, 3)
    else:
        rounded = mov(m, rhs_rows)
    str_sp(m)                                                 # bias
    row_loop_cnt = asr(m, rounded, 2)                         # const int32_t row_loop_cnt = rhs_rows / 4;
    ldr_sp(m)                                                 # lhs_offset
    str_sp(m)
    lhs_offset_s16 = sxth(m, lhs_offset, 0)                   # (int16_t)lhs_offset
    lhs_offset_s16x2 = pkhbt(m, lhs_offset_s16, lhs_offset_s16, 16)
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_rows, 3)
    rhs_offset = mul(m, rhs_cols, row_loop_cnt)               # const int rhs_offset = rhs_cols * row_loop_cnt;
    str_sp(m)
    bcc(m, rhs_rows <= 3)                                     # ble: no group of four rows
    rhs_ptr = packed_rhs
    if rhs_rows > 3:
        rhs_ptr, bias = _dsp_row_quads(m, lhs, rhs_ptr, bias, dst, lhs_offset, dst_offset,
                                       dst_multiplier, dst_shift, rhs_cols, row_loop_cnt,
                                       rhs_offset, activation_min, activation_max,
                                       lhs_offset_s16x2)
        dst += 2 * row_loop_cnt                              # dst++ twice per iteration
        ldr_sp(m)                                             # rhs_rows
        ldr_sp(m)
        ldr_sp(m)                                             # lhs_offset_s16x2
        ldrd_sp(m)
        cmp(m, rhs_rows, 3)
        it(m, 1)                                              # ite gt
        mov(m, 2 * row_loop_cnt)
        add(m, dst, 0)
    _dsp_rows(m, lhs, rhs_ptr, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
              rhs_cols, rhs_rows, row_loop_cnt, rhs_offset, activation_min, activation_max,
              lhs_offset_s16x2)


# --- plain C ----------------------------------------------------------------------------

@kernel(inline=True)
def _scalar_pair_columns(m, rhs_ptr, rhs_offset, lhs_ptr, lhs_offset, res0, res1, col_steps):
    """for (rhs_cols_idx = 0; rhs_cols_idx < rhs_cols / 2; ++rhs_cols_idx) of a row pair
    (col_steps > 0): the index is recomputed from the rhs pointer every step."""
    for idx in range(col_steps):
        mov(m, rhs_ptr)
        lhs_low = ldrsb(m, lhs_ptr)                           # (int8_t)lhs_ptr[0]
        rhs_0 = ldrsb(m, rhs_ptr)                             # rhs_ptr[0]
        rhs_1 = ldrsb(m, rhs_ptr + rhs_offset)                # rhs_ptr[rhs_offset]
        lhs_low = add(m, lhs_low, lhs_offset)                 # ... + lhs_offset
        res0 = mla(m, lhs_low, _low_nibble(m, rhs_0), res0)   # res0 += lhs_low * rhs_low0;
        res1 = mla(m, lhs_low, _low_nibble(m, rhs_1), res1)   # res1 += lhs_low * rhs_low1;
        add(m, rhs_ptr, 2)
        lhs_high = ldrsb(m, lhs_ptr + 1)                      # (int8_t)lhs_ptr[1]
        sub(m, idx + 1, 0)                                    # the index
        lhs_high = add(m, lhs_high, lhs_offset)               # ... + lhs_offset
        rhs_high0 = _high_nibble(m, rhs_0)
        rhs_high1 = _high_nibble(m, rhs_1)
        cmp(m, col_steps, idx + 1)
        res0 = mla(m, lhs_high, rhs_high0, res0)              # res0 += lhs_high * rhs_high0;
        res1 = mla(m, lhs_high, rhs_high1, res1)              # res1 += lhs_high * rhs_high1;
        add(m, lhs_ptr, 2)
        rhs_ptr += 1                                          # ++rhs_ptr;
        lhs_ptr += 2                                          # lhs_ptr += 2;
        bcc(m, idx + 1 < col_steps)                           # bgt
    return res0, res1


@kernel(inline=True)
def _scalar_columns_done(m, rhs_cols):
    """After a row pair's column loop: rhs_ptr += MAX(rhs_cols / 2, 1) as gcc computes it."""
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_cols, 1)
    it(m, 1)                                                  # ite gt
    mov(m, 0)
    add(m, 0, 0)


@kernel
def _scalar_row_quads(m, lhs, rhs_ptr, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                      dst_shift, rhs_cols, row_loop_cnt, rhs_offset, activation_min,
                      activation_max):
    """for (i_row_loop_cnt = 0; i_row_loop_cnt < row_loop_cnt; ++i_row_loop_cnt)
    (row_loop_cnt > 0): set-up and rows.  Returns (rhs_ptr, bias)."""
    col_steps = (rhs_cols + ((rhs_cols >> 31) & 1)) >> 1      # rhs_cols / 2
    odd = rhs_cols & 1                                        # rhs_cols % 2 (rhs_cols >= 0)
    mov(m, rhs_cols)
    cmp(m, rhs_cols, 0)
    mov(m, 0)
    add(m, rhs_cols, (rhs_cols >> 31) & 1)
    str_sp(m)                                                 # i_row_loop_cnt = 0
    mov(m, rhs_cols)
    mov(m, 1)
    and_(m, rhs_cols, 1)
    mov(m, odd)
    it(m, rhs_cols >= 0)                                      # rsblt
    str_sp(m)
    ldr_sp(m)                                                 # rhs_cols
    bic(m, 0, 1)                                              # 2 * (rhs_cols / 2)
    cmp(m, rhs_cols, 1)
    ldr_sp(m)                                                 # dst_shift
    asr(m, 0, 1)                                              # rhs_cols / 2
    exponent = rsb(m, dst_shift, 0)                           # -shift
    lsl(m, row_loop_cnt, 1)
    add(m, 2 * row_loop_cnt, 1)
    add(m, dst, 2 * row_loop_cnt + 1)
    str_sp(m)
    mov(m, row_loop_cnt)
    it(m, rhs_cols > 1)                                       # movle
    if rhs_cols <= 1:
        mov(m, 2)
    lsl(m, row_loop_cnt, 3)
    mask_1 = lsl(m, 1, exponent)
    str_sp(m)
    remainder_mask = sub(m, mask_1, 1)                        # (1 << exponent) - 1
    ldr_sp(m)                                                 # lhs
    add(m, dst, 2)
    add(m, lhs, 2 * col_steps)
    str_sp(m)
    threshold = asr(m, remainder_mask, 1)                     # remainder_mask >> 1
    str_sp(m)
    ldr_sp(m)                                                 # dst_shift
    str_sp(m)
    left_shift = bic(m, dst_shift, dst_shift >> 31)           # LEFT_SHIFT(shift)
    str_sp(m)
    add(m, rhs_offset, -1)
    str_sp(m)
    add(m, lhs, 1)
    strd_sp(m)
    ldr_sp(m)                                                 # dst_offset
    for _ in range(4):
        str_sp(m)
    for i in range(row_loop_cnt):
        # the even row pair
        ldr_sp(m)                                             # bias
        cmp(m, bias, 0)                                       # if (bias)
        bcc(m, bias == 0)
        if bias != 0:
            ldr_sp(m)
            res0 = ldr(m, bias)                               # res0 += *bias;
            res1 = ldr(m, bias + 8 * row_loop_cnt)            # res1 += bias[2 * row_loop_cnt];
            bias = add(m, bias, 4)                            # ++bias;
            str_sp(m)
        else:
            ldr_sp(m)                                         # the NULL bias
            res0 = 0
            res1 = mov(m, res0)
            b(m)
        ldr_sp(m)                                             # rhs_cols
        cmp(m, rhs_cols, 1)
        ldr_sp(m)                                             # lhs
        bcc(m, rhs_cols <= 1)
        lhs_ptr = lhs
        if rhs_cols > 1:
            add(m, lhs, 2)
            ldr_sp(m)                                         # rhs_offset - 1
            add(m, rhs_ptr, -1)
            add(m, rhs_ptr, rhs_offset - 1)
            res0, res1 = _scalar_pair_columns(m, rhs_ptr, rhs_offset, lhs_ptr, lhs_offset,
                                              res0, res1, col_steps)
            rhs_ptr += col_steps
            lhs_ptr += 2 * col_steps
            _scalar_columns_done(m, rhs_cols)
            ldr_sp(m)                                         # lhs_ptr
        ldr_sp(m)                                             # rhs_cols % 2
        cmp(m, odd, 1)                                        # if (rhs_cols % 2 == 1)
        bcc(m, odd == 1)
        if odd == 1:
            ldr_sp(m)                                         # rhs_offset
            ldr_sp(m)                                         # lhs
            rhs_0 = ldrsb(m, rhs_ptr)                         # rhs_ptr[0]
            lhs_low = ldrsb(m, lhs_ptr)                       # (int8_t)lhs_ptr[0]
            rhs_1 = ldrsb(m, rhs_ptr + rhs_offset)            # rhs_ptr[rhs_offset]
            lhs_high = ldrsb(m, lhs)                          # lhs_ptr = &lhs[0]; (int8_t)lhs_ptr[0]
            rhs_low0 = _low_nibble(m, rhs_0)
            lhs_low = add(m, lhs_low, lhs_offset)             # ... + lhs_offset
            lhs_high = add(m, lhs_high, lhs_offset)
            res0 = mla(m, lhs_low, rhs_low0, res0)            # res0 += lhs_low * rhs_low0;
            rhs_high0 = _high_nibble(m, rhs_0)
            rhs_low1 = _low_nibble(m, rhs_1)
            rhs_high1 = _high_nibble(m, rhs_1)
            spillover0 = mul(m, lhs_high, rhs_high0)          # spillover0 = lhs_high * rhs_high0;
            spillover1 = mul(m, lhs_high, rhs_high1)          # spillover1 = lhs_high * rhs_high1;
            res1 = mla(m, lhs_low, rhs_low1, res1)            # res1 += lhs_low * rhs_low1;
            ldr_sp(m)                                         # ++lhs_ptr;
            add(m, rhs_ptr, 1)                                # ++rhs_ptr;
            rhs_ptr += 1
            lhs_ptr = lhs + 1
            b(m)
        else:
            spillover1 = mov(m, 0)                            # spillover1 = 0;
            spillover0 = mov(m, spillover1)                   # spillover0 = 0;
            ldr_sp(m)                                         # lhs_ptr = &lhs[0];
            lhs_ptr = lhs
        # res0 = arm_nn_requantize(res0, ...); res1 = arm_nn_requantize(res1, ...);
        ldr_sp(m)                                             # LEFT_SHIFT(shift)
        hi = mov(m, 0)
        val = lsl(m, res0, left_shift)
        lo = mov(m, 1 << 30)
        ldr_sp(m)                                             # dst_multiplier
        lo, hi = smlal(m, lo, hi, val, dst_multiplier)
        ldr_sp(m)                                             # dst_shift
        low_bit = lsr(m, lo, 31)
        cmp(m, dst_shift, 0)
        res0 = orr(m, low_bit, hi << 1)
        bcc(m, dst_shift <= 0)                                # ble
        kept = 0                                              # what [sp, #8] holds after it
        if dst_shift > 0:                                     # exponent 0: no rounding fires
            ldr_sp(m)
            cmp(m, res0, 0)
            val = lsl(m, res1, left_shift)
            bcc(m, res0 < 0)                                  # blt
            if res0 >= 0:
                lo = mov(m, 1 << 30)
                hi = mov(m, 0)
                ldr_sp(m)                                     # dst_multiplier
                lo, hi = smlal(m, lo, hi, dst_multiplier, val)
                low_bit = lsr(m, lo, 31)
                res1 = orr(m, low_bit, hi << 1)               # ORRS: N = the sign
                bcc(m, res1 < 0)                              # bmi
                if res1 >= 0:
                    mov(m, 0)
                    mov(m, 0)
                    str_sp(m)
                else:
                    for _ in range(4):
                        mov(m, 0)
                    str_sp(m)
                    thr1 = add(m, 0, 1)                       # threshold++
                    b(m)
                    res1 = _round(m, res1, 0, thr1, True)
                    b(m)
            else:
                hi = mov(m, 0)
                lo = mov(m, 1 << 30)
                mov(m, 0)
                ldr_sp(m)                                     # dst_multiplier
                lo, hi = smlal(m, lo, hi, dst_multiplier, val)
                low_bit = lsr(m, lo, 31)
                res1 = orr(m, low_bit, hi << 1)
                for _ in range(3):
                    mov(m, 0)
                b(m)
                cmp(m, res1, 0)
                bcc(m, res1 < 0)                              # blt
                str_sp(m)
                thr1 = 0
                if res1 < 0:
                    thr1 = add(m, 0, 1)                       # threshold++
                    b(m)
                res1 = _round(m, res1, 0, thr1, True)
                b(m)
        else:
            ldr_sp(m)                                         # remainder_mask
            ldr_sp(m)                                         # -shift
            rem0 = and_(m, res0, remainder_mask)
            res0 = asr(m, res0, exponent)                     # ASRS: N = the quotient's sign
            str_sp(m)                                         # rem0 in [sp, #8]
            hi = mov(m, 0)
            lo = mov(m, 1 << 30)
            bcc(m, res0 < 0)                                  # bmi
            if res0 >= 0:
                ldr_sp(m)                                     # dst_multiplier
                lo, hi = smlal(m, lo, hi, dst_multiplier, res1)  # (left shift 0 on this path)
                low_bit = lsr(m, lo, 31)
                res1 = orr(m, low_bit, hi << 1)
                ldr_sp(m)                                     # threshold
                rem1 = and_(m, remainder_mask, res1)
                res1 = asr(m, res1, exponent)
                thr0 = threshold
            else:
                ldr_sp(m)                                     # dst_multiplier
                lo, hi = smlal(m, lo, hi, dst_multiplier, res1)
                ldr_sp(m)                                     # threshold
                low_bit = lsr(m, lo, 31)
                thr0 = add(m, threshold, 1)                   # threshold + 1
                ldr_sp(m)                                     # remainder_mask
                res1 = orr(m, low_bit, hi << 1)
                rem1 = and_(m, remainder_mask, res1)
                ldr_sp(m)                                     # -shift
                res1 = asr(m, res1, exponent)
                b(m)
            ldr_sp(m)                                         # rem0
            cmp(m, rem0, thr0)                                # if (remainder > threshold)
            ldr_sp(m)                                         # threshold
            up = rem0 > thr0
            it(m, not up)
            if up:
                res0 = add(m, res0, 1)                        #     result++;
            ldrd_sp(m)                                        # -shift, remainder_mask
            cmp(m, res1, 0)                                   # if (result < 0)
            bcc(m, res1 < 0)                                  # blt
            str_sp(m)                                         # threshold in [sp, #8]
            thr1 = threshold
            if res1 < 0:
                thr1 = add(m, threshold, 1)                   #     threshold++;
                b(m)
            res1 = _round(m, res1, rem1, thr1, True)
            b(m)
            kept = threshold
        ldr_sp(m)                                             # activation_min
        res0 = add(m, res0, dst_offset)                       # res0 += dst_offset;
        cmp(m, res0, activation_min)                          # res0 = MAX(res0, activation_min);
        res1 = add(m, res1, dst_offset)                       # res1 += dst_offset;
        clamp = res0 < activation_min
        it(m, not clamp)
        if clamp:
            res0 = mov(m, activation_min)
        res1 = max_lt(m, res1, activation_min)                # res1 = MAX(res1, activation_min);
        ldr_sp(m)                                             # activation_max
        res0 = min_ge(m, res0, activation_max)                # res0 = MIN(res0, activation_max);
        res1 = min_ge(m, res1, activation_max)                # res1 = MIN(res1, activation_max);
        ldr_sp(m)
        strb(m, dst, res0)                                    # *dst = (int8_t)res0;
        ldr_sp(m)
        strb(m, dst + 2 * row_loop_cnt, res1)                 # *(dst + 2 * row_loop_cnt) = (int8_t)res1;
        dst += 1                                              # dst++;
        # the odd row pair
        res0 = spillover0
        res1 = spillover1
        ldr_sp(m)                                             # bias
        cbz(m, bias == 0)                                     # if (bias)
        if bias != 0:
            res0 = add(m, res0, ldr(m, bias))                 # res0 += *bias;
            ldr_sp(m)
            res1 = add(m, res1, ldr(m, bias + 8 * row_loop_cnt))  # res1 += bias[2 * row_loop_cnt];
            mov(m, bias)
            bias = add(m, bias, 4)                            # ++bias;
            str_sp(m)
        ldr_sp(m)                                             # rhs_cols
        cmp(m, rhs_cols, 1)
        bcc(m, rhs_cols <= 1)
        if rhs_cols > 1:
            ldr_sp(m)                                         # rhs_offset - 1
            strd_sp(m)
            add(m, lhs_ptr, 2)
            add(m, rhs_ptr, -1)
            add(m, rhs_ptr, rhs_offset - 1)
            res0, res1 = _scalar_pair_columns(m, rhs_ptr, rhs_offset, lhs_ptr, lhs_offset,
                                              res0, res1, col_steps)
            rhs_ptr += col_steps
            lhs_ptr += 2 * col_steps
            ldrd_sp(m)
            _scalar_columns_done(m, rhs_cols)
        ldr_sp(m)                                             # LEFT_SHIFT(shift)
        hi = mov(m, 0)
        val = lsl(m, res0, left_shift)
        lo = mov(m, 1 << 30)
        ldr_sp(m)                                             # dst_multiplier
        lo, hi = smlal(m, lo, hi, val, dst_multiplier)
        low_bit = lsr(m, lo, 31)
        res0 = orr(m, low_bit, hi << 1)
        mask_k = remainder_mask if dst_shift <= 0 else 0
        exp_k = exponent if dst_shift <= 0 else 0
        ldr_sp(m)                                             # threshold (or 0) in [sp, #8]
        rem0 = and_(m, mask_k, res0)
        res0 = asr(m, res0, exp_k)                            # ASRS: N = the sign
        thr0 = kept
        negative = res0 < 0
        it(m, not negative)
        if negative:
            thr0 = add(m, kept, 1)                            # threshold++
        cmp(m, rem0, thr0)
        ldr_sp(m)                                             # LEFT_SHIFT(shift)
        hi = mov(m, 0)
        val = lsl(m, res1, left_shift)
        lo = mov(m, 1 << 30)
        ldr_sp(m)                                             # dst_multiplier
        up = rem0 > thr0
        it(m, not up)
        if up:
            res0 = add(m, res0, 1)                            # result++;
        lo, hi = smlal(m, lo, hi, val, dst_multiplier)
        low_bit = lsr(m, lo, 31)
        res1 = orr(m, low_bit, hi << 1)
        rem1 = and_(m, mask_k, res1)
        res1 = asr(m, res1, exp_k)                            # ASRS: N = the sign
        bcc(m, res1 >= 0)                                     # bpl
        thr1 = kept
        if res1 < 0:                                          # threshold++, in its stack slot
            ldr_sp(m)
            thr1 = add(m, kept, 1)
            str_sp(m)
        ldr_sp(m)                                             # threshold
        res0 = add(m, res0, dst_offset)                       # res0 += dst_offset;
        cmp(m, rem1, thr1)
        ldr_sp(m)                                             # activation_min
        up = rem1 > thr1
        it(m, not up)
        if up:
            res1 = add(m, res1, 1)                            # result++;
        res0 = max_lt(m, res0, activation_min)                # res0 = MAX(res0, activation_min);
        res1 = add(m, res1, dst_offset)                       # res1 += dst_offset;
        res1 = max_lt(m, res1, activation_min)                # res1 = MAX(res1, activation_min);
        ldr_sp(m)                                             # activation_max
        ldr_sp(m)
        res0 = min_ge(m, res0, activation_max)                # res0 = MIN(res0, activation_max);
        res1 = min_ge(m, res1, activation_max)                # res1 = MIN(res1, activation_max);
        strb(m, dst, res0)                                    # *dst = (int8_t)res0;
        ldr_sp(m)
        ldr_sp(m)                                             # i_row_loop_cnt
        strb(m, dst + 2 * row_loop_cnt, res1)                 # *(dst + 2 * row_loop_cnt) = (int8_t)res1;
        dst += 1                                              # dst++;
        str_sp(m)
        ldr_sp(m)                                             # row_loop_cnt
        add(m, i, 1)
        add(m, dst, 2)
        cmp(m, row_loop_cnt, i + 1)
        str_sp(m)
        str_sp(m)
        bcc(m, i + 1 < row_loop_cnt)                          # bgt
    return rhs_ptr, bias


@kernel
def _scalar_rows(m, lhs, rhs_ptr, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                 dst_shift, rhs_cols, rhs_rows, row_loop_cnt, rhs_offset, activation_min,
                 activation_max):
    """for (i_row_loop_cnt = 0; i_row_loop_cnt < rhs_rows % 4; ++i_row_loop_cnt) (0x2ca)."""
    rsb(m, rhs_rows, 0)                                       # rhs_rows % 4 ...
    and_(m, 0, 3)
    left = and_(m, rhs_rows, 3)
    it(m, rhs_rows > 0)                                       # rsbpl
    cmp(m, left, 0)
    bcc(m, left <= 0)                                         # ble
    if left <= 0:
        return
    col_steps = (rhs_cols + ((rhs_cols >> 31) & 1)) >> 1      # rhs_cols / 2
    odd = rhs_cols & 1
    ldr_sp(m)                                                 # rhs_cols
    ldr_sp(m)
    cmp(m, rhs_cols, 0)
    ldr_sp(m)                                                 # row_loop_cnt
    add(m, rhs_cols, (rhs_cols >> 31) & 1)
    add(m, dst, 2 * row_loop_cnt)
    lsl(m, row_loop_cnt, 3)
    str_sp(m)
    mov(m, 1)
    and_(m, rhs_cols, 1)                                      # rhs_cols % 2
    it(m, rhs_cols >= 0)                                      # rsblt
    str_sp(m)
    ldr_sp(m)
    mov(m, 0)                                                 # i_row_loop_cnt = 0
    cmp(m, rhs_cols, 1)
    bic(m, 0, 1)
    it(m, rhs_cols > 1)                                       # movle
    if rhs_cols <= 1:
        mov(m, 2)
    str_sp(m)
    ldr_sp(m)                                                 # dst_shift
    asr(m, 0, 1)                                              # rhs_cols / 2
    exponent = rsb(m, dst_shift, 0)                           # -shift
    mask_1 = lsl(m, 1, exponent)
    str_sp(m)
    spillover0 = mov(m, 0)                                    # spillover0 = 0;
    ldr_sp(m)                                                 # dst_shift
    remainder_mask = sub(m, mask_1, 1)                        # (1 << exponent) - 1
    left_shift = bic(m, dst_shift, dst_shift >> 31)           # LEFT_SHIFT(shift)
    str_sp(m)
    ldr_sp(m)                                                 # rhs_offset
    str_sp(m)
    sub(m, rhs_offset, 1)
    threshold = asr(m, remainder_mask, 1)                     # remainder_mask >> 1
    ldr_sp(m)                                                 # lhs
    ldr_sp(m)                                                 # bias
    ldr_sp(m)                                                 # rhs_cols
    for _ in range(3):
        str_sp(m)
    dst += 2 * row_loop_cnt
    lhs_ptr = lhs
    for i in range(left):
        cmp(m, bias, 0)                                       # if (bias)
        bcc(m, bias == 0)
        if bias != 0:
            ldr_sp(m)
            b0 = ldr(m, bias + 8 * row_loop_cnt)              # res0 += bias[2 * row_loop_cnt];
            bias = add(m, bias, 4)                            # ++bias;
            res0 = add(m, b0, spillover0)
        else:
            res0 = mov(m, spillover0)
            b(m)
        cmp(m, rhs_cols, 1)
        bcc(m, rhs_cols <= 1)
        if rhs_cols > 1:
            mov(m, 0)                                         # rhs_cols_idx = 0
            ldr_sp(m)                                         # rhs_offset - 1
            add(m, lhs_ptr, 1)
            add(m, rhs_ptr, rhs_offset - 1)
            str_sp(m)
            for idx in range(col_steps):
                rhs_0 = ldrsb(m, rhs_ptr + rhs_offset)        # rhs_ptr[rhs_offset]
                lhs_low = ldrsb(m, lhs_ptr + 2 * idx)         # (int8_t)lhs_ptr[0]
                rhs_low0 = _low_nibble(m, rhs_0)
                lhs_low = add(m, lhs_low, lhs_offset)         # ... + lhs_offset
                res0 = mla(m, lhs_low, rhs_low0, res0)        # res0 += lhs_low * rhs_low0;
                lhs_high = ldrsb(m, lhs_ptr + 2 * idx + 1)    # (int8_t)lhs_ptr[1]
                add(m, idx, 1)
                rhs_high0 = _high_nibble(m, rhs_0)
                lhs_high = add(m, lhs_high, lhs_offset)       # ... + lhs_offset
                cmp(m, idx + 1, col_steps)
                res0 = mla(m, rhs_high0, lhs_high, res0)      # res0 += lhs_high * rhs_high0;
                rhs_ptr += 1                                  # ++rhs_ptr;
                bcc(m, idx + 1 < col_steps)                   # blt
            lhs_ptr += 2 * col_steps                          # lhs_ptr += 2 (per step)
            ldr_sp(m)
            cmp(m, rhs_cols, 1)
            add(m, lhs_ptr, 0)
            it(m, 1)                                          # ite gt
            mov(m, 0)
            ldr_sp(m)
            add(m, rhs_ptr, 0)
        ldr_sp(m)                                             # rhs_cols % 2
        cmp(m, odd, 1)
        spill = odd == 1 and i % 2 == 0                       # (rhs_cols % 2 == 1) && (i_row_loop_cnt % 2 == 0)
        bcc(m, odd == 1)
        if odd == 1:
            tst(m, i, 1)
            bcc(m, i % 2 != 0)
        if spill:
            ldr_sp(m)                                         # rhs_offset
            lhs_low = ldrsb(m, lhs_ptr)                       # (int8_t)lhs_ptr[0]
            rhs_0 = ldrsb(m, rhs_ptr + rhs_offset)            # rhs_ptr[rhs_offset]
            ldr_sp(m)                                         # lhs
            lhs_low = add(m, lhs_low, lhs_offset)
            rhs_low0 = _low_nibble(m, rhs_0)
            res0 = mla(m, lhs_low, rhs_low0, res0)            # res0 += lhs_low * rhs_low0;
            rhs_high0 = _high_nibble(m, rhs_0)
            lhs_high = ldrsb(m, lhs)                          # lhs_ptr = &lhs[0]; (int8_t)lhs_ptr[0]; ++lhs_ptr;
            lhs_ptr = lhs + 1
            add(m, rhs_ptr, 1)                                # ++rhs_ptr;
            rhs_ptr += 1
            lhs_high = add(m, lhs_high, lhs_offset)
            spillover0 = mul(m, rhs_high0, lhs_high)          # spillover0 = lhs_high * rhs_high0;
            b(m)
        else:
            spillover0 = mov(m, 0)                            # spillover0 = 0;
            ldr_sp(m)                                         # lhs_ptr = &lhs[0];
            lhs_ptr = lhs
        # res0 = arm_nn_requantize(res0, dst_multiplier, dst_shift);
        ldr_sp(m)                                             # LEFT_SHIFT(shift)
        hi = mov(m, 0)
        val = lsl(m, res0, left_shift)
        lo = mov(m, 1 << 30)
        ldr_sp(m)                                             # dst_multiplier
        lo, hi = smlal(m, lo, hi, val, dst_multiplier)
        low_bit = lsr(m, lo, 31)
        ldr_sp(m)                                             # dst_shift
        res0 = orr(m, low_bit, hi << 1)
        cmp(m, dst_shift, 0)
        bcc(m, dst_shift > 0)                                 # bgt: no rounding
        if dst_shift <= 0:
            ldr_sp(m)                                         # -shift
            ldr_sp(m)                                         # remainder_mask
            remainder = and_(m, remainder_mask, res0)
            res0 = asr(m, res0, exponent)                     # ASRS: N = the sign
            negative = res0 < 0
            it(m, 1 if negative else 2)                       # ITET MI
            ldr_sp(m)                                         # threshold (LDRMI or LDRPL)
            thr = threshold
            if negative:
                thr = add(m, threshold, 1)                    # threshold + 1
            res0 = _round(m, res0, remainder, thr, True)
        ldr_sp(m)                                             # dst_offset
        add(m, i, 1)
        res0 = add(m, res0, dst_offset)                       # res0 += dst_offset;
        ldr_sp(m)                                             # activation_min
        res0 = max_lt(m, res0, activation_min)                # res0 = MAX(res0, activation_min);
        ldr_sp(m)                                             # activation_max
        res0 = min_ge(m, res0, activation_max)                # res0 = MIN(res0, activation_max);
        strb(m, dst, res0)                                    # *(dst + 2 * row_loop_cnt) = (int8_t)res0;
        dst += 1                                              # dst++;
        ldr_sp(m)                                             # rhs_rows % 4
        cmp(m, left, i + 1)
        bcc(m, i + 1 < left)                                  # bne


@kernel
def _scalar(m, lhs, packed_rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
            rhs_cols, rhs_rows, activation_min, activation_max):
    """The plain-C body after the frame."""
    ldr_sp(m)                                                 # rhs_rows
    str_sp(m)                                                 # lhs
    cmp(m, rhs_rows, 0)
    it(m, 1)                                                  # ite ge: rhs_rows / 4
    if rhs_rows >= 0:
        rounded = mov(m, rhs_rows)
    else:
        rounded = add(m, rhs_rows, 3)
    mov(m, dst)
    row_loop_cnt = asr(m, rounded, 2)                         # const int32_t row_loop_cnt = rhs_rows / 4;
    mov(m, row_loop_cnt)
    str_sp(m)
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_rows, 3)
    rhs_offset = mul(m, rhs_cols, row_loop_cnt)               # const int rhs_offset = rhs_cols * row_loop_cnt;
    mov(m, packed_rhs)
    ldr_sp(m)                                                 # lhs_offset
    str_sp(m)                                                 # bias
    str_sp(m)                                                 # rhs_offset
    bcc(m, rhs_rows <= 3)                                     # ble: no group of four rows
    rhs_ptr = packed_rhs
    if rhs_rows > 3:
        rhs_ptr, bias = _scalar_row_quads(m, lhs, rhs_ptr, bias, dst, lhs_offset, dst_offset,
                                          dst_multiplier, dst_shift, rhs_cols, row_loop_cnt,
                                          rhs_offset, activation_min, activation_max)
        dst += 2 * row_loop_cnt                              # dst++ twice per iteration
        ldrd_sp(m)
        ldr_sp(m)                                             # rhs_rows
        cmp(m, rhs_rows, 3)
        it(m, 1)                                              # ite gt
        mov(m, 2 * row_loop_cnt)
        add(m, dst, 0)
    _scalar_rows(m, lhs, rhs_ptr, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                 dst_shift, rhs_cols, rhs_rows, row_loop_cnt, rhs_offset, activation_min,
                 activation_max)


@kernel
def arm_nn_vec_mat_mult_t_s4(m, lhs, packed_rhs, bias, dst, lhs_offset, dst_offset,
                             dst_multiplier, dst_shift, rhs_cols, rhs_rows, activation_min,
                             activation_max):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #124 / #92
    if m.dsp:
        _dsp(m, lhs, packed_rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
             rhs_cols, rhs_rows, activation_min, activation_max)
    else:
        _scalar(m, lhs, packed_rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                dst_shift, rhs_cols, rhs_rows, activation_min, activation_max)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
