"""arm_nn_vec_mat_mult_t_s4 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s4.c).

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_s4(const int8_t *lhs, const int8_t *packed_rhs,
        const int32_t *bias, int8_t *dst, int32_t lhs_offset, int32_t dst_offset,
        int32_t dst_multiplier, int32_t dst_shift, int32_t rhs_cols, int32_t rhs_rows,
        int32_t activation_min, int32_t activation_max)

dst[r] = clamp(requantize(bias[r] + sum_c (lhs[c] + lhs_offset) * w[r][c]) + dst_offset),
w packed two per byte over the whole [rhs_rows, rhs_cols] matrix, element 2k in the low
nibble of byte k.  With an odd rhs_cols every other row starts in the middle of a byte.

Four rows per outer iteration: row i and row i + 2 * row_loop_cnt (rhs_offset bytes apart)
together, first the even row of the pair (its last odd-column high nibble spills into the next
row's first column: `spillover`), then the odd one; the rhs_rows % 4 rows after it one at a
time.  ARM_MATH_DSP: four columns per step (read_and_pad_s4 per row, SXTAB16 for the lhs,
two SMLAD per row), a 2-column tail when rhs_cols % 4 is 2 or 3.  Plain C: two columns per
step (LDRSB, SBFX / ASR for the nibbles, MLA).

Calibration (../shared/reference fc_s4_128_32, gcc -O2).  The column loops follow gcc 12.2's
objdump of this file (-mcpu=cortex-m4 / -mcpu=cortex-m3 -O2): per DSP step 39 instructions
(read_and_pad_s4 twice, LDR post-increment of the lhs, SXTAB16 x2, SMLAD x4, two stack
reloads, index ADD, CMP, branch), per plain-C step 20 (LDRSB x4 with writeback, ADD x2 for the
lhs offset, SBFX x2, ASR x2, MLA x4, the MOV/ADDS/SUB index bookkeeping, lhs ADD, CMP,
branch).  The rest of the function was not transcribed: its stack reloads, spills and
register copies per half row pair (DSP_HALF_ROW, SCALAR_HALF_ROW) and the frame are `fitted_*`
ops sized to the measured totals; the module is therefore not marked DISASSEMBLED.  The
SIMD mnemonics (SMLAD 2,048, SXTB16 4,096, SXTAB16 1,024, ROR 2,048, LDRH 1,024, BFI 1,024,
UXTB 1,024) and the scalar MLA 4,096 / LDRSB 4,096 / SBFX 2,048 equal the measured
histograms.  Totals with arm_fully_connected_s4: see tests/ops/test_fully_connected_int4.py (dsp_O2
21,588 and scalar_O2 21,928 measured).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, cmp, fitted_ldr_sp, fitted_mov, fitted_str_sp, ldr,
                            ldrsb, mla, mov, mul, pkhbt, pop_pc, push, sbfx, smlad, strb, sub,
                            sxtab16, sxth)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup
from .read_and_pad_s4 import read_and_pad_s4

#: fitted bookkeeping per DSP column step: stack reloads (rhs_offset, the loop bound)
DSP_STEP_RELOADS = 2
#: fitted bookkeeping per half row pair (row i and row i + 2 * row_loop_cnt), DSP build:
#: stack reloads, spills, register copies (dsp_O2 histogram: ~27 LDR, ~8 STR per half pair)
DSP_HALF_ROW = (27, 7, 3)
#: the same, plain-C build (scalar_O2 histogram: ~24 LDR, ~5 STR per half pair)
SCALAR_HALF_ROW = (20, 4, 0)
ROW_RELOADS = 12


@kernel(inline=True)
def _low_nibble(m, value):
    return sbfx(m, value, 0, 4)                               # (int8_t)(value << 4) >> 4


@kernel(inline=True)
def _high_nibble(m, value):
    return asr(m, value, 4)                                   # value >> 4


@kernel
def _dsp_columns(m, lhs_ptr, rhs_ptr, rhs_offset, res0, res1, steps, lhs_offset_s16x2, two_rows):
    """for (rhs_cols_idx = 0; rhs_cols_idx < steps; ++rhs_cols_idx): four columns of row 0
    (at rhs_ptr; alone unless two_rows) and of row 1 (at rhs_ptr + rhs_offset)."""
    rhs_low1 = rhs_high1 = 0
    cmp(m, steps, 0)
    bcc(m, steps <= 0)
    for idx in range(steps):
        rhs_low0, rhs_high0 = read_and_pad_s4(m, rhs_ptr if two_rows else rhs_ptr + rhs_offset)
        if two_rows:
            rhs_low1, rhs_high1 = read_and_pad_s4(m, rhs_ptr + rhs_offset)
        rhs_ptr = add(m, rhs_ptr, 2)                          # rhs_ptr += 2;
        lhs_high = ldr(m, lhs_ptr)                            # arm_nn_read_s8x4_ia: LDR r, [p], #4
        lhs_ptr += 4
        lhs_low = sxtab16(m, lhs_offset_s16x2, lhs_high, 0)   # SXTAB16(lhs_offset_s16x2, lhs_high)
        lhs_high = sxtab16(m, lhs_offset_s16x2, lhs_high, 8)  # SXTAB16_RORn(..., lhs_high, 8)
        res0 = smlad(m, lhs_low, rhs_low0, res0)
        res0 = smlad(m, lhs_high, rhs_high0, res0)
        if two_rows:
            res1 = smlad(m, lhs_low, rhs_low1, res1)
            res1 = smlad(m, lhs_high, rhs_high1, res1)
        for _ in range(DSP_STEP_RELOADS):                     # fitted: rhs_offset and the loop
            fitted_ldr_sp(m)                                  # bound live on the stack
        add(m, idx, 1)                                        # ++rhs_cols_idx
        cmp(m, idx + 1, steps)                                # ++rhs_cols_idx < steps
        bcc(m, idx + 1 < steps)
    return lhs_ptr, rhs_ptr, res0, res1


@kernel
def _scalar_columns(m, lhs_ptr, rhs_ptr, rhs_offset, lhs_offset, res0, res1, steps, two_rows):
    """for (rhs_cols_idx = 0; rhs_cols_idx < steps; ++rhs_cols_idx): two columns of row 0
    (at rhs_ptr; alone unless two_rows) and of row 1 (at rhs_ptr + rhs_offset)."""
    cmp(m, steps, 0)
    bcc(m, steps <= 0)
    for idx in range(steps):
        if two_rows:
            value0 = ldrsb(m, rhs_ptr)
            value1 = ldrsb(m, rhs_ptr + rhs_offset)
        else:
            value0 = ldrsb(m, rhs_ptr + rhs_offset)
            value1 = 0
        lhs_low = add(m, ldrsb(m, lhs_ptr), lhs_offset)       # (int8_t)lhs_ptr[0] + lhs_offset
        lhs_high = add(m, ldrsb(m, lhs_ptr + 1), lhs_offset)  # (int8_t)lhs_ptr[1] + lhs_offset
        res0 = mla(m, lhs_low, _low_nibble(m, value0), res0)
        res0 = mla(m, lhs_high, _high_nibble(m, value0), res0)
        if two_rows:
            res1 = mla(m, lhs_low, _low_nibble(m, value1), res1)
            res1 = mla(m, lhs_high, _high_nibble(m, value1), res1)
        # gcc -O2 (cortex-m3): the rhs loads pre-index with writeback (++rhs_ptr); it keeps
        # a copy of the rhs pointer (MOV), rebuilds the index from it (ADDS #2, SUB) and
        # steps the lhs pointer (ADD #2)
        mov(m, rhs_ptr)
        rhs_ptr += 1
        add(m, idx, 2)
        sub(m, rhs_ptr, 0)                                    # rhs_cols_idx
        lhs_ptr = add(m, lhs_ptr, 2)                          # lhs_ptr += 2;
        cmp(m, idx + 1, steps)                                # ++rhs_cols_idx < steps
        bcc(m, idx + 1 < steps)
    return lhs_ptr, rhs_ptr, res0, res1


@kernel
def _two_column_tail(m, lhs_ptr, rhs_ptr, rhs_offset, lhs_offset, res0, res1, two_rows):
    """ARM_MATH_DSP, rhs_cols % 4 == 2 or 3: one more byte (two columns) per row."""
    if two_rows:
        value0 = ldrsb(m, rhs_ptr)                            # rhs_value0 = rhs_ptr[0]
        value1 = ldrsb(m, rhs_ptr + rhs_offset)               # rhs_value1 = rhs_ptr[rhs_offset]
    else:
        value0 = ldrsb(m, rhs_ptr + rhs_offset)
        value1 = 0
    lhs_value_0 = add(m, ldrsb(m, lhs_ptr), lhs_offset)
    lhs_value_1 = add(m, ldrsb(m, lhs_ptr + 1), lhs_offset)
    res0 = mla(m, lhs_value_0, _low_nibble(m, value0), res0)
    res0 = mla(m, lhs_value_1, _high_nibble(m, value0), res0)
    if two_rows:
        res1 = mla(m, lhs_value_0, _low_nibble(m, value1), res1)
        res1 = mla(m, lhs_value_1, _high_nibble(m, value1), res1)
    rhs_ptr = add(m, rhs_ptr, 1)                              # ++rhs_ptr;
    lhs_ptr = add(m, lhs_ptr, 2)                              # lhs_ptr += 2;
    return lhs_ptr, rhs_ptr, res0, res1


@kernel
def _odd_column(m, lhs, lhs_ptr, rhs_ptr, rhs_offset, lhs_offset, res0, res1, two_rows):
    """rhs_cols odd: the row's last column is a low nibble; the byte's high nibble is the
    next row's first column, accumulated with lhs[0] into the spillover.  Returns
    (lhs_ptr, rhs_ptr, res0, res1, spillover0, spillover1)."""
    if two_rows:
        value0 = ldrsb(m, rhs_ptr)
        value1 = ldrsb(m, rhs_ptr + rhs_offset)
    else:
        value0 = ldrsb(m, rhs_ptr + rhs_offset)
        value1 = 0
    lhs_low = add(m, ldrsb(m, lhs_ptr), lhs_offset)           # (int8_t)lhs_ptr[0] + lhs_offset
    lhs_high = add(m, ldrsb(m, lhs), lhs_offset)              # lhs_ptr = &lhs[0]; ...
    res0 = mla(m, lhs_low, _low_nibble(m, value0), res0)
    spillover0 = mul(m, lhs_high, _high_nibble(m, value0))
    spillover1 = 0
    if two_rows:
        res1 = mla(m, lhs_low, _low_nibble(m, value1), res1)
        spillover1 = mul(m, lhs_high, _high_nibble(m, value1))
    rhs_ptr = add(m, rhs_ptr, 1)                              # ++rhs_ptr;
    lhs_ptr = add(m, lhs, 1)                                  # ++lhs_ptr;
    return lhs_ptr, rhs_ptr, res0, res1, spillover0, spillover1


@kernel
def _output(m, res, dst, dst_multiplier, dst_offset, activation_min, activation_max,
            left_shift, right_shift, remainder_mask, threshold):
    """Quantize down, add the offset, clamp, store one int8."""
    res = requantize_in_loop(m, res, dst_multiplier, left_shift, right_shift, remainder_mask,
                             threshold)
    res = add(m, res, dst_offset)                             # res += dst_offset;
    res = max_lt(m, res, activation_min)                      # MAX(res, activation_min)
    res = min_gt(m, res, activation_max)                      # MIN(res, activation_max)
    strb(m, dst, res)


@kernel
def _columns(m, lhs_ptr, rhs_ptr, rhs_offset, lhs_offset, lhs_offset_s16x2, res0, res1,
             rhs_cols, two_rows):
    """The column loop of one row (pair) and, with the DSP extension, its 2-column tail."""
    if m.dsp:
        lhs_ptr, rhs_ptr, res0, res1 = _dsp_columns(m, lhs_ptr, rhs_ptr, rhs_offset, res0, res1,
                                                    rhs_cols >> 2, lhs_offset_s16x2, two_rows)
        tail = rhs_cols & 3
        cmp(m, tail, 2)
        bcc(m, tail < 2)
        if tail >= 2:                                         # rhs_cols % 4 == 2 or 3
            lhs_ptr, rhs_ptr, res0, res1 = _two_column_tail(m, lhs_ptr, rhs_ptr, rhs_offset,
                                                            lhs_offset, res0, res1, two_rows)
    else:
        lhs_ptr, rhs_ptr, res0, res1 = _scalar_columns(m, lhs_ptr, rhs_ptr, rhs_offset,
                                                       lhs_offset, res0, res1, rhs_cols >> 1,
                                                       two_rows)
    return lhs_ptr, rhs_ptr, res0, res1


@kernel
def arm_nn_vec_mat_mult_t_s4(m, lhs, packed_rhs, bias, dst, lhs_offset, dst_offset,
                             dst_multiplier, dst_shift, rhs_cols, rhs_rows, activation_min,
                             activation_max):
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, sp, #frame
    for _ in range(8):                                        # fitted: stacked arguments, spills
        fitted_ldr_sp(m)
        fitted_str_sp(m)
    row_loop_cnt = asr(m, rhs_rows, 2)                        # rhs_rows / 4
    rhs_offset = mul(m, rhs_cols, row_loop_cnt)               # rhs_cols * row_loop_cnt
    rhs_ptr = packed_rhs
    lhs_offset_s16x2 = 0
    if m.dsp:
        lhs_offset_s16 = sxth(m, lhs_offset, 0)               # (int16_t)lhs_offset
        lhs_offset_s16x2 = pkhbt(m, lhs_offset_s16, lhs_offset_s16, 16)
    left_shift, right_shift, remainder_mask, threshold = requantize_setup(m, dst_shift)
    second_half = row_loop_cnt << 1                           # 2 * row_loop_cnt
    odd_cols = rhs_cols & 1
    lhs_ptr = lhs
    spillover0 = spillover1 = 0
    cmp(m, row_loop_cnt, 0)
    bcc(m, row_loop_cnt <= 0)
    for i_row_loop_cnt in range(row_loop_cnt):
        for half in range(2):
            reloads, spills, copies = DSP_HALF_ROW if m.dsp else SCALAR_HALF_ROW
            for _ in range(reloads):                          # fitted: spilled values per row
                fitted_ldr_sp(m)
            for _ in range(spills):
                fitted_str_sp(m)
            for _ in range(copies):
                fitted_mov(m)
            if half == 0:
                lhs_ptr = lhs                                 # lhs_ptr = &lhs[0];
                res0 = mov(m, 0)
                res1 = mov(m, 0)
            else:
                res0 = spillover0                             # res0 = spillover0;
                res1 = spillover1
            cmp(m, bias, 0)
            bcc(m, bias == 0)
            if bias != 0:                                     # if (bias)
                res0 = add(m, res0, ldr(m, bias))             # res0 += *bias;
                res1 = add(m, res1, ldr(m, bias + (second_half << 2)))  # bias[2 * row_loop_cnt]
                bias = add(m, bias, 4)                        # ++bias;
            lhs_ptr, rhs_ptr, res0, res1 = _columns(m, lhs_ptr, rhs_ptr, rhs_offset, lhs_offset,
                                                    lhs_offset_s16x2, res0, res1, rhs_cols, True)
            if half == 0:
                cmp(m, odd_cols, 0)
                bcc(m, odd_cols == 0)
                if odd_cols:                                  # if (rhs_cols % 2 == 1)
                    lhs_ptr, rhs_ptr, res0, res1, spillover0, spillover1 = _odd_column(
                        m, lhs, lhs_ptr, rhs_ptr, rhs_offset, lhs_offset, res0, res1, True)
                else:
                    spillover0 = mov(m, 0)
                    spillover1 = mov(m, 0)
                    lhs_ptr = lhs                             # lhs_ptr = &lhs[0];
            _output(m, res0, dst, dst_multiplier, dst_offset, activation_min, activation_max,
                    left_shift, right_shift, remainder_mask, threshold)
            _output(m, res1, dst + second_half, dst_multiplier, dst_offset, activation_min,
                    activation_max, left_shift, right_shift, remainder_mask, threshold)
            dst = add(m, dst, 1)                              # dst++;
        cmp(m, i_row_loop_cnt + 1, row_loop_cnt)              # ++i_row_loop_cnt < row_loop_cnt
        bcc(m, i_row_loop_cnt + 1 < row_loop_cnt)

    lhs_ptr = lhs                                             # lhs_ptr = &lhs[0];
    spillover0 = mov(m, 0)
    remaining = sub(m, rhs_rows, row_loop_cnt << 2)           # rhs_rows % 4
    cmp(m, remaining, 0)
    bcc(m, remaining <= 0)
    for i in range(remaining):
        for _ in range(ROW_RELOADS):                          # fitted: spilled values per row
            fitted_ldr_sp(m)
        res0 = spillover0
        cmp(m, bias, 0)
        bcc(m, bias == 0)
        if bias != 0:
            res0 = add(m, res0, ldr(m, bias + (second_half << 2)))  # res0 += bias[2 * row_loop_cnt]
            bias = add(m, bias, 4)
        lhs_ptr, rhs_ptr, res0, _unused = _columns(m, lhs_ptr, rhs_ptr, rhs_offset, lhs_offset,
                                                   lhs_offset_s16x2, res0, 0, rhs_cols, False)
        cmp(m, odd_cols, 0)
        bcc(m, odd_cols == 0)
        if odd_cols and i % 2 == 0:                           # rhs_cols odd, even remaining row
            lhs_ptr, rhs_ptr, res0, _unused, spillover0, _none = _odd_column(
                m, lhs, lhs_ptr, rhs_ptr, rhs_offset, lhs_offset, res0, 0, False)
        else:
            spillover0 = mov(m, 0)
            lhs_ptr = lhs
        _output(m, res0, dst + second_half, dst_multiplier, dst_offset, activation_min,
                activation_max, left_shift, right_shift, remainder_mask, threshold)
        dst = add(m, dst, 1)                                  # dst++;
        cmp(m, i + 1, remaining)                              # ++i_row_loop_cnt < rhs_rows % 4
        bcc(m, i + 1 < remaining)
    pop_pc(m, 9)
    return 0
