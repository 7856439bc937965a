"""arm_nn_vec_mat_mult_t_s16 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_s16.c), non-MVE.

    arm_cmsis_nn_status arm_nn_vec_mat_mult_t_s16(const int16_t *lhs, const int8_t *rhs,
        const int64_t *bias, int16_t *dst, const int32_t dst_multiplier,
        const int32_t dst_shift, const int32_t rhs_cols, const int32_t rhs_rows,
        const int32_t activation_min, const int32_t activation_max)

dst[r] = clamp(arm_nn_requantize_s64(bias[r] + sum_c lhs[c] * rhs[r][c])), int16 out;
`dst_multiplier` is already reduced (REDUCE_MULTIPLIER, by arm_fully_connected_s16).

ARM_MATH_DSP: two rows at a time; the first `rhs_cols_fast = MIN(rhs_cols, MAX_COL_COUNT)`
(512) columns four per step in a 32-bit accumulator (two q15x2 words of lhs, `read_and_pad`
widening four rhs bytes, four SMLAD), the columns from col_loop_cnt * 4 to rhs_cols one by one
into the 64-bit accumulator (SMLALBB); an odd last row alone.  Plain C: one row at a time,
every column a SMLAL.  arm_nn_requantize_s64 is inlined at each site: the int64 x int32
product (MUL, MLA, UMULL, ADD) and gcc's variable 64-bit arithmetic shift (LSL, LSR, ORR and
IT PL blocks for a shift of 32 or more).  No unroll pragma in this file.

Every instruction is one of the measured objects' (arm-none-eabi-gcc 12.2 -O2,
-mcpu=cortex-m4 with ARM_MATH_DSP / -mcpu=cortex-m3), in gcc's order.  No fitted line.
`read_and_pad`, `_add64`, `_max64`, `_min64` and MAX_COL_COUNT are also used by the int16
convolution, depthwise and batch-matmul ports and the TFLM int16 ports.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    adc,
    add,
    asr,
    b,
    bcc,
    bic,
    carry_of_add,
    carry_of_sub,
    cbz,
    cmp,
    it,
    ldm_sp,
    ldr,
    ldr_sp,
    ldrd,
    ldrd_sp,
    ldrsb,
    ldrsh,
    lsl,
    lsr,
    mla,
    mov,
    mul,
    orr,
    pkhbt,
    pkhtb,
    pop_pc,
    push,
    rsb,
    sbc,
    smlad,
    smlal,
    smlalbb,
    str_sp,
    strd_sp,
    strh,
    sub,
    sxtb16,
    umull,
)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

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
def _shift_high(m, hi, n):
    """The high word's part of the 64-bit shift by n >= 32 (`subs r, n, #32` already set N):
    IT PL; ASRPL.  Returns the ASR result, 0 when it did not run."""
    wide = n >= 32
    it(m, not wide)
    if wide:
        return asr(m, hi, n - 32)
    return 0


@kernel(inline=True)
def _or_high(m, result, high, n):
    """IT PL; ORRPL result, high (n >= 32)."""
    wide = n >= 32
    it(m, not wide)
    if wide:
        result = orr(m, result, high)
    return result


# --- ARM_MATH_DSP -----------------------------------------------------------------------

@kernel(inline=True)
def _pair_requantize_store(m, lo, hi, dst, dst_multiplier, n, activation_min,
                           activation_max, second):
    """tmp = arm_nn_requantize_s64(acc_64, dst_multiplier, dst_shift); the clamps and
    *dst++ = (int16_t)tmp of one row of a pair (second: the second row's order)."""
    sign = dst_multiplier >> 31
    if second:
        ldr_sp(m)                                       # the multiplier's sign word
        t = mul(m, sign, lo)
        ldr_sp(m)                                       # dst_multiplier
        t = mla(m, dst_multiplier, hi, t)
        ldr_sp(m)
        plo, phi = umull(m, lo, dst_multiplier)
    else:
        ldr_sp(m)                                       # the multiplier's sign word
        ldr_sp(m)                                       # dst_multiplier
        t = mul(m, sign, lo)
        mov(m, lo)
        ldr_sp(m)
        t = mla(m, dst_multiplier, hi, t)
        plo, phi = umull(m, lo, dst_multiplier)
    phi = add(m, phi, t)                                # new_val = val * reduced_multiplier
    ldr_sp(m)                                           # 32 - (14 - shift)
    sub(m, n, 32)                                       # SUBS: N when n < 32
    left = lsl(m, phi, 32 - n)
    result = lsr(m, plo, n)
    high = _shift_high(m, phi, n)
    result = orr(m, result, left)
    result = _or_high(m, result, high, n)               # (int32_t)(new_val >> (14 - shift))
    ldr_sp(m)                                           # activation_min
    result = add(m, result, 1)
    result = asr(m, result, 1)                          # result = (result + 1) >> 1;
    result = max_lt(m, result, activation_min)          # tmp = MAX(tmp, activation_min);
    ldr_sp(m)                                           # activation_max
    result = min_ge(m, result, activation_max)          # tmp = MIN(tmp, activation_max);
    if second:
        ldr_sp(m)
    strh(m, dst, result)                                # *dst++ = (int16_t)tmp;


@kernel
def _dsp_row_pairs(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_cols_fast,
                   row_loop_cnt, activation_min, activation_max):
    """for (i = 0; i < row_loop_cnt; i++) (row_loop_cnt > 0): set-up and rows.  Returns
    bias as the odd row starts."""
    ldr_sp(m)                                           # rhs_cols
    str_sp(m)
    lsl(m, rhs_cols, 1)                                 # 2 * rhs_cols
    str_sp(m)
    ldr_sp(m)                                           # dst_multiplier
    str_sp(m)
    cmp(m, rhs_cols_fast, 0)
    cols = mov(m, rhs_cols_fast)
    asr(m, dst_multiplier, 31)                          # the multiplier's sign word
    it(m, rhs_cols_fast >= 0)                           # addlt: / 4 rounds to zero
    if rhs_cols_fast < 0:
        cols = add(m, rhs_cols_fast, 3)
    col4 = bic(m, cols, 3)                              # col_loop_cnt * 4
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    str_sp(m)
    add(m, rhs, col4)
    mov(m, col4)
    ldr_sp(m)                                           # lhs
    str_sp(m)
    col_loop_cnt = asr(m, cols, 2)                      # rhs_cols_fast / 4
    str_sp(m)
    add(m, lhs, 8 * col_loop_cnt)                       # lhs_vec after the columns
    str_sp(m)
    mov(m, 0)                                           # i = 0
    str_sp(m)
    add(m, dst_shift, 18)                               # 32 - (14 - shift)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    sub(m, rhs_cols, col4)                              # the columns left over
    strd_sp(m)
    n = rsb(m, dst_shift, 14)                           # 14 - shift
    add(m, dst, 4)
    mov(m, n)
    for i in range(row_loop_cnt):
        ldr_sp(m)                                       # rhs_cols
        rhs_1 = add(m, rhs, rhs_cols)                   # rhs_1 = rhs + rhs_cols;
        ldr_sp(m)
        rhs_0 = mov(m, rhs)                             # rhs_0 = rhs;
        rhs = add(m, rhs, 2 * rhs_cols)                 # rhs += 2 * rhs_cols;
        ldr_sp(m)                                       # col_loop_cnt
        cmp(m, col_loop_cnt, 0)
        bcc(m, col_loop_cnt == 0)
        lhs_vec = lhs
        if col_loop_cnt != 0:
            strd_sp(m)
            strd_sp(m)
            acc_1 = mov(m, 0)                           # int32_t acc_1 = 0;
            ldr_sp(m)                                   # lhs
            str_sp(m)
            mov(m, col_loop_cnt)                        # j = col_loop_cnt
            acc_0 = mov(m, acc_1)                       # int32_t acc_0 = 0;
            for j in range(col_loop_cnt, 0, -1):
                vec_part_0 = ldr(m, lhs_vec)            # arm_nn_read_q15x2_ia(&lhs_vec)
                vec_part_1 = ldr(m, lhs_vec + 4)        # arm_nn_read_q15x2_ia(&lhs_vec)
                in_a = ldr(m, rhs_0)                    # rhs_0 = read_and_pad(rhs_0, &ker_0, &ker_1);
                rhs_0 += 4
                lhs_vec = add(m, lhs_vec, 8)
                in_abuf1 = sxtb16(m, in_a, 8)
                in_abuf2 = sxtb16(m, in_a, 0)
                ker_1 = pkhtb(m, in_abuf1, in_abuf2, 16)
                ker_0 = pkhbt(m, in_abuf2, in_abuf1, 16)
                acc_0 = smlad(m, ker_0, vec_part_0, acc_0)  # acc_0 = SMLAD(ker_0, vec_part_0, acc_0);
                acc_0 = smlad(m, ker_1, vec_part_1, acc_0)  # acc_0 = SMLAD(ker_1, vec_part_1, acc_0);
                in_a = ldr(m, rhs_1)                    # rhs_1 = read_and_pad(rhs_1, &ker_0, &ker_1);
                rhs_1 += 4
                in_abuf1 = sxtb16(m, in_a, 8)
                in_abuf2 = sxtb16(m, in_a, 0)
                ker_1 = pkhtb(m, in_abuf1, in_abuf2, 16)
                ker_0 = pkhbt(m, in_abuf2, in_abuf1, 16)
                acc_1 = smlad(m, ker_0, vec_part_0, acc_1)  # acc_1 = SMLAD(ker_0, vec_part_0, acc_1);
                acc_1 = smlad(m, ker_1, vec_part_1, acc_1)  # acc_1 = SMLAD(ker_1, vec_part_1, acc_1);
                sub(m, j, 1)
                bcc(m, j != 1)
            ldrd_sp(m)
            hi_0 = asr(m, acc_0, 31)                    # acc_64_0 += acc_0;
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            lo_1 = mov(m, acc_1)                        # acc_64_1 += acc_1;
            hi_1 = asr(m, acc_1, 31)
            ldr_sp(m)                                   # lhs_vec after the columns
            add(m, rhs_0, rhs_cols)
            mov(m, rhs_0)
            lo_0 = acc_0
        else:
            lo_1 = mov(m, 0)
            hi_1 = mov(m, 0)
            lo_0 = hi_0 = 0
            strd_sp(m)                                  # acc_64_0 = 0 on the stack
            ldr_sp(m)                                   # lhs
            b(m)
        ldr_sp(m)                                       # rhs_cols
        ldr_sp(m)                                       # col_loop_cnt * 4
        cmp(m, rhs_cols, col4)                          # for (k = col_loop_cnt * 4; k < rhs_cols; k++)
        bcc(m, rhs_cols <= col4)
        if rhs_cols > col4:
            ldr_sp(m)                                   # rhs_cols - col_loop_cnt * 4
            str_sp(m)
            mov(m, 0)
            ldrd_sp(m)                                  # acc_64_0
            add(m, rhs_0, rhs_cols - col4)              # the end of rhs_0
            for k in range(col4, rhs_cols):
                r0 = ldrsb(m, rhs_0)                    # *rhs_0; rhs_0++;
                rhs_0 += 1
                lhs_temp = ldrsh(m, lhs_vec)            # const int32_t lhs_temp = (*lhs_vec); lhs_vec++;
                lhs_vec += 2
                lo_0, hi_0 = smlalbb(m, lo_0, hi_0, lhs_temp, r0)  # acc_64_0 += lhs_temp * (*rhs_0);
                r1 = ldrsb(m, rhs_1)
                rhs_1 += 1
                cmp(m, k + 1, rhs_cols)
                lo_1, hi_1 = smlalbb(m, lo_1, hi_1, lhs_temp, r1)  # acc_64_1 += lhs_temp * (*rhs_1);
                bcc(m, k + 1 < rhs_cols)
            strd_sp(m)
            mov(m, 0)
            ldr_sp(m)                                   # bias
        cmp(m, bias, 0)                                 # if (bias)
        bcc(m, bias == 0)
        if bias != 0:
            ldrd_sp(m)                                  # acc_64_0
            b_lo = ldr(m, bias)                         # acc_64_0 += *bias++;
            b_hi = ldr(m, bias + 4)
            lo_0, hi_0 = _add64(m, lo_0, hi_0, b_lo, b_hi)
            strd_sp(m)
            b_lo = ldr(m, bias + 8)                     # acc_64_1 += *bias++;
            b_hi = ldr(m, bias + 12)
            lo_1, hi_1 = _add64(m, lo_1, hi_1, b_lo, b_hi)
            mov(m, lo_1)
            mov(m, hi_1)
            bias = add(m, bias, 16)
        ldrd_sp(m)                                      # acc_64_0
        _pair_requantize_store(m, lo_0, hi_0, dst, dst_multiplier, n, activation_min,
                               activation_max, False)
        _pair_requantize_store(m, lo_1, hi_1, dst + 2, dst_multiplier, n, activation_min,
                               activation_max, True)
        dst += 4
        ldr_sp(m)                                       # i
        add(m, 0, 0)
        ldr_sp(m)                                       # row_loop_cnt
        add(m, i, 1)
        cmp(m, row_loop_cnt, i + 1)
        str_sp(m)
        add(m, 0, 4)
        bcc(m, i + 1 < row_loop_cnt)                    # bgt
    return bias


@kernel
def _dsp(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows, activation_min,
         activation_max):
    """The ARM_MATH_DSP body after the frame."""
    ldrd_sp(m)                                          # dst_shift, rhs_cols
    mov(m, bias)
    ldr_sp(m)                                           # rhs_rows
    str_sp(m)                                           # lhs
    cmp(m, rhs_cols, MAX_COL_COUNT)                     # if (rhs_cols > MAX_COL_COUNT)
    mov(m, dst)
    rounded = add(m, rhs_rows, (rhs_rows >> 31) & 1)
    row_loop_cnt = asr(m, rounded, 1)                   # const int32_t row_loop_cnt = rhs_rows / 2;
    rhs_cols_fast = rhs_cols
    it(m, rhs_cols < MAX_COL_COUNT)                     # movge
    if rhs_cols >= MAX_COL_COUNT:
        rhs_cols_fast = mov(m, MAX_COL_COUNT)           #     rhs_cols_fast = MAX_COL_COUNT;
    cmp(m, rhs_rows, 1)
    str_sp(m)
    bcc(m, rhs_rows <= 1)
    if rhs_rows > 1:
        bias = _dsp_row_pairs(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols,
                              rhs_cols_fast, row_loop_cnt, activation_min, activation_max)
        for _ in range(5):
            ldr_sp(m)                                   # rhs_rows, row_loop_cnt, dst, ...
        ldrd_sp(m)
        cmp(m, rhs_rows, 1)
        lsl(m, row_loop_cnt, 2)
        it(m, 2)                                        # itt le: rhs_rows > 1 here
        rhs = mla(m, 2 * rhs_cols, row_loop_cnt, rhs)   # rhs after the row pairs
        dst = add(m, dst, 4 * row_loop_cnt)             # dst after the row pairs
    lsl(m, rhs_rows, 31)                                # if (rhs_rows & 0x1)
    bcc(m, (rhs_rows & 1) == 0)                         # bpl
    if rhs_rows & 1 == 0:
        return
    cols = sub(m, rhs_cols_fast, 0)                     # SUBS: the sign of rhs_cols_fast
    it(m, rhs_cols_fast >= 0)                           # addlt: / 4 rounds to zero
    if rhs_cols_fast < 0:
        cols = add(m, cols, 3)
    col_loop_cnt = asr(m, cols, 2)                      # const int32_t col_loop_cnt = rhs_cols_fast / 4;
    bcc(m, col_loop_cnt == 0)
    lhs_vec = lhs
    rhs_0 = rhs
    if col_loop_cnt != 0:
        ldr_sp(m)                                       # lhs
        mov(m, col_loop_cnt)                            # i = col_loop_cnt
        mov(m, rhs)
        acc_0 = mov(m, 0)                               # int32_t acc_0 = 0;
        for i in range(col_loop_cnt, 0, -1):
            in_a = ldr(m, rhs_0)                        # rhs_0 = read_and_pad(rhs_0, &ker_0, &ker_1);
            rhs_0 += 4
            in_abuf1 = sxtb16(m, in_a, 8)
            in_abuf2 = sxtb16(m, in_a, 0)
            vec = ldr(m, lhs_vec)                       # vec = arm_nn_read_q15x2_ia(&lhs_vec);
            ker_1 = pkhtb(m, in_abuf1, in_abuf2, 16)
            ker_0 = pkhbt(m, in_abuf2, in_abuf1, 16)
            acc_0 = smlad(m, ker_0, vec, acc_0)         # acc_0 = SMLAD(ker_0, vec, acc_0);
            vec = ldr(m, lhs_vec + 4)                   # vec = arm_nn_read_q15x2_ia(&lhs_vec);
            lhs_vec = add(m, lhs_vec, 8)
            acc_0 = smlad(m, ker_1, vec, acc_0)         # acc_0 = SMLAD(ker_1, vec, acc_0);
            sub(m, i, 1)
            bcc(m, i != 1)
        ldr_sp(m)                                       # lhs
        add(m, lhs, 8 * col_loop_cnt)
        str_sp(m)
        add(m, rhs, 4 * col_loop_cnt)
        lo = mov(m, acc_0)                              # acc_64_0 += acc_0;
        lsl(m, col_loop_cnt, 2)                         # k = col_loop_cnt * 4
        hi = asr(m, acc_0, 31)
    else:
        lo = mov(m, 0)
        hi = mov(m, 0)
        b(m)
    ldr_sp(m)                                           # rhs_cols
    cmp(m, rhs_cols, 4 * col_loop_cnt)                  # for (j = col_loop_cnt * 4; j < rhs_cols; j++)
    bcc(m, rhs_cols <= 4 * col_loop_cnt)
    if rhs_cols > 4 * col_loop_cnt:
        sub(m, rhs_cols, 4 * col_loop_cnt)
        ldr_sp(m)                                       # lhs_vec
        add(m, rhs_0, rhs_cols - 4 * col_loop_cnt)      # the end of rhs_0
        for j in range(4 * col_loop_cnt, rhs_cols):
            r = ldrsb(m, rhs_0)                         # *rhs_0; rhs_0++;
            rhs_0 += 1
            lhs_temp = ldrsh(m, lhs_vec)                # const int32_t lhs_temp = (*lhs_vec); lhs_vec++;
            lhs_vec += 2
            cmp(m, j + 1, rhs_cols)
            lo, hi = smlalbb(m, lo, hi, lhs_temp, r)    # acc_64_0 += lhs_temp * (*rhs_0);
            bcc(m, j + 1 < rhs_cols)
    cmp(m, bias, 0)                                     # if (bias)
    bcc(m, bias == 0)
    if bias != 0:
        b_lo, b_hi = ldrd(m, bias)                      # acc_64_0 += *bias++;
        lo, hi = _add64(m, lo, hi, b_lo, b_hi)
        mov(m, lo)
        mov(m, hi)
    # tmp = arm_nn_requantize_s64(acc_64_0, dst_multiplier, dst_shift);
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


# --- plain C ----------------------------------------------------------------------------

@kernel
def _scalar(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows,
            activation_min, activation_max):
    """for (i_row_loop_cnt = 0; i_row_loop_cnt < rhs_rows; i_row_loop_cnt++), after the
    frame: one row at a time, SMLAL per column; the clamps on the int64 result."""
    add(m, 0, 0)                                        # add r4, sp, #68
    ldm_sp(m, 3)                                        # dst_shift, rhs_cols, rhs_rows
    cmp(m, rhs_rows, 0)
    ldr_sp(m)                                           # dst_multiplier
    ldr_sp(m)                                           # activation_min
    str_sp(m)                                           # lhs
    bcc(m, rhs_rows <= 0)
    if rhs_rows <= 0:
        return
    mov(m, bias)
    mov(m, rhs)
    add(m, dst, 2 * rhs_rows)                           # the end of dst
    mov(m, activation_min)
    str_sp(m)
    ldr_sp(m)                                           # activation_max
    n = rsb(m, dst_shift, 14)                           # 14 - shift
    max_hi = asr(m, activation_max, 31)
    str_sp(m)
    sign = asr(m, dst_multiplier, 31)
    str_sp(m)
    add(m, dst_shift, 18)                               # 32 - (14 - shift)
    min_hi = asr(m, activation_min, 31)
    str_sp(m)
    add(m, lhs, 2 * rhs_cols)                           # the end of lhs
    for row in range(rhs_rows):
        lo = mov(m, 0)                                  # int64_t result = 0;
        cmp(m, rhs_cols, 0)
        it(m, rhs_cols > 0)                             # movle
        hi = 0
        if rhs_cols <= 0:
            hi = mov(m, lo)
        bcc(m, rhs_cols <= 0)
        if rhs_cols > 0:
            hi = mov(m, lo)
            ldr_sp(m)                                   # lhs
            add(m, rhs, -1)
            str_sp(m)
            lhs_ptr = lhs
            rhs_ptr = rhs
            for c in range(rhs_cols):
                lhs_value = ldrsh(m, lhs_ptr)           # *lhs_ptr++
                lhs_ptr += 2
                rhs_value = ldrsb(m, rhs_ptr)           # *rhs_ptr++
                rhs_ptr += 1
                cmp(m, c + 1, rhs_cols)
                lo, hi = smlal(m, lo, hi, lhs_value, rhs_value)  # result += rhs_value * lhs_value;
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
        left = lsl(m, phi, 32 - n)
        result = orr(m, result, left)
        sub(m, n, 32)                                   # SUBS: N when n < 32
        wide = n >= 32
        it(m, 0 if wide else 2)                         # itt pl: ASRPL, ORRPL
        if wide:
            result = orr(m, result, asr(m, phi, n - 32))
        result = add(m, result, 1)
        res = asr(m, result, 1)                         # result = (result + 1) >> 1;
        cmp(m, res, activation_min)                     # MAX(result, activation_min) on int64
        res_hi = asr(m, result, 31)
        sbc(m, res_hi, min_hi, carry_of_sub(res, activation_min))
        clamp = res < activation_min
        it(m, 0 if clamp else 2)                        # itt lt
        if clamp:
            res = mov(m, activation_min)
            res_hi = mov(m, min_hi)
        ldr_sp(m)                                       # activation_max
        rhs = add(m, rhs, rhs_cols)                     # rhs += rhs_cols;
        cmp(m, activation_max, res)                     # MIN(result, activation_max) on int64
        ldr_sp(m)                                       # activation_max's sign word
        sbc(m, max_hi, res_hi, carry_of_sub(activation_max, res))
        ldr_sp(m)                                       # the end of dst
        clamp = res > activation_max
        it(m, not clamp)                                # ldrlt
        if clamp:
            ldr_sp(m)
            res = activation_max
        cmp(m, row + 1, rhs_rows)
        strh(m, dst, res)                               # *dst++ = (int16_t)result;
        dst += 2
        bcc(m, row + 1 < rhs_rows)


@kernel
def arm_nn_vec_mat_mult_t_s16(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols,
                              rhs_rows, activation_min, activation_max):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, #92 / #28
    if m.dsp:
        _dsp(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows,
             activation_min, activation_max)
    else:
        _scalar(m, lhs, rhs, bias, dst, dst_multiplier, dst_shift, rhs_cols, rhs_rows,
                activation_min, activation_max)
    mov(m, 0)                                           # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
