"""arm_elementwise_mul_s16 (Source/BasicMathFunctions/arm_elementwise_mul_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_elementwise_mul_s16(const int16_t *input_1_vect,
        const int16_t *input_2_vect, int32_t input_1_offset, int32_t input_2_offset,
        int16_t *output, int32_t out_offset, int32_t out_mult, int32_t out_shift,
        int32_t out_activation_min, int32_t out_activation_max, int32_t block_size)

The offsets are ignored (int16 is symmetric): out = clamp(requantize(in_1 * in_2, out_mult,
out_shift)).  Two elements per iteration: one word of each input (arm_nn_read_q15x2_ia);
ARM_MATH_DSP multiplies the halfwords with SMULBB / SMULTT, plain C sign-extends them (SXTH,
ASR #16) and uses MUL; the two results are packed (UXTH / ORR, PACK_Q15x2_32x1) and stored
as one word; then the odd element.

The out_shift requantize setup is loop-invariant and hoisted (one BIC / RSB per call
measured).  Stack reloads of the spilled arguments and constants are fitted (not read off
the C) to ../shared/reference mul_s16_1000 (dsp_O2 28,649, scalar_O2 31,125 instructions;
mul_s16_2048 is the check).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, b, bcc, cmp, ldr, ldr_sp, ldrd_sp, ldrsh, mul, orr,
                            pop_pc, push, smulbb, smultt, str_, str_sp, strh, sub, sxth, uxth)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup


@kernel(inline=True)
def _reloads(m, n):
    """Fitted: reloads of spilled arguments / hoisted constants (LDR [sp, #imm])."""
    for _ in range(n):
        ldr_sp(m)


@kernel
def _mul_requantized(m, mul_res, out_mult, qo, out_activation_min, out_activation_max):
    mul_res = requantize_in_loop(m, mul_res, out_mult, qo[0], qo[1], qo[2], qo[3])
    mul_res = max_lt(m, mul_res, out_activation_min)       # MAX(mul_res, out_activation_min)
    mul_res = min_gt(m, mul_res, out_activation_max)       # MIN(mul_res, out_activation_max)
    return mul_res


@kernel
def arm_elementwise_mul_s16(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset,
                            output, out_offset, out_mult, out_shift, out_activation_min,
                            out_activation_max, block_size):
    push(m, 9)                                             # push {r4-r11, lr}
    _reloads(m, 6)                                         # stacked arguments
    qo = requantize_setup(m, out_shift)                    # hoisted out of the loops
    reloads = 5                                            # fitted, per element of a pair
    loop_count = asr(m, block_size, 1)                     # loop_count = block_size / 2;
    cmp(m, loop_count, 0)                                  # while (loop_count > 0)
    bcc(m, loop_count <= 0)
    while loop_count > 0:
        two_halfword_1 = ldr(m, input_1_vect)              # arm_nn_read_q15x2_ia(&input_1_vect);
        input_1_vect += 4
        two_halfword_2 = ldr(m, input_2_vect)              # arm_nn_read_q15x2_ia(&input_2_vect);
        input_2_vect += 4
        _reloads(m, reloads)
        str_sp(m)                                          # fitted: a spill per pair (both builds)
        if m.dsp:
            ldrd_sp(m)                                     # fitted: a spilled pair reloaded
            b(m)                                           # fitted: gcc's block layout
            mul_res = smulbb(m, two_halfword_1, two_halfword_2)  # SMULBB(two_halfword_1, two_halfword_2)
        else:
            input_1 = sxth(m, two_halfword_1, 0)           # (int16_t)(two_halfword_1 & 0xFFFF)
            input_2 = sxth(m, two_halfword_2, 0)
            mul_res = mul(m, input_1, input_2)             # mul_res = input_1 * input_2;
            b(m)                                           # gcc's block layout (fitted: 2.4 B per pair measured)
        mul_1 = _mul_requantized(m, mul_res, out_mult, qo, out_activation_min, out_activation_max)
        _reloads(m, reloads)
        if m.dsp:
            mul_res = smultt(m, two_halfword_1, two_halfword_2)  # SMULTT(two_halfword_1, two_halfword_2)
        else:
            input_1 = asr(m, two_halfword_1, 16)           # (int16_t)(two_halfword_1 >> 16)
            input_2 = asr(m, two_halfword_2, 16)
            mul_res = mul(m, input_1, input_2)
            b(m)
        mul_2 = _mul_requantized(m, mul_res, out_mult, qo, out_activation_min, out_activation_max)
        # arm_nn_write_q15x2_ia(&output, PACK_Q15x2_32x1(mul_1, mul_2));
        str_(m, output, orr(m, uxth(m, mul_1, 0), mul_2 << 16))
        output += 4
        loop_count = sub(m, loop_count, 1)                 # loop_count--;
        cmp(m, loop_count, 0)
        bcc(m, loop_count > 0)
    loop_count = and_(m, block_size, 1)                    # loop_count = block_size & 0x1;
    cmp(m, loop_count, 0)
    bcc(m, loop_count <= 0)
    while loop_count > 0:
        input_1 = ldrsh(m, input_1_vect)                   # input_1 = *input_1_vect++;
        input_1_vect += 2
        input_2 = ldrsh(m, input_2_vect)                   # input_2 = *input_2_vect++;
        input_2_vect += 2
        _reloads(m, reloads)
        mul_res = mul(m, input_1, input_2)                 # mul_res = input_1 * input_2;
        mul_res = _mul_requantized(m, mul_res, out_mult, qo, out_activation_min,
                                   out_activation_max)
        strh(m, output, mul_res)                           # *output++ = (int16_t)mul_res;
        output += 2
        loop_count = sub(m, loop_count, 1)                 # loop_count--;
        cmp(m, loop_count, 0)
        bcc(m, loop_count > 0)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
