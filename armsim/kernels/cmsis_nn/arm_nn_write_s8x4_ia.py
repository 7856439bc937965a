"""arm_nn_write_s8x4_ia of a PACK_S8x4_32x1 word (Include/arm_nnsupportfunctions.h), as the
elementwise kernels' DSP loops store their four results:

    arm_nn_write_s8x4_ia(&output, PACK_S8x4_32x1(r1, r2, r3, r4));

PACK_S8x4_32x1 masks each int8 value into its byte: gcc sign-extends the first three
results (SXTB, the int8 casts) and builds the word with AND, UXTB and ORRs with shifted
operands (r4 << 24 needs no mask); the store post-increments `output` by 4.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import and_, orr, str_, sxtb, uxtb


@kernel(inline=True)
def arm_nn_write_s8x4_ia(m, output, r1, r2, r3, r4):
    """Returns output + 4."""
    r1 = sxtb(m, r1, 0)                                    # (int8_t) casts
    r2 = sxtb(m, r2, 0)
    r3 = sxtb(m, r3, 0)
    word = and_(m, r1, 0xFF)                               # PACK_S8x4_32x1(r1, r2, r3, r4)
    word = orr(m, word, uxtb(m, r2, 0) << 8)
    word = orr(m, word, uxtb(m, r3, 0) << 16)
    word = orr(m, word, r4 << 24)
    str_(m, output, word)                                  # arm_nn_write_s8x4_ia(&output, ...)
    return output + 4
