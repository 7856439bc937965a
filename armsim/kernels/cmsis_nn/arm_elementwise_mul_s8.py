"""arm_elementwise_mul_s8 (Source/BasicMathFunctions/arm_elementwise_mul_s8.c).

    arm_cmsis_nn_status arm_elementwise_mul_s8(const int8_t *input_1_vect,
        const int8_t *input_2_vect, int32_t input_1_offset, int32_t input_2_offset,
        int8_t *output, int32_t out_offset, int32_t out_mult, int32_t out_shift,
        int32_t out_activation_min, int32_t out_activation_max, int32_t block_size)

out = clamp(arm_nn_requantize((in_1 + input_1_offset) * (in_2 + input_2_offset), out_mult,
out_shift) + out_offset).

ARM_MATH_DSP: four elements per iteration: read_and_pad_reordered (ROR + SXTB16, SXTB16),
SADD16 with the packed offsets, SMULBB / SMULTT per halfword pair (elements 0, 2, 1, 3),
the four results packed into one word; then the block_size % 4 leftovers one by one.
Plain C: one element per iteration.

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 with ARM_MATH_DSP, and
-mcpu=cortex-m3; the hexadecimal numbers in the comments are the M4 object's offsets).
gcc hoists arm_nn_requantize's shift-only values.  In the M4 word loop the first element's
`out_shift > 0` test chooses the rounding registers for all four: for a positive shift the
mask, exponent and threshold are 0 and the other three elements still run the rounding's
AND / ASRS / ITE MI / IT GT; otherwise the first element's threshold comes from an ITE MI
pair of stack loads and its increment from a branch.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, b, bcc, bic, cmp, it, ldr, ldr_sp, ldrb_sp, ldrd_sp,
                            ldrsb, lsl, lsr, mov, mul, orr, pop_pc, push, ror, rsb, sadd16,
                            smlal, smulbb, smultt, str_, str_sp, strb, strd_sp, sub, sxtb,
                            sxtb16, uxth)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _doubling_high_mult(m, product, left_shift, out_mult):
    """LSL, MOV hi #0, MOV lo #1 << 30, SMLAL, LSRS, ORR: arm_nn_doubling_high_mult_no_sat
    of product << LEFT_SHIFT(out_shift)."""
    val = lsl(m, product, left_shift)
    hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, val, out_mult)
    return orr(m, lsr(m, lo, 31), hi << 1)


@kernel(inline=True)
def _round_ite(m, dividend, mask, exponent, threshold):
    """a6-b8: remainder = mask & dividend; result = dividend >> exponent; ITE MI: ADDMI
    t = threshold + 1 / MOVPL t = threshold; CMP; IT GT; ADDGT result, #1."""
    remainder = and_(m, dividend, mask)
    result = asr(m, dividend, exponent)
    it(m, 1)
    if result < 0:
        limit = add(m, threshold, 1)
    else:
        limit = mov(m, threshold)
    cmp(m, remainder, limit)
    it(m, 0 if remainder > limit else 1)
    if remainder > limit:
        result = add(m, result, 1)
    return result


@kernel(inline=True)
def _offset_clamp(m, value, out_offset, act_min, act_max):
    """ADD out_offset; MAX(.., act_min); MIN(.., act_max) as CMP / IT / MOV."""
    value = add(m, value, out_offset)
    value = max_lt(m, value, act_min)
    return min_ge(m, value, act_max)


@kernel(inline=True)
def _m4_word(m, in_1, in_2, out, off_1, off_2, out_offset, out_mult, out_shift, left_shift,
             neg_shift, mask, threshold, act_min, act_max):
    """16a-168: four elements of one word."""
    ldr_sp(m)                                      # 16a: input_1_vect
    ldr_sp(m)                                      # 16c: input_2_vect
    w_1 = ldr(m, in_1)                             # 16e: ldr.w sl, [r3], #4
    str_sp(m)                                      # 172
    w_2 = ldr(m, in_2)                             # 174: ldr.w r3, [r2], #4
    str_sp(m)                                      # 178
    ldr_sp(m)                                      # 17a: offset_1_packed
    b_1 = sxtb16(m, ror(m, w_1, 8), 0)             # 17c: read_and_pad_reordered: bytes 1, 3
    b_1 = sadd16(m, b_1, off_1)                    # 184: b_1 = SADD16(b_1, offset_1_packed)
    a_1 = sxtb16(m, w_1, 0)                        # 188: bytes 0, 2
    a_1 = sadd16(m, a_1, off_1)                    # 18c
    ldr_sp(m)                                      # 190: offset_2_packed
    b_2 = sxtb16(m, ror(m, w_2, 8), 0)             # 192
    b_2 = sadd16(m, b_2, off_2)                    # 19a
    a_2 = sadd16(m, sxtb16(m, w_2, 0), off_2)      # 19e
    product = smulbb(m, a_1, a_2)                  # 1a6: mul_res = a_1 * a_2 (element 0)
    ldr_sp(m)                                      # 1aa: left shift
    ldr_sp(m)                                      # 1ac: out_mult
    val = lsl(m, product, left_shift)              # 1b0
    hi = mov(m, 0)                                 # 1b2
    lo = mov(m, 1 << 30)                           # 1b4
    lo, hi = smlal(m, lo, hi, val, out_mult)       # 1b6
    ldr_sp(m)                                      # 1ba: out_shift
    lo = lsr(m, lo, 31)                            # 1bc
    cmp(m, out_shift, 0)                           # 1be
    r0 = orr(m, lo, hi << 1)                       # 1c0
    bcc(m, out_shift > 0)                          # 1c4: bgt.w 70
    if out_shift > 0:
        mask = mov(m, 0)                           # 70: mov.w lr, #0
        threshold = mov(m, 0)                      # 74: mov r6, lr
        neg_shift = mov(m, 0)                      # 76: mov r0, lr
    else:
        ldr_sp(m)                                  # 1c8: remainder_mask
        remainder = and_(m, r0, mask)              # 1ca
        ldr_sp(m)                                  # 1ce: -out_shift
        r0 = asr(m, r0, neg_shift)                 # 1d0: dividend >> exponent
        it(m, 1)                                   # 1d2: ite mi (one load fails)
        ldr_sp(m)                                  # ldrmi / ldrpl: threshold (+ 1)
        limit = threshold + 1 if r0 < 0 else threshold
        cmp(m, remainder, limit)                   # 1d8
        bcc(m, remainder <= limit)                 # 1da: ble.n 29c
        ldrd_sp(m)                                 # 1dc / 29c: mask, threshold
        ldr_sp(m)                                  # 1e0 / 2a0: -out_shift
        if remainder > limit:
            r0 = add(m, r0, 1)                     # 1e2: result++
        b(m)                                       # 1e4 / 2a2: b.n 78
    e_0 = sxtb(m, _offset_clamp(m, r0, out_offset, act_min, act_max), 0)  # 78-86
    str_sp(m)                                      # 88
    product = smultt(m, a_1, a_2)                  # 8a: element 2
    ldr_sp(m)                                      # 8e: left shift
    ldr_sp(m)                                      # 90: out_mult
    dividend = _doubling_high_mult(m, product, left_shift, out_mult)
    e_2 = _round_ite(m, dividend, mask, neg_shift, threshold)
    e_2 = sxtb(m, _offset_clamp(m, e_2, out_offset, act_min, act_max), 0)  # ba-c8
    str_sp(m)                                      # ca
    product = smulbb(m, b_1, b_2)                  # cc: element 1
    ldr_sp(m)                                      # d0
    ldr_sp(m)                                      # d2
    dividend = _doubling_high_mult(m, product, left_shift, out_mult)
    e_1 = _round_ite(m, dividend, mask, neg_shift, threshold)
    e_1 = sxtb(m, _offset_clamp(m, e_1, out_offset, act_min, act_max), 0)  # fa-108
    product = smultt(m, b_1, b_2)                  # 10a: element 3
    ldr_sp(m)                                      # 10e
    ldr_sp(m)                                      # 110
    dividend = _doubling_high_mult(m, product, left_shift, out_mult)
    remainder = and_(m, mask, dividend)            # 122: ands r6, r5
    e_3 = asr(m, dividend, neg_shift)              # 124: asrs r5, r0
    limit = threshold
    it(m, 0 if e_3 < 0 else 1)                     # 126: it mi
    if e_3 < 0:
        limit = add(m, threshold, 1)               # 128: addmi.w lr, lr, #1
    cmp(m, remainder, limit)                       # 12c
    it(m, 0 if remainder > limit else 1)           # 12e: it gt
    if remainder > limit:
        e_3 = add(m, e_3, 1)                       # 130
    ldr_sp(m)                                      # 132: element 2
    ldrb_sp(m)                                     # 134: element 0 (its byte)
    e_3 = add(m, e_3, out_offset)                  # 138
    cmp(m, e_3, act_min)                           # 13a: MAX(.., act_min)
    t_2 = lsl(m, e_2, 16)                          # 13c
    t_2 = and_(m, t_2, 0xFF0000)                   # 140
    it(m, 0 if e_3 < act_min else 1)               # 144
    if e_3 < act_min:
        e_3 = mov(m, act_min)
    t_1 = lsl(m, e_1, 8)                           # 148
    word = orr(m, e_0 & 0xFF, t_2)                 # 14a
    cmp(m, e_3, act_max)                           # 14c: MIN(.., act_max)
    t_1 = uxth(m, t_1, 0)                          # 14e
    ldr_sp(m)                                      # 150: output
    it(m, 0 if e_3 >= act_max else 1)              # 152
    if e_3 >= act_max:
        e_3 = mov(m, act_max)
    word = orr(m, t_1, word)                       # 156
    word = orr(m, word, e_3 << 24)                 # 158
    str_(m, out, word)                             # 15c: arm_nn_write_s8x4_ia
    ldr_sp(m)                                      # 160: input_1_vect
    str_sp(m)                                      # 162
    ldr_sp(m)                                      # 164: its end


@kernel(inline=True)
def _m4_leftovers(m, in_1, in_2, out, count, input_1_offset, input_2_offset, out_offset,
                  out_mult, out_shift, act_min, act_max):
    """1fe-28c: while (loop_count) of the block_size % 4 leftovers."""
    ldr_sp(m)                                      # 1fe: output
    ldr_sp(m)                                      # 200
    add(m, count, out)                             # 204: the end
    ldr_sp(m)                                      # 206: out_shift
    neg_shift = rsb(m, out_shift, 0)               # 208: negs r3, r3
    mov(m, neg_shift)                              # 20a
    str_sp(m)                                      # 20c
    one = mov(m, 1)                                # 20e
    mask = lsl(m, one, neg_shift)                  # 210
    mask = add(m, mask, -1)                        # 212: add.w fp, r3, #-1
    threshold = asr(m, mask, 1)                    # 216: mov.w r8, fp, asr #1
    ldr_sp(m)                                      # 21a: out_shift
    strd_sp(m)                                     # 21c
    mov(m, out_mult)                               # 220: mov fp, lr
    ldr_sp(m)                                      # 222: input_1_vect
    left_shift = bic(m, out_shift, out_shift >> 31)  # 226: LEFT_SHIFT(out_shift)
    mov(m, 1 << 30)                                # 22a
    mov(m, 0)                                      # 22e
    for i in range(count):
        ldr_sp(m)                                  # 230: input_2_offset
        v_2 = ldrsb(m, in_2 + i)                   # 232: ldrsb.w r2, [sl], #1
        ldr_sp(m)                                  # 236: input_1_offset
        v_2 = add(m, v_2, input_2_offset)          # 23a
        v_1 = ldrsb(m, in_1 + i)                   # 23c: ldrsb.w r3, [lr], #1
        v_1 = add(m, v_1, input_1_offset)          # 240
        product = mul(m, v_1, v_2)                 # 242
        val = lsl(m, product, left_shift)          # 246
        lo = mov(m, 1 << 30)                       # 248
        hi = mov(m, 0)                             # 24a
        lo, hi = smlal(m, lo, hi, val, out_mult)   # 24c
        ldr_sp(m)                                  # 250: out_shift
        lo = lsr(m, lo, 31)                        # 252
        cmp(m, out_shift, 0)                       # 254
        result = orr(m, lo, hi << 1)               # 256
        bcc(m, out_shift > 0)                      # 25a: bgt.n 278
        if out_shift <= 0:
            ldr_sp(m)                              # 25c: -out_shift
            ldr_sp(m)                              # 260: remainder_mask
            remainder = and_(m, mask, result)      # 262
            result = asr(m, result, neg_shift)     # 264
            ldr_sp(m)                              # 268: threshold
            limit = threshold
            it(m, 0 if result < 0 else 1)          # 26c: it mi
            if result < 0:
                limit = add(m, threshold, 1)       # 26e
            cmp(m, remainder, limit)               # 272
            it(m, 0 if remainder > limit else 1)   # 274: it gt
            if remainder > limit:
                result = add(m, result, 1)         # 276
        result = _offset_clamp(m, result, out_offset, act_min, act_max)  # 278-284
        strb(m, out + i, result)                   # 286: strb.w r3, [ip], #1
        cmp(m, i + 1, count)                       # 28a
        bcc(m, i + 1 < count)                      # 28c: bne.n 230


@kernel(inline=True)
def _m4_mul(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset, output, out_offset,
            out_mult, out_shift, act_min, act_max, block_size):
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                   # 4: sub sp, #76
    mov(m, input_2_offset)                         # 6: mov r4, r3
    str_sp(m)                                      # 8
    t = uxth(m, input_1_offset, 0)                 # a: offset_1_packed =
    off_1 = orr(m, t, input_1_offset << 16)        # c:   (input_1_offset << 16) | (.. & 0xFFFF)
    mov(m, input_2_vect)                           # 10: mov sl, r1
    str_sp(m)                                      # 12
    ldr_sp(m)                                      # 14: block_size
    str_sp(m)                                      # 16
    t = uxth(m, input_2_offset, 0)                 # 18: offset_2_packed
    off_2 = orr(m, t, input_2_offset << 16)        # 1a
    str_sp(m)                                      # 1e
    loop_count = asr(m, block_size, 2)             # 20: loop_count = block_size >> 2
    cmp(m, loop_count, 0)                          # 22
    ldrd_sp(m)                                     # 24: out_offset, out_mult
    ldrd_sp(m)                                     # 28: out_activation_min, max
    str_sp(m)                                      # 2c
    bcc(m, loop_count <= 0)                        # 2e: ble.w 296
    in_1, in_2, out = input_1_vect, input_2_vect, output
    if loop_count > 0:
        ldr_sp(m)                                  # 32: out_shift
        str_sp(m)                                  # 34
        neg_shift = rsb(m, out_shift, 0)           # 38: negs r2, r2
        mov(m, neg_shift)                          # 3a
        str_sp(m)                                  # 3c
        one = mov(m, 1)                            # 3e
        mask = lsl(m, one, neg_shift)              # 40: 1 << exponent
        mask = sub(m, mask, 1)                     # 42: remainder_mask
        threshold = asr(m, mask, 1)                # 44
        str_sp(m)                                  # 46
        ldr_sp(m)                                  # 48: out_shift
        str_sp(m)                                  # 4a
        left_shift = bic(m, out_shift, out_shift >> 31)  # 4c: LEFT_SHIFT(out_shift)
        str_sp(m)                                  # 50
        lsl(m, loop_count, 2)                      # 52
        add(m, input_1_vect, loop_count << 2)      # 54: input_1_vect's end
        str_sp(m)                                  # 58
        ldr_sp(m)                                  # 5a: output
        strd_sp(m)                                 # 5c
        add(m, threshold, 1)                       # 60: threshold + 1
        strd_sp(m)                                 # 62
        mov(m, 1 << 30)                            # 66
        mov(m, 0)                                  # 6a
        b(m)                                       # 6e: b.n 16a
        for j in range(loop_count):
            _m4_word(m, in_1, in_2, out, off_1, off_2, out_offset, out_mult, out_shift,
                     left_shift, neg_shift, mask, threshold, act_min, act_max)
            in_1 += 4
            in_2 += 4
            out += 4
            cmp(m, j + 1, loop_count)              # 166
            bcc(m, j + 1 == loop_count)            # 168: beq.n 1e6
        ldrd_sp(m)                                 # 1e6: loop bytes, input_2_vect
        ldr_sp(m)                                  # 1ea: output
        ldr_sp(m)                                  # 1ec: out_mult
        ldr_sp(m)                                  # 1f0: block_size
        add(m, output, 4 * loop_count)             # 1f2: output += 4 * loop_count
        str_sp(m)                                  # 1f4
        add(m, input_2_vect, 4 * loop_count)       # 1f6
    else:
        ldr_sp(m)                                  # 296: input_1_vect
        str_sp(m)                                  # 298
        b(m)                                       # 29a: b.n 1f8
    count = and_(m, block_size, 3)                 # 1f8: loop_count = block_size & 0x3
    bcc(m, count == 0)                             # 1fc: beq.n 28e
    if count:
        _m4_leftovers(m, in_1, in_2, out, count, input_1_offset, input_2_offset, out_offset,
                      out_mult, out_shift, act_min, act_max)
    mov(m, 0)                                      # 28e: return ARM_CMSIS_NN_SUCCESS
    add(m, 0, 0)                                   # 290: add sp, #76
    pop_pc(m, 9)
    return 0


@kernel(inline=True)
def _m3_mul(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset, output, out_offset,
            out_mult, out_shift, act_min, act_max, block_size):
    push(m, 9)                                     # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                   # sub sp, #20
    ldr_sp(m)                                      # block_size
    ldr_sp(m)                                      # output
    cmp(m, block_size, 0)                          # while (loop_count)
    ldr_sp(m)                                      # out_mult
    bcc(m, block_size <= 0)                        # ble.n 98
    if block_size > 0:
        one = mov(m, 1)
        mov(m, 0)
        ldr_sp(m)                                  # out_shift
        ldr_sp(m)
        neg_shift = rsb(m, out_shift, 0)           # negs r5, r5
        mask = lsl(m, one, neg_shift)              # 1 << exponent
        mask = sub(m, mask, 1)                     # remainder_mask
        str_sp(m)
        threshold = asr(m, mask, 1)
        str_sp(m)
        add(m, threshold, 1)                       # threshold + 1
        add(m, output, block_size)                 # the output's end
        left_shift = bic(m, out_shift, out_shift >> 31)  # LEFT_SHIFT(out_shift)
        str_sp(m)
        for i in range(block_size):
            lo = mov(m, 1 << 30)                   # 34
            hi = mov(m, 0)                         # mov fp, sl
            v_2 = ldrsb(m, input_2_vect + i)       # ldrsb.w lr, [r1], #1
            v_1 = ldrsb(m, input_1_vect + i)       # ldrsb.w ip, [r0], #1
            v_2 = add(m, v_2, input_2_offset)
            v_1 = add(m, v_1, input_1_offset)
            product = mul(m, v_1, v_2)             # input_1 * input_2
            val = lsl(m, product, left_shift)
            lo, hi = smlal(m, lo, hi, out_mult, val)
            lo = lsr(m, lo, 31)                    # mov.w ip, r5, lsr #31
            ldr_sp(m)                              # out_shift
            result = orr(m, lo, hi << 1)
            cmp(m, out_shift, 0)
            remainder = and_(m, mask, result)
            bcc(m, out_shift > 0)                  # bgt.n 7c
            if out_shift <= 0:
                ldr_sp(m)                          # -out_shift
                result = asr(m, result, neg_shift)
                it(m, 1)                           # ite mi (one load fails)
                ldr_sp(m)                          # ldrmi / ldrpl: threshold (+ 1)
                limit = threshold + 1 if result < 0 else threshold
                cmp(m, limit, remainder)
                it(m, 0 if limit < remainder else 1)   # it lt
                if limit < remainder:
                    result = add(m, result, 1)
            ldr_sp(m)                              # out_offset
            result = add(m, result, out_offset)
            ldr_sp(m)                              # out_activation_min
            result = max_lt(m, result, act_min)
            ldr_sp(m)                              # out_activation_max
            result = min_ge(m, result, act_max)
            strb(m, output + i, result)            # strb.w ip, [r4], #1
            cmp(m, i + 1, block_size)
            bcc(m, i + 1 < block_size)             # bne.n 34
    mov(m, 0)                                      # return ARM_CMSIS_NN_SUCCESS
    add(m, 0, 0)                                   # add sp, #20
    pop_pc(m, 9)
    return 0


@kernel
def arm_elementwise_mul_s8(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset,
                           output, out_offset, out_mult, out_shift, out_activation_min,
                           out_activation_max, block_size):
    if m.dsp:
        return _m4_mul(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset, output,
                       out_offset, out_mult, out_shift, out_activation_min,
                       out_activation_max, block_size)
    return _m3_mul(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset, output,
                   out_offset, out_mult, out_shift, out_activation_min, out_activation_max,
                   block_size)
