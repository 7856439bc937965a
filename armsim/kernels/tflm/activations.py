"""TFLite Micro's int8 and int16 RELU, RELU6 and LEAKY_RELU reference kernels, counted
(int16, `elem` 2: the same templates, the int8 structure with LDRSH / STRH and int16's
clamp bounds).

* RELU (micro/kernels/activations.h ReluQuantized<int8_t>): every element requantized,
  then clamped to [max(-128, output zero point), 127]:

      clamped = output_offset + MultiplyByQuantizedMultiplier(val - input_offset,
                                                              output_multiplier, output_shift);
      clamped = std::min(act_max, std::max(act_min, clamped));

* RELU6 (Relu6Quantized<int8_t>): a clamp to [zero, six] in the input's quantization, no
  requantization: ``val > upper ? upper : val < lower ? lower : val``.
* LEAKY_RELU (reference/leaky_relu.h QuantizeLeakyRelu<int8_t>): the identity multiplier for
  ``input - input_offset >= 0``, the alpha multiplier (its sign taken out) otherwise.

MultiplyByQuantizedMultiplier is TFLM's out-of-line function (armsim.kernels.tflm.common).
Not calibrated: no measurement of these kernels exists.  The instruction sequences follow
the disassembly of the reference C (the header templates for int8, RuntimeShape's
FlatSize inlined) compiled with arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -mthumb -DNDEBUG;
the Eval's BL into the kernel is counted here (Eval glue: the operator's EvalGlue).  Loads of
the params structs are counted as stack-slot loads (LDR/LDRD, no data region).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cmp, eor, it, ldr_sp, ldrd_sp, ldrsb, ldrsh, mov,
                            mul, mvn, pop_pc, push, rsb, strb, strd_sp, strh, sub)
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier


@kernel(inline=True)
def flat_size(m, rank, moves):
    """RuntimeShape::FlatSize inlined (MatchingFlatSize with NDEBUG), as gcc lays it out
    after the prologue: the dims pointer (inline for rank <= 6), then LDR, ADDS, CMP, MUL,
    BGT per dim; `moves` argument copies gcc schedules between its CMP and branch."""
    ldr_sp(m)                                  # ldr r4, [r1]  (size_)
    cmp(m, rank, 6)                            # size_ > kMaxSmallSize ?
    for _ in range(moves):
        mov(m, 0)
    bcc(m, rank <= 6)                          # ble: dims_ held inline
    if rank <= 6:
        cmp(m, rank, 0)
        bcc(m, rank <= 0)
        if rank > 0:
            add(m, 0, 4)                       # adds r2, r1, #4
            b(m)
    else:
        ldr_sp(m)                              # ldr r2, [r1, #4]  (dims_pointer_)
    if rank > 0:
        sub(m, 0, 4)
        size = mov(m, 1)
        mov(m, 0)
        for d in range(rank):
            ldr_sp(m)                          # ldr.w r1, [r2, #4]!
            add(m, d, 1)
            cmp(m, rank, d + 1)
            size = mul(m, size, 1)
            bcc(m, d + 1 < rank)               # bgt
    else:
        mov(m, 1)                              # movs r6, #1
        b(m)
    return 0


@kernel
def relu_quantized(m, inp, out, size, rank, input_offset, output_offset, mult, shift,
                   act_min, act_max, elem):
    bl(m)
    push(m, 8)                                 # stmdb sp!, {r4-r10, lr}
    flat_size(m, rank, 2)
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        ldr_sp(m)                              # output_data (stacked argument)
        add(m, inp, -1)
        add(m, out, -1)
    for i in range(size):
        ldr_sp(m)                              # ldr r3, [r5]      input_offset
        ldr_sp(m)                              # ldr r4, [r5, #4]  output_offset
        mov(m, i)
        if elem == 1:
            v = ldrsb(m, inp + i)              # ldrsb.w r0, [r7, #1]!
        else:
            v = ldrsh(m, inp + 2 * i)
        ldrd_sp(m)                             # ldrd r1, r2, [r5, #8]  multiplier, shift
        v = sub(m, v, input_offset)            # val - input_offset
        bl(m)
        v = MultiplyByQuantizedMultiplier(m, v, mult, shift)
        ldrd_sp(m)                             # ldrd r2, r3, [r5, #16]  activation min/max
        v = add(m, v, output_offset)           # output_offset + ...
        cmp(m, v, act_min)                     # std::max(act_min, clamped)
        it(m, v >= act_min)
        if v < act_min:
            v = mov(m, act_min)
        add(m, i, 2)                           # the index, kept as a pointer difference
        cmp(m, v, act_max)                     # std::min(act_max, clamped)
        sub(m, i, 0)
        it(m, v < act_max)
        if v >= act_max:
            v = mov(m, act_max)
        cmp(m, i + 1, size)
        if elem == 1:
            strb(m, out + i, v)                # strb.w r4, [r9, #1]!
        else:
            strh(m, out + 2 * i, v)
        bcc(m, i + 1 < size)
    pop_pc(m, 8)
    return 0


@kernel
def relu6_quantized(m, inp, out, size, rank, lower, upper, elem):
    bl(m)
    push(m, 4)                                 # push {r4, r5, r6, lr}
    flat_size(m, rank, 0)
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        ldr_sp(m)                              # output_data (stacked argument)
        add(m, inp, -1)
        sub(m, out, 1)
    for i in range(size):
        mov(m, i)
        if elem == 1:
            v = ldrsb(m, inp + i)              # ldrsb.w r5, [lr, #1]!
        else:
            v = ldrsh(m, inp + 2 * i)
        cmp(m, v, upper)                       # val > upper ?
        r = mov(m, upper)
        bcc(m, v > upper)
        if v <= upper:
            cmp(m, v, lower)                   # val < lower ? lower : val
            r = mov(m, v)
            it(m, v >= lower)
            if v < lower:
                r = mov(m, lower)
        add(m, i, 2)
        sub(m, i, 0)
        cmp(m, i + 1, size)
        if elem == 1:
            strb(m, out + i, r)                # strb.w r4, [r6, #1]!
        else:
            strh(m, out + 2 * i, r)
        bcc(m, i + 1 < size)
    pop_pc(m, 4)
    return 0


@kernel
def leaky_relu(m, inp, out, size, rank, input_offset, output_offset, mult_alpha,
               shift_alpha, mult_identity, shift_identity, elem):
    q_max = 127 if elem == 1 else 32767
    bl(m)
    push(m, 9)                                 # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 12)                              # sub sp, #12
    flat_size(m, rank, 2)
    ldr_sp(m)                                  # output_multiplier_alpha
    cmp(m, size, 0)
    negative_alpha = mult_alpha < 0
    safe_alpha = eor(m, mult_alpha, mult_alpha >> 31)   # |alpha|: eor + sub, asr #31
    safe_alpha = sub(m, safe_alpha, mult_alpha >> 31)
    bcc(m, size <= 0)
    if size > 0:
        ldr_sp(m)                              # output_data (stacked argument)
        strd_sp(m)                             # safe_alpha_multiplier, alpha kept on the stack
        add(m, inp, -1)
        add(m, out, -1)
        mvn(m, q_max)                          # quantized_min
        b(m)                                   # into the loop's head
    for i in range(size):
        ldr_sp(m)                              # input_offset
        ldr_sp(m)                              # safe_alpha_multiplier
        ldr_sp(m)                              # output_offset
        mov(m, i)
        if elem == 1:
            v = ldrsb(m, inp + i)              # ldrsb.w r0, [r7, #1]!
        else:
            v = ldrsh(m, inp + 2 * i)
        v = sub(m, v, input_offset)            # subs: input_value
        bcc(m, v >= 0)                         # bpl: input_value >= 0
        if v >= 0:
            ldrd_sp(m)                         # identity multiplier, shift
            bl(m)
            r = MultiplyByQuantizedMultiplier(m, v, mult_identity, shift_identity)
        else:
            ldr_sp(m)                          # output_shift_alpha
            bl(m)
            r = MultiplyByQuantizedMultiplier(m, v, safe_alpha, shift_alpha)
            ldr_sp(m)                          # output_multiplier_alpha
            cmp(m, mult_alpha, 0)
            it(m, 0 if negative_alpha else 1)
            if negative_alpha:
                r = rsb(m, r, 0)               # neglt: -scaled_alpha_value
        r = add(m, r, output_offset)           # unclamped_output += ...
        if v < 0:
            b(m)
        cmp(m, r, q_max)                       # std::min(quantized_max, ...)
        it(m, r < q_max)
        if r >= q_max:
            r = mov(m, q_max)
        add(m, i, 2)
        cmp(m, r, -q_max - 1)                  # std::max(quantized_min, ...)
        sub(m, i, 0)
        it(m, r >= -q_max - 1)
        if r < -q_max - 1:
            r = mov(m, -q_max - 1)
        cmp(m, size, i + 1)
        if elem == 1:
            strb(m, out + i, r)                # strb.w r4, [r9, #1]!
        else:
            strh(m, out + 2 * i, r)
        bcc(m, i + 1 >= size)                  # ble: leave the loop
    add(m, 0, 12)                              # add sp, #12
    pop_pc(m, 9)
    return 0


def run_relu(m, case, addr, tracer=None):
    elem = case["elem"]
    run(relu_quantized, m, addr["input"], addr["output"], case["size"], case["rank"],
        case["input_offset"], case["output_offset"], case["multiplier"], case["shift"],
        case["activation_min"], case["activation_max"], elem, tracer=tracer)
    return [f"ReluQuantized<int{8 * elem}_t>", "MultiplyByQuantizedMultiplier"]


def run_relu6(m, case, addr, tracer=None):
    elem = case["elem"]
    run(relu6_quantized, m, addr["input"], addr["output"], case["size"], case["rank"],
        case["zero"], case["six"], elem, tracer=tracer)
    return [f"Relu6Quantized<int{8 * elem}_t>"]


def run_leaky_relu(m, case, addr, tracer=None):
    elem = case["elem"]
    run(leaky_relu, m, addr["input"], addr["output"], case["size"], case["rank"],
        case["input_offset"], case["output_offset"], case["multiplier_alpha"],
        case["shift_alpha"], case["multiplier_identity"], case["shift_identity"], elem,
        tracer=tracer)
    return [f"QuantizeLeakyRelu<int{8 * elem}_t>", "MultiplyByQuantizedMultiplier"]
