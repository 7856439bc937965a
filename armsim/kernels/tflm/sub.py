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
from armsim.cpu.ops import (add, b, bcc, cmp, ldr_sp, ldrd_sp, ldrsb, ldrsh, mov, mvn, pop_pc,
                            push, strb, strh, sub)
from armsim.kernels.tflm import broadcast_binary
from armsim.kernels.tflm.elementwise_add import _matching_size, add_func

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
            raw_output = add_func(m, x, y, input1_offset, input2_offset, left_shift,
                                  input1_multiplier, input1_shift, input2_multiplier,
                                  input2_shift, output_multiplier, output_shift,
                                  output_offset, activation_min, activation_max, True)
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
    """Sub<int8_t>, or for a broadcast (case["input1_shape"] set: operators/sub.py)
    BroadcastQuantSubSlow (kernels/tflm/broadcast_binary.py)."""
    if "input1_shape" in case:
        return broadcast_binary.run_reference(m, case, addr, tracer)
    a, b_ = addr["inputs"]
    run(Sub, m, case["input_1_offset"], case["input_2_offset"], case["left_shift"],
        case["input_1_mult"], case["input_1_shift"], case["input_2_mult"],
        case["input_2_shift"], case["out_mult"], case["out_shift"], case["out_offset"],
        case["out_activation_min"], case["out_activation_max"], a, b_, case["size"],
        addr["output"], case["elem"], tracer=tracer)
    return [f"tflite::reference_ops::Sub<int{8 * case['elem']}_t> (SubElementwise)"]
