"""read_and_pad_s4_uneven (Include/arm_nnsupportfunctions.h, ARM_MATH_DSP, little endian).

    int32_t inA1 = (source[0] & 0xFF) | ((source[1] & 0xFF) << 16);
    int32_t inA2 = (source[1] & 0xFF) | ((source[2] & 0xFF) << 16);
    *out1 = SXTB16_RORn(__sxtb16(inA2 << 4), 4);
    *out2 = SXTB16_RORn(__sxtb16(inA1), 4);

Four int4 weights that start at the high nibble of source[0] (odd channel counts) become two
int16x2 words: out1 = (low nibble of source[1], low nibble of source[2]), out2 = (high nibble
of source[0], high nibble of source[1]).  Written from the C (three LDRB, ORR with LSL #16,
SXTB16_RORn as SXTB16, ROR #4, SXTB16), not from a disassembly.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import ldrb, lsl, orr, ror, sxtb16


@kernel(inline=True)
def read_and_pad_s4_uneven(m, source):
    """Returns (out1, out2) as the C's *out1, *out2."""
    b0 = ldrb(m, source)
    b1 = ldrb(m, source + 1)
    b2 = ldrb(m, source + 2)
    in_a1 = orr(m, b0, lsl(m, b1, 16))    # (source[0] & 0xFF) | ((source[1] & 0xFF) << 16)
    in_a2 = orr(m, b1, lsl(m, b2, 16))              # (source[1] & 0xFF) | ((source[2] & 0xFF) << 16)
    out1 = sxtb16(m, ror(m, sxtb16(m, lsl(m, in_a2, 4), 0), 4), 0)
    out2 = sxtb16(m, ror(m, sxtb16(m, in_a1, 0), 4), 0)
    return out1, out2
