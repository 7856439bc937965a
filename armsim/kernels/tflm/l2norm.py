"""TFLite Micro's int8 L2_NORMALIZATION (l2norm.cc -> reference_integer_ops::L2Normalization,
kernels/internal/reference/integer_ops/l2normalization.h), counted:

    for each row (outer_size rows of depth values, the last dim):
        acc = sum((input - input_zero_point)^2)
        GetInvSqrtQuantizedMultiplierExp(acc, kReverseShift = -1, &multiplier, &shift)
        output = clamp(MultiplyByQuantizedMultiplier(input - zp, multiplier, shift + 7),
                       -128, 127)                      (1/128 scale, whatever the tensor's)

GetInvSqrtQuantizedMultiplierExp (common.h, inline): acc <= 1 gives (INT32_MAX, 0); else the
shift starts at 11, acc is divided by 4 while >= 2^29, normalised by an even left shift
(CLZ), and 1 / sqrt is found by five Newton-Raphson steps x = 3/2 x - input/2 x^3 in
gemmlowp's FixedPoint<int32_t, 3> (SaturatingRoundingDoublingHighMul products, Rescale<3> =
SaturatingRoundingMultiplyByPOT<6> / <3> with saturation masks), times sqrt(2)/2.
MultiplyByQuantizedMultiplier is TFLM's compiled out-of-line function (kernels/tflm/common.py),
the fixed-point helpers kernels/tflm/fixedpoint.py's.  The two element loops are transcribed
from gcc's disassembly of the retyped kernel (not committed; arm-none-eabi-g++ 12.2 -O2
-mcpu=cortex-m4 -mthumb -DNDEBUG); GetInvSqrtQuantizedMultiplierExp, which gcc unrolls and
specialises heavily, is an estimate from the C.  On unicorn's Cortex-M4 the compiled code
executes 6129, 544, 6608 and 459326 instructions for rows (2,3,16), (5,), (1,2,2,30) and one
row of 9000 at its extreme (the divide-by-4 loop); this port counts 6004, 514, 6521 and
459302: the loops match, the per-row inverse square root is 15-30 instructions short.
Nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, asr, bcc, bl, clz, cmp, ldrsb, lsl, lsr, mla, mov, mvn, pop_pc,
                            push, rsb, strb, sub)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.fixedpoint import (rounding_divide_by_pot, saturating_multiply_by_pot,
                                            srdhm)

NAME = "tflite::reference_integer_ops::L2Normalization"
INT32_MIN = -(2**31)
HALF_THREE_Q3 = (1 << 28) + (1 << 27)       # 1.5 in Q3.28
HALF_SQRT_2_Q0 = 1518500250                 # sqrt(2) / 2 in Q0.31
K_OUTPUT_SCALE = 7


@kernel(inline=True)
def inv_sqrt_multiplier_exp(m, acc):
    """GetInvSqrtQuantizedMultiplierExp(acc, -1): (multiplier, left shift)."""
    cmp(m, acc, 1)
    bcc(m, acc <= 1)
    if acc <= 1:
        multiplier = mvn(m, INT32_MIN)
        shift = mov(m, 0)
        return multiplier, shift
    shift = mov(m, 11)
    while True:                                         # while (input >= (1 << 29))
        cmp(m, acc, 1 << 29)
        bcc(m, acc >= 1 << 29)
        if acc < 1 << 29:
            break
        sign = asr(m, acc, 31)                          # input /= 4 (signed division)
        acc = asr(m, add(m, acc, (sign >> 30) & 3), 2)  # ADD Rd, Rn, Rm, LSR #30
        shift = add(m, shift, 1)
    max_left_shift_bits = sub(m, clz(m, acc), 1)
    left_shift_bit_pairs = sub(m, lsr(m, max_left_shift_bits, 1), 1)
    shift = sub(m, shift, left_shift_bit_pairs)
    acc = lsl(m, acc, lsl(m, left_shift_bit_pairs, 1))
    fixedpoint_input = asr(m, acc, 1)
    half_input = rounding_divide_by_pot(m, fixedpoint_input, 1)
    half_three = mov(m, HALF_THREE_Q3)
    x = mov(m, 1 << 28)                                 # F3::One()
    for i in range(5):                                  # Newton-Raphson
        x3 = saturating_multiply_by_pot(m, srdhm(m, srdhm(m, x, x), x), 6)
        x = saturating_multiply_by_pot(m, sub(m, srdhm(m, half_three, x),
                                              srdhm(m, half_input, x3)), 3)
        cmp(m, i + 1, 5)
        bcc(m, i + 1 < 5)
    multiplier = srdhm(m, x, mov(m, HALF_SQRT_2_Q0))
    cmp(m, shift, 0)
    bcc(m, shift < 0)
    if shift < 0:
        multiplier = lsl(m, multiplier, rsb(m, shift, 0))
        shift = mov(m, 0)
    shift = rsb(m, shift, 0)                            # *= kReverseShift
    return multiplier, shift


@kernel
def l2_normalization_s8(m, input_zero_point, outer_size, depth, input_data, output_data):
    push(m, 9)
    for outer_index in range(outer_size):
        row = input_data + depth * outer_index
        acc = mov(m, 0)
        for inner_index in range(depth):
            v = sub(m, ldrsb(m, row + inner_index), input_zero_point)
            cmp(m, inner_index + 1, depth)
            acc = mla(m, v, v, acc)                     # acc += input * input
            bcc(m, inner_index + 1 < depth)
        multiplier, shift = inv_sqrt_multiplier_exp(m, acc)
        shift = add(m, shift, K_OUTPUT_SCALE)
        out = output_data + depth * outer_index
        for inner_index in range(depth):
            x = ldrsb(m, row + inner_index)             # ldrsb.w r0, [r4], #1
            mov(m, shift)                               # mov r2, r7
            v = sub(m, x, input_zero_point)
            mov(m, multiplier)                          # mov r1, sl
            bl(m)
            r = MultiplyByQuantizedMultiplier(m, v, multiplier, shift)
            r = min_ge(m, r, 127)
            r = max_lt(m, r, -128)
            cmp(m, inner_index + 1, depth)
            strb(m, out + inner_index, r)               # strb.w r0, [r9, #1]!
            bcc(m, inner_index + 1 < depth)
        cmp(m, outer_index + 1, outer_size)
        bcc(m, outer_index + 1 < outer_size)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    run(l2_normalization_s8, m, case["input_zero_point"], case["outer_size"], case["depth"],
        addr["input"], addr["output"], tracer=tracer)
    return [NAME, MBQM]
