"""arm_softmax_s16 (Source/SoftmaxFunctions/arm_softmax_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_softmax_s16(const int16_t *input, const int32_t num_rows,
        const int32_t row_size, const int32_t mult, const int32_t shift,
        const cmsis_nn_softmax_lut_s16 *softmax_params, int16_t *output)

Per row: the maximum; every column's exp from the 513-entry exp LUT (index = 256 +
(x >> 7), linear interpolation over the 7 low bits) of
x = clamp(arm_nn_requantize(input - max, mult, shift) + 32767, int16), cached in `output`
and summed; the reciprocal of the sum from the 1/(1 + x) LUT; every column again:
output = ((cached * one_by_one) >> (30 - headroom) + 1) >> 1.  No ARM_MATH_DSP code.

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 and -mcpu=cortex-m3; the
hexadecimal numbers in the comments are the M4 object's offsets, the M3 code has the same
blocks with its own order and registers inside them).  gcc hoists the requantization's
shift-only values (left shift, -shift, remainder mask, threshold and threshold + 1) out of
the loops and spills most of them; inside the exp loop `if (shift > 0)` skips the rounding
division (its right shift is 0), and the rounding's `result < 0` picks the threshold slot
with an ITE MI of two loads (one always fails).  The M4 build multiplies the int16 values
with SMLABB / SMULBB, the M3 with SXTH / LDRSH + MUL.  Fields of the caller's
`softmax_params` struct (not in simulated memory) are issued as stack-slot loads.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, b, bcc, bic, clz, cmp, it, ldr_lit, ldr_sp, ldrd_sp,
                            ldrh, ldrsh, lsl, lsr, mov, mul, orr, pop_pc, push, rsb, sbfx,
                            smlabb, smlal, smulbb, str_sp, strd_sp, strh, sub, sxth, ubfx, uxth)

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

NN_Q15_MAX = 32767
NN_Q15_MIN = -32768
ARM_CMSIS_NN_SUCCESS = 0
ARM_CMSIS_NN_ARG_ERROR = -1


@kernel(inline=True)
def _return(m, status, error):
    """1c6: `mov.w r0, #-1; b 1b2` (`error`) or 1b0: `movs r0, #0`; then the epilogue."""
    mov(m, status)
    if error:
        b(m)
    add(m, 0, 0)                                   # 1b2: add sp, #60 (#52)
    pop_pc(m, 9)                                   # ldmia.w sp!, {r4-r11, pc}
    return status


@kernel(inline=True)
def _max_loop(m, input, row_size, max_):
    """6e-7c: for (col = 1; col < row_size; ++col) max = MAX(max, input[col]);"""
    mov(m, input)                                  # 6e: mov r3, sl
    for col in range(1, row_size):
        v = ldrsh(m, input + 2 * col)              # 70: ldrsh.w r2, [r3, #2]!
        cmp(m, max_, v)                            # 74: cmp r1, r2
        it(m, 0 if max_ < v else 1)                # it lt
        if max_ < v:
            max_ = mov(m, v)                       # movlt r1, r2
        cmp(m, col + 1, row_size)                  # 7a: cmp r3, ip
        bcc(m, col + 1 < row_size)                 # bne.n 70
    return max_


@kernel(inline=True)
def _exp_lut_clamped(m, x, exp_lut, sixty_four):
    """d6-110: saturated = MIN(MAX(x + NN_Q15_MAX, NN_Q15_MIN), NN_Q15_MAX); the exp LUT's
    interpolation at it, as (int16_t)(base + delta)."""
    lit = ldr_lit(m)                               # d6: ldr r1, =0xffff8000
    x = add(m, x, NN_Q15_MAX)                      # d8: add r3, r5
    cmp(m, x, NN_Q15_MIN)                          # da: cmp r3, r1
    it(m, 0 if x < NN_Q15_MIN else 1)              # it lt
    if x < NN_Q15_MIN:
        x = mov(m, NN_Q15_MIN)                     # movlt r3, r1
    cmp(m, x, NN_Q15_MAX)                          # e0: cmp r3, r5
    it(m, 0 if x >= NN_Q15_MAX else 1)             # it ge
    if x >= NN_Q15_MAX:
        x = mov(m, NN_Q15_MAX)                     # movge r3, r5
    index = sbfx(m, x, 7, 9)                       # e6: index = 256 + (x >> 7)
    index = add(m, index, 256)
    index = uxth(m, index, 0)
    if m.dsp:
        nxt_at = add(m, exp_lut, index << 1)       # f2: add.w fp, r4, sl, lsl #1
        base = ldrh(m, exp_lut + 2 * index)        # f6: base = exp_lut[index]
        nxt = ldrh(m, nxt_at + 2)                  # fa: exp_lut[index + 1]
        offset = and_(m, x, 0x7F)                  # fe: offset = x & 0x7f
        slope = sub(m, nxt, base)                  # 102: slope = exp_lut[index + 1] - base
        delta = smlabb(m, offset, slope, sixty_four)  # 106: slope * offset + 64
    else:
        nxt_at = add(m, exp_lut, index << 1)       # add.w sl, r4, fp, lsl #1
        nxt = ldrh(m, nxt_at + 2)                  # ldrh.w sl, [sl, #2]
        base = ldrh(m, exp_lut + 2 * index)        # ldrh.w fp, [r4, fp, lsl #1]
        offset = and_(m, x, 0x7F)
        slope = sub(m, nxt, base)
        slope = sxth(m, slope, 0)                  # (int16_t) slope
        delta = mul(m, offset, slope)
        delta = add(m, delta, 64)                  # slope * offset + 64
    result = add(m, base, delta >> 7)              # 10a: add.w sl, sl, r3, asr #7
    return sxth(m, result, 0)                      # 10e: (int16_t)(base + delta)


@kernel(inline=True)
def _exp_column(m, diff, mult, left_shift, shift, neg_shift, remainder_mask, threshold,
                threshold_neg):
    """a4-d4 (M3: 9c-cc): arm_nn_requantize(diff, mult, shift) with gcc's hoisted values;
    `shift`'s test (`cmp`) was issued by the caller."""
    val = lsl(m, diff, left_shift)                 # diff * (1 << LEFT_SHIFT(shift))
    if m.dsp:
        lo = mov(m, 1 << 30)                       # a8: mult.word.low = 1 << 30
        hi = mov(m, 0)                             # ac: mult.word.high = 0
    else:
        lo, hi = 1 << 30, 0                        # (moved by the caller, before the load)
    lo, hi = smlal(m, lo, hi, val, mult)           # b0: mult.long_long += (int64_t)m1 * m2
    dividend = orr(m, lsr(m, lo, 31), hi << 1)     # b4/b6: (int32_t)(mult.long_long >> 31)
    if m.dsp:
        cmp(m, shift, 0)                           # ba: cmp r1, #0
    remainder = and_(m, remainder_mask, dividend)  # bc: remainder = remainder_mask & dividend
    bcc(m, shift > 0)                              # c0: bgt.n d6
    if shift > 0:
        return dividend
    ldr_sp(m)                                      # c2: -shift
    result = asr(m, dividend, neg_shift)           # c4: asrs r3, r1: dividend >> exponent
    it(m, 1)                                       # c6: ite mi (one slot fails)
    ldr_sp(m)                                      # ldrmi / ldrpl: threshold (+1 if result < 0)
    limit = threshold_neg if result < 0 else threshold
    cmp(m, remainder, limit)                       # d0: if (remainder > threshold)
    it(m, 0 if remainder > limit else 1)           # it gt
    if remainder > limit:
        result = add(m, result, 1)                 # addgt r3, #1: result++
    return result


@kernel(inline=True)
def _sum_loop(m, input, row_size, max_, mult, shift, left_shift, neg_shift, remainder_mask,
              threshold, threshold_neg, exp_lut, cached):
    """7e-126 (M3: 7a-128): sum = 0; for (col = 0; col < row_size; ++col) {
    cached_exp_results[col] = exp(requantize(input[col] - max)); sum += it; }
    (`cached`: the output row).  Returns sum."""
    sixty_four = 64
    if m.dsp:
        strd_sp(m)                                 # 7e: strd r7, sl, [sp, #36]
        ldr_sp(m)                                  # 82: cached - 1 (lr)
        ldr_sp(m)                                  # 86: left shift (r7)
        str_sp(m)                                  # 88: str.w fp, [sp, #32]
        sub(m, input, 2)                           # 8c: sub.w r0, sl, #2
        total = mov(m, 0)                          # 90: int32_t sum = 0
        sixty_four = mov(m, 64)                    # 92: mov.w r8, #64
        str_sp(m)                                  # 96: max
    else:
        total = mov(m, 0)                          # int32_t sum = 0
        strd_sp(m)                                 # strd fp, r6, [sp, #28]
        ldr_sp(m)                                  # cached - 1 (lr)
        ldr_sp(m)                                  # shift (r6)
        sub(m, input, 2)                           # sub.w r0, sl, #2
        str_sp(m)                                  # str.w sl, [sp, #36]
    for col in range(row_size):
        if m.dsp:
            ldr_sp(m)                              # 98: max
            x = ldrsh(m, input + 2 * col)          # 9a: ldrsh.w sl, [r0, #2]!
            ldr_sp(m)                              # 9e: shift
            diff = sub(m, x, max_)                 # a0: diff = input[col] - max
        else:
            mov(m, 1 << 30)                        # mult.word.low = 1 << 30
            mov(m, 0)                              # mult.word.high = 0
            x = ldrsh(m, input + 2 * col)          # ldrsh.w sl, [r0, #2]!
            cmp(m, shift, 0)                       # cmp r6, #0
            diff = sub(m, x, max_)
        scaled = _exp_column(m, diff, mult, left_shift, shift, neg_shift, remainder_mask,
                             threshold, threshold_neg)
        result = _exp_lut_clamped(m, scaled, exp_lut, sixty_four)
        cmp(m, col + 1, row_size)                  # 112: cmp r0, ip
        strh(m, cached + 2 * col, result)          # 114: cached_exp_results[col] = result
        total = add(m, total, result)              # 118: sum += cached_exp_results[col]
        bcc(m, col + 1 < row_size)                 # 11a: bne.n 98
    ldrd_sp(m)                                     # 11c: ldrd fp, r7, [sp, #32]
    ldr_sp(m)                                      # 120: input (sl)
    return total


@kernel(inline=True)
def _reciprocal(m, total, one_by_one_lut):
    """124-178: headroom = CLZ(sum); shifted_sum = ((sum << (headroom - 1)) + (1 << 13)) >> 14;
    symmetric_shifted_sum = shifted_sum - 98304; one_by_one_result from the 1/(1 + x) LUT
    at it, as (int16_t)(base + delta).  Returns (headroom, one_by_one_result)."""
    cmp(m, total, 0)                               # 124: CLZ's `if (value == 0U)`
    bcc(m, total == 0)                             # beq.n 1bc
    if total != 0:
        headroom = clz(m, total)                   # 128: clz r3, r2
        if not m.dsp:
            mov(m, headroom)                       # mov r0, r3
        shifted = sub(m, headroom, 1)              # 12c: headroom - 1
        shifted = lsl(m, total, shifted)           # 12e: sum << (headroom - 1)
        shifted = add(m, shifted, 1 << 13)         # 132: + (1 << 13)
        shifted = ubfx(m, shifted, 14, 16)         # 136: (int16_t)(>> 14), low half
        symmetric = sub(m, shifted, 32768)         # 13a: shifted_sum - 98304 (mod 2**16)
        index = sbfx(m, symmetric, 7, 9)           # 13e: index = 256 + (symmetric >> 7)
        index = add(m, index, 256)
        index = uxth(m, index, 0)
        if m.dsp:
            ldr_sp(m)                              # 148: one_by_one_lut
            nxt_offset = lsl(m, index, 1)          # 14c: lsls r1, r0, #1
            headroom = clz(m, total)               # 14e: clz r2, r2
            offset = and_(m, shifted, 0x7F)        # 152: offset = symmetric & 0x7f
        else:
            ldr_sp(m)                              # one_by_one_lut
            nxt_offset = lsl(m, index, 1)          # lsls r2, r1, #1
            offset = and_(m, shifted, 0x7F)
        base_at = add(m, one_by_one_lut, index << 1)   # 156: add.w r0, lr, r0, lsl #1
        nxt_offset = add(m, nxt_offset, 2)         # 15a: adds r1, #2
    else:                                          # 1bc: CLZ(0) = 32, the LUT's first entry
        if m.dsp:
            ldr_sp(m)                              # ldr r0, [sp, #28]: one_by_one_lut
            offset = mov(m, 0)
            nxt_offset = mov(m, 2)
            headroom = mov(m, 32)                  # return 32U
        else:
            offset = mov(m, 0)
            nxt_offset = mov(m, 2)
            headroom = mov(m, 32)
            ldr_sp(m)                              # ldr r1, [sp, #24]: one_by_one_lut
        base_at = one_by_one_lut
        b(m)                                       # b.n 15c
    ldr_sp(m)                                      # 15c: one_by_one_lut
    base = ldrh(m, base_at)                        # 160: base = one_by_one_lut[index]
    nxt = ldrh(m, one_by_one_lut + nxt_offset)     # 162: one_by_one_lut[index + 1]
    slope = sub(m, nxt, base)                      # 166: slope
    slope = sxth(m, slope, 0)                      # 168: (int16_t) slope
    delta = mul(m, offset, slope)                  # 16a: slope * offset
    ldr_sp(m)                                      # 16e: row_size
    delta = add(m, delta, 64)                      # 170: + 64
    result = add(m, base, delta >> 7)              # 172: base + (delta >> 7)
    return headroom, result


@kernel
def arm_softmax_s16(m, input, num_rows, row_size, mult, shift, softmax_params, output):
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                   # 4: sub sp, #60 (#52)
    if m.dsp:
        mov(m, mult)                               # 6: mov r9, r3
    ldrd_sp(m)                                     # 8: softmax_params, output (stacked)
    exp_lut = softmax_params.exp_lut
    one_by_one_lut = softmax_params.one_by_one_lut
    ldr_sp(m)                                      # c: softmax_params->exp_lut
    str_sp(m)                                      # e: num_rows
    str_sp(m)                                      # 10: row_size
    cmp(m, exp_lut, 0)                             # 12: if (softmax_params->exp_lut == NULL
    bcc(m, exp_lut == 0)
    if exp_lut == 0:
        return _return(m, ARM_CMSIS_NN_ARG_ERROR, True)
    ldr_sp(m)                                      # 18: || softmax_params->one_by_one_lut
    if not m.dsp:
        mov(m, mult)                               # mov r8, r3
    str_sp(m)                                      # 1a
    cmp(m, one_by_one_lut, 0)                      # 1c:    == NULL)
    bcc(m, one_by_one_lut == 0)
    if one_by_one_lut == 0:
        return _return(m, ARM_CMSIS_NN_ARG_ERROR, True)
    cmp(m, num_rows, 0)                            # 22: for (row_idx = 0; row_idx < num_rows;
    bcc(m, num_rows <= 0)
    if num_rows <= 0:
        return _return(m, ARM_CMSIS_NN_SUCCESS, False)
    # 28-5e: the requantization's shift-only values, the row pointers' steps
    if m.dsp:
        ldr_sp(m)                                  # 28: shift
        neg_shift = rsb(m, shift, 0)               # 2a: negs r3, r3
        mov(m, neg_shift)                          # 2c: mov r2, r3
        str_sp(m)                                  # 2e: -shift
        one = mov(m, 1)                            # 30: movs r3, #1
        remainder_mask = lsl(m, one, neg_shift)    # 32: 1 << exponent
        mov(m, 0)                                  # 34: row_idx = 0
        remainder_mask = sub(m, remainder_mask, 1)  # 36: (1 << exponent) - 1
        str_sp(m)                                  # 38: row_idx
        ldr_sp(m)                                  # 3a: row_size
        sub(m, output, 2)                          # 3c: output - 1 (the stored row pointer)
        str_sp(m)                                  # 3e
        ldr_sp(m)                                  # 40: shift
        lsl(m, row_size, 1)                        # 42: mov.w fp, r3, lsl #1 (row bytes; LSL)
        threshold = asr(m, remainder_mask, 1)      # 46: threshold = remainder_mask >> 1
        sub(m, row_size << 1, 2)                   # 48: sub.w ip, fp, #2
        str_sp(m)                                  # 4c: threshold
        left_shift = bic(m, shift, shift >> 31)    # 4e: LEFT_SHIFT(shift)
        threshold_neg = add(m, threshold, 1)       # 52: threshold++ (result < 0)
        add(m, output, 0)                          # 54: add r7, ip (the output row's end)
        mov(m, input)                              # 56: mov sl, r0
        add(m, input, 0)                           # 58: add ip, r0 (the input row's end)
        str_sp(m)                                  # 5a: left shift
        str_sp(m)                                  # 5c: threshold + 1
        mov(m, NN_Q15_MAX)                         # 5e: movw r5, #32767
    else:
        mov(m, 0)                                  # row_idx = 0
        one = mov(m, 1)                            # movs r7, #1
        mov(m, input)                              # mov sl, r0
        mov(m, NN_Q15_MAX)                         # movw r5, #32767
        str_sp(m)                                  # row_idx
        ldr_sp(m)                                  # shift
        ldr_sp(m)                                  # row_size
        neg_shift = rsb(m, shift, 0)               # negs r3, r3
        lsl(m, row_size, one)                      # lsl.w fp, r2, r7 (row bytes)
        remainder_mask = lsl(m, one, neg_shift)    # lsls r7, r3
        sub(m, output, 2)                          # subs r2, r6, #2
        remainder_mask = sub(m, remainder_mask, 1)  # subs r7, #1
        str_sp(m)                                  # -shift
        str_sp(m)                                  # output - 1
        threshold = asr(m, remainder_mask, 1)      # threshold = remainder_mask >> 1
        ldr_sp(m)                                  # shift
        sub(m, row_size << 1, 2)                   # sub.w ip, fp, #2
        str_sp(m)                                  # threshold
        threshold_neg = add(m, threshold, 1)       # threshold++ (result < 0)
        add(m, output, 0)                          # add r6, ip (the output row's end)
        left_shift = bic(m, shift, shift >> 31)    # LEFT_SHIFT(shift)
        add(m, input, 0)                           # add ip, r0 (the input row's end)
        str_sp(m)                                  # threshold + 1
    for row_idx in range(num_rows):
        ldr_sp(m)                                  # 62: row_size
        max_ = ldrsh(m, input)                     # 64: int16_t max = *input
        cmp(m, row_size, 1)                        # 68: for (col = 1; col < row_size; ...)
        bcc(m, row_size <= 1)                      # ble.w 1b8
        if row_size > 1:
            max_ = _max_loop(m, input, row_size, max_)
        else:
            bcc(m, row_size == 1)                  # 1b8: beq.w 7e (row_size <= 0: to 1bc)
        total = 0
        if row_size >= 1:
            total = _sum_loop(m, input, row_size, max_, mult, shift, left_shift, neg_shift,
                              remainder_mask, threshold, threshold_neg, exp_lut, output)
        headroom, one_by_one = _reciprocal(m, total, one_by_one_lut)
        cmp(m, row_size, 0)                        # 176: for (col = 0; col < row_size; ...)
        one_by_one = sxth(m, one_by_one, 0)        # 178: (int16_t)(base + delta)
        bcc(m, row_size <= 0)                      # 17a: ble.n 196
        if row_size > 0:
            ldr_sp(m)                              # 17c: output - 1
            right_shift = rsb(m, headroom, 30)     # 17e: 30 - headroom
            for col in range(row_size):
                if m.dsp:
                    cached = ldrh(m, output + 2 * col)     # 182: ldrh.w r3, [r1, #2]!
                    res = smulbb(m, cached, one_by_one)    # 186: cached * one_by_one_result
                else:
                    cached = ldrsh(m, output + 2 * col)    # ldrsh.w r3, [r2, #2]!
                    res = mul(m, one_by_one, cached)
                res = asr(m, res, right_shift)             # 18a: >> right_shift
                res = add(m, res, 1)                       # 18c: (result + 1) >> 1
                res = asr(m, res, 1)                       # 18e
                cmp(m, col + 1, row_size)                  # 190: cmp r1, r7
                strh(m, output + 2 * col, res)             # 192: output[col] = (int16_t)result
                bcc(m, col + 1 < row_size)                 # 194: bne.n 182
        ldr_sp(m)                                  # 196: output - 1
        ldr_sp(m)                                  # 198: row_idx
        add(m, output, 0)                          # 19a: output += row_size
        str_sp(m)                                  # 19c
        ldr_sp(m)                                  # 19e: num_rows
        add(m, row_idx, 1)                         # 1a0: ++row_idx
        cmp(m, num_rows, row_idx + 1)              # 1a2: row_idx < num_rows
        str_sp(m)                                  # 1a4: row_idx
        input = add(m, input, 2 * row_size)        # 1a6: input += row_size
        output = add(m, output, 2 * row_size)      # 1a8: add r7, fp (the output row's end)
        add(m, input, 0)                           # 1aa: add ip, fp (the input row's end)
        bcc(m, row_idx + 1 < num_rows)             # 1ac: bne.w 62
    return _return(m, ARM_CMSIS_NN_SUCCESS, False)
