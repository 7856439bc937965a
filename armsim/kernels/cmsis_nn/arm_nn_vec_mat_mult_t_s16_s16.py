"""arm_nn_vec_mat_mult_t_s16_s16 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s16_s16.c).

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_s16_s16(const int16_t *lhs, const int16_t *rhs,
        const int64_t *bias, int16_t *dst, const int32_t dst_multiplier,
        const int32_t dst_shift, const int32_t rhs_cols, const int32_t rhs_rows,
        const int32_t activation_min, const int32_t activation_max)

dst[r] = clamp(arm_nn_requantize_s64(bias[r] + sum_c lhs[c] * rhs[r][c])), int16 operands
and output; `dst_multiplier` is already reduced (REDUCE_MULTIPLIER, by the caller).

ARM_MATH_DSP: two rows at a time, four columns per step straight into the two 64-bit
accumulators (two q15x2 words of lhs and of each row, four SMLALD), the rest one by one
(LDRSH / LDRH, SMLALBB); an odd last row alone.  Plain C: one row at a time, every column a
SMLAL into the int64 result, MAX / MIN on int64.  arm_nn_requantize_s64 is inlined at each
site: the int64 x int32 product (MUL, MLA, UMULL, ADD) and gcc's variable 64-bit arithmetic
shift (LSL, LSR, ORR and IT PL for a shift of 32 or more: one ITT in the row pairs and the
plain-C rows, two ITs in the odd row).  No unroll pragma in this file.

Every instruction is one of the measured objects' (arm-none-eabi-gcc 12.2 -O2,
-mcpu=cortex-m4 with ARM_MATH_DSP / -mcpu=cortex-m3), in gcc's order.  No fitted line.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (adc, add, asr, b, bcc, bic, carry_of_add, carry_of_sub, cbz, cmp,
                            it, ldr, ldr_sp, ldrd, ldrd_sp, ldrh, ldrsh, lsl, lsr, mla, mov,
                            mul, orr, pop_pc, push, rsb, sbc, smlal, smlalbb, smlald, str_sp,
                            strh, sub, umull)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_vec_mat_mult_t_s16 import _add64, _or_high, _shift_high

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _product(m, lo, hi, dst_multiplier):
    """new_val = val * reduced_multiplier (the low 64 bits): returns (lo, hi)."""
    t = mul(m, dst_multiplier >> 31, lo)
    ldr_sp(m)                                           # dst_multiplier
    t = mla(m, dst_multiplier, hi, t)
    ldr_sp(m)
    plo, phi = umull(m, lo, dst_multiplier)
    return plo, add(m, phi, t)


@kernel(inline=True)
def _pair_requantize_store(m, lo, hi, dst, dst_multiplier, n, activation_min, activation_max):
    """tmp = arm_nn_requantize_s64(acc, dst_multiplier, dst_shift); the clamps and
    *dst++ = (int16_t)tmp of one row of a pair."""
    ldr_sp(m)                                           # the multiplier's sign word
    plo, phi = _product(m, lo, hi, dst_multiplier)
    ldr_sp(m)                                           # 32 - (14 - shift)
    result = lsr(m, plo, n)
    left = lsl(m, phi, 32 - n)
    result = orr(m, result, left)
    sub(m, n, 32)                                       # SUBS: N when n < 32
    wide = n >= 32
    it(m, 0 if wide else 2)                             # ITT PL
    if wide:
        high = asr(m, phi, n - 32)
        result = orr(m, result, high)                   # (int32_t)(new_val >> (14 - shift))
    result = add(m, result, 1)
    ldr_sp(m)                                           # activation_min
    result = asr(m, result, 1)                          # result = (result + 1) >> 1;
    result = max_lt(m, result, activation_min)          # tmp = MAX(tmp, activation_min);
    ldr_sp(m)                                           # activation_max
    result = min_ge(m, result, activation_max)          # tmp = MIN(tmp, activation_max);
    strh(m, dst, result)                                # *dst++ = (int16_t)tmp;


@kernel
def _dsp_row_pairs(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, row_loop_cnt,
                   activation_min, activation_max):
    """for (i = 0; i < row_loop_cnt; i++) (row_loop_cnt > 0): set-up and rows."""
    cmp(m, rhs_cols, 0)
    cols = mov(m, rhs_cols)
    it(m, rhs_cols >= 0)                                # addlt: / 4 rounds to zero
    if rhs_cols < 0:
        cols = add(m, rhs_cols, 3)
    col_loop_cnt = asr(m, cols, 2)                      # const int32_t col_loop_cnt = rhs_cols / 4;
    col4 = bic(m, cols, 3)                              # col_loop_cnt * 4
    str_sp(m)
    str_sp(m)
    lsl(m, col_loop_cnt, 3)
    ldr_sp(m)                                           # lhs
    str_sp(m)
    sub(m, 8 * col_loop_cnt, 4 * rhs_cols)
    add(m, lhs, 8 * col_loop_cnt)                       # lhs_vec after the columns
    str_sp(m)
    lsl(m, rhs_cols, 1)
    str_sp(m)
    lsl(m, rhs_cols, 2)
    str_sp(m)
    ldr_sp(m)                                           # dst_multiplier
    str_sp(m)
    asr(m, dst_multiplier, 31)                          # the multiplier's sign word
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    add(m, 8 * col_loop_cnt - 2 * rhs_cols, 0)
    str_sp(m)
    mov(m, 0)                                           # i = 0
    str_sp(m)
    add(m, dst_shift, 18)                               # 32 - (14 - shift)
    n = rsb(m, dst_shift, 14)                           # 14 - shift
    add(m, dst, 4)
    for _ in range(4):
        str_sp(m)
    for i in range(row_loop_cnt):
        ldr_sp(m)                                       # rhs_cols (bytes)
        ldr_sp(m)                                       # 2 * rhs_cols (bytes)
        rhs_1 = add(m, rhs, 2 * rhs_cols)               # rhs_1 = rhs + rhs_cols;
        rhs_0 = mov(m, rhs)                             # rhs_0 = rhs;
        rhs = add(m, rhs, 4 * rhs_cols)                 # rhs += 2 * rhs_cols;
        ldr_sp(m)                                       # col_loop_cnt
        cmp(m, col_loop_cnt, 0)
        bcc(m, col_loop_cnt == 0)                       # beq.w
        lhs_vec = lhs
        lo0 = hi0 = lo1 = hi1 = 0
        if col_loop_cnt:
            mov(m, col_loop_cnt)                        # j = col_loop_cnt
            mov(m, 0)                                   # int64_t acc_1 = 0;
            mov(m, 0)
            ldr_sp(m)                                   # lhs
            str_sp(m)
            mov(m, 0)                                   # int64_t acc_0 = 0;
            mov(m, 0)
            mov(m, rhs)
            for j in range(col_loop_cnt, 0, -1):
                vec_part_0 = ldr(m, lhs_vec)            # arm_nn_read_q15x2_ia(&lhs_vec)
                ker_0 = ldr(m, rhs_0)                   # arm_nn_read_q15x2_ia(&rhs_0)
                lo0, hi0 = smlald(m, lo0, hi0, ker_0, vec_part_0)
                ker_0 = ldr(m, rhs_1)                   # arm_nn_read_q15x2_ia(&rhs_1)
                lo1, hi1 = smlald(m, lo1, hi1, ker_0, vec_part_0)
                vec_part_1 = ldr(m, lhs_vec + 4)
                ker_1 = ldr(m, rhs_0 + 4)
                lo0, hi0 = smlald(m, lo0, hi0, ker_1, vec_part_1)
                ker_1 = ldr(m, rhs_1 + 4)
                sub(m, j, 1)                            # SUBS
                lhs_vec = add(m, lhs_vec, 8)
                rhs_0 = add(m, rhs_0, 8)
                lo1, hi1 = smlald(m, lo1, hi1, ker_1, vec_part_1)
                rhs_1 = add(m, rhs_1, 8)
                bcc(m, j != 1)
            ldr_sp(m)
            ldr_sp(m)                                   # lhs_vec after the columns
            mov(m, rhs)
            add(m, rhs, 8 * col_loop_cnt - 2 * rhs_cols)   # rhs_1 after the columns
            ldr_sp(m)
            ldr_sp(m)
            add(m, rhs, 8 * col_loop_cnt - 4 * rhs_cols)   # rhs_0 after the columns
        else:
            mov(m, 0)                                   # acc_1 = 0
            mov(m, 0)
            ldr_sp(m)                                   # lhs_vec
            mov(m, 0)                                   # acc_0 = 0
            mov(m, 0)
            b(m)
        ldr_sp(m)                                       # col_loop_cnt * 4
        cmp(m, rhs_cols, col4)                          # for (k = col_loop_cnt * 4; k < rhs_cols; k++)
        bcc(m, rhs_cols <= col4)
        if rhs_cols > col4:
            str_sp(m)
            mov(m, rhs)
            mov(m, rhs_cols)
            for k in range(col4, rhs_cols):
                lhs_temp = ldrsh(m, lhs_vec)            # (*lhs_vec); lhs_vec++;
                lhs_vec += 2
                r0 = ldrh(m, rhs_0)                     # *rhs_0; rhs_0++;
                rhs_0 += 2
                add(m, k, 1)
                lo0, hi0 = smlalbb(m, lo0, hi0, lhs_temp, r0)  # acc_0 += lhs_temp * (*rhs_0);
                r1 = ldrh(m, rhs_1)
                rhs_1 += 2
                cmp(m, rhs_cols, k + 1)
                lo1, hi1 = smlalbb(m, lo1, hi1, lhs_temp, r1)  # acc_1 += lhs_temp * (*rhs_1);
                bcc(m, k + 1 != rhs_cols)
            mov(m, rhs_cols)
            mov(m, rhs)
            ldr_sp(m)
        cmp(m, bias, 0)                                 # if (bias)
        bcc(m, bias == 0)
        if bias != 0:
            b_lo = ldr(m, bias)                         # acc_0 += *bias++;
            b_hi = ldr(m, bias + 4)
            lo0, hi0 = _add64(m, lo0, hi0, b_lo, b_hi)
            mov(m, lo0)
            b_lo = ldr(m, bias + 8)                     # acc_1 += *bias++;
            mov(m, hi0)
            b_hi = ldr(m, bias + 12)
            lo1, hi1 = _add64(m, lo1, hi1, b_lo, b_hi)
            mov(m, lo1)
            mov(m, hi1)
            bias = add(m, bias, 16)
        _pair_requantize_store(m, lo0, hi0, dst, dst_multiplier, n, activation_min,
                               activation_max)
        _pair_requantize_store(m, lo1, hi1, dst + 2, dst_multiplier, n, activation_min,
                               activation_max)
        dst += 4
        ldr_sp(m)                                       # i
        ldr_sp(m)                                       # row_loop_cnt
        add(m, i, 1)
        cmp(m, row_loop_cnt, i + 1)
        str_sp(m)
        add(m, dst, 4)
        bcc(m, i + 1 < row_loop_cnt)                    # bgt.w
    return bias


@kernel
def _dsp_odd_row(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, activation_min,
                 activation_max):
    """if (rhs_rows & 0x1): the last row alone."""
    cmp(m, rhs_cols, 0)
    cols = mov(m, rhs_cols)
    it(m, rhs_cols >= 0)                                # addlt: / 4 rounds to zero
    if rhs_cols < 0:
        cols = add(m, rhs_cols, 3)
    col_loop_cnt = asr(m, cols, 2)                      # ASRS: Z when there is no step
    bcc(m, col_loop_cnt == 0)                           # beq
    lhs_vec = lhs
    rhs_0 = rhs
    lo = hi = 0
    if col_loop_cnt:
        ldr_sp(m)                                       # lhs
        mov(m, rhs)
        mov(m, col_loop_cnt)                            # i = col_loop_cnt
        mov(m, 0)                                       # int64_t acc_0 = 0;
        mov(m, 0)
        for i in range(col_loop_cnt, 0, -1):
            ker_0 = ldr(m, rhs_0)                       # ker_0 = arm_nn_read_q15x2_ia(&rhs_0);
            vec = ldr(m, lhs_vec)                       # vec = arm_nn_read_q15x2_ia(&lhs_vec);
            lo, hi = smlald(m, lo, hi, ker_0, vec)      # acc_0 = SMLALD(ker_0, vec, acc_0);
            ker_0 = ldr(m, rhs_0 + 4)
            vec = ldr(m, lhs_vec + 4)
            sub(m, i, 1)
            rhs_0 = add(m, rhs_0, 8)
            lo, hi = smlald(m, lo, hi, ker_0, vec)
            lhs_vec = add(m, lhs_vec, 8)
            bcc(m, i != 1)
        ldr_sp(m)
        add(m, lhs, 8 * col_loop_cnt)
        str_sp(m)
        add(m, rhs, 8 * col_loop_cnt)
    else:
        mov(m, 0)
        mov(m, 0)
        b(m)
    col4 = 4 * col_loop_cnt
    cmp(m, rhs_cols, col4)                              # for (j = col_loop_cnt * 4; j < rhs_cols; j++)
    lsl(m, col_loop_cnt, 2)
    bcc(m, rhs_cols <= col4)
    if rhs_cols > col4:
        ldr_sp(m)                                       # lhs_vec
        for j in range(col4, rhs_cols):
            lhs_temp = ldrsh(m, lhs_vec)                # (*lhs_vec); lhs_vec++;
            lhs_vec += 2
            r = ldrh(m, rhs_0)                          # *rhs_0; rhs_0++;
            rhs_0 += 2
            add(m, j, 1)
            cmp(m, rhs_cols, j + 1)
            lo, hi = smlalbb(m, lo, hi, lhs_temp, r)    # acc_0 += lhs_temp * (*rhs_0);
            bcc(m, j + 1 != rhs_cols)
    cmp(m, bias, 0)                                     # if (bias)
    bcc(m, bias == 0)
    if bias != 0:
        b_lo, b_hi = ldrd(m, bias)                      # acc_0 += *bias++;
        lo, hi = _add64(m, lo, hi, b_lo, b_hi)
        mov(m, lo)
        mov(m, hi)
    # tmp = arm_nn_requantize_s64(acc_0, dst_multiplier, dst_shift);
    ldr_sp(m)                                           # dst_multiplier
    sign = asr(m, dst_multiplier, 31)
    t = mul(m, dst_multiplier, hi)
    t = mla(m, sign, lo, t)
    ldr_sp(m)
    plo, phi = umull(m, dst_multiplier, lo)
    phi = add(m, t, phi)                                # new_val = val * reduced_multiplier
    n = rsb(m, dst_shift, 14)                           # 14 - shift
    n_left = add(m, dst_shift, 18)                      # 32 - (14 - shift)
    result = lsr(m, plo, n)
    left = lsl(m, phi, n_left)
    sub(m, n, 32)                                       # SUBS: N when n < 32
    high = _shift_high(m, phi, n)
    result = orr(m, result, left)
    result = _or_high(m, result, high, n)               # (int32_t)(new_val >> (14 - shift))
    result = add(m, result, 1)
    ldr_sp(m)                                           # activation_min
    result = asr(m, result, 1)                          # result = (result + 1) >> 1;
    result = max_lt(m, result, activation_min)          # tmp = MAX(tmp, activation_min);
    ldr_sp(m)                                           # activation_max
    result = min_ge(m, result, activation_max)          # tmp = MIN(tmp, activation_max);
    strh(m, dst, result)                                # *dst++ = (int16_t)tmp;


@kernel
def _dsp(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows, activation_min,
         activation_max):
    """The ARM_MATH_DSP body after the frame."""
    mov(m, dst)
    ldr_sp(m)                                           # rhs_rows
    ldr_sp(m)                                           # dst_shift
    ldr_sp(m)                                           # rhs_cols
    str_sp(m)                                           # lhs
    mov(m, bias)
    rounded = add(m, rhs_rows, (rhs_rows >> 31) & 1)
    row_loop_cnt = asr(m, rounded, 1)                   # const int32_t row_loop_cnt = rhs_rows / 2;
    cmp(m, rhs_rows, 1)
    mov(m, rhs)
    str_sp(m)
    bcc(m, rhs_rows <= 1)                               # ble.w
    if rhs_rows > 1:
        bias = _dsp_row_pairs(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols,
                              row_loop_cnt, activation_min, activation_max)
        ldr_sp(m)                                       # rhs_rows
        ldr_sp(m)                                       # 4 * rhs_cols
        ldr_sp(m)                                       # dst_shift
        ldrd_sp(m)                                      # rhs, dst
        cmp(m, rhs_rows, 1)
        lsl(m, row_loop_cnt, 2)
        it(m, 2)                                        # itt le: rhs_rows > 1 here
        rhs = mla(m, 4 * rhs_cols, row_loop_cnt, rhs)   # rhs after the row pairs
        dst = add(m, dst, 4 * row_loop_cnt)             # dst after the row pairs
    lsl(m, rhs_rows, 31)                                # if (rhs_rows & 0x1)
    bcc(m, (rhs_rows & 1) == 0)                         # bpl
    if rhs_rows & 1:
        _dsp_odd_row(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols,
                     activation_min, activation_max)


@kernel
def _scalar(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows,
            activation_min, activation_max):
    """for (i_row_loop_cnt = 0; i_row_loop_cnt < rhs_rows; i_row_loop_cnt++), after the
    frame: one row at a time, SMLAL per column; the clamps on the int64 result."""
    ldr_sp(m)                                           # rhs_rows
    ldr_sp(m)                                           # dst_multiplier
    cmp(m, rhs_rows, 0)
    ldr_sp(m)                                           # dst_shift
    str_sp(m)                                           # lhs
    ldrd_sp(m)                                          # activation_min, activation_max
    bcc(m, rhs_rows <= 0)
    if rhs_rows <= 0:
        return
    mov(m, bias)
    mov(m, rhs)
    add(m, dst, 2 * rhs_rows)                           # the end of dst
    mov(m, activation_min)
    str_sp(m)
    ldr_sp(m)                                           # rhs_cols
    n = rsb(m, dst_shift, 14)                           # 14 - shift
    lsl(m, rhs_cols, 1)
    str_sp(m)
    max_hi = asr(m, activation_max, 31)
    str_sp(m)
    sign = asr(m, dst_multiplier, 31)
    str_sp(m)
    n_left = add(m, dst_shift, 18)                      # 32 - (14 - shift)
    str_sp(m)
    ldr_sp(m)
    min_hi = asr(m, activation_min, 31)
    add(m, lhs, 2 * rhs_cols)                           # the end of lhs
    for row in range(rhs_rows):
        ldr_sp(m)                                       # rhs_cols
        cmp(m, rhs_cols, 0)
        lo = mov(m, 0)                                  # int64_t result = 0;
        it(m, rhs_cols > 0)                             # movle
        if rhs_cols <= 0:
            mov(m, 0)
        bcc(m, rhs_cols <= 0)
        hi = 0
        if rhs_cols > 0:
            mov(m, 0)
            ldr_sp(m)                                   # lhs
            sub(m, rhs, 2)
            str_sp(m)
            lhs_ptr = lhs
            rhs_ptr_0 = rhs
            for c in range(rhs_cols):
                lhs_value = ldrsh(m, lhs_ptr)           # *lhs_ptr; ++lhs_ptr;
                lhs_ptr += 2
                rhs_value0 = ldrsh(m, rhs_ptr_0)        # *rhs_ptr_0; ++rhs_ptr_0;
                rhs_ptr_0 += 2
                cmp(m, lhs_ptr, lhs + 2 * rhs_cols)
                lo, hi = smlal(m, lo, hi, rhs_value0, lhs_value)  # result += lhs * rhs
                bcc(m, c + 1 < rhs_cols)
            ldr_sp(m)
        cbz(m, bias == 0)                               # if (bias)
        if bias != 0:
            b_hi = ldr(m, bias + 4)                     # result += *bias++;
            b_lo = ldr(m, bias)
            bias += 8
            carry = carry_of_add(lo, b_lo)
            lo = add(m, lo, b_lo)
            mov(m, lo)
            hi = adc(m, hi, b_hi, carry)
        # result = arm_nn_requantize_s64(result, dst_multiplier, dst_shift);
        ldr_sp(m)                                       # the multiplier's sign word
        add(m, dst, 2)
        t = mul(m, lo, sign)
        plo, phi = umull(m, lo, dst_multiplier)
        t = mla(m, dst_multiplier, hi, t)
        phi = add(m, t, phi)                            # new_val = val * reduced_multiplier
        ldr_sp(m)                                       # 32 - (14 - shift)
        result = lsr(m, plo, n)
        left = lsl(m, phi, n_left)
        result = orr(m, result, left)
        sub(m, n, 32)                                   # SUBS: N when n < 32
        wide = n >= 32
        it(m, 0 if wide else 2)                         # ITT PL
        if wide:
            high = asr(m, phi, n - 32)
            result = orr(m, result, high)               # (int32_t)(new_val >> (14 - shift))
        result = add(m, result, 1)
        res = asr(m, result, 1)                         # result = (result + 1) >> 1;
        cmp(m, res, activation_min)                     # MAX(result, activation_min) on int64
        res_hi = asr(m, result, 31)
        sbc(m, res_hi, min_hi, carry_of_sub(res, activation_min))
        clamp = res < activation_min
        it(m, 0 if clamp else 2)                        # ITT LT
        if clamp:
            res = mov(m, activation_min)
            res_hi = mov(m, min_hi)
        ldr_sp(m)                                       # activation_max >> 31
        cmp(m, activation_max, res)                     # MIN(result, activation_max)
        sbc(m, max_hi, res_hi, carry_of_sub(activation_max, res))
        clamp = res > activation_max
        it(m, 0 if clamp else 1)                        # IT LT
        if clamp:
            res = mov(m, activation_max)
        ldr_sp(m)                                       # 2 * rhs_cols
        strh(m, dst, res)                               # *dst++ = (int16_t)result;
        dst += 2
        rhs = add(m, rhs, 2 * rhs_cols)                 # rhs += rhs_cols;
        ldr_sp(m)                                       # the end of dst
        cmp(m, row + 1, rhs_rows)
        bcc(m, row + 1 < rhs_rows)


@kernel
def arm_nn_vec_mat_mult_t_s16_s16(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols,
                                  rhs_rows, activation_min, activation_max):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, sp, #frame
    if m.dsp:
        _dsp(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows,
             activation_min, activation_max)
    else:
        _scalar(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows,
                activation_min, activation_max)
    mov(m, 0)                                           # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                        # add sp, sp, #frame
    pop_pc(m, 9)
    return 0
