"""TFLite Micro's int8 and int16 SQUARED_DIFFERENCE (squared_difference.cc), counted: the
element function

    input1_val = input1_offset + x;  input2_val = input2_offset + y
    scaled_inputN_val = MultiplyByQuantizedMultiplierSmallerThanOneExp(
                            inputN_val * (1 << left_shift), inputN_multiplier, inputN_shift)
    raw_diff = scaled_input1_val - scaled_input2_val
    raw_output = MultiplyByQuantizedMultiplier(raw_diff * raw_diff, output_multiplier,
                                               output_shift) + output_offset
    clamped to T's range ([-128, 127]; int16: [-32768, 32767], left_shift 0)

run by reference_integer_ops::ElementWise over the flat size (equal input shapes), or by
reference_integer_ops::BroadcastBinaryFunction4DSlow, i.e. BroadcastBinaryOpSimple
(requires_broadcast: the input shapes differ; kernels/tflm/broadcast_binary.py).

The flat path is transcribed from gcc's disassembly: squared_difference.cc's
SquaredDifference<int8_t> and add.h's ElementWise (retyped with TFLM's ArithmeticParams
layout and gemmlowp's SaturatingRoundingDoublingHighMul / RoundingDivideByPOT,
MultiplyByQuantizedMultiplier external; not committed) compiled with arm-none-eabi-g++
12.2 -O2 -mcpu=cortex-m4 -mthumb -DNDEBUG.  gcc does not inline the element function
through ElementWise's function pointer: one BL, PUSH and POP per element, and a SXTB of
the result.  The SaturatingRoundingDoublingHighMul overflow path (x == multiplier ==
INT32_MIN) cannot run for int8: |input_val << 7| < 2^16 < a multiplier (>= 2^30), so only
its compare is counted (nor for int16: |input_val| <= 2^15).  ArithmeticParams fields are
struct loads (counted as stack-slot loads).  The int16 instance (`elem` 2) is the int8
code with LDRSH / STRH / SXTH and int16's bounds, not compiled.  No measurement exists:
nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, and_, asr, bcc, bl, carry_of_add, cmp, it, ldr_lit,
                            ldr_sp, ldrd_sp, ldrsb, ldrsh, lsl, lsr, mov, mul, mvn, orr, pop_pc,
                            push, rsb, sbc, smull, strb, strh, sub, sxtb, sxth, ubfx)
from armsim.cpu.ops import b as b_
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.elementwise_add import _matching_size

INT32_MIN = -(2**31)


@kernel(inline=True)
def _high_mul(m, a, multiplier, with_sign):
    """SaturatingRoundingDoublingHighMul(a, multiplier) past its overflow test: SMULL, the
    nudge (ADDS/ADC, or the literal 0xC0000001 with ADDS/SBC and, while negative, ADDS/ADC
    of 2^31 - 1), LSRS/ORR; `with_sign`: gcc also takes the result's sign with UBFX
    (input 1's copy).  Returns (high32, sign)."""
    lo, hi = smull(m, a, multiplier)
    cmp(m, hi, 0)
    negative = hi < 0
    bcc(m, negative)                                    # blt
    if not negative:
        carry = carry_of_add(lo, 1 << 30)
        lo = add(m, lo, 1 << 30)                        # adds.w lo, #0x40000000
        hi = adc(m, hi, 0, carry)
    else:
        ldr_lit(m)                                      # ldr r5, =0xC0000001
        nudge = 1 - (1 << 30)
        carry = carry_of_add(lo, nudge)
        lo = add(m, lo, nudge)
        hi = sbc(m, hi, 0, carry)
        cmp(m, hi, 0)
        bcc(m, hi >= 0)                                 # bge
        if hi < 0:                                      # toward zero: add 2^31 - 1 first
            bias = mvn(m, INT32_MIN)
            carry = carry_of_add(lo, bias)
            lo = add(m, lo, bias)
            hi = adc(m, hi, 0, carry)
    high32 = orr(m, lsr(m, lo, 31), hi << 1)            # ORR Rd, Rn, Rm, LSL #1
    sign = ubfx(m, hi, 30, 1) if with_sign else 0       # bit 62: the result's sign
    if negative:
        b_(m)                                           # back to RoundingDivideByPOT
    return high32, sign


@kernel(inline=True)
def _divide_by_pot(m, x, shift, sign, sign_known):
    """RoundingDivideByPOT(x, -shift); `sign_known`: the sign came from _high_mul's UBFX,
    else LSRS takes it from x."""
    exponent = rsb(m, shift, 0)                         # negs
    one = mov(m, 1)
    mask = add(m, lsl(m, one, exponent), -1)
    if not sign_known:
        sign = lsr(m, x, 31)
    threshold = add(m, sign, mask >> 1)                 # ADD Rd, Rn, Rm, ASR #1
    remainder = and_(m, mask, x)
    result = asr(m, x, exponent)
    cmp(m, threshold, remainder)
    it(m, 0 if threshold < remainder else 1)
    if threshold < remainder:
        result = add(m, result, 1)                      # addlt
    return result


@kernel(inline=True)
def _squared_difference(m, x, y, input1_offset, input2_offset, left_shift, input1_multiplier,
                        input1_shift, input2_multiplier, input2_shift, output_multiplier,
                        output_shift, output_offset, elem):
    """SquaredDifference<T>(x, y, params) as compiled (the callee after the BL); `elem` the
    element size of T (1: int8, 2: int16)."""
    q_max = 127 if elem == 1 else 32767
    push(m, 4)                                          # push {r3, r4, r5, lr}
    ldr_sp(m)                                           # params.input1_offset
    ldr_sp(m)                                           # params.left_shift
    mov(m, 0)
    input1_val = add(m, x, input1_offset)
    ldr_sp(m)                                           # params.input2_offset
    ldr_sp(m)                                           # params.input1_multiplier
    shifted_input1_val = lsl(m, input1_val, left_shift)
    input2_val = add(m, y, input2_offset)
    cmp(m, input1_multiplier, shifted_input1_val)
    ldr_sp(m)                                           # params.input1_shift
    shifted_input2_val = lsl(m, input2_val, left_shift)
    bcc(m, False)                                       # beq: never (docstring)
    high, sign = _high_mul(m, shifted_input1_val, input1_multiplier, True)
    scaled_input1_val = _divide_by_pot(m, high, input1_shift, sign, True)
    ldrd_sp(m)                                          # input2_multiplier, input2_shift
    cmp(m, input2_multiplier, shifted_input2_val)
    bcc(m, False)                                       # beq: never
    high, sign = _high_mul(m, shifted_input2_val, input2_multiplier, False)
    scaled_input2_val = _divide_by_pot(m, high, input2_shift, 0, False)
    raw_diff = sub(m, scaled_input1_val, scaled_input2_val)
    ldrd_sp(m)                                          # output_multiplier, output_shift
    squared_raw_diff = mul(m, raw_diff, raw_diff)
    bl(m)
    raw_output = MultiplyByQuantizedMultiplier(m, squared_raw_diff, output_multiplier,
                                               output_shift)
    ldrd_sp(m)                                          # quantized_activation_min / max
    ldr_sp(m)                                           # params.output_offset
    raw_output = add(m, raw_output, output_offset)
    cmp(m, raw_output, -q_max - 1)                      # std::max
    it(m, 0 if raw_output < -q_max - 1 else 1)
    if raw_output < -q_max - 1:
        raw_output = mov(m, -q_max - 1)
    cmp(m, raw_output, q_max)                           # std::min
    it(m, 0 if raw_output >= q_max else 1)
    if raw_output >= q_max:
        raw_output = mov(m, q_max)
    if elem == 1:
        raw_output = sxtb(m, raw_output, 0)
    else:
        raw_output = sxth(m, raw_output, 0)
    pop_pc(m, 4)
    return raw_output


@kernel
def elementwise(m, input1_data, input2_data, output_data, size, input1_offset, input2_offset,
                left_shift, input1_multiplier, input1_shift, input2_multiplier, input2_shift,
                output_multiplier, output_shift, output_offset, elem):
    """FlatSize of input1's shape (an estimate), then ElementWise<T> as compiled."""
    _matching_size(m)
    bl(m)
    cmp(m, size, 0)
    bcc(m, size <= 0)                                   # ble: bx lr
    if size <= 0:
        b_(m)                                           # bx lr
        return 0
    push(m, 6)                                          # stmdb sp!, {r4-r8, lr}
    sub(m, input2_data, 1)
    ldr_sp(m)                                           # output_data (stacked argument)
    sub(m, input1_data, 1)
    mov(m, 0)
    sub(m, output_data, 1)
    add(m, input1_data, size)
    for i in range(size):
        if elem == 1:
            x = ldrsb(m, input1_data + i)               # ldrsb.w r0, [r4, #1]!
            y = ldrsb(m, input2_data + i)
        else:
            x = ldrsh(m, input1_data + 2 * i)
            y = ldrsh(m, input2_data + 2 * i)
        mov(m, 0)                                       # mov r2, r7  (&params)
        bl(m)
        r = _squared_difference(m, x, y, input1_offset, input2_offset, left_shift,
                                input1_multiplier, input1_shift, input2_multiplier,
                                input2_shift, output_multiplier, output_shift, output_offset,
                                elem)
        cmp(m, i + 1, size)
        if elem == 1:
            strb(m, output_data + i, r)                 # strb.w r0, [r6, #1]!
        else:
            strh(m, output_data + 2 * i, r)
        bcc(m, i + 1 < size)                            # bne
    pop_pc(m, 6)
    return 0


def params(case):
    """The kernel's parameters from a case (operators/squared_difference.py's Prepare)."""
    return (case["input1_offset"], case["input2_offset"], case["left_shift"],
            case["input1_multiplier"], case["input1_shift"], case["input2_multiplier"],
            case["input2_shift"], case["output_multiplier"], case["output_shift"],
            case["output_offset"])


def run_reference(m, case, addr, tracer=None):
    """Inputs of one shape (a broadcast runs kernels/tflm/broadcast_binary.py)."""
    elem = case["elem"]
    a, b = addr["inputs"]
    run(elementwise, m, a, b, addr["output"], case["size"], *params(case), elem, tracer=tracer)
    return [f"tflite::reference_integer_ops::ElementWise<int{8 * elem}_t> (SquaredDifference)",
            "tflite::MultiplyByQuantizedMultiplier"]
