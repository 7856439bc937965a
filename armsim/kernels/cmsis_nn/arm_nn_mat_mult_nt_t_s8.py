"""arm_nn_mat_mult_nt_t_s8 (Source/NNSupportFunctions/arm_nn_mat_mult_nt_t_s8.c), non-MVE.

    arm_cmsis_nn_status arm_nn_mat_mult_nt_t_s8(const int8_t *lhs, const int8_t *rhs,
        const int32_t *bias, int8_t *dst, const int32_t *dst_multipliers,
        const int32_t *dst_shifts, int32_t lhs_rows, int32_t rhs_rows, int32_t rhs_cols,
        int32_t lhs_offset, int32_t dst_offset, int32_t activation_min,
        int32_t activation_max, int32_t row_address_offset, int32_t lhs_cols_offset)

dst[r][c] = clamp(requantize(bias[c] + sum_k (lhs[r][k] + lhs_offset) * rhs[c][k]) + dst_offset)
with lhs row r at lhs + r * lhs_cols_offset.  The lhs offset is folded in up front:
lhs_offset_contribution = lhs_offset * sum_k rhs[c][k] (+ bias), then the MAC loops use the
raw lhs.  Two rhs rows (output channels) x two lhs rows per block; in the DSP build 16
columns per step (SXTB16 and SXTB16_RORn(x, 8) -- the ROR folded into SXTB16's rotation --
and SMLAD), then four, then single columns; an odd lhs row and an odd rhs row apart.

Transcribed from gcc 12.2 -O2's disassembly, -mcpu=cortex-m4 (`_m4`, ARM_MATH_DSP) and
-mcpu=cortex-m3 (`_m3`, plain C), each in its own order: the set-up that spills the loop
invariants; the offset contribution loop; gcc's software-pipelined 16-column step (89
instructions, the next quarter's first load issued before the last SMLAD) and 4-column
step (24); the single columns (the odd lhs row's res00 by SMLABB); and the requantization
of a 2x2 block as gcc schedules it: per channel the doubling multiply of both lhs rows,
branches on the shift's sign (and, in the M4 build, on the first result's sign), the
rounding of the first row's value inline (ITE PL) and of the second row's in a common tail
(IT LT blocks), then the offsets, the clamps and the stores.  The odd rhs row requantizes
each value on its own (gcc's inlined arm_nn_requantize, `requantize_inlined`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (REQUANTIZE, add, and_, asr, b, bcc, bic, cbz, cmp, enter_region, it,
                            ldr, ldr_sp, ldrd_sp, ldrsb, leave_region, lsl, lsr, mla, mov, mul,
                            mvn, orr, pop_pc, push, rsb, smlabb, smlad, smlal, str_sp, strb,
                            strd_sp, sub, sxtb16, tst)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_requantize import (divide_by_power_of_two_inlined, requantize_inlined,
                                requantize_single_rounding)

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _quarter(m, rp, lp, rhs_cols, lhs_cols_offset, a, res00, res01, res10, res11, first, last):
    """Four columns of the 2x2 block inside gcc's 16-column step: rhs row 0's word `a` is
    already loaded (by the previous quarter, before its last SMLAD); returns the next
    quarter's (unless `last`)."""
    if first:
        a = ldr(m, rp)                                # val1 = arm_nn_read_s8x4_ia(&rhs_ptr);
    b_ = ldr(m, lp)                                   # val0 = arm_nn_read_s8x4_ia(&lhs_ptr);
    c = ldr(m, rp + rhs_cols)                         # val4 = arm_nn_read_s8x4(&rhs_ptr[rhs_off0]);
    rhs0_lo = sxtb16(m, a, 0)                         # val2 = SXTB16(val1);
    if first:
        add(m, rp, 0)                                 # the quarters' base pointers
        add(m, lp, 0)
    lhs0_lo = sxtb16(m, b_, 0)                        # val3 = SXTB16(val0);
    rhs0_hi = sxtb16(m, a, 8)                         # val1 = SXTB16_RORn(val1, 8);
    lhs0_hi = sxtb16(m, b_, 8)                        # val0 = SXTB16_RORn(val0, 8);
    res00 = smlad(m, lhs0_lo, rhs0_lo, res00)         # res00 = SMLAD(val3, val2, res00);
    rhs1_lo = sxtb16(m, c, 0)                         # val5 = SXTB16(val4);
    res00 = smlad(m, lhs0_hi, rhs0_hi, res00)         # res00 = SMLAD(val0, val1, res00);
    rhs1_hi = sxtb16(m, c, 8)                         # val4 = SXTB16_RORn(val4, 8);
    res01 = smlad(m, lhs0_lo, rhs1_lo, res01)         # res01 = SMLAD(val3, val5, res01);
    res01 = smlad(m, lhs0_hi, rhs1_hi, res01)         # res01 = SMLAD(val0, val4, res01);
    d = ldr(m, lp + lhs_cols_offset)                  # val0 = arm_nn_read_s8x4(&lhs_ptr[lhs_off0]);
    lhs1_lo = sxtb16(m, d, 0)                         # val3 = SXTB16(val0);
    lhs1_hi = sxtb16(m, d, 8)                         # val0 = SXTB16_RORn(val0, 8);
    res10 = smlad(m, lhs1_lo, rhs0_lo, res10)         # res10 = SMLAD(val3, val2, res10);
    res11 = smlad(m, lhs1_lo, rhs1_lo, res11)         # res11 = SMLAD(val3, val5, res11);
    res10 = smlad(m, lhs1_hi, rhs0_hi, res10)         # res10 = SMLAD(val0, val1, res10);
    if not last:
        a = ldr(m, rp + 4)                            # val1 = arm_nn_read_s8x4_ia(&rhs_ptr);
    res11 = smlad(m, lhs1_hi, rhs1_hi, res11)         # res11 = SMLAD(val0, val4, res11);
    return a, res00, res01, res10, res11


@kernel(inline=True)
def _m4_block_columns(m, rhs, lhs_ptr, rhs_cols, lhs_cols_offset, res00, res01, res10, res11):
    """The column loops of a 2x2 block (0x126-0x388).  Returns (lhs_ptr advanced past the
    columns, res00, res01, res10, res11)."""
    rhs_ptr = rhs
    idx = 0
    ldr_sp(m)                                         # rhs_cols
    cmp(m, rhs_cols, 15)                              # rhs_cols_idx <= (rhs_cols - 16)
    bcc(m, rhs_cols <= 15)                            # ble.w
    if rhs_cols > 15:
        ldr_sp(m)                                 # 12e: ldr r3, [sp, #0x38]
        ldr_sp(m)                                 # 130: ldr r6, [sp, #0x34]
        str_sp(m)                                 # 132: str.w sl, [sp, #0x24]
        add(m, 0, 0)                              # 136: adds r1, r3, #5
        ldr_sp(m)                                 # 138: ldr r3, [sp, #0x50]
        add(m, 0, 0)                              # 13a: add.w r2, sl, r3
        ldr_sp(m)                                 # 13e: ldr r3, [sp, #0x54]
        add(m, 0, 0)                              # 140: add r3, sl
        str_sp(m)                                 # 142: str r3, [sp, #4]
        ldr_sp(m)                                 # 144: ldr r3, [sp, #0x30]
        mov(m, 0)                                 # 146: mov fp, r6
        mov(m, 0)                                 # 148: mov r7, r3
        a = 0
        for step in range(rhs_cols // 16):
            ldr_sp(m)                                 # -4 - rhs_cols, -4 - lhs_cols_offset
            ldr_sp(m)
            a, res00, res01, res10, res11 = _quarter(m, rhs_ptr, lhs_ptr, rhs_cols,
                                                     lhs_cols_offset, a, res00, res01, res10,
                                                     res11, True, False)
            for q in range(1, 4):
                a, res00, res01, res10, res11 = _quarter(
                    m, rhs_ptr + 4 * q, lhs_ptr + 4 * q, rhs_cols, lhs_cols_offset, a, res00,
                    res01, res10, res11, False, q == 3)
            rhs_ptr += 16
            lhs_ptr += 16
            idx += 16
            ldr_sp(m)                                 # the loop's end
            add(m, lhs_ptr, 0)
            cmp(m, idx, rhs_cols // 16 * 16)
            add(m, rhs_ptr, 0)
            bcc(m, idx < rhs_cols // 16 * 16)         # bne.w
        ldr_sp(m)                                 # 29c: ldr.w sl, [sp, #0x24]
        ldr_sp(m)                                 # 2a0: ldr.w lr, [sp, #0x40]
        ldr_sp(m)                                 # 2a4: ldr r1, [sp, #0x4c]
        add(m, 0, 0)                              # 2a6: add sl, lr
    else:
        ldr_sp(m)                                 # 660: ldr r6, [sp, #0x34]
        ldr_sp(m)                                 # 662: ldr r3, [sp, #0x30]
        ldr_sp(m)                                 # 664: ldr r1, [sp, #0x5c]
        mov(m, 0)                                 # 666: mov fp, r6
        mov(m, 0)                                 # 668: mov r7, r3
        mov(m, 0)                                 # 66a: mov.w lr, #0
        b(m)                                      # 66e: b #0x2a8
    ldr_sp(m)                                         # rhs_cols - 3
    cmp(m, idx, rhs_cols - 3)                         # rhs_cols_idx <= (rhs_cols - 4)
    bcc(m, idx >= rhs_cols - 3)                       # bge.w
    if idx < rhs_cols - 3:
        ldr_sp(m)                                 # 2b0: ldr r2, [sp, #0xc8]
        str_sp(m)                                 # 2b2: str.w lr, [sp, #4]
        sub(m, 0, 0)                              # 2b6: sub.w r8, r2, #4
        sub(m, 0, 0)                              # 2ba: sub.w r2, r8, lr
        lsr(m, 0, 0)                              # 2be: lsrs r0, r2, #2
        add(m, 0, 0)                              # 2c0: adds r4, r0, #1
        lsl(m, 0, 0)                              # 2c2: lsls r2, r4, #2
        strd_sp(m)                                # 2c4: strd r1, r2, [sp, #0x24]
        add(m, 0, 0)                              # 2c8: add.w sb, sl, r4, lsl #2
        mov(m, 0)                                 # 2cc: mov ip, r1
        str_sp(m)                                 # 2ce: str r0, [sp, #0x2c]
        n4 = (rhs_cols - 4 - idx) // 4 + 1
        for j in range(n4):
            val1 = ldr(m, rhs_ptr)                    # val1 = arm_nn_read_s8x4_ia(&rhs_ptr);
            val0 = ldr(m, lhs_ptr)                    # val0 = arm_nn_read_s8x4_ia(&lhs_ptr);
            val4 = ldr(m, rhs_ptr + rhs_cols)         # val4 = arm_nn_read_s8x4(&rhs_ptr[rhs_off0]);
            val2 = sxtb16(m, val1, 0)                 # val2 = SXTB16(val1);
            val3 = sxtb16(m, val0, 0)                 # val3 = SXTB16(val0);
            val1 = sxtb16(m, val1, 8)                 # val1 = SXTB16_RORn(val1, 8);
            val0 = sxtb16(m, val0, 8)                 # val0 = SXTB16_RORn(val0, 8);
            res00 = smlad(m, val3, val2, res00)       # res00 = SMLAD(val3, val2, res00);
            val5 = sxtb16(m, val4, 0)                 # val5 = SXTB16(val4);
            res00 = smlad(m, val0, val1, res00)       # res00 = SMLAD(val0, val1, res00);
            val4 = sxtb16(m, val4, 8)                 # val4 = SXTB16_RORn(val4, 8);
            res01 = smlad(m, val3, val5, res01)       # res01 = SMLAD(val3, val5, res01);
            res01 = smlad(m, val0, val4, res01)       # res01 = SMLAD(val0, val4, res01);
            ldr_sp(m)                                 # lhs_cols_offset
            add(m, lhs_ptr, lhs_cols_offset)
            val0 = ldr(m, lhs_ptr + lhs_cols_offset)  # val0 = arm_nn_read_s8x4(&lhs_ptr[lhs_off0]);
            val3 = sxtb16(m, val0, 0)                 # val3 = SXTB16(val0);
            val0 = sxtb16(m, val0, 8)                 # val0 = SXTB16_RORn(val0, 8);
            res10 = smlad(m, val3, val2, res10)       # res10 = SMLAD(val3, val2, res10);
            res11 = smlad(m, val3, val5, res11)       # res11 = SMLAD(val3, val5, res11);
            res10 = smlad(m, val0, val1, res10)       # res10 = SMLAD(val0, val1, res10);
            res11 = smlad(m, val0, val4, res11)       # res11 = SMLAD(val0, val4, res11);
            rhs_ptr += 4
            lhs_ptr += 4
            idx += 4
            cmp(m, j + 1, n4)                         # (lhs_ptr against the loop's end)
            bcc(m, j + 1 < n4)                        # bne
        ldrd_sp(m)                                # 328: ldrd r1, r2, [sp, #0x24]
        ldr_sp(m)                                 # 32c: ldr.w lr, [sp, #4]
        ldr_sp(m)                                 # 330: ldr r0, [sp, #0x2c]
        add(m, 0, 0)                              # 332: add.w lr, lr, #4
        add(m, 0, 0)                              # 336: add r1, r2
        add(m, 0, 0)                              # 338: add.w lr, lr, r0, lsl #2
    else:
        mov(m, lhs_ptr)
        b(m)
    ldr_sp(m)                                         # rhs_cols
    cmp(m, rhs_cols, idx)                             # rhs_cols_idx < rhs_cols
    bcc(m, rhs_cols <= idx)                           # ble
    if idx < rhs_cols:
        ldr_sp(m)                                 # 342: ldr r2, [sp, #0x58]
        add(m, 0, 0)                              # 344: add.w r8, r1, r2
        ldr_sp(m)                                 # 348: ldr r2, [sp, #0xc8]
        add(m, 0, 0)                              # 34a: add.w ip, r1, #-1
        add(m, 0, 0)                              # 34e: adds r2, r1, r2
        ldr_sp(m)                                 # 350: ldr r1, [sp, #0xe0]
        sub(m, 0, 0)                              # 352: sub.w r8, r8, lr
        add(m, 0, 0)                              # 356: add.w sl, sb, #-1
        add(m, 0, 0)                              # 35a: add.w r5, sb, r1
        for k in range(rhs_cols - idx):
            rhs_value1 = ldrsb(m, rhs_ptr + rhs_cols)  # int8_t rhs_value1 = rhs_ptr[rhs_cols];
            lhs_value = ldrsb(m, lhs_ptr)             # int8_t lhs_value = lhs_ptr[0];
            rhs_value0 = ldrsb(m, rhs_ptr)            # int8_t rhs_value0 = rhs_ptr[0];
            res01 = mla(m, lhs_value, rhs_value1, res01)  # res01 += lhs_value * rhs_value1;
            res00 = mla(m, lhs_value, rhs_value0, res00)  # res00 += lhs_value * rhs_value0;
            lhs_value = ldrsb(m, lhs_ptr + lhs_cols_offset)  # lhs_value = lhs_ptr[lhs_cols_offset];
            cmp(m, k + 1, rhs_cols - idx)
            res10 = mla(m, rhs_value0, lhs_value, res10)  # res10 += lhs_value * rhs_value0;
            res11 = mla(m, rhs_value1, lhs_value, res11)  # res11 += lhs_value * rhs_value1;
            rhs_ptr += 1
            lhs_ptr += 1
            bcc(m, k + 1 < rhs_cols - idx)            # bne
        ldr_sp(m)                                     # rhs_cols
        sub(m, rhs_cols, idx)
        add(m, lhs_ptr, 0)
    return lhs_ptr, res00, res01, res10, res11


@kernel(inline=True)
def _doubling_high_mult(m, val, multiplier):
    """MOV #1 << 30, MOVS #0, SMLAL (the caller shifted val left); returns (lo, hi)."""
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, val, multiplier)
    return lo, hi


@kernel(inline=True)
def _first_row_rounded(m, q0, res1, multiplier, shift):
    """shift <= 0: the exponent and mask, the second row's doubling multiply (no left shift),
    the first row's quotient rounded (ITE PL, IT GT), the second row's remainder, quotient
    and threshold for the common tail.  Returns (r0, q1 shifted, remainder1, threshold1)."""
    exponent = rsb(m, shift, 0)
    mask = sub(m, lsl(m, mov(m, 1), exponent), 1)     # remainder_mask = (1 << exponent) - 1
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, multiplier, res1)       # the second row's doubling multiply
    remainder0 = and_(m, q0, mask)
    threshold = asr(m, mask, 1)                       # threshold = remainder_mask >> 1
    r0 = asr(m, q0, exponent)                         # ASRS: N is the result's sign
    lo = lsr(m, lo, 31)
    it(m, 1)                                          # ite pl: MOVPL or ADDMI fails
    if r0 < 0:
        threshold0 = add(m, threshold, 1)             # if (result < 0) threshold++;
    else:
        threshold0 = mov(m, threshold)
    q1 = orr(m, lo, hi << 1)
    cmp(m, remainder0, threshold0)
    remainder1 = and_(m, mask, q1)
    r1 = asr(m, q1, exponent)
    up = remainder0 > threshold0
    it(m, not up)
    if up:
        r0 = add(m, r0, 1)                            # if (remainder > threshold) result++;
    b(m)
    return r0, r1, remainder1, threshold


@kernel(inline=True)
def _m4_block_store(outer, res00, res01, res10, res11, mult_address, shift_address, dst_ptr,
                    rhs_rows, dst_offset, activation_min, activation_max):
    """The four arm_nn_requantize of a 2x2 block as gcc interleaves them (0x38a-0x428: per
    channel both lhs rows' doubling multiplies, branches on the shift's sign and on the
    first result's sign, the first row rounded inline, the second in a common tail), the
    offsets, the clamps and the stores (0x42a-0x47a)."""
    m = enter_region(outer, REQUANTIZE)
    # channel 0: res00, res10  (dst_multipliers[rhs_rows_idx], dst_shifts[rhs_rows_idx])
    ldr_sp(m)
    shift0 = ldr(m, shift_address)
    ldr_sp(m)
    left0 = bic(m, shift0, shift0 >> 31)              # LEFT_SHIFT(shift)
    multiplier0 = ldr(m, mult_address)
    if m.single_rounding:                             # CMSIS_NN_USE_SINGLE_ROUNDING (not measured)
        r00 = requantize_single_rounding(m, res00, multiplier0, rsb(m, shift0, 30))
        r10 = requantize_single_rounding(m, res10, multiplier0, rsb(m, shift0, 30))
        remainder10, threshold10 = 0, 0
    else:
        lo, hi = _doubling_high_mult(m, lsl(m, res00, left0), multiplier0)
        lo = lsr(m, lo, 31)
        cmp(m, shift0, 0)
        q00 = orr(m, lo, hi << 1)
        bcc(m, shift0 <= 0)                           # ble.w
        if shift0 > 0:
            cmp(m, q00, 0)
            bcc(m, q00 < 0)                           # blt.w (the same code, other registers)
            lo, hi = _doubling_high_mult(m, lsl(m, res10, left0), multiplier0)
            lo = lsr(m, lo, 31)
            remainder10 = mov(m, 0)
            r10 = orr(m, lo, hi << 1)
            threshold10 = mov(m, 0)
            if q00 < 0:
                b(m)
            r00 = q00
        else:
            r00, r10, remainder10, threshold10 = _first_row_rounded(m, q00, res10,
                                                                    multiplier0, shift0)
    # channel 1: res01, res11
    ldr_sp(m)
    ldr_sp(m)
    shift1 = ldr(m, shift_address + 4)
    multiplier1 = ldr(m, mult_address + 4)
    left1 = bic(m, shift1, shift1 >> 31)
    if m.single_rounding:
        r01 = requantize_single_rounding(m, res01, multiplier1, rsb(m, shift1, 30))
        r11 = requantize_single_rounding(m, res11, multiplier1, rsb(m, shift1, 30))
        remainder11, threshold11 = 0, 0
    else:
        lo, hi = _doubling_high_mult(m, lsl(m, res01, left1), multiplier1)
        lo = lsr(m, lo, 31)
        cmp(m, shift1, 0)
        q01 = orr(m, lo, hi << 1)
        bcc(m, shift1 <= 0)                           # ble.w
        if shift1 > 0:
            lo, hi = _doubling_high_mult(m, lsl(m, res11, left1), multiplier1)
            lo = lsr(m, lo, 31)
            remainder11 = mov(m, 0)
            r11 = orr(m, lo, hi << 1)
            threshold11 = mov(m, 0)
            r01 = q01
        else:
            r01, r11, remainder11, threshold11 = _first_row_rounded(m, q01, res11,
                                                                    multiplier1, shift1)
    # the second row's rounding (if (result < 0) threshold++; if (remainder > threshold) result++)
    r10, threshold10 = _round_second_row(m, r10, remainder10, threshold10)
    cmp(m, r11, 0)
    negative = r11 < 0
    it(m, not negative)
    if negative:
        threshold11 = add(m, threshold11, 1)
    cmp(m, threshold11, remainder11)
    leave_region(outer, m)
    ldr_sp(m)                                         # dst_offset
    up = threshold11 < remainder11
    it(m, not up)
    if up:
        r11 = add(m, r11, 1)
    r00 = add(m, r00, dst_offset)                     # res00 += dst_offset;
    r01 = add(m, r01, dst_offset)
    r10 = add(m, r10, dst_offset)
    r11 = add(m, r11, dst_offset)
    ldr_sp(m)                                         # activation_min
    r00 = max_lt(m, r00, activation_min)              # res00 = MAX(res00, activation_min);
    r01 = max_lt(m, r01, activation_min)
    r10 = max_lt(m, r10, activation_min)
    r11 = max_lt(m, r11, activation_min)
    ldr_sp(m)                                         # activation_max
    r00 = min_ge(m, r00, activation_max)              # res00 = MIN(res00, activation_max);
    ldr_sp(m)                                         # dst_ptr
    strb(m, dst_ptr, r00)                             # dst_ptr[0] = (int8_t)res00;
    ldr_sp(m)
    r01 = min_ge(m, r01, activation_max)
    strb(m, dst_ptr + 1, r01)                         # dst_ptr[1] = (int8_t)res01;
    ldr_sp(m)
    r10 = min_ge(m, r10, activation_max)
    ldr_sp(m)
    strb(m, dst_ptr + rhs_rows, r10)  # dst_ptr[0] = (int8_t)res10;
    ldr_sp(m)
    r11 = min_ge(m, r11, activation_max)
    ldr_sp(m)
    strb(m, dst_ptr + rhs_rows + 1, r11)              # dst_ptr[1] = (int8_t)res11;


@kernel(inline=True)
def _round_second_row(m, r, remainder, threshold):
    """CMP r, #0; IT LT; ADDLT threshold; CMP threshold, remainder; IT LT; ADDLT r."""
    cmp(m, r, 0)
    negative = r < 0
    it(m, not negative)
    if negative:
        threshold = add(m, threshold, 1)              # if (result < 0) threshold++;
    cmp(m, threshold, remainder)
    up = threshold < remainder
    it(m, not up)
    if up:
        r = add(m, r, 1)                              # if (remainder > threshold) result++;
    return r, threshold


@kernel(inline=True)
def _m4_odd_lhs_row(m, rhs, lhs_ptr, rhs_cols, res00, res01):
    """Left-over lhs row against the two rhs rows, M4 build (0x670-0x828).  Returns
    (res00, res01)."""
    rhs_ptr = rhs
    idx = 0
    ldr_sp(m)                                         # rhs_cols
    cmp(m, rhs_cols, 15)
    bcc(m, rhs_cols <= 15)                            # ble.w
    if rhs_cols > 15:
        ldr_sp(m)                                 # 678: ldr r2, [sp, #0x40]
        ldr_sp(m)                                 # 67a: ldr r3, [sp, #0x38]
        ldr_sp(m)                                 # 67c: ldr r6, [sp, #8]
        str_sp(m)                                 # 67e: str.w sb, [sp, #0x20]
        add(m, 0, 0)                              # 682: add.w r8, fp, r2
        strd_sp(m)                                # 686: strd lr, r7, [sp, #0x18]
        ldrd_sp(m)                                # 68a: ldrd r1, r2, [sp, #0x30]
        add(m, 0, 0)                              # 68e: adds r3, #5
        n16 = rhs_cols // 16
        for step in range(n16):
            for q in range(4):                        # four columns each
                if q == 3:
                    val0 = ldr(m, rhs_ptr)            # val0 = arm_nn_read_s8x4_ia(&rhs_ptr);
                    val2 = ldr(m, lhs_ptr)            # val2 = arm_nn_read_s8x4_ia(&lhs_ptr);
                    # val1 = arm_nn_read_s8x4(&rhs_ptr[rhs_off0]);
                    val1 = ldr(m, rhs_ptr + rhs_cols)
                else:
                    val0 = ldr(m, rhs_ptr)
                    val1 = ldr(m, rhs_ptr + rhs_cols)
                    val2 = ldr(m, lhs_ptr)
                val3 = sxtb16(m, val0, 0)             # val3 = SXTB16(val0);
                if q == 0:
                    add(m, rhs_ptr, 0)
                if q == 3:
                    add(m, lhs_ptr, 16)
                val5 = sxtb16(m, val2, 0)             # val5 = SXTB16(val2);
                val4 = sxtb16(m, val1, 0)             # val4 = SXTB16(val1);
                val0 = sxtb16(m, val0, 8)             # val0 = SXTB16_RORn(val0, 8);
                val2 = sxtb16(m, val2, 8)             # val2 = SXTB16_RORn(val2, 8);
                val1 = sxtb16(m, val1, 8)             # val1 = SXTB16_RORn(val1, 8);
                res00 = smlad(m, val5, val3, res00)   # res00 = SMLAD(val5, val3, res00);
                res00 = smlad(m, val2, val0, res00)   # res00 = SMLAD(val2, val0, res00);
                res01 = smlad(m, val5, val4, res01)   # res01 = SMLAD(val5, val4, res01);
                res01 = smlad(m, val2, val1, res01)   # res01 = SMLAD(val2, val1, res01);
                rhs_ptr += 4
                lhs_ptr += 4
            idx += 16
            cmp(m, step + 1, n16)                     # (lhs_ptr against the loop's end)
            add(m, rhs_ptr, 0)
            bcc(m, step + 1 < n16)                    # bne
        strd_sp(m)                                # 766: strd r1, r2, [sp, #0x30]
        ldr_sp(m)                                 # 76a: ldr r3, [sp, #0x5c]
        ldr_sp(m)                                 # 76c: ldr r2, [sp, #0x40]
        ldr_sp(m)                                 # 76e: ldr.w sb, [sp, #0x20]
        ldrd_sp(m)                                # 772: ldrd lr, r7, [sp, #0x18]
        add(m, 0, 0)                              # 776: adds r4, r3, r2
        ldr_sp(m)                                 # 778: ldr r3, [sp, #0xc8]
        sub(m, 0, 0)                              # 77a: subs r3, #3
        cmp(m, 0, 0)                              # 77c: cmp r3, r2
    else:
        ldr_sp(m)                                 # 908: ldr r4, [sp, #0x5c]
        mov(m, 0)                                 # 90a: mov r8, fp
        mov(m, 0)                                 # 90c: movs r2, #0
        b(m)                                      # 90e: b #0x778
        ldr_sp(m)                                 # 778: ldr r3, [sp, #0xc8]
        sub(m, 0, 0)                              # 77a: subs r3, #3
        cmp(m, 0, 0)                              # 77c: cmp r3, r2
    bcc(m, rhs_cols - 3 <= idx)                       # ble.w: rhs_cols_idx <= (rhs_cols - 4)
    if idx <= rhs_cols - 4:
        ldr_sp(m)                                 # 782: ldr r3, [sp, #0xc8]
        str_sp(m)                                 # 784: str.w lr, [sp, #0x18]
        sub(m, 0, 0)                              # 788: sub.w ip, r3, #4
        sub(m, 0, 0)                              # 78c: sub.w r3, ip, r2
        lsr(m, 0, 0)                              # 790: lsrs r0, r3, #2
        add(m, 0, 0)                              # 792: adds r6, r0, #1
        lsl(m, 0, 0)                              # 794: lsls r3, r6, #2
        strd_sp(m)                                # 796: strd r2, r4, [sp, #0x20]
        strd_sp(m)                                # 79a: strd r0, r3, [sp, #0x28]
        str_sp(m)                                 # 79e: str r7, [sp, #0x1c]
        ldr_sp(m)                                 # 7a0: ldr.w lr, [sp, #0x34]
        ldr_sp(m)                                 # 7a4: ldr r7, [sp, #0x30]
        add(m, 0, 0)                              # 7a6: add.w r6, r8, r6, lsl #2
        mov(m, 0)                                 # 7aa: mov r5, r4
        n4 = (rhs_cols - 4 - idx) // 4 + 1
        for j in range(n4):
            val0 = ldr(m, rhs_ptr)                    # val0 = arm_nn_read_s8x4_ia(&rhs_ptr);
            val2 = ldr(m, lhs_ptr)                    # val2 = arm_nn_read_s8x4_ia(&lhs_ptr);
            val1 = ldr(m, rhs_ptr + rhs_cols)         # val1 = arm_nn_read_s8x4(&rhs_ptr[rhs_off0]);
            val3 = sxtb16(m, val0, 0)                 # val3 = SXTB16(val0);
            val5 = sxtb16(m, val2, 0)                 # val5 = SXTB16(val2);
            val4 = sxtb16(m, val1, 0)                 # val4 = SXTB16(val1);
            val0 = sxtb16(m, val0, 8)                 # val0 = SXTB16_RORn(val0, 8);
            val2 = sxtb16(m, val2, 8)                 # val2 = SXTB16_RORn(val2, 8);
            val1 = sxtb16(m, val1, 8)                 # val1 = SXTB16_RORn(val1, 8);
            res00 = smlad(m, val5, val3, res00)       # res00 = SMLAD(val5, val3, res00);
            res00 = smlad(m, val2, val0, res00)       # res00 = SMLAD(val2, val0, res00);
            res01 = smlad(m, val5, val4, res01)       # res01 = SMLAD(val5, val4, res01);
            res01 = smlad(m, val2, val1, res01)       # res01 = SMLAD(val2, val1, res01);
            rhs_ptr += 4
            lhs_ptr += 4
            idx += 4
            cmp(m, j + 1, n4)
            bcc(m, j + 1 < n4)                        # bne
        ldrd_sp(m)                                # 7e4: ldrd r2, r4, [sp, #0x20]
        ldrd_sp(m)                                # 7e8: ldrd r0, r3, [sp, #0x28]
        strd_sp(m)                                # 7ec: strd r7, lr, [sp, #0x30]
        ldrd_sp(m)                                # 7f0: ldrd lr, r7, [sp, #0x18]
        add(m, 0, 0)                              # 7f4: add r4, r3
        add(m, 0, 0)                              # 7f6: adds r3, r2, #4
        add(m, 0, 0)                              # 7f8: add.w r2, r3, r0, lsl #2
    else:
        mov(m, lhs_ptr)
        b(m)
    ldr_sp(m)                                         # rhs_cols
    cmp(m, rhs_cols, idx)                             # rhs_cols_idx < rhs_cols
    bcc(m, rhs_cols <= idx)                           # ble
    if idx < rhs_cols:
        sub(m, 0, 0)                              # 802: subs r3, r3, r2
        ldr_sp(m)                                 # 804: ldr r2, [sp, #0xc8]
        sub(m, 0, 0)                              # 806: subs r0, r4, #1
        add(m, 0, 0)                              # 808: adds r1, r4, r2
        ldrd_sp(m)                                # 80a: ldrd r4, r5, [sp, #0x30]
        add(m, 0, 0)                              # 80e: add r3, r6
        for k in range(rhs_cols - idx):
            lhs_value = ldrsb(m, lhs_ptr)             # int8_t lhs_value = lhs_ptr[0];
            rhs_value1 = ldrsb(m, rhs_ptr + rhs_cols)  # int8_t rhs_value1 = rhs_ptr[rhs_cols];
            res01 = mla(m, lhs_value, rhs_value1, res01)  # res01 += lhs_value * rhs_value1;
            rhs_value0 = ldrsb(m, rhs_ptr)            # int8_t rhs_value0 = rhs_ptr[0];
            cmp(m, k + 1, rhs_cols - idx)
            res00 = smlabb(m, lhs_value, rhs_value0, res00)  # res00 += lhs_value * rhs_value0;
            rhs_ptr += 1
            lhs_ptr += 1
            bcc(m, k + 1 < rhs_cols - idx)            # bne
        strd_sp(m)
    return res00, res01


@kernel(inline=True)
def _m4_odd_lhs_requantize(outer, res, mult_address, shift_address, late_multiplier):
    """arm_nn_requantize of the odd lhs row's values (0x82c-0x8b2): LDR (pointer), LDR
    (the spilled accumulator), the shift, BIC, LSL and the multiplier (in either order), a
    spare MOV, then gcc's usual sequence."""
    m = enter_region(outer, REQUANTIZE)
    ldr_sp(m)
    ldr_sp(m)
    shift = ldr(m, shift_address)
    ldr_sp(m)
    left = bic(m, shift, shift >> 31)
    if m.single_rounding:
        result = requantize_single_rounding(m, res, ldr(m, mult_address), rsb(m, shift, 30))
        leave_region(outer, m)
        return result
    if late_multiplier:
        val = lsl(m, res, left)
        multiplier = ldr(m, mult_address)
    else:
        multiplier = ldr(m, mult_address)
        val = lsl(m, res, left)
    val = mov(m, val)
    hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, val, multiplier)
    lo = lsr(m, lo, 31)
    cmp(m, shift, 0)
    result = orr(m, lo, hi << 1)
    bcc(m, shift > 0)                                 # bgt
    if shift <= 0:
        result = divide_by_power_of_two_inlined(m, result, shift, False)
    leave_region(outer, m)
    return result


@kernel
def _m4(m, lhs, rhs, bias, dst, dst_multipliers, dst_shifts, lhs_rows, rhs_rows, rhs_cols,
        lhs_offset, dst_offset, activation_min, activation_max, row_address_offset,
        lhs_cols_offset):
    """The ARM_MATH_DSP build (-mcpu=cortex-m4)."""
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                  # 4: sub sp, #0x94
    mov(m, 0)                                     # 6: mov r8, r1
    mov(m, 0)                                     # 8: mov r7, r3
    ldr_sp(m)                                     # a: ldr r1, [sp, #0xc4]
    ldr_sp(m)                                     # c: ldr r3, [sp, #0xc4]
    str_sp(m)                                     # e: str r0, [sp, #0x6c]
    sub(m, 0, 0)                                  # 10: subs r3, #1
    cmp(m, 0, 0)                                  # 12: cmp r1, #1
    ldrd_sp(m)                                    # 14: ldrd r0, lr, [sp, #0xbc]
    ldr_sp(m)                                     # 18: ldr r4, [sp, #0xb8]
    ldr_sp(m)                                     # 1a: ldr.w sl, [sp, #0xcc]
    str_sp(m)                                     # 1e: str r2, [sp, #0x80]
    str_sp(m)                                     # 20: str r3, [sp, #0x74]
    pairs = rhs_rows >= 2
    bcc(m, not pairs)                                 # ble.w: rhs_rows_idx <= (rhs_rows - 2)
    if pairs:
        mov(m, 0)                                 # 26: mov r6, r2
        ldr_sp(m)                                 # 28: ldr r2, [sp, #0xc8]
        ldr_sp(m)                                 # 2a: ldr r3, [sp, #0xc8]
        ldr_sp(m)                                 # 2c: ldr r5, [sp, #0xe0]
        str_sp(m)                                 # 2e: str r7, [sp, #0x8c]
        sub(m, 0, 0)                              # 30: subs r2, #1
        sub(m, 0, 0)                              # 32: subs r3, #0x10
        add(m, 0, 0)                              # 34: add r2, r8
        str_sp(m)                                 # 36: str r2, [sp, #0x38]
        bic(m, 0, 0)                              # 38: bic r2, r3, #0xf
        mov(m, 0)                                 # 3c: mov r3, r2
        add(m, 0, 0)                              # 3e: adds r2, #0x10
        str_sp(m)                                 # 40: str r2, [sp, #0x40]
        ldr_sp(m)                                 # 42: ldr r2, [sp, #0xc4]
        str_sp(m)                                 # 44: str.w r8, [sp, #0x5c]
        asr(m, 0, 0)                              # 48: asr.w r1, lr, #1
        mul(m, 0, 0)                              # 4c: mul r2, r2, r1
        str_sp(m)                                 # 50: str r1, [sp, #0x70]
        lsl(m, 0, 0)                              # 52: lsls r1, r2, #1
        ldr_sp(m)                                 # 54: ldr r2, [sp, #0xe0]
        str_sp(m)                                 # 56: str r1, [sp, #0x7c]
        add(m, 0, 0)                              # 58: adds r2, #0x14
        add(m, 0, 0)                              # 5a: adds r1, r2, r3
        str_sp(m)                                 # 5c: str r1, [sp, #0x54]
        mvn(m, 0)                                 # 5e: mvn r1, #3
        sub(m, 0, 0)                              # 62: subs r1, r1, r5
        ldr_sp(m)                                 # 64: ldr r5, [sp, #0xc8]
        str_sp(m)                                 # 66: str r1, [sp, #0xc]
        mvn(m, 0)                                 # 68: mvn r1, #3
        sub(m, 0, 0)                              # 6c: subs r1, r1, r5
        str_sp(m)                                 # 6e: str r1, [sp, #8]
        lsl(m, 0, 0)                              # 70: lsls r1, r5, #1
        str_sp(m)                                 # 72: str r1, [sp, #0x58]
        add(m, 0, 0)                              # 74: adds r1, r4, #4
        ldr_sp(m)                                 # 76: ldr r2, [sp, #0xe0]
        str_sp(m)                                 # 78: str r1, [sp, #0x14]
        add(m, 0, 0)                              # 7a: adds r1, r0, #4
        str_sp(m)                                 # 7c: str r1, [sp, #0x10]
        ldr_sp(m)                                 # 7e: ldr r1, [sp, #0xc4]
        rsb(m, 0, 0)                              # 80: rsb r3, r5, r2, lsl #1
        add(m, 0, 0)                              # 84: adds r2, r6, #4
        lsl(m, 0, 0)                              # 86: lsls r1, r1, #1
        strd_sp(m)                                # 88: strd r2, r8, [sp, #0x84]
        mov(m, 0)                                 # 8c: mov fp, r7
        str_sp(m)                                 # 8e: str r3, [sp, #0x44]
        str_sp(m)                                 # 90: str r1, [sp, #0x48]
        and_(m, 0, 0)                             # 92: and r3, lr, #1
        mov(m, 0)                                 # 96: movs r1, #0
        str_sp(m)                                 # 98: str r3, [sp, #0x78]
        mov(m, 0)                                 # 9a: mov sb, r6
        mov(m, 0)                                 # 9c: mov r7, r1
        mov(m, 0)                                 # 9e: mov lr, fp
    rhs_rows_idx = 0
    while rhs_rows_idx <= rhs_rows - 2:
        lhs_ptr = lhs                                 # const int8_t *lhs_ptr = &lhs[0];
        dst_ptr = dst                                 # int8_t *dst_ptr = &dst[0];
        ldr_sp(m)                                     # rhs_cols
        cmp(m, rhs_cols, 0)
        bcc(m, rhs_cols <= 0)                         # ble.w
        c0 = 0
        c1 = 0
        if rhs_cols > 0:
            ldr_sp(m)                             # a8: ldr r3, [sp, #0x5c]
            ldr_sp(m)                             # aa: ldr r5, [sp, #0x38]
            mov(m, 0)                             # ac: movs r2, #0
            sub(m, 0, 0)                          # ae: subs r3, #1
            mov(m, 0)                             # b0: mov r0, r5
            mov(m, 0)                             # b2: mov r1, r2
            for x in range(rhs_cols):
                c0 = add(m, c0, ldrsb(m, rhs + x))    # lhs_offset_contribution0 += rhs[x];
                c1_value = ldrsb(m, rhs + x + rhs_cols)
                cmp(m, x + 1, rhs_cols)
                c1 = add(m, c1, c1_value)  # contribution1 += rhs[x + rhs_cols];
                bcc(m, x + 1 < rhs_cols)              # bne
            c0 = mul(m, c0, lhs_offset)               # lhs_offset_contribution0 *= lhs_offset;
            str_sp(m)
            c1 = mul(m, c1, lhs_offset)               # lhs_offset_contribution1 *= lhs_offset;
            str_sp(m)
        else:
            mov(m, 0)
            strd_sp(m)
            b(m)
        cmp(m, bias, 0)                               # if (bias)
        bcc(m, bias == 0)                             # beq
        if bias != 0:
            bias0 = ldr(m, bias + 4 * rhs_rows_idx)
            ldr_sp(m)
            c0 = add(m, c0, bias0)  # contribution0 += bias[rhs_rows_idx];
            ldr_sp(m)
            str_sp(m)
            bias1 = ldr(m, bias + 4 * rhs_rows_idx + 4)
            ldr_sp(m)
            c1 = add(m, c1, bias1)  # contribution1 += bias[rhs_rows_idx + 1];
            str_sp(m)
        lhs_rows_idx = lhs_rows >> 1                  # int32_t lhs_rows_idx = lhs_rows >> 1;
        ldr_sp(m)
        cmp(m, lhs_rows_idx, 0)                       # while (lhs_rows_idx)
        bcc(m, lhs_rows_idx == 0)                     # beq.w
        if lhs_rows_idx:
            ldr_sp(m)                             # f4: ldr r3, [sp, #0xc4]
            ldr_sp(m)                             # f6: ldr r1, [sp, #0x40]
            ldr_sp(m)                             # f8: ldr.w fp, [sp, #0x6c]
            str_sp(m)                             # fc: str.w sl, [sp, #0xcc]
            add(m, 0, 0)                          # 100: adds r3, #1
            add(m, 0, 0)                          # 102: add r3, lr
            str_sp(m)                             # 104: str r3, [sp, #0x20]
            ldr_sp(m)                             # 106: ldr r3, [sp, #0xc8]
            str_sp(m)                             # 108: str.w sb, [sp, #0x68]
            sub(m, 0, 0)                          # 10c: subs r3, #3
            str_sp(m)                             # 10e: str r3, [sp, #0x3c]
            ldr_sp(m)                             # 110: ldr r3, [sp, #0x5c]
            add(m, 0, 0)                          # 112: add r3, r1
            str_sp(m)                             # 114: str r3, [sp, #0x4c]
            ldr_sp(m)                             # 116: ldr r3, [sp, #0xe0]
            strd_sp(m)                            # 118: strd lr, r2, [sp, #0x18]
            strd_sp(m)                            # 11c: strd lr, r7, [sp, #0x60]
            add(m, 0, 0)                          # 120: adds r3, #4
            str_sp(m)                             # 122: str r3, [sp, #0x50]
            mov(m, 0)                             # 124: mov sl, fp
            while lhs_rows_idx:
                lhs_ptr, res00, res01, res10, res11 = _m4_block_columns(
                    m, rhs, lhs_ptr, rhs_cols, lhs_cols_offset, c0, c1, c0, c1)
                _m4_block_store(m, res00, res01, res10, res11,
                                dst_multipliers + 4 * rhs_rows_idx,
                                dst_shifts + 4 * rhs_rows_idx, dst_ptr, rhs_rows, dst_offset,
                                activation_min, activation_max)
                dst_ptr += 2 * rhs_rows               # dst_ptr += rhs_rows; (twice)
                lhs_ptr += 2 * lhs_cols_offset - rhs_cols  # lhs_ptr += 2 * lhs_cols_offset;
                mov(m, 0)                         # 47c: mov r2, r4
                add(m, 0, 0)                      # 47e: add r2, r3
                add(m, 0, 0)                      # 480: adds r3, r0, r3
                str_sp(m)                         # 482: str r3, [sp, #0x20]
                ldr_sp(m)                         # 484: ldr r3, [sp, #0x1c]
                str_sp(m)                         # 486: str r2, [sp, #0x18]
                ldr_sp(m)                         # 488: ldr r2, [sp, #0x44]
                sub(m, 0, 0)                      # 48a: subs r3, #1
                add(m, 0, 0)                      # 48c: add.w sl, sb, r2
                str_sp(m)                         # 490: str r3, [sp, #0x1c]
                lhs_rows_idx -= 1                     # lhs_rows_idx--;
                bcc(m, lhs_rows_idx != 0)             # bne.w
            ldrd_sp(m)                            # 496: ldrd lr, r7, [sp, #0x60]
            ldr_sp(m)                             # 49a: ldr r3, [sp, #0x7c]
            ldr_sp(m)                             # 49c: ldr.w sb, [sp, #0x68]
            mov(m, 0)                             # 4a0: mov fp, sl
            add(m, 0, 0)                          # 4a2: add r3, lr
            ldr_sp(m)                             # 4a4: ldr.w sl, [sp, #0xcc]
            str_sp(m)                             # 4a8: str r3, [sp, #4]
        else:
            ldr_sp(m)
            str_sp(m)
            b(m)
        # Left-over rows
        ldr_sp(m)
        cmp(m, lhs_rows & 1, 0)                       # if (lhs_rows % 2)
        bcc(m, (lhs_rows & 1) != 0)                   # bne.w
        if lhs_rows & 1:
            res00, res01 = _m4_odd_lhs_row(m, rhs, lhs_ptr, rhs_cols, c0, c1)
            r00 = _m4_odd_lhs_requantize(m, res00, dst_multipliers + 4 * rhs_rows_idx,
                                         dst_shifts + 4 * rhs_rows_idx, True)
            r01 = _m4_odd_lhs_requantize(m, res01, dst_multipliers + 4 * rhs_rows_idx + 4,
                                         dst_shifts + 4 * rhs_rows_idx + 4, False)
            ldr_sp(m)                                 # dst_offset
            ldr_sp(m)
            r01 = add(m, r01, dst_offset)             # res01 += dst_offset;
            ldr_sp(m)                                 # activation_min
            r00 = add(m, dst_offset, r00)             # res00 += dst_offset;
            r00 = max_lt(m, r00, activation_min)      # res00 = MAX(res00, activation_min);
            r01 = max_lt(m, r01, activation_min)      # res01 = MAX(res01, activation_min);
            ldr_sp(m)                                 # activation_max
            r00 = min_ge(m, r00, activation_max)      # res00 = MIN(res00, activation_max);
            ldr_sp(m)                                 # dst_ptr
            strb(m, dst_ptr, r00)                     # dst_ptr[0] = (int8_t)res00;
            ldr_sp(m)
            r01 = min_ge(m, r01, activation_max)      # res01 = MIN(res01, activation_max);
            strb(m, dst_ptr + 1, r01)                 # dst_ptr[1] = (int8_t)res01;
            b(m)
        rhs += 2 * rhs_cols                           # rhs += 2 * rhs_cols;
        dst += 2                                      # dst += 2;
        rhs_rows_idx += 2
        ldrd_sp(m)                                # 4b2: ldrd r2, r3, [sp, #0x58]
        add(m, 0, 0)                              # 4b6: add r3, r2
        str_sp(m)                                 # 4b8: str r3, [sp, #0x5c]
        ldr_sp(m)                                 # 4ba: ldr r3, [sp, #0x38]
        add(m, 0, 0)                              # 4bc: add r3, r2
        str_sp(m)                                 # 4be: str r3, [sp, #0x38]
        ldr_sp(m)                                 # 4c0: ldr r3, [sp, #0x14]
        add(m, 0, 0)                              # 4c2: adds r3, #8
        str_sp(m)                                 # 4c4: str r3, [sp, #0x14]
        ldr_sp(m)                                 # 4c6: ldr r3, [sp, #0x10]
        add(m, 0, 0)                              # 4c8: adds r3, #8
        str_sp(m)                                 # 4ca: str r3, [sp, #0x10]
        ldr_sp(m)                                 # 4cc: ldr r3, [sp, #0x74]
        add(m, 0, 0)                              # 4ce: adds r7, #2
        cmp(m, 0, 0)                              # 4d0: cmp r7, r3
        add(m, 0, 0)                              # 4d2: add.w lr, lr, #2
        bcc(m, rhs_rows_idx <= rhs_rows - 2)          # blt.w
    if pairs:
        ldrd_sp(m)                                # 4da: ldrd lr, r3, [sp, #0xc0]
        ldrd_sp(m)                                # 4de: ldrd r8, r7, [sp, #0x88]
        sub(m, 0, 0)                              # 4e2: subs r3, #2
        lsr(m, 0, 0)                              # 4e4: lsrs r3, r3, #1
        ldrd_sp(m)                                # 4e6: ldrd r4, r0, [sp, #0xb8]
        mla(m, 0, 0, 0)                           # 4ea: mla r2, r3, r2, r2
        add(m, 0, 0)                              # 4ee: adds r3, #1
        add(m, 0, 0)                              # 4f0: add r8, r2
        add(m, 0, 0)                              # 4f2: add.w r7, r7, r3, lsl #1
    ldr_sp(m)                                         # rhs_rows
    lsl(m, rhs_rows, 31)                              # if (rhs_rows % 2)
    bcc(m, (rhs_rows & 1) == 0)                       # bpl
    if rhs_rows & 1:
        cmp(m, lhs_rows, 0)
        bcc(m, lhs_rows <= 0)                         # ble
        if lhs_rows > 0:
            ldr_sp(m)                             # 502: ldr r3, [sp, #0xe0]
            ldr_sp(m)                             # 504: ldr r2, [sp, #0xc8]
            sub(m, 0, 0)                          # 506: sub.w ip, r3, r2
            ldr_sp(m)                             # 50a: ldr r3, [sp, #0xc4]
            ldr_sp(m)                             # 50c: ldr r2, [sp, #0x80]
            str_sp(m)                             # 50e: str.w ip, [sp, #4]
            add(m, 0, 0)                          # 512: add.w r3, r3, #0x40000000
            sub(m, 0, 0)                          # 516: subs r3, #1
            add(m, 0, 0)                          # 518: add.w fp, r0, r3, lsl #2
            add(m, 0, 0)                          # 51c: add.w r4, r4, r3, lsl #2
            ldr_sp(m)                             # 520: ldr.w ip, [sp, #0xc8]
            add(m, 0, 0)                          # 524: add.w r3, r2, r3, lsl #2
            ldr_sp(m)                             # 528: ldr r2, [sp, #0x6c]
            str_sp(m)                             # 52a: str r3, [sp, #8]
            mov(m, 0)                             # 52c: movs r0, #0
            lhs_ptr = lhs
            dst_ptr = dst
            for lhs_rows_idx in range(lhs_rows):
                rhs_ptr = rhs
                ldr_sp(m)                             # bias
                cmp(m, bias, 0)                       # if (bias)
                bcc(m, bias == 0)                     # beq.w
                if bias != 0:
                    ldr_sp(m)
                    cmp(m, rhs_cols, 0)
                    res00 = ldr(m, bias + 4 * (rhs_rows - 1))  # res00 = bias[rhs_rows - 1];
                    bcc(m, rhs_cols <= 0)             # ble.w
                else:
                    cmp(m, rhs_cols, 0)
                    res00 = 0
                    ldr_sp(m)
                    bcc(m, rhs_cols > 0)              # bgt.w
                if rhs_cols > 0:
                    add(m, rhs_ptr, -1)
                    add(m, lhs_ptr, rhs_cols)         # the loop's end
                    for k in range(rhs_cols):
                        lhs_value = ldrsb(m, lhs_ptr + k)  # lhs_ptr[0]
                        rhs_value = ldrsb(m, rhs_ptr + k)  # int32_t rhs_value = rhs_ptr[0];
                        lhs_value = add(m, lhs_value, lhs_offset)  # lhs_ptr[0] + lhs_offset
                        cmp(m, k + 1, rhs_cols)
                        # res00 += lhs_value * rhs_value;
                        res00 = mla(m, rhs_value, lhs_value, res00)
                        bcc(m, k + 1 < rhs_cols)      # bne
                else:
                    mov(m, lhs_ptr)
                    b(m)
                ldr_sp(m)                             # lhs_cols_offset - rhs_cols
                shift = ldr(m, dst_shifts + 4 * (rhs_rows - 1))
                add(m, lhs_ptr, lhs_cols_offset)  # lhs_ptr += lhs_cols_offset;
                lhs_ptr += lhs_cols_offset
                res00 = requantize_inlined(m, res00, dst_multipliers + 4 * (rhs_rows - 1), shift,
                                           False)
                ldr_sp(m)
                res00 = add(m, res00, dst_offset)     # res00 += dst_offset;
                ldr_sp(m)
                res00 = max_lt(m, res00, activation_min)  # res00 = MAX(res00, activation_min);
                ldr_sp(m)
                res00 = min_ge(m, res00, activation_max)  # res00 = MIN(res00, activation_max);
                strb(m, dst_ptr, res00)               # dst_ptr[0] = (int8_t)res00;
                add(m, lhs_rows_idx, 1)
                ldr_sp(m)
                cmp(m, lhs_rows_idx + 1, lhs_rows)
                dst_ptr = add(m, dst_ptr, rhs_rows)   # dst_ptr += rhs_rows;
                bcc(m, lhs_rows_idx + 1 < lhs_rows)   # bne
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                      # add sp, #148
    pop_pc(m, 9)
    return 0


@kernel(inline=True)
def _m3_block_requantize(outer, res00, res01, res10, res11, mult_address, shift_address):
    """The four arm_nn_requantize of a 2x2 block, M3 build (0x13e-0x1ea): per channel both
    lhs rows' doubling multiplies, branches on the shift's sign (channel 0: and on the first
    result's sign; channel 1 with a negative shift: on the first rounded result's sign),
    the first row rounded inline, the second in the common tail.  Returns the results."""
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:                             # CMSIS_NN_USE_SINGLE_ROUNDING (not measured)
        shift0 = ldr(m, shift_address)
        multiplier0 = ldr(m, mult_address)
        shift1 = ldr(m, shift_address + 4)
        multiplier1 = ldr(m, mult_address + 4)
        r00 = requantize_single_rounding(m, res00, multiplier0, rsb(m, shift0, 30))
        r01 = requantize_single_rounding(m, res01, multiplier1, rsb(m, shift1, 30))
        r10 = requantize_single_rounding(m, res10, multiplier0, rsb(m, shift0, 30))
        r11 = requantize_single_rounding(m, res11, multiplier1, rsb(m, shift1, 30))
        leave_region(outer, m)
        return r00, r01, r10, r11, 0, 0
    # channel 0: res00, res10
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    ldr_sp(m)
    ldr_sp(m)
    shift0 = ldr(m, shift_address)
    multiplier0 = ldr(m, mult_address)
    left0 = bic(m, shift0, shift0 >> 31)
    lo, hi = smlal(m, lo, hi, lsl(m, res00, left0), multiplier0)
    cmp(m, shift0, 0)
    lo = lsr(m, lo, 31)
    q00 = orr(m, lo, hi << 1)
    bcc(m, shift0 <= 0)                               # ble.w
    if shift0 > 0:
        cmp(m, q00, 0)
        bcc(m, q00 < 0)                               # blt.w (the same code, other registers)
        val = lsl(m, res10, left0)
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        remainder10 = mov(m, 0)
        lo, hi = smlal(m, lo, hi, multiplier0, val)
        lo = lsr(m, lo, 31)
        r10 = orr(m, lo, hi << 1)
        threshold10 = mov(m, remainder10)
        if q00 < 0:
            b(m)
        r00 = q00
    else:
        one = mov(m, 1)
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        exponent = rsb(m, shift0, 0)
        mask = sub(m, lsl(m, one, exponent), 1)       # remainder_mask = (1 << exponent) - 1
        remainder00 = and_(m, q00, mask)
        threshold10 = asr(m, mask, 1)                 # threshold = remainder_mask >> 1
        r00 = asr(m, q00, exponent)                   # ASRS: N is the result's sign
        lo, hi = smlal(m, lo, hi, multiplier0, res10)
        it(m, 1 if r00 < 0 else 0)                    # it pl; movpl
        lo = lsr(m, lo, 31)
        it(m, 0 if r00 < 0 else 1)                    # it mi; addmi
        if r00 < 0:
            threshold00 = add(m, threshold10, 1)      # if (result < 0) threshold++;
        else:
            threshold00 = mov(m, threshold10)
        q10 = orr(m, lo, hi << 1)
        cmp(m, remainder00, threshold00)
        remainder10 = and_(m, mask, q10)
        r10 = asr(m, q10, exponent)
        up = remainder00 > threshold00
        it(m, not up)
        if up:
            r00 = add(m, r00, 1)                      # if (remainder > threshold) result++;
        b(m)
    # channel 1: res01, res11
    ldr_sp(m)
    hi = mov(m, 0)
    multiplier1 = ldr(m, mult_address + 4)
    lo = mov(m, 1 << 30)
    ldr_sp(m)
    shift1 = ldr(m, shift_address + 4)
    left1 = bic(m, shift1, shift1 >> 31)
    lo, hi = smlal(m, lo, hi, lsl(m, res01, left1), multiplier1)
    cmp(m, shift1, 0)
    lo = lsr(m, lo, 31)
    q01 = orr(m, lo, hi << 1)
    bcc(m, shift1 <= 0)                               # ble.w
    if shift1 > 0:
        val = lsl(m, res11, left1)
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        remainder11 = mov(m, 0)
        lo, hi = smlal(m, lo, hi, multiplier1, val)
        threshold11 = mov(m, remainder11)
        lo = lsr(m, lo, 31)
        r11 = orr(m, lo, hi << 1)
        r01 = q01
    else:
        one = mov(m, 1)
        exponent = rsb(m, shift1, 0)
        mask = sub(m, lsl(m, one, exponent), 1)
        remainder01 = and_(m, q01, mask)
        lo = mov(m, 1 << 30)
        str_sp(m)                                     # (the exponent, spilled)
        r01 = asr(m, q01, exponent)                   # ASRS: N is the result's sign
        hi = mov(m, 0)
        lo, hi = smlal(m, lo, hi, multiplier1, res11)
        lo = lsr(m, lo, 31)
        q11 = orr(m, lo, hi << 1)
        str_sp(m)                                     # (remainder01, spilled)
        threshold11 = asr(m, mask, 1)
        remainder11 = and_(m, mask, q11)
        bcc(m, r01 < 0)                               # bmi
        if r01 < 0:
            ldr_sp(m)
            r11 = asr(m, q11, exponent)
            threshold01 = add(m, threshold11, 1)      # if (result < 0) threshold++;
            b(m)
        else:
            threshold01 = mov(m, threshold11)
            ldr_sp(m)
            r11 = asr(m, q11, exponent)
        ldr_sp(m)                                     # remainder01
        cmp(m, remainder01, threshold01)
        up = remainder01 > threshold01
        it(m, not up)
        if up:
            r01 = add(m, r01, 1)                      # if (remainder > threshold) result++;
        b(m)
    # the second row's rounding (if (result < 0) threshold++; if (remainder > threshold) result++)
    r10, threshold10 = _round_second_row(m, r10, remainder10, threshold10)
    cmp(m, r11, 0)
    negative = r11 < 0
    it(m, not negative)
    if negative:
        threshold11 = add(m, threshold11, 1)
    leave_region(outer, m)
    return r00, r01, r10, r11, threshold11, remainder11


@kernel
def _m3(m, lhs, rhs, bias, dst, dst_multipliers, dst_shifts, lhs_rows, rhs_rows, rhs_cols,
        lhs_offset, dst_offset, activation_min, activation_max, row_address_offset,
        lhs_cols_offset):
    """The plain-C build (-mcpu=cortex-m3)."""
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                  # 4: sub sp, #0x6c
    ldr_sp(m)                                     # 6: ldr.w sb, [sp, #0x9c]
    mov(m, 0)                                     # a: mov lr, r3
    cmp(m, 0, 0)                                  # c: cmp.w sb, #1
    add(m, 0, 0)                                  # 10: add.w r3, sb, #-1
    mov(m, 0)                                     # 14: mov r7, r0
    mov(m, 0)                                     # 16: mov r8, r2
    ldr_sp(m)                                     # 18: ldr.w ip, [sp, #0xa4]
    str_sp(m)                                     # 1c: str r1, [sp, #0x60]
    str_sp(m)                                     # 1e: str r3, [sp, #0x4c]
    pairs = rhs_rows >= 2
    bcc(m, not pairs)                                 # ble.w: rhs_rows_idx <= (rhs_rows - 2)
    if pairs:
        ldr_sp(m)                                 # 24: ldr r3, [sp, #0x98]
        ldr_sp(m)                                 # 26: ldr r2, [sp, #0xb8]
        asr(m, 0, 0)                              # 28: asrs r3, r3, #1
        mov(m, 0)                                 # 2a: mov r0, r3
        mul(m, 0, 0)                              # 2c: mul r3, sb, r3
        add(m, 0, 0)                              # 30: add.w r3, lr, r3, lsl #1
        str_sp(m)                                 # 34: str r3, [sp, #0x54]
        ldr_sp(m)                                 # 36: ldr r3, [sp, #0xa0]
        mov(m, 0)                                 # 38: mov r6, r8
        sub(m, 0, 0)                              # 3a: subs r3, #1
        add(m, 0, 0)                              # 3c: add.w fp, r1, r3
        add(m, 0, 0)                              # 40: add.w r3, sb, #1
        add(m, 0, 0)                              # 44: add r3, lr
        str_sp(m)                                 # 46: str r3, [sp, #0x58]
        ldr_sp(m)                                 # 48: ldr r3, [sp, #0xa0]
        str_sp(m)                                 # 4a: str.w lr, [sp, #0x48]
        rsb(m, 0, 0)                              # 4e: rsb r3, r3, r2, lsl #1
        ldr_sp(m)                                 # 52: ldr r2, [sp, #0xa0]
        str_sp(m)                                 # 54: str r3, [sp, #0x24]
        lsl(m, 0, 0)                              # 56: lsls r3, r2, #1
        ldr_sp(m)                                 # 58: ldr r2, [sp, #0x98]
        mov(m, 0)                                 # 5a: mov.w sl, #0
        and_(m, 0, 0)                             # 5e: and r2, r2, #1
        str_sp(m)                                 # 62: str r2, [sp, #0x50]
        sub(m, 0, 0)                              # 64: subs r2, r1, #1
        str_sp(m)                                 # 66: str r2, [sp, #0x18]
        lsl(m, 0, 0)                              # 68: lsl.w r2, sb, #1
        str_sp(m)                                 # 6c: str r2, [sp, #0x28]
        mov(m, 0)                                 # 6e: mov lr, r3
        add(m, 0, 0)                              # 70: add.w r2, r8, #4
        mov(m, 0)                                 # 74: mov r8, r0
        str_sp(m)                                 # 76: str r3, [sp, #0x64]
        str_sp(m)                                 # 78: str r2, [sp, #0x5c]
        str_sp(m)                                 # 7a: str r7, [sp, #0x44]
    rhs_rows_idx = 0
    while rhs_rows_idx <= rhs_rows - 2:
        lhs_ptr = lhs                                 # const int8_t *lhs_ptr = &lhs[0];
        dst_ptr = dst                                 # int8_t *dst_ptr = &dst[0];
        ldr_sp(m)
        add(m, 0, 0)
        str_sp(m)                                     # dst_ptr
        ldr_sp(m)                                     # rhs_cols
        cmp(m, rhs_cols, 0)
        bcc(m, rhs_cols <= 0)                         # ble.w
        c0 = 0
        c1 = 0
        if rhs_cols > 0:
            mov(m, 0)                             # 8a: movs r2, #0
            mov(m, 0)                             # 8c: mov r0, fp
            mov(m, 0)                             # 8e: mov r1, r2
            ldr_sp(m)                             # 90: ldr r3, [sp, #0x18]
            for x in range(rhs_cols):
                c0 = add(m, c0, ldrsb(m, rhs + x))    # lhs_offset_contribution0 += rhs[x];
                c1_value = ldrsb(m, rhs + x + rhs_cols)
                cmp(m, x + 1, rhs_cols)
                c1 = add(m, c1, c1_value)  # contribution1 += rhs[x + rhs_cols];
                bcc(m, x + 1 < rhs_cols)              # bne
            c0 = mul(m, c0, lhs_offset)               # lhs_offset_contribution0 *= lhs_offset;
            str_sp(m)
            c1 = mul(m, c1, lhs_offset)               # lhs_offset_contribution1 *= lhs_offset;
            str_sp(m)
        else:
            mov(m, 0)
            strd_sp(m)
            b(m)
        cbz(m, bias == 0)                             # if (bias)
        if bias != 0:
            bias0 = ldr(m, bias + 4 * rhs_rows_idx)
            ldr_sp(m)
            c0 = add(m, c0, bias0)  # contribution0 += bias[rhs_rows_idx];
            ldr_sp(m)
            str_sp(m)
            bias1 = ldr(m, bias + 4 * rhs_rows_idx + 4)
            ldr_sp(m)
            c1 = add(m, c1, bias1)  # contribution1 += bias[rhs_rows_idx + 1];
            str_sp(m)
        lhs_rows_idx = lhs_rows >> 1                  # int32_t lhs_rows_idx = lhs_rows >> 1;
        cmp(m, lhs_rows_idx, 0)                       # while (lhs_rows_idx)
        bcc(m, lhs_rows_idx == 0)                     # beq.w
        if lhs_rows_idx:
            ldr_sp(m)                             # ce: ldr r3, [sp, #0x58]
            strd_sp(m)                            # d0: strd lr, r8, [sp, #0x38]
            add(m, 0, 0)                          # d4: add r3, sl
            str_sp(m)                             # d6: str r3, [sp, #0xc]
            ldr_sp(m)                             # d8: ldr r3, [sp, #0x90]
            ldr_sp(m)                             # da: ldr.w sb, [sp, #0x44]
            add(m, 0, 0)                          # de: adds r3, #4
            str_sp(m)                             # e0: str r3, [sp, #0x1c]
            ldr_sp(m)                             # e2: ldr r3, [sp, #0x94]
            str_sp(m)                             # e4: str.w r8, [sp, #8]
            add(m, 0, 0)                          # e8: adds r3, #4
            str_sp(m)                             # ea: str r3, [sp, #0x20]
            ldr_sp(m)                             # ec: ldr r3, [sp, #0xb8]
            str_sp(m)                             # ee: str r6, [sp, #0x40]
            sub(m, 0, 0)                          # f0: subs r3, #1
            str_sp(m)                             # f2: str r3, [sp, #0x2c]
            str_sp(m)                             # f4: str.w ip, [sp, #0xa4]
            while lhs_rows_idx:
                res00 = c0
                res01 = c1
                res10 = c0
                res11 = c1
                ldr_sp(m)                             # rhs_cols
                cmp(m, rhs_cols, 0)
                bcc(m, rhs_cols == 0)                 # beq.w
                rhs_ptr = rhs
                if rhs_cols:
                    ldrd_sp(m)                    # 100: ldrd r6, r2, [sp, #0x14]
                    ldr_sp(m)                     # 104: ldr r5, [sp, #0x10]
                    mov(m, 0)                     # 106: mov r8, fp
                    mov(m, 0)                     # 108: mov r3, r6
                    mov(m, 0)                     # 10a: mov r7, r5
                    ldr_sp(m)                     # 10c: ldr r1, [sp, #0x2c]
                    add(m, 0, 0)                  # 10e: add.w lr, sb, #-1
                    add(m, 0, 0)                  # 112: add.w ip, sb, r1
                    for k in range(rhs_cols):
                        lhs_value = ldrsb(m, lhs_ptr)     # int8_t lhs_value = lhs_ptr[0];
                        rhs_value0 = ldrsb(m, rhs_ptr)    # int8_t rhs_value0 = rhs_ptr[0];
                        rhs_value1 = ldrsb(m, rhs_ptr + rhs_cols)  # rhs_value1 = rhs_ptr[rhs_cols];
                        # res00 += lhs_value * rhs_value0;
                        res00 = mla(m, rhs_value0, lhs_value, res00)
                        # res01 += lhs_value * rhs_value1;
                        res01 = mla(m, rhs_value1, lhs_value, res01)
                        # lhs_value = lhs_ptr[lhs_cols_offset];
                        lhs_value = ldrsb(m, lhs_ptr + lhs_cols_offset)
                        cmp(m, k + 1, rhs_cols)
                        # res10 += lhs_value * rhs_value0;
                        res10 = mla(m, lhs_value, rhs_value0, res10)
                        # res11 += lhs_value * rhs_value1;
                        res11 = mla(m, lhs_value, rhs_value1, res11)
                        rhs_ptr += 1                  # ++rhs_ptr;
                        lhs_ptr += 1                  # ++lhs_ptr;
                        bcc(m, k + 1 < rhs_cols)      # bne
                    ldr_sp(m)                         # rhs_cols
                    add(m, lhs_ptr, 0)
                else:
                    ldr_sp(m)
                    ldr_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    b(m)
                r00, r01, r10, r11, threshold11, remainder11 = _m3_block_requantize(
                    m, res00, res01, res10, res11, dst_multipliers + 4 * rhs_rows_idx,
                    dst_shifts + 4 * rhs_rows_idx)
                ldr_sp(m)                             # dst_offset
                cmp(m, threshold11, remainder11)
                up = threshold11 < remainder11
                it(m, not up)
                if up:
                    r11 = add(m, r11, 1)
                r00 = add(m, r00, dst_offset)         # res00 += dst_offset;
                r10 = add(m, r10, dst_offset)
                r01 = add(m, r01, dst_offset)
                r11 = add(m, r11, dst_offset)
                ldr_sp(m)                             # activation_min
                r00 = max_lt(m, r00, activation_min)  # res00 = MAX(res00, activation_min);
                r01 = max_lt(m, r01, activation_min)
                r10 = max_lt(m, r10, activation_min)
                r11 = max_lt(m, r11, activation_min)
                ldr_sp(m)
                lhs_ptr += 2 * lhs_cols_offset - rhs_cols  # lhs_ptr += 2 * lhs_cols_offset;
                add(m, lhs_ptr, 0)
                ldr_sp(m)                             # activation_max
                r00 = min_ge(m, r00, activation_max)  # res00 = MIN(res00, activation_max);
                r01 = min_ge(m, r01, activation_max)
                r10 = min_ge(m, r10, activation_max)
                r11 = min_ge(m, r11, activation_max)
                ldr_sp(m)                             # dst_ptr
                strb(m, dst_ptr, r00)                 # dst_ptr[0] = (int8_t)res00;
                ldr_sp(m)
                strb(m, dst_ptr + 1, r01)             # dst_ptr[1] = (int8_t)res01;
                strb(m, dst_ptr + rhs_rows, r10)  # dst_ptr[0] = (int8_t)res10;
                mov(m, dst_ptr)
                ldr_sp(m)
                strb(m, dst_ptr + rhs_rows + 1, r11)  # dst_ptr[1] = (int8_t)res11;
                dst_ptr = add(m, dst_ptr, 2 * rhs_rows)   # dst_ptr += rhs_rows;
                add(m, 0, 0)
                str_sp(m)
                ldr_sp(m)
                str_sp(m)
                lhs_rows_idx -= 1                     # lhs_rows_idx--;
                sub(m, lhs_rows_idx + 1, 1)
                str_sp(m)
                bcc(m, lhs_rows_idx != 0)             # bne.w
            ldrd_sp(m)                            # 250: ldrd lr, r8, [sp, #0x38]
            ldr_sp(m)                             # 254: ldr r3, [sp, #0x54]
            ldr_sp(m)                             # 256: ldr r6, [sp, #0x40]
            add(m, 0, 0)                          # 258: add r3, sl
            ldr_sp(m)                             # 25a: ldr.w ip, [sp, #0xa4]
            str_sp(m)                             # 25e: str r3, [sp, #4]
            ldr_sp(m)                             # 260: ldr r3, [sp, #0x50]
            cmp(m, 0, 0)                          # 262: cmp r3, #0
        else:
            ldr_sp(m)
            b(m)
            ldr_sp(m)
            cmp(m, lhs_rows & 1, 0)
        # Left-over rows
        bcc(m, (lhs_rows & 1) != 0)                   # bne.w: if (lhs_rows % 2)
        if lhs_rows & 1:
            res00 = c0
            res01 = c1
            ldr_sp(m)                                 # rhs_cols
            cbz(m, rhs_cols == 0)
            if rhs_cols:
                ldrd_sp(m)                        # 434: ldrd r0, r5, [sp, #0x10]
                mov(m, 0)                         # 438: mov r1, fp
                ldr_sp(m)                         # 43a: ldr r2, [sp, #0x18]
                add(m, 0, 0)                      # 43c: add.w r4, sb, r3
                rhs_ptr = rhs
                for k in range(rhs_cols):
                    lhs_value = ldrsb(m, lhs_ptr)     # int8_t lhs_value = lhs_ptr[0];
                    rhs_value0 = ldrsb(m, rhs_ptr)    # int8_t rhs_value0 = rhs_ptr[0];
                    cmp(m, k + 1, rhs_cols)
                    res00 = mla(m, lhs_value, rhs_value0, res00)  # res00 += lhs_value * rhs_value0;
                    rhs_value1 = ldrsb(m, rhs_ptr + rhs_cols)  # rhs_value1 = rhs_ptr[rhs_cols];
                    res01 = mla(m, lhs_value, rhs_value1, res01)  # res01 += lhs_value * rhs_value1;
                    rhs_ptr += 1
                    lhs_ptr += 1
                    bcc(m, k + 1 < rhs_cols)          # bne
                strd_sp(m)
            r00, r01 = _m3_odd_lhs_requantize(m, res00, res01,
                                              dst_multipliers + 4 * rhs_rows_idx,
                                              dst_shifts + 4 * rhs_rows_idx)
            ldr_sp(m)                                 # dst_offset
            ldr_sp(m)
            r01 = add(m, r01, dst_offset)             # res01 += dst_offset;
            ldr_sp(m)                                 # activation_min
            r00 = add(m, dst_offset, r00)             # res00 += dst_offset;
            r00 = max_lt(m, r00, activation_min)      # res00 = MAX(res00, activation_min);
            r01 = max_lt(m, r01, activation_min)      # res01 = MAX(res01, activation_min);
            ldr_sp(m)                                 # activation_max
            r00 = min_ge(m, r00, activation_max)      # res00 = MIN(res00, activation_max);
            r01 = min_ge(m, r01, activation_max)      # res01 = MIN(res01, activation_max);
            ldr_sp(m)                                 # dst_ptr
            strb(m, dst_ptr, r00)                     # dst_ptr[0] = (int8_t)res00;
            strb(m, dst_ptr + 1, r01)                 # dst_ptr[1] = (int8_t)res01;
            b(m)
        rhs += 2 * rhs_cols                           # rhs += 2 * rhs_cols;
        dst += 2                                      # dst += 2;
        rhs_rows_idx += 2
        ldr_sp(m)                                 # 268: ldr r3, [sp, #0x18]
        add(m, 0, 0)                              # 26a: add.w sl, sl, #2
        add(m, 0, 0)                              # 26e: add r3, lr
        str_sp(m)                                 # 270: str r3, [sp, #0x18]
        ldr_sp(m)                                 # 272: ldr r3, [sp, #0x4c]
        add(m, 0, 0)                              # 274: add fp, lr
        cmp(m, 0, 0)                              # 276: cmp r3, sl
        bcc(m, rhs_rows_idx <= rhs_rows - 2)          # bgt.w
    if pairs:
        mov(m, 0)                                 # 27c: mov r8, r6
        ldr_sp(m)                                 # 27e: ldr.w sb, [sp, #0x9c]
        ldr_sp(m)                                 # 282: ldr r2, [sp, #0x64]
        sub(m, 0, 0)                              # 284: sub.w r3, sb, #2
        lsr(m, 0, 0)                              # 288: lsrs r3, r3, #1
        mla(m, 0, 0, 0)                           # 28a: mla r2, r3, r2, r2
        ldr_sp(m)                                 # 28e: ldr r1, [sp, #0x60]
        ldr_sp(m)                                 # 290: ldr.w lr, [sp, #0x48]
        add(m, 0, 0)                              # 294: add r1, r2
        add(m, 0, 0)                              # 296: adds r3, #1
        ldr_sp(m)                                 # 298: ldr r7, [sp, #0x44]
        str_sp(m)                                 # 29a: str r1, [sp, #0x60]
        add(m, 0, 0)                              # 29c: add.w lr, lr, r3, lsl #1
    tst(m, rhs_rows, 1)                               # if (rhs_rows % 2)
    bcc(m, (rhs_rows & 1) == 0)                       # beq
    if rhs_rows & 1:
        ldr_sp(m)                                     # lhs_rows
        cmp(m, lhs_rows, 0)
        bcc(m, lhs_rows <= 0)                         # ble
        if lhs_rows > 0:
            mov(m, 0)                             # 2ac: movs r0, #0
            ldr_sp(m)                             # 2ae: ldr r2, [sp, #0xa0]
            ldr_sp(m)                             # 2b0: ldr r3, [sp, #0xb8]
            mov(m, 0)                             # 2b2: mov r6, r8
            sub(m, 0, 0)                          # 2b4: subs r3, r3, r2
            str_sp(m)                             # 2b6: str r3, [sp, #8]
            ldr_sp(m)                             # 2b8: ldr r2, [sp, #0x90]
            add(m, 0, 0)                          # 2ba: add.w r3, sb, #0x40000000
            sub(m, 0, 0)                          # 2be: subs r3, #1
            add(m, 0, 0)                          # 2c0: add.w r4, r2, r3, lsl #2
            ldr_sp(m)                             # 2c4: ldr r2, [sp, #0x94]
            ldr_sp(m)                             # 2c6: ldr r5, [sp, #0xa0]
            add(m, 0, 0)                          # 2c8: add.w r2, r2, r3, lsl #2
            add(m, 0, 0)                          # 2cc: add.w r3, r8, r3, lsl #2
            ldr_sp(m)                             # 2d0: ldr.w r8, [sp, #0xb0]
            str_sp(m)                             # 2d4: str r2, [sp, #4]
            str_sp(m)                             # 2d6: str r3, [sp, #0xc]
            lhs_ptr = lhs
            dst_ptr = dst
            for lhs_rows_idx in range(lhs_rows):
                rhs_ptr = rhs
                cmp(m, bias, 0)                       # if (bias)
                bcc(m, bias == 0)                     # beq.w
                if bias != 0:
                    ldr_sp(m)
                    res00 = ldr(m, bias + 4 * (rhs_rows - 1))  # res00 = bias[rhs_rows - 1];
                    cmp(m, rhs_cols, 0)
                    bcc(m, rhs_cols == 0)             # beq.w
                else:
                    res00 = mov(m, 0)
                    cmp(m, rhs_cols, 0)
                    bcc(m, rhs_cols != 0)             # bne.w
                if rhs_cols:
                    ldr_sp(m)                     # 2e8: ldr r3, [sp, #0x60]
                    add(m, 0, 0)                  # 2ea: add.w sl, r7, r5
                    sub(m, 0, 0)                  # 2ee: subs r1, r3, #1
                    for k in range(rhs_cols):
                        lhs_value = ldrsb(m, lhs_ptr + k)  # lhs_ptr[0]
                        rhs_value = ldrsb(m, rhs_ptr + k)  # int32_t rhs_value = rhs_ptr[0];
                        lhs_value = add(m, lhs_value, lhs_offset)  # lhs_ptr[0] + lhs_offset
                        cmp(m, k + 1, rhs_cols)
                        # res00 += lhs_value * rhs_value;
                        res00 = mla(m, rhs_value, lhs_value, res00)
                        bcc(m, k + 1 < rhs_cols)      # bne
                else:
                    mov(m, lhs_ptr)
                    b(m)
                ldr_sp(m)                             # lhs_cols_offset - rhs_cols
                add(m, lhs_ptr, lhs_cols_offset)  # lhs_ptr += lhs_cols_offset;
                lhs_ptr += lhs_cols_offset
                ldr_sp(m)
                shift = ldr(m, dst_shifts + 4 * (rhs_rows - 1))
                res00 = requantize_inlined(m, res00, dst_multipliers + 4 * (rhs_rows - 1), shift,
                                           False)
                ldr_sp(m)                             # dst_offset
                add(m, lhs_rows_idx, 1)
                res00 = add(m, res00, dst_offset)     # res00 += dst_offset;
                ldr_sp(m)
                res00 = max_lt(m, res00, activation_min)  # res00 = MAX(res00, activation_min);
                res00 = min_ge(m, res00, activation_max)  # res00 = MIN(res00, activation_max);
                strb(m, dst_ptr, res00)               # dst_ptr[0] = (int8_t)res00;
                ldr_sp(m)
                dst_ptr = add(m, dst_ptr, rhs_rows)   # dst_ptr += rhs_rows;
                cmp(m, lhs_rows_idx + 1, lhs_rows)
                bcc(m, lhs_rows_idx + 1 < lhs_rows)   # bne
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                      # add sp, #108
    pop_pc(m, 9)
    return 0


@kernel(inline=True)
def _m3_odd_lhs_requantize(outer, res00, res01, mult_address, shift_address):
    """arm_nn_requantize of the odd lhs row's two values, M3 build (0x45c-0x4f0)."""
    m = enter_region(outer, REQUANTIZE)
    ldr_sp(m)
    ldr_sp(m)                                         # res00 (spilled)
    shift0 = ldr(m, shift_address)
    if m.single_rounding:
        multiplier0 = ldr(m, mult_address)
        shift1 = ldr(m, shift_address + 4)
        multiplier1 = ldr(m, mult_address + 4)
        r00 = requantize_single_rounding(m, res00, multiplier0, rsb(m, shift0, 30))
        r01 = requantize_single_rounding(m, res01, multiplier1, rsb(m, shift1, 30))
        leave_region(outer, m)
        return r00, r01
    hi = mov(m, 0)
    val = lsl(m, res00, bic(m, shift0, shift0 >> 31))
    val = mov(m, val)
    lo = mov(m, 1 << 30)
    ldr_sp(m)
    cmp(m, shift0, 0)
    multiplier0 = ldr(m, mult_address)
    lo, hi = smlal(m, lo, hi, val, multiplier0)
    lo = lsr(m, lo, 31)
    r00 = orr(m, lo, hi << 1)
    bcc(m, shift0 > 0)                                # bgt
    if shift0 <= 0:
        r00 = divide_by_power_of_two_inlined(m, r00, shift0, False)
    ldr_sp(m)
    hi = mov(m, 0)
    add(m, 0, 4)
    shift1 = ldr(m, shift_address + 4)
    ldr_sp(m)
    left1 = bic(m, shift1, shift1 >> 31)
    add(m, 0, 4)
    multiplier1 = ldr(m, mult_address + 4)
    ldr_sp(m)                                         # res01 (spilled)
    cmp(m, shift1, 0)
    val = lsl(m, res01, left1)
    val = mov(m, val)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, val, multiplier1)
    lo = lsr(m, lo, 31)
    r01 = orr(m, lo, hi << 1)
    bcc(m, shift1 > 0)                                # bgt
    if shift1 <= 0:
        r01 = divide_by_power_of_two_inlined(m, r01, shift1, False)
    leave_region(outer, m)
    return r00, r01


@kernel
def arm_nn_mat_mult_nt_t_s8(m, lhs, rhs, bias, dst, dst_multipliers, dst_shifts, lhs_rows,
                            rhs_rows, rhs_cols, lhs_offset, dst_offset, activation_min,
                            activation_max, row_address_offset, lhs_cols_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    if m.dsp:
        return _m4(m, lhs, rhs, bias, dst, dst_multipliers, dst_shifts, lhs_rows, rhs_rows,
                   rhs_cols, lhs_offset, dst_offset, activation_min, activation_max,
                   row_address_offset, lhs_cols_offset)
    return _m3(m, lhs, rhs, bias, dst, dst_multipliers, dst_shifts, lhs_rows, rhs_rows,
               rhs_cols, lhs_offset, dst_offset, activation_min, activation_max,
               row_address_offset, lhs_cols_offset)
