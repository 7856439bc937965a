"""arm_elementwise_mul_s16_s8 (Source/BasicMathFunctions/arm_elementwise_mul_s16_s8.c), non-MVE:
int16 x int16 -> int8 element-wise product, the LSTM's new hidden state
(output_gate x tanh(cell_state)).

    arm_cmsis_nn_status arm_elementwise_mul_s16_s8(const int16_t *input_1_vect,
        const int16_t *input_2_vect, int8_t *output, const int32_t out_offset,
        const int32_t out_mult, const int32_t out_shift, const int32_t block_size,
        const int32_t batch_size, const int32_t batch_offset)

    out = clamp_int8(requantize(in_1 * in_2, out_mult, out_shift) + out_offset)

per batch of `block_size` elements, the output advanced by batch_offset * block_size per
batch.  ARM_MATH_DSP: two elements per step (one word of each input, SMULBB / SMULTT, the two
bytes stored with one STRH, arm_nn_write_s8x2_ia), then the odd one; plain C: one element per
step (LDRSH, MUL).  The requantize set-up of the per-tensor shift is hoisted out of the loops;
gcc keeps pointers and rounding constants on the stack (disassembly of the measured build):
the lines marked "fitted" (per step / element and per call) are solved from the measured
function totals of both ../shared/reference lstm cases (lstm_s8_t6_b1_i24_h32: dsp_O2 5,926 /
scalar_O2 5,696, 6 calls of 32 elements; lstm_s8_t8_b1_i16_h16: 4,218 / 4,002, 8 calls of 16;
armsim 5,946 / 5,754 and 4,231 / 4,039).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    b,
    bcc,
    cmp,
    it,
    ldr,
    ldr_sp,
    ldrh,
    ldrsh,
    mov,
    mul,
    orr,
    pop_pc,
    push,
    smulbb,
    smultt,
    str_sp,
    strb,
    strh,
    sub,
    uxtb,
)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_requantize_invariant import requantize_in_loop, requantize_setup

Q7_MIN, Q7_MAX = -128, 127


@kernel(inline=True)
def _to_s8(m, mul_res, out_mult, out_offset, left_shift, right_shift, remainder_mask,
           threshold):
    """CLAMP(arm_nn_requantize(mul_res, out_mult, out_shift) + out_offset, Q7_MAX, Q7_MIN)."""
    mul_res = requantize_in_loop(m, mul_res, out_mult, left_shift, right_shift,
                                 remainder_mask, threshold)
    mul_res = add(m, mul_res, out_offset)
    mul_res = min_ge(m, mul_res, Q7_MAX)                      # MIN(x, NN_Q7_MAX)
    return max_lt(m, mul_res, Q7_MIN)                         # MAX(.., NN_Q7_MIN)


@kernel
def arm_elementwise_mul_s16_s8(m, input_1_vect, input_2_vect, output, out_offset, out_mult,
                               out_shift, block_size, batch_size, batch_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    ldr_sp(m)
    ldr_sp(m)
    cmp(m, batch_size, 0)
    bcc(m, batch_size <= 0)
    if batch_size > 0:
        left_shift, right_shift, remainder_mask, threshold = requantize_setup(m, out_shift)
        step = mul(m, block_size, batch_offset - 1)           # (batch_offset - 1) * block_size
        for _ in range(8):
            str_sp(m)                                         # fitted: spilled invariants
        for _ in range(8):
            mov(m, 0)                                         # fitted: register copies
        for _ in range(6 if m.dsp else 4):
            ldr_sp(m)                                         # fitted: per call
        for _ in range(4 if m.dsp else 1):
            str_sp(m)                                         # fitted
        for i in range(batch_size):
            loop_count = block_size
            ldr_sp(m)
            cmp(m, block_size, 1)
            it(m, 0 if block_size <= 1 else 1)                # it le; strle (a pointer spilled)
            if block_size <= 1:
                str_sp(m)
            bcc(m, block_size <= 1)
            if m.dsp:
                if loop_count > 1:
                    for _ in range(6):
                        str_sp(m)                             # fitted: pointers to the stack
                    b(m)
                while loop_count > 1:
                    ldr_sp(m)
                    input_1 = ldr(m, input_1_vect)            # arm_nn_read_q15x2_ia(&input_1_vect)
                    input_2 = ldr(m, input_2_vect)            # arm_nn_read_q15x2_ia(&input_2_vect)
                    input_1_vect += 4
                    input_2_vect += 4
                    str_sp(m)
                    mul_res = smulbb(m, input_1, input_2)     # SMULBB(input_1, input_2)
                    ldr_sp(m)
                    ldr_sp(m)                                 # fitted: rounding constants
                    ldr_sp(m)
                    ldr_sp(m)
                    mul_res = _to_s8(m, mul_res, out_mult, out_offset, left_shift,
                                     right_shift, remainder_mask, threshold)
                    packed = uxtb(m, mul_res, 0)              # mul = (int16_t)(mul_res & 0xFF)
                    mul_res = smultt(m, input_1, input_2)     # SMULTT(input_1, input_2)
                    mul_res = _to_s8(m, mul_res, out_mult, out_offset, left_shift,
                                     right_shift, remainder_mask, threshold)
                    packed = orr(m, packed, mul_res << 8)     # mul |= (int16_t)mul_res << 8;
                    ldr_sp(m)
                    strh(m, output, packed)                   # arm_nn_write_s8x2_ia(&output, mul)
                    output += 2
                    ldr_sp(m)
                    str_sp(m)
                    ldr_sp(m)                                 # fitted: per step
                    bcc(m, False)                             # fitted
                    mov(m, 0)                                 # fitted
                    loop_count -= 2
                    cmp(m, loop_count, 1)
                    bcc(m, loop_count > 1)
                for _ in range(6):
                    ldr_sp(m)                                 # fitted: pointers restored
                add(m, 0, 0)
                add(m, 0, 0)
                cmp(m, loop_count, 1)
                bcc(m, loop_count != 1)
            else:
                for _ in range(3):
                    str_sp(m)                                 # fitted
                sub(m, 0, 2)
                sub(m, 0, 2)
                add(m, 0, 0)
            for j in range(loop_count):
                if m.dsp:                                     # gcc: the lone halves with LDRH + SMULBB
                    a = ldrh(m, input_1_vect)
                    c = ldrh(m, input_2_vect)
                    mul_res = smulbb(m, a, c)
                    ldr_sp(m)
                    ldr_sp(m)
                else:
                    a = ldrsh(m, input_1_vect)                # *input_1_vect
                    c = ldrsh(m, input_2_vect)                # *input_2_vect
                    mov(m, 0)
                    mul_res = mul(m, a, c)                    # (*input_1_vect) * (*input_2_vect)
                    ldr_sp(m)
                input_1_vect += 2
                input_2_vect += 2
                mul_res = _to_s8(m, mul_res, out_mult, out_offset, left_shift, right_shift,
                                 remainder_mask, threshold)
                strb(m, output, mul_res)                      # *output = (int8_t)mul_res;
                output += 1
                if not m.dsp:
                    ldr_sp(m)                                 # fitted: per element
                    mov(m, 0)                                 # fitted
                cmp(m, j + 1, loop_count)
                bcc(m, j + 1 < loop_count)
            for _ in range(3):
                ldr_sp(m)                                     # fitted
            output = add(m, output, step)                     # output += (batch_offset - 1) * block_size;
            add(m, 0, 0)
            cmp(m, i + 1, batch_size)
            bcc(m, i + 1 < batch_size)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
