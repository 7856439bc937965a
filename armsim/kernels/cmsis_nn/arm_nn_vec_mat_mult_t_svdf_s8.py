"""arm_nn_vec_mat_mult_t_svdf_s8 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_svdf_s8.c), non-MVE.

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_svdf_s8(const int8_t *lhs, const int8_t *rhs,
        int16_t *dst, const int32_t lhs_offset, const int32_t dst_offset,
        const int32_t dst_multiplier, const int32_t dst_shift, const int32_t rhs_cols,
        const int32_t rhs_rows, const int32_t activation_min, const int32_t activation_max)

The feature stage of arm_svdf_state_s16_s8: dst[r * dst_offset] (int16) =
clamp(requantize(sum_c (lhs[c] + lhs_offset) * rhs[r][c])).  ARM_MATH_DSP: two rows at a
time, sixteen columns per step (four words: SXTAB16 with the PKHBT-packed offset for the
lhs, SXTB16 for the rows, two SMLAD per row and word), then four, then single columns; an
odd last row four columns per step (its lhs rotation is a separate ROR, as gcc keeps
`SXTAB16(x, ROR(v, 8))`).  Plain C: three rows at a time, one column per step, then the
remaining rows.

The MACs and stores are the C's; the loop bookkeeping is written from the C's loop
structure.  There is no measured count of this kernel in ../shared (the svdf_state_s16
family has vectors only), so the instructions around the MACs are not calibrated.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, cmp, fitted_ldr_sp, ldr, ldrsb, mla, mov, pkhbt, pop_pc,
                            push, ror, smlad, smull, strh, sub, sxtab16, sxtb16, sxth)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize

ARG_ERROR = -1
NN_Q31_MAX = 2**31 - 1


@kernel(inline=True)
def _word(m, lhs_vec, rhs_0, rhs_1, acc_0, acc_1, lhs_offset_s16x2, two_rows):
    """Four columns of one or two rows (pointers as addresses, not advanced)."""
    vec_0 = ldr(m, lhs_vec)                                   # arm_nn_read_s8x4_ia(&lhs_vec)
    if two_rows:
        vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)        # SXTAB16_RORn(lhs_offset_s16x2, vec_0, 8)
    else:
        vec_1 = sxtab16(m, lhs_offset_s16x2, ror(m, vec_0, 8), 0)  # SXTAB16(.., ROR(vec_0, 8))
    vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)            # SXTAB16(lhs_offset_s16x2, vec_0)
    ker_0 = ldr(m, rhs_0)                                     # arm_nn_read_s8x4_ia(&rhs_0)
    ker_1 = sxtb16(m, ker_0, 8)
    ker_0 = sxtb16(m, ker_0, 0)
    acc_0 = smlad(m, ker_1, vec_1, acc_0)
    acc_0 = smlad(m, ker_0, vec_0, acc_0)
    if two_rows:
        ker_0 = ldr(m, rhs_1)
        ker_1 = sxtb16(m, ker_0, 8)
        ker_0 = sxtb16(m, ker_0, 0)
        acc_1 = smlad(m, ker_1, vec_1, acc_1)
        acc_1 = smlad(m, ker_0, vec_0, acc_1)
    return acc_0, acc_1


@kernel(inline=True)
def _store(m, acc, dst_multiplier, dst_shift, activation_min, activation_max, dst):
    acc = arm_nn_requantize(m, acc, dst_multiplier, dst_shift)
    acc = max_lt(m, acc, activation_min)                      # MAX(acc, activation_min)
    acc = min_gt(m, acc, activation_max)                      # MIN(acc, activation_max)
    strh(m, dst, acc)                                         # *dst = (int16_t)acc;


@kernel
def arm_nn_vec_mat_mult_t_svdf_s8(m, lhs, rhs, dst, lhs_offset, dst_offset, dst_multiplier,
                                  dst_shift, rhs_cols, rhs_rows, activation_min,
                                  activation_max):
    """dst is an int16 address, dst_offset counts int16 elements.  Returns status."""
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)
    for _ in range(6):
        fitted_ldr_sp(m)                                      # the stacked arguments
    # if (rhs_cols < 0 || (NN_Q31_MAX - rhs_cols) < 16 || dst_offset < 0)
    cmp(m, rhs_cols, 0)
    bcc(m, rhs_cols < 0)
    bad = rhs_cols < 0
    if not bad:
        cmp(m, NN_Q31_MAX - rhs_cols, 16)
        bcc(m, NN_Q31_MAX - rhs_cols < 16)
        bad = NN_Q31_MAX - rhs_cols < 16
    if not bad:
        cmp(m, dst_offset, 0)
        bcc(m, dst_offset < 0)
        bad = dst_offset < 0
    if bad:
        mov(m, ARG_ERROR)
        add(m, 0, 0)
        pop_pc(m, 9)
        return ARG_ERROR
    step = 2 * dst_offset                                     # bytes between the int16 outputs
    if m.dsp:
        row_loop_cnt = asr(m, rhs_rows, 1)                    # rhs_rows / 2
        lhs_offset_s16 = sxth(m, lhs_offset, 0)               # const int16_t lhs_offset_s16
        lhs_offset_s16x2 = pkhbt(m, lhs_offset_s16, lhs_offset_s16, 16)
        cmp(m, row_loop_cnt, 0)
        bcc(m, row_loop_cnt <= 0)
        for _ in range(row_loop_cnt):
            acc_0 = mov(m, 0)
            acc_1 = mov(m, 0)
            lhs_vec = lhs
            rhs_0 = rhs
            rhs_1 = add(m, rhs, rhs_cols)                     # rhs + rhs_cols
            rhs = add(m, rhs, 2 * rhs_cols)                   # rhs += 2 * rhs_cols;
            idx = 0
            fitted_ldr_sp(m)
            cmp(m, rhs_cols, 16)                              # rhs_cols_idx <= rhs_cols - 16
            bcc(m, rhs_cols < 16)
            while idx <= rhs_cols - 16:
                for k in range(4):                            # 4 x (4 x MAC acc_0, acc_1)
                    acc_0, acc_1 = _word(m, lhs_vec + 4 * k, rhs_0 + 4 * k, rhs_1 + 4 * k,
                                         acc_0, acc_1, lhs_offset_s16x2, True)
                lhs_vec += 16
                rhs_0 += 16
                rhs_1 += 16
                idx = add(m, idx, 16)
                cmp(m, idx, rhs_cols - 16)
                bcc(m, idx <= rhs_cols - 16)
            cmp(m, idx, rhs_cols - 4)                         # rhs_cols_idx <= rhs_cols - 4
            bcc(m, idx > rhs_cols - 4)
            while idx <= rhs_cols - 4:
                acc_0, acc_1 = _word(m, lhs_vec, rhs_0, rhs_1, acc_0, acc_1, lhs_offset_s16x2,
                                     True)
                lhs_vec += 4
                rhs_0 += 4
                rhs_1 += 4
                idx = add(m, idx, 4)
                cmp(m, idx, rhs_cols - 4)
                bcc(m, idx <= rhs_cols - 4)
            cmp(m, idx, rhs_cols)
            bcc(m, idx >= rhs_cols)
            while idx < rhs_cols:
                lhs_temp = add(m, ldrsb(m, lhs_vec), lhs_offset)  # (*lhs_vec + lhs_offset)
                lhs_vec += 1
                acc_0 = mla(m, lhs_temp, ldrsb(m, rhs_0), acc_0)
                rhs_0 += 1
                acc_1 = mla(m, lhs_temp, ldrsb(m, rhs_1), acc_1)
                rhs_1 += 1
                idx = add(m, idx, 1)
                cmp(m, idx, rhs_cols)
                bcc(m, idx < rhs_cols)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            _store(m, acc_0, dst_multiplier, dst_shift, activation_min, activation_max, dst)
            _store(m, acc_1, dst_multiplier, dst_shift, activation_min, activation_max,
                   dst + step)
            dst = add(m, dst, 2 * step)                       # dst += 2 * dst_offset;
            fitted_ldr_sp(m)
            cmp(m, 0, 0)
            bcc(m, True)
        odd = rhs_rows & 1                                    # if (rhs_rows & 0x1)
        cmp(m, odd, 0)
        bcc(m, odd == 0)
        if odd:
            acc_0 = mov(m, 0)
            col_loop_cnt = asr(m, rhs_cols, 2)                # rhs_cols / 4
            lhs_vec = lhs
            rhs_0 = rhs
            cmp(m, col_loop_cnt, 0)
            bcc(m, col_loop_cnt == 0)
            for _ in range(col_loop_cnt):
                acc_0, _unused = _word(m, lhs_vec, rhs_0, 0, acc_0, 0, lhs_offset_s16x2, False)
                lhs_vec += 4
                rhs_0 += 4
                cmp(m, 0, 0)
                bcc(m, True)
            j = col_loop_cnt * 4
            cmp(m, j, rhs_cols)
            bcc(m, j >= rhs_cols)
            while j < rhs_cols:
                lhs_temp = add(m, ldrsb(m, lhs_vec), lhs_offset)
                lhs_vec += 1
                acc_0 = mla(m, lhs_temp, ldrsb(m, rhs_0), acc_0)
                rhs_0 += 1
                j += 1
                cmp(m, j, rhs_cols)
                bcc(m, j < rhs_cols)
            _store(m, acc_0, dst_multiplier, dst_shift, activation_min, activation_max, dst)
    else:
        _lo, q = smull(m, rhs_rows, 0x55555556)               # rhs_rows / 3
        row_loop_cnt = sub(m, q, rhs_rows >> 31)
        for _ in range(row_loop_cnt):
            res00 = mov(m, 0)
            res01 = mov(m, 0)
            res02 = mov(m, 0)
            lhs_ptr = lhs
            rhs_ptr_0 = rhs
            rhs_ptr_1 = add(m, rhs, rhs_cols)                 # &rhs[rhs_cols]
            rhs_ptr_2 = add(m, rhs_ptr_1, rhs_cols)           # &rhs[rhs_cols * 2]
            fitted_ldr_sp(m)
            cmp(m, rhs_cols, 0)
            bcc(m, rhs_cols <= 0)
            for _ in range(rhs_cols):
                rhs_value0 = ldrsb(m, rhs_ptr_0)
                rhs_value1 = ldrsb(m, rhs_ptr_1)
                rhs_value2 = ldrsb(m, rhs_ptr_2)
                lhs_value = add(m, ldrsb(m, lhs_ptr), lhs_offset)
                res00 = mla(m, lhs_value, rhs_value0, res00)
                res01 = mla(m, lhs_value, rhs_value1, res01)
                res02 = mla(m, lhs_value, rhs_value2, res02)
                rhs_ptr_0 += 1
                rhs_ptr_1 += 1
                rhs_ptr_2 += 1
                lhs_ptr += 1
                cmp(m, lhs_ptr, lhs + rhs_cols)
                bcc(m, lhs_ptr != lhs + rhs_cols)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            _store(m, res00, dst_multiplier, dst_shift, activation_min, activation_max, dst)
            _store(m, res01, dst_multiplier, dst_shift, activation_min, activation_max,
                   dst + step)
            _store(m, res02, dst_multiplier, dst_shift, activation_min, activation_max,
                   dst + 2 * step)
            dst = add(m, dst, 3 * step)                       # dst += 3 * dst_offset;
            rhs = add(m, rhs, 3 * rhs_cols)                   # rhs += 3 * rhs_cols;
            fitted_ldr_sp(m)
            cmp(m, 0, 0)
            bcc(m, True)
        _lo, q = smull(m, rhs_rows, 0x55555556)               # rhs_rows % 3
        q = sub(m, q, rhs_rows >> 31)
        loop_cnt = sub(m, rhs_rows, add(m, q, q << 1))
        for _ in range(loop_cnt):
            res00 = mov(m, 0)
            lhs_ptr = lhs
            rhs_ptr = rhs
            cmp(m, rhs_cols, 0)
            bcc(m, rhs_cols <= 0)
            for _ in range(rhs_cols):
                rhs_value0 = ldrsb(m, rhs_ptr)
                lhs_value = add(m, ldrsb(m, lhs_ptr), lhs_offset)
                res00 = mla(m, lhs_value, rhs_value0, res00)
                rhs_ptr += 1
                lhs_ptr += 1
                cmp(m, lhs_ptr, lhs + rhs_cols)
                bcc(m, lhs_ptr != lhs + rhs_cols)
            _store(m, res00, dst_multiplier, dst_shift, activation_min, activation_max, dst)
            dst = add(m, dst, step)                           # dst += dst_offset;
            rhs = add(m, rhs, rhs_cols)                       # rhs += rhs_cols;
            cmp(m, 0, 0)
            bcc(m, True)
    add(m, 0, 0)
    pop_pc(m, 9)                                              # return ARM_CMSIS_NN_SUCCESS;
    return 0
