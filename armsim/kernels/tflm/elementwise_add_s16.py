"""tflite::reference_ops::Add for int16 with pot_scale false (kernels/internal/reference/add.h:
AddGeneralParamScale -> AddElementwise<int16_t>, no broadcast), the kernel TFLM's add.cc runs
for an int16 ADD (left_shift 15).  AddElementwise is the same template as the int8 kernel's
(reference_integer_ops::Add, kernels/tflm/elementwise_add.py): the three inlined
MultiplyByQuantizedMultiplierSmallerThanOneExp, the parameters reloaded from the
ArithmeticParams struct every element, the clamp; only the element loads and the store are
halfwords (LDRSH / STRH).  Not calibrated: no measurement of the int16 reference kernel; the
instruction sequence is the int8 kernel's, whose loop was read off gcc 12.2 -O2 code.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, cmp, ldr_sp, ldrd_sp, ldrsh, mov, mvn, pop_pc, push,
                            strh, sub)
from armsim.kernels.tflm.elementwise_add import INT32_MIN, _matching_size, add_func

NAME = "tflite::reference_ops::AddElementwise<short>"


@kernel
def add_elementwise_s16(m, input1_offset, input2_offset, left_shift, input1_multiplier,
                        input1_shift, input2_multiplier, input2_shift, output_multiplier,
                        output_shift, output_offset, activation_min, activation_max,
                        input1_data, input2_data, size, output_data):
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
        sub(m, input2_data, 2)
        ldr_sp(m)
        sub(m, input1_data, 2)
        add(m, input1_data, 2 * size)
        add(m, output_data, -2)
        ldr_sp(m)                                        # ldr r5, =0xC0000001 (literal pool)
        mvn(m, INT32_MIN)
        mov(m, 1)
        b(m)
        i = 0
        while True:                                      # for (int i = 0; i < size; ++i)
            ldrd_sp(m)                                   # input1_offset, input2_offset
            x = ldrsh(m, input1_data + 2 * i)
            ldr_sp(m)                                    # left_shift
            y = ldrsh(m, input2_data + 2 * i)
            raw_output = add_func(m, x, y, input1_offset, input2_offset, left_shift,
                                  input1_multiplier, input1_shift, input2_multiplier,
                                  input2_shift, output_multiplier, output_shift,
                                  output_offset, activation_min, activation_max)
            i += 1
            cmp(m, i, size)
            strh(m, output_data + 2 * (i - 1), raw_output)  # strh r3, [lr, #2]!
            bcc(m, i == size)
            if i == size:
                break
    pop_pc(m, 8)


def run_reference(m, case, addr, tracer):
    run(add_elementwise_s16, m, case["input_1_offset"], case["input_2_offset"],
        case["left_shift"], case["input_1_mult"], case["input_1_shift"], case["input_2_mult"],
        case["input_2_shift"], case["out_mult"], case["out_shift"], case["out_offset"],
        case["out_activation_min"], case["out_activation_max"], addr["input"],
        addr["input2"], case["block_size"], addr["output"], tracer=tracer)
    return [NAME]
