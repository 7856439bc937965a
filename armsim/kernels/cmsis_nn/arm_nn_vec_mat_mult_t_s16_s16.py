"""arm_nn_vec_mat_mult_t_s16_s16 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s16_s16.c).

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_s16_s16(const int16_t *lhs, const int16_t *rhs,
        const int64_t *bias, int16_t *dst, const int32_t dst_multiplier,
        const int32_t dst_shift, const int32_t rhs_cols, const int32_t rhs_rows,
        const int32_t activation_min, const int32_t activation_max)

dst[r] = clamp(arm_nn_requantize_s64(bias[r] + sum_c lhs[c] * rhs[r][c])), int16 operands
and output; `dst_multiplier` is already reduced (REDUCE_MULTIPLIER, by the caller).

ARM_MATH_DSP: two rows at a time, four columns per step straight into the two 64-bit
accumulators (two q15x2 words of lhs and of each row, four SMLALD), the rest one by one
(SMLAL); an odd last row alone.  Plain C: one row at a time, every column a SMLAL into the
int64 result, MAX / MIN on int64.

Not calibrated: ../shared/reference has no int16 batch matmul case.  The loops follow the
C; the frame and the stacked-argument loads are the ones the calling convention needs, no
spill traffic is added.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, cbz, cmp, fitted_ldr_sp, ldr, ldrd, ldrsh, mov, pop_pc,
                            push, smlal, smlalbb, smlald, strh, sub)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize_s64 import arm_nn_requantize_s64, requantize_s64_setup
from .arm_nn_vec_mat_mult_t_s16 import _add64, _max64, _min64


@kernel(inline=True)
def _bias_add(m, bias, lo, hi):
    """if (bias) acc += *bias++;  (LDRD of the int64 bias, ADDS / ADC)."""
    if bias != 0:
        b_lo, b_hi = ldrd(m, bias)
        lo, hi = _add64(m, lo, hi, b_lo, b_hi)
    return lo, hi


@kernel(inline=True)
def _requantize_clamp_store(m, lo, hi, dst, dst_multiplier, n, n_left, sign, act_min, act_max):
    tmp = arm_nn_requantize_s64(m, lo, hi, dst_multiplier, n, n_left, sign)
    tmp = max_lt(m, tmp, act_min)                       # tmp = MAX(tmp, activation_min);
    tmp = min_gt(m, tmp, act_max)                       # tmp = MIN(tmp, activation_max);
    strh(m, dst, tmp)                                   # *dst++ = (int16_t)tmp;


@kernel(inline=True)
def _tail(m, lhs_vec, rhs_0, rhs_1, lo0, hi0, lo1, hi1, k, rhs_cols, two_rows):
    """for (k = col_loop_cnt * 4; k < rhs_cols; k++) acc_x += lhs_temp * (*rhs_x);"""
    cmp(m, k, rhs_cols)
    bcc(m, k >= rhs_cols)
    while k < rhs_cols:
        lhs_temp = ldrsh(m, lhs_vec)                    # (*lhs_vec); lhs_vec++
        lhs_vec += 2
        r0 = ldrsh(m, rhs_0)
        rhs_0 += 2
        lo0, hi0 = smlalbb(m, lo0, hi0, lhs_temp, r0)
        if two_rows:
            r1 = ldrsh(m, rhs_1)
            rhs_1 += 2
            lo1, hi1 = smlalbb(m, lo1, hi1, lhs_temp, r1)
        k += 1
        cmp(m, k, rhs_cols)
        bcc(m, k < rhs_cols)
    return lo0, hi0, lo1, hi1


@kernel
def arm_nn_vec_mat_mult_t_s16_s16(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols,
                                  rhs_rows, activation_min, activation_max):
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, sp, #frame
    for _ in range(6):                                  # the six stacked arguments
        fitted_ldr_sp(m)
    n, n_left, sign = requantize_s64_setup(m, dst_multiplier, dst_shift)
    if m.dsp:
        row_loop_cnt = asr(m, rhs_rows, 1)              # rhs_rows / 2
        col_loop_cnt = asr(m, rhs_cols, 2)              # rhs_cols / 4
        cmp(m, row_loop_cnt, 0)
        bcc(m, row_loop_cnt <= 0)
        for i in range(row_loop_cnt):
            lo0 = mov(m, 0)                             # int64_t acc_0 = 0;
            hi0 = mov(m, 0)
            lo1 = mov(m, 0)                             # int64_t acc_1 = 0;
            hi1 = mov(m, 0)
            lhs_vec = lhs
            rhs_0 = rhs
            rhs_1 = add(m, rhs, 2 * rhs_cols)           # rhs + rhs_cols
            rhs = add(m, rhs, 4 * rhs_cols)             # rhs += 2 * rhs_cols;
            cbz(m, col_loop_cnt == 0)
            j = col_loop_cnt
            while j != 0:                               # for (j = col_loop_cnt; j != 0; j--)
                vec_part_0 = ldr(m, lhs_vec)            # arm_nn_read_q15x2_ia(&lhs_vec)
                vec_part_1 = ldr(m, lhs_vec + 4)
                lhs_vec += 8
                ker_0 = ldr(m, rhs_0)                   # arm_nn_read_q15x2_ia(&rhs_0)
                ker_1 = ldr(m, rhs_0 + 4)
                rhs_0 += 8
                lo0, hi0 = smlald(m, lo0, hi0, ker_0, vec_part_0)
                lo0, hi0 = smlald(m, lo0, hi0, ker_1, vec_part_1)
                ker_0 = ldr(m, rhs_1)                   # arm_nn_read_q15x2_ia(&rhs_1)
                ker_1 = ldr(m, rhs_1 + 4)
                rhs_1 += 8
                lo1, hi1 = smlald(m, lo1, hi1, ker_0, vec_part_0)
                lo1, hi1 = smlald(m, lo1, hi1, ker_1, vec_part_1)
                j = sub(m, j, 1)                        # SUBS
                bcc(m, j != 0)
            lo0, hi0, lo1, hi1 = _tail(m, lhs_vec, rhs_0, rhs_1, lo0, hi0, lo1, hi1,
                                       col_loop_cnt * 4, rhs_cols, True)
            cbz(m, bias == 0)                           # if (bias)
            lo0, hi0 = _bias_add(m, bias, lo0, hi0)
            lo1, hi1 = _bias_add(m, bias + 8 if bias != 0 else 0, lo1, hi1)
            if bias != 0:
                bias += 16
            _requantize_clamp_store(m, lo0, hi0, dst, dst_multiplier, n, n_left, sign,
                                    activation_min, activation_max)
            _requantize_clamp_store(m, lo1, hi1, dst + 2, dst_multiplier, n, n_left, sign,
                                    activation_min, activation_max)
            dst += 4
            cmp(m, i + 1, row_loop_cnt)
            bcc(m, i + 1 < row_loop_cnt)
        odd = rhs_rows & 1
        cmp(m, odd, 0)                                  # if (rhs_rows & 0x1)
        bcc(m, odd == 0)
        if odd:
            lo0 = mov(m, 0)
            hi0 = mov(m, 0)
            lhs_vec = lhs
            rhs_0 = rhs
            cbz(m, col_loop_cnt == 0)
            j = col_loop_cnt
            while j != 0:
                ker_0 = ldr(m, rhs_0)
                vec = ldr(m, lhs_vec)
                lo0, hi0 = smlald(m, lo0, hi0, ker_0, vec)
                ker_0 = ldr(m, rhs_0 + 4)
                vec = ldr(m, lhs_vec + 4)
                lo0, hi0 = smlald(m, lo0, hi0, ker_0, vec)
                rhs_0 += 8
                lhs_vec += 8
                j = sub(m, j, 1)
                bcc(m, j != 0)
            lo0, hi0, _l, _h = _tail(m, lhs_vec, rhs_0, 0, lo0, hi0, 0, 0,
                                     col_loop_cnt * 4, rhs_cols, False)
            cbz(m, bias == 0)
            lo0, hi0 = _bias_add(m, bias, lo0, hi0)
            _requantize_clamp_store(m, lo0, hi0, dst, dst_multiplier, n, n_left, sign,
                                    activation_min, activation_max)
    else:
        cmp(m, rhs_rows, 0)
        bcc(m, rhs_rows <= 0)
        for i in range(rhs_rows):                       # for (i_row_loop_cnt ...)
            lhs_ptr = lhs
            rhs_ptr_0 = rhs
            lo = mov(m, 0)                              # int64_t result = 0;
            hi = mov(m, 0)
            cmp(m, rhs_cols, 0)
            bcc(m, rhs_cols <= 0)
            for _c in range(rhs_cols):
                rhs_value0 = ldrsh(m, rhs_ptr_0)        # *rhs_ptr_0
                lhs_value = ldrsh(m, lhs_ptr)           # *lhs_ptr
                rhs_ptr_0 += 2
                lhs_ptr += 2
                cmp(m, rhs_ptr_0, rhs + 2 * rhs_cols)
                lo, hi = smlal(m, lo, hi, lhs_value, rhs_value0)   # result += lhs * rhs
                bcc(m, rhs_ptr_0 != rhs + 2 * rhs_cols)
            cbz(m, bias == 0)                           # if (bias)
            if bias != 0:
                b_lo = ldr(m, bias)                     # result += *bias++;  (two LDR)
                b_hi = ldr(m, bias + 4)
                lo, hi = _add64(m, lo, hi, b_lo, b_hi)
                bias += 8
            res = arm_nn_requantize_s64(m, lo, hi, dst_multiplier, n, n_left, sign)
            res_hi = asr(m, res, 31)                    # result is int64_t here
            res, res_hi = _max64(m, res, res_hi, activation_min)  # MAX(result, activation_min)
            res = _min64(m, res, res_hi, activation_max)          # MIN(result, activation_max)
            strh(m, dst, res)                           # *dst++ = (int16_t)result;
            dst += 2
            rhs = add(m, rhs, 2 * rhs_cols)             # rhs += rhs_cols;
            left = sub(m, rhs_rows, i + 1)              # SUBS on the row count
            bcc(m, left != 0)
    mov(m, 0)                                           # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                        # add sp, sp, #frame
    pop_pc(m, 9)
    return 0
