"""arm_elementwise_mul_s16 (Source/BasicMathFunctions/arm_elementwise_mul_s16.c), non-MVE: int16 x
int16 -> int16 element-wise product, requantized and clamped (offsets unused: symmetric).

    arm_cmsis_nn_status arm_elementwise_mul_s16(const int16_t *input_1_vect,
        const int16_t *input_2_vect, const int32_t input_1_offset, const int32_t input_2_offset,
        int16_t *output, const int32_t out_offset, const int32_t out_mult,
        const int32_t out_shift, const int32_t out_activation_min,
        const int32_t out_activation_max, const int32_t block_size)

Two elements per step from one word of each input (arm_nn_read_q15x2_ia): ARM_MATH_DSP
multiplies the halves with SMULBB / SMULTT, plain C sign-extends them (SXTH, ASR #16) for a
MUL; the two results are packed (PKHBT-like UXTH + ORR LSL #16) into one word store; an odd
last element alone.  In the LSTM step it computes forget_gate x cell_state into the cell
state (in place).  `mul_s16_pair_loop` is shared with arm_elementwise_mul_acc_s16 (same code
plus the accumulation).

The per-tensor shift is loop-invariant (arm_nn_requantize_invariant).  gcc keeps the loop
counter and the activation bounds on the stack (disassembly of the measured build); the lines
marked "fitted" (per step and per call) are solved from the measured function totals of both
../shared/reference lstm cases (arm_elementwise_mul_s16: lstm_s8_t6_b1_i24_h32 dsp_O2 5,696 /
scalar_O2 6,169, 6 calls of 32 elements; lstm_s8_t8_b1_i16_h16 4,008 / 4,320, 8 calls of 16;
armsim 5,698 / 6,178 and 4,000 / 4,320; arm_elementwise_mul_acc_s16 6,115 / 6,620 and
4,289 / 4,644, armsim 6,149 / 6,629 and 4,305 / 4,625).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    asr,
    b,
    bcc,
    cmp,
    ldr,
    ldr_sp,
    ldrsh,
    mov,
    mul,
    orr,
    pop_pc,
    push,
    smulbb,
    smultt,
    str_,
    str_sp,
    strh,
    sub,
    sxth,
    tst,
    uxth,
)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_requantize import arm_nn_requantize
from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup


@kernel(inline=True)
def _product(m, a, b_, top):
    """The product of the bottom (top False) or top halves of two packed words."""
    if m.dsp:
        if top:
            return smultt(m, a, b_)                           # SMULTT(two_halfword_1, two_halfword_2)
        return smulbb(m, a, b_)                               # SMULBB(two_halfword_1, two_halfword_2)
    if top:
        return mul(m, asr(m, a, 16), asr(m, b_, 16))          # (int16_t)(x >> 16) products
    return mul(m, sxth(m, a, 0), sxth(m, b_, 0))              # (int16_t)(x & 0xFFFF) products


@kernel
def mul_s16_pair_loop(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                      activation_min, activation_max, block_size, accumulate):
    """The body of arm_elementwise_mul_s16 (accumulate False) and arm_elementwise_mul_acc_s16
    (True: the requantized product is added to the output before the clamp)."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    for _ in range(4):
        ldr_sp(m)                                             # stacked arguments
    cmp(m, block_size, 1)
    loop_count = block_size // 2                              # loop_count = block_size / 2;
    add(m, block_size, 0)
    bcc(m, loop_count == 0)
    if loop_count:
        left_shift, right_shift, remainder_mask, threshold = requantize_setup(m, out_shift)
        for _ in range(7):
            str_sp(m)                                         # fitted: spilled invariants
        for _ in range(6):
            mov(m, 0)                                         # fitted: register copies
        b(m)
        while loop_count > 0:
            word_1 = ldr(m, input_1_vect)                     # arm_nn_read_q15x2_ia(&input_1_vect)
            word_2 = ldr(m, input_2_vect)                     # arm_nn_read_q15x2_ia(&input_2_vect)
            input_1_vect += 4
            input_2_vect += 4
            mul_res = _product(m, word_1, word_2, False)
            ldr_sp(m)                                         # fitted: out_shift reloaded
            mul_res = requantize_in_loop(m, mul_res, out_mult, left_shift, right_shift,
                                         remainder_mask, threshold)
            if accumulate:
                mul_res = add(m, mul_res, ldrsh(m, output))   # mul_res += output[0];
            ldr_sp(m)
            mul_res = max_lt(m, mul_res, activation_min)      # MAX(mul_res, out_activation_min)
            ldr_sp(m)
            mul_1 = min_ge(m, mul_res, activation_max)        # MIN(mul_res, out_activation_max)
            mul_1 = sxth(m, mul_1, 0)                         # mul_1 = (int16_t)mul_res;
            mul_res = _product(m, word_1, word_2, True)
            mul_res = requantize_in_loop(m, mul_res, out_mult, left_shift, right_shift,
                                         remainder_mask, threshold)
            if accumulate:
                mul_res = add(m, mul_res, ldrsh(m, output + 2))   # mul_res += output[1];
            ldr_sp(m)
            mul_res = max_lt(m, mul_res, activation_min)
            ldr_sp(m)
            mul_2 = min_ge(m, mul_res, activation_max)
            packed = orr(m, uxth(m, mul_1, 0), mul_2 << 16)   # PACK_Q15x2_32x1(mul_1, mul_2)
            str_(m, output, packed)                           # arm_nn_write_q15x2_ia(&output, ..)
            output += 4
            for _ in range(3):
                ldr_sp(m)                                     # fitted: per step (see docstring)
            mov(m, 0)                                         # fitted
            mov(m, 0)                                         # fitted
            bcc(m, False)                                     # fitted
            if not m.dsp:
                b(m)                                          # fitted
            ldr_sp(m)                                         # loop_count kept on the stack
            loop_count = sub(m, loop_count, 1)
            str_sp(m)
            bcc(m, loop_count != 0)
        for _ in range(5):
            ldr_sp(m)                                         # fitted: pointers restored
        for _ in range(5):
            add(m, 0, 0)
    tst(m, block_size, 1)                                     # loop_count = block_size & 0x1;
    bcc(m, (block_size & 1) == 0)
    if block_size & 1:
        input_1 = ldrsh(m, input_1_vect)                      # input_1 = *input_1_vect++;
        input_2 = ldrsh(m, input_2_vect)                      # input_2 = *input_2_vect++;
        mul_res = mul(m, input_1, input_2)                    # mul_res = input_1 * input_2;
        ldr_sp(m)
        mul_res = arm_nn_requantize(m, mul_res, out_mult, out_shift)
        if accumulate:
            mul_res = add(m, mul_res, ldrsh(m, output))       # mul_res += output[0];
        mul_res = max_lt(m, mul_res, activation_min)
        ldr_sp(m)
        mul_res = min_ge(m, mul_res, activation_max)
        strh(m, output, mul_res)                              # *output++ = (int16_t)mul_res;
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


@kernel
def arm_elementwise_mul_s16(m, input_1_vect, input_2_vect, input_1_offset, input_2_offset,
                            output, out_offset, out_mult, out_shift, out_activation_min,
                            out_activation_max, block_size):
    """Returns ARM_CMSIS_NN_SUCCESS (0); the offsets are unused (symmetric int16)."""
    return mul_s16_pair_loop(m, input_1_vect, input_2_vect, output, out_mult, out_shift,
                             out_activation_min, out_activation_max, block_size, False)
