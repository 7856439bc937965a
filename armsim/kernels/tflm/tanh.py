"""TFLite Micro's int8 TANH (tanh.cc -> reference_integer_ops::Tanh,
kernels/internal/reference/integer_ops/tanh.h) with gemmlowp's fixed-point tanh, counted.

    input = in[i] - input_zero_point
    input <= -radius: -128;  input >= radius: 127;  else
      q4 = MultiplyByQuantizedMultiplier(input, input_multiplier, input_left_shift)
      r  = gemmlowp::tanh(FixedPoint<int32, 4>(q4)).raw()               (Q0.31)
      out = clamp(RoundingDivideByPOT(r, 24), -128, 127)

gemmlowp::tanh(a) = a == 0 ? 0 : a < 0 ? -t : t with t = neg_tanh_on_negative_values(-|a|)
= one_minus_x_over_one_plus_x_for_x_in_0_1(exp_on_negative_values(ExactMulByPot<1>(-|a|)))
-- the exponential of the same raw value read with 5 integer bits, i.e. SOFTMAX's
exp_on_negative_values port.  one_minus_x_over_one_plus_x is SOFTMAX's Newton-Raphson port
with gemmlowp's other ending (x - 1, a saturating shift by 2).  The loop, the selects and
the final rounding are estimates of the compiled code (not read off a listing), as is the
new ending.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, asr, b, bcc, bl, carry_of_add, cmp, it, ldr_sp, ldrsb,
                            lsl, lsr, mla, mov, mul, mvn, orr, pop_pc, push, rsb, smull, strb,
                            sub, ubfx, umull)
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.softmax import _high32, exp_on_negative_values

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1


@kernel(inline=True)
def one_minus_x_over_one_plus_x_for_x_in_0_1(m, a):
    """(1 - a) / (1 + a) for a in [0, 1) (Q0.31): SOFTMAX's one_over_one_plus_x port (the
    same Newton-Raphson on half the denominator), ending in Rescale<0>(x - F2::One())."""
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
    x = sub(m, x, 1 << 29)                               # x - F2::One()
    cmp(m, x, (1 << 29) - 1)                             # Rescale<0>: saturating << 2
    bcc(m, x > (1 << 29) - 1)
    if x > (1 << 29) - 1:
        result = mvn(m, INT32_MIN)
    else:
        cmp(m, x, -((1 << 29) - 1))
        bcc(m, x < -((1 << 29) - 1))
        if x < -((1 << 29) - 1):
            result = mov(m, INT32_MIN)
        else:
            result = lsl(m, x, 2)
    pop_pc(m, 3)
    return result


@kernel
def tanh_s8(m, inp, out, size, input_zp, radius, mult, left_shift):
    push(m, 8)
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        rsb(m, radius, 0)                                # -input_range_radius
        add(m, inp, -1)
        add(m, out, -1)
    for i in range(size):
        x = ldrsb(m, inp + i)
        x = sub(m, x, input_zp)                          # input_data[i] - input_zero_point
        cmp(m, x, -radius)
        bcc(m, x <= -radius)
        if x <= -radius:
            o = mvn(m, 127)                              # kMinInt8
        else:
            cmp(m, x, radius)
            bcc(m, x >= radius)
            if x >= radius:
                o = mov(m, 127)                          # kMaxInt8
            else:
                mov(m, mult)
                mov(m, left_shift)
                bl(m)
                a = MultiplyByQuantizedMultiplier(m, x, mult, left_shift)
                # gemmlowp::tanh: masks, n = -|a|, exp(2n), (1 - x) / (1 + x), the selects
                cmp(m, a, 0)
                negative = a < 0
                it(m, 1)                                 # ITE: a or -a
                n = mov(m, a) if negative else rsb(m, a, 0)
                bl(m)
                e = exp_on_negative_values(m, n)         # ExactMulByPot<1>: read as Q5.26
                bl(m)
                t = one_minus_x_over_one_plus_x_for_x_in_0_1(m, e)
                neg_t = rsb(m, t, 0)
                cmp(m, a, 0)
                it(m, 1)                                 # ITE: -t or t
                r = mov(m, neg_t) if negative else mov(m, t)
                it(m, a != 0)
                if a == 0:
                    r = mov(m, 0)
                # RoundingDivideByPOT(r, 24) and the clamps
                rem = ubfx(m, r, 0, 24)
                sign = lsr(m, r, 31)
                q = asr(m, r, 24)
                threshold = add(m, sign, (1 << 23) - 1)
                cmp(m, rem, threshold)
                it(m, rem <= threshold)
                if rem > threshold:
                    q = add(m, q, 1)
                o = q
                cmp(m, o, -128)
                it(m, o >= -128)
                if o < -128:
                    o = mov(m, -128)
                cmp(m, o, 127)
                it(m, o < 127)
                if o >= 127:
                    o = mov(m, 127)
        strb(m, out + i, o)
        cmp(m, i + 1, size)
        bcc(m, i + 1 < size)
    pop_pc(m, 8)
    return 0


def run_reference(m, case, addr, tracer=None):
    run(tanh_s8, m, addr["input"], addr["output"], case["size"], case["input_zp"],
        case["radius"], case["multiplier"], case["left_shift"], tracer=tracer)
    return ["reference_integer_ops::Tanh", "gemmlowp::tanh<int, 4>"]
