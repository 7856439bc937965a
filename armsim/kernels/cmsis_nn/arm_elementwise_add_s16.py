"""arm_elementwise_add_s16 (Source/BasicMathFunctions/arm_elementwise_add_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_elementwise_add_s16(const int16_t *input_1_vect,
        const int16_t *input_2_vect, int32_t input_1_offset, int32_t input_1_mult,
        int32_t input_1_shift, int32_t input_2_offset, int32_t input_2_mult,
        int32_t input_2_shift, int32_t left_shift, int16_t *output, int32_t out_offset,
        int32_t out_mult, int32_t out_shift, int32_t out_activation_min,
        int32_t out_activation_max, int32_t block_size)

The offsets are ignored (int16 is symmetric).  Per element: input_i = requantize(in_i <<
left_shift, mult_i, shift_i); sum = clamp(requantize(input_1 + input_2, out_mult, out_shift)).
Two elements per iteration: one word of each input (arm_nn_read_q15x2_ia), the low halfword
sign-extended with SXTH, the high one with ASR #16, the two sums packed with UXTH / ORR
(PACK_Q15x2_32x1) and stored as one word; then the odd element.  There is no ARM_MATH_DSP
code (the same port runs both paths; gcc's register allocation differs a little).

The three shifts are loop-invariant: gcc hoists their requantize setup (one BIC and one RSB
each per call in the measured histograms) but tests each shift's sign once per iteration and
branches around the rounding (requantize_in_loop_branching, read off the disassembly).  The
16 arguments and the 3 x 4 hoisted requantize constants do not fit in registers: the
compiled loop reloads them from the stack (about 18 LDR per element measured), one at a time
between the ALU work, and spills a few (STR).  Those reloads and spills are fitted (not read
off the C) to ../shared/reference add_s16_1000 (dsp_O2 73,503 and scalar_O2 73,247
instructions; add_s16_2048 is the check).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, bcc, cmp, fitted_ldr_sp, fitted_ldrd_sp, fitted_str_sp,
                            ldr, ldrsh, lsl, mov, orr, pop_pc, push, str_, strh, sub, sxth, uxth)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_requantize_invariant import (SIGN_BRANCH, requantize_in_loop_branching,
                                          requantize_setup)


@kernel(inline=True)
def _stack_traffic(m, loads, stores):
    """Fitted: reloads of spilled arguments / hoisted constants and the spills around them."""
    for _ in range(loads):
        fitted_ldr_sp(m)
    for _ in range(stores):
        fitted_str_sp(m)


@kernel(inline=True)
def _reload(m, reloads, slot):
    """Fitted: the reloads at step `slot` (0..14) of _add_pair, `reloads` spread one at a time
    (gcc -O2 loads each just before its use, between ALU work: a run of loads would pipeline
    and cost fewer cycles than the measured code's)."""
    n = reloads // 15
    if slot < reloads % 15:
        n += 1
    _stack_traffic(m, n, 0)


@kernel(inline=True)
def _inside(reloads, first_slot):
    """How many of the reloads fall on the three slots inside one requantize."""
    n = 0
    for slot in range(first_slot, first_slot + 3):
        n += reloads // 15 + (1 if slot < reloads % 15 else 0)
    return n


@kernel
def _add_pair(m, input_1, input_2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
              out_activation_min, out_activation_max, reloads):
    """One sum: requantize both shifted inputs, add, requantize, clamp.  `q1`, `q2`, `qo` are
    the hoisted (left_shift, right_shift, mask, threshold) tuples; `reloads` stack reloads
    (fitted) are spread over 15 slots, three inside each requantize."""
    _reload(m, reloads, 0)
    input_1 = requantize_in_loop_branching(m, input_1, input_1_mult, q1[0], q1[1], q1[2],
                                           q1[3], q1[0] > 0, SIGN_BRANCH, False,
                                           _inside(reloads, 1))
    _reload(m, reloads, 4)
    input_2 = requantize_in_loop_branching(m, input_2, input_2_mult, q2[0], q2[1], q2[2],
                                           q2[3], q2[0] > 0, SIGN_BRANCH, False,
                                           _inside(reloads, 5))
    _reload(m, reloads, 8)
    total = add(m, input_1, input_2)                       # sum = input_1 + input_2;
    _reload(m, reloads, 9)
    total = requantize_in_loop_branching(m, total, out_mult, qo[0], qo[1], qo[2], qo[3],
                                         qo[0] > 0, SIGN_BRANCH, False, _inside(reloads, 10))
    _reload(m, reloads, 13)
    total = max_lt(m, total, out_activation_min)           # sum = MAX(sum, out_activation_min);
    _reload(m, reloads, 14)
    total = min_ge(m, total, out_activation_max)           # sum = MIN(sum, out_activation_max);  (IT GE)
    return total


@kernel
def arm_elementwise_add_s16(m, input_1_vect, input_2_vect, input_1_offset, input_1_mult,
                            input_1_shift, input_2_offset, input_2_mult, input_2_shift,
                            left_shift, output, out_offset, out_mult, out_shift,
                            out_activation_min, out_activation_max, block_size):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    q1 = requantize_setup(m, input_1_shift)                # hoisted out of the loops
    q2 = requantize_setup(m, input_2_shift)
    qo = requantize_setup(m, out_shift)
    _stack_traffic(m, 0, 3)                                # hoisted values spilled to the frame
    # fitted per pair of elements (add_s16_1000): stack reloads per sum, further reloads
    # and spills per pair; gcc's two builds allocate registers a little differently
    reloads = 18 if m.dsp else 17
    pair_reloads = 0 if m.dsp else 1
    spills = 5 if m.dsp else 4
    loop_count = asr(m, block_size, 1)                     # loop_count = block_size / 2;
    cmp(m, loop_count, 0)                                  # while (loop_count > 0)
    bcc(m, loop_count <= 0)
    while loop_count > 0:
        _stack_traffic(m, pair_reloads, spills)
        fitted_ldrd_sp(m)                                  # fitted: a spilled pair reloaded
        if not m.dsp:
            mov(m, 0)                                      # fitted: a register copy (scalar build)
        for shift in (input_1_shift, input_2_shift, out_shift):
            cmp(m, shift, 0)                               # the shift's sign, tested per iteration:
            bcc(m, shift > 0)                              # BGT to the path without rounding
        two_halfword_1 = ldr(m, input_1_vect)              # arm_nn_read_q15x2_ia(&input_1_vect);
        input_1_vect += 4
        two_halfword_2 = ldr(m, input_2_vect)              # arm_nn_read_q15x2_ia(&input_2_vect);
        input_2_vect += 4
        # input_x = (int16_t)(two_halfword_x & 0xFFFF) << left_shift;
        x1 = lsl(m, sxth(m, two_halfword_1, 0), left_shift)
        x2 = lsl(m, sxth(m, two_halfword_2, 0), left_shift)
        sum_1 = _add_pair(m, x1, x2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                          out_activation_min, out_activation_max, reloads)
        # input_x = (int16_t)(two_halfword_x >> 16) << left_shift;
        x1 = lsl(m, asr(m, two_halfword_1, 16), left_shift)
        x2 = lsl(m, asr(m, two_halfword_2, 16), left_shift)
        sum_2 = _add_pair(m, x1, x2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                          out_activation_min, out_activation_max, reloads)
        # arm_nn_write_q15x2_ia(&output, PACK_Q15x2_32x1(sum_1, sum_2));
        str_(m, output, orr(m, uxth(m, sum_1, 0), sum_2 << 16))
        output += 4
        loop_count = sub(m, loop_count, 1)                 # loop_count--;
        cmp(m, loop_count, 0)
        bcc(m, loop_count > 0)
    loop_count = and_(m, block_size, 1)                    # loop_count = block_size & 0x1;
    cmp(m, loop_count, 0)
    bcc(m, loop_count <= 0)
    while loop_count > 0:
        x1 = lsl(m, ldrsh(m, input_1_vect), left_shift)    # input_1 = *input_1_vect++ << left_shift;
        input_1_vect += 2
        x2 = lsl(m, ldrsh(m, input_2_vect), left_shift)    # input_2 = *input_2_vect++ << left_shift;
        input_2_vect += 2
        total = _add_pair(m, x1, x2, input_1_mult, q1, input_2_mult, q2, out_mult, qo,
                          out_activation_min, out_activation_max, reloads)
        strh(m, output, total)                             # *output++ = (int16_t)sum;
        output += 2
        loop_count = sub(m, loop_count, 1)                 # loop_count--;
        cmp(m, loop_count, 0)
        bcc(m, loop_count > 0)
    add(m, 0, 0)                                           # add sp, sp, #frame
    pop_pc(m, 9)
    return 0
