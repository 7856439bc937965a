"""arm_elementwise_add_s8 (Source/BasicMathFunctions/arm_elementwise_add_s8.c).

    arm_cmsis_nn_status arm_elementwise_add_s8(const int8_t *input_1_vect,
        const int8_t *input_2_vect, int32_t input_1_offset, int32_t input_1_mult,
        int32_t input_1_shift, int32_t input_2_offset, int32_t input_2_mult,
        int32_t input_2_shift, int32_t left_shift, int8_t *output, int32_t out_offset,
        int32_t out_mult, int32_t out_shift, int32_t out_activation_min,
        int32_t out_activation_max, int32_t block_size)

Per element: input_i = requantize((in_i + offset_i) << left_shift, mult_i, shift_i);
sum = requantize(input_1 + input_2, out_mult, out_shift) + out_offset, clamped.

ARM_MATH_DSP: four elements per iteration: read_and_pad_reordered widens each input word
(ROR + SXTB16, SXTB16: gcc 12 keeps the ROR separate here, the measured dsp_O2 histogram
counts two RORs per iteration), SADD16 adds the packed offsets, each halfword is taken with
UXTH / LSR #16, results are packed back into one word; then the block_size % 4 leftovers
one by one.  Plain C: one element per iteration.

The three shifts are loop-invariant: gcc hoists their requantize setup (one BIC and one RSB
each per call in the measured histograms).  The 16 arguments and 3 x 4 requantize
constants do not fit in registers: the measured code reloads them from the stack for every
element (about 16 LDR per element in dsp_O2, 21 in scalar_O2); those are the `fitted_ldr_sp`.
Calibration (../shared/reference, gcc -O2): add_1000.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, bcc, cmp, fitted_ldr_sp, fitted_str_sp, ldrsb,
                            lsl, lsr, mov, orr, pop_pc, push, sadd16, strb, sub, uxth)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup
from .arm_nn_write_s8x4_ia import arm_nn_write_s8x4_ia
from .read_and_pad_reordered import read_and_pad_reordered


@kernel(inline=True)
def _reload(m, reloads, slot):
    """Stack reloads before step `slot` (0..6) of _add_requantized: `reloads` spread evenly."""
    n = reloads // 7
    if slot < reloads % 7:
        n += 1
    for _ in range(n):
        fitted_ldr_sp(m)


@kernel
def _add_requantized(m, input_1, input_2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                     out_offset, out_activation_min, out_activation_max, reloads):
    """The part shared by every element: requantize both inputs, add, requantize, clamp.
    `q1`, `q2`, `qo` are the hoisted (left_shift, right_shift, mask, threshold) tuples.
    `reloads` spilled arguments/constants are reloaded from the stack on the way, spread
    over the seven steps (gcc -O2 loads each just before its use, not in one run)."""
    _reload(m, reloads, 0)
    input_1 = requantize_in_loop(m, input_1, input_1_mult, q1[0], q1[1], q1[2], q1[3])
    _reload(m, reloads, 1)
    input_2 = requantize_in_loop(m, input_2, input_2_mult, q2[0], q2[1], q2[2], q2[3])
    _reload(m, reloads, 2)
    total = add(m, input_1, input_2)                       # sum = input_1 + input_2;
    _reload(m, reloads, 3)
    total = requantize_in_loop(m, total, out_mult, qo[0], qo[1], qo[2], qo[3])
    _reload(m, reloads, 4)
    total = add(m, total, out_offset)                      # sum += out_offset;
    _reload(m, reloads, 5)
    total = max_lt(m, total, out_activation_min)           # sum = MAX(sum, out_activation_min);
    _reload(m, reloads, 6)
    total = min_gt(m, total, out_activation_max)           # sum = MIN(sum, out_activation_max);
    return total


@kernel
def arm_elementwise_add_s8(m, input_1_vect, input_2_vect, input_1_offset, input_1_mult,
                           input_1_shift, input_2_offset, input_2_mult, input_2_shift,
                           left_shift, output, out_offset, out_mult, out_shift,
                           out_activation_min, out_activation_max, block_size):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    q1 = requantize_setup(m, input_1_shift)                # hoisted out of the loops
    q2 = requantize_setup(m, input_2_shift)
    qo = requantize_setup(m, out_shift)
    for _ in range(3):
        fitted_str_sp(m)                                   # hoisted values spilled to the frame
    if m.dsp:
        t = uxth(m, input_1_offset, 0)                     # (input_1_offset << 16U) | (input_1_offset & 0x0FFFFL)
        offset_1_packed = orr(m, t, input_1_offset << 16)
        t = uxth(m, input_2_offset, 0)
        offset_2_packed = orr(m, t, input_2_offset << 16)
        loop_count = asr(m, block_size, 2)                 # loop_count = block_size >> 2;
        cmp(m, loop_count, 0)                              # while (loop_count > 0)
        bcc(m, loop_count <= 0)
        while loop_count > 0:
            for _ in range(4):                             # reloads of spilled arguments/constants:
                fitted_ldr_sp(m)                           # 4 between the spills, 10 in
                fitted_str_sp(m)                           # _add_requantized (14 per element)
            input_1_vect, b_1, a_1 = read_and_pad_reordered(m, input_1_vect)
            input_2_vect, b_2, a_2 = read_and_pad_reordered(m, input_2_vect)
            a_1 = sadd16(m, a_1, offset_1_packed)          # a_1 = SADD16(a_1, offset_1_packed);
            b_1 = sadd16(m, b_1, offset_1_packed)
            a_2 = sadd16(m, a_2, offset_2_packed)
            b_2 = sadd16(m, b_2, offset_2_packed)
            # Sum 1: (b_x & 0x0FFFF) << left_shift
            x1 = lsl(m, uxth(m, b_1, 0), left_shift)
            x2 = lsl(m, uxth(m, b_2, 0), left_shift)
            r1 = _add_requantized(m, x1, x2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                                  out_offset, out_activation_min, out_activation_max, 10)
            for _ in range(4):                             # 14 reloads: 4 between the spills,
                fitted_ldr_sp(m)                           # 10 in _add_requantized
                fitted_str_sp(m)
            # Sum 3: ((b_x >> 16) & 0x0FFFF) << left_shift
            x1 = lsl(m, lsr(m, b_1, 16), left_shift)
            x2 = lsl(m, lsr(m, b_2, 16), left_shift)
            r3 = _add_requantized(m, x1, x2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                                  out_offset, out_activation_min, out_activation_max, 10)
            for _ in range(4):                             # 14 reloads: 4 between the spills,
                fitted_ldr_sp(m)                           # 10 in _add_requantized
                fitted_str_sp(m)
            # Sum 2: (a_x & 0x0FFFF) << left_shift
            x1 = lsl(m, uxth(m, a_1, 0), left_shift)
            x2 = lsl(m, uxth(m, a_2, 0), left_shift)
            r2 = _add_requantized(m, x1, x2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                                  out_offset, out_activation_min, out_activation_max, 10)
            for _ in range(4):                             # 14 reloads: 4 between the spills,
                fitted_ldr_sp(m)                           # 10 in _add_requantized
                fitted_str_sp(m)
            # Sum 4: ((a_x >> 16) & 0x0FFFF) << left_shift
            x1 = lsl(m, lsr(m, a_1, 16), left_shift)
            x2 = lsl(m, lsr(m, a_2, 16), left_shift)
            r4 = _add_requantized(m, x1, x2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                                  out_offset, out_activation_min, out_activation_max, 10)
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
        # 19 reloads of spilled arguments/constants per element, each next to its use as
        # gcc -O2 places them (few back to back): 3 here, 12 in _add_requantized, 4 at the end
        fitted_ldr_sp(m)
        x1 = ldrsb(m, input_1_vect)                        # (*input_1_vect++ + input_1_offset) << left_shift
        x1 = add(m, x1, input_1_offset)
        input_1_vect += 1
        fitted_ldr_sp(m)
        x1 = lsl(m, x1, left_shift)
        x2 = ldrsb(m, input_2_vect)
        x2 = add(m, x2, input_2_offset)
        input_2_vect += 1
        fitted_ldr_sp(m)
        x2 = lsl(m, x2, left_shift)
        total = _add_requantized(m, x1, x2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                                 out_offset, out_activation_min, out_activation_max, 12)
        fitted_ldr_sp(m)
        strb(m, output, total)                             # *output++ = (int8_t)sum;
        output += 1
        fitted_ldr_sp(m)
        loop_count = sub(m, loop_count, 1)                 # loop_count--;
        fitted_ldr_sp(m)
        cmp(m, loop_count, 0)
        fitted_ldr_sp(m)
        bcc(m, loop_count > 0)
    add(m, 0, 0)                                           # add sp, sp, #frame
    pop_pc(m, 9)
    return 0
