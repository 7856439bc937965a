"""tflite::reference_integer_ops::Mul<int16_t> (kernels/internal/reference/integer_ops/mul.h,
no broadcast), the kernel TFLM's mul.cc runs for an int16 MUL: MatchingElementsSize, then
MulElementwise, whose loop calls tflite::MultiplyByQuantizedMultiplier per element:

    unclamped = output_offset + MultiplyByQuantizedMultiplier(
                    (input1_offset + in1) * (input2_offset + in2), output_multiplier, output_shift)
    clamp to [quantized_activation_min, quantized_activation_max]

The same template as the int8 kernel (kernels/tflm/elementwise_mul.py, its loop read off gcc
12.2 -O2 code); only the element loads and the store are halfwords (LDRSH / STRH).  Not
calibrated: no measurement of the int16 reference kernel.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, bx, cmp, ldr_sp, ldrd_sp, ldrsh, mov, mul, pop_pc,
                            push, str_sp, strh, sub)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.elementwise_mul import _flat_size

NAME = "tflite::reference_integer_ops::Mul<short>"
NAME_ELEMENTWISE = "tflite::reference_integer_ops::MulElementwise<short, short>"


@kernel
def mul_s16(m, input1_offset, input2_offset, output_multiplier, output_shift, output_offset,
            activation_min, activation_max, input1_data, input2_data, size, output_data):
    push(m, 4)
    mov(m, 0)
    sub(m, 0, 8)
    _flat_size(m)                                # MatchingElementsSize(input1, input2, output)
    _flat_size(m)
    _flat_size(m)
    cmp(m, size, size)
    bcc(m, False)
    cmp(m, size, size)
    bcc(m, False)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    bl(m)
    # --- MulElementwise -----------------------------------------------------------------
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size <= 0:
        bx(m)
    else:
        push(m, 8)
        sub(m, input2_data, 2)
        ldr_sp(m)
        sub(m, input1_data, 2)
        mov(m, 0)
        add(m, output_data, -2)
        add(m, input1_data - 2, 2 * size)
        i = 0
        while True:                              # for (int i = 0; i < size; ++i)
            x = ldrsh(m, input1_data + 2 * i)    # ldrsh r3, [r6, #2]!
            ldr_sp(m)                            # params.input1_offset
            ldr_sp(m)                            # params.input2_offset
            y = ldrsh(m, input2_data + 2 * i)
            ldr_sp(m)                            # params.output_offset
            input1_val = add(m, x, input1_offset)
            input2_val = add(m, y, input2_offset)
            product = mul(m, input1_val, input2_val)
            ldrd_sp(m)                           # output_multiplier, output_shift
            bl(m)
            acc = MultiplyByQuantizedMultiplier(m, product, output_multiplier, output_shift)
            ldrd_sp(m)                           # quantized_activation_min, _max
            acc = add(m, output_offset, acc)
            acc = max_lt(m, acc, activation_min)
            acc = min_ge(m, acc, activation_max)
            i += 1
            cmp(m, size, i)
            strh(m, output_data + 2 * (i - 1), acc)  # strh r4, [r9, #2]!
            bcc(m, i != size)
            if i == size:
                break
        pop_pc(m, 8)
    add(m, 0, 8)
    pop_pc(m, 4)


def run_reference(m, case, addr, tracer):
    run(mul_s16, m, case["input_1_offset"], case["input_2_offset"], case["out_mult"],
        case["out_shift"], case["out_offset"], case["out_activation_min"],
        case["out_activation_max"], addr["input"], addr["input2"], case["block_size"],
        addr["output"], tracer=tracer)
    return [NAME, NAME_ELEMENTWISE, MBQM]
