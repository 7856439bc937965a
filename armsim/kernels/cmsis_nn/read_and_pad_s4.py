"""read_and_pad_s4 (Include/arm_nnsupportfunctions.h, ARM_MATH_DSP, little endian).

    __STATIC_FORCEINLINE void read_and_pad_s4(const int8_t *source, int32_t *out1, int32_t *out2)
    {
        int16_t in = arm_nn_read_s8x2(source);
        int32_t inA = (in & 0x00FF) | ((in & 0xFF00) << 8);
        *out1 = SXTB16_RORn(__sxtb16(inA << 4), 4);
        *out2 = SXTB16_RORn(__sxtb16(inA), 4);
    }

Two packed bytes (four int4 weights) become two int16x2 words: out1 holds the low nibbles of
bytes 0 and 1, out2 the high nibbles.  Written in the instructions gcc 12.2 -O2 -mcpu=cortex-m4
emits for it inside arm_nn_vec_mat_mult_t_s4 (objdump of that file): LDRH; BFI of the halfword
into a register (the int16_t `in`); (in << 8) & 0xFF0000 as MOV LSL #8 + AND; UXTB; ORRS;
LSLS #4; and SXTB16_RORn as SXTB16, MOV ROR #4, SXTB16 (4 is not one of SXTB16's rotations).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import and_, bfi, ldrh, lsl, orr, pkhbt, pkhtb, ror, sxtb16, uxtb


@kernel(inline=True)
def read_and_pad_s4(m, source):
    """Returns (out1, out2): low nibbles, high nibbles of source[0], source[1] as int16x2."""
    halfword = ldrh(m, source)                      # in = arm_nn_read_s8x2(source);
    packed = bfi(m, 0, halfword, 0, 16)             # (int16_t in, low half of a register)
    high_byte = and_(m, lsl(m, packed, 8), 0xFF0000)  # (in & 0xFF00) << 8
    in_a = orr(m, high_byte, uxtb(m, packed, 0))    # inA = (in & 0x00FF) | ...;
    out1 = sxtb16(m, ror(m, sxtb16(m, lsl(m, in_a, 4), 0), 4), 0)
    out2 = sxtb16(m, ror(m, sxtb16(m, in_a, 0), 4), 0)
    return out1, out2


@kernel(inline=True)
def read_and_pad_s4_ordered(m, source):
    """read_and_pad_s4_ordered: (out1, out2) = weights 0,1 and weights 2,3 of source[0..1]
    as int16x2, in order (the GEMM of arm_convolve_s4 multiplies them with im2col pairs).

        inAbuf1 = SXTB16_RORn(__sxtb16(inA), 4);       (high nibbles)
        inAbuf2 = SXTB16_RORn(__sxtb16(inA << 4), 4);  (low nibbles)
        *out2 = PKHTB(inAbuf1, inAbuf2, 16);  *out1 = PKHBT(inAbuf2, inAbuf1, 16);
    Same prelude as read_and_pad_s4 (LDRH, BFI, LSL/AND, UXTB, ORR)."""
    halfword = ldrh(m, source)
    packed = bfi(m, 0, halfword, 0, 16)
    high_byte = and_(m, lsl(m, packed, 8), 0xFF0000)
    in_a = orr(m, high_byte, uxtb(m, packed, 0))
    high = sxtb16(m, ror(m, sxtb16(m, in_a, 0), 4), 0)
    low = sxtb16(m, ror(m, sxtb16(m, lsl(m, in_a, 4), 0), 4), 0)
    out2 = pkhtb(m, high, low, 16)
    out1 = pkhbt(m, low, high, 16)
    return out1, out2
