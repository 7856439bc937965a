"""arm_elementwise_mul_s16_s8 (Source/BasicMathFunctions/arm_elementwise_mul_s16_s8.c), non-MVE:
int16 x int16 -> int8 element-wise product, the LSTM's new hidden state
(output_gate x tanh(cell_state)).

    arm_cmsis_nn_status arm_elementwise_mul_s16_s8(const int16_t *input_1_vect,
        const int16_t *input_2_vect, int8_t *output, const int32_t out_offset,
        const int32_t out_mult, const int32_t out_shift, const int32_t block_size,
        const int32_t batch_size, const int32_t batch_offset)

    out = clamp_int8(requantize(in_1 * in_2, out_mult, out_shift) + out_offset)

per batch of `block_size` elements, the output advanced by batch_offset * block_size per
batch.  ARM_MATH_DSP: two elements per step (one word of each input, SMULBB / SMULTT, the two
bytes stored with one STRH, arm_nn_write_s8x2_ia), then the odd one; plain C: one element per
step (LDRSH, MUL).  Both builds (`_dsp_body`, `_scalar_body`) follow the disassembly of the
measured gcc 12.2 -O2 objects (Cortex-M4, Cortex-M3) instruction for instruction; no fitted
line.  Function totals, armsim and measured alike: lstm_s8_t6_b1_i24_h32 dsp_O2 5,926,
scalar_O2 5,696; lstm_s8_t8_b1_i16_h16 4,218 / 4,002.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    and_,
    asr,
    b,
    bcc,
    bic,
    cmp,
    it,
    ldr,
    ldr_sp,
    ldrd_sp,
    ldrh,
    ldrsh,
    lsl,
    lsr,
    mov,
    mul,
    mvn,
    orr,
    pop_pc,
    push,
    rsb,
    smlal,
    smulbb,
    smultt,
    str_sp,
    strb,
    strd_sp,
    strh,
    sub,
    uxtb,
)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

Q7_MIN, Q7_MAX = -128, 127


@kernel(inline=True)
def _round_it(m, res, remainder, threshold):
    """threshold++ for a negative quotient, then the rounding, as two IT blocks."""
    negative = res < 0
    it(m, not negative)
    if negative:
        threshold = add(m, threshold, 1)
    cmp(m, remainder, threshold)
    up = remainder > threshold
    it(m, not up)
    if up:
        res = add(m, res, 1)
    return res


@kernel(inline=True)
def _clamp_s8(m, value, out_offset):
    """+ out_offset, CLAMP(x, NN_Q7_MAX, NN_Q7_MIN): MIN first (IT GE), then MAX (IT LT)."""
    value = add(m, value, out_offset)
    value = min_ge(m, value, Q7_MAX)
    return max_lt(m, value, Q7_MIN)


@kernel
def _dsp_body(m, input_1_vect, input_2_vect, output, out_offset, out_mult, out_shift,
              block_size, batch_size, batch_offset):
    """ARM_MATH_DSP, the disassembly of the measured gcc 12.2 -O2 Cortex-M4 object
    instruction for instruction: the set-up of every invariant before the batch loop, two
    elements per step (the first product's rounding as an ITE MI load of the threshold and
    a branch, the second's as IT blocks), the odd element with LDRH + SMULBB."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #60
    mov(m, 0)
    ldr_sp(m)                                                 # batch_size
    ldr_sp(m)                                                 # out_mult
    cmp(m, batch_size, 0)
    bcc(m, batch_size <= 0)
    if batch_size > 0:
        ldr_sp(m)
        mov(m, 0)
        sub(m, block_size, 2)
        ldr_sp(m)
        right_shift = rsb(m, out_shift, 0)
        mov(m, 0)
        str_sp(m)
        mov(m, right_shift)
        one = mov(m, 1)
        remainder_mask = lsl(m, one, right_shift)
        lsr(m, block_size - 2, 1)
        remainder_mask = sub(m, remainder_mask, 1)            # (1 << exponent) - 1
        add(m, 0, 1)
        rsb(m, 0, 0)
        add(m, 0, 0)                                          # the odd element's count
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        lsl(m, 0, 2)                                          # mov.w r9, r3, lsl #2
        lsl(m, 0, 1)
        sub(m, batch_offset, 1)
        str_sp(m)
        ldr_sp(m)
        step = mul(m, block_size, batch_offset - 1)           # (batch_offset - 1) * block_size
        mov(m, 0)
        str_sp(m)
        left_shift = bic(m, out_shift, out_shift >> 31)
        threshold = asr(m, remainder_mask, 1)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        str_sp(m)
        mov(m, 1 << 30)
        mvn(m, 127)                                           # NN_Q7_MIN
        mov(m, 0)
        if out_shift > 0:                                     # exponent 0
            right_shift, remainder_mask, threshold = 0, 0, 0
        for i in range(batch_size):
            loop_count = block_size
            ldr_sp(m)
            cmp(m, block_size, 1)
            it(m, block_size > 1)                             # strle: the input pointer
            if block_size <= 1:
                str_sp(m)
            bcc(m, block_size <= 1)
            if block_size > 1:
                add(m, input_1_vect, 0)
                strd_sp(m)
                ldr_sp(m)
                str_sp(m)
                add(m, threshold, 1)
                strd_sp(m)
                strd_sp(m)
                str_sp(m)
                b(m)
            while loop_count > 1:
                ldr_sp(m)
                input_1 = ldr(m, input_1_vect)                # arm_nn_read_q15x2_ia(&input_1_vect)
                input_2 = ldr(m, input_2_vect)                # arm_nn_read_q15x2_ia(&input_2_vect)
                input_1_vect += 4
                input_2_vect += 4
                str_sp(m)
                mul_res = smulbb(m, input_1, input_2)         # SMULBB(input_1, input_2)
                mul_res = lsl(m, mul_res, left_shift)
                lo = mov(m, 1 << 30)
                hi = mov(m, 0)
                lo, hi = smlal(m, lo, hi, mul_res, out_mult)
                ldr_sp(m)
                res = lsr(m, lo, 31)
                cmp(m, out_shift, 0)
                res = orr(m, res, hi << 1)
                bcc(m, out_shift > 0)                         # bgt: no rounding
                if out_shift <= 0:
                    ldr_sp(m)
                    remainder = and_(m, res, remainder_mask)
                    ldr_sp(m)
                    res = asr(m, res, right_shift)
                    it(m, 1)                                  # ite mi: one threshold load fails
                    ldr_sp(m)
                    thr = threshold + 1 if res < 0 else threshold
                    cmp(m, remainder, thr)
                    up = remainder > thr
                    bcc(m, not up)                            # ble
                    ldrd_sp(m)
                    ldr_sp(m)
                    if up:
                        res = add(m, res, 1)                  # result++
                    b(m)
                    mask_2, shift_2, thr_2 = remainder_mask, right_shift, threshold
                else:
                    mask_2, shift_2, thr_2 = mov(m, 0), mov(m, 0), mov(m, 0)
                res = _clamp_s8(m, res, out_offset)
                packed = uxtb(m, res, 0)                      # mul = (int16_t)(mul_res & 0xFF)
                mul_res = smultt(m, input_1, input_2)         # SMULTT(input_1, input_2)
                mul_res = lsl(m, mul_res, left_shift)
                lo = mov(m, 1 << 30)
                hi = mov(m, 0)
                lo, hi = smlal(m, lo, hi, mul_res, out_mult)
                res = orr(m, lsr(m, lo, 31), hi << 1)
                remainder = and_(m, mask_2, res)
                res = asr(m, res, shift_2)
                res = _round_it(m, res, remainder, thr_2)
                res = _clamp_s8(m, res, out_offset)
                packed = orr(m, packed, res << 8)             # mul |= (int16_t)mul_res << 8;
                ldr_sp(m)
                strh(m, output, packed)                       # arm_nn_write_s8x2_ia(&output, mul)
                output += 2
                ldr_sp(m)
                str_sp(m)
                loop_count -= 2
                cmp(m, loop_count, 1)
                bcc(m, loop_count <= 1)                       # beq: the pairs are done
            if block_size > 1:
                ldrd_sp(m)
                ldr_sp(m)
                ldrd_sp(m)
                add(m, 0, 0)
                ldr_sp(m)
                add(m, 0, 0)
                cmp(m, loop_count, 1)
                bcc(m, loop_count != 1)                       # bne: no odd element
                if loop_count != 1:
                    ldr_sp(m)
                    b(m)
            for j in range(loop_count):                       # (at most one element left)
                ldr_sp(m)
                a = ldrh(m, input_1_vect)                     # *input_1_vect
                c = ldrh(m, input_2_vect)                     # *input_2_vect
                mul_res = smulbb(m, a, c)                     # (*input_1_vect) * (*input_2_vect)
                input_1_vect += 2
                input_2_vect += 2
                mul_res = lsl(m, mul_res, left_shift)
                lo = mov(m, 1 << 30)
                hi = mov(m, 0)
                lo, hi = smlal(m, lo, hi, mul_res, out_mult)
                ldr_sp(m)
                res = lsr(m, lo, 31)
                cmp(m, out_shift, 0)
                res = orr(m, res, hi << 1)
                bcc(m, out_shift > 0)                         # bgt
                if out_shift <= 0:
                    ldr_sp(m)
                    ldr_sp(m)
                    remainder = and_(m, res, remainder_mask)
                    res = asr(m, res, right_shift)
                    ldr_sp(m)
                    res = _round_it(m, res, remainder, threshold)
                res = add(m, res, out_offset)
                res = min_ge(m, res, Q7_MAX)
                cmp(m, res, Q7_MIN)
                ldr_sp(m)
                clamp = res < Q7_MIN
                it(m, not clamp)
                if clamp:
                    res = mov(m, Q7_MIN)
                strb(m, output, res)                          # *output = (int8_t)mul_res;
                output += 1
                add(m, 0, 2)
                add(m, 0, 2)
            ldr_sp(m)
            output = add(m, output, step)                     # output += (batch_offset - 1) * block_size;
            ldr_sp(m)
            add(m, i, 1)
            cmp(m, i + 1, batch_size)
            bcc(m, i + 1 < batch_size)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


@kernel
def _scalar_body(m, input_1_vect, input_2_vect, output, out_offset, out_mult, out_shift,
                 block_size, batch_size, batch_offset):
    """Plain C, the disassembly of the measured gcc 12.2 -O2 Cortex-M3 object instruction for
    instruction: one element per step (LDRSH, LDRSH, MUL), the rounding threshold chosen by
    an ITE MI load, the clamps as IT blocks."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #36
    mov(m, out_offset)
    ldr_sp(m)                                                 # batch_size
    ldr_sp(m)                                                 # out_mult
    cmp(m, batch_size, 0)
    bcc(m, batch_size <= 0)
    if batch_size > 0:
        one = mov(m, 1)
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)
        right_shift = rsb(m, out_shift, 0)                    # -shift
        ldr_sp(m)
        str_sp(m)
        sub(m, batch_offset, 1)
        step = mul(m, block_size, batch_offset - 1)           # (batch_offset - 1) * block_size
        lsl(m, block_size, 1)
        str_sp(m)
        ldr_sp(m)
        mov(m, 0)
        left_shift = bic(m, out_shift, out_shift >> 31)       # shift > 0 ? shift : 0
        remainder_mask = sub(m, lsl(m, one, right_shift), 1)  # (1 << exponent) - 1
        threshold = asr(m, remainder_mask, 1)                 # remainder_mask >> 1
        str_sp(m)
        add(m, threshold, 1)                                  # threshold + 1
        mov(m, 0)
        str_sp(m)
        for _ in range(3):
            mov(m, 0)
        str_sp(m)
        mvn(m, 127)                                           # NN_Q7_MIN
        mov(m, 1 << 30)
        mov(m, out_mult)
        mov(m, 0)
        for i in range(batch_size):
            ldr_sp(m)
            cmp(m, block_size, 0)
            it(m, block_size > 0)                             # movle
            if block_size <= 0:
                mov(m, output)
            bcc(m, block_size <= 0)                           # ble
            if block_size > 0:
                ldr_sp(m)
                strd_sp(m)
                sub(m, input_2_vect, 2)
                sub(m, input_1_vect, 2)
                add(m, output, block_size)
                str_sp(m)
            for j in range(block_size):
                a = ldrsh(m, input_1_vect)                    # *input_1_vect
                c = ldrsh(m, input_2_vect)                    # *input_2_vect
                input_1_vect += 2
                input_2_vect += 2
                hi = mov(m, 0)
                mul_res = mul(m, a, c)                        # (*input_1_vect) * (*input_2_vect)
                lo = mov(m, 1 << 30)
                mul_res = lsl(m, mul_res, left_shift)
                lo, hi = smlal(m, lo, hi, out_mult, mul_res)
                ldr_sp(m)                                     # out_shift
                res = orr(m, lsr(m, lo, 31), hi << 1)
                cmp(m, out_shift, 0)
                remainder = and_(m, remainder_mask, res)
                bcc(m, out_shift > 0)                         # bgt: no rounding
                if out_shift <= 0:
                    ldr_sp(m)
                    res = asr(m, res, right_shift)
                    it(m, 1)                                  # ite mi: one threshold load fails
                    ldr_sp(m)
                    thr = threshold + 1 if res < 0 else threshold
                    cmp(m, thr, remainder)
                    up = thr < remainder
                    it(m, not up)
                    if up:
                        res = add(m, res, 1)                  # result++
                res = add(m, res, out_offset)                 # + out_offset
                res = min_ge(m, res, Q7_MAX)                  # CLAMP(mul_res, NN_Q7_MAX, NN_Q7_MIN)
                res = max_lt(m, res, Q7_MIN)
                strb(m, output, res)                          # *output = (int8_t)mul_res;
                output += 1
                cmp(m, j + 1, block_size)
                bcc(m, j + 1 < block_size)
            if block_size > 0:
                ldrd_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, 0)
                add(m, 0, 0)
            ldr_sp(m)
            ldr_sp(m)
            add(m, i, 1)
            cmp(m, i + 1, batch_size)
            output = add(m, output, step)                     # output += (batch_offset - 1) * block_size;
            bcc(m, i + 1 < batch_size)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


@kernel
def arm_elementwise_mul_s16_s8(m, input_1_vect, input_2_vect, output, out_offset, out_mult,
                               out_shift, block_size, batch_size, batch_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    if m.dsp:
        return _dsp_body(m, input_1_vect, input_2_vect, output, out_offset, out_mult,
                         out_shift, block_size, batch_size, batch_offset)
    return _scalar_body(m, input_1_vect, input_2_vect, output, out_offset, out_mult,
                        out_shift, block_size, batch_size, batch_offset)
