"""read_and_pad_s4 (Include/arm_nnsupportfunctions.h, ARM_MATH_DSP, little endian).

    __STATIC_FORCEINLINE void read_and_pad_s4(const int8_t *source, int32_t *out1, int32_t *out2)
    {
        int16_t in = arm_nn_read_s8x2(source);
        int32_t inA = (in & 0x00FF) | ((in & 0xFF00) << 8);
        *out1 = SXTB16_RORn(__sxtb16(inA << 4), 4);
        *out2 = SXTB16_RORn(__sxtb16(inA), 4);
    }

Two packed bytes (four int4 weights) become two int16x2 words: out1 holds the low nibbles of
bytes 0 and 1, out2 the high nibbles.  A rotation by 4 is not one of SXTB16's rotations, so
SXTB16_RORn is a ROR then an SXTB16 (the measured dsp_O2 histogram counts one ROR per
SXTB16_RORn).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import and_, ldrh, lsl, orr, ror, sxtb16, uxtb


@kernel(inline=True)
def read_and_pad_s4(m, source):
    """Returns (out1, out2): low nibbles, high nibbles of source[0], source[1] as int16x2."""
    packed = ldrh(m, source)                        # in = arm_nn_read_s8x2(source);
    low_byte = uxtb(m, packed, 0)                   # in & 0x00FF
    high_byte = and_(m, packed, 0xFF00)             # in & 0xFF00
    in_a = orr(m, low_byte, lsl(m, high_byte, 8))   # inA = ... | (... << 8);
    out1 = sxtb16(m, ror(m, sxtb16(m, lsl(m, in_a, 4), 0), 4), 0)
    out2 = sxtb16(m, ror(m, sxtb16(m, in_a, 0), 4), 0)
    return out1, out2
