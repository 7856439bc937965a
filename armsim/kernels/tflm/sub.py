"""tflite::reference_ops::Sub for int8 and int16 without broadcast (kernels/internal/
reference/sub.h SubElementwise), counted:

    input1_val = input1_offset + x;  input2_val = input2_offset + y
    scaled_inputN_val = MultiplyByQuantizedMultiplierSmallerThanOneExp(
                            inputN_val * (1 << left_shift), inputN_multiplier, inputN_shift)
    raw_output = MultiplyByQuantizedMultiplierSmallerThanOneExp(
                     scaled_input1_val - scaled_input2_val, output_multiplier, output_shift)
                 + output_offset, clamped to the activation range

It is ADD's element loop (reference_integer_ops::Add, whose instruction sequence
armsim.kernels.tflm.elementwise_add reads off gcc -O2's listing) with SUB for the ADD of the
scaled inputs; taking the same shape for SubElementwise is an estimate (not compiled).  The
inlined MultiplyByQuantizedMultiplierSmallerThanOneExp and MatchingElementsSize are that
port's.  int16 (`elem` 2, left_shift 15) is the same loop with LDRSH / STRH.  Not
calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, cmp, it, ldr_sp, ldrd_sp, ldrsb, ldrsh, lsl, mov, mvn,
                            pop_pc, push, strb, strh, sub)
from armsim.kernels.minmax import max_lt
from armsim.kernels.tflm.elementwise_add import _matching_size, _smaller_than_one_exp

INT32_MIN = -(2**31)


@kernel
def Sub(m, input1_offset, input2_offset, left_shift, input1_multiplier, input1_shift,
        input2_multiplier, input2_shift, output_multiplier, output_shift, output_offset,
        activation_min, activation_max, input1_data, input2_data, size, output_data, elem):
    push(m, 8)
    _matching_size(m)                                    # MatchingElementsSize(...)
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
            if elem == 1:
                x = ldrsb(m, input1_data + i)
            else:
                x = ldrsh(m, input1_data + 2 * i)
            ldr_sp(m)                                    # left_shift
            if elem == 1:
                y = ldrsb(m, input2_data + i)
            else:
                y = ldrsh(m, input2_data + 2 * i)
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
            raw_sub = sub(m, scaled_input1_val, scaled_input2_val)
            cmp(m, output_multiplier, raw_sub)
            bcc(m, output_multiplier == raw_sub)
            raw_output = _smaller_than_one_exp(m, raw_sub, output_multiplier, output_shift, True)
            ldr_sp(m)                                    # output_offset
            raw_output = add(m, raw_output, output_offset)
            ldr_sp(m)
            ldr_sp(m)
            raw_output = max_lt(m, raw_output, activation_min)  # std::max
            cmp(m, activation_max, raw_output)           # std::min
            it(m, activation_max < raw_output)           # as in the ADD port
            if activation_max >= raw_output:
                raw_output = mov(m, raw_output)
            else:
                raw_output = activation_max
            i += 1
            cmp(m, i, size)
            if elem == 1:
                strb(m, output_data + i - 1, raw_output)    # strb r3, [lr, #1]!
            else:
                strh(m, output_data + 2 * (i - 1), raw_output)
            bcc(m, i == size)
            if i == size:
                break
    pop_pc(m, 8)


def run_reference(m, case, addr, tracer=None):
    a, b_ = addr["inputs"]
    run(Sub, m, case["input_1_offset"], case["input_2_offset"], case["left_shift"],
        case["input_1_mult"], case["input_1_shift"], case["input_2_mult"],
        case["input_2_shift"], case["out_mult"], case["out_shift"], case["out_offset"],
        case["out_activation_min"], case["out_activation_max"], a, b_, case["size"],
        addr["output"], case["elem"], tracer=tracer)
    return [f"tflite::reference_ops::Sub<int{8 * case['elem']}_t> (SubElementwise)"]
