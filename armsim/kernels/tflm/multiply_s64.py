"""tflite::MultiplyByQuantizedMultiplier(int64_t x, int32_t quantized_multiplier, int shift)
(kernels/internal/common.cc, double-rounding build), the requantization of TFLM's 16x8
reference kernels (conv, depthwise conv, fully connected with an int64 bias):

    int32_t reduced_multiplier = (quantized_multiplier < 0x7FFF0000)
                                     ? ((quantized_multiplier + (1 << 15)) >> 16) : 0x7FFF;
    int total_shift = 15 - shift;
    x = (x * (int64_t)reduced_multiplier) + ((int64_t)1 << (total_shift - 1));
    int32_t result = x >> total_shift;
    return result;

An out-of-line function (common.cc); the 64-bit operations as gcc compiles them for a 32-bit
core: UMULL / MLA / MUL for the product, the variable 64-bit shifts as LSL/LSR/ORR with an
IT-predicated instruction for shifts of 32 or more, ADDS / ADC for the sum.  No measured
TFLM 16x8 build exists in ../shared, so the instruction order is read from the C, not fitted.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (adc, add, asr, bcc, carry_of_add, cmp, it, lsl, lsr, mov, mul,
                            orr, pop_pc, push, rsb, sub, umull)

MBQM64 = "tflite::MultiplyByQuantizedMultiplier(long long, long, int)"


@kernel(inline=True)
def MultiplyByQuantizedMultiplier64(m, x_lo, x_hi, quantized_multiplier, shift):
    """The callee body (the caller issues the BL); x = x_hi:x_lo."""
    push(m, 3)                                          # push {r4, r5, lr}
    cmp(m, quantized_multiplier, 0x7FFF0000)
    small = quantized_multiplier < 0x7FFF0000
    bcc(m, not small)
    if small:
        reduced = asr(m, add(m, quantized_multiplier, 1 << 15), 16)
    else:
        reduced = mov(m, 0x7FFF)
    total_shift = rsb(m, shift, 15)                     # 15 - shift
    # x * (int64_t)reduced_multiplier (reduced >= 0: its sign word is 0, folded away)
    t = mul(m, x_hi, reduced)
    lo, hi = umull(m, x_lo, reduced)
    hi = add(m, hi, t)
    # (int64_t)1 << (total_shift - 1): total_shift - 1 is below 32 for shift > -17
    e = sub(m, total_shift, 1)
    one = mov(m, 1)
    cmp(m, e, 32)
    high_word = e >= 32
    it(m, 1)                                            # ITE: one arm always fails
    if high_word:
        r_lo = mov(m, 0)
        r_hi = lsl(m, one, e - 32)
    else:
        r_lo = lsl(m, one, e)
        r_hi = mov(m, 0)
    carry = carry_of_add(lo, r_lo)
    lo = add(m, lo, r_lo)                               # ADDS
    hi = adc(m, hi, r_hi, carry)
    # (int32_t)(x >> total_shift): the low word of the 64-bit arithmetic shift
    result = orr(m, lsr(m, lo, total_shift), lsl(m, hi, rsb(m, total_shift, 32)))
    cmp(m, total_shift, 32)
    wide = total_shift >= 32
    it(m, not wide)                                     # IT PL: ASRPL fails for a shift < 32
    if wide:
        result = asr(m, hi, total_shift - 32)
    pop_pc(m, 3)
    return result
