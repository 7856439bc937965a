"""gemmlowp's fixed-point primitives and TFLM's common.h additions as the reference ports
inline them (kernels/tflm/l2norm.py, log_softmax.py): SaturatingRoundingDoublingHighMul with
softmax.py's compiled nudge / high-word sequence; the others are estimates from the C (no
compiled listing): masks and selects as CMP / IT / MOV, 64-bit sums as ADDS / ADC.  The
results are exact."""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (adc, add, and_, asr, bcc, carry_of_add, carry_of_sub, cmp, it, lsl,
                            lsr, mov, mvn, orr, rsb, sbc, smull, sub)
from armsim.kernels.tflm.softmax import _high32

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1


@kernel(inline=True)
def srdhm(m, a, b):
    """gemmlowp::SaturatingRoundingDoublingHighMul(a, b): the INT32_MIN x INT32_MIN test,
    SMULL, the sign test and softmax.py's nudge / high-word sequence."""
    cmp(m, a, b)
    overflow = a == b and a == INT32_MIN
    bcc(m, a == b)
    if a == b:
        cmp(m, a, INT32_MIN)
        bcc(m, overflow)
    if overflow:
        return mvn(m, INT32_MIN)
    lo, hi = smull(m, a, b)
    cmp(m, hi, 0)
    bcc(m, hi < 0)
    return _high32(m, lo, hi, False, True)


@kernel(inline=True)
def saturating_multiply_by_pot(m, x, exponent):
    """gemmlowp::SaturatingRoundingMultiplyByPOT<exponent> (exponent > 0): x << exponent,
    INT32_MAX above the threshold, INT32_MIN below -threshold (mask selects)."""
    threshold = (1 << (31 - exponent)) - 1
    cmp(m, x, threshold)                                # MaskIfGreaterThan
    it(m, x > threshold)
    cmp(m, x, -threshold)                               # MaskIfLessThan
    it(m, x < -threshold)
    result = lsl(m, x, exponent)
    if x > threshold:
        result = mvn(m, INT32_MIN)
    elif x < -threshold:
        result = mov(m, INT32_MIN)
    return result


@kernel(inline=True)
def rounding_divide_by_pot(m, x, exponent):
    """gemmlowp::RoundingDivideByPOT(x, exponent)."""
    mask = (1 << exponent) - 1
    remainder = and_(m, x, mask)
    threshold = add(m, lsr(m, x, 31), mask >> 1)        # (mask >> 1) + (x < 0)
    result = asr(m, x, exponent)
    cmp(m, remainder, threshold)
    it(m, remainder > threshold)
    if remainder > threshold:
        result = add(m, result, 1)
    return result


@kernel(inline=True)
def saturating_multiply_by_pot_param(m, x, exponent):
    """TFLM's SaturatingRoundingMultiplyByPOTParam(x, exponent >= 0): x when 0, else the
    threshold (1 << (31 - exponent)) - 1 computed, then the saturating left shift."""
    cmp(m, exponent, 0)
    bcc(m, exponent == 0)
    if exponent == 0:
        return x
    threshold = sub(m, lsl(m, mov(m, 1), rsb(m, exponent, 31)), 1)
    cmp(m, x, threshold)                                # MaskIfGreaterThan
    it(m, x > threshold)
    cmp(m, x, -threshold)                               # MaskIfLessThan
    it(m, x < -threshold)
    result = lsl(m, x, exponent)
    if x > threshold:
        result = mvn(m, INT32_MIN)
    elif x < -threshold:
        result = mov(m, INT32_MIN)
    return result


@kernel(inline=True)
def _sum64(m, a, b, subtract):
    """a + b (or a - b) as a 64-bit hi:lo: the operands' sign words (ASR #31) and
    ADDS / ADC (SUBS / SBC)."""
    a_hi = asr(m, a, 31)
    b_hi = asr(m, b, 31)
    if subtract:
        lo = sub(m, a, b)
        hi = sbc(m, a_hi, b_hi, carry_of_sub(a, b))
    else:
        lo = add(m, a, b)
        hi = adc(m, a_hi, b_hi, carry_of_add(a, b))
    return lo, hi


@kernel(inline=True)
def _clamp64(m, lo, hi):
    """A 64-bit hi:lo clamped to int32 (std::min / std::max in 64 bits: CMP, SBCS and a
    predicated MOV each)."""
    above = hi > 0 or (hi == 0 and lo < 0)              # > INT32_MAX
    below = hi < -1 or (hi == -1 and lo >= 0)           # < INT32_MIN
    cmp(m, lo, INT32_MAX)
    sbc(m, hi, 0, carry_of_sub(lo, INT32_MAX))
    it(m, above)
    if above:
        return mvn(m, INT32_MIN)
    cmp(m, lo, INT32_MIN)
    sbc(m, hi, -1, carry_of_sub(lo, INT32_MIN))
    it(m, below)
    if below:
        return mov(m, INT32_MIN)
    return lo


@kernel(inline=True)
def saturating_add(m, a, b):
    """SaturatingAddNonGemmlowp(a, b): the 64-bit sum clamped to int32."""
    lo, hi = _sum64(m, a, b, False)
    return _clamp64(m, lo, hi)


@kernel(inline=True)
def saturating_sub(m, a, b):
    """SaturatingSub(a, b): the 64-bit difference clamped to int32."""
    lo, hi = _sum64(m, a, b, True)
    return _clamp64(m, lo, hi)


@kernel(inline=True)
def rounding_half_sum(m, a, b):
    """gemmlowp::RoundingHalfSum(a, b) = (a + b + sign) / 2 in 64 bits, toward zero."""
    lo, hi = _sum64(m, a, b, False)
    cmp(m, hi, 0)
    it(m, hi >= 0)
    sign = mov(m, 1 if hi >= 0 else -1)                 # sum >= 0 ? 1 : -1
    carry = carry_of_add(lo, sign)
    lo = add(m, lo, sign)
    hi = adc(m, hi, asr(m, sign, 31), carry)
    negative = lsr(m, hi, 31)                           # / 2 toward zero
    carry = carry_of_add(lo, negative)
    lo = add(m, lo, negative)
    hi = adc(m, hi, 0, carry)
    return orr(m, lsr(m, lo, 1), lsl(m, hi, 31))
