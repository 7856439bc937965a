"""TFLite Micro's int8 LOG_SOFTMAX (log_softmax.cc -> reference_ops::LogSoftmax ->
LogSoftmaxQuantized<int8_t>, kernels/internal/reference/log_softmax.h), counted:

    per row (outer_size rows of depth values):
        max_in_row = max(input)
        sum_of_exps (Q12.19) = sum over diff = input - max >= diff_min of
            Rescale<12>(exp_on_negative_values(MultiplyByQuantizedMultiplier(diff,
                                                   input_multiplier, input_left_shift)))
        log_sum (Q5.26) = log_x_for_x_greater_than_or_equal_to_1<5>(sum_of_exps)
        adjusted_diff_min = max(diff_min - 1, MultiplyByQuantizedMultiplier(
            log_sum + INT32_MIN, reverse_scaling_divisor, -reverse_scaling_right_shift))
        output = diff > adjusted_diff_min
                 ? clamp(RoundingDivideByPOT(MultiplyByQuantizedMultiplier(diff, ...) - log_sum,
                                             22) + 127, -128, 127)
                 : -128

log_x_for_x_greater_than_or_equal_to_1_impl<5, 12> (common.h) is ported in full: the two
CLZ normalisations, SaturatingRoundingMultiplyByPOTParam, SaturatingAddNonGemmlowp /
SaturatingSub, RoundingHalfSum, the rational approximation with gemmlowp products and
one_over_one_plus_x_for_x_in_0_1.  exp_on_negative_values<long, 5> and
one_over_one_plus_x_for_x_in_0_1 are the compiled ones of the softmax port (out of line: a
BL each), MultiplyByQuantizedMultiplier TFLM's compiled one, the other fixed-point helpers
kernels/tflm/fixedpoint.py's.  The loops and log_x's own bookkeeping are an estimate from
the C, not a compiled listing.  Checked against the C (log_softmax.h with gemmlowp's
functions retyped, not committed; arm-none-eabi-g++ 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG) run on
unicorn's Cortex-M4 with the same operands -- same outputs; rows (2,3,16) at scale 0.05,
(5,) at 0.5, (1,2,300) at 0.004, (3,4) at 2, (4,7) at 0.02: 30345, 1368, 176802, 2314, 9839
instructions measured, 29399, 1317, 170776, 2250, 9554 counted here (2.8-3.7 % fewer).
Nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, bl, clz, cmp, ldrsb, mov, pop_pc, push, rsb, strb, sub
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.fixedpoint import (rounding_divide_by_pot, rounding_half_sum,
                                            saturating_add, saturating_multiply_by_pot,
                                            saturating_multiply_by_pot_param, saturating_sub,
                                            srdhm)
from armsim.kernels.tflm.softmax import (EXP, EXP_INTERVAL, RECIPROCAL, exp_on_negative_values,
                                         one_over_one_plus_x_for_x_in_0_1)

NAME = "tflite::reference_ops::LogSoftmaxQuantized<signed char>"
INT32_MIN = -(2**31)
INPUT_INTEGER_BITS = 5              # kInputIntegerBits (F5), log_x's OutputIntegerBits
ACCUMULATION_INTEGER_BITS = 12      # kAccumulationIntegerBits (F12), log_x's input
OUTPUT_INTEGER_BITS = 4             # kOutputIntegerBits
ACCUM_BITS = INPUT_INTEGER_BITS + 1     # log_x's kAccumIntegerBits
LOG_2 = 1488522236
SQRT_SQRT_HALF = 1805811301
SQRT_HALF = 1518500250
ONE_QUARTER = 536870912
ALPHA_N = 117049297
ALPHA_D = 127690142
ALPHA_I = 1057819769
ALPHA_F = 638450708


@kernel(inline=True)
def log_x_for_x_greater_than_or_equal_to_1(m, z_a):
    """log_x_for_x_greater_than_or_equal_to_1_impl<5, 12>(z_a): Q12.19 in, Q5.26 out."""
    shifted_quarter = mov(m, ONE_QUARTER >> ACCUM_BITS)     # Rescale<6>(one_quarter)
    z_a_headroom_plus_1 = clz(m, z_a)
    r_a_tmp = saturating_multiply_by_pot_param(m, z_a, sub(m, z_a_headroom_plus_1, 1))
    r_a_raw = saturating_multiply_by_pot_param(m, srdhm(m, r_a_tmp, mov(m, SQRT_HALF)), 1)
    z_a_pow_2_adj = saturating_add(m, saturating_multiply_by_pot_param(
        m, sub(m, ACCUMULATION_INTEGER_BITS, z_a_headroom_plus_1), 31 - ACCUM_BITS),
        shifted_quarter)
    z_b = srdhm(m, z_a, mov(m, SQRT_HALF))
    z_b_headroom = sub(m, clz(m, z_b), 1)
    r_b_raw = saturating_multiply_by_pot_param(m, z_a, z_b_headroom)
    z_b_pow_2_adj = saturating_sub(m, saturating_multiply_by_pot_param(
        m, sub(m, ACCUMULATION_INTEGER_BITS, z_b_headroom), 31 - ACCUM_BITS), shifted_quarter)
    r = min_ge(m, r_a_raw, r_b_raw)                         # std::min
    z_pow_2_adj = max_lt(m, z_a_pow_2_adj, z_b_pow_2_adj)   # std::max
    p = rounding_half_sum(m, r, mov(m, SQRT_SQRT_HALF))
    q = sub(m, r, SQRT_SQRT_HALF)
    q = add(m, q, q)
    common_sq = srdhm(m, q, q)
    num = add(m, srdhm(m, q, r), srdhm(m, srdhm(m, q, common_sq), mov(m, ALPHA_N)))
    inner = add(m, add(m, mov(m, ALPHA_I), q), srdhm(m, mov(m, ALPHA_D), common_sq))
    denom_minus_one_0 = add(m, srdhm(m, p, inner), srdhm(m, mov(m, ALPHA_F), q))
    bl(m)
    recip_denom = one_over_one_plus_x_for_x_in_0_1(m, denom_minus_one_0)
    num_scaled = rounding_divide_by_pot(m, num, ACCUM_BITS)  # Rescale<6>(F0)
    total = add(m, srdhm(m, z_pow_2_adj, mov(m, LOG_2)), srdhm(m, num_scaled, recip_denom))
    return saturating_multiply_by_pot(m, total, ACCUM_BITS - INPUT_INTEGER_BITS)  # Rescale<5>


@kernel
def log_softmax_s8(m, input_multiplier, input_left_shift, reverse_scaling_divisor,
                   reverse_scaling_right_shift, diff_min, outer_size, depth, input_data,
                   output_data):
    push(m, 9)
    for outer_index in range(outer_size):
        row = input_data + outer_index * depth
        out = output_data + outer_index * depth
        max_in_row = mov(m, -128)
        for inner_index in range(depth):
            max_in_row = max_lt(m, ldrsb(m, row + inner_index), max_in_row)  # std::max
            cmp(m, inner_index + 1, depth)
            bcc(m, inner_index + 1 < depth)
        sum_of_exps = mov(m, 0)
        for inner_index in range(depth):
            input_diff = sub(m, ldrsb(m, row + inner_index), max_in_row)
            cmp(m, input_diff, diff_min)
            bcc(m, input_diff < diff_min)
            if input_diff >= diff_min:
                bl(m)
                diff_in_q5 = MultiplyByQuantizedMultiplier(m, input_diff, input_multiplier,
                                                           input_left_shift)
                bl(m)
                e = exp_on_negative_values(m, diff_in_q5)
                sum_of_exps = add(m, sum_of_exps,
                                  rounding_divide_by_pot(m, e, ACCUMULATION_INTEGER_BITS))
            cmp(m, inner_index + 1, depth)
            bcc(m, inner_index + 1 < depth)
        log_sum = log_x_for_x_greater_than_or_equal_to_1(m, sum_of_exps)
        shifted_log_sum = add(m, log_sum, INT32_MIN)
        bl(m)
        scaled = MultiplyByQuantizedMultiplier(m, shifted_log_sum, reverse_scaling_divisor,
                                               rsb(m, reverse_scaling_right_shift, 0))
        adjusted_diff_min = max_lt(m, sub(m, diff_min, 1), scaled)  # std::max
        for inner_index in range(depth):
            input_diff = sub(m, ldrsb(m, row + inner_index), max_in_row)
            cmp(m, input_diff, adjusted_diff_min)
            bcc(m, input_diff <= adjusted_diff_min)
            if input_diff > adjusted_diff_min:
                bl(m)
                diff_in_q5 = MultiplyByQuantizedMultiplier(m, input_diff, input_multiplier,
                                                           input_left_shift)
                output = rounding_divide_by_pot(
                    m, sub(m, diff_in_q5, log_sum),
                    31 - INPUT_INTEGER_BITS - OUTPUT_INTEGER_BITS)
                output = add(m, output, 127)
                output = min_ge(m, output, 127)
                output = max_lt(m, output, -128)
            else:
                output = mov(m, -128)
            strb(m, out + inner_index, output)
            cmp(m, inner_index + 1, depth)
            bcc(m, inner_index + 1 < depth)
        cmp(m, outer_index + 1, outer_size)
        bcc(m, outer_index + 1 < outer_size)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    run(log_softmax_s8, m, case["input_multiplier"], case["input_left_shift"],
        case["reverse_scaling_divisor"], case["reverse_scaling_right_shift"], case["diff_min"],
        case["outer_size"], case["depth"], addr["input"], addr["output"], tracer=tracer)
    return [NAME, MBQM, EXP, EXP_INTERVAL, RECIPROCAL]
