"""arm_nn_doubling_high_mult (Include/arm_nnsupportfunctions.h), MUL_SAT in the softmax code.

    int32_t result = 0;
    int64_t mult = 1 << 30;
    if ((m1 < 0) ^ (m2 < 0)) mult = 1 - mult;
    mult = mult + (int64_t)m1 * m2;              // SMLAL
    result = (int32_t)(mult / (1ll << 31));      // division: rounds toward zero
    if ((m1 == m2) && (m1 == (int32_t)NN_Q31_MIN)) result = NN_Q31_MAX;
    return result;

__STATIC_FORCEINLINE, so gcc specialises every call site.  With a constant `m2`
(`m2_is_constant`, the exp/reciprocal polynomial coefficients) the sign test reduces to the
sign of m1 and the saturation test disappears (the constant is never INT32_MIN); the
constant itself comes from the literal pool; with a variable m2 the sign test is an EORS.
The signed 64-bit division by 2^31 adds 2^31 - 1 to a negative product (ADDS/ADC, behind
a branch on the sign: the measured ADC count is about the number of negative products)
before taking bits [62:31] (LSR #31 / ORR ..., LSL #1).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (adc, add, bcc, carry_of_add, cmp, eor, it, ldr_lit, lsr, mov, mvn,
                        orr, smlal)


@kernel
def arm_nn_doubling_high_mult(m, m1, m2, m2_is_constant):
    lo = mov(m, 1 << 30)                                   # int64_t mult = 1 << 30;
    hi = mov(m, 0)
    if m2_is_constant:
        ldr_lit(m)                                         # the constant m2
        negative = m1 < 0 if m2 >= 0 else m1 >= 0
        cmp(m, m1, 0)                                      # (m1 < 0) ^ (m2 < 0), m2's sign known
    else:
        negative = eor(m, m1, m2) < 0                      # EORS t, m1, m2: N = (m1 < 0) ^ (m2 < 0)
    it(m, 0 if negative else 2)                            # ITT: both fail when positive
    if negative:                                           # mult = 1 - mult;
        lo = mov(m, 1 - (1 << 30))
        hi = mvn(m, 0)
    lo, hi = smlal(m, lo, hi, m1, m2)                      # mult = mult + (int64_t)m1 * m2;
    cmp(m, hi, 0)                                          # mult / (1ll << 31): negative?
    bcc(m, hi >= 0)
    if hi < 0:
        carry = carry_of_add(lo, 0x7FFFFFFF)
        lo = add(m, lo, 0x7FFFFFFF)                        #   ADDS lo, lo, #(2^31 - 1)
        hi = adc(m, hi, 0, carry)                          #   ADC  hi, hi, #0
    result = orr(m, lsr(m, lo, 31), hi << 1)               # bits [62:31]  (ORR Rd, Rn, Rm, LSL #1)
    if not m2_is_constant:
        cmp(m, m1, m2)                                     # if ((m1 == m2) && (m1 == NN_Q31_MIN))
        bcc(m, m1 != m2)
        if m1 == m2:
            cmp(m, m1, -0x80000000)
            saturate = m1 == -0x80000000
            it(m, not saturate)
            if saturate:
                result = mvn(m, -0x80000000)               #     result = NN_Q31_MAX;
    return result
