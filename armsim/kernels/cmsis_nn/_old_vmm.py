"""arm_nn_vec_mat_mult_t_s8 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s8.c).

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_s8(const int8_t *lhs, const int8_t *rhs,
        const int32_t *kernel_sum, const int32_t *bias, int8_t *dst, int32_t lhs_offset,
        int32_t dst_offset, int32_t dst_multiplier, int32_t dst_shift, int32_t rhs_cols,
        int32_t rhs_rows, int32_t activation_min, int32_t activation_max,
        int32_t address_offset, int32_t rhs_offset)

dst[r] = clamp(requantize(bias[r] + sum_c (lhs[c] + lhs_offset) * (rhs[r][c] + rhs_offset))
               + dst_offset).

ARM_MATH_DSP: two rows at a time, four columns per step: the lhs word is widened with
SXTAB16 (lhs offset pre-packed by PKHBT), the rhs words with SXTB16 (SXTAB16 with the
packed rhs offset when rhs_offset != 0), two SMLAD per row; an odd last row alone.  In GCC
DSP builds the file switches on `#pragma GCC optimize("unroll-loops")`: the column loop is
unrolled by four (n % 4 peeled steps, then blocks of four steps addressing with immediate
offsets and one pointer update each).  Plain C: three rows at a time, one column per step
(LDRSB + MLA), then the remaining rows one by one.

The per-tensor shift is loop-invariant, so its requantize setup is hoisted out of the
row loops (kernels/cmsis_nn/arm_nn_requantize_invariant.py).  The per-channel variant
(arm_nn_vec_mat_mult_t_per_ch_s8) is the same code loading multiplier and shift per row;
both share `vec_mat_mult_t_body`.

Calibration (../shared/reference, gcc -O2): fc_256_10, fc_64_32.  The register pressure of
the unrolled loop and of the 15 arguments makes GCC reload spilled values from the stack
per row group; those reloads are the `fitted_ldr_sp` below, placed where the counts say.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, b, bcc, cmp, fitted_ldr_sp, fitted_mov, fitted_str_sp,
                            ldr, ldrd, ldrsb, mla, mov, pkhbt, pop_pc, push, smlad, smull,
                            strb, sub, sxtab16, sxtb16, sxth)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize
from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup


@kernel(inline=True)
def _rhs_mac(m, rhs_ptr, vec_0, vec_1, acc, rhs_offset_s16x2, has_rhs_offset):
    """One row's part of a column step: widen 4 rhs bytes, two SMLAD into acc."""
    ker_0 = ldr(m, rhs_ptr)                                   # arm_nn_read_s8x4_ia(&rhs_x_ptr)
    if has_rhs_offset:
        ker_1 = sxtab16(m, rhs_offset_s16x2, ker_0, 8)        # SXTAB16_RORn(rhs_offset_s16x2, ker_0, 8)
        ker_0 = sxtab16(m, rhs_offset_s16x2, ker_0, 0)        # SXTAB16(rhs_offset_s16x2, ker_0)
    else:
        ker_1 = sxtb16(m, ker_0, 8)                           # SXTB16_RORn(ker_0, 8)
        ker_0 = sxtb16(m, ker_0, 0)                           # SXTB16(ker_0)
    acc = smlad(m, ker_1, vec_1, acc)                         # acc_x = SMLAD(ker_1, vec_1, acc_x)
    acc = smlad(m, ker_0, vec_0, acc)                         # acc_x = SMLAD(ker_0, vec_0, acc_x)
    return acc


@kernel(inline=True)
def _step(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1, lhs_offset_s16x2,
          rhs_offset_s16x2, has_rhs_offset, two_rows):
    """One column step (4 columns) of two rows (two_rows) or of the odd last row; pointers
    as addresses, no update."""
    vec_0 = ldr(m, lhs_vec)                                   # arm_nn_read_s8x4_ia(&lhs_vec)
    vec_1 = sxtab16(m, lhs_offset_s16x2, vec_0, 8)            # SXTAB16_RORn(lhs_offset_s16x2, vec_0, 8)
    vec_0 = sxtab16(m, lhs_offset_s16x2, vec_0, 0)            # SXTAB16(lhs_offset_s16x2, vec_0)
    acc_0 = _rhs_mac(m, rhs_0_ptr, vec_0, vec_1, acc_0, rhs_offset_s16x2, has_rhs_offset)
    if two_rows:
        acc_1 = _rhs_mac(m, rhs_1_ptr, vec_0, vec_1, acc_1, rhs_offset_s16x2, has_rhs_offset)
    return acc_0, acc_1


@kernel
def _dsp_columns(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1, col_loop_cnt,
                 lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset, two_rows):
    """for (j = col_loop_cnt; j != 0; j--) {...} unrolled by 4 (GCC unroll-loops):
    n % 4 peeled steps, then blocks of 4.  Returns the advanced pointers and accumulators.
    Arm Compiler 6 does not see the GCC pragma: one step per iteration."""
    cmp(m, col_loop_cnt, 0)
    bcc(m, col_loop_cnt == 0)
    if col_loop_cnt == 0:
        return lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1
    if m.armclang:
        j = col_loop_cnt
        while j != 0:                                         # post-increment loads
            acc_0, acc_1 = _step(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1,
                                 lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset, two_rows)
            rhs_1_ptr += 4
            lhs_vec += 4
            rhs_0_ptr += 4
            j = sub(m, j, 1)                                  # SUBS j, j, #1
            bcc(m, j != 0)
        return lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1
    rem = and_(m, col_loop_cnt, 3)                            # ANDS r, n, #3
    bcc(m, rem == 0)
    if rem != 0:
        cmp(m, rem, 1)
        bcc(m, rem == 1)
        if rem != 1:
            cmp(m, rem, 2)
            bcc(m, rem == 2)
    else:
        b(m)                                                  # to the blocks of four
    for _ in range(rem):                                      # peeled steps, post-increment loads
        acc_0, acc_1 = _step(m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1, lhs_offset_s16x2,
                             rhs_offset_s16x2, has_rhs_offset, two_rows)
        rhs_1_ptr += 4
        lhs_vec += 4
        rhs_0_ptr += 4
    j = col_loop_cnt - rem
    if rem != 0:
        cmp(m, j, 0)                                          # any full block left?
        bcc(m, j == 0)
    while j != 0:                                             # blocks of four steps
        for k in range(4):                                    # LDR r, [ptr, #4k]
            acc_0, acc_1 = _step(m, lhs_vec + 4 * k, rhs_0_ptr + 4 * k, rhs_1_ptr + 4 * k,
                                 acc_0, acc_1, lhs_offset_s16x2, rhs_offset_s16x2,
                                 has_rhs_offset, two_rows)
        for _ in range(3):                                    # register copies in the block
            fitted_mov(m)
        lhs_vec = add(m, lhs_vec, 16)
        rhs_0_ptr = add(m, rhs_0_ptr, 16)
        if two_rows:
            rhs_1_ptr = add(m, rhs_1_ptr, 16)
        j = sub(m, j, 4)                                      # SUBS j, j, #4
        bcc(m, j != 0)
    return lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1


@kernel(inline=True)
def _requantize_row(m, acc, per_channel, dst_multiplier, dst_shift, mult_ptr, shift_ptr,
                    left_shift, right_shift, remainder_mask, threshold):
    if per_channel:
        multiplier = ldr(m, mult_ptr)                         # *dst_multiplier++
        shift = ldr(m, shift_ptr)                             # *dst_shift++
        return arm_nn_requantize(m, acc, multiplier, shift)
    return requantize_in_loop(m, acc, dst_multiplier, left_shift, right_shift,
                              remainder_mask, threshold)


@kernel(inline=True)
def _clamp_store(m, acc, dst, dst_offset, activation_min, activation_max):
    acc = add(m, acc, dst_offset)                             # acc += dst_offset;
    acc = max_lt(m, acc, activation_min)                      # acc = MAX(acc, activation_min);
    acc = min_gt(m, acc, activation_max)                      # acc = MIN(acc, activation_max);
    strb(m, dst, acc)                                         # *dst = (int8_t)acc;


@kernel
def vec_mat_mult_t_body(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                        dst_shift, rhs_cols, rhs_rows, activation_min, activation_max,
                        address_offset, rhs_offset, per_channel):
    """The body shared by arm_nn_vec_mat_mult_t_s8 (per_channel False: dst_multiplier and
    dst_shift are values) and arm_nn_vec_mat_mult_t_per_ch_s8 (True: they are addresses)."""
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, sp, #frame
    for _ in range(6):                                        # stacked arguments
        fitted_ldr_sp(m)
    for _ in range(24):                                       # arguments and invariants spilled
        fitted_str_sp(m)                                      # to the frame (measured: ~25 STR)
    left_shift = right_shift = remainder_mask = threshold = 0
    if not per_channel:
        left_shift, right_shift, remainder_mask, threshold = requantize_setup(m, dst_shift)
    mult_ptr = dst_multiplier
    shift_ptr = dst_shift
    cmp(m, rhs_offset, 0)                                     # if (rhs_offset)
    bcc(m, rhs_offset != 0)
    has_rhs_offset = rhs_offset != 0
    if m.dsp:
        row_loop_cnt = asr(m, rhs_rows, 1)                    # rhs_rows / 2
        lhs_offset_s16 = sxth(m, lhs_offset, 0)               # (int16_t)lhs_offset
        lhs_offset_s16x2 = pkhbt(m, lhs_offset_s16, lhs_offset_s16, 16)
        rhs_offset_s16x2 = 0
        if has_rhs_offset:
            rhs_offset_s16 = sxth(m, rhs_offset, 0)
            rhs_offset_s16x2 = pkhbt(m, rhs_offset_s16, rhs_offset_s16, 16)
        col_loop_cnt = asr(m, rhs_cols, 2)                    # rhs_cols / 4
        cmp(m, row_loop_cnt, 0)
        bcc(m, row_loop_cnt <= 0)
        for i in range(row_loop_cnt):
            # 28 reloads of spilled values per row pair, in pairs between the pair's other
            # ops as gcc -O2 places them (not in one run): 18 here, 10 after the column loop
            for _ in range(4):
                fitted_ldr_sp(m)
                fitted_ldr_sp(m)
                fitted_str_sp(m)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            fitted_mov(m)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            fitted_mov(m)
            if bias != 0:                                     # if (bias)
                acc_0, acc_1 = ldrd(m, bias)                  # acc_0 = *bias++; acc_1 = *bias++;
                bias += 8
            else:
                acc_0 = mov(m, 0)
                acc_1 = mov(m, 0)
            lhs_vec = lhs
            rhs_0_ptr = rhs
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            rhs_1_ptr = add(m, rhs, rhs_cols)                 # rhs + rhs_cols
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            rhs = add(m, rhs, rhs_cols << 1)                  # rhs += 2 * rhs_cols;
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1 = _dsp_columns(
                m, lhs_vec, rhs_0_ptr, rhs_1_ptr, acc_0, acc_1, col_loop_cnt,
                lhs_offset_s16x2, rhs_offset_s16x2, has_rhs_offset, True)
            k = col_loop_cnt * 4                              # for (k = col_loop_cnt * 4; k < rhs_cols; k++)
            fitted_ldr_sp(m)
            cmp(m, k, rhs_cols)
            fitted_ldr_sp(m)
            bcc(m, k >= rhs_cols)
            while k < rhs_cols:
                lhs_temp = add(m, ldrsb(m, lhs_vec), lhs_offset)  # (*lhs_vec + lhs_offset); lhs_vec++
                lhs_vec += 1
                r0 = ldrsb(m, rhs_0_ptr)
                r1 = ldrsb(m, rhs_1_ptr)
                if has_rhs_offset:
                    r0 = add(m, r0, rhs_offset)
                    r1 = add(m, r1, rhs_offset)
                acc_0 = mla(m, lhs_temp, r0, acc_0)           # acc_0 += lhs_temp * (*rhs_0_ptr [+ rhs_offset])
                acc_1 = mla(m, lhs_temp, r1, acc_1)
                rhs_0_ptr += 1
                rhs_1_ptr += 1
                k += 1
                cmp(m, k, rhs_cols)
                bcc(m, k < rhs_cols)
            acc_0 = _requantize_row(m, acc_0, per_channel, dst_multiplier, dst_shift, mult_ptr,
                                    shift_ptr, left_shift, right_shift, remainder_mask, threshold)
            acc_1 = _requantize_row(m, acc_1, per_channel, dst_multiplier, dst_shift,
                                    mult_ptr + 4, shift_ptr + 4, left_shift, right_shift,
                                    remainder_mask, threshold)
            mult_ptr += 8
            shift_ptr += 8
            fitted_ldr_sp(m)
            _clamp_store(m, acc_0, dst, dst_offset, activation_min, activation_max)
            fitted_ldr_sp(m)
            _clamp_store(m, acc_1, dst + address_offset, dst_offset, activation_min,
                         activation_max)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            dst = add(m, dst, address_offset << 1)            # dst += 2 * address_offset;
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            cmp(m, i + 1, row_loop_cnt)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            bcc(m, i + 1 < row_loop_cnt)
        tst_odd = and_(m, rhs_rows, 1)                        # if (rhs_rows & 0x1)
        bcc(m, tst_odd == 0)
        if tst_odd:
            for _ in range(3):
                fitted_ldr_sp(m)
            if bias != 0:
                acc_0 = ldr(m, bias)
                bias += 4
            else:
                acc_0 = mov(m, 0)
            lhs_vec, rhs_0_ptr, _unused, acc_0, _acc1 = _dsp_columns(
                m, lhs, rhs, 0, acc_0, 0, col_loop_cnt, lhs_offset_s16x2, rhs_offset_s16x2,
                has_rhs_offset, False)
            k = col_loop_cnt * 4
            cmp(m, k, rhs_cols)
            bcc(m, k >= rhs_cols)
            while k < rhs_cols:
                lhs_temp = add(m, ldrsb(m, lhs_vec), lhs_offset)
                lhs_vec += 1
                r0 = ldrsb(m, rhs_0_ptr)
                if has_rhs_offset:
                    r0 = add(m, r0, rhs_offset)
                acc_0 = mla(m, lhs_temp, r0, acc_0)
                rhs_0_ptr += 1
                k += 1
                cmp(m, k, rhs_cols)
                bcc(m, k < rhs_cols)
            acc_0 = _requantize_row(m, acc_0, per_channel, dst_multiplier, dst_shift, mult_ptr,
                                    shift_ptr, left_shift, right_shift, remainder_mask, threshold)
            _clamp_store(m, acc_0, dst, dst_offset, activation_min, activation_max)
    else:
        _lo, q = smull(m, rhs_rows, 0x55555556)               # rhs_rows / 3: SMULL by the reciprocal,
        row_loop_cnt = sub(m, q, rhs_rows >> 31)              # minus the sign (SUB Rd, Rq, Rn, ASR #31)
        for i in range(row_loop_cnt):
            # 22 reloads of spilled values per row group, between the group's other ops as
            # gcc -O2 places them (few back to back): 15 here, 7 after the column loop
            for _ in range(3):
                fitted_ldr_sp(m)
                fitted_ldr_sp(m)
                fitted_str_sp(m)
            fitted_ldr_sp(m)
            fitted_mov(m)
            fitted_ldr_sp(m)
            b(m)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            bcc(m, False)
            fitted_ldr_sp(m)
            bcc(m, False)
            if bias != 0:                                     # if (bias) res0x = *bias++
                res00 = ldr(m, bias)
                res01 = ldr(m, bias + 4)
                res02 = ldr(m, bias + 8)
                bias += 12
            else:
                res00 = mov(m, 0)
                res01 = mov(m, 0)
                res02 = mov(m, 0)
            lhs_ptr = lhs
            rhs_ptr_0 = rhs
            fitted_ldr_sp(m)
            rhs_ptr_1 = add(m, rhs, rhs_cols)                 # &rhs[rhs_cols]
            fitted_ldr_sp(m)
            rhs_ptr_2 = add(m, rhs_ptr_1, rhs_cols)           # &rhs[rhs_cols * 2]
            fitted_ldr_sp(m)
            cmp(m, rhs_cols, 0)
            fitted_ldr_sp(m)
            bcc(m, rhs_cols <= 0)
            for _c in range(rhs_cols):
                # gcc -O2 order: each rhs load sits between two MLAs, so only the
                # lhs/rhs_0 load pair runs back to back
                lhs_value = ldrsb(m, lhs_ptr)                 # (int8_t)*lhs_ptr
                rhs_value0 = ldrsb(m, rhs_ptr_0)              # (int8_t)*rhs_ptr_0 [+ rhs_offset]
                lhs_value = add(m, lhs_value, lhs_offset)     # ... + lhs_offset
                if has_rhs_offset:
                    rhs_value0 = add(m, rhs_value0, rhs_offset)
                res00 = mla(m, lhs_value, rhs_value0, res00)  # res00 += lhs_value * rhs_value0;
                rhs_value1 = ldrsb(m, rhs_ptr_1)
                cmp(m, lhs_ptr + 1, lhs + rhs_cols)
                if has_rhs_offset:
                    rhs_value1 = add(m, rhs_value1, rhs_offset)
                res01 = mla(m, lhs_value, rhs_value1, res01)
                rhs_value2 = ldrsb(m, rhs_ptr_2)
                if has_rhs_offset:
                    rhs_value2 = add(m, rhs_value2, rhs_offset)
                res02 = mla(m, lhs_value, rhs_value2, res02)
                rhs_ptr_0 += 1                                # ++rhs_ptr_x; ++lhs_ptr (post-increment)
                rhs_ptr_1 += 1
                rhs_ptr_2 += 1
                lhs_ptr += 1
                bcc(m, lhs_ptr != lhs + rhs_cols)
            res00 = _requantize_row(m, res00, per_channel, dst_multiplier, dst_shift, mult_ptr,
                                    shift_ptr, left_shift, right_shift, remainder_mask, threshold)
            res01 = _requantize_row(m, res01, per_channel, dst_multiplier, dst_shift,
                                    mult_ptr + 4, shift_ptr + 4, left_shift, right_shift,
                                    remainder_mask, threshold)
            res02 = _requantize_row(m, res02, per_channel, dst_multiplier, dst_shift,
                                    mult_ptr + 8, shift_ptr + 8, left_shift, right_shift,
                                    remainder_mask, threshold)
            mult_ptr += 12
            shift_ptr += 12
            fitted_ldr_sp(m)
            _clamp_store(m, res00, dst, dst_offset, activation_min, activation_max)
            fitted_ldr_sp(m)
            _clamp_store(m, res01, dst + address_offset, dst_offset, activation_min,
                         activation_max)
            fitted_ldr_sp(m)
            _clamp_store(m, res02, dst + 2 * address_offset, dst_offset, activation_min,
                         activation_max)
            fitted_ldr_sp(m)
            dst = add(m, dst, 3 * address_offset)             # dst += 3 * address_offset;
            fitted_ldr_sp(m)
            rhs = add(m, rhs, 3 * rhs_cols)                   # rhs += 3 * rhs_cols;
            fitted_ldr_sp(m)
            cmp(m, i + 1, row_loop_cnt)
            fitted_ldr_sp(m)
            bcc(m, i + 1 < row_loop_cnt)
        _lo, q = smull(m, rhs_rows, 0x55555556)               # rhs_rows % 3: the quotient again,
        q = sub(m, q, rhs_rows >> 31)
        loop_cnt = sub(m, rhs_rows, add(m, q, q << 1))        # rhs_rows - 3 * q
        for i in range(loop_cnt):
            for _ in range(8):
                fitted_ldr_sp(m)
            bcc(m, False)
            if bias != 0:
                res00 = ldr(m, bias)
                bias += 4
            else:
                res00 = mov(m, 0)
            lhs_ptr = lhs
            rhs_ptr = rhs
            cmp(m, rhs_cols, 0)
            bcc(m, rhs_cols <= 0)
            for _c in range(rhs_cols):                   # gcc -O2 order: both loads, then ALU
                lhs_value = ldrsb(m, lhs_ptr)                 # (int8_t)*lhs_ptr
                rhs_value0 = ldrsb(m, rhs_ptr)                # (int8_t)rhs_ptr[0] [+ rhs_offset]
                lhs_value = add(m, lhs_value, lhs_offset)     # ... + lhs_offset
                if has_rhs_offset:
                    rhs_value0 = add(m, rhs_value0, rhs_offset)
                rhs_ptr += 1
                lhs_ptr += 1
                cmp(m, lhs_ptr, lhs + rhs_cols)
                res00 = mla(m, lhs_value, rhs_value0, res00)
                bcc(m, lhs_ptr != lhs + rhs_cols)
            res00 = _requantize_row(m, res00, per_channel, dst_multiplier, dst_shift, mult_ptr,
                                    shift_ptr, left_shift, right_shift, remainder_mask, threshold)
            mult_ptr += 4
            shift_ptr += 4
            _clamp_store(m, res00, dst, dst_offset, activation_min, activation_max)
            dst = add(m, dst, address_offset)                 # dst += address_offset;
            rhs = add(m, rhs, rhs_cols)                       # rhs += rhs_cols;
            cmp(m, i + 1, loop_cnt)
            bcc(m, i + 1 < loop_cnt)
    add(m, 0, 0)                                              # add sp, sp, #frame
    pop_pc(m, 9)                                              # return ARM_CMSIS_NN_SUCCESS;
    return 0


@kernel
def arm_nn_vec_mat_mult_t_s8(m, lhs, rhs, kernel_sum, bias, dst, lhs_offset, dst_offset,
                             dst_multiplier, dst_shift, rhs_cols, rhs_rows, activation_min,
                             activation_max, address_offset, rhs_offset):
    return vec_mat_mult_t_body(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                               dst_shift, rhs_cols, rhs_rows, activation_min, activation_max,
                               address_offset, rhs_offset, False)
