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
measured); its sign is tested once per iteration, with branches around the rounding
(requantize_in_loop_branching, read off the disassembly).  Stack reloads of the spilled
arguments and constants (the activation bounds just before each clamp), a spill and an LDRD
per pair are fitted (not read off the C) to ../shared/reference mul_s16_1000 (dsp_O2 28,649,
scalar_O2 31,125 instructions; mul_s16_2048 is the check).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, bcc, cmp, fitted_ldr_sp, fitted_ldrd_sp, fitted_str_sp,
                            ldr, ldrsh, mul, orr, pop_pc, push, smulbb, smultt, str_, strh, sub,
                            sxth, uxth)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_requantize_invariant import (SIGN_BRANCH, SIGN_IT, SIGN_ITE,
                                          requantize_in_loop_branching, requantize_setup)


@kernel(inline=True)
def _reloads(m, n):
    """Fitted: reloads of spilled arguments / hoisted constants (LDR [sp, #imm])."""
    for _ in range(n):
        fitted_ldr_sp(m)


@kernel
def _mul_requantized(m, mul_res, out_mult, qo, out_activation_min, out_activation_max, first,
                     reloads):
    """`first`: the pair's first product, whose rounding gcc lays out differently (M4: ITE MI
    and a branch round-up; M3: both branches); the second and the odd one: M4 IT MI / IT GT,
    M3 a branch and IT GT (read off the disassembly).  `reloads` (fitted) stack reloads: the
    activation bounds just before each clamp, the rest before the requantize."""
    if m.dsp:
        sign_mode = SIGN_ITE if first else SIGN_IT
    else:
        sign_mode = SIGN_BRANCH
    _reloads(m, reloads - 2)
    mul_res = requantize_in_loop_branching(m, mul_res, out_mult, qo[0], qo[1], qo[2], qo[3],
                                           qo[0] > 0, sign_mode, first, 0)
    fitted_ldr_sp(m)                                       # out_activation_min
    mul_res = max_lt(m, mul_res, out_activation_min)       # MAX(mul_res, out_activation_min)
    fitted_ldr_sp(m)                                       # out_activation_max
    mul_res = min_ge(m, mul_res, out_activation_max)       # MIN(mul_res, out_activation_max)  (IT GE)
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
        fitted_str_sp(m)                                   # fitted: a spill per pair (both builds)
        cmp(m, out_shift, 0)                               # the shift's sign, tested per iteration:
        bcc(m, out_shift > 0)                              # BGT to the path without rounding
        if m.dsp:
            fitted_ldrd_sp(m)                              # fitted: a spilled pair reloaded
            mul_res = smulbb(m, two_halfword_1, two_halfword_2)  # SMULBB(two_halfword_1, two_halfword_2)
        else:
            input_1 = sxth(m, two_halfword_1, 0)           # (int16_t)(two_halfword_1 & 0xFFFF)
            input_2 = sxth(m, two_halfword_2, 0)
            mul_res = mul(m, input_1, input_2)             # mul_res = input_1 * input_2;
            fitted_ldr_sp(m)                               # fitted: a reload (plain-C build)
        mul_1 = _mul_requantized(m, mul_res, out_mult, qo, out_activation_min, out_activation_max,
                                 True, reloads - 1 if m.dsp else reloads)  # (M4: ITE MI loads one)
        if m.dsp:
            mul_res = smultt(m, two_halfword_1, two_halfword_2)  # SMULTT(two_halfword_1, two_halfword_2)
        else:
            input_1 = asr(m, two_halfword_1, 16)           # (int16_t)(two_halfword_1 >> 16)
            input_2 = asr(m, two_halfword_2, 16)
            mul_res = mul(m, input_1, input_2)
        mul_2 = _mul_requantized(m, mul_res, out_mult, qo, out_activation_min, out_activation_max,
                                 False, reloads)
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
        mul_res = mul(m, input_1, input_2)                 # mul_res = input_1 * input_2;
        mul_res = _mul_requantized(m, mul_res, out_mult, qo, out_activation_min,
                                   out_activation_max, False, reloads)
        strh(m, output, mul_res)                           # *output++ = (int16_t)mul_res;
        output += 2
        loop_count = sub(m, loop_count, 1)                 # loop_count--;
        cmp(m, loop_count, 0)
        bcc(m, loop_count > 0)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
