"""TFLite Micro's int8 PRELU reference kernel (reference_ops::BroadcastPrelu4DSlow,
kernels/internal/reference/prelu.h), counted.  TFLM's PreluEval calls it for every int8
PRELU, broadcast or not:

    for b, y, x, c over the 4-D extended output shape:
      input_value = input_offset + input[SubscriptToIndex(desc1, b, y, x, c)]
      if (input_value >= 0)
        output_value = MultiplyByQuantizedMultiplier(input_value, multiplier_1, shift_1)
      else
        alpha_value = alpha_offset + alpha[SubscriptToIndex(desc2, b, y, x, c)]
        output_value = MultiplyByQuantizedMultiplier(input_value * alpha_value,
                                                     multiplier_2, shift_2)
      output[Offset(output_shape, b, y, x, c)] = clamp(output_value + output_offset,
                                                       -128, 127)

NdArrayDescsForElementwiseBroadcast gives each operand 4-D strides with 0 where it is
broadcast; the host computes them (`strides`), the counted code is the loops.
MultiplyByQuantizedMultiplier is TFLM's out-of-line function (armsim.kernels.tflm.common).
Counts are estimates (no measurement, not compiled): the instruction sequence is written
from the C as gcc -O2 compiles such loops (the index products of Offset and
SubscriptToIndex as MLA/MUL per element, the params held in stack slots), not fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr_sp, ldrd_sp, ldrsb, mla, mov, mul,
                            pop_pc, push, str_sp, strb)
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier

NAME = "tflite::reference_ops::BroadcastPrelu4DSlow<int8_t, int8_t>"


@kernel(inline=True)
def _subscript_to_index(m, b, y, x, c, s0, s1, s2, s3):
    """b * strides[0] + y * strides[1] + x * strides[2] + c * strides[3]."""
    ldrd_sp(m)                                         # desc.strides[0..1]
    ldrd_sp(m)                                         # desc.strides[2..3]
    i = mul(m, c, s3)
    i = mla(m, x, s2, i)
    i = mla(m, y, s1, i)
    return mla(m, b, s0, i)


@kernel
def broadcast_prelu_s8(m, inp, alpha, out, d0, d1, d2, d3, is0, is1, is2, is3, as0, as1,
                       as2, as3, input_offset, alpha_offset, output_offset, mult_1, shift_1,
                       mult_2, shift_2):
    bl(m)
    push(m, 9)                                         # stmdb sp!, {r4-r11, lr}
    for _ in range(12):                                # ExtendedShape(4) and the two descs
        ldr_sp(m)
        str_sp(m)
    for b in range(d0):
        for y in range(d1):
            for x in range(d2):
                for c in range(d3):
                    o = mla(m, b, d1, y)               # Offset(shape, b, y, x, c)
                    o = mla(m, o, d2, x)
                    o = mla(m, o, d3, c)
                    i = _subscript_to_index(m, b, y, x, c, is0, is1, is2, is3)
                    ldr_sp(m)                          # params.input_offset
                    v = add(m, ldrsb(m, inp + i), input_offset)
                    cmp(m, v, 0)
                    bcc(m, v < 0)                      # blt: the alpha branch
                    if v >= 0:
                        ldrd_sp(m)                     # output_multiplier_1, output_shift_1
                        bl(m)
                        r = MultiplyByQuantizedMultiplier(m, v, mult_1, shift_1)
                    else:
                        a = _subscript_to_index(m, b, y, x, c, as0, as1, as2, as3)
                        ldr_sp(m)                      # params.alpha_offset
                        av = add(m, ldrsb(m, alpha + a), alpha_offset)
                        v = mul(m, v, av)              # input_value * alpha_value
                        ldrd_sp(m)                     # output_multiplier_2, output_shift_2
                        bl(m)
                        r = MultiplyByQuantizedMultiplier(m, v, mult_2, shift_2)
                    ldr_sp(m)                          # params.output_offset
                    r = add(m, r, output_offset)
                    cmp(m, r, -128)                    # std::max(quantized_min, ...)
                    it(m, r < -128)
                    if r < -128:
                        r = mov(m, -128)
                    cmp(m, r, 127)                     # std::min(quantized_max, ...)
                    it(m, r > 127)
                    if r > 127:
                        r = mov(m, 127)
                    strb(m, out + o, r)
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


def extended(shape):
    """RuntimeShape::ExtendedShape(4, shape) as a list."""
    return [1] * (4 - len(shape)) + [int(d) for d in shape]


def strides(shape, out_shape):
    """NdArrayDescsForElementwiseBroadcast's strides of one operand: row-major strides of
    its 4-D extended shape, 0 along the dims it is broadcast over."""
    dims, out = extended(shape), extended(out_shape)
    acc, result = 1, [0] * 4
    for k in range(3, -1, -1):
        result[k] = acc if dims[k] == out[k] else 0
        acc *= dims[k]
    return result


def run_reference(m, case, addr, tracer=None):
    inp, alpha = addr["inputs"]
    d = extended(case["output_shape"])
    run(broadcast_prelu_s8, m, inp, alpha, addr["output"], *d,
        *strides(case["input_shape"], case["output_shape"]),
        *strides(case["alpha_shape"], case["output_shape"]),
        case["input_offset"], case["alpha_offset"], case["output_offset"],
        case["output_multiplier_1"], case["output_shift_1"], case["output_multiplier_2"],
        case["output_shift_2"], tracer=tracer)
    return [NAME, "tflite::MultiplyByQuantizedMultiplier"]
