"""arm_nn_mat_mult_nt_t_s8 (Source/NNSupportFunctions/arm_nn_mat_mult_nt_t_s8.c), non-MVE.

    arm_cmsis_nn_status arm_nn_mat_mult_nt_t_s8(const int8_t *lhs, const int8_t *rhs,
        const int32_t *bias, int8_t *dst, const int32_t *dst_multipliers,
        const int32_t *dst_shifts, int32_t lhs_rows, int32_t rhs_rows, int32_t rhs_cols,
        int32_t lhs_offset, int32_t dst_offset, int32_t activation_min,
        int32_t activation_max, int32_t row_address_offset, int32_t lhs_cols_offset)

dst[r][c] = clamp(requantize(bias[c] + sum_k (lhs[r][k] + lhs_offset) * rhs[c][k]) + dst_offset)
with lhs row r at lhs + r * lhs_cols_offset.  The lhs offset is folded in up front:
lhs_offset_contribution = lhs_offset * sum_k rhs[c][k] (+ bias), then the MAC loops use the
raw lhs.  Two rhs rows (output channels) x two lhs rows per block; 16 columns per step in
the DSP build (SXTB16 and SXTB16_RORn(x, 8) -- the ROR folded into SXTB16's rotation --
and SMLAD), then single columns; an odd lhs row and an odd rhs row are handled apart.

gcc -O2 computes the shift-only part of arm_nn_requantize once per channel for the two
lhs rows of a block (`requantize_setup`, then `requantize_in_loop` per value: the measured
histograms show one BIC/RSB per channel per 2x2 block) and, out of registers with 15
arguments and four accumulators, reloads arguments and spilled values from the stack
around each block: the `fitted_ldr_sp`/`fitted_str_sp` below.  These, and the pointer/counter
bookkeeping the loads do not fold (the `mov`/`add`/`cmp` whose operands do not matter, in
the pair prologue and the 16-column step), are not derived from a disassembly: their
number and place are calibrated so that the per-function counts match the measured dsp_O2
and scalar_O2 `functions` of conv1x1_8x8x16_o32, conv1x1_12x12x32_o64 and
conv1x1_s2_8x8x16_o16 (within ~1.5%); the MAC instructions (SMLAD, SXTB16, LDRSB, MLA) are
exactly the C's.

The DSP 2x2 block's column loops follow the gcc -O2 -mcpu=cortex-m4 disassembly of this file:
16-column loop, then the 4-column loop (24 instructions per step: 4 MAC loads, the reload of
lhs_cols_offset and its ADD, 8 SXTB16, 8 SMLAD, CMP, BNE; its trip count and end pointer
set up once, 11 instructions, 6 after it), then the single-column loop (9 set-up, 10 per
column, 3 after); each test is LDR (spilled bound) + CMP + branch, and a skipped loop costs
a MOV + B.  rhs_cols < 16 (e.g. 8 input channels) runs the 4-column loop, not 8 single
columns.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, fitted_sub, ldr, ldrsb, lsl, lsr, mla, mov, mul, pop_pc, push, smlad, strb, sub,
                            sxtb16)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup


@kernel(inline=True)
def _clamp_store(m, res, dst_offset, activation_min, activation_max, dst, reload):
    if reload:
        fitted_ldr_sp(m)                              # a spilled argument reloaded first
    res = add(m, res, dst_offset)                     # res += dst_offset;
    res = max_lt(m, res, activation_min)              # res = MAX(res, activation_min);
    res = min_gt(m, res, activation_max)              # res = MIN(res, activation_max);
    strb(m, dst, res)                                 # dst_ptr[i] = (int8_t)res;


@kernel(inline=True)
def _mac4_2x2(m, rhs_ptr, lhs_ptr, rhs_off0, lhs_off0, res00, res01, res10, res11):
    """Four columns of the 2x2 block (one quarter of the C's 16-column step)."""
    val1 = ldr(m, rhs_ptr)                            # val1 = arm_nn_read_s8x4_ia(&rhs_ptr);
    val2 = sxtb16(m, val1, 0)                         # val2 = SXTB16(val1);
    val0 = ldr(m, lhs_ptr)                            # val0 = arm_nn_read_s8x4_ia(&lhs_ptr);
    val3 = sxtb16(m, val0, 0)                         # val3 = SXTB16(val0);
    val4 = ldr(m, rhs_ptr + 4 + rhs_off0)             # val4 = arm_nn_read_s8x4(&rhs_ptr[rhs_off0]);
    val1 = sxtb16(m, val1, 8)                         # val1 = SXTB16_RORn(val1, 8);
    val0 = sxtb16(m, val0, 8)                         # val0 = SXTB16_RORn(val0, 8);
    res00 = smlad(m, val3, val2, res00)               # res00 = SMLAD(val3, val2, res00);
    val5 = sxtb16(m, val4, 0)                         # val5 = SXTB16(val4);
    res00 = smlad(m, val0, val1, res00)               # res00 = SMLAD(val0, val1, res00);
    val4 = sxtb16(m, val4, 8)                         # val4 = SXTB16_RORn(val4, 8);
    res01 = smlad(m, val3, val5, res01)               # res01 = SMLAD(val3, val5, res01);
    res01 = smlad(m, val0, val4, res01)               # res01 = SMLAD(val0, val4, res01);
    val0 = ldr(m, lhs_ptr + 4 + lhs_off0)             # val0 = arm_nn_read_s8x4(&lhs_ptr[lhs_off0]);
    val3 = sxtb16(m, val0, 0)                         # val3 = SXTB16(val0);
    val0 = sxtb16(m, val0, 8)                         # val0 = SXTB16_RORn(val0, 8);
    res10 = smlad(m, val3, val2, res10)               # res10 = SMLAD(val3, val2, res10);
    res11 = smlad(m, val3, val5, res11)               # res11 = SMLAD(val3, val5, res11);
    res10 = smlad(m, val0, val1, res10)               # res10 = SMLAD(val0, val1, res10);
    res11 = smlad(m, val0, val4, res11)               # res11 = SMLAD(val0, val4, res11);
    return res00, res01, res10, res11


@kernel(inline=True)
def _mac4_1x2(m, rhs_ptr, lhs_ptr, rhs_off0, res00, res01):
    """Four columns of the left-over lhs row against two rhs rows."""
    val0 = ldr(m, rhs_ptr)                            # val0 = arm_nn_read_s8x4_ia(&rhs_ptr);
    val1 = ldr(m, rhs_ptr + 4 + rhs_off0)             # val1 = arm_nn_read_s8x4(&rhs_ptr[rhs_off0]);
    val2 = ldr(m, lhs_ptr)                            # val2 = arm_nn_read_s8x4_ia(&lhs_ptr);
    val3 = sxtb16(m, val0, 0)                         # val3 = SXTB16(val0);
    val5 = sxtb16(m, val2, 0)                         # val5 = SXTB16(val2);
    val4 = sxtb16(m, val1, 0)                         # val4 = SXTB16(val1);
    val0 = sxtb16(m, val0, 8)                         # val0 = SXTB16_RORn(val0, 8);
    val2 = sxtb16(m, val2, 8)                         # val2 = SXTB16_RORn(val2, 8);
    val1 = sxtb16(m, val1, 8)                         # val1 = SXTB16_RORn(val1, 8);
    res00 = smlad(m, val5, val3, res00)               # res00 = SMLAD(val5, val3, res00);
    res00 = smlad(m, val2, val0, res00)               # res00 = SMLAD(val2, val0, res00);
    res01 = smlad(m, val5, val4, res01)               # res01 = SMLAD(val5, val4, res01);
    res01 = smlad(m, val2, val1, res01)               # res01 = SMLAD(val2, val1, res01);
    return res00, res01


@kernel
def arm_nn_mat_mult_nt_t_s8(m, lhs, rhs, bias, dst, dst_multipliers, dst_shifts, lhs_rows,
                            rhs_rows, rhs_cols, lhs_offset, dst_offset, activation_min,
                            activation_max, row_address_offset, lhs_cols_offset):
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #frame
    for _ in range(4):
        fitted_ldr_sp(m)                              # stacked arguments
    rhs_off0 = sub(m, rhs_cols, 4)                    # const int32_t rhs_off0 = rhs_cols - 4;
    lhs_off0 = sub(m, lhs_cols_offset, 4)             # const int32_t lhs_off0 = lhs_cols_offset - 4;
    rhs_rows_idx = 0
    cmp(m, rhs_rows, 1)                               # rhs_rows_idx <= rhs_rows - 2
    bcc(m, rhs_rows < 2)
    while rhs_rows_idx <= rhs_rows - 2:
        lhs_ptr = lhs
        dst_ptr = dst
        # for (x = 0; x < rhs_cols; ++x) lhs_offset_contribution{0,1} += rhs[x], rhs[x + rhs_cols]
        c0 = mov(m, 0)
        c1 = mov(m, 0)
        cmp(m, rhs_cols, 0)
        bcc(m, rhs_cols <= 0)
        for x in range(rhs_cols):
            c0 = add(m, c0, ldrsb(m, rhs + x))
            c1 = add(m, c1, ldrsb(m, rhs + x + rhs_cols))
            cmp(m, x + 1, rhs_cols)
            bcc(m, x + 1 < rhs_cols)
        c0 = mul(m, c0, lhs_offset)                   # lhs_offset_contribution0 *= lhs_offset;
        c1 = mul(m, c1, lhs_offset)                   # lhs_offset_contribution1 *= lhs_offset;
        cbz(m, bias == 0)                             # if (bias)
        if bias != 0:
            c0 = add(m, c0, ldr(m, bias + 4 * rhs_rows_idx))
            c1 = add(m, c1, ldr(m, bias + 4 * rhs_rows_idx + 4))
        # spill the offset contributions and the pair's pointers, reload arguments
        for _ in range(2):
            fitted_strd_sp(m)
        for _ in range(13):
            fitted_str_sp(m)
        for _ in range(3):
            fitted_ldrd_sp(m)
        for _ in range(17):
            fitted_ldr_sp(m)
        for _ in range(6):
            fitted_mov(m)
        for _ in range(10):
            fitted_add(m)
        for _ in range(4):
            cmp(m, 0, 0)
            bcc(m, False)
        lhs_rows_idx = asr(m, lhs_rows, 1)            # int32_t lhs_rows_idx = lhs_rows >> 1;
        cbz(m, lhs_rows_idx == 0)                     # while (lhs_rows_idx)
        while lhs_rows_idx:
            rhs_ptr = rhs
            res00 = mov(m, c0)
            res01 = mov(m, c1)
            res10 = mov(m, c0)
            res11 = mov(m, c1)
            rhs_cols_idx = 0
            if m.dsp:
                # gcc -O2 (Cortex-M4): the three column loops are tested one after the
                # other; each runs (or is skipped) on its own branch.
                fitted_ldr_sp(m)                      # rhs_cols (stacked argument)
                cmp(m, rhs_cols, 15)                  # rhs_cols_idx <= rhs_cols - 16
                bcc(m, rhs_cols < 16)
                if rhs_cols >= 16:
                    b(m)
                    for _ in range(7):
                        fitted_ldr_sp(m)              # rhs_off0, lhs_off0, rhs, bounds, spills
                    fitted_str_sp(m)                  # the 16-column loop's lhs_ptr and end
                    fitted_str_sp(m)
                else:
                    for _ in range(3):
                        fitted_ldr_sp(m)              # the spilled contributions and rhs
                    mov(m, 0)                         # rhs_cols_idx = 0
                    b(m)                              # to the 4-column loop's test
                while rhs_cols_idx <= rhs_cols - 16:
                    for q in range(4):
                        res00, res01, res10, res11 = _mac4_2x2(
                            m, rhs_ptr + 4 * q, lhs_ptr + 4 * q, rhs_off0, lhs_off0,
                            res00, res01, res10, res11)
                    rhs_ptr = add(m, rhs_ptr, 16)     # pointer updates the loads do not fold
                    lhs_ptr = add(m, lhs_ptr, 16)
                    add(m, rhs_ptr, rhs_off0)
                    fitted_ldr_sp(m)                  # reload the spilled loop bound
                    fitted_ldr_sp(m)
                    rhs_cols_idx = add(m, rhs_cols_idx, 16)
                    cmp(m, rhs_cols_idx, rhs_cols - 15)
                    bcc(m, rhs_cols_idx <= rhs_cols - 16)
                fitted_ldr_sp(m)                      # rhs_cols - 3 (spilled bound)
                cmp(m, rhs_cols_idx, rhs_cols - 3)    # rhs_cols_idx <= rhs_cols - 4
                bcc(m, rhs_cols_idx > rhs_cols - 4)
                if rhs_cols_idx <= rhs_cols - 4:
                    # trip count and end pointer computed up front
                    fitted_ldr_sp(m)
                    fitted_str_sp(m)
                    sub(m, rhs_cols, 4)
                    n4 = sub(m, rhs_cols - 4, rhs_cols_idx)
                    n4 = lsr(m, n4, 2)
                    n4 = add(m, n4, 1)
                    lsl(m, n4, 2)
                    fitted_strd_sp(m)
                    add(m, lhs_ptr, 4 * n4)
                    mov(m, rhs_ptr)
                    fitted_str_sp(m)
                    while rhs_cols_idx <= rhs_cols - 4:
                        res00, res01, res10, res11 = _mac4_2x2(
                            m, rhs_ptr, lhs_ptr, rhs_off0, lhs_off0, res00, res01, res10, res11)
                        fitted_ldr_sp(m)              # lhs_cols_offset (lhs_ptr[lhs_off0])
                        add(m, lhs_ptr, lhs_cols_offset)
                        rhs_ptr += 4                  # post-indexed loads
                        lhs_ptr += 4
                        rhs_cols_idx += 4
                        cmp(m, rhs_cols_idx, rhs_cols - 3)   # cmp lhs_ptr, end
                        bcc(m, rhs_cols_idx <= rhs_cols - 4)
                    fitted_ldrd_sp(m)                 # reload and advance the pointers
                    fitted_ldr_sp(m)
                    fitted_ldr_sp(m)
                    fitted_add(m)
                    fitted_add(m)
                    fitted_add(m)
                else:
                    fitted_mov(m)
                    b(m)                              # to the single-column loop's test
                fitted_ldr_sp(m)                      # rhs_cols
                cmp(m, rhs_cols, rhs_cols_idx)        # rhs_cols_idx < rhs_cols
                bcc(m, rhs_cols_idx >= rhs_cols)
                if rhs_cols_idx < rhs_cols:
                    # pointers to the four operands and the end bound
                    fitted_ldr_sp(m)
                    fitted_add(m)
                    fitted_ldr_sp(m)
                    fitted_add(m)
                    fitted_add(m)
                    fitted_ldr_sp(m)
                    fitted_sub(m)
                    fitted_add(m)
                    fitted_add(m)
            else:
                b(m)                                  # to the column loop's test
                fitted_str_sp(m)                      # spilled pointers (scalar build)
                fitted_str_sp(m)
                cmp(m, rhs_cols, 0)
                bcc(m, rhs_cols == 0)
            tail = rhs_cols_idx < rhs_cols
            while rhs_cols_idx < rhs_cols:            # one column, both lhs rows
                rhs_value0 = ldrsb(m, rhs_ptr)        # int8_t rhs_value0 = rhs_ptr[0];
                rhs_value1 = ldrsb(m, rhs_ptr + rhs_cols)  # rhs_ptr[rhs_cols]
                lhs_value = ldrsb(m, lhs_ptr)         # int8_t lhs_value = lhs_ptr[0];
                res00 = mla(m, lhs_value, rhs_value0, res00)
                res01 = mla(m, lhs_value, rhs_value1, res01)
                lhs_value = ldrsb(m, lhs_ptr + lhs_cols_offset)
                res10 = mla(m, lhs_value, rhs_value0, res10)
                res11 = mla(m, lhs_value, rhs_value1, res11)
                rhs_ptr += 1                          # ++rhs_ptr; ++lhs_ptr; (post-indexed)
                lhs_ptr += 1
                rhs_cols_idx += 1
                cmp(m, rhs_cols_idx, rhs_cols)
                bcc(m, rhs_cols_idx < rhs_cols)
            if m.dsp and tail:
                fitted_ldr_sp(m)                      # lhs_ptr past the tail
                fitted_sub(m)
                fitted_add(m)
            # Quantize down, add offset, clamp, store.  The two channels' shift-only part
            # of arm_nn_requantize is computed once for both lhs rows.
            b(m)
            # The 12 reloads of the spilled accumulators and arguments come in small groups
            # between the requantize steps, as gcc -O2 schedules them (not in one run).
            for _ in range(3):
                fitted_ldr_sp(m)
            left0, right0, mask0, thr0 = requantize_setup(m, ldr(m, dst_shifts + 4 * rhs_rows_idx))
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            left1, right1, mask1, thr1 = requantize_setup(m, ldr(m, dst_shifts + 4 * rhs_rows_idx + 4))
            for _ in range(3):
                fitted_ldr_sp(m)
            mult0 = ldr(m, dst_multipliers + 4 * rhs_rows_idx)
            res00 = requantize_in_loop(m, res00, mult0, left0, right0, mask0, thr0)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            mult1 = ldr(m, dst_multipliers + 4 * rhs_rows_idx + 4)
            res01 = requantize_in_loop(m, res01, mult1, left1, right1, mask1, thr1)
            fitted_ldr_sp(m)
            res10 = requantize_in_loop(m, res10, mult0, left0, right0, mask0, thr0)
            fitted_ldr_sp(m)
            res11 = requantize_in_loop(m, res11, mult1, left1, right1, mask1, thr1)
            # dst_offset, activation_min/max, rhs_rows reloaded one per result
            _clamp_store(m, res00, dst_offset, activation_min, activation_max, dst_ptr, True)
            _clamp_store(m, res01, dst_offset, activation_min, activation_max, dst_ptr + 1, True)
            dst_ptr = add(m, dst_ptr, rhs_rows)       # dst_ptr += rhs_rows;
            _clamp_store(m, res10, dst_offset, activation_min, activation_max, dst_ptr, True)
            _clamp_store(m, res11, dst_offset, activation_min, activation_max, dst_ptr + 1, True)
            dst_ptr = add(m, dst_ptr, rhs_rows)       # dst_ptr += rhs_rows;
            lhs_ptr = sub(m, lhs_ptr, rhs_cols)       # lhs_ptr -= rhs_cols;
            lhs_ptr = add(m, lhs_ptr, 2 * lhs_cols_offset)  # lhs_ptr += 2 * lhs_cols_offset;
            for _ in range(3):
                fitted_str_sp(m)                      # dst_ptr, next row and counter to the stack
            b(m)
            lhs_rows_idx = sub(m, lhs_rows_idx, 1)    # lhs_rows_idx--;
            cmp(m, lhs_rows_idx, 0)
            bcc(m, lhs_rows_idx != 0)
        # Left-over rows
        tst_odd = lhs_rows & 1
        cmp(m, tst_odd, 0)                            # if (lhs_rows % 2)
        bcc(m, tst_odd == 0)
        if tst_odd:
            rhs_ptr = rhs
            res00 = mov(m, c0)
            res01 = mov(m, c1)
            rhs_cols_idx = 0
            if m.dsp:
                cmp(m, rhs_cols, 15)
                bcc(m, rhs_cols < 16)
                while rhs_cols_idx <= rhs_cols - 16:
                    for q in range(4):
                        res00, res01 = _mac4_1x2(m, rhs_ptr + 4 * q, lhs_ptr + 4 * q, rhs_off0,
                                                 res00, res01)
                    rhs_ptr += 16
                    lhs_ptr += 16
                    rhs_cols_idx = add(m, rhs_cols_idx, 16)
                    cmp(m, rhs_cols_idx, rhs_cols - 15)
                    bcc(m, rhs_cols_idx <= rhs_cols - 16)
                cmp(m, rhs_cols_idx, rhs_cols - 3)
                bcc(m, rhs_cols_idx > rhs_cols - 4)
                while rhs_cols_idx <= rhs_cols - 4:
                    res00, res01 = _mac4_1x2(m, rhs_ptr, lhs_ptr, rhs_off0, res00, res01)
                    rhs_ptr += 4
                    lhs_ptr += 4
                    rhs_cols_idx = add(m, rhs_cols_idx, 4)
                    cmp(m, rhs_cols_idx, rhs_cols - 3)
                    bcc(m, rhs_cols_idx <= rhs_cols - 4)
                cmp(m, rhs_cols_idx, rhs_cols)
                bcc(m, rhs_cols_idx >= rhs_cols)
            else:
                cmp(m, rhs_cols, 0)
                bcc(m, rhs_cols == 0)
            while rhs_cols_idx < rhs_cols:            # gcc -O2 order: lhs, rhs 0, MLA, rhs 1, MLA
                lhs_value = ldrsb(m, lhs_ptr)
                rhs_value0 = ldrsb(m, rhs_ptr)
                cmp(m, rhs_cols_idx + 1, rhs_cols)
                res00 = mla(m, lhs_value, rhs_value0, res00)
                rhs_value1 = ldrsb(m, rhs_ptr + rhs_cols)
                res01 = mla(m, lhs_value, rhs_value1, res01)
                rhs_ptr += 1
                lhs_ptr += 1
                rhs_cols_idx += 1
                bcc(m, rhs_cols_idx < rhs_cols)
            for _ in range(10):
                fitted_ldr_sp(m)
            mult0 = ldr(m, dst_multipliers + 4 * rhs_rows_idx)
            mult1 = ldr(m, dst_multipliers + 4 * rhs_rows_idx + 4)
            left0, right0, mask0, thr0 = requantize_setup(m, ldr(m, dst_shifts + 4 * rhs_rows_idx))
            left1, right1, mask1, thr1 = requantize_setup(m, ldr(m, dst_shifts + 4 * rhs_rows_idx + 4))
            res00 = requantize_in_loop(m, res00, mult0, left0, right0, mask0, thr0)
            res01 = requantize_in_loop(m, res01, mult1, left1, right1, mask1, thr1)
            _clamp_store(m, res00, dst_offset, activation_min, activation_max, dst_ptr, False)
            _clamp_store(m, res01, dst_offset, activation_min, activation_max, dst_ptr + 1, False)
        rhs = add(m, rhs, 2 * rhs_cols)               # rhs += 2 * rhs_cols;
        dst = add(m, dst, 2)                          # dst += 2;
        rhs_rows_idx = add(m, rhs_rows_idx, 2)
        fitted_ldr_sp(m)
        cmp(m, rhs_rows_idx, rhs_rows - 1)
        bcc(m, rhs_rows_idx <= rhs_rows - 2)

    odd = rhs_rows & 1
    cmp(m, odd, 0)                                    # if (rhs_rows % 2)
    bcc(m, odd == 0)
    if odd:
        lhs_ptr = lhs
        dst_ptr = dst
        mult = ldr(m, dst_multipliers + 4 * (rhs_rows - 1))
        left, right, mask, thr = requantize_setup(m, ldr(m, dst_shifts + 4 * (rhs_rows - 1)))
        lhs_rows_idx = 0
        cmp(m, lhs_rows, 0)
        bcc(m, lhs_rows <= 0)
        while lhs_rows_idx < lhs_rows:
            rhs_ptr = rhs
            res00 = mov(m, 0)                         # int32_t res00 = 0;
            cbz(m, bias == 0)                         # if (bias) res00 = bias[rhs_rows - 1];
            if bias != 0:
                res00 = ldr(m, bias + 4 * (rhs_rows - 1))
            cmp(m, rhs_cols, 0)
            bcc(m, rhs_cols <= 0)
            for k in range(rhs_cols):
                rhs_value = ldrsb(m, rhs_ptr + k)     # int32_t rhs_value = rhs_ptr[0];
                lhs_value = add(m, ldrsb(m, lhs_ptr + k), lhs_offset)  # lhs_ptr[0] + lhs_offset
                res00 = mla(m, lhs_value, rhs_value, res00)
                cmp(m, k + 1, rhs_cols)
                bcc(m, k + 1 < rhs_cols)
            lhs_ptr = add(m, lhs_ptr, lhs_cols_offset)  # lhs_ptr -= rhs_cols; lhs_ptr += lhs_cols_offset;
            for _ in range(3):
                fitted_ldr_sp(m)
            res00 = requantize_in_loop(m, res00, mult, left, right, mask, thr)
            _clamp_store(m, res00, dst_offset, activation_min, activation_max, dst_ptr, False)
            dst_ptr = add(m, dst_ptr, rhs_rows)       # dst_ptr += rhs_rows;
            lhs_rows_idx += 1
            cmp(m, lhs_rows_idx, lhs_rows)
            bcc(m, lhs_rows_idx < lhs_rows)
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 9)
    return 0
