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
from armsim.cpu.ops import (add, asr, bcc, bl, cmp, it, ldrsb,
                            lsl, lsr, mov, mvn, pop_pc, push, rsb, strb,
                            sub, ubfx)
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.softmax import exp_on_negative_values, newton_raphson_half_denominator

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1


@kernel(inline=True)
def one_minus_x_over_one_plus_x_for_x_in_0_1(m, a):
    """(1 - a) / (1 + a) for a in [0, 1) (Q0.31): SOFTMAX's one_over_one_plus_x port (the
    same Newton-Raphson on half the denominator), ending in Rescale<0>(x - F2::One())."""
    x = newton_raphson_half_denominator(m, a)
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
