"""arm_nn_vec_mat_mult_t_s16 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s16.c).

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_s16(const int16_t *lhs, const int8_t *rhs,
        const int64_t *bias, int16_t *dst, const int32_t dst_multiplier,
        const int32_t dst_shift, const int32_t rhs_cols, const int32_t rhs_rows,
        const int32_t activation_min, const int32_t activation_max)

dst[r] = clamp(arm_nn_requantize_s64(bias[r] + sum_c lhs[c] * rhs[r][c])), int16 out;
`dst_multiplier` is already reduced (REDUCE_MULTIPLIER, by arm_fully_connected_s16).

ARM_MATH_DSP: two rows at a time; the first `rhs_cols_fast = MIN(rhs_cols, MAX_COL_COUNT)`
(512) columns four per step in a 32-bit accumulator (two q15x2 words of lhs, `read_and_pad`
widening four rhs bytes, four SMLAD), the rest one by one into the 64-bit accumulator
(SMLAL); an odd last row alone.  Plain C: one row at a time, every column a SMLAL.

Calibration (../shared/reference/fc_s16_128_32, gcc -O2): the spill reloads and register
copies of each row group (`fitted_ldr_sp`, `mov` marked "fitted") are placed to match the measured
per-function counts of arm_nn_vec_mat_mult_t_s16; the loops' own instructions follow the C.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (adc, add, asr, bcc, carry_of_add, carry_of_sub, cbz, cmp, fitted_add,
                            fitted_ldr_sp, fitted_ldrd_sp, fitted_mov, fitted_str_sp,
                            fitted_strd_sp, fitted_sub, it, ldr, ldrd, ldrsb, ldrsh, mov,
                            pkhbt, pkhtb, pop_pc, push, sbc, smlad, smlal, smlalbb, strh, sub, sxtb16)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize_s64 import arm_nn_requantize_s64, requantize_s64_setup

MAX_COL_COUNT = 512


@kernel(inline=True)
def read_and_pad(m, source):
    """read_and_pad (arm_nnsupportfunctions.h): four int8 -> (source + 4, out1, out2) with
    out1 = (b0, b1), out2 = (b2, b3) as int16 pairs."""
    in_a = ldr(m, source)                               # arm_nn_read_s8x4_ia(&source)
    in_abuf1 = sxtb16(m, in_a, 8)                       # SXTB16_RORn((uint32_t)inA, 8)
    in_abuf2 = sxtb16(m, in_a, 0)                       # SXTB16(inA)
    out2 = pkhtb(m, in_abuf1, in_abuf2, 16)             # PKHTB(inAbuf1, inAbuf2, 16)
    out1 = pkhbt(m, in_abuf2, in_abuf1, 16)             # PKHBT(inAbuf2, inAbuf1, 16)
    return source + 4, out1, out2


@kernel(inline=True)
def _add64(m, lo, hi, b_lo, b_hi):
    """int64 += int64: ADDS / ADC."""
    carry = carry_of_add(lo, b_lo)
    return add(m, lo, b_lo), adc(m, hi, b_hi, carry)


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
def _max64(m, lo, hi, bound):
    """MAX(result, activation_min) on int64: CMP / SBCS, then ITT LT on both words."""
    cmp(m, lo, bound)
    sbc(m, hi, bound >> 31, carry_of_sub(lo, bound))   # SBCS: the 64-bit compare
    clamp = lo < bound
    it(m, 0 if clamp else 2)                            # ITT LT: both MOVs fail unless it clamps
    if clamp:
        lo = mov(m, bound)
        hi = mov(m, bound >> 31)
    return lo, hi


@kernel(inline=True)
def _min64(m, lo, hi, bound):
    """MIN(result, activation_max) on int64: CMP / SBCS (operands swapped), ITT LT."""
    cmp(m, bound, lo)
    sbc(m, bound >> 31, hi, carry_of_sub(bound, lo))
    clamp = lo > bound
    it(m, 0 if clamp else 2)
    if clamp:
        lo = mov(m, bound)
        mov(m, bound >> 31)
    return lo


@kernel(inline=True)
def _tail64(m, lhs_vec, rhs_0, rhs_1, lo0, hi0, lo1, hi1, k, rhs_cols, two_rows):
    """for (k = col_loop_cnt * 4; k < rhs_cols; k++) acc_64_x += lhs_temp * (*rhs_x);
    (DSP build only: gcc multiplies the two halfwords with SMLALBB.)"""
    cmp(m, k, rhs_cols)
    bcc(m, k >= rhs_cols)
    while k < rhs_cols:
        lhs_temp = ldrsh(m, lhs_vec)                    # (*lhs_vec); lhs_vec++
        lhs_vec += 2
        r0 = ldrsb(m, rhs_0)
        rhs_0 += 1
        lo0, hi0 = smlalbb(m, lo0, hi0, lhs_temp, r0)
        if two_rows:
            r1 = ldrsb(m, rhs_1)
            rhs_1 += 1
            lo1, hi1 = smlalbb(m, lo1, hi1, lhs_temp, r1)
        k += 1
        cmp(m, k, rhs_cols)
        bcc(m, k < rhs_cols)
    return lo0, hi0, lo1, hi1


@kernel
def arm_nn_vec_mat_mult_t_s16(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols,
                              rhs_rows, activation_min, activation_max):
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, sp, #frame
    for _ in range(6):                                  # stacked arguments
        fitted_ldr_sp(m)
    n, n_left, sign = requantize_s64_setup(m, dst_multiplier, dst_shift)
    if m.dsp:
        cmp(m, rhs_cols, MAX_COL_COUNT)                 # rhs_cols_fast = MIN(rhs_cols, 512)
        wide = rhs_cols > MAX_COL_COUNT
        it(m, not wide)
        rhs_cols_fast = rhs_cols
        if wide:
            rhs_cols_fast = mov(m, MAX_COL_COUNT)
        row_loop_cnt = asr(m, rhs_rows, 1)              # rhs_rows / 2
        col_loop_cnt = asr(m, rhs_cols_fast, 2)         # rhs_cols_fast / 4
        for _ in range(4):                              # fitted: invariants spilled
            fitted_str_sp(m)
        cmp(m, row_loop_cnt, 0)
        bcc(m, row_loop_cnt <= 0)
        for i in range(row_loop_cnt):
            for _ in range(28):                         # fitted: spill reloads per row pair
                fitted_ldr_sp(m)
            for _ in range(5):                          # fitted: spills per row pair
                fitted_str_sp(m)
            for _ in range(3):
                fitted_strd_sp(m)
            fitted_ldrd_sp(m)
            for _ in range(8):                          # fitted: register copies per row pair
                fitted_mov(m)
            for _ in range(5):                          # fitted: address arithmetic per row pair
                fitted_add(m)
            for _ in range(2):
                fitted_sub(m)
            acc_0 = mov(m, 0)
            acc_1 = mov(m, 0)
            lhs_vec = lhs
            rhs_0 = rhs
            rhs_1 = add(m, rhs, rhs_cols)               # rhs + rhs_cols
            rhs = add(m, rhs, rhs_cols << 1)            # rhs += 2 * rhs_cols;
            bcc(m, col_loop_cnt == 0)
            j = col_loop_cnt
            while j != 0:                               # for (j = col_loop_cnt; j != 0; j--)
                vec_part_0 = ldr(m, lhs_vec)            # arm_nn_read_q15x2_ia(&lhs_vec)
                vec_part_1 = ldr(m, lhs_vec + 4)
                lhs_vec += 8
                rhs_0, ker_0, ker_1 = read_and_pad(m, rhs_0)
                acc_0 = smlad(m, ker_0, vec_part_0, acc_0)
                acc_0 = smlad(m, ker_1, vec_part_1, acc_0)
                rhs_1, ker_0, ker_1 = read_and_pad(m, rhs_1)
                acc_1 = smlad(m, ker_0, vec_part_0, acc_1)
                acc_1 = smlad(m, ker_1, vec_part_1, acc_1)
                fitted_add(m)                     # fitted: one pointer update per step
                j = sub(m, j, 1)                        # SUBS
                bcc(m, j != 0)
            hi0 = asr(m, acc_0, 31)                     # acc_64_0 += acc_0;
            lo0 = acc_0
            hi1 = asr(m, acc_1, 31)                     # acc_64_1 += acc_1;
            lo1 = acc_1
            lo0, hi0, lo1, hi1 = _tail64(m, lhs_vec, rhs_0, rhs_1, lo0, hi0, lo1, hi1,
                                         col_loop_cnt * 4, rhs_cols, True)
            bcc(m, bias == 0)                           # if (bias)
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
            acc_0 = mov(m, 0)
            lhs_vec = lhs
            rhs_0 = rhs
            cbz(m, col_loop_cnt == 0)
            j = col_loop_cnt
            while j != 0:
                rhs_0, ker_0, ker_1 = read_and_pad(m, rhs_0)
                vec = ldr(m, lhs_vec)
                acc_0 = smlad(m, ker_0, vec, acc_0)
                vec = ldr(m, lhs_vec + 4)
                acc_0 = smlad(m, ker_1, vec, acc_0)
                lhs_vec += 8
                j = sub(m, j, 1)
                bcc(m, j != 0)
            hi0 = asr(m, acc_0, 31)
            lo0, hi0, _l, _h = _tail64(m, lhs_vec, rhs_0, 0, acc_0, hi0, 0, 0,
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
                rhs_value0 = ldrsb(m, rhs_ptr_0)        # (int8_t)*rhs_ptr_0
                lhs_value = ldrsh(m, lhs_ptr)           # *lhs_ptr
                rhs_ptr_0 += 1
                lhs_ptr += 2
                cmp(m, rhs_ptr_0, rhs + rhs_cols)
                lo, hi = smlal(m, lo, hi, lhs_value, rhs_value0)   # result += lhs * rhs
                bcc(m, rhs_ptr_0 != rhs + rhs_cols)
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
            for _ in range(7):                          # fitted: spill reloads per row
                fitted_ldr_sp(m)
            fitted_str_sp(m)                            # fitted: spill per row
            fitted_mov(m)                            # fitted: register copies per row
            fitted_add(m)
            fitted_add(m)
            rhs = add(m, rhs, rhs_cols)                 # rhs += rhs_cols;
            left = sub(m, rhs_rows, i + 1)              # SUBS on the row count
            bcc(m, left != 0)
    add(m, 0, 0)                                        # add sp, sp, #frame
    pop_pc(m, 9)                                        # return ARM_CMSIS_NN_SUCCESS;
    return 0
