"""TFLite Micro's int8 and int16 PRELU reference kernel (reference_ops::BroadcastPrelu4DSlow,
kernels/internal/reference/prelu.h), counted.  TFLM's PreluEval calls it for every int8
PRELU (BroadcastPrelu4DSlow<int8_t, int8_t>) and every int16 one (<int16_t, int8_t>: int8
alpha), broadcast or not:

    for b, y, x, c over the 4-D extended output shape:
      input_value = input_offset + input[SubscriptToIndex(desc1, b, y, x, c)]
      if (input_value >= 0)
        output_value = MultiplyByQuantizedMultiplier(input_value, multiplier_1, shift_1)
      else
        alpha_value = alpha_offset + alpha[SubscriptToIndex(desc2, b, y, x, c)]
        output_value = MultiplyByQuantizedMultiplier(input_value * alpha_value,
                                                     multiplier_2, shift_2)
      output[Offset(output_shape, b, y, x, c)] = clamp(output_value + output_offset,
                                                       T's min, T's max)

NdArrayDescsForElementwiseBroadcast gives each operand 4-D strides with 0 where it is
broadcast; the host computes them (`strides`).  MultiplyByQuantizedMultiplier is TFLM's
out-of-line function (armsim.kernels.tflm.common).

The innermost (c) loop with its per-row set-up is transcribed from gcc's disassembly:
prelu.h's BroadcastPrelu4DSlow<int8_t, int8_t> (retyped with TFLM's RuntimeShape /
NdArrayDesc / Offset / SubscriptToIndex definitions, MultiplyByQuantizedMultiplier
external; not committed) compiled with arm-none-eabi-g++ 12.2 -O2 -mcpu=cortex-m4 -mthumb
-DNDEBUG: the input index advances by its stride, the alpha index is computed in full only
on the negative branch, PreluParams fields are struct loads (counted as stack-slot loads).
The prologue (ExtendedShape, the two descs) and the b / y loop tests are estimates.  The
int16 variant (`elem` 2) is the same structure with LDRSH / STRH for the input and output
and int16's clamp bounds (not transcribed from an int16 build).  No measurement exists:
nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr_sp, ldrd_sp, ldrsb, ldrsh, mla, mov,
                            mul, pop_pc, push, str_sp, strb, strh, sub)
from armsim.cpu.ops import b as b_
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier



@kernel(inline=True)
def _row(m, inp, alpha, out, b, y, x, d3, is0, is1, is2, is3, as0, as1, as2, as3,
         input_offset, alpha_offset, output_offset, mult_1, shift_1, mult_2, shift_2, elem):
    """The innermost (c) loop as compiled: the input index advanced by its stride, the
    output pointer post-incremented, the alpha index computed in full when taken; `elem`
    the input / output element size (1: int8, 2: int16)."""
    q_max = 127 if elem == 1 else 32767
    cmp(m, d3, 0)
    bcc(m, d3 <= 0)                                    # ble (shapes are positive)
    for _ in range(4):                                 # ldr r2/r3/r0/r6: counters, strides
        ldr_sp(m)
    str_sp(m)
    row = mul(m, is2, x)                               # the row's input index
    ldr_sp(m)
    row = mla(m, is1, y, row)
    ldr_sp(m)
    row = mla(m, is0, b, row)
    ldr_sp(m)                                          # input_data
    sub(m, out, 0)
    i = add(m, row, 0)
    b_(m)                                              # into the loop's test
    for c in range(d3):
        if elem == 1:
            v = ldrsb(m, inp + i)                      # ldrsb.w r0, [r5]
        else:
            v = ldrsh(m, inp + 2 * i)
        ldr_sp(m)                                      # ldr.w r2, [sl]  params.input_offset
        v = add(m, v, input_offset)                    # adds: input_value (sets N)
        add(m, 0, 0)                                   # add.w r1, r8, r4  (c)
        bcc(m, v >= 0)                                 # bpl
        if v >= 0:
            ldrd_sp(m)                                 # output_multiplier_1, output_shift_1
            bl(m)
            r = MultiplyByQuantizedMultiplier(m, v, mult_1, shift_1)
        else:
            ldr_sp(m)                                  # alpha_data
            ldr_sp(m)                                  # b
            ldr_sp(m)                                  # desc2.strides[0]
            a = mla(m, as0, b, alpha)
            ldr_sp(m)                                  # y
            ldr_sp(m)                                  # desc2.strides[1]
            a = mla(m, as1, y, a)
            ldr_sp(m)                                  # desc2.strides[2]
            a = mla(m, as2, x, a)
            ldr_sp(m)                                  # desc2.strides[3]
            ci = mul(m, as3, c)
            av = ldrsb(m, a + ci)                      # ldrsb r2, [r2, r1]
            ldr_sp(m)                                  # ldr.w r1, [sl, #4]  alpha_offset
            av = add(m, av, alpha_offset)
            v = mul(m, av, v)                          # input_value * alpha_value
            ldrd_sp(m)                                 # output_multiplier_2, output_shift_2
            bl(m)
            r = MultiplyByQuantizedMultiplier(m, v, mult_2, shift_2)
            b_(m)
        ldr_sp(m)                                      # ldr.w r2, [sl, #8]  output_offset
        r = add(m, r, output_offset)
        cmp(m, r, q_max)                               # std::min(quantized_max, ...)
        it(m, 0 if r >= q_max else 1)
        if r >= q_max:
            r = mov(m, q_max)
        cmp(m, r, -q_max - 1)                          # std::max(quantized_min, ...)
        it(m, 0 if r < -q_max - 1 else 1)
        if r < -q_max - 1:
            r = mov(m, -q_max - 1)
        if elem == 1:
            strb(m, out + c, r)                        # strb.w r0, [r4], #1
        else:
            strh(m, out + 2 * c, r)
        cmp(m, c + 1, d3)
        i = add(m, i, is3)                             # add r5, r6  (input index += stride)
        bcc(m, c + 1 == d3)                            # beq: the row is done
    ldr_sp(m)                                          # the row-end bookkeeping
    ldr_sp(m)
    add(m, x, 1)
    cmp(m, x + 1, 0)
    add(m, out, elem * d3)
    sub(m, 0, d3)


@kernel
def broadcast_prelu(m, inp, alpha, out, d0, d1, d2, d3, is0, is1, is2, is3, as0, as1, as2,
                    as3, input_offset, alpha_offset, output_offset, mult_1, shift_1, mult_2,
                    shift_2, elem):
    bl(m)
    push(m, 9)                                         # stmdb sp!, {r4-r11, lr}
    for _ in range(12):                                # ExtendedShape(4) and the two descs
        ldr_sp(m)                                      # (an estimate)
        str_sp(m)
    for b in range(d0):
        for y in range(d1):
            for x in range(d2):
                _row(m, inp, alpha, out + elem * ((b * d1 + y) * d2 + x) * d3, b, y, x, d3,
                     is0, is1, is2, is3, as0, as1, as2, as3, input_offset, alpha_offset,
                     output_offset, mult_1, shift_1, mult_2, shift_2, elem)
                bcc(m, x + 1 < d2)                     # bne: the next row
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
    elem = case["elem"]
    run(broadcast_prelu, m, inp, alpha, addr["output"], *d,
        *strides(case["input_shape"], case["output_shape"]),
        *strides(case["alpha_shape"], case["output_shape"]),
        case["input_offset"], case["alpha_offset"], case["output_offset"],
        case["output_multiplier_1"], case["output_shift_1"], case["output_multiplier_2"],
        case["output_shift_2"], elem, tracer=tracer)
    return [f"tflite::reference_ops::BroadcastPrelu4DSlow<int{8 * elem}_t, int8_t>",
            "tflite::MultiplyByQuantizedMultiplier"]
