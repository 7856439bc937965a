"""arm_nn_vec_mat_mult_t_per_ch_s8 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_per_ch_s8.c),
non-MVE.

The C is arm_nn_vec_mat_mult_t_s8 line for line, with `dst_multiplier` and `dst_shift`
pointers to per-row values: `arm_nn_requantize(acc, *dst_multiplier++, *dst_shift++)`, so
nothing of the requantization is loop-invariant and gcc inlines the whole arm_nn_requantize
per row (two loads, the shift split, the doubling multiply, a branch on the shift's sign, the
rounding).  Same GCC unroll pragma, same two copies of the loops (with and without an rhs
offset), same row pairs / triples; gcc compiled the file on its own, so the set-ups, spills
and the odd rows differ from arm_nn_vec_mat_mult_t_s8's.  The column loops of the row pairs
and their leftover columns are instruction for instruction the same as there and are shared
from that module; the rest is this object's.

Every instruction is one of the measured objects' (arm-none-eabi-gcc 12.2 -O2,
-mcpu=cortex-m4 with ARM_MATH_DSP / -mcpu=cortex-m3), in gcc's order.  No fitted line.
Arm Compiler 6: the column loops modelled rolled, as in arm_nn_vec_mat_mult_t_s8.
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
    sxth,
)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_vec_mat_mult_t_s8 import (
    _ker,
    _pair_columns,
    _pair_columns_rolled,
    _pair_leftover,
    _row_macs,
)

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _requantize(m, val, multiplier, shift):
    """arm_nn_requantize(val, multiplier, shift) inlined after its two loads: LEFT_SHIFT by
    BIC, the doubling multiply, a branch on shift > 0, then the divide-by-power-of-two's
    mask, threshold and rounding (IT blocks)."""
    left_shift = bic(m, shift, shift >> 31)                   # LEFT_SHIFT(shift)
    val = lsl(m, val, left_shift)                             # val * (1 << LEFT_SHIFT(shift))
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, val, multiplier)
    low_bit = lsr(m, lo, 31)
    cmp(m, shift, 0)
    result = orr(m, low_bit, hi << 1)
    bcc(m, shift > 0)                                         # bgt: RIGHT_SHIFT 0
    if shift <= 0:
        exponent = rsb(m, shift, 0)                           # RIGHT_SHIFT(shift)
        one = mov(m, 1)
        remainder_mask = sub(m, lsl(m, one, exponent), 1)     # (1 << exponent) - 1
        remainder = and_(m, result, remainder_mask)
        threshold = asr(m, remainder_mask, 1)                 # remainder_mask >> 1
        result = asr(m, result, exponent)                     # ASRS: N = the quotient's sign
        negative = result < 0
        it(m, not negative)
        if negative:
            threshold = add(m, threshold, 1)                  # threshold++
        cmp(m, remainder, threshold)
        up = remainder > threshold
        it(m, not up)
        if up:
            result = add(m, result, 1)                        # result++
    return result


# --- ARM_MATH_DSP -----------------------------------------------------------------------

@kernel
def _dsp_row_pairs(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
                   rhs_cols, row_loop_cnt, activation_min, activation_max, address_offset,
                   rhs_offset, lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset):
    """for (i = 0; i < row_loop_cnt; i++) of the ARM_MATH_DSP path (row_loop_cnt > 0), both
    copies: set-up and rows.  Returns (bias, dst)."""
    cols = rhs_cols
    if has_rhs_offset:                                        # 0x44-0xa2
        ldr_sp(m)                                             # rhs_cols
        ldr_sp(m)                                             # dst_shift
        ldr_sp(m)
        ldr_sp(m)                                             # address_offset
        str_sp(m)
        cmp(m, rhs_cols, 0)
        it(m, rhs_cols >= 0)                                  # addlt: rhs_cols / 4 rounds to zero
        if rhs_cols < 0:
            cols = add(m, rhs_cols, 3)
        col4 = bic(m, cols, 3)                                # col_loop_cnt * 4
        mov(m, 0)                                             # i = 0
        add(m, dst_shift, 8)
        lsl(m, rhs_cols, 1)                                   # 2 * rhs_cols
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        str_sp(m)
        mov(m, col4)
        ldr_sp(m)                                             # rhs
        ldr_sp(m)                                             # lhs
        ldr_sp(m)                                             # bias
        str_sp(m)
        col_loop_cnt = asr(m, cols, 2)                        # rhs_cols / 4
        add(m, lhs, col4)
        str_sp(m)
        lsl(m, address_offset, 1)                             # 2 * address_offset
        add(m, rhs, col4)
        sub(m, rhs_cols, col4)                                # the columns left over
        add(m, dst_multiplier, 8)
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                             # rhs_offset
        ldr_sp(m)                                             # lhs_offset
        for _ in range(6):
            str_sp(m)
    else:                                                     # 0xb3a-0xb9c
        for _ in range(4):
            ldr_sp(m)                                         # rhs_cols, dst_shift, address_offset
        str_sp(m)
        cmp(m, rhs_cols, 0)
        it(m, rhs_cols >= 0)                                  # addlt: rhs_cols / 4 rounds to zero
        if rhs_cols < 0:
            cols = add(m, rhs_cols, 3)
        col4 = bic(m, cols, 3)                                # col_loop_cnt * 4
        lsl(m, rhs_cols, 1)                                   # 2 * rhs_cols
        mov(m, col4)
        ldr_sp(m)                                             # rhs
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                             # lhs
        ldr_sp(m)
        ldr_sp(m)                                             # bias
        str_sp(m)
        col_loop_cnt = asr(m, cols, 2)                        # rhs_cols / 4
        mov(m, 0)                                             # i = 0
        add(m, dst_shift, 8)
        add(m, lhs, col4)
        str_sp(m)
        lsl(m, address_offset, 1)                             # 2 * address_offset
        add(m, rhs, col4)
        sub(m, rhs_cols, col4)                                # the columns left over
        str_sp(m)
        str_sp(m)
        add(m, dst_multiplier, 8)
        ldr_sp(m)                                             # lhs_offset
        for _ in range(5):
            str_sp(m)
        mov(m, 0)

    mult_ptr = dst_multiplier
    shift_ptr = dst_shift
    cmp(m, bias, 0)                                           # if (bias)
    bcc(m, bias == 0)
    for i in range(row_loop_cnt):
        if bias != 0:
            acc_1 = ldr(m, bias + 4)                          # acc_1 = *bias++;
            acc_0 = ldr(m, bias)                              # acc_0 = *bias++;
            bias += 8
            str_sp(m)
        else:
            acc_0 = 0                                         # the NULL bias
            ldr_sp(m)
            acc_1 = mov(m, acc_0)
            b(m)
        lhs_vec = lhs
        rhs_0_ptr = rhs
        rhs_1_ptr = rhs + rhs_cols
        if has_rhs_offset:
            ldr_sp(m)                                         # rhs_cols
            ldr_sp(m)                                         # 2 * rhs_cols
            add(m, rhs, rhs_cols)                             # rhs_1_ptr = rhs + rhs_cols;
            ldr_sp(m)                                         # col_loop_cnt
            rhs = add(m, rhs, 2 * rhs_cols)                   # rhs += 2 * rhs_cols;
            str_sp(m)
        else:
            ldr_sp(m)                                         # 2 * rhs_cols
            ldr_sp(m)                                         # rhs_cols
            ldr_sp(m)                                         # col_loop_cnt
            rhs = add(m, rhs, 2 * rhs_cols)                   # rhs += 2 * rhs_cols;
            add(m, rhs_0_ptr, rhs_cols)                       # rhs_1_ptr = rhs + rhs_cols;
            str_sp(m)
            ldr_sp(m)                                         # lhs
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
            for _ in range(3):                                # the pointers after the columns
                ldr_sp(m)
            add(m, rhs_0_ptr, rhs_cols)
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
        # acc_0 = arm_nn_requantize(acc_0, *dst_multiplier++, *dst_shift++); then acc_1
        if has_rhs_offset:
            ldr_sp(m)                                         # dst_shift
            multiplier = ldr(m, mult_ptr)
            shift = ldr(m, shift_ptr)
        else:
            shift = ldr(m, shift_ptr)
            multiplier = ldr(m, mult_ptr)
        acc_0 = _requantize(m, acc_0, multiplier, shift)
        if has_rhs_offset:
            ldr_sp(m)
            multiplier = ldr(m, mult_ptr + 4)
            shift = ldr(m, shift_ptr + 4)
        else:
            shift = ldr(m, shift_ptr + 4)
            multiplier = ldr(m, mult_ptr + 4)
        acc_1 = _requantize(m, acc_1, multiplier, shift)
        mult_ptr += 8
        shift_ptr += 8
        for _ in range(8):
            ldr_sp(m)                                         # dst_offset, activation_min/max, ...
        acc_0 = add(m, acc_0, dst_offset)                     # acc_0 += dst_offset;
        acc_1 = add(m, acc_1, dst_offset)                     # acc_1 += dst_offset;
        acc_0 = max_lt(m, acc_0, activation_min)              # acc_0 = MAX(acc_0, activation_min);
        acc_1 = max_lt(m, acc_1, activation_min)              # acc_1 = MAX(acc_1, activation_min);
        acc_0 = min_ge(m, acc_0, activation_max)              # acc_0 = MIN(acc_0, activation_max);
        strb(m, dst, acc_0)                                   # *dst = (int8_t)acc_0;
        last = i + 1 == row_loop_cnt
        if has_rhs_offset:
            for _ in range(3):
                ldr_sp(m)
            acc_1 = min_ge(m, acc_1, activation_max)          # acc_1 = MIN(acc_1, activation_max);
            strb(m, dst + address_offset, acc_1)              # *(dst + address_offset) = (int8_t)acc_1;
            ldr_sp(m)
            add(m, i, 1)
            dst = add(m, dst, 2 * address_offset)             # dst += 2 * address_offset;
            add(m, 0, 8)
            add(m, 0, 0)
            cmp(m, row_loop_cnt, i + 1)
            str_sp(m)
            str_sp(m)
            add(m, 0, 8)
            str_sp(m)
            str_sp(m)
        else:
            ldr_sp(m)
            acc_1 = min_ge(m, acc_1, activation_max)
            strb(m, dst + address_offset, acc_1)
            dst = add(m, dst, 2 * address_offset)             # dst += 2 * address_offset;
            ldr_sp(m)
            str_sp(m)
            ldr_sp(m)
            add(m, i, 1)
            add(m, 0, 0)
            cmp(m, row_loop_cnt, i + 1)
            str_sp(m)
            add(m, 0, 8)
            add(m, 0, 8)
            str_sp(m)
        bcc(m, last)                                          # ble: the loop ends
        if not last:
            ldr_sp(m)                                         # bias
            ldr_sp(m)                                         # rhs
            cmp(m, bias, 0)
            bcc(m, bias != 0)                                 # bne: the rotated if (bias)
    return bias, dst


@kernel
def _dsp_odd_row_rhs_offset(m, lhs, rhs, bias, lhs_offset, rhs_cols, rhs_offset,
                            lhs_offset_s16x2, rhs_offset_s16x2):
    """if (rhs_rows & 0x1) of the `if (rhs_offset)` copy, up to its requantization (0x49e-
    0x786): returns acc_0."""
    ldr_sp(m)                                                 # bias
    cmp(m, bias, 0)                                           # if (bias)
    bcc(m, bias == 0)
    if bias != 0:
        acc = ldr(m, bias)                                    # acc_0 = *bias++;
    else:
        acc = 0
        ldr_sp(m)                                             # the NULL bias
        b(m)
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_cols, 0)
    cols = rhs_cols
    it(m, rhs_cols >= 0)                                      # addlt: rhs_cols / 4 rounds to zero
    if rhs_cols < 0:
        cols = add(m, rhs_cols, 3)
    col_loop_cnt = asr(m, cols, 2)                            # const int32_t col_loop_cnt = rhs_cols / 4;
    it(m, col_loop_cnt != 0)                                  # moveq: j starts at 0
    if col_loop_cnt == 0:
        mov(m, col_loop_cnt)
    bcc(m, col_loop_cnt == 0)
    lhs_vec = lhs
    rhs_ptr = rhs
    if col_loop_cnt != 0:
        rem = and_(m, col_loop_cnt, 3)                        # unrolled by four
        ldr_sp(m)                                             # rhs
        ldr_sp(m)                                             # lhs
        mov(m, col_loop_cnt)                                  # i = col_loop_cnt
        add(m, col_loop_cnt, -1)
        i = 0
        if m.armclang:                                        # (a model: rolled)
            for i in range(col_loop_cnt, 0, -1):
                acc = _odd_step(m, lhs_vec, rhs_ptr, acc, lhs_offset_s16x2, rhs_offset_s16x2,
                                True, True)
                lhs_vec += 4
                rhs_ptr += 4
                sub(m, i, 1)
                bcc(m, i != 1)
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
                ldr_sp(m)                                     # rhs
                word = ldr(m, rhs_ptr)                        # arm_nn_read_s8x4_ia(&rhs_ptr)
                acc = _row_macs(m, word, vec_0, vec_1, acc, rhs_offset_s16x2, True)
                mov(m, 0)                                     # i--
                lhs_vec += 4
                rhs_ptr += 4
            if rem >= 2:
                vec_0 = ldr(m, lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                word = ldr(m, rhs_ptr)
                acc = _row_macs(m, word, vec_0, vec_1, acc, rhs_offset_s16x2, True)
                sub(m, 0, 1)                                  # i--
                lhs_vec += 4
                rhs_ptr += 4
            i = col_loop_cnt - rem
            if rem >= 1:
                acc = _odd_step(m, lhs_vec, rhs_ptr, acc, lhs_offset_s16x2, rhs_offset_s16x2,
                                True, True)
                sub(m, i + 1, 1)                              # i--
                bcc(m, i == 0)
                lhs_vec += 4
                rhs_ptr += 4
        if i != 0:                                            # blocks of four steps
            str_sp(m)
            while i != 0:
                mov(m, 0)
                vec_0 = ldr(m, lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                mov(m, 0)
                word = ldr(m, rhs_ptr)
                acc = _row_macs(m, word, vec_0, vec_1, acc, rhs_offset_s16x2, True)
                acc = _odd_step(m, lhs_vec + 4, rhs_ptr + 4, acc, lhs_offset_s16x2,
                                rhs_offset_s16x2, True, False)
                acc = _odd_step(m, lhs_vec + 8, rhs_ptr + 8, acc, lhs_offset_s16x2,
                                rhs_offset_s16x2, True, True)
                vec_0 = ldr(m, lhs_vec + 12)
                lhs_vec = add(m, lhs_vec, 16)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                word = ldr(m, rhs_ptr + 12)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                rhs_ptr = add(m, rhs_ptr, 16)
                acc = _row_macs(m, word, vec_0, vec_1, acc, rhs_offset_s16x2, True)
                i = sub(m, i, 4)                              # subs ..., #4
                bcc(m, i != 0)
            ldr_sp(m)
        ldr_sp(m)                                             # rhs
        ldr_sp(m)                                             # lhs
        lhs_vec = add(m, lhs, 4 * col_loop_cnt)
        rhs_ptr = add(m, rhs, 4 * col_loop_cnt)
        str_sp(m)
        str_sp(m)
        lsl(m, col_loop_cnt, 2)                               # j = col_loop_cnt * 4
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_cols, 4 * col_loop_cnt)                        # for (j = col_loop_cnt * 4; j < rhs_cols; j++)
    bcc(m, rhs_cols <= 4 * col_loop_cnt)
    if rhs_cols > 4 * col_loop_cnt:
        count = _odd_leftover_head(m, rhs_cols)
        for j in range(count):                                # (0x622-0x6ec)
            ldr_sp(m)                                         # lhs_vec
            ldr_sp(m)                                         # rhs_ptr
            lhs_temp = ldrsb(m, lhs_vec)                      # (*lhs_vec + lhs_offset); lhs_vec++;
            lhs_vec += 1
            r = ldrsb(m, rhs_ptr)                             # (*rhs_ptr + rhs_offset); rhs_ptr++;
            rhs_ptr += 1
            ldr_sp(m)                                         # lhs_offset
            ldr_sp(m)                                         # rhs_offset
            str_sp(m)                                         # lhs_vec
            lhs_temp = add(m, lhs_temp, lhs_offset)
            r = add(m, r, rhs_offset)
            if j == count - 1:
                cmp(m, j + 1, count)
            str_sp(m)                                         # rhs_ptr
            acc = mla(m, lhs_temp, r, acc)                    # acc_0 += lhs_temp * (*rhs_ptr + rhs_offset);
        bcc(m, True)                                          # beq: the loop ends here
    return acc


@kernel(inline=True)
def _odd_leftover_head(m, rhs_cols):
    """The odd row's one-by-one column loop, unrolled by eight: rhs_cols % 4 (1 to 3) picks
    the first peeled iteration through a compare chain.  Returns the count."""
    neg = rsb(m, rhs_cols, 0)
    and_(m, neg, 3)
    count = and_(m, rhs_cols, 3)                              # rhs_cols % 4
    ldr_sp(m)                                                 # lhs_vec
    it(m, 1)                                                  # rsbpl: rhs_cols > 0
    left = and_(m, count, 7)
    add(m, 0, count)                                          # the end of lhs_vec
    bcc(m, left == 0)
    for c in range(1, count):
        cmp(m, left, c)
        bcc(m, False)
    cmp(m, left, count)
    bcc(m, True)
    return count


@kernel(inline=True)
def _odd_step(m, lhs_vec, rhs_ptr, acc, lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset,
              early_rhs):
    """One column step of the odd row: the lhs word, vec_1, the rhs word (early_rhs: before
    vec_0), vec_0, ker_1, ker_0, two SMLAD."""
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
def _dsp_odd_row(m, lhs, rhs, bias, lhs_offset, rhs_cols, lhs_offset_s16x2):
    """if (rhs_rows & 0x1) of the copy without an rhs offset, up to its requantization
    (0x7ce-0xab8): acc_0 lives in the stack slot of rhs_offset (0 there, so a NULL bias
    leaves it as it is) around every peeled step."""
    ldr_sp(m)                                                 # bias
    cbz(m, bias == 0)                                         # if (bias)
    acc = 0
    if bias != 0:
        acc = ldr(m, bias)                                    # acc_0 = *bias++;
        str_sp(m)
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_cols, 0)
    cols = rhs_cols
    it(m, rhs_cols >= 0)                                      # addlt: rhs_cols / 4 rounds to zero
    if rhs_cols < 0:
        cols = add(m, rhs_cols, 3)
    col_loop_cnt = asr(m, cols, 2)                            # const int32_t col_loop_cnt = rhs_cols / 4;
    it(m, col_loop_cnt != 0)                                  # moveq: j starts at 0
    if col_loop_cnt == 0:
        mov(m, col_loop_cnt)
    bcc(m, col_loop_cnt == 0)
    lhs_vec = lhs
    rhs_ptr = rhs
    if col_loop_cnt != 0:
        rem = and_(m, col_loop_cnt, 3)                        # unrolled by four
        ldr_sp(m)                                             # rhs
        ldr_sp(m)                                             # lhs
        mov(m, col_loop_cnt)                                  # i = col_loop_cnt
        add(m, col_loop_cnt, -1)
        i = 0
        if m.armclang:                                        # (a model: rolled)
            for i in range(col_loop_cnt, 0, -1):
                acc = _odd_step(m, lhs_vec, rhs_ptr, acc, lhs_offset_s16x2, 0, False, True)
                lhs_vec += 4
                rhs_ptr += 4
                sub(m, i, 1)
                bcc(m, i != 1)
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
                ldr_sp(m)                                     # rhs
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)  # SXTAB16(lhs_offset_s16x2, vec_0)
                word = ldr(m, rhs_ptr)                        # arm_nn_read_s8x4_ia(&rhs_ptr)
                ker_1 = _ker(m, word, 8, 0, False)
                ker_0 = _ker(m, word, 0, 0, False)
                ldr_sp(m)                                     # acc_0
                acc = smlad(m, ker_1, vec_1, acc)             # acc_0 = SMLAD(ker_1, vec_1, acc_0);
                acc = smlad(m, ker_0, vec_0, acc)             # acc_0 = SMLAD(ker_0, vec_0, acc_0);
                str_sp(m)
                mov(m, 0)                                     # i--
                lhs_vec += 4
                rhs_ptr += 4
            if rem >= 2:
                vec_0 = ldr(m, lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                word = ldr(m, rhs_ptr)
                ker_1 = _ker(m, word, 8, 0, False)
                ker_0 = _ker(m, word, 0, 0, False)
                ldr_sp(m)
                acc = smlad(m, ker_1, vec_1, acc)
                acc = smlad(m, ker_0, vec_0, acc)
                str_sp(m)
                sub(m, 0, 1)                                  # i--
                lhs_vec += 4
                rhs_ptr += 4
            i = col_loop_cnt - rem
            if rem >= 1:
                vec_0 = ldr(m, lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                word = ldr(m, rhs_ptr)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                ker_1 = _ker(m, word, 8, 0, False)
                ldr_sp(m)
                ker_0 = _ker(m, word, 0, 0, False)
                acc = smlad(m, ker_1, vec_1, acc)
                acc = smlad(m, ker_0, vec_0, acc)
                sub(m, i + 1, 1)                              # i--
                str_sp(m)
                bcc(m, i == 0)
                lhs_vec += 4
                rhs_ptr += 4
        if i != 0:                                            # blocks of four steps
            ldr_sp(m)                                         # acc_0
            while i != 0:
                mov(m, 0)
                vec_0 = ldr(m, lhs_vec)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                mov(m, 0)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                word = ldr(m, rhs_ptr)
                acc = _row_macs(m, word, vec_0, vec_1, acc, 0, False)
                acc = _odd_step(m, lhs_vec + 4, rhs_ptr + 4, acc, lhs_offset_s16x2, 0, False,
                                False)
                acc = _odd_step(m, lhs_vec + 8, rhs_ptr + 8, acc, lhs_offset_s16x2, 0, False,
                                True)
                vec_0 = ldr(m, lhs_vec + 12)
                lhs_vec = add(m, lhs_vec, 16)
                vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)
                vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)
                rhs_ptr = add(m, rhs_ptr, 16)
                word = ldr(m, rhs_ptr - 4)
                acc = _row_macs(m, word, vec_0, vec_1, acc, 0, False)
                i = sub(m, i, 4)                              # subs ..., #4
                bcc(m, i != 0)
            str_sp(m)                                         # acc_0
        ldr_sp(m)                                             # rhs
        ldr_sp(m)                                             # lhs
        lhs_vec = add(m, lhs, 4 * col_loop_cnt)
        rhs_ptr = add(m, rhs, 4 * col_loop_cnt)
        str_sp(m)
        str_sp(m)
        lsl(m, col_loop_cnt, 2)                               # j = col_loop_cnt * 4
    ldr_sp(m)                                                 # rhs_cols
    cmp(m, rhs_cols, 4 * col_loop_cnt)                        # for (j = col_loop_cnt * 4; j < rhs_cols; j++)
    bcc(m, rhs_cols <= 4 * col_loop_cnt)
    if rhs_cols > 4 * col_loop_cnt:
        count = _odd_leftover_head(m, rhs_cols)
        for j in range(count):                                # (0x976-0xa32)
            ldr_sp(m)                                         # lhs_vec
            ldr_sp(m)                                         # rhs_ptr
            lhs_temp = ldrsb(m, lhs_vec)                      # (*lhs_vec + lhs_offset); lhs_vec++;
            lhs_vec += 1
            ldr_sp(m)                                         # lhs_offset
            r = ldrsb(m, rhs_ptr)                             # (*rhs_ptr); rhs_ptr++;
            rhs_ptr += 1
            ldr_sp(m)                                         # acc_0
            str_sp(m)                                         # lhs_vec
            lhs_temp = add(m, lhs_temp, lhs_offset)
            acc = mla(m, lhs_temp, r, acc)                    # acc_0 += lhs_temp * (*rhs_ptr);
            if j == count - 1:
                cmp(m, j + 1, count)
            str_sp(m)                                         # rhs_ptr
            str_sp(m)                                         # acc_0
        bcc(m, True)                                          # beq: the loop ends here
    return acc


@kernel(inline=True)
def _dsp_last_row(m, acc, dst, dst_offset, multiplier, shift, activation_min, activation_max):
    """The odd row's requantization (after LEFT_SHIFT), offset, clamp and store
    (0xacc-0xb18, shared by both copies of the C)."""
    acc = lsl(m, acc, shift if shift > 0 else 0)              # val * (1 << LEFT_SHIFT(shift))
    hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, acc, multiplier)
    low_bit = lsr(m, lo, 31)
    cmp(m, shift, 0)
    res = orr(m, low_bit, hi << 1)
    bcc(m, shift > 0)                                         # bgt: no rounding
    if shift <= 0:
        exponent = rsb(m, shift, 0)
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
    str_sp(m)                                                 # bias
    ldr_sp(m)                                                 # rhs_offset
    str_sp(m)                                                 # lhs
    ldr_sp(m)                                                 # dst
    ldr_sp(m)                                                 # dst_multiplier
    ldr_sp(m)                                                 # rhs_rows
    str_sp(m)                                                 # rhs
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
        bias, dst = _dsp_row_pairs(m, lhs, rhs, bias, dst, lhs_offset, dst_offset,
                                   dst_multiplier, dst_shift, rhs_cols, row_loop_cnt,
                                   activation_min, activation_max, address_offset, rhs_offset,
                                   lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset)
        rhs += 2 * rhs_cols * row_loop_cnt
        dst_multiplier += 8 * row_loop_cnt
        dst_shift += 8 * row_loop_cnt
        for _ in range(8 if has_rhs_offset else 7):
            ldr_sp(m)                                         # rhs_rows, rhs, dst, ...
        cmp(m, rhs_rows, 1)
        lsl(m, row_loop_cnt, 3)
        it(m, 2)                                              # itt le: rhs_rows > 1 here
        mla(m, row_loop_cnt, 2 * rhs_cols, 0)                 # rhs after the row pairs
        add(m, 0, 0)
        str_sp(m)
        mla(m, row_loop_cnt, 2 * address_offset, 0)           # dst after the row pairs
        add(m, 0, 0)
        str_sp(m)
    lsl(m, rhs_rows, 31)                                      # if (rhs_rows & 0x1)
    bcc(m, (rhs_rows & 1) == 0)                               # bpl
    if rhs_rows & 1:
        if has_rhs_offset:
            acc = _dsp_odd_row_rhs_offset(m, lhs, rhs, bias, lhs_offset, rhs_cols, rhs_offset,
                                          lhs_offset_s16x2, rhs_offset_s16x2)
            ldr_sp(m)                                         # dst_shift
            multiplier = ldr(m, dst_multiplier)               # *dst_multiplier++
            shift = ldr(m, dst_shift)                         # *dst_shift++
            bic(m, shift, shift >> 31)                        # LEFT_SHIFT(shift)
            b(m)
        else:
            acc = _dsp_odd_row(m, lhs, rhs, bias, lhs_offset, rhs_cols, lhs_offset_s16x2)
            ldr_sp(m)                                         # dst_shift
            multiplier = ldr(m, dst_multiplier)               # *dst_multiplier++
            shift = ldr(m, dst_shift)                         # *dst_shift++
            ldr_sp(m)                                         # acc_0
            bic(m, shift, shift >> 31)                        # LEFT_SHIFT(shift)
        _dsp_last_row(m, acc, dst, dst_offset, multiplier, shift, activation_min,
                      activation_max)


# --- plain C (no ARM_MATH_DSP) ----------------------------------------------------------

@kernel(inline=True)
def _scalar_round(m, result, shift, mov_first):
    """The divide-by-power-of-two of a shift <= 0 (after the BGT): the mask from 1 << -shift
    (mov_first: MOVS #1 before the RSBS, else after it), remainder, the quotient (ASRS: N
    = its sign), the threshold and the rounding IT blocks."""
    if mov_first:
        one = mov(m, 1)
        exponent = rsb(m, shift, 0)
    else:
        exponent = rsb(m, shift, 0)
        one = mov(m, 1)
    remainder_mask = sub(m, lsl(m, one, exponent), 1)         # (1 << exponent) - 1
    remainder = and_(m, result, remainder_mask)
    result = asr(m, result, exponent)
    threshold = asr(m, remainder_mask, 1)                     # remainder_mask >> 1
    negative = result < 0
    it(m, not negative)
    if negative:
        threshold = add(m, threshold, 1)                      # threshold++
    cmp(m, remainder, threshold)
    up = remainder > threshold
    it(m, not up)
    if up:
        result = add(m, result, 1)                            # result++
    return result


@kernel(inline=True)
def _scalar_requantize_row(m, val, mult_ptr, shift_ptr, mov_first):
    """arm_nn_requantize(res0x, *dst_multiplier++, *dst_shift++) of a row triple: the shift
    loaded first, the multiplier between the shift split and the SMLAL."""
    shift = ldr(m, shift_ptr)
    hi = mov(m, 0)
    left_shift = bic(m, shift, shift >> 31)                   # LEFT_SHIFT(shift)
    val = lsl(m, val, left_shift)
    lo = mov(m, 1 << 30)
    multiplier = ldr(m, mult_ptr)
    cmp(m, shift, 0)
    lo, hi = smlal(m, lo, hi, val, multiplier)
    result = orr(m, lsr(m, lo, 31), hi << 1)
    bcc(m, shift > 0)                                         # bgt: RIGHT_SHIFT 0
    if shift <= 0:
        result = _scalar_round(m, result, shift, mov_first)
    return result


@kernel
def _scalar_row_triples(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                        dst_shift, rhs_cols, row_loop_cnt, activation_min, activation_max,
                        address_offset, rhs_offset, has_rhs_offset):
    """for (i_row_loop_cnt = 0; i_row_loop_cnt < row_loop_cnt; i_row_loop_cnt++) of the
    plain-C path (row_loop_cnt > 0), both copies: set-up and rows.  Returns (bias, dst)."""
    if has_rhs_offset:                                        # 0x2e-0x70
        mov(m, 0)                                             # i_row_loop_cnt = 0
        str_sp(m)
        ldr_sp(m)                                             # dst
        strd_sp(m)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        add(m, rhs, 2 * rhs_cols)
        sub(m, 0, 1)
        str_sp(m)
        ldr_sp(m)
        lsl(m, address_offset, 1)                             # 2 * address_offset
        str_sp(m)
        ldr_sp(m)
        add(m, address_offset, 2 * address_offset)            # 3 * address_offset
        str_sp(m)
        ldr_sp(m)
        add(m, rhs_cols, 2 * rhs_cols)                        # 3 * rhs_cols
        str_sp(m)
        ldr_sp(m)                                             # dst_multiplier
        add(m, dst_multiplier, 12)
        ldr_sp(m)                                             # dst_shift
        add(m, dst_shift, 12)
        ldr_sp(m)
        sub(m, rhs_cols, 1)
        str_sp(m)
        ldr_sp(m)
        add(m, lhs, rhs_cols)                                 # the end of the lhs
    else:                                                     # 0x31c-0x364
        ldr_sp(m)                                             # dst
        ldr_sp(m)                                             # rhs_cols
        mov(m, dst)
        add(m, rhs, 2 * rhs_cols)
        sub(m, 0, 1)
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        lsl(m, address_offset, 1)                             # 2 * address_offset
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        add(m, address_offset, 2 * address_offset)            # 3 * address_offset
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        add(m, rhs_cols, 2 * rhs_cols)                        # 3 * rhs_cols
        str_sp(m)
        ldr_sp(m)                                             # dst_multiplier
        str_sp(m)
        add(m, dst_multiplier, 12)
        ldr_sp(m)                                             # dst_shift
        str_sp(m)
        add(m, dst_shift, 12)
        ldr_sp(m)
        str_sp(m)
        sub(m, rhs_cols, 1)
        str_sp(m)
        ldr_sp(m)                                             # lhs
        add(m, lhs, rhs_cols)                                 # the end of the lhs

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
            ldrd_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            if has_rhs_offset:
                add(m, rhs, -1)
                add(m, rhs, rhs_cols - 1)
            else:
                sub(m, rhs, 1)
                add(m, rhs, rhs_cols - 1)
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
            ldr_sp(m)
        res00 = _scalar_requantize_row(m, res00, dst_multiplier, dst_shift, True)
        res01 = _scalar_requantize_row(m, res01, dst_multiplier + 4, dst_shift + 4, True)
        res02 = _scalar_requantize_row(m, res02, dst_multiplier + 8, dst_shift + 8,
                                       not has_rhs_offset)
        dst_multiplier += 12
        dst_shift += 12
        ldr_sp(m)                                             # dst_offset
        ldr_sp(m)
        res00 = add(m, res00, dst_offset)                     # res00 += dst_offset;
        res01 = add(m, res01, dst_offset)                     # res01 += dst_offset;
        res02 = add(m, res02, dst_offset)                     # res02 += dst_offset;
        ldr_sp(m)                                             # activation_min
        ldr_sp(m)
        res00 = max_lt(m, res00, activation_min)              # res00 = MAX(res00, activation_min);
        res01 = max_lt(m, res01, activation_min)
        res02 = max_lt(m, res02, activation_min)
        add(m, 0, 0)
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        rhs = add(m, rhs, 3 * rhs_cols)                       # rhs += 3 * rhs_cols;
        str_sp(m)
        ldr_sp(m)                                             # activation_max
        add(m, i, 1)
        res00 = min_ge(m, res00, activation_max)              # res00 = MIN(res00, activation_max);
        res01 = min_ge(m, res01, activation_max)
        res02 = min_ge(m, res02, activation_max)
        if has_rhs_offset:
            ldr_sp(m)                                         # dst
            str_sp(m)
            strb(m, dst, res00)                               # *dst = (int8_t)res00;
            ldr_sp(m)
            add(m, 0, 12)
            strb(m, dst + address_offset, res01)              # *(dst + address_offset) = (int8_t)res01;
            ldr_sp(m)
            add(m, 0, 12)
            strb(m, dst + 2 * address_offset, res02)          # *(dst + 2 * address_offset) = (int8_t)res02;
            mov(m, dst)
            ldr_sp(m)
            dst = add(m, dst, 3 * address_offset)             # dst += 3 * address_offset;
            str_sp(m)
        else:
            ldr_sp(m)
            strb(m, dst, res00)
            strb(m, dst + address_offset, res01)
            ldr_sp(m)
            str_sp(m)
            strb(m, dst + 2 * address_offset, res02)
            ldr_sp(m)
            add(m, 0, 12)
            dst = add(m, dst, 3 * address_offset)
            ldr_sp(m)
            add(m, 0, 12)
        if has_rhs_offset:
            ldr_sp(m)                                         # row_loop_cnt
        cmp(m, row_loop_cnt, i + 1)
        bcc(m, i + 1 < row_loop_cnt)                          # bgt
    return bias, dst


@kernel
def _scalar_rows(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift,
                 rhs_cols, loop_cnt, activation_min, activation_max, address_offset,
                 rhs_offset, has_rhs_offset):
    """for (i_loop_cnt = 0; i_loop_cnt < loop_cnt; i_loop_cnt++): the rhs_rows % 3 rows
    left (loop_cnt > 0), both copies."""
    if has_rhs_offset:                                        # 0x24a-0x268
        mov(m, 1 << 30)
        mov(m, 0)
        mov(m, 1)
        ldr_sp(m)                                             # dst_multiplier
        add(m, dst_multiplier, 4 * loop_cnt)                  # the end of the multipliers
        ldr_sp(m)                                             # lhs
        ldr_sp(m)                                             # rhs_cols
        str_sp(m)
        ldr_sp(m)
        add(m, lhs, rhs_cols)                                 # the end of the lhs
    else:                                                     # 0x532-0x552
        mov(m, bias)
        ldr_sp(m)                                             # dst_multiplier
        mov(m, 1 << 30)
        add(m, dst_multiplier, 4 * loop_cnt)                  # the end of the multipliers
        ldr_sp(m)                                             # lhs
        ldr_sp(m)                                             # rhs_cols
        str_sp(m)
        mov(m, 0)
        mov(m, 1)
        ldr_sp(m)                                             # dst
        ldr_sp(m)
        add(m, lhs, rhs_cols)                                 # the end of the lhs

    cmp(m, bias, 0)                                           # if (bias)
    bcc(m, bias == 0)
    for i in range(loop_cnt):
        if bias != 0:
            res00 = ldr(m, bias)                              # res00 = *bias++;
            bias += 4
        else:
            res00 = mov(m, 0)
            b(m)
        ldr_sp(m)                                             # rhs_cols
        cmp(m, rhs_cols, 0)                                   # for (rhs_cols_idx = 0; ...)
        bcc(m, rhs_cols <= 0)
        if rhs_cols > 0:
            ldr_sp(m)                                         # lhs
            add(m, rhs, -1)
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
        # res00 = arm_nn_requantize(res00, *dst_multiplier++, *dst_shift++);
        ldr_sp(m)                                             # dst_shift
        if has_rhs_offset:
            multiplier = ldr(m, dst_multiplier)
            shift = ldr(m, dst_shift)
            left_shift = bic(m, shift, shift >> 31)           # LEFT_SHIFT(shift)
            val = lsl(m, res00, left_shift)
            str_sp(m)
            hi = mov(m, 0)
            lo = mov(m, 1 << 30)
        else:
            hi = mov(m, 0)
            shift = ldr(m, dst_shift)
            multiplier = ldr(m, dst_multiplier)
            str_sp(m)
            left_shift = bic(m, shift, shift >> 31)
            val = lsl(m, res00, left_shift)
            lo = mov(m, 1 << 30)
        dst_multiplier += 4
        dst_shift += 4
        lo, hi = smlal(m, lo, hi, val, multiplier)
        cmp(m, shift, 0)
        res00 = orr(m, lsr(m, lo, 31), hi << 1)
        bcc(m, shift > 0)                                     # bgt: RIGHT_SHIFT 0
        if shift <= 0:
            exponent = rsb(m, shift, 0)
            remainder_mask = sub(m, lsl(m, 1, exponent), 1)   # (1 << exponent) - 1 (the 1 in a register)
            remainder = and_(m, res00, remainder_mask)
            res00 = asr(m, res00, exponent)                   # ASRS: N = the sign
            threshold = asr(m, remainder_mask, 1)
            negative = res00 < 0
            it(m, not negative)
            if negative:
                threshold = add(m, threshold, 1)              # threshold++
            cmp(m, remainder, threshold)
            up = remainder > threshold
            it(m, not up)
            if up:
                res00 = add(m, res00, 1)                      # result++
        ldr_sp(m)                                             # dst_offset
        res00 = add(m, res00, dst_offset)                     # res00 += dst_offset;
        ldr_sp(m)                                             # activation_min
        res00 = max_lt(m, res00, activation_min)              # res00 = MAX(res00, activation_min);
        ldr_sp(m)                                             # rhs_cols
        rhs = add(m, rhs, rhs_cols)                           # rhs += rhs_cols;
        ldr_sp(m)                                             # activation_max
        res00 = min_ge(m, res00, activation_max)              # res00 = MIN(res00, activation_max);
        last = i + 1 == loop_cnt
        if has_rhs_offset:
            ldr_sp(m)                                         # dst
            strb(m, dst, res00)                               # *dst = (int8_t)res00;
            mov(m, dst)
            ldr_sp(m)                                         # address_offset
            dst = add(m, dst, address_offset)                 # dst += address_offset;
            str_sp(m)
            ldr_sp(m)
            cmp(m, loop_cnt, i + 1)
            bcc(m, not last)                                  # bne
            if not last:
                cmp(m, bias, 0)                               # the rotated if (bias)
                bcc(m, bias == 0)
        else:
            strb(m, dst, res00)
            ldr_sp(m)
            dst = add(m, dst, address_offset)
            ldr_sp(m)
            cmp(m, loop_cnt, i + 1)
            bcc(m, last)                                      # beq: done
            if not last:
                cmp(m, bias, 0)
                bcc(m, bias != 0)                             # bne


@kernel
def _scalar(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier, dst_shift, rhs_cols,
            rhs_rows, activation_min, activation_max, address_offset, rhs_offset):
    """The plain-C body after the frame: both copies of the C."""
    ldr_sp(m)                                                 # rhs_rows
    mov(m, bias)
    ldr_lit(m)                                                # 0x55555556
    ldr_sp(m)                                                 # rhs_offset
    _lo, q = smull(m, 0x55555556, rhs_rows)                   # rhs_rows / 3 by the reciprocal
    mov(m, rhs)
    ldr_sp(m)                                                 # lhs_offset
    str_sp(m)                                                 # lhs
    row_loop_cnt = sub(m, q, rhs_rows >> 31)                  # const int32_t row_loop_cnt = rhs_rows / 3;
    cmp(m, rhs_offset, 0)                                     # if (rhs_offset)
    bcc(m, rhs_offset == 0)
    has_rhs_offset = rhs_offset != 0
    cmp(m, rhs_rows, 2)
    str_sp(m)
    sign = asr(m, rhs_rows, 31)
    bcc(m, rhs_rows <= 2)                                     # ble: no row triple
    if rhs_rows > 2:
        bias, dst = _scalar_row_triples(m, lhs, rhs, bias, dst, lhs_offset, dst_offset,
                                        dst_multiplier, dst_shift, rhs_cols, row_loop_cnt,
                                        activation_min, activation_max, address_offset,
                                        rhs_offset, has_rhs_offset)
        rhs += 3 * rhs_cols * row_loop_cnt
        dst_multiplier += 12 * row_loop_cnt
        dst_shift += 12 * row_loop_cnt
        ldr_sp(m)                                             # rhs_rows
        if has_rhs_offset:
            add(m, row_loop_cnt, 2 * row_loop_cnt)
        else:
            ldr_sp(m)
        cmp(m, rhs_rows, 2)
        it(m, 1)                                              # ite gt: one of the pair runs
        mov(m, row_loop_cnt)
        if not has_rhs_offset:
            add(m, row_loop_cnt, 2 * row_loop_cnt)
        lsl(m, 3 * row_loop_cnt, 2)
        it(m, 1)                                              # movle: rhs_rows > 2 here
        ldr_sp(m)
        ldr_sp(m)
        mla(m, row_loop_cnt, 3 * address_offset, 0)           # dst after the triples
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        mla(m, row_loop_cnt, 3 * rhs_cols, 0)                 # rhs after the triples
        ldr_sp(m)
        add(m, 0, 0)                                          # dst_multiplier after them
        str_sp(m)
        ldr_sp(m)
        add(m, 0, 0)                                          # dst_shift after them
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
def arm_nn_vec_mat_mult_t_per_ch_s8(m, lhs, rhs, kernel_sum, bias, dst, lhs_offset, dst_offset,
                                    dst_multiplier, dst_shift, rhs_cols, rhs_rows,
                                    activation_min, activation_max, address_offset, rhs_offset):
    """`dst_multiplier` and `dst_shift`: addresses of the per-row int32 arrays.  Returns
    ARM_CMSIS_NN_SUCCESS (0); `kernel_sum` is MVE's, unused here."""
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #76 / #60
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
