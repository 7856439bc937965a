"""arm_nn_one_over_one_plus_x_for_x_in_0_1 (Include/arm_nnsupportfunctions.h), ONE_OVER1:
1 / (1 + x) for x in [0, 1) in Q0.31, Newton-Raphson (gemmlowp).

    const int64_t sum = (int64_t)val + (int64_t)NN_Q31_MAX;
    const int32_t half_denominator = (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2L);
    int32_t x = 1515870810 + MUL_SAT(half_denominator, -1010580540);
    const int32_t shift = (1 << 29);
    x += MUL_POW2(MUL_SAT(x, shift - MUL_SAT(half_denominator, x)), 2);   // three times
    return MUL_POW2(x, 1);

The 64-bit sum and its rounding halving are ADDS/ADC pairs on (lo, hi) and a shift pair.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import adc, add, asr, carry_of_add, cmp, it, lsr, mvn, orr, rsb

from .arm_nn_doubling_high_mult import arm_nn_doubling_high_mult
from .arm_nn_mult_by_power_of_two import arm_nn_mult_by_power_of_two


@kernel
def arm_nn_one_over_one_plus_x_for_x_in_0_1(m, val):
    hi = asr(m, val, 31)                                   # (int64_t)val
    carry = carry_of_add(val, 0x7FFFFFFF)
    lo = add(m, val, 0x7FFFFFFF)                           # sum = val + NN_Q31_MAX  (ADDS / ADC)
    hi = adc(m, hi, 0, carry)
    cmp(m, hi, 0)                                          # sum >= 0 ? 1 : -1
    it(m, hi >= 0)                                         # IT LT: the MVN fails when sum >= 0
    if hi >= 0:
        one_lo, one_hi = 1, 0
    else:
        one_lo, one_hi = -1, -1
        one_hi = mvn(m, 0)
    carry = carry_of_add(lo, one_lo)
    lo = add(m, lo, one_lo)                                # sum + (+-1)  (ADDS / ADC)
    hi = adc(m, hi, one_hi, carry)
    # (...) / 2L: add the sign bit, then bits [32:1]
    sign = lsr(m, hi, 31)
    carry = carry_of_add(lo, sign)
    lo = add(m, lo, sign)
    hi = adc(m, hi, 0, carry)
    half_denominator = orr(m, lsr(m, lo, 1), hi << 31)     # (int32_t)(... / 2L)
    x = add(m, arm_nn_doubling_high_mult(m, half_denominator, -1010580540, True), 1515870810)
    shift = 1 << 29
    for _ in range(3):
        t = rsb(m, arm_nn_doubling_high_mult(m, half_denominator, x, False), shift)
        t = arm_nn_mult_by_power_of_two(m, arm_nn_doubling_high_mult(m, x, t, False), 2)
        x = add(m, x, t)                                   # x += MUL_POW2(MUL_SAT(x, shift - ...), 2);
    return arm_nn_mult_by_power_of_two(m, x, 1)            # return MUL_POW2(x, 1);
