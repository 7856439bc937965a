"""TFLite Micro's int8 LOGISTIC (logistic.cc -> reference_integer_ops::Logistic,
kernels/internal/reference/integer_ops/logistic.h) with gemmlowp's fixed-point logistic,
counted.

    input = in[i] - input_zero_point
    input <= -radius: -128;  input >= radius: 127;  else
      q4 = MultiplyByQuantizedMultiplier(input, input_multiplier, input_left_shift)
      r  = gemmlowp::logistic(FixedPoint<int32, 4>(q4)).raw()          (Q0.31)
      out = clamp(RoundingDivideByPOT(r, 23) - 128, -128, 127)

gemmlowp::logistic(a) = a == 0 ? 1/2 : a > 0 ? p : One - p with p =
one_over_one_plus_x_for_x_in_0_1(exp_on_negative_values<4>(-|a|)).  The two gemmlowp
helpers shared with SOFTMAX (exp_on_interval_between_negative_one_quarter_and_0_excl,
one_over_one_plus_x_for_x_in_0_1) are the ports in armsim.kernels.tflm.softmax, read off
their gcc -O2 disassembly; exp_on_negative_values is written here for 4 integer bits (6
barrel-shifter stages, Q4.27) in the same instruction shape as SOFTMAX's 5-bit one.  The
loop around them, the selects of gemmlowp::logistic and the final rounding are estimates
of the compiled code (not read off a listing).  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, and_, asr, bcc, bic, bl, clz, cmp, eor, it, ldr_sp,
                            ldrsb, lsl, lsr, mov, mvn, orr, pop_pc, push, rsb, sbfx, smull,
                            strb, sub, ubfx)
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.softmax import (
    _high32, exp_on_interval_between_negative_one_quarter_and_0_excl,
    one_over_one_plus_x_for_x_in_0_1)

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
#: GEMMLOWP_EXP_BARREL_SHIFTER multipliers, exponents -2 .. +4 (exp(-2^e) in Q0.31)
_EXP_MULTIPLIERS = (1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242)


@kernel(inline=True)
def exp_on_negative_values_q(m, a, integer_bits):
    """gemmlowp::exp_on_negative_values<int32, integer_bits>(a) for a <= 0, Q0.31 result:
    the quarter residue through exp_on_interval_..., then one barrel-shifter stage per
    exponent -2 .. integer_bits - 1 (no clamp below 6 integer bits), One for a == 0."""
    fractional = 31 - integer_bits
    quarter = 1 << (fractional - 2)
    push(m, 4)
    a_mod = orr(m, a, -quarter)                          # (a & (1/4 - 1)) - 1/4
    mov(m, a)
    arg = lsl(m, a_mod, integer_bits)                    # Rescale<0>
    bl(m)
    result = exp_on_interval_between_negative_one_quarter_and_0_excl(m, arg)
    remainder = 0
    zero = 0
    stages = integer_bits + 2
    for stage in range(stages):
        multiplier = _EXP_MULTIPLIERS[stage]
        if multiplier > 255:
            ldr_sp(m)                                    # ldr rX, =multiplier (literal pool)
        else:
            mov(m, multiplier)
        if stage == 0:
            mov(m, result)
        lo, hi = smull(m, result, multiplier)
        if stage == 0:
            remainder = sub(m, a_mod, a)                 # a_mod_quarter_minus_one_quarter - a
        cmp(m, hi, 0)
        shift = fractional - 2 + stage                   # kFractionalBits + Exponent
        bit = ubfx(m, remainder, shift, 1)
        mask = sbfx(m, remainder, shift, 1)              # MaskIfNonZero(remainder & (1 << k))
        bcc(m, hi < 0)
        product = _high32(m, lo, hi, True, True)
        if stage == stages - 1:
            zero = clz(m, a)
        not_mask = sub(m, bit, 1)
        picked = and_(m, mask, product)
        kept = and_(m, not_mask, result)
        if stage == stages - 1:
            zero = lsr(m, zero, 5)                       # a == 0
        result = eor(m, kept, picked)                    # SelectUsingMask(mask, product, result)
    keep = sub(m, zero, 1)
    one = rsb(m, zero, 0)
    result = and_(m, result, keep)
    one = bic(m, one, INT32_MIN)                         # a == 0 ? One (INT32_MAX) : 0
    result = eor(m, result, one)
    pop_pc(m, 4)
    return result


@kernel
def logistic_s8(m, inp, out, size, input_zp, radius, mult, left_shift):
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
                # gemmlowp::logistic: masks, |a|, exp and 1 / (1 + x), the selects
                cmp(m, a, 0)
                positive = a > 0
                it(m, 1)                                 # ITE: -a or a
                neg_abs = rsb(m, a, 0) if positive else mov(m, a)   # -|a|
                bl(m)
                e = exp_on_negative_values_q(m, neg_abs, 4)
                bl(m)
                p = one_over_one_plus_x_for_x_in_0_1(m, e)
                one = mvn(m, INT32_MIN)
                negative_result = sub(m, one, p)        # One - result_if_positive
                cmp(m, a, 0)
                it(m, 1)                                 # ITE: the positive or negative one
                r = mov(m, p) if positive else mov(m, negative_result)
                cmp(m, a, 0)
                it(m, a != 0)
                if a == 0:
                    r = mov(m, 1 << 30)                  # one_half
                # RoundingDivideByPOT(r, 23), then + kOutputZeroPoint and the clamps
                mask = ubfx(m, r, 0, 23)                 # remainder = r & (2^23 - 1)
                sign = lsr(m, r, 31)
                q = asr(m, r, 23)
                threshold = add(m, sign, (1 << 22) - 1)
                cmp(m, mask, threshold)
                it(m, mask <= threshold)
                if mask > threshold:
                    q = add(m, q, 1)
                o = sub(m, q, 128)
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
    run(logistic_s8, m, addr["input"], addr["output"], case["size"], case["input_zp"],
        case["radius"], case["multiplier"], case["left_shift"], tracer=tracer)
    return ["reference_integer_ops::Logistic", "gemmlowp::logistic<int, 4>"]
