"""TFLite Micro's int8 SQUARED_DIFFERENCE (squared_difference.cc), counted: the element
function

    input1_val = input1_offset + x;  input2_val = input2_offset + y
    scaled_inputN_val = MultiplyByQuantizedMultiplierSmallerThanOneExp(
                            inputN_val * (1 << left_shift), inputN_multiplier, inputN_shift)
    raw_diff = scaled_input1_val - scaled_input2_val
    raw_output = MultiplyByQuantizedMultiplier(raw_diff * raw_diff, output_multiplier,
                                               output_shift) + output_offset
    clamped to [-128, 127]

run by reference_integer_ops::ElementWise over the flat size (equal input shapes), or by
reference_integer_ops::BroadcastBinaryFunction4DSlow over the 4-D extended output shape
with NdArrayDesc strides (requires_broadcast: the input shapes differ).

Counts are estimates (no measurement, not compiled): the element function is taken as
inlined into the loop, written in the shape of the ADD port (armsim.kernels.tflm
.elementwise_add, read off gcc -O2's listing: its inlined
MultiplyByQuantizedMultiplierSmallerThanOneExp is reused) with a SUB and MUL for the
difference and its square, then a BL to TFLM's out-of-line MultiplyByQuantizedMultiplier
(armsim.kernels.tflm.common); the broadcast loop computes Offset and both
SubscriptToIndex in full per element (MUL/MLA, strides from the descs).  Not fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr_sp, ldrd_sp, ldrsb, lsl, mla, mov, mul,
                            pop_pc, push, str_sp, strb, sub)
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.elementwise_add import _matching_size, _smaller_than_one_exp
from armsim.kernels.tflm.prelu import extended, strides

NAMES = {False: "tflite::reference_integer_ops::ElementWise<int8_t> (SquaredDifference)",
         True: "tflite::reference_integer_ops::BroadcastBinaryFunction4DSlow<int8_t> "
               "(SquaredDifference)"}


@kernel(inline=True)
def _subscript_to_index(m, b, y, x, c, s0, s1, s2, s3):
    """b * strides[0] + y * strides[1] + x * strides[2] + c * strides[3]."""
    ldrd_sp(m)                                          # desc.strides[0..1]
    ldrd_sp(m)                                          # desc.strides[2..3]
    i = mul(m, c, s3)
    i = mla(m, x, s2, i)
    i = mla(m, y, s1, i)
    return mla(m, b, s0, i)


@kernel(inline=True)
def _squared_difference(m, x, y, input1_offset, input2_offset, left_shift, input1_multiplier,
                        input1_shift, input2_multiplier, input2_shift, output_multiplier,
                        output_shift, output_offset):
    """SquaredDifference(x, y, params), inlined; returns the clamped output."""
    ldrd_sp(m)                                          # input1_offset, input2_offset
    input1_val = add(m, x, input1_offset)
    input2_val = add(m, y, input2_offset)
    ldr_sp(m)                                           # left_shift
    shifted_input1_val = lsl(m, input1_val, left_shift)
    shifted_input2_val = lsl(m, input2_val, left_shift)
    ldrd_sp(m)                                          # input1_multiplier, input1_shift
    cmp(m, input1_multiplier, shifted_input1_val)
    bcc(m, input1_multiplier == shifted_input1_val)
    scaled_input1_val = _smaller_than_one_exp(m, shifted_input1_val, input1_multiplier,
                                              input1_shift, True)
    ldrd_sp(m)                                          # input2_multiplier, input2_shift
    cmp(m, input2_multiplier, shifted_input2_val)
    bcc(m, input2_multiplier == shifted_input2_val)
    scaled_input2_val = _smaller_than_one_exp(m, shifted_input2_val, input2_multiplier,
                                              input2_shift, False)
    raw_diff = sub(m, scaled_input1_val, scaled_input2_val)
    squared_raw_diff = mul(m, raw_diff, raw_diff)
    ldrd_sp(m)                                          # output_multiplier, output_shift
    bl(m)
    raw_output = MultiplyByQuantizedMultiplier(m, squared_raw_diff, output_multiplier,
                                               output_shift)
    ldr_sp(m)                                           # output_offset
    raw_output = add(m, raw_output, output_offset)
    ldrd_sp(m)                                          # quantized_activation_min / max
    cmp(m, raw_output, -128)                            # std::max
    it(m, 0 if raw_output < -128 else 1)               # IT LT: the MOV fails unless taken
    if raw_output < -128:
        raw_output = mov(m, -128)
    cmp(m, raw_output, 127)                             # std::min
    it(m, 0 if raw_output > 127 else 1)
    if raw_output > 127:
        raw_output = mov(m, 127)
    return raw_output


@kernel
def elementwise_s8(m, input1_data, input2_data, output_data, size, input1_offset,
                   input2_offset, left_shift, input1_multiplier, input1_shift,
                   input2_multiplier, input2_shift, output_multiplier, output_shift,
                   output_offset):
    """FlatSize of input1's shape, then ElementWise's loop."""
    _matching_size(m)
    bl(m)
    push(m, 9)                                          # stmdb sp!, {r4-r11, lr}
    cmp(m, size, 0)
    bcc(m, size <= 0)
    for i in range(size):
        x = ldrsb(m, input1_data + i)
        y = ldrsb(m, input2_data + i)
        r = _squared_difference(m, x, y, input1_offset, input2_offset, left_shift,
                                input1_multiplier, input1_shift, input2_multiplier,
                                input2_shift, output_multiplier, output_shift, output_offset)
        strb(m, output_data + i, r)
        cmp(m, i + 1, size)
        bcc(m, i + 1 < size)
    pop_pc(m, 9)
    return 0


@kernel
def broadcast_s8(m, input1_data, input2_data, output_data, d0, d1, d2, d3, is0, is1, is2, is3,
                 js0, js1, js2, js3, input1_offset, input2_offset, left_shift,
                 input1_multiplier, input1_shift, input2_multiplier, input2_shift,
                 output_multiplier, output_shift, output_offset):
    bl(m)
    push(m, 9)
    for _ in range(12):                                 # the two descs and ExtendedShape(4)
        ldr_sp(m)
        str_sp(m)
    for b in range(d0):
        for y in range(d1):
            for x in range(d2):
                for c in range(d3):
                    o = mla(m, b, d1, y)                # Offset(extended_output_shape, ...)
                    o = mla(m, o, d2, x)
                    o = mla(m, o, d3, c)
                    i = _subscript_to_index(m, b, y, x, c, is0, is1, is2, is3)
                    j = _subscript_to_index(m, b, y, x, c, js0, js1, js2, js3)
                    v1 = ldrsb(m, input1_data + i)
                    v2 = ldrsb(m, input2_data + j)
                    r = _squared_difference(m, v1, v2, input1_offset, input2_offset,
                                            left_shift, input1_multiplier, input1_shift,
                                            input2_multiplier, input2_shift,
                                            output_multiplier, output_shift, output_offset)
                    strb(m, output_data + o, r)
                    cmp(m, c + 1, d3)
                    bcc(m, c + 1 < d3)
                cmp(m, x + 1, d2)
                bcc(m, x + 1 < d2)
            cmp(m, y + 1, d1)
            bcc(m, y + 1 < d1)
        cmp(m, b + 1, d0)
        bcc(m, b + 1 < d0)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    a, b = addr["inputs"]
    params = (case["input1_offset"], case["input2_offset"], case["left_shift"],
              case["input1_multiplier"], case["input1_shift"], case["input2_multiplier"],
              case["input2_shift"], case["output_multiplier"], case["output_shift"],
              case["output_offset"])
    broadcast = case["input1_shape"] != case["input2_shape"]
    if broadcast:
        out = case["output_shape"]
        run(broadcast_s8, m, a, b, addr["output"], *extended(out),
            *strides(case["input1_shape"], out), *strides(case["input2_shape"], out), *params,
            tracer=tracer)
    else:
        run(elementwise_s8, m, a, b, addr["output"], case["size"], *params, tracer=tracer)
    return [NAMES[broadcast], "tflite::MultiplyByQuantizedMultiplier"]
