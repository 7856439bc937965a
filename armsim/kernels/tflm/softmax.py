"""tflite::reference_ops::Softmax<int8_t, int8_t> (kernels/internal/reference/softmax.h) with
gemmlowp's fixed-point exp and reciprocal, as arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4
-DNDEBUG compiles them: Softmax calls the out-of-line
gemmlowp::exp_on_negative_values<long, 5> twice per element whose difference to the row
maximum is >= diff_min (sum pass, output pass), which calls
exp_on_interval_between_negative_one_quarter_and_0_excl<long>; GetReciprocal's
one_over_one_plus_x_for_x_in_0_1<long> runs once per row.

    max_in_row = max(input[c]); for each c with diff = input[c] - max_in_row >= diff_min:
        scaled = SaturatingRoundingDoublingHighMul(diff * 2^input_beta_left_shift, input_beta_multiplier)
        sum_of_exps += RoundingDivideByPOT(exp_on_negative_values(scaled), 12)   (Q12.19)
    headroom = clz(sum_of_exps); shifted_scale = one_over_one_plus_x((sum << headroom) - 2^31)
    exponent = 35 - headroom
    out[c] = clamp(RoundingDivideByPOT(SRDHM(shifted_scale, exp(scaled)), exponent) - 128)
             (or -128 when diff < diff_min)

Every SaturatingRoundingDoublingHighMul compiles to SMULL (or UMULL with MUL/MLA cross terms
where one operand is known non-negative), a sign test, the nudge ADDS/ADC or ADDS/SBC plus
the toward-zero fix ADDS/ADC of 2^31 - 1, then LSRS/ORR; the barrel shifter of
exp_on_negative_values is branch-free (UBFX/SBFX masks, SUBS/AND/ANDS/EOR selects).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, and_, asr, b, bcc, bic, bl, carry_of_add, clz, cmn, cmp,
                        eor, it, ldr_sp, ldrd_sp, ldrsb, lsl, lsr, mla, mov, mul, mvn, orr,
                        pop_pc, push, rsb, sbc, sbfx, smlal, smull, str_sp, strb, strd_sp, sub,
                        strh, sxtb, sxth, ubfx, umull)
from armsim.kernels.minmax import max_lt, min_ge

NAME = "tflite::reference_ops::Softmax<signed char, signed char>"
NAME_S8_S16 = "tflite::reference_ops::Softmax<signed char, short>"
EXP = "gemmlowp::exp_on_negative_values<long, 5>"
EXP_INTERVAL = "gemmlowp::exp_on_interval_between_negative_one_quarter_and_0_excl<long>"
RECIPROCAL = "gemmlowp::one_over_one_plus_x_for_x_in_0_1<long>"

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
NUDGE_NEG = 1 - (1 << 30)          # 0xC0000001


@kernel(inline=True)
def _toward_zero(m, lo, hi):
    """A negative 64-bit sum hi:lo plus 2^31 - 1 (MVN, ADDS, ADC), so that taking bits
    62..31 divides by 2^31 toward zero."""
    bias = mvn(m, INT32_MIN)
    carry = carry_of_add(lo, bias)
    lo = add(m, lo, bias)
    hi = adc(m, hi, 0, carry)
    return lo, hi


@kernel(inline=True)
def _high32(m, lo, hi, literal, back):
    """(int32)((ab_64 + nudge) / 2^31) once the 64-bit product hi:lo is formed and its sign
    tested: the non-negative path ADDS/ADC 2^30; the negative one (LDR of the 0xC0000001
    literal when `literal`) ADDS/SBC, and while still negative ADDS/ADC 2^31 - 1 (division
    toward zero), then B back to the join when `back`.  LSRS/ORR take bits 62..31."""
    negative = hi < 0
    if not negative:
        carry = carry_of_add(lo, 1 << 30)
        lo = add(m, lo, 1 << 30)
        hi = adc(m, hi, 0, carry)
    else:
        if literal:
            ldr_sp(m)                                    # ldr rX, =0xC0000001
        carry = carry_of_add(lo, NUDGE_NEG)
        lo = add(m, lo, NUDGE_NEG)
        hi = sbc(m, hi, 0, carry)
        cmp(m, hi, 0)
        bcc(m, hi >= 0)
        if hi < 0:
            lo, hi = _toward_zero(m, lo, hi)
    result = orr(m, lsr(m, lo, 31), hi << 1)
    if negative and back:
        b(m)
    return result


@kernel(inline=True)
def exp_on_interval_between_negative_one_quarter_and_0_excl(m, a):
    """exp(a) for a in [-1/4, 0) (Q0.31): Taylor series around -1/8."""
    x = add(m, a, 1 << 28)                               # a + 1/8
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, x, x)                      # x * x + nudge (x * x >= 0)
    cmp(m, hi, 0)
    push(m, 2)
    bcc(m, hi >= 0)
    if hi < 0:
        lo, hi = _toward_zero(m, lo, hi)
    sign = asr(m, hi, 31)
    x2 = orr(m, lsr(m, lo, 31), hi << 1)                 # x2 = x * x
    # x3 = x2 * x: 64-bit product from UMULL and the sign cross terms
    cross = mul(m, x, sign)
    x_sign = asr(m, x, 31)
    cross = mla(m, x2, x_sign, cross)
    lo, hi = umull(m, x, x2)
    hi = add(m, cross, hi)                               # adds (N flag: the product's sign)
    bcc(m, hi < 0)                                       # bmi
    x3 = _high32(m, lo, hi, True, True)
    # x4 = x2 * x2 (non-negative)
    lo, hi = umull(m, x2, x2)
    carry = carry_of_add(lo, 1 << 30)
    lo = add(m, lo, 1 << 30)
    cross = mul(m, x2, sign)
    hi = adc(m, hi, cross << 1, carry)
    x4 = orr(m, lsr(m, lo, 31), hi << 1)
    x4_over_4 = add(m, ubfx(m, x4, 1, 1), x4 >> 2)       # RoundingDivideByPOT(x4, 2), x4 >= 0
    ldr_sp(m)                                            # ldr =0x2AAAAAAB
    one_third = 715827883
    v = add(m, x4_over_4, x3)
    lo, hi = smull(m, v, one_third)
    cmp(m, hi, 0)
    bcc(m, hi < 0)
    v = _high32(m, lo, hi, True, True)
    w = add(m, v, x2)                                    # (...) * 1/3 + x2
    it(m, 1 if w >= 0 else 2)                            # ITTE: the other arm's instructions fail
    if w >= 0:                                           # SaturatingRoundingMultiplyByPOT<-1>
        bit = and_(m, w, 1)
        poly = add(m, bit, w >> 1)
    else:
        poly = asr(m, w, 1)
    ldr_sp(m)                                            # ldr =0x70F5A894
    constant_term = 1895147668
    s = add(m, x, poly)
    lo, hi = smull(m, s, constant_term)
    cmp(m, hi, 0)
    ldr_sp(m)                                            # ldr =0xC0000001
    it(m, 1 if hi >= 0 else 2)                           # ITTE: the other arm's instructions fail
    if hi >= 0:
        nudge_lo = mov(m, 1 << 30)
        nudge_hi = mov(m, 0)
    else:
        nudge_lo = NUDGE_NEG
        nudge_hi = mov(m, -1)
    carry = carry_of_add(lo, nudge_lo)
    lo = add(m, lo, nudge_lo)
    hi = adc(m, hi, nudge_hi, carry)
    cmp(m, hi, 0)
    bcc(m, hi < 0)
    if hi < 0:                                           # division toward zero
        lo, hi = _toward_zero(m, lo, hi)
    ldr_sp(m)                                            # ldr =0x70F5A894
    high = orr(m, lsr(m, lo, 31), hi << 1)
    result = add(m, constant_term, high)                 # constant_term + constant_term * (x + poly)
    pop_pc(m, 2)
    return result


@kernel(inline=True)
def exp_on_negative_values(m, a):
    """exp(a) for a <= 0 in Q5.26, result in Q0.31."""
    push(m, 4)
    a_mod = orr(m, a, -16777216)                         # (a & (1/4 - 1)) - 1/4  ==  a | 0xFF000000
    mov(m, a)
    arg = lsl(m, a_mod, 5)                               # Rescale<0>: Q5.26 -> Q0.31
    bl(m)
    result = exp_on_interval_between_negative_one_quarter_and_0_excl(m, arg)
    remainder = 0
    zero = 0
    for stage in range(7):                               # GEMMLOWP_EXP_BARREL_SHIFTER(-2 .. +4)
        if stage == 0:
            multiplier = 1672461947
        elif stage == 1:
            multiplier = 1302514674
        elif stage == 2:
            multiplier = 790015084
        elif stage == 3:
            multiplier = 290630308
        elif stage == 4:
            multiplier = 39332535
        elif stage == 5:
            multiplier = 720401
        else:
            multiplier = 242
        if stage < 6:
            ldr_sp(m)                                    # ldr rX, =multiplier (literal pool)
        else:
            mov(m, multiplier)                           # movs r2, #242
        if stage == 0:
            mov(m, result)
        lo, hi = smull(m, result, multiplier)
        if stage == 0:
            remainder = sub(m, a_mod, a)                 # a_mod_quarter_minus_one_quarter - a
        cmp(m, hi, 0)
        bit = ubfx(m, remainder, 24 + stage, 1)
        mask = sbfx(m, remainder, 24 + stage, 1)         # MaskIfNonZero(remainder & (1 << k))
        bcc(m, hi < 0)
        product = _high32(m, lo, hi, True, True)
        if stage == 6:
            zero = clz(m, a)
        not_mask = sub(m, bit, 1)
        picked = and_(m, mask, product)
        kept = and_(m, not_mask, result)
        if stage == 6:
            zero = lsr(m, zero, 5)                       # a == 0
        result = eor(m, kept, picked)                    # SelectUsingMask(mask, product, result)
    keep = sub(m, zero, 1)
    one = rsb(m, zero, 0)
    result = and_(m, result, keep)
    one = bic(m, one, INT32_MIN)                         # a == 0 ? One (INT32_MAX) : 0
    result = eor(m, result, one)
    pop_pc(m, 4)
    return result


@kernel(inline=True)
def newton_raphson_half_denominator(m, a):
    """gemmlowp's shared start of one_over_one_plus_x_for_x_in_0_1 and
    one_minus_x_over_one_plus_x_for_x_in_0_1 (a in [0, 1), Q0.31): the frame, half the
    denominator and three Newton-Raphson steps; returns x ~ 1 / half_denominator (Q2.29).
    Each caller adds its own ending and the frame's return."""
    a_sign = asr(m, a, 31)
    cmp(m, a_sign, -1)
    it(m, a_sign != -1)                                  # CMPEQ fails for a >= 0
    if a_sign == -1:
        cmp(m, a, INT32_MIN)
    push(m, 3)
    bcc(m, a == INT32_MIN)
    if a == INT32_MIN:                                   # RoundingHalfSum(-1, 1) ... = -1
        half = mov(m, -1)
        x = mov(m, 1515870810)
        half_hi = mov(m, -1)
        b(m)
    else:
        # half_denominator = RoundingHalfSum(a, One) = (a + 2^31 - 1 + sign) / 2 (64-bit)
        s = a + INT32_MAX
        s = (s + 1) // 2 if s >= 0 else -((-s + 1) // 2)
        carry = carry_of_add(a, INT32_MIN)
        lo = add(m, a, INT32_MIN)
        hi = adc(m, a_sign, 0, carry)
        half = orr(m, lsr(m, lo, 1), hi << 31)
        half_hi = asr(m, hi, 1)
        orr(m, half, half_hi)
        half = s
        bcc(m, half == 0)
        if half == 0:
            x = mov(m, 1515870810)
            b(m)
        else:
            ldr_sp(m)                                    # ldr =0xC3C3C3C4 (-32/17)
            c = -1010580540
            hi = rsb(m, half, 0)
            hi = mla(m, c, half_hi, hi)
            lo, h = umull(m, half, c)
            hi = add(m, hi, h)
            x = _high32(m, lo, hi, True, False)          # half_denominator * (-32/17)
            x = add(m, x, 1515870810)                    # + 48/17
    ldr_sp(m)                                            # ldr r4, =0xC0000001
    count = mov(m, 3)
    b(m)
    while True:                                          # for (int i = 0; i < 3; i++)
        x_sign = asr(m, x, 31)
        cross = mul(m, x, half_hi)
        cross = mla(m, half, x_sign, cross)
        lo, h = umull(m, x, half)
        hi = add(m, cross, h)
        bcc(m, hi < 0)                                   # bmi
        hdx = _high32(m, lo, hi, False, True)            # half_denominator * x
        one_minus = rsb(m, hdx, 1 << 29)                 # F2::One() - half_denominator * x
        lo, hi = smull(m, one_minus, x)
        cmp(m, hi, 0)
        bcc(m, hi >= 0)
        p = _high32(m, lo, hi, False, False)             # x * one_minus... (Q4)
        if hi >= 0:
            cmp(m, p, 1 << 29)                           # Rescale<2>: saturating << 2
            bcc(m, p >= (1 << 29))
            if p >= (1 << 29):
                p = mvn(m, INT32_MIN)
                b(m)
            else:
                p = lsl(m, p, 2)
            count = sub(m, count, 1)
            x = add(m, x, p)
            bcc(m, count == 0)
        else:
            cmp(m, p, -(1 << 29))
            saturated = p <= -(1 << 29)
            it(m, not saturated)
            if saturated:
                p = mov(m, INT32_MIN)
            bcc(m, not saturated)                        # bgt -> the LSLS/SUBS/ADD/BEQ tail
            if not saturated:
                p = lsl(m, p, 2)
            count = sub(m, count, 1)
            x = add(m, x, p)
            bcc(m, (count == 0) if not saturated else (count != 0))
        if count == 0:
            break
    return x


@kernel(inline=True)
def one_over_one_plus_x_for_x_in_0_1(m, a):
    """1 / (1 + a) for a in [0, 1) (Q0.31): Newton-Raphson on half the denominator."""
    x = newton_raphson_half_denominator(m, a)
    cmp(m, x, 1 << 30)                                   # Rescale<0>(ExactMulByPot<-1>(x))
    bcc(m, x >= (1 << 30))
    if x >= (1 << 30):
        result = mvn(m, INT32_MIN)
    else:
        cmp(m, x, -(1 << 30))
        bcc(m, x <= -(1 << 30))
        if x <= -(1 << 30):
            result = mov(m, INT32_MIN)
        else:
            result = add(m, x, x)
    pop_pc(m, 3)
    return result


@kernel(inline=True)
def _extend(m, x, int16_output):
    """static_cast<OutputT>: SXTH or SXTB."""
    if int16_output:
        return sxth(m, x, 0)
    return sxtb(m, x, 0)


@kernel(inline=True)
def _store(m, address, x, int16_output):
    if int16_output:
        strh(m, address, x)
    else:
        strb(m, address, x)


@kernel
def Softmax(m, input_beta_multiplier, input_beta_left_shift, diff_min, input_data, outer_size,
            depth, output_data, int16_output):
    """OutputT int8_t, or int16_t when `int16_output` (Softmax<int8_t, int16_t>: exponent
    16 lower, the int16 limits, STRH)."""
    out_bytes = 2 if int16_output else 1
    out_min = -32768 if int16_output else -128
    out_max = 32767 if int16_output else 127
    push(m, 9)
    ldr_sp(m)
    ldr_sp(m)
    cmp(m, 2, 0)
    ldrd_sp(m)
    sub(m, 0, 44)
    add(m, 2, -1)
    bcc(m, False)
    size = mov(m, 1)                                     # MatchingFlatSizeSkipDim over [outer, depth]
    i = mov(m, 0)
    add(m, 0, 4)
    while True:
        cmp(m, 1, i)
        last = i == 1
        it(m, last)                                      # the skipped dim: LDRNE fails
        if not last:
            ldr_sp(m)
        i = add(m, i, 1)
        it(m, last)                                      # ... and MULNE
        if not last:
            size = mul(m, outer_size, size)
        cmp(m, i, 2)
        bcc(m, i != 2)
        if i == 2:
            break
    add(m, 0, 0)
    add(m, 0, 0)
    ldr_sp(m)
    ldr_sp(m)
    cmp(m, depth, depth)                                 # MatchingDim(input, last, output, last)
    it(m, 0)                                             # std::min of two equal dims: MOVGE holds
    mov(m, depth)
    cmp(m, outer_size, 0)
    str_sp(m)
    bcc(m, outer_size <= 0)
    if outer_size > 0:
        mov(m, input_data)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        str_sp(m)
        add(m, output_data, depth)
        add(m, input_data, depth)
        str_sp(m)
        row = 0
        while True:                                      # for (int i = 0; i < outer_size; ++i)
            row_in = input_data + row * depth
            row_out = output_data + row * depth * out_bytes
            ldr_sp(m)
            cmp(m, depth, 0)
            bcc(m, depth <= 0)
            if depth > 0:
                ldr_sp(m)
                max_in_row = mvn(m, 127)                 # numeric_limits<int8_t>::min()
                c = 0
                while True:                              # max_in_row = max(max_in_row, input[c])
                    v = ldrsb(m, row_in + c)
                    c += 1
                    max_in_row = max_lt(m, max_in_row, v)
                    cmp(m, row_in + depth, row_in + c)
                    bcc(m, c != depth)
                    if c == depth:
                        break
                ldr_sp(m)
                sum_of_exps = mov(m, 0)
                b(m)
                c = 0
                while True:                              # sum pass
                    v = ldrsb(m, row_in + c)
                    c += 1
                    diff = sub(m, v, max_in_row)
                    cmp(m, diff_min, diff)
                    bcc(m, diff_min > diff)
                    if diff >= diff_min:
                        shifted = lsl(m, diff, input_beta_left_shift)
                        cmp(m, input_beta_multiplier, shifted)
                        bcc(m, input_beta_multiplier == shifted)
                        if input_beta_multiplier == shifted and shifted == INT32_MIN:
                            cmp(m, input_beta_multiplier, INT32_MIN)
                            bcc(m, False)
                            scaled = mvn(m, INT32_MIN)
                            b(m)
                        else:
                            if input_beta_multiplier == shifted:
                                cmp(m, input_beta_multiplier, INT32_MIN)
                                bcc(m, True)
                            lo, hi = smull(m, shifted, input_beta_multiplier)
                            cmp(m, hi, 0)
                            bcc(m, hi >= 0)
                            scaled = _high32(m, lo, hi, True, True)
                        bl(m)
                        e = exp_on_negative_values(m, scaled)
                        cmp(m, e, 0)                     # Rescale<12>: RoundingDivideByPOT(e, 12)
                        remainder = ubfx(m, e, 0, 12)
                        threshold = mov(m, 2047)
                        q = asr(m, e, 12)
                        it(m, e >= 0)                    # the MOV fails unless e < 0
                        if e < 0:
                            threshold = mov(m, 2048)
                        cmp(m, remainder, threshold)
                        it(m, remainder <= threshold)    # the ADD fails unless it rounds up
                        if remainder > threshold:
                            q = add(m, q, 1)
                        sum_of_exps = add(m, sum_of_exps, q)
                    cmp(m, row_in + depth, row_in + c)
                    bcc(m, c == depth)
                    if c == depth:
                        break
                # GetReciprocal(sum_of_exps, 12, &num_bits_over_unit)
                headroom = clz(m, sum_of_exps)
                shifted_sum = lsl(m, sum_of_exps, headroom)
                shifted_sum_minus_one = add(m, shifted_sum, INT32_MIN)
                bl(m)
                shifted_scale = one_over_one_plus_x_for_x_in_0_1(m, shifted_sum_minus_one)
                # num_bits_over_unit + 31 - 8 * sizeof(OutputT)
                exponent = rsb(m, headroom, 35 - 8 * (out_bytes - 1))
                cmp(m, exponent, 31)
                mov(m, shifted_scale)
                bcc(m, exponent < 0 or exponent > 31)    # TFLITE_CHECK(0 <= exponent <= 31)
                one = mov(m, 1)
                mask = lsl(m, one, exponent)
                mask = add(m, mask, -1)
                half = asr(m, mask, one)
                str_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                add(m, row_in, -1)
                strd_sp(m)
                ldr_sp(m)
                mov(m, 0)
                add(m, row_out, 0)
                mov(m, 0)
                mov(m, 0)
                c = 0
                while True:                              # output pass
                    v = ldrsb(m, row_in + c)
                    diff = sub(m, v, max_in_row)
                    cmp(m, diff_min, diff)
                    bcc(m, diff_min > diff)
                    if diff < diff_min:
                        out = mvn(m, -out_min - 1)       # numeric_limits<OutputT>::min()
                        _store(m, row_out + c * out_bytes, out, int16_output)
                        b(m)
                    else:
                        shifted = lsl(m, diff, input_beta_left_shift)
                        cmp(m, input_beta_multiplier, shifted)
                        bcc(m, input_beta_multiplier == shifted)
                        if input_beta_multiplier == shifted:
                            cmp(m, input_beta_multiplier, INT32_MIN)
                            bcc(m, input_beta_multiplier != INT32_MIN)
                        if input_beta_multiplier == shifted and shifted == INT32_MIN:
                            scaled = mvn(m, INT32_MIN)
                            b(m)
                            negative = False
                        else:
                            lo, hi = smull(m, shifted, input_beta_multiplier)
                            negative = hi < 0
                            cmp(m, hi, 0)
                            bcc(m, negative)
                            scaled = _high32(m, lo, hi, True, False)
                        bl(m)
                        e = exp_on_negative_values(m, scaled)
                        cmp(m, e, shifted_scale)         # SRDHM overflow test
                        bcc(m, (e == shifted_scale) != negative)
                        if e == shifted_scale:
                            cmp(m, shifted_scale, INT32_MIN)
                            bcc(m, shifted_scale != INT32_MIN)
                        if e == shifted_scale and e == INT32_MIN:
                            ldr_sp(m)
                            ldr_sp(m)
                            prod = mvn(m, INT32_MIN)
                            unsat = asr(m, prod, exponent)
                            ldr_sp(m)
                            cmp(m, mask, half)
                            it(m, (mask & prod) <= half)
                            if (mask & prod) > half:
                                unsat = add(m, unsat, 1)
                            shifted_output = sub(m, unsat, -out_min)
                            shifted_output = min_ge(m, shifted_output, out_max)
                            out = _extend(m, shifted_output, int16_output)
                            b(m)
                            _store(m, row_out + c * out_bytes, out, int16_output)
                        else:
                            lo, hi = smull(m, shifted_scale, e)
                            cmp(m, hi, 0)
                            bcc(m, hi < 0)
                            prod = _high32(m, lo, hi, True, True)
                            ldr_sp(m)
                            remainder = and_(m, mask, prod)
                            ldr_sp(m)
                            threshold = add(m, half, (prod >> 31) & 1)   # (x < 0) via LSR #31
                            ldr_sp(m)
                            unsat = asr(m, prod, exponent)
                            cmp(m, remainder, threshold)
                            it(m, remainder <= threshold)    # the ADD fails unless it rounds up
                            if remainder > threshold:
                                unsat = add(m, unsat, 1)
                            shifted_output = sub(m, unsat, -out_min)      # + numeric_limits<OutputT>::min()
                            cmp(m, shifted_output, out_max)
                            bcc(m, shifted_output > out_max)
                            if shifted_output > out_max:
                                shifted_output = mov(m, out_max)
                            else:
                                cmn(m, shifted_output, -out_min)
                                bcc(m, shifted_output >= out_min)
                                if shifted_output < out_min:
                                    shifted_output = mvn(m, -out_min - 1)
                                    b(m)
                            if shifted_output >= out_min:
                                shifted_output = _extend(m, shifted_output, int16_output)
                            _store(m, row_out + c * out_bytes, shifted_output, int16_output)
                    c += 1
                    cmp(m, c, depth)
                    bcc(m, c != depth)
                    if c == depth:
                        break
                mov(m, 0)
                ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            add(m, 0, depth)
            str_sp(m)
            ldr_sp(m)
            add(m, 0, depth)
            add(m, 0, depth)
            add(m, 0, depth)
            ldr_sp(m)
            str_sp(m)
            row = add(m, row, 1)
            cmp(m, outer_size, row)
            str_sp(m)
            bcc(m, outer_size > row)
            if row >= outer_size:
                break
    add(m, 0, 44)
    pop_pc(m, 9)


def run_reference(m, case, addr, tracer):
    run(Softmax, m, case["mult"], case["shift"], case["diff_min"], addr["input"],
        case["num_rows"], case["row_size"], addr["output"], False, tracer=tracer)
    return [NAME, EXP, EXP_INTERVAL, RECIPROCAL]


def run_reference_s8_s16(m, case, addr, tracer=None):
    """Softmax<int8_t, int16_t> (softmax.cc SoftmaxQuantized, int8 in, int16 out)."""
    run(Softmax, m, case["mult"], case["shift"], case["diff_min"], addr["input"],
        case["num_rows"], case["row_size"], addr["output"], True, tracer=tracer)
    return [NAME_S8_S16, EXP, EXP_INTERVAL, RECIPROCAL]
