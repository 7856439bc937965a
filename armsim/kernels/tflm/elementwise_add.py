"""tflite::reference_integer_ops::Add (kernels/internal/reference/integer_ops/add.h, no
broadcast: ElementWise with AddFunc) as arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG
compiles it.  AddFunc and its three MultiplyByQuantizedMultiplierSmallerThanOneExp calls are
inlined into the element loop:

    input1_val = input1_offset + x;  input2_val = input2_offset + y
    scaled_input1_val = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(
                            input1_val * (1 << left_shift), input1_multiplier), -input1_shift)
    scaled_input2_val = (the same with input2)
    raw_output = RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(
                     scaled_input1_val + scaled_input2_val, output_multiplier), -output_shift)
                 + output_offset
    clamp to [quantized_activation_min, quantized_activation_max]

Each inlined SaturatingRoundingDoublingHighMul is CMP/BEQ (the INT32_MIN overflow test),
SMULL, CMP and a branch on the product's sign, the nudge (ADDS/ADC, or ADDS/SBC and, while
still negative, ADDS/ADC of 2^31 - 1, then B back), LSRS/ORR; RoundingDivideByPOT is nine
instructions plus the predicated ADDLT.  The parameters are reloaded from the
ArithmeticParams struct every element (LDRD/LDR).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, and_, asr, b, bcc, carry_of_add, cmp, it, ldr_sp, ldrd_sp,
                        ldrsb, lsl, lsr, mov, mul, mvn, orr, pop_pc, push, rsb, sbc, smull,
                        strb, sub)
from armsim.kernels.minmax import max_lt

NAME = "tflite::reference_integer_ops::Add"
INT32_MIN = -(2**31)
SHAPE_DIMS = 4


@kernel(inline=True)
def _smaller_than_one_exp(m, x, multiplier, shift, negative_taken):
    """MultiplyByQuantizedMultiplierSmallerThanOneExp(x, multiplier, shift), inlined; the
    BEQ to the overflow test has been issued by the caller with its CMP."""
    overflow = False
    if x == multiplier:
        cmp(m, multiplier, INT32_MIN)
        bcc(m, multiplier != INT32_MIN)
        overflow = multiplier == INT32_MIN
    if overflow:
        exponent = rsb(m, shift, 0)
        mask = sub(m, lsl(m, 1, exponent), 1)
        high32 = mvn(m, INT32_MIN)                       # INT32_MAX
        b(m)
        sign = 0
    else:
        lo, hi = smull(m, x, multiplier)
        negative = hi < 0
        cmp(m, hi, 0)
        bcc(m, (hi < 0) == negative_taken)
        if hi >= 0:
            carry = carry_of_add(lo, 1 << 30)
            lo = add(m, lo, 1 << 30)
            hi = adc(m, hi, 0, carry)
        else:
            nudge = 1 - (1 << 30)                        # 0xC0000001, kept in a register
            carry = carry_of_add(lo, nudge)
            lo = add(m, lo, nudge)
            hi = sbc(m, hi, 0, carry)
            cmp(m, hi, 0)
            bcc(m, hi >= 0)
            if hi < 0:                                   # division toward zero
                bias = 2**31 - 1
                carry = carry_of_add(lo, bias)
                lo = add(m, lo, bias)
                hi = adc(m, hi, 0, carry)
        high32 = orr(m, lsr(m, lo, 31), hi << 1)
        if negative:
            b(m)
        exponent = rsb(m, shift, 0)                      # RoundingDivideByPOT(..., -shift)
        mask = add(m, lsl(m, 1, exponent), -1)
        sign = (high32 >> 31) & 1                        # x < 0: folded into the ADD below (LSR #31)
    half = asr(m, mask, 1)
    threshold = add(m, half, sign)                       # (mask >> 1) + (x < 0)
    result = asr(m, high32, exponent)
    remainder = and_(m, mask, high32)
    cmp(m, threshold, remainder)
    it(m, threshold >= remainder)                        # the ADD fails unless it rounds up
    if threshold < remainder:
        result = add(m, result, 1)
    return result


@kernel(inline=True)
def _matching_size(m):
    """The flat-size loop over one RuntimeShape's dims (LDR, CMP, MUL, BNE per dim)."""
    size = mov(m, 1)
    ldr_sp(m)
    cmp(m, SHAPE_DIMS, 0)
    bcc(m, False)
    add(m, 0, 0)
    for _ in range(SHAPE_DIMS):
        ldr_sp(m)
        cmp(m, 0, 0)
        size = mul(m, size, 1)
        bcc(m, _ != SHAPE_DIMS - 1)
    return size


@kernel(inline=True)
def add_func(m, x, y, input1_offset, input2_offset, left_shift, input1_multiplier, input1_shift,
             input2_multiplier, input2_shift, output_multiplier, output_shift, output_offset,
             activation_min, activation_max, subtract=False):
    """AddFunc(x, y, params) inlined into its caller's loop, after the element loads (LDRD of
    the offsets, LDRSB x, LDR left_shift, LDRSB y): the reference Add's element loop and the
    broadcast loop (kernels/tflm/broadcast_binary.py) run the same code; `subtract`: SUB's
    element function (SubElementwise, BroadcastQuantSubSlow's lambda), the same code with SUB
    of the scaled inputs.  Returns the clamped output."""
    input1_val = add(m, x, input1_offset)
    ldr_sp(m)                                    # input1_multiplier
    input2_val = add(m, y, input2_offset)
    shifted_input1_val = lsl(m, input1_val, left_shift)
    cmp(m, input1_multiplier, shifted_input1_val)
    ldr_sp(m)                                    # input1_shift
    shifted_input2_val = lsl(m, input2_val, left_shift)
    bcc(m, input1_multiplier == shifted_input1_val)
    scaled_input1_val = _smaller_than_one_exp(m, shifted_input1_val, input1_multiplier,
                                              input1_shift, True)
    ldrd_sp(m)                                   # input2_multiplier, input2_shift
    cmp(m, input2_multiplier, shifted_input2_val)
    bcc(m, input2_multiplier == shifted_input2_val)
    scaled_input2_val = _smaller_than_one_exp(m, shifted_input2_val, input2_multiplier,
                                              input2_shift, False)
    ldrd_sp(m)                                   # output_multiplier, output_shift
    if subtract:
        raw_sum = sub(m, scaled_input1_val, scaled_input2_val)
    else:
        raw_sum = add(m, scaled_input2_val, scaled_input1_val)
    cmp(m, output_multiplier, raw_sum)
    bcc(m, output_multiplier == raw_sum)
    raw_output = _smaller_than_one_exp(m, raw_sum, output_multiplier, output_shift, True)
    ldr_sp(m)                                    # output_offset
    raw_output = add(m, raw_output, output_offset)
    ldr_sp(m)
    ldr_sp(m)
    raw_output = max_lt(m, raw_output, activation_min)  # std::max
    cmp(m, activation_max, raw_output)           # std::min
    it(m, activation_max < raw_output)           # MOV fails when it clamps (measured ic ADD: 1 MOV/element fewer, 1 failed more: gcc's MOV likely clamps instead)
    if activation_max >= raw_output:
        raw_output = mov(m, raw_output)
    else:
        raw_output = activation_max
    return raw_output


@kernel
def Add(m, input1_offset, input2_offset, left_shift, input1_multiplier, input1_shift,
        input2_multiplier, input2_shift, output_multiplier, output_shift, output_offset,
        activation_min, activation_max, input1_data, input2_data, size, output_data):
    push(m, 8)
    _matching_size(m)                                    # MatchingElementsSize(input1, input2, output)
    _matching_size(m)
    _matching_size(m)
    cmp(m, size, size)
    bcc(m, False)
    cmp(m, size, size)
    bcc(m, False)
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        ldr_sp(m)
        sub(m, input2_data, 1)
        ldr_sp(m)
        sub(m, input1_data, 1)
        add(m, input1_data, size)
        add(m, output_data, -1)
        ldr_sp(m)                                        # ldr r5, =0xC0000001 (literal pool)
        mvn(m, INT32_MIN)
        mov(m, 1)
        b(m)
        i = 0
        while True:                                      # for (int i = 0; i < size; ++i)
            ldrd_sp(m)                                   # input1_offset, input2_offset
            x = ldrsb(m, input1_data + i)
            ldr_sp(m)                                    # left_shift
            y = ldrsb(m, input2_data + i)
            raw_output = add_func(m, x, y, input1_offset, input2_offset, left_shift,
                                  input1_multiplier, input1_shift, input2_multiplier,
                                  input2_shift, output_multiplier, output_shift,
                                  output_offset, activation_min, activation_max)
            i += 1
            cmp(m, i, size)
            strb(m, output_data + i - 1, raw_output)    # strb r3, [lr, #1]!
            bcc(m, i == size)
            if i == size:
                break
    pop_pc(m, 8)


def run_reference(m, case, addr, tracer):
    run(Add, m, case["input_1_offset"], case["input_2_offset"], case["left_shift"],
        case["input_1_mult"], case["input_1_shift"], case["input_2_mult"],
        case["input_2_shift"], case["out_mult"], case["out_shift"], case["out_offset"],
        case["out_activation_min"], case["out_activation_max"], addr["input"],
        addr["input2"], case["block_size"], addr["output"], tracer=tracer)
    return [NAME]
