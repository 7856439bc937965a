"""read_and_pad_reordered (Include/arm_nnsupportfunctions.h, ARM_MATH_DSP, little endian).

    __STATIC_FORCEINLINE const int8_t *read_and_pad_reordered(const int8_t *source,
                                                              int32_t *out1, int32_t *out2)
    {
        int32_t inA = arm_nn_read_s8x4_ia(&source);
        *out2 = SXTB16(ROR((uint32_t)inA, 8));
        *out1 = SXTB16(inA);
        return source;
    }

Bytes 0 and 2 go to out1, bytes 1 and 3 to out2 (the order arm_s8_to_s16_unordered_with_offset
writes its columns in).  gcc 12 keeps `ROR` as its own instruction here (the measured dsp_O2
histograms count one ROR per call), unlike SXTB16_RORn which folds into SXTB16's rotation.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import ldr, ror, sxtb16


@kernel(inline=True)
def read_and_pad_reordered(m, source):
    """Returns (source + 4, out1, out2)."""
    in_a = ldr(m, source)                        # inA = arm_nn_read_s8x4_ia(&source);  (LDR r, [src], #4)
    out2 = sxtb16(m, ror(m, in_a, 8), 0)         # *out2 = SXTB16(ROR((uint32_t)inA, 8));
    out1 = sxtb16(m, in_a, 0)                    # *out1 = SXTB16(inA);
    return source + 4, out1, out2
