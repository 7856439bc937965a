"""arm_elementwise_mul_s16_batch_offset (Source/BasicMathFunctions/arm_elementwise_mul_s16_batch_offset.c),
non-MVE: int16 x int16 -> int16 element-wise product, the int16 LSTM's new hidden state
(output_gate x tanh(cell_state)).

    arm_cmsis_nn_status arm_elementwise_mul_s16_batch_offset(const int16_t *input_1_vect,
        const int16_t *input_2_vect, int16_t *output, const int32_t out_offset,
        const int32_t out_mult, const int32_t out_shift, const int32_t block_size,
        const int32_t batch_size, const int32_t batch_offset)

    out = clamp_int16(arm_nn_requantize(in_1 * in_2, out_mult, out_shift) + out_offset)

per batch, block_size / 2 pairs (one q15x2 word of each input; SMULBB / SMULTT on the DSP
build, SXTH / ASR #16 and MUL in plain C; the two results packed into one word store), then
the odd element; the output advanced by (batch_offset - 1) * block_size per batch.
Both builds follow gcc 12.2 -O2's disassembly of this file (CMSIS-NN 99f736a, -mcpu=cortex-m4
and -mcpu=cortex-m3) instruction for instruction, the stack traffic included, with the
branches gcc makes on the shift's sign and the quotients' signs.  No measured case of it is
in ../shared; the compiled objects executed on the lstm_*_s16 vectors (tests/ops/test_unidirectional_sequence_lstm_int16.py
MEASURED) give the LSTM call's totals armsim counts, to the instruction.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    and_,
    asr,
    b,
    bcc,
    bic,
    cbz,
    cmp,
    it,
    ldr,
    ldr_lit,
    ldr_sp,
    ldrd_sp,
    ldrh,
    ldrsh,
    lsl,
    lsr,
    mov,
    mul,
    orr,
    pop_pc,
    push,
    rsb,
    smlal,
    smulbb,
    smultt,
    str_,
    str_sp,
    strd_sp,
    strh,
    sub,
    sxth,
    uxth,
)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

Q15_MIN, Q15_MAX = -32768, 32767


@kernel(inline=True)
def _high_mult(m, product, left_shift, out_mult):
    """arm_nn_doubling_high_mult_no_sat(product << left_shift, out_mult): LSL, MOV #1<<30,
    SMLAL, LSR #31, ORR ..LSL #1 (the MOV #0 of the high word is the caller's)."""
    product = lsl(m, product, left_shift)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, 0, product, out_mult)
    return orr(m, lsr(m, lo, 31), hi << 1)


@kernel(inline=True)
def _clamp_q15(m, value):
    """MAX(x, NN_Q15_MIN) (IT LT), MIN(x, NN_Q15_MAX) (IT GE)."""
    value = max_lt(m, value, Q15_MIN)
    return min_ge(m, value, Q15_MAX)


@kernel(inline=True)
def _rounds_up(res, remainder, threshold):
    return remainder > (threshold + 1 if res < 0 else threshold)


@kernel
def _dsp_body(m, input_1_vect, input_2_vect, output, out_offset, out_mult, out_shift,
              block_size, batch_size, batch_offset):
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #60
    mov(m, out_offset)
    ldr_sp(m)                                                 # batch_size
    ldr_sp(m)                                                 # out_mult
    cmp(m, batch_size, 0)
    bcc(m, batch_size <= 0)                                   # ble.w
    pairs = block_size // 2
    right_shift = -out_shift if out_shift < 0 else 0
    left_shift = max(0, out_shift)
    remainder_mask = (1 << right_shift) - 1
    threshold = remainder_mask >> 1
    if batch_size > 0:
        ldr_sp(m)
        cmp(m, block_size, 1)
        add(m, block_size, block_size >> 31)
        mov(m, output)
        asr(m, block_size, 1)
        ldr_sp(m)
        str_sp(m)
        rsb(m, out_shift, 0)
        mov(m, input_2_vect)
        str_sp(m)
        mov(m, 0)
        mov(m, 1)
        lsl(m, 1, 0)
        add(m, 0, -1)                                         # (1 << exponent) - 1
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        add(m, batch_offset, -1)
        mul(m, block_size, batch_offset - 1)
        lsl(m, 0, 1)
        str_sp(m)
        lsl(m, pairs, 2)
        it(m, block_size <= 1)                                # IT GT
        if block_size > 1:
            mov(m, 0)
        asr(m, remainder_mask, 1)
        str_sp(m)
        and_(m, block_size, 1)
        str_sp(m)
        ldr_sp(m)
        bic(m, out_shift, out_shift >> 31)
        it(m, block_size > 1)                                 # IT LE
        if block_size <= 1:
            mov(m, 4)
        mov(m, 0)
        str_sp(m)
        mov(m, 1 << 30)
        mov(m, output)
    for i in range(batch_size):
        ldr_sp(m)
        cmp(m, block_size, 1)
        bcc(m, block_size <= 1)                               # ble: no pair
        if block_size > 1:
            ldr_sp(m)
            ldr_sp(m)
            add(m, threshold, 1)
            strd_sp(m)
            strd_sp(m)
            strd_sp(m)
            mov(m, output)
            mov(m, input_2_vect)
            mov(m, input_1_vect)
            b(m)
        for pair in range(pairs):
            input_1 = ldr(m, input_1_vect)                    # arm_nn_read_q15x2_ia(&input_1_vect)
            input_2 = ldr(m, input_2_vect)                    # arm_nn_read_q15x2_ia(&input_2_vect)
            input_1_vect += 4
            input_2_vect += 4
            mul_res = smulbb(m, input_1, input_2)             # SMULBB(two_halfword_1, two_halfword_2)
            ldr_sp(m)
            mov(m, 0)
            res = _high_mult(m, mul_res, left_shift, out_mult)
            ldr_sp(m)
            cmp(m, out_shift, 0)
            bcc(m, out_shift > 0)                             # bgt: no rounding
            if out_shift > 0:
                mov(m, 0)
                mov(m, 0)
                mov(m, 0)
            else:
                ldr_sp(m)
                remainder = and_(m, res, remainder_mask)
                ldr_sp(m)
                res = asr(m, res, right_shift)
                it(m, 1)                                      # ITE MI: one threshold load fails
                ldr_sp(m)
                up = _rounds_up(res, remainder, threshold)
                cmp(m, remainder, threshold)
                bcc(m, not up)                                # ble
                ldrd_sp(m)
                ldr_sp(m)
                if up:
                    res = add(m, res, 1)                      # result++
                b(m)
            ldr_lit(m)                                        # NN_Q15_MIN
            res = add(m, res, out_offset)
            mul_1 = _clamp_q15(m, res)
            mov(m, Q15_MAX)                                   # movw sl, #32767 (between the clamps)
            mul_res = smultt(m, input_1, input_2)             # SMULTT(two_halfword_1, two_halfword_2)
            ldr_sp(m)
            mov(m, 0)
            res = _high_mult(m, mul_res, left_shift, out_mult)
            remainder = and_(m, res, remainder_mask)
            res = asr(m, res, right_shift)
            negative = res < 0
            it(m, not negative)                               # IT MI: threshold++
            if negative:
                add(m, threshold, 1)
            cmp(m, remainder, threshold)
            ldr_lit(m)                                        # NN_Q15_MIN
            up = _rounds_up(res, remainder, threshold)
            it(m, not up)                                     # IT GT: result++
            if up:
                res = add(m, res, 1)
            res = add(m, res, out_offset)
            mul_2 = _clamp_q15(m, res)
            mov(m, Q15_MAX)
            packed = orr(m, uxth(m, mul_1, 0), mul_2 << 16)   # PACK_Q15x2_32x1(mul_1, mul_2)
            sub(m, pairs - pair, 1)                           # loop_count--
            str_(m, output, packed)                            # arm_nn_write_q15x2_ia(&output, ..)
            output += 4
            bcc(m, pair + 1 == pairs)                         # beq: the pairs are done
        if block_size > 1:
            ldrd_sp(m)
            ldrd_sp(m)
            ldr_sp(m)
            add(m, 0, 0)
            add(m, 0, 0)
            add(m, 0, 0)
        ldr_sp(m)
        cbz(m, (block_size & 1) == 0)                         # if (block_size & 0x1)
        if block_size & 1:
            a = ldrh(m, input_2_vect)
            c = ldrh(m, input_1_vect)
            input_1_vect += 2
            input_2_vect += 2
            mul_res = smulbb(m, c, a)                         # input_1 * input_2
            ldr_sp(m)
            mov(m, 0)
            res = _high_mult(m, mul_res, left_shift, out_mult)
            ldr_sp(m)
            cmp(m, out_shift, 0)
            bcc(m, out_shift > 0)                             # bgt: no rounding
            if out_shift <= 0:
                ldr_sp(m)
                remainder = and_(m, remainder_mask, res)
                ldr_sp(m)
                res = asr(m, res, right_shift)
                ldr_sp(m)
                negative = res < 0
                it(m, not negative)
                if negative:
                    add(m, threshold, 1)
                up = _rounds_up(res, remainder, threshold)
                cmp(m, remainder, threshold)
                it(m, not up)
                if up:
                    res = add(m, res, 1)
            ldr_lit(m)                                        # NN_Q15_MIN
            res = add(m, res, out_offset)
            res = max_lt(m, res, Q15_MIN)
            mov(m, Q15_MAX)
            res = min_ge(m, res, Q15_MAX)
            strh(m, output, res)                              # *output++ = (int16_t)mul_res;
            output += 2
        ldr_sp(m)
        output = add(m, output, 2 * (batch_offset - 1) * block_size)
        ldr_sp(m)
        add(m, i, 1)
        cmp(m, batch_size, i + 1)
        bcc(m, i + 1 < batch_size)                            # bne.w
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


@kernel
def _scalar_body(m, input_1_vect, input_2_vect, output, out_offset, out_mult, out_shift,
                 block_size, batch_size, batch_offset):
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #68
    mov(m, out_offset)
    ldr_sp(m)                                                 # batch_size
    ldr_sp(m)                                                 # out_mult
    cmp(m, batch_size, 0)
    bcc(m, batch_size <= 0)                                   # ble.w
    pairs = block_size // 2
    right_shift = -out_shift if out_shift < 0 else 0
    left_shift = max(0, out_shift)
    remainder_mask = (1 << right_shift) - 1
    threshold = remainder_mask >> 1
    if batch_size > 0:
        ldr_sp(m)
        mov(m, output)
        cmp(m, block_size, 1)
        mov(m, 1)
        mov(m, 0)
        ldr_sp(m)
        str_sp(m)
        add(m, block_size, block_size >> 31)
        asr(m, block_size, 1)
        lsl(m, pairs, 2)
        it(m, block_size <= 1)                                # IT GT
        if block_size > 1:
            mov(m, 0)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        add(m, batch_offset, -1)
        mul(m, block_size, batch_offset - 1)
        lsl(m, 0, 1)
        ldr_sp(m)
        mov(m, 0)
        and_(m, block_size, 1)
        str_sp(m)
        ldr_sp(m)
        it(m, block_size > 1)                                 # IT LE
        if block_size <= 1:
            mov(m, 4)
        bic(m, out_shift, out_shift >> 31)
        str_sp(m)
        mov(m, Q15_MAX)                                       # movw fp, #32767
        mov(m, input_1_vect)
        mov(m, input_2_vect)
        mov(m, out_mult)
        str_sp(m)
        ldr_sp(m)
        ldr_lit(m)                                            # NN_Q15_MIN
        rsb(m, out_shift, 0)
        lsl(m, 1, right_shift)
        sub(m, 0, 1)                                          # (1 << exponent) - 1
        str_sp(m)
        asr(m, remainder_mask, 1)
        str_sp(m)
        add(m, threshold, 1)
        str_sp(m)
        str_sp(m)
    for i in range(batch_size):
        ldr_sp(m)
        cmp(m, block_size, 1)
        bcc(m, block_size <= 1)                               # ble.w: no pair
        if block_size > 1:
            ldr_sp(m)
            mov(m, input_2_vect)
            mov(m, input_1_vect)
            mov(m, 1 << 30)
            strd_sp(m)
            strd_sp(m)
            ldr_sp(m)
            str_sp(m)
            b(m)
        for pair in range(pairs):
            two_halfword_1 = ldr(m, input_1_vect)             # arm_nn_read_q15x2_ia(&input_1_vect)
            two_halfword_2 = ldr(m, input_2_vect)             # arm_nn_read_q15x2_ia(&input_2_vect)
            input_1_vect += 4
            input_2_vect += 4
            input_1 = sxth(m, two_halfword_1, 0)              # (int16_t)(two_halfword_1 & 0xFFFF)
            input_2 = sxth(m, two_halfword_2, 0)
            product = mul(m, input_1, input_2)
            ldr_sp(m)
            mov(m, 0)
            res_1 = _high_mult(m, product, left_shift, out_mult)
            ldr_sp(m)
            cmp(m, out_shift, 0)
            bcc(m, out_shift > 0)                             # bgt
            high_1 = asr(m, two_halfword_1, 16)               # (int16_t)(two_halfword_1 >> 16)
            high_2 = asr(m, two_halfword_2, 16)
            if out_shift > 0:                                 # no rounding for either
                cmp(m, res_1, 0)
                bcc(m, res_1 < 0)                             # blt
                if res_1 >= 0:
                    product = mul(m, high_1, high_2)
                    ldr_sp(m)
                    mov(m, 0)
                    product = lsl(m, product, left_shift)
                    mov(m, 1 << 30)
                    res_1 = add(m, res_1, out_offset)
                    res_1 = max_lt(m, res_1, Q15_MIN)
                    lo, hi = smlal(m, 1 << 30, 0, product, out_mult)
                    cmp(m, res_1, Q15_MAX)
                    high = res_1 >= Q15_MAX
                    it(m, not high)
                    if high:
                        res_1 = mov(m, Q15_MAX)
                    res_2 = orr(m, lsr(m, lo, 31), hi << 1)    # ORRS: N = the sign
                    bcc(m, res_2 < 0)                         # bmi
                    if res_2 < 0:
                        mov(m, 0)
                        mov(m, 0)
                        add(m, 0, 1)
                        b(m)
                        cmp(m, 1, 0)
                        it(m, 1)
                        b(m)
                else:
                    mov(m, 0)
                    product = mul(m, high_1, high_2)
                    ldr_sp(m)
                    mov(m, 0)
                    product = lsl(m, product, left_shift)
                    mov(m, 1 << 30)
                    lo, hi = smlal(m, 1 << 30, 0, product, out_mult)
                    lsr(m, lo, 31)
                    mov(m, 0)
                    res_2 = orr(m, (lo >> 31) & 1, hi << 1)
                    b(m)
                    res_1 = add(m, res_1, out_offset)
                    res_1 = _clamp_q15(m, res_1)
                    cmp(m, res_2, 0)
                    bcc(m, res_2 < 0)                         # blt
                    if res_2 < 0:
                        add(m, 0, 1)
                        b(m)
                    cmp(m, 0, 0)
                    it(m, 1)
                    b(m)
            else:
                ldr_sp(m)
                ldr_sp(m)
                remainder_1 = and_(m, remainder_mask, res_1)
                res_1 = asr(m, res_1, right_shift)            # ASRS: N = the quotient's sign
                str_sp(m)
                bcc(m, res_1 < 0)                             # bmi
                product = mul(m, high_1, high_2)
                mov(m, 0)
                mov(m, product)
                mov(m, 1 << 30)
                lo, hi = smlal(m, 1 << 30, 0, product, out_mult)
                if res_1 < 0:
                    ldr_sp(m)
                lsr(m, lo, 31)
                res_2 = orr(m, (lo >> 31) & 1, hi << 1)
                remainder_2 = and_(m, res_2, remainder_mask)
                ldr_sp(m)
                ldr_sp(m)                                     # threshold (+ 1 when negative)
                res_2 = asr(m, res_2, right_shift)
                if res_1 < 0:
                    b(m)
                ldr_sp(m)
                up_1 = _rounds_up(res_1, remainder_1, threshold)
                cmp(m, threshold, remainder_1)
                bcc(m, not up_1)                              # bge: no rounding
                ldr_sp(m)                                     # threshold
                if up_1:
                    res_1 = add(m, res_1, 1)                  # result++
                else:
                    b(m)
                res_1 = add(m, res_1, out_offset)
                res_1 = _clamp_q15(m, res_1)
                cmp(m, res_2, 0)
                bcc(m, res_2 < 0)                             # blt
                if res_2 < 0:
                    add(m, threshold, 1)
                    b(m)
                up_2 = _rounds_up(res_2, remainder_2, threshold)
                cmp(m, threshold, remainder_2)
                it(m, not up_2)                               # IT LT
                if up_2:
                    res_2 = add(m, res_2, 1)
                b(m)
            res_2 = add(m, res_2, out_offset)                 # (0xda)
            res_2 = _clamp_q15(m, res_2)
            packed = orr(m, uxth(m, res_1, 0), res_2 << 16)   # PACK_Q15x2_32x1(mul_1, mul_2)
            str_(m, output, packed)                            # arm_nn_write_q15x2_ia(&output, ..)
            output += 4
            ldr_sp(m)
            sub(m, pairs - pair, 1)                           # loop_count--
            str_sp(m)
            bcc(m, pair + 1 == pairs)                         # beq
        if block_size > 1:
            ldr_sp(m)
            ldrd_sp(m)
            add(m, 0, 0)
            ldrd_sp(m)
            str_sp(m)
            add(m, 0, 0)
            add(m, 0, 0)
        ldr_sp(m)
        cbz(m, (block_size & 1) == 0)                         # if (block_size & 0x1)
        if block_size & 1:
            mov(m, input_2_vect)
            input_1 = ldrsh(m, input_1_vect)                  # *input_1_vect++
            input_2 = ldrsh(m, input_2_vect)                  # *input_2_vect++
            input_1_vect += 2
            input_2_vect += 2
            mov(m, 1 << 30)
            product = mul(m, input_2, input_1)
            ldr_sp(m)
            product = lsl(m, product, left_shift)
            mov(m, 0)
            lo, hi = smlal(m, 1 << 30, 0, product, out_mult)
            ldr_sp(m)
            lsr(m, lo, 31)
            cmp(m, out_shift, 0)
            res = orr(m, (lo >> 31) & 1, hi << 1)
            bcc(m, out_shift > 0)                             # bgt: no rounding
            if out_shift <= 0:
                ldr_sp(m)
                remainder = and_(m, remainder_mask, res)
                ldr_sp(m)
                res = asr(m, res, right_shift)
                ldr_sp(m)
                negative = res < 0
                it(m, not negative)
                if negative:
                    add(m, threshold, 1)
                up = _rounds_up(res, remainder, threshold)
                cmp(m, remainder, threshold)
                it(m, not up)
                if up:
                    res = add(m, res, 1)
            res = add(m, res, out_offset)
            res = _clamp_q15(m, res)
            mov(m, input_2_vect)
            ldr_sp(m)
            strh(m, output, res)                              # *output++ = (int16_t)mul_res;
            output += 2
            str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        add(m, i, 1)
        output = add(m, output, 2 * (batch_offset - 1) * block_size)
        str_sp(m)
        ldr_sp(m)
        cmp(m, batch_size, i + 1)
        bcc(m, i + 1 < batch_size)                            # bne.w
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


@kernel
def arm_elementwise_mul_s16_batch_offset(m, input_1_vect, input_2_vect, output, out_offset,
                                         out_mult, out_shift, block_size, batch_size,
                                         batch_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    if m.dsp:
        return _dsp_body(m, input_1_vect, input_2_vect, output, out_offset, out_mult,
                         out_shift, block_size, batch_size, batch_offset)
    return _scalar_body(m, input_1_vect, input_2_vect, output, out_offset, out_mult,
                        out_shift, block_size, batch_size, batch_offset)
