"""arm_elementwise_mul_s8 (Source/BasicMathFunctions/arm_elementwise_mul_s8.c).

    arm_cmsis_nn_status arm_elementwise_mul_s8(const int8_t *input_1_vect,
        const int8_t *input_2_vect, int32_t input_1_offset, int32_t input_2_offset,
        int8_t *output, int32_t out_offset, int32_t out_mult, int32_t out_shift,
        int32_t out_activation_min, int32_t out_activation_max, int32_t block_size)

out = clamp(requantize((in_1 + input_1_offset) * (in_2 + input_2_offset), out_mult,
out_shift) + out_offset).

ARM_MATH_DSP: four elements per iteration: read_and_pad_reordered (ROR + SXTB16, SXTB16),
SADD16 with the packed offsets, SMULBB / SMULTT per halfword pair, the four results packed
into one word; then the block_size % 4 leftovers.  Plain C: one element per iteration.
The out_shift requantize setup is loop-invariant and hoisted (as in arm_elementwise_add_s8,
which is measured); no reference measurement covers this kernel, so the stack reloads of
the arguments are estimated from add_1000's (per requantize: 2 reloads).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, bcc, cmp, fitted_ldr_sp, ldrsb, mov, mul, orr, pop_pc,
                            push, sadd16, smulbb, smultt, strb, sub, uxth)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup
from .arm_nn_write_s8x4_ia import arm_nn_write_s8x4_ia
from .read_and_pad_reordered import read_and_pad_reordered


@kernel
def _mul_requantized(m, mul_res, out_mult, qo, out_offset, out_activation_min,
                     out_activation_max):
    mul_res = requantize_in_loop(m, mul_res, out_mult, qo[0], qo[1], qo[2], qo[3])
    mul_res = add(m, mul_res, out_offset)                  # ... + out_offset;
    mul_res = max_lt(m, mul_res, out_activation_min)       # MAX(mul_res, out_activation_min)
    mul_res = min_gt(m, mul_res, out_activation_max)       # MIN(mul_res, out_activation_max)
    return mul_res


@kernel
def arm_elementwise_mul_s8(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset,
                           output, out_offset, out_mult, out_shift, out_activation_min,
                           out_activation_max, block_size):
    push(m, 9)                                             # push {r4-r11, lr}
    for _ in range(6):                                     # stacked arguments
        fitted_ldr_sp(m)
    qo = requantize_setup(m, out_shift)                    # hoisted out of the loops
    if m.dsp:
        t = uxth(m, input_1_offset, 0)                     # (input_1_offset << 16U) | (input_1_offset & 0x0FFFFL)
        offset_1_packed = orr(m, t, input_1_offset << 16)
        t = uxth(m, input_2_offset, 0)
        offset_2_packed = orr(m, t, input_2_offset << 16)
        loop_count = asr(m, block_size, 2)                 # loop_count = block_size >> 2;
        cmp(m, loop_count, 0)
        bcc(m, loop_count <= 0)
        while loop_count > 0:
            input_1_vect, b_1, a_1 = read_and_pad_reordered(m, input_1_vect)
            input_2_vect, b_2, a_2 = read_and_pad_reordered(m, input_2_vect)
            a_1 = sadd16(m, a_1, offset_1_packed)          # a_1 = SADD16(a_1, offset_1_packed);
            b_1 = sadd16(m, b_1, offset_1_packed)
            a_2 = sadd16(m, a_2, offset_2_packed)
            b_2 = sadd16(m, b_2, offset_2_packed)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            r1 = _mul_requantized(m, smulbb(m, b_1, b_2), out_mult, qo, out_offset,  # Mul 1: SMULBB(b_1, b_2)
                                  out_activation_min, out_activation_max)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            r3 = _mul_requantized(m, smultt(m, b_1, b_2), out_mult, qo, out_offset,  # Mul 3: SMULTT(b_1, b_2)
                                  out_activation_min, out_activation_max)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            r2 = _mul_requantized(m, smulbb(m, a_1, a_2), out_mult, qo, out_offset,  # Mul 2: SMULBB(a_1, a_2)
                                  out_activation_min, out_activation_max)
            fitted_ldr_sp(m)
            fitted_ldr_sp(m)
            r4 = _mul_requantized(m, smultt(m, a_1, a_2), out_mult, qo, out_offset,  # Mul 4: SMULTT(a_1, a_2)
                                  out_activation_min, out_activation_max)
            output = arm_nn_write_s8x4_ia(m, output, r1, r2, r3, r4)
            loop_count = sub(m, loop_count, 1)             # loop_count--;
            cmp(m, loop_count, 0)
            bcc(m, loop_count > 0)
        loop_count = and_(m, block_size, 3)                # loop_count = block_size & 0x3;
    else:
        loop_count = mov(m, block_size)                    # loop_count = block_size;
    cmp(m, loop_count, 0)                                  # while (loop_count > 0)
    bcc(m, loop_count <= 0)
    while loop_count > 0:
        fitted_ldr_sp(m)
        fitted_ldr_sp(m)
        input_1 = add(m, ldrsb(m, input_1_vect), input_1_offset)  # *input_1_vect++ + input_1_offset
        input_1_vect += 1
        input_2 = add(m, ldrsb(m, input_2_vect), input_2_offset)
        input_2_vect += 1
        mul_res = mul(m, input_1, input_2)                 # mul_res = input_1 * input_2;
        mul_res = _mul_requantized(m, mul_res, out_mult, qo, out_offset, out_activation_min,
                                   out_activation_max)
        strb(m, output, mul_res)                           # *output++ = (int8_t)mul_res;
        output += 1
        loop_count = sub(m, loop_count, 1)
        cmp(m, loop_count, 0)
        bcc(m, loop_count > 0)
    pop_pc(m, 9)
    return 0
