"""arm_nn_softmax_common_s8 (Source/SoftmaxFunctions/arm_nn_softmax_common_s8.c), s8 output.

    void arm_nn_softmax_common_s8(const int8_t *input, const int32_t num_rows,
        const int32_t row_size, const int32_t mult, const int32_t shift,
        const int32_t diff_min, const bool int16_output, void *output)

Per row: the maximum; sum of DIV_POW2(EXP_ON_NEG(MUL_SAT(diff * mask, mult)), ACCUM_BITS)
over the columns with diff >= diff_min; headroom = CLZ(sum); shifted_scale =
ONE_OVER1((sum > 0 ? sum << headroom : 0) - (1 << 31)); every column again:
DIV_POW2(MUL_SAT(shifted_scale, EXP_ON_NEG(...)), bits_over_unit) - 128, clamped, or -128
when diff < diff_min.  No ARM_MATH_DSP code.  `int16_output` (arm_softmax_s8_s16): the same
with bits_over_unit 15 bits lower, NN_Q15_MIN / NN_Q15_MAX and int16 stores.

Calibration (../shared/reference, gcc -O2): softmax_1x10 (int8 output; no measured case
has the int16 output, whose branch reuses the int8 branch's fitted spills).  The fixed-point helpers keep
many constants and intermediate values live: gcc spills them, about 2 stack loads and 1
store per MUL_SAT in the measured code; they are the `fitted_ldr_sp` / `fitted_str_sp` per column below.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, cbz, clz, cmp, fitted_add, fitted_ldr_sp, fitted_str_sp,
                            it, ldrsb, lsl, mov, mul, pop_pc, push, rsb, strb, strh, sub)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_doubling_high_mult import arm_nn_doubling_high_mult
from .arm_nn_exp_on_negative_values import arm_nn_exp_on_negative_values
from .arm_nn_one_over_one_plus_x_for_x_in_0_1 import arm_nn_one_over_one_plus_x_for_x_in_0_1
from .arm_nn_divide_by_power_of_two_const import arm_nn_divide_by_power_of_two_const
from .arm_nn_requantize import arm_nn_divide_by_power_of_two

ACCUM_BITS = 12
NN_Q7_MIN = -128
NN_Q7_MAX = 127
NN_Q15_MIN = -32768
NN_Q15_MAX = 32767


@kernel(inline=True)
def _spills(m, loads, stores):
    for _ in range(loads):
        fitted_ldr_sp(m)
    for _ in range(stores):
        fitted_str_sp(m)


@kernel
def arm_nn_softmax_common_s8(m, input, num_rows, row_size, mult, shift, diff_min, int16_output,
                             output):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    _spills(m, 2, 6)
    mask = lsl(m, mov(m, 1), shift)                        # const int32_t mask = (1 << shift);
    cmp(m, num_rows, 0)                                    # for (row_idx = 0; row_idx < num_rows; ++row_idx)
    bcc(m, num_rows <= 0)
    for row_idx in range(num_rows):
        max_ = ldrsb(m, input)                             # int8_t max = *input;
        cmp(m, row_size, 1)
        bcc(m, row_size <= 1)
        for col in range(1, row_size):                     # max = MAX(max, input[col]);
            v = ldrsb(m, input + col)
            cmp(m, v, max_)
            it(m, v <= max_)                               # the MOV fails unless v > max
            if v > max_:
                max_ = mov(m, v)
            cmp(m, col + 1, row_size)
            bcc(m, col + 1 < row_size)
        total = mov(m, 0)                                  # int32_t sum = 0;
        cmp(m, row_size, 0)
        bcc(m, row_size <= 0)
        for col in range(row_size):
            diff = sub(m, ldrsb(m, input + col), max_)     # diff = input[col] - max;
            cmp(m, diff, diff_min)                         # if (diff >= diff_min)
            bcc(m, diff < diff_min)
            if diff >= diff_min:
                _spills(m, 14, 8)
                t = arm_nn_doubling_high_mult(m, mul(m, diff, mask), mult, False)  # MUL_SAT(diff * mask, mult)
                t = arm_nn_exp_on_negative_values(m, t)    # EXP_ON_NEG(...)
                t = arm_nn_divide_by_power_of_two_const(m, t, ACCUM_BITS)  # DIV_POW2(..., ACCUM_BITS)
                total = add(m, total, t)                   # sum += ...
            cmp(m, col + 1, row_size)
            bcc(m, col + 1 < row_size)
        headroom = clz(m, total)                           # const int32_t headroom = CLZ(sum);
        cmp(m, total, 0)                                   # sum > 0 ? sum << headroom : 0
        it(m, 1)                                           # ITE: one of the two arms fails
        if total > 0:
            scaled = lsl(m, total, headroom)
        else:
            scaled = mov(m, 0)
        _spills(m, 6, 4)
        shifted_scale = arm_nn_one_over_one_plus_x_for_x_in_0_1(m, sub(m, scaled, -0x80000000))
        cbz(m, not int16_output)                           # if (int16_output)
        if int16_output:
            bits_over_unit = rsb(m, headroom, ACCUM_BITS + 15)  # ACCUM_BITS - headroom + 15
            out_min, out_max, size = NN_Q15_MIN, NN_Q15_MAX, 2
        else:
            bits_over_unit = rsb(m, headroom, ACCUM_BITS + 23)  # ACCUM_BITS - headroom + 23
            out_min, out_max, size = NN_Q7_MIN, NN_Q7_MAX, 1
        for col in range(row_size):
            diff = sub(m, ldrsb(m, input + col), max_)     # diff = input[col] - max;
            cmp(m, diff, diff_min)                         # if (diff >= diff_min)
            bcc(m, diff < diff_min)
            dst = output + (row_idx * row_size + col) * size
            if diff >= diff_min:
                _spills(m, 14, 8)
                t = arm_nn_doubling_high_mult(m, mul(m, diff, mask), mult, False)
                t = arm_nn_exp_on_negative_values(m, t)
                t = arm_nn_doubling_high_mult(m, shifted_scale, t, False)  # MUL_SAT(shifted_scale, ...)
                res = add(m, arm_nn_divide_by_power_of_two(m, t, bits_over_unit), out_min)
                res = min_gt(m, res, out_max)              # CLAMP(res, NN_Qx_MAX, NN_Qx_MIN)
                res = max_lt(m, res, out_min)
            else:
                res = mov(m, out_min)                      # output[col] = NN_Qx_MIN;
            if int16_output:
                strh(m, dst, res)                          # output_s16[col] = (int16_t)...
            else:
                strb(m, dst, res)                          # output_s8[col] = (int8_t)...
            if diff < diff_min:
                b(m)
            cmp(m, col + 1, row_size)
            bcc(m, col + 1 < row_size)
        input = add(m, input, row_size)                    # input += row_size;
        cmp(m, row_idx + 1, num_rows)
        bcc(m, row_idx + 1 < num_rows)
    fitted_add(m)
    pop_pc(m, 9)
