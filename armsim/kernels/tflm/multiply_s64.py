"""tflite::MultiplyByQuantizedMultiplier(int64_t x, int32_t quantized_multiplier, int shift)
(kernels/internal/common.cc, double-rounding build), the requantization of TFLM's 16x8
reference kernels (conv, depthwise conv, fully connected with an int64 bias):

    int32_t reduced_multiplier = (quantized_multiplier < 0x7FFF0000)
                                     ? ((quantized_multiplier + (1 << 15)) >> 16) : 0x7FFF;
    int total_shift = 15 - shift;
    x = (x * (int64_t)reduced_multiplier) + ((int64_t)1 << (total_shift - 1));
    int32_t result = x >> total_shift;
    return result;

An out-of-line function (common.cc), transcribed from gcc 12.2 -O2 -mcpu=cortex-m4's
disassembly of TFLM 90b983c's common.cc (29 instructions and an ITT PL whose two
instructions fail for a shift below 32; the saturated multiplier 0x7FFF as many, through two
taken branches): REDUCE
as ADD / ASR with the multiplier's sign word (ASRS #31), the 64-bit product MUL / MLA /
UMULL / ADD, the rounding term 1 << (total_shift - 1) built in both words (LSR / LSL / LSL,
ORR) and added with ADDS / ADC, the 64-bit arithmetic shift's low word LSR / LSL / ORR with
ITT PL ASR / ORR for a shift of 32 or more.  Executing that object (Unicorn, Cortex-M4) in
TFLM's 16x8 LSTM on lstm_2_s16 runs 29 instructions per call, as here.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    adc,
    add,
    asr,
    b,
    bcc,
    carry_of_add,
    cmp,
    it,
    ldr_lit,
    lsl,
    lsr,
    mla,
    mov,
    mul,
    orr,
    pop_pc,
    push,
    rsb,
    sub,
    umull,
)

MBQM64 = "tflite::MultiplyByQuantizedMultiplier(long long, long, int)"


@kernel(inline=True)
def MultiplyByQuantizedMultiplier64(m, x_lo, x_hi, quantized_multiplier, shift):
    """The callee body (the caller issues the BL); x = x_hi:x_lo."""
    push(m, 2)                                          # push {r4, lr}
    ldr_lit(m)                                          # 0x7FFEFFFF
    cmp(m, quantized_multiplier, 0x7FFEFFFF)
    saturated = quantized_multiplier > 0x7FFEFFFF
    bcc(m, saturated)                                   # bgt
    if saturated:
        reduced = mov(m, 0x7FFF)                        # movw ip, #32767
        sign = mov(m, 0)
        b(m)
    else:
        rounded = add(m, quantized_multiplier, 1 << 15)
        reduced = asr(m, rounded, 16)                   # (q + (1 << 15)) >> 16
        sign = asr(m, rounded, 31)                      # its sign word
    # x * (int64_t)reduced_multiplier
    t = mul(m, x_lo, sign)
    e = rsb(m, shift, 14)                               # total_shift - 1
    t = mla(m, reduced, x_hi, t)
    lo, hi = umull(m, x_lo, reduced)
    one = mov(m, 1)
    hi = add(m, t, hi)
    # + ((int64_t)1 << (total_shift - 1)), both words
    r_hi = lsr(m, one, rsb(m, e, 32))
    r_hi = orr(m, lsl(m, one, sub(m, e, 32)), r_hi)
    r_lo = lsl(m, one, e)
    carry = carry_of_add(r_lo, lo)
    lo = add(m, r_lo, lo)                               # ADDS
    hi = adc(m, hi, r_hi, carry)
    # (int32_t)(x >> total_shift): the low word of the 64-bit arithmetic shift
    total_shift = rsb(m, shift, 15)
    left = add(m, shift, 17)                            # 32 - total_shift
    result = lsr(m, lo, total_shift)
    high_part = lsl(m, hi, left)
    wide = sub(m, total_shift, 32)                      # SUBS: N clear for a shift of 32+
    result = orr(m, result, high_part)
    it(m, 0 if wide >= 0 else 2)                        # ITT PL
    if wide >= 0:
        result = orr(m, result, asr(m, hi, wide))
    pop_pc(m, 2)
    return result
