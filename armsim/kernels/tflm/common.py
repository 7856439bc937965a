"""tflite::MultiplyByQuantizedMultiplier (kernels/internal/common.cc, double rounding) as
arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 compiles it: an out-of-line function
(TFLITE_NOINLINE) with gemmlowp's SaturatingRoundingDoublingHighMul and RoundingDivideByPOT
inlined:

    int left_shift = shift > 0 ? shift : 0;
    int right_shift = shift > 0 ? 0 : -shift;
    return RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(
                                   x * (1 << left_shift), quantized_multiplier),
                               right_shift);

SaturatingRoundingDoublingHighMul(a, b):
    overflow = a == b && a == INT32_MIN
    ab_64 = (int64)a * b
    nudge = ab_64 >= 0 ? (1 << 30) : (1 - (1 << 30))
    ab_x2_high32 = (int32)((ab_64 + nudge) / (1ll << 31))     // division toward zero
    return overflow ? INT32_MAX : ab_x2_high32
RoundingDivideByPOT(x, exponent):
    mask = (1 << exponent) - 1; remainder = x & mask
    threshold = (mask >> 1) + (x < 0 ? 1 : 0)
    return (x >> exponent) + (remainder > threshold ? 1 : 0)

The instruction sequence below follows the compiled function block by block (its layout:
the shift <= 0 prologue, the overflow test, SMULL, the non-negative and the negative
product paths -- the latter adds the nudge 0xC0000001 from a literal pool and, while the
sum is still negative, 0x7FFFFFFF for the division toward zero).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (REQUANTIZE, add, adc, and_, asr, b, bcc, bic, carry_of_add, cmp,
                            enter_region, it, ldr_sp, leave_region, lsl, lsr, mov, mvn, orr,
                            pop_pc, push, rsb, sbc, smull, ubfx)

MBQM = "tflite::MultiplyByQuantizedMultiplier"

INT32_MIN = -(2**31)


@kernel(inline=True)
def MultiplyByQuantizedMultiplier(outer, x, quantized_multiplier, shift):
    """The callee body (the caller issues the BL), in the REQUANTIZE code region."""
    m = enter_region(outer, REQUANTIZE)
    cmp(m, shift, 0)
    push(m, 2)                                          # push {r4, lr}
    left_shift = bic(m, shift, shift >> 31)             # shift > 0 ? shift : 0
    bcc(m, shift <= 0)                                  # ble
    if shift <= 0:
        right_shift = rsb(m, shift, 0)                  # negs r2, r2
        mask = mov(m, 1)
        mask = lsl(m, mask, right_shift)                # 1 << exponent
        a = lsl(m, x, left_shift)                       # x * (1 << left_shift)
        mask = add(m, mask, -1)                         # mask = (1 << exponent) - 1
        cmp(m, a, quantized_multiplier)                 # a == b ?
        half = asr(m, mask, 1)                          # mask >> 1
        bcc(m, a != quantized_multiplier)               # bne -> multiply
    else:
        a = lsl(m, x, left_shift)
        right_shift = mov(m, 0)
        cmp(m, a, quantized_multiplier)
        mask = mov(m, 0)
        half = mov(m, 0)
        bcc(m, a == quantized_multiplier)               # beq -> overflow test
    overflow = False
    if a == quantized_multiplier:
        cmp(m, quantized_multiplier, INT32_MIN)
        bcc(m, quantized_multiplier != INT32_MIN)       # bne -> multiply
        overflow = quantized_multiplier == INT32_MIN
    if overflow:
        high32 = mvn(m, INT32_MIN)                      # INT32_MAX
        b(m)
        sign = 0
    else:
        lo, hi = smull(m, a, quantized_multiplier)      # ab_64
        cmp(m, hi, 0)
        bcc(m, hi < 0)                                  # blt -> negative product
        if hi >= 0:
            carry = carry_of_add(lo, 1 << 30)
            lo = add(m, lo, 1 << 30)                    # adds lo, #0x40000000
            hi = adc(m, hi, 0, carry)
        else:
            ldr_sp(m)                                   # ldr r4, =0xC0000001 (literal pool)
            nudge = 1 - (1 << 30)
            carry = carry_of_add(lo, nudge)
            lo = add(m, lo, nudge)                      # adds
            hi = sbc(m, hi, 0, carry)                   # sbc hi, hi, #0 (nudge's high word -1)
            cmp(m, hi, 0)
            bcc(m, hi >= 0)                             # bge -> shift
            if hi < 0:                                  # toward zero: add 2^31 - 1 first
                bias = mvn(m, INT32_MIN)
                carry = carry_of_add(lo, bias)
                lo = add(m, lo, bias)
                b(m)
                hi = adc(m, hi, 0, carry)
        high32 = orr(m, lsr(m, lo, 31), hi << 1)        # (int32)(... >> 31)  (ORR Rd, Rn, Rm, LSL #1)
        sign = ubfx(m, hi, 30, 1)                       # result < 0 (bit 62 of the sum)
        half = add(m, half, sign)                       # threshold = (mask >> 1) + (x < 0)
    remainder = and_(m, high32, mask)
    result = asr(m, high32, right_shift)
    cmp(m, remainder, half)
    it(m, remainder <= half)                            # the ADD fails unless it rounds up
    if remainder > half:
        result = add(m, result, 1)
    pop_pc(m, 2)
    leave_region(outer, m)
    return result
