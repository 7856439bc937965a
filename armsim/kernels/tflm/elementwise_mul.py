"""tflite::reference_integer_ops::Mul<int8_t> (kernels/internal/reference/integer_ops/mul.h,
no broadcast) as arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG compiles it: the
MatchingElementsSize loops over the three shapes (LDR, CMP, MUL, BNE per dim), then a tail
call of MulElementwise, whose loop calls tflite::MultiplyByQuantizedMultiplier per element:

    input1_val = input1_offset + input1_data[i]; input2_val = input2_offset + input2_data[i]
    unclamped = output_offset + MultiplyByQuantizedMultiplier(input1_val * input2_val,
                                                              output_multiplier, output_shift)
    clamp to [quantized_activation_min, quantized_activation_max]

`element_bytes` 2 is the int16 instance Mul<int16_t> (TFLM's int16 MUL): the same template
with halfword loads and stores (LDRSH / STRH); not calibrated, no measurement of it exists.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, bx, cmp, ldr_sp, ldrd_sp, ldrsb, ldrsh, mov, mul,
                            pop_pc, push, str_sp, strb, strh, sub)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

C_TYPE = {1: "signed char", 2: "short"}
SHAPE_DIMS = 4


@kernel(inline=True)
def _flat_size(m):
    """One shape's flat size: LDR, CMP, MUL, BNE per dim after the setup."""
    ldr_sp(m)
    cmp(m, SHAPE_DIMS, 0)
    bcc(m, False)
    add(m, 0, 0)
    size = mov(m, 1)
    for d in range(SHAPE_DIMS):
        ldr_sp(m)
        cmp(m, d, SHAPE_DIMS - 1)
        size = mul(m, size, 1)
        bcc(m, d != SHAPE_DIMS - 1)
    return size


@kernel(inline=True)
def _load(m, address, element_bytes):
    """An input element: LDRSB, or LDRSH for the int16 instance."""
    if element_bytes == 1:
        return ldrsb(m, address)
    return ldrsh(m, address)


@kernel(inline=True)
def mul_func(m, x, y, input1_offset, input2_offset, output_multiplier, output_shift,
             output_offset, activation_min, activation_max):
    """One element of MulElementwise after its loads (LDRSB x, LDR of both offsets, LDRSB y,
    LDR output_offset): the reference Mul's loop and the broadcast loop
    (kernels/tflm/broadcast_binary.py, BroadcastMul6DSlow's lambda) run the same code."""
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
    return acc


@kernel
def Mul(m, input1_offset, input2_offset, output_multiplier, output_shift, output_offset,
        activation_min, activation_max, input1_data, input2_data, size, output_data,
        element_bytes):
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
        sub(m, input2_data, element_bytes)
        ldr_sp(m)
        sub(m, input1_data, element_bytes)
        mov(m, 0)
        add(m, output_data, -element_bytes)
        add(m, input1_data - element_bytes, element_bytes * size)
        i = 0
        while True:                              # for (int i = 0; i < size; ++i)
            x = _load(m, input1_data + element_bytes * i, element_bytes)  # ldrsb r3, [r6, #1]!
            ldr_sp(m)                            # params.input1_offset
            ldr_sp(m)                            # params.input2_offset
            y = _load(m, input2_data + element_bytes * i, element_bytes)
            ldr_sp(m)                            # params.output_offset
            acc = mul_func(m, x, y, input1_offset, input2_offset, output_multiplier,
                           output_shift, output_offset, activation_min, activation_max)
            i += 1
            cmp(m, size, i)
            if element_bytes == 1:
                strb(m, output_data + i - 1, acc)    # strb r4, [r9, #1]!
            else:
                strh(m, output_data + 2 * (i - 1), acc)  # strh r4, [r9, #2]!
            bcc(m, i != size)
            if i == size:
                break
        pop_pc(m, 8)
    add(m, 0, 8)
    pop_pc(m, 4)


def run_reference(m, case, addr, tracer, element_bytes=1):
    """Mul<int8_t>, or with `element_bytes` 2 Mul<int16_t>."""
    run(Mul, m, case["input_1_offset"], case["input_2_offset"], case["out_mult"],
        case["out_shift"], case["out_offset"], case["out_activation_min"],
        case["out_activation_max"], addr["input"], addr["input2"], case["block_size"],
        addr["output"], element_bytes, tracer=tracer)
    t = C_TYPE[element_bytes]
    return [f"tflite::reference_integer_ops::Mul<{t}>",
            f"tflite::reference_integer_ops::MulElementwise<{t}, {t}>", MBQM]
