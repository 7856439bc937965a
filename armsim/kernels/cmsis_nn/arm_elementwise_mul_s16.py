"""arm_elementwise_mul_s16 (Source/BasicMathFunctions/arm_elementwise_mul_s16.c), non-MVE: int16 x
int16 -> int16 element-wise product, requantized and clamped (offsets unused: symmetric).

    arm_cmsis_nn_status arm_elementwise_mul_s16(const int16_t *input_1_vect,
        const int16_t *input_2_vect, const int32_t input_1_offset, const int32_t input_2_offset,
        int16_t *output, const int32_t out_offset, const int32_t out_mult,
        const int32_t out_shift, const int32_t out_activation_min,
        const int32_t out_activation_max, const int32_t block_size)

Two elements per step from one word of each input (arm_nn_read_q15x2_ia): ARM_MATH_DSP
multiplies the halves with SMULBB / SMULTT, plain C sign-extends them (SXTH, ASR #16) for a
MUL; the two results are packed (PKHBT-like UXTH + ORR LSL #16) into one word store; an odd
last element alone.  In the LSTM step it computes forget_gate x cell_state into the cell
state (in place).

Both builds follow the disassembly of the measured gcc 12.2 -O2 objects instruction for
instruction, the loops shared with arm_elementwise_mul_acc_s16 (`accumulate`: same code plus
the accumulation, as gcc compiles both): `dsp_pair_loop` (Cortex-M4: the first product's
rounding threshold by an ITE MI load and a branch, the second's by IT blocks) and
`scalar_pair_loop` (Cortex-M3: both requantizations interleaved with branches on the
quotients' signs).  No fitted line; function totals, armsim and measured alike
(lstm_s8_t6_b1_i24_h32 / lstm_s8_t8_b1_i16_h16): arm_elementwise_mul_s16 dsp_O2 5,696 /
4,008, scalar_O2 6,169 / 4,320; arm_elementwise_mul_acc_s16 6,115 / 4,289 and 6,620 / 4,644.
A positive out_shift (a multiplier above one, which an LSTM's inter-gate scales never give)
is transcribed for arm_elementwise_mul_s16's plain-C loop; arm_elementwise_mul_acc_s16's runs
gcc's shape only approximately there (its values are exact).
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
    tst,
    uxth,
)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

Q15_MIN, Q15_MAX = -32768, 32767


@kernel(inline=True)
def _dsp_high_mult(m, product, out_mult, left_shift):
    """LSL by the left shift, then arm_nn_doubling_high_mult_no_sat (MOV, MOV, SMLAL, LSR,
    ORR) as gcc schedules it in this loop."""
    product = lsl(m, product, left_shift)
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, product, out_mult)
    ldr_sp(m)                                                 # out_shift
    res = lsr(m, lo, 31)
    return res, hi


@kernel(inline=True)
def _clamp_stacked(m, value, activation_min, activation_max, reload_max):
    """MAX(x, min) then MIN(x, max), the bounds reloaded from the stack."""
    ldr_sp(m)
    value = max_lt(m, value, activation_min)
    if reload_max:
        ldr_sp(m)
    return min_ge(m, value, activation_max)


@kernel(inline=True)
def dsp_pair_loop(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                  out_activation_min, out_activation_max, block_size, accumulate):
    """ARM_MATH_DSP: arm_elementwise_mul_s16 (accumulate False) and arm_elementwise_mul_acc_s16
    (True) as the disassembly of the measured gcc 12.2 -O2 Cortex-M4 objects has them,
    instruction for instruction: the first product's rounding as an ITE MI load of the
    threshold and a branch, the second's as IT blocks, the loop counter on the stack (mul)
    or in a register with the input pointers on the stack (mul_acc).  Returns 0."""
    activation_min, activation_max = out_activation_min, out_activation_max
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    if accumulate:
        ldrd_sp(m)
        cmp(m, out_activation_max, 0)
        ldr_sp(m)
        ldr_sp(m)
        mov(m, 0)
        mov(m, 0)
        bcc(m, out_activation_max > 0)                        # bgt
        if out_activation_max <= 0:                           # NN_Q15_MIN / NN_Q15_MAX
            ldr_lit(m)
            str_sp(m)
            activation_max = mov(m, Q15_MAX)
            activation_min = Q15_MIN
        add(m, block_size, 0)
        cmp(m, block_size, 1)
        loop_count = asr(m, block_size, 1)                    # mov.w lr, r1, asr #1
    else:
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        cmp(m, block_size, 1)
        mov(m, 0)
        add(m, block_size, 0)
        loop_count = block_size // 2
    bcc(m, block_size <= 1)                                   # ble: no pair
    if block_size > 1:
        if not accumulate:
            loop_count = asr(m, block_size, 1)                # loop_count = block_size / 2;
        ldr_sp(m)
        str_sp(m)
        right_shift = rsb(m, out_shift, 0)
        mov(m, right_shift)
        str_sp(m)
        remainder_mask = sub(m, lsl(m, mov(m, 1), right_shift), 1)
        ldr_sp(m)
        str_sp(m)
        threshold = asr(m, remainder_mask, 1)
        str_sp(m)
        add(m, threshold, 1)                                  # threshold + 1 (negative results)
        left_shift = bic(m, out_shift, out_shift >> 31)
        if accumulate:
            for _ in range(3):
                strd_sp(m)
            for _ in range(4):
                mov(m, 0)
            str_sp(m)
        else:
            mov(m, 0)
            strd_sp(m)
            for _ in range(4):
                mov(m, 0)
            str_sp(m)
            str_sp(m)
            mov(m, 0)
        b(m)
        while loop_count > 0:
            if accumulate:
                ldr_sp(m)
                two_halfword_1 = ldr(m, input_1_vect)         # arm_nn_read_q15x2_ia(&input_1_vect)
                str_sp(m)
                ldr_sp(m)
                two_halfword_2 = ldr(m, input_2_vect)         # arm_nn_read_q15x2_ia(&input_2_vect)
                str_sp(m)
            else:
                two_halfword_1 = ldr(m, input_1_vect)
                two_halfword_2 = ldr(m, input_2_vect)
            input_1_vect += 4
            input_2_vect += 4
            mul_res = smulbb(m, two_halfword_1, two_halfword_2)   # SMULBB(two_halfword_1, two_halfword_2)
            res, hi = _dsp_high_mult(m, mul_res, out_mult, left_shift)
            cmp(m, out_shift, 0)
            res = orr(m, res, hi << 1)
            bcc(m, out_shift > 0)                             # bgt: no rounding
            if out_shift <= 0:
                ldr_sp(m)
                remainder = and_(m, res, remainder_mask)
                ldr_sp(m)
                res = asr(m, res, right_shift)
                it(m, 1)                                      # ite mi: one threshold load fails
                ldr_sp(m)
                thr = threshold + 1 if res < 0 else threshold
                cmp(m, remainder, thr)
                up = remainder > thr
                bcc(m, not up)                                # ble
                ldrd_sp(m)
                ldr_sp(m)
                if up:
                    res = add(m, res, 1)                      # result++
                b(m)
                mask_2, shift_2, thr_2 = remainder_mask, right_shift, threshold
            else:                                             # exponent 0
                mask_2, shift_2, thr_2 = mov(m, 0), mov(m, 0), mov(m, 0)
            if accumulate:
                res = add(m, ldrsh(m, output), res)           # mul_res += output[0];
                ldr_sp(m)
                res = max_lt(m, res, activation_min)          # MAX(mul_res, activation_min)
                res = min_ge(m, res, activation_max)          # MIN(mul_res, activation_max)
            else:
                res = _clamp_stacked(m, res, activation_min, activation_max, True)
            mul_1 = sxth(m, res, 0)                           # mul_1 = (int16_t)mul_res;
            mul_res = smultt(m, two_halfword_1, two_halfword_2)   # SMULTT(two_halfword_1, two_halfword_2)
            mul_res = lsl(m, mul_res, left_shift)
            lo = mov(m, 1 << 30)
            hi = mov(m, 0)
            lo, hi = smlal(m, lo, hi, mul_res, out_mult)
            res = orr(m, lsr(m, lo, 31), hi << 1)
            remainder = and_(m, mask_2, res)
            res = asr(m, res, shift_2)
            negative = res < 0
            it(m, not negative)
            if negative:
                thr_2 = add(m, thr_2, 1)                      # threshold++
            if accumulate:
                out_1 = ldrsh(m, output + 2)                  # output[1]
            else:
                ldr_sp(m)
            cmp(m, remainder, thr_2)
            up = remainder > thr_2
            it(m, not up)
            if up:
                res = add(m, res, 1)                          # result++
            if accumulate:
                res = add(m, out_1, res)                      # mul_res += output[1];
                ldr_sp(m)
                res = max_lt(m, res, activation_min)
                res = min_ge(m, res, activation_max)
            else:
                res = max_lt(m, res, activation_min)
                ldr_sp(m)
                res = min_ge(m, res, activation_max)
            packed = orr(m, uxth(m, mul_1, 0), res << 16)     # PACK_Q15x2_32x1(mul_1, mul_2)
            if accumulate:
                loop_count = sub(m, loop_count, 1)
                str_(m, output, packed)                       # arm_nn_write_q15x2_ia(&output, ..)
            else:
                str_(m, output, packed)
                ldr_sp(m)                                     # loop_count kept on the stack
                loop_count = sub(m, loop_count, 1)
                str_sp(m)
            output += 4
            bcc(m, loop_count == 0)                           # beq: done
        ldrd_sp(m)
        for _ in range(3 if accumulate else 2):
            ldr_sp(m)
        if not accumulate:
            mov(m, 0)
        cmp(m, block_size, 1)
        if not accumulate:
            ldr_sp(m)
        lsl(m, block_size // 2, 2)                            # mov.w ip, ip, lsl #2
        it(m, 1)                                              # movle: never (block_size > 1)
        for _ in range(3):
            add(m, 0, 0)
    lsl(m, block_size, 31)                                    # lsls r1, r5, #31 (N: odd)
    bcc(m, (block_size & 1) == 0)                             # bpl: even
    if block_size & 1:
        input_1 = ldrh(m, input_1_vect)                       # input_1 = *input_1_vect++;
        input_2 = ldrh(m, input_2_vect)                       # input_2 = *input_2_vect++;
        mul_res = smulbb(m, input_1, input_2)                 # mul_res = input_1 * input_2;
        ldr_sp(m)
        left_shift = bic(m, out_shift, out_shift >> 31)
        mul_res = lsl(m, mul_res, left_shift)
        hi = mov(m, 0)
        lo = mov(m, 1 << 30)
        lo, hi = smlal(m, lo, hi, mul_res, out_mult)
        ldr_sp(m)
        res = lsr(m, lo, 31)
        cmp(m, out_shift, 0)
        res = orr(m, res, hi << 1)
        bcc(m, out_shift > 0)                                 # bgt
        if out_shift <= 0:
            right_shift = rsb(m, out_shift, 0)
            mask = sub(m, lsl(m, mov(m, 1), right_shift), 1)
            remainder = and_(m, res, mask)
            res = asr(m, res, right_shift)
            thr = asr(m, mask, 1)
            negative = res < 0
            it(m, not negative)
            if negative:
                thr = add(m, thr, 1)
            cmp(m, remainder, thr)
            up = remainder > thr
            it(m, not up)
            if up:
                res = add(m, res, 1)
        if accumulate:
            res = add(m, ldrsh(m, output), res)               # mul_res += output[0];
            ldr_sp(m)
            res = max_lt(m, res, activation_min)
            res = min_ge(m, res, activation_max)
        else:
            res = _clamp_stacked(m, res, activation_min, activation_max, True)
        strh(m, output, res)                                  # *output++ = (int16_t)mul_res;
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


@kernel(inline=True)
def _scalar_tail(m, input_1_vect, input_2_vect, output, out_mult, out_shift, activation_min,
                 activation_max, accumulate):
    """The odd last element (plain C): LDRSH, LDRSH, MUL, arm_nn_requantize in full."""
    a = ldrsh(m, input_1_vect)                                # input_1 = *input_1_vect++;
    c = ldrsh(m, input_2_vect)                                # input_2 = *input_2_vect++;
    hi = mov(m, 0)
    mul_res = mul(m, c, a)                                    # mul_res = input_1 * input_2;
    lo = mov(m, 1 << 30)
    ldr_sp(m)
    left_shift = bic(m, out_shift, out_shift >> 31)
    mul_res = lsl(m, mul_res, left_shift)
    lo, hi = smlal(m, lo, hi, mul_res, out_mult)
    ldr_sp(m)
    res = lsr(m, lo, 31)
    cmp(m, out_shift, 0)
    res = orr(m, res, hi << 1)
    bcc(m, out_shift > 0)                                     # bgt
    if out_shift <= 0:
        one = mov(m, 1)
        right_shift = rsb(m, out_shift, 0)
        mask = sub(m, lsl(m, one, right_shift), 1)
        remainder = and_(m, res, mask)
        res = asr(m, res, right_shift)
        thr = asr(m, mask, 1)
        negative = res < 0
        it(m, not negative)
        if negative:
            thr = add(m, thr, 1)
        cmp(m, remainder, thr)
        up = remainder > thr
        it(m, not up)
        if up:
            res = add(m, res, 1)
    if accumulate:
        res = add(m, ldrsh(m, output), res)                   # mul_res += output[0];
        res = max_lt(m, res, activation_min)
        res = min_ge(m, res, activation_max)
    else:
        res = max_lt(m, res, activation_min)
        ldr_sp(m)
        res = min_ge(m, res, activation_max)
    strh(m, output, res)                                      # *output++ = (int16_t)mul_res;


@kernel(inline=True)
def _halves(m, word_1, word_2):
    """(int16_t)(x >> 16) of both words and their product (ASR #16, ASR #16, MUL)."""
    top_1 = asr(m, word_1, 16)
    top_2 = asr(m, word_2, 16)
    return mul(m, top_2, top_1)


@kernel(inline=True)
def _high(m, product, out_mult):
    """MOV, MOV, SMLAL, LSR, ORR: arm_nn_doubling_high_mult_no_sat (left shift done)."""
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, out_mult, product)
    return orr(m, lsr(m, lo, 31), hi << 1)


@kernel(inline=True)
def scalar_pair_loop(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                     out_activation_min, out_activation_max, block_size, accumulate):
    """Plain C: arm_elementwise_mul_s16 (accumulate False) and arm_elementwise_mul_acc_s16
    (True) as the disassembly of the measured gcc 12.2 -O2 Cortex-M3 objects has them,
    instruction for instruction: both halves sign-extended (SXTH, ASR #16) for two MULs, the
    two requantizations interleaved with branches on the quotients' signs, the bounds and
    loop counter on the stack.  Returns 0."""
    activation_min, activation_max = out_activation_min, out_activation_max
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #44
    if accumulate:
        ldr_sp(m)
        ldrd_sp(m)                                            # out_activation_min / max
        add(m, block_size, 0)
        loop_count = asr(m, block_size, 1)                    # loop_count = block_size / 2;
        ldr_sp(m)
        cmp(m, out_activation_max, 0)
        it(m, 0 if out_activation_max <= 0 else 2)            # itt le: NN_Q15_MAX / MIN
        if out_activation_max <= 0:
            activation_max = mov(m, Q15_MAX)
            ldr_lit(m)
            activation_min = Q15_MIN
        cmp(m, block_size, 1)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)
    else:
        ldr_sp(m)
        mov(m, 0)
        cmp(m, block_size, 1)
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        add(m, block_size, 0)
        loop_count = block_size // 2
    bcc(m, block_size <= 1)                                   # ble: no pair
    if block_size > 1:
        if not accumulate:
            loop_count = asr(m, block_size, 1)
        one = mov(m, 1)
        ldr_sp(m)
        mov(m, 0)
        if not accumulate:
            ldr_sp(m)
        right_shift = rsb(m, out_shift, 0)
        str_sp(m)
        if accumulate:
            ldr_sp(m)
            mov(m, 0)
        left_shift = bic(m, out_shift, out_shift >> 31)
        str_sp(m)
        ldr_sp(m)
        mov(m, 0 if not accumulate else 1 << 30)
        remainder_mask = sub(m, lsl(m, one, right_shift), 1)
        str_sp(m)
        threshold = asr(m, remainder_mask, 1)
        str_sp(m)
        add(m, threshold, 1)                                  # threshold + 1
        if accumulate:
            mov(m, 0)
            mov(m, 0)
            strd_sp(m)
            strd_sp(m)
            str_sp(m)
            str_sp(m)
        else:
            mov(m, 0)
            mov(m, 1 << 30)
            mov(m, 0)
            strd_sp(m)
            strd_sp(m)
            str_sp(m)
        b(m)
        if out_shift > 0:                                     # exponent 0
            remainder_mask, right_shift, threshold = 0, 0, 0
        while loop_count > 0:
            if accumulate:
                ldr_sp(m)
            word_1 = ldr(m, input_1_vect)                     # arm_nn_read_q15x2_ia(&input_1_vect)
            word_2 = ldr(m, input_2_vect)                     # arm_nn_read_q15x2_ia(&input_2_vect)
            input_1_vect += 4
            input_2_vect += 4
            if accumulate:
                mov(m, 0)
                str_sp(m)
            bottom_2 = sxth(m, word_2, 0)                     # (int16_t)(two_halfword & 0xFFFF)
            bottom_1 = sxth(m, word_1, 0)
            product = mul(m, bottom_1, bottom_2)              # mul_res = input_1 * input_2;
            ldr_sp(m)                                         # left_shift
            if accumulate:
                ldr_sp(m)                                     # out_shift
                product = lsl(m, product, left_shift)
                lo = mov(m, 1 << 30)
                hi = 0
                lo, hi = smlal(m, lo, hi, product, out_mult)
                cmp(m, out_shift, 0)
                res_0 = orr(m, lsr(m, lo, 31), hi << 1)
            else:
                hi = mov(m, 0)
                product = lsl(m, product, left_shift)
                lo = mov(m, 1 << 30)
                lo, hi = smlal(m, lo, hi, product, out_mult)
                ldr_sp(m)                                     # out_shift
                res_0 = lsr(m, lo, 31)
                cmp(m, out_shift, 0)
                res_0 = orr(m, res_0, hi << 1)
            bcc(m, out_shift > 0)                             # bgt: no rounding
            if out_shift > 0 and not accumulate:
                # 5e-16c, exponent 0: no rounding of the first result; the second's sign
                # still picks a threshold (remainder 0: its ADDGT always fails)
                cmp(m, res_0, 0)                              # 5e
                bcc(m, res_0 < 0)                             # 60: blt.n 148
                if res_0 >= 0:
                    res_0 = max_lt(m, res_0, activation_min)  # 62: MAX(mul_res, activation_min)
                    top_2 = asr(m, word_2, 16)                # 68
                    top_1 = asr(m, word_1, 16)                # 6a
                    product = mul(m, top_1, top_2)            # 6e
                    ldr_sp(m)                                 # 72: left_shift
                    hi = mov(m, 0)                            # 74
                    product = lsl(m, product, left_shift)     # 76
                    lo = mov(m, 1 << 30)                      # 7a
                    ldr_sp(m)                                 # 7c: out_activation_max
                    lo, hi = smlal(m, lo, hi, product, out_mult)  # 7e
                    res_0 = min_ge(m, res_0, activation_max)  # 82: MIN(mul_res, activation_max)
                    res_1 = orr(m, lsr(m, lo, 31), hi << 1)   # 88, 8a: orrs (N: its sign)
                    mul_1 = sxth(m, res_0, 0)                 # 8e: mul_1 = (int16_t)mul_res
                    bcc(m, res_1 < 0)                         # 90: bmi.n 13c
                    if res_1 < 0:
                        mov(m, 0)                             # 13c: remainder 0
                        mov(m, 0)                             # 140: threshold 0
                        add(m, 0, 1)                          # 142: threshold++
                        b(m)                                  # 146: b.n 134
                        cmp(m, 0, 1)                          # 134: if (remainder > threshold)
                        it(m, 1)                              # 136: it gt (fails)
                        b(m)                                  # 13a: b.n 92
                else:
                    top_2 = asr(m, word_2, 16)                # 148
                    top_1 = asr(m, word_1, 16)                # 14a
                    product = mul(m, top_1, top_2)            # 14e
                    ldr_sp(m)                                 # 152: left_shift
                    hi = mov(m, 0)                            # 154
                    product = lsl(m, product, left_shift)     # 156
                    lo = mov(m, 1 << 30)                      # 15a
                    mov(m, 0)                                 # 15c: remainder 0
                    lo, hi = smlal(m, lo, hi, product, out_mult)  # 160
                    lo = lsr(m, lo, 31)                       # 164
                    mov(m, 0)                                 # 166: threshold 0
                    res_1 = orr(m, lo, hi << 1)               # 168
                    b(m)                                      # 16c: b.n 120
                    res_0 = max_lt(m, res_0, activation_min)  # 120
                    ldr_sp(m)                                 # 126: out_activation_max
                    res_0 = min_ge(m, res_0, activation_max)  # 128
                    cmp(m, res_1, 0)                          # 12e
                    mul_1 = sxth(m, res_0, 0)                 # 130
                    bcc(m, res_1 < 0)                         # 132: blt.n 142
                    if res_1 < 0:
                        add(m, 0, 1)                          # 142: threshold++
                        b(m)                                  # 146: b.n 134
                    cmp(m, 0, 0)                              # 134: if (remainder > threshold)
                    it(m, 1)                                  # 136: it gt (fails)
                    b(m)                                      # 13a: b.n 92
                res_1 = max_lt(m, res_1, activation_min)      # 92: MAX(mul_res, activation_min)
                ldr_sp(m)                                     # 98: out_activation_max
                low = uxth(m, mul_1, 0)                       # 9a
                res_1 = min_ge(m, res_1, activation_max)      # 9c: MIN(mul_res, activation_max)
                packed = orr(m, low, res_1 << 16)             # a2: PACK_Q15x2_32x1(mul_1, mul_2)
                str_(m, output, packed)                       # a6: arm_nn_write_q15x2_ia
                ldr_sp(m)                                     # aa: loop_count
                loop_count = sub(m, loop_count, 1)            # ac
                str_sp(m)                                     # ae
                output += 4
                bcc(m, loop_count == 0)                       # b0: beq.n 18a
                continue
            if out_shift <= 0:
                ldr_sp(m)
                if not accumulate:
                    ldr_sp(m)
                rem_0 = and_(m, remainder_mask, res_0)
                if accumulate:
                    str_sp(m)
                    ldr_sp(m)
                    res_0 = asr(m, res_0, right_shift)        # ASRS: N = the quotient's sign
                    bcc(m, res_0 < 0)                         # bmi
                    product = _halves(m, word_1, word_2)
                else:
                    top_1 = asr(m, word_1, 16)
                    top_2 = asr(m, word_2, 16)
                    res_0 = asr(m, res_0, right_shift)
                    product = mul(m, top_2, top_1)
                    bcc(m, res_0 < 0)                         # bmi
                res_1 = _high(m, product, out_mult)
                if res_0 >= 0:
                    if accumulate:
                        ldr_sp(m)
                        ldr_sp(m)
                        rem_1 = and_(m, remainder_mask, res_1)
                    else:
                        ldr_sp(m)
                        rem_1 = and_(m, remainder_mask, res_1)
                        ldr_sp(m)
                    ldr_sp(m)                                 # threshold
                    res_1 = asr(m, res_1, right_shift)
                    thr_0 = threshold
                else:
                    rem_1 = and_(m, remainder_mask, res_1)
                    ldr_sp(m)
                    ldr_sp(m)                                 # threshold + 1
                    res_1 = asr(m, res_1, right_shift)
                    b(m)
                    thr_0 = threshold + 1
                if accumulate:
                    ldr_sp(m)                                 # remainder 0
                    cmp(m, rem_0, thr_0)
                    up = rem_0 > thr_0
                else:
                    cmp(m, thr_0, rem_0)
                    up = thr_0 < rem_0
                bcc(m, not up)                                # ble / bge: no rounding
                ldr_sp(m)                                     # threshold
                if up:
                    res_0 = add(m, res_0, 1)                  # result++
                else:
                    b(m)
                thr_1 = threshold
            else:
                # exponent 0 in arm_elementwise_mul_acc_s16 (never in an LSTM: its
                # inter-gate scales are far below one): the values as the C computes them,
                # the instruction shape approximate
                product = lsl(m, _halves(m, word_1, word_2), left_shift)
                res_1 = _high(m, product, out_mult)
                rem_1, thr_1 = 0, 0
            # the first result's clamp; the second quotient's sign and rounding
            if accumulate:
                res_0 = add(m, ldrsh(m, output), res_0)       # mul_res += output[0];
            res_0 = max_lt(m, res_0, activation_min)          # MAX(mul_res, activation_min)
            if not accumulate:
                ldr_sp(m)
            res_0 = min_ge(m, res_0, activation_max)          # MIN(mul_res, activation_max)
            cmp(m, res_1, 0)
            mul_1 = sxth(m, res_0, 0)                         # mul_1 = (int16_t)mul_res;
            bcc(m, res_1 < 0)                                 # blt
            if res_1 < 0:
                thr_1 = add(m, thr_1, 1)                      # threshold++
                b(m)
            if accumulate:
                cmp(m, thr_1, rem_1)
                up = thr_1 < rem_1
            else:
                cmp(m, rem_1, thr_1)
                up = rem_1 > thr_1
            it(m, not up)
            if up:
                res_1 = add(m, res_1, 1)                      # result++
            b(m)
            if accumulate:
                res_1 = add(m, ldrsh(m, output + 2), res_1)   # mul_res += output[1];
                res_1 = max_lt(m, res_1, activation_min)
            else:
                res_1 = max_lt(m, res_1, activation_min)
                ldr_sp(m)
            res_1 = min_ge(m, res_1, activation_max)
            packed = orr(m, uxth(m, mul_1, 0), res_1 << 16)   # PACK_Q15x2_32x1(mul_1, mul_2)
            if accumulate:
                loop_count = sub(m, loop_count, 1)
                str_(m, output, packed)                       # arm_nn_write_q15x2_ia(&output, ..)
            else:
                str_(m, output, packed)
                ldr_sp(m)                                     # loop_count kept on the stack
                loop_count = sub(m, loop_count, 1)
                str_sp(m)
            output += 4
            bcc(m, loop_count == 0)                           # beq: done
        ldr_sp(m)
        ldrd_sp(m)
        cmp(m, block_size, 1)
        lsl(m, block_size // 2, 2)
        it(m, 1)                                              # movle: never (block_size > 1)
        ldr_sp(m)
        ldr_sp(m)
        for _ in range(3):
            add(m, 0, 0)
    if accumulate:
        ldr_sp(m)
        lsl(m, block_size, 31)                                # lsls r3, r3, #31 (N: odd)
    else:
        tst(m, block_size, 1)                                 # loop_count = block_size & 0x1;
    bcc(m, (block_size & 1) == 0)
    if block_size & 1:
        _scalar_tail(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                     activation_min, activation_max, accumulate)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


@kernel
def arm_elementwise_mul_s16(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset,
                            output, out_offset, out_mult, out_shift, out_activation_min,
                            out_activation_max, block_size):
    """Returns ARM_CMSIS_NN_SUCCESS (0); the offsets are unused (symmetric int16)."""
    if m.dsp:
        return dsp_pair_loop(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                             out_activation_min, out_activation_max, block_size, False)
    return scalar_pair_loop(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                            out_activation_min, out_activation_max, block_size, False)
