"""arm_nn_vec_mat_mul_result_acc_s16 (Source/NNSupportFunctions/arm_nn_vec_mat_mul_result_acc_s16.c),
non-MVE: one int16 LSTM gate's matrix product, accumulated into the int16 gate buffer.

    arm_cmsis_nn_status arm_nn_vec_mat_mul_result_acc_s16(const int16_t *lhs,
        const int8_t *rhs, const int64_t *effective_bias, int16_t *dst,
        const int32_t dst_multiplier, const int32_t dst_shift, const int32_t rhs_cols,
        const int32_t rhs_rows, const int32_t batches, const int32_t batch_offset)

dst[r] = clamp_int16(dst[r] + arm_nn_requantize_s64(effective_bias[r] + sum_c lhs[c] *
rhs[r][c], REDUCE_MULTIPLIER(dst_multiplier), dst_shift)); the lhs is read raw, its offset
folded into the int64 `effective_bias` (TFLM's Prepare, arm_vector_sum_s8_s64).
ARM_MATH_DSP: two rows at a time, four columns per step in a 32-bit accumulator (two q15x2
lhs words, read_and_pad of four rhs bytes per row, four SMLAD), the columns past
rhs_cols_fast & ~3 one by one into the 64-bit accumulator (gcc: SMLALBB), the int64 biases
added, both rows requantized (64-bit product UMULL / MUL / MLA, the variable 64-bit shift
with an ITT PL for shifts of 32 or more); an odd last row alone.  Plain C: one row at a
time, every column an SMLAL, the clamp on the int64 result (CMN / SBCS).

Both builds follow gcc 12.2 -O2's disassembly of this file (CMSIS-NN 99f736a, -mcpu=cortex-m4
and -mcpu=cortex-m3) instruction for instruction, the stack traffic included.  ../shared/reference
has no lstm_s16 case; executing the compiled objects on the three lstm_*_s16 vectors (Unicorn,
see tests/ops/test_unidirectional_sequence_lstm_int16.py MEASURED) gives the whole call's totals armsim counts, to the
instruction, on both builds, SMLALBB in the DSP build's tail columns included.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    adc,
    add,
    and_,
    asr,
    b,
    bcc,
    bic,
    carry_of_add,
    cbnz,
    cmn,
    cmp,
    it,
    ldr,
    ldr_lit,
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

Q15_MIN, Q15_MAX = -32768, 32767
MAX_COL_COUNT = 512
REDUCE_LIMIT = 0x7FFEFFFF         # REDUCE_MULTIPLIER: mult < 0x7FFF0000


@kernel(inline=True)
def _reduce_multiplier(m, mult, m4):
    """REDUCE_MULTIPLIER as an ITTE / ITET block: ADD / ASR or MOVW 0x7FFF (one slot fails
    when it reduces, two when it saturates)."""
    small = mult <= REDUCE_LIMIT
    it(m, 1 if small else 2)
    if small:
        return asr(m, add(m, mult, 1 << 15), 16)
    return mov(m, 0x7FFF)


@kernel(inline=True)
def _requantize(m, lo, hi, mult, sign, n, n_left):
    """arm_nn_requantize_s64(val, mult, shift) up to the rounding add: the 64-bit product's
    low and high words (MUL, MLA, UMULL, ADD), then (int32_t)(new_val >> n) with n = 14 -
    shift (LSR, LSL, ORR, SUBS, ITT PL ASR / ORR for n >= 32).  Returns result + 1."""
    t = mul(m, lo, sign)                                      # lo(val) * sign(mult)
    t = mla(m, mult, hi, t)                                   # + hi(val) * mult
    p_lo, p_hi = umull(m, lo, mult)
    p_hi = add(m, p_hi, t)
    r = orr(m, lsr(m, p_lo, n), lsl(m, p_hi, n_left))
    wide = sub(m, n, 32)
    it(m, 0 if wide >= 0 else 2)                              # ITT PL
    if wide >= 0:
        r = orr(m, r, asr(m, p_hi, wide))
    return add(m, r, 1)                                       # (result + 1) >> 1 (shifted operand)


@kernel(inline=True)
def _dsp_store(m, dst, res_plus_1):
    """tmp += *dst; MAX(tmp, NN_Q15_MIN); MIN(tmp, NN_Q15_MAX); *dst++ = tmp (32-bit)."""
    tmp = add(m, ldrsh(m, dst), res_plus_1 >> 1)              # add.w r2, r2, r0, asr #1
    ldr_lit(m)                                                # NN_Q15_MIN
    tmp = max_lt(m, tmp, Q15_MIN)
    mov(m, Q15_MAX)                                           # movw #32767
    tmp = min_ge(m, tmp, Q15_MAX)
    return tmp


@kernel(inline=True)
def _dsp_columns(m, lhs_vec, rhs_0, rhs_1, acc_0, acc_1, col_loop_cnt, two_rows):
    """for (j = col_loop_cnt; j != 0; j--): two q15x2 lhs words, read_and_pad per row,
    two SMLAD per row (19 instructions per step for two rows, 12 for one)."""
    for j in range(col_loop_cnt, 0, -1):
        if two_rows:
            vec_0 = ldr(m, lhs_vec)                           # arm_nn_read_q15x2_ia(&lhs_vec)
            vec_1 = ldr(m, lhs_vec + 4)
            lhs_vec += 8
            in_a = ldr(m, rhs_0)                              # read_and_pad(rhs_0, ..)
            rhs_0 += 4
            add(m, lhs_vec, 0)                                # adds r6, #8
            buf1 = sxtb16(m, in_a, 8)
            buf2 = sxtb16(m, in_a, 0)
            ker_1 = pkhtb(m, buf1, buf2, 16)
            ker_0 = pkhbt(m, buf2, buf1, 16)
            acc_0 = smlad(m, ker_0, vec_0, acc_0)
            acc_0 = smlad(m, ker_1, vec_1, acc_0)
            in_a = ldr(m, rhs_1)                              # read_and_pad(rhs_1, ..)
            rhs_1 += 4
            buf1 = sxtb16(m, in_a, 8)
            buf2 = sxtb16(m, in_a, 0)
            ker_1 = pkhtb(m, buf1, buf2, 16)
            ker_0 = pkhbt(m, buf2, buf1, 16)
            acc_1 = smlad(m, ker_0, vec_0, acc_1)
            acc_1 = smlad(m, ker_1, vec_1, acc_1)
        else:
            in_a = ldr(m, rhs_0)                              # read_and_pad(rhs_0, ..)
            rhs_0 += 4
            buf1 = sxtb16(m, in_a, 8)
            buf2 = sxtb16(m, in_a, 0)
            vec_0 = ldr(m, lhs_vec)
            ker_1 = pkhtb(m, buf1, buf2, 16)
            ker_0 = pkhbt(m, buf2, buf1, 16)
            acc_0 = smlad(m, ker_0, vec_0, acc_0)
            vec_1 = ldr(m, lhs_vec + 4)
            lhs_vec += 8
            add(m, lhs_vec, 0)
            acc_0 = smlad(m, ker_1, vec_1, acc_0)
        sub(m, j, 1)                                          # subs
        bcc(m, j != 1)                                        # bne
    return lhs_vec, rhs_0, rhs_1, acc_0, acc_1


@kernel
def _dsp_batch(m, lhs, rhs, bias, dst, mult, sign, n, n_left, rhs_cols, rhs_rows,
               col_loop_cnt, cols_done):
    """One batch of the ARM_MATH_DSP path (0xc8-0x2a2)."""
    row_pairs = rhs_rows // 2
    ldr_sp(m)
    ldr_sp(m)
    sub(m, 0, 0)
    str_sp(m)
    ldr_sp(m)
    cmp(m, rhs_rows, 1)
    bcc(m, rhs_rows <= 1)                                     # ble: no row pair
    if rhs_rows > 1:
        for _ in range(3):
            ldr_sp(m)
        mov(m, 0)
        asr(m, mult, 31)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        strd_sp(m)
        ldr_sp(m)
        sub(m, rhs_cols, cols_done)
        add(m, bias, 16)
        add(m, dst, 4)
        str_sp(m)
    for pair in range(row_pairs):
        ldr_sp(m)
        ldr_sp(m)
        add(m, rhs, 2 * rhs_cols)
        ldr_sp(m)
        rhs_0 = mov(m, rhs)
        rhs_1 = add(m, rhs, rhs_cols)
        rhs += 2 * rhs_cols
        mov(m, 0)
        cmp(m, col_loop_cnt, 0)
        bcc(m, col_loop_cnt == 0)                             # beq
        lhs_vec = lhs
        if col_loop_cnt:
            strd_sp(m)
            mov(m, 0)
            ldr_sp(m)
            str_sp(m)
            strd_sp(m)
            strd_sp(m)
            for _ in range(4):
                mov(m, 0)
            lhs_vec, rhs_0, rhs_1, acc_0, acc_1 = _dsp_columns(
                m, lhs_vec, rhs_0, rhs_1, 0, 0, col_loop_cnt, True)
            ldrd_sp(m)
            lo1 = mov(m, acc_1)                               # acc_64_1 += acc_1;
            hi1 = asr(m, acc_1, 31)
            ldr_sp(m)
            ldr_sp(m)
            add(m, 0, 0)
            ldr_sp(m)
            mov(m, 0)
            lo0 = mov(m, acc_0)                               # acc_64_0 += acc_0;
            hi0 = asr(m, acc_0, 31)
            ldr_sp(m)
            add(m, 0, 0)
        else:
            lo1 = mov(m, 0)
            hi1 = mov(m, 0)
            ldr_sp(m)
            lo0 = mov(m, 0)
            hi0 = mov(m, 0)
            b(m)
        ldr_sp(m)
        ldr_sp(m)
        cmp(m, rhs_cols, cols_done)
        bcc(m, rhs_cols <= cols_done)                         # ble: no column left
        if rhs_cols > cols_done:
            ldr_sp(m)
            add(m, 0, 0)
            for k in range(cols_done, rhs_cols):
                r0 = ldrsb(m, rhs_0)
                rhs_0 += 1
                lhs_temp = ldrsh(m, lhs_vec)                  # (*lhs_vec); lhs_vec++
                lhs_vec += 2
                lo0, hi0 = smlalbb(m, lo0, hi0, lhs_temp, r0)  # acc_64_0 += lhs_temp * (*rhs_0)
                r1 = ldrsb(m, rhs_1)
                rhs_1 += 1
                cmp(m, k + 1, rhs_cols)
                lo1, hi1 = smlalbb(m, lo1, hi1, lhs_temp, r1)  # acc_64_1 += lhs_temp * (*rhs_1)
                bcc(m, k + 1 < rhs_cols)
        b1_lo = ldr(m, bias + 8)                              # *effective_bias_ptr++ (two)
        b1_hi = ldr(m, bias + 12)
        b0_hi = ldr(m, bias + 4)
        ldr_sp(m)
        ldr_sp(m)
        c = carry_of_add(lo1, b1_lo)
        lo1 = add(m, lo1, b1_lo)
        hi1 = adc(m, b1_hi, hi1, c)
        b0_lo = ldr(m, bias)
        c = carry_of_add(lo0, b0_lo)
        lo0 = add(m, lo0, b0_lo)
        hi0 = adc(m, b0_hi, hi0, c)
        bias += 16
        ldr_sp(m)                                             # (two of the requantize's
        ldr_sp(m)                                             #  reloads, moved up by gcc)
        res = _requantize(m, lo0, hi0, mult, sign, n, n_left)
        tmp = _dsp_store(m, dst, res)
        strh(m, dst, tmp)                                     # *dst++ = (int16_t)tmp;
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        res = _requantize(m, lo1, hi1, mult, sign, n, n_left)
        ldr_sp(m)
        tmp = _dsp_store(m, dst + 2, res)
        ldr_sp(m)
        strh(m, dst + 2, tmp)                                 # *dst++ = (int16_t)tmp;
        dst += 4
        add(m, pair, 1)
        cmp(m, row_pairs, pair + 1)
        str_sp(m)
        add(m, 0, 16)
        add(m, 0, 4)
        bcc(m, pair + 1 < row_pairs)                          # bgt
    if rhs_rows > 1:
        ldrd_sp(m)
        ldr_sp(m)
        ldrd_sp(m)
        add(m, 0, 0)
    else:
        ldrd_sp(m)
        b(m)
    ldr_sp(m)
    cbnz(m, (rhs_rows & 1) != 0)                              # if (rhs_rows & 0x1)
    if rhs_rows & 1:
        ldr_sp(m)
        cmp(m, col_loop_cnt, 0)
        bcc(m, col_loop_cnt == 0)
        lhs_vec = lhs
        rhs_0 = rhs
        if col_loop_cnt:
            strd_sp(m)
            strd_sp(m)
            ldr_sp(m)
            mov(m, rhs)
            mov(m, 0)
            lhs_vec, rhs_0, _r, acc_0, _a = _dsp_columns(
                m, lhs_vec, rhs_0, 0, 0, 0, col_loop_cnt, False)
            hi0 = asr(m, acc_0, 31)                           # acc_64_0 += acc_0;
            lo0 = acc_0
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            ldrd_sp(m)
            ldrd_sp(m)
            add(m, 0, 0)
            ldr_sp(m)
            str_sp(m)
        else:
            lo0 = mov(m, 0)
            hi0 = mov(m, 0)
            strd_sp(m)
            b(m)
        ldr_sp(m)
        ldr_sp(m)
        cmp(m, rhs_cols, cols_done)
        bcc(m, rhs_cols <= cols_done)
        if rhs_cols > cols_done:
            sub(m, rhs_cols, cols_done)
            ldrd_sp(m)
            ldr_sp(m)
            add(m, 0, 0)
            for k in range(cols_done, rhs_cols):
                r0 = ldrsb(m, rhs_0)
                rhs_0 += 1
                lhs_temp = ldrsh(m, lhs_vec)
                lhs_vec += 2
                cmp(m, k + 1, rhs_cols)
                lo0, hi0 = smlalbb(m, lo0, hi0, lhs_temp, r0)
                bcc(m, k + 1 < rhs_cols)
            strd_sp(m)
        b_lo, b_hi = ldrd(m, bias)                            # *effective_bias_ptr++
        ldrd_sp(m)
        ldr_sp(m)
        c = carry_of_add(lo0, b_lo)
        lo0 = add(m, lo0, b_lo)
        asr(m, mult, 31)
        hi0 = adc(m, b_hi, hi0, c)
        t = mul(m, lo0, sign)
        t = mla(m, mult, hi0, t)
        p_lo, p_hi = umull(m, lo0, mult)
        ldr_sp(m)
        p_hi = add(m, p_hi, t)
        rsb(m, n, 32)
        r = orr(m, lsr(m, p_lo, n), lsl(m, p_hi, n_left))
        wide = sub(m, n, 32)
        it(m, 0 if wide >= 0 else 2)                          # ITT PL
        if wide >= 0:
            r = orr(m, r, asr(m, p_hi, wide))
        old = ldrsh(m, dst)
        ldr_lit(m)                                            # NN_Q15_MIN
        r = add(m, r, 1)
        tmp = add(m, old, r >> 1)
        tmp = max_lt(m, tmp, Q15_MIN)
        mov(m, Q15_MAX)
        mov(m, dst)
        tmp = min_ge(m, tmp, Q15_MAX)
        strh(m, dst, tmp)                                     # *dst++ = (int16_t)tmp;
        mov(m, dst + 2)
        b(m)


@kernel
def _scalar_batch(m, lhs, rhs, bias, dst, mult, sign, n, n_left, rhs_cols, rhs_rows):
    """One batch of the plain-C path (0x56-0x106)."""
    ldr_sp(m)
    sub(m, 0, 0)
    str_sp(m)
    ldr_sp(m)
    cmp(m, rhs_rows, 0)
    bcc(m, rhs_rows <= 0)                                     # ble
    if rhs_rows > 0:
        ldrd_sp(m)
        mov(m, 0)
        ldr_sp(m)
        str_sp(m)
        add(m, dst, 2 * rhs_rows)
    for row in range(rhs_rows):
        lo = ldr(m, bias)                                     # int64_t result = *effective_bias_ptr++;
        cmp(m, rhs_cols, 0)
        hi = ldr(m, bias + 4)
        bias += 8
        bcc(m, rhs_cols <= 0)                                 # ble
        if rhs_cols > 0:
            ldr_sp(m)
            add(m, rhs, -1)                                   # add.w ip, r8, #-1
            str_sp(m)
            lhs_ptr = lhs
            for c in range(rhs_cols):
                lhs_value = ldrsh(m, lhs_ptr)                 # *lhs_ptr
                lhs_ptr += 2
                rhs_value0 = ldrsb(m, rhs)                    # (int8_t)*rhs_ptr
                rhs += 1
                cmp(m, c + 1, rhs_cols)
                lo, hi = smlal(m, lo, hi, lhs_value, rhs_value0)  # result += lhs * rhs
                bcc(m, c + 1 < rhs_cols)
            ldr_sp(m)
            add(m, rhs, 0)
        ldr_sp(m)
        add(m, dst, 2)
        t = mul(m, lo, sign)
        p_lo, p_hi = umull(m, lo, mult)
        t = mla(m, mult, hi, t)
        p_hi = add(m, p_hi, t)
        hi_part = lsl(m, p_hi, n_left)
        r = lsr(m, p_lo, n)
        r = orr(m, r, hi_part)
        wide = sub(m, n, 32)
        it(m, 0 if wide >= 0 else 2)                          # ITT PL
        if wide >= 0:
            r = orr(m, r, asr(m, p_hi, wide))
        r = add(m, r, 1)
        old = ldrsh(m, dst)
        res = asr(m, r, 1)                                    # (result + 1) >> 1
        res_lo = add(m, old, res)                             # result += (int64_t)*dst;
        res_hi = asr(m, old, 31)
        res_hi = adc(m, res_hi, r >> 31, carry_of_add(old, res))
        value = res_lo
        cmn(m, res_lo, 32768)                                 # result > NN_Q15_MIN (int64)
        low = value < Q15_MIN
        sbc(m, res_hi, -1, 0)
        it(m, 0 if low else 2)                                # ITT LT
        if low:
            mov(m, -1)
            ldr_lit(m)                                        # NN_Q15_MIN
            value = Q15_MIN
        cmp(m, value, 32768)                                  # result < NN_Q15_MAX (int64)
        sbc(m, 0, 0, 0)
        high = value >= Q15_MAX
        it(m, not high)                                       # IT GE
        if high:
            value = mov(m, Q15_MAX)
        cmp(m, row + 1, rhs_rows)
        strh(m, dst, value)                                   # *dst++ = (int16_t)result;
        dst += 2
        bcc(m, row + 1 < rhs_rows)                            # bne
    if rhs_rows > 0:
        ldr_sp(m)


@kernel
def arm_nn_vec_mat_mul_result_acc_s16(m, lhs, rhs, effective_bias, dst, dst_multiplier,
                                      dst_shift, rhs_cols, rhs_rows, batches, batch_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    stride = 2 * rhs_cols * batch_offset                      # lhs += rhs_cols * batch_offset
    if m.dsp:
        strd_sp(m)
        ldr_sp(m)                                             # dst_multiplier
        ldr_lit(m)                                            # 0x7ffeffff
        ldr_sp(m)                                             # dst_shift
        cmp(m, dst_multiplier, REDUCE_LIMIT)
        mult = _reduce_multiplier(m, dst_multiplier, True)
        str_sp(m)
        ldr_sp(m)
        cmp(m, batches, 0)
        mov(m, dst)
        ldr_sp(m)
        bcc(m, batches <= 0)                                  # ble.w
        if batches > 0:
            ldr_sp(m)
            ldr_sp(m)
            add(m, rhs_rows, rhs_rows >> 31)                  # rhs_rows / 2
            asr(m, rhs_rows, 1)
            str_sp(m)
            ldr_sp(m)
            cmp(m, rhs_cols, MAX_COL_COUNT)
            wide = rhs_cols >= MAX_COL_COUNT
            it(m, not wide)                                   # IT GE
            rhs_cols_fast = rhs_cols
            if wide:
                rhs_cols_fast = mov(m, MAX_COL_COUNT)
            cmp(m, rhs_cols_fast, 0)
            it(m, rhs_cols_fast >= 0)                         # IT LT: the division's fix-up
            if rhs_cols_fast < 0:
                add(m, rhs_cols_fast, 3)
            cmp(m, rhs_rows, 1)
            ldr_sp(m)
            mul(m, rhs_cols, batch_offset)
            lsl(m, 0, 1)
            cols_done = bic(m, rhs_cols_fast, 3)              # col_loop_cnt * 4
            str_sp(m)
            col_loop_cnt = asr(m, rhs_cols_fast, 2)           # rhs_cols_fast / 4
            ldr_sp(m)
            str_sp(m)
            mov(m, col_loop_cnt)
            add(m, lhs, col_loop_cnt << 3)
            ldr_sp(m)
            str_sp(m)
            lsl(m, 0, 4)
            it(m, rhs_rows > 1)                               # IT LE
            if rhs_rows <= 1:
                mov(m, 16)
            add(m, 0, 0)
            rsb(m, rhs_cols, col_loop_cnt << 1)
            str_sp(m)
            lsl(m, rhs_cols, 1)
            lsl(m, 0, 1)
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            it(m, 1)                                          # ITE GT: one MOV fails
            mov(m, 0)
            mla(m, 0, 0, 0)
            str_sp(m)
            lsl(m, 0, 2)
            it(m, rhs_rows > 1)                               # IT LE
            if rhs_rows <= 1:
                mov(m, 4)
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            and_(m, rhs_rows, 1)
            str_sp(m)
            lsl(m, col_loop_cnt, 3)
            str_sp(m)
            sub(m, cols_done, rhs_cols)
            str_sp(m)
            n = rsb(m, dst_shift, 14)                         # 14 - shift
            mov(m, 0)
            str_sp(m)
            n_left = add(m, dst_shift, 18)                    # 32 - (14 - shift)
            str_sp(m)
            mov(m, 0)
            sign = mult >> 31
            for batch in range(batches):
                _dsp_batch(m, lhs, rhs, effective_bias, dst, mult, sign, n, n_left,
                           rhs_cols, rhs_rows, col_loop_cnt, cols_done)
                dst += 2 * rhs_rows
                lhs += stride
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, 0)
                str_sp(m)
                ldr_sp(m)
                add(m, batch, 1)
                cmp(m, batches, batch + 1)
                bcc(m, batch + 1 < batches)                   # bne.w
    else:
        ldr_sp(m)                                             # dst_multiplier
        ldr_lit(m)                                            # 0x7ffeffff
        mov(m, lhs)
        ldrd_sp(m)                                            # dst_shift, rhs_cols
        cmp(m, dst_multiplier, REDUCE_LIMIT)
        mov(m, dst)
        ldr_sp(m)                                             # batches
        mult = _reduce_multiplier(m, dst_multiplier, False)
        cmp(m, batches, 0)
        strd_sp(m)
        ldr_sp(m)                                             # batch_offset
        bcc(m, batches <= 0)                                  # ble
        if batches > 0:
            mov(m, 0)
            mul(m, batch_offset, rhs_cols)
            ldr_sp(m)
            lsl(m, 0, 1)
            lsl(m, rhs_rows, 1)
            lsl(m, rhs_cols, 1)
            sign = asr(m, mult, 31)
            add(m, lhs, rhs_cols << 1)
            str_sp(m)
            n = rsb(m, dst_shift, 14)                         # 14 - shift
            n_left = add(m, dst_shift, 18)                    # 32 - (14 - shift)
            str_sp(m)
            str_sp(m)
            str_sp(m)
            for batch in range(batches):
                _scalar_batch(m, lhs, rhs, effective_bias, dst, mult, sign, n, n_left,
                              rhs_cols, rhs_rows)
                dst += 2 * rhs_rows
                lhs += stride
                ldr_sp(m)
                add(m, batch, 1)
                add(m, 0, 0)
                ldr_sp(m)
                cmp(m, batches, batch + 1)
                bcc(m, batch + 1 < batches)                   # bne
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
