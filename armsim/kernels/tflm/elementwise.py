"""TFLite Micro's int8 and int16 ABS (elementwise.cc AbsEval -> EvalImplQuantized<T> with
AbsEvalQuantized), counted.

    value = std::abs(in - input_offset);
    out = needs_rescale ? MultiplyByQuantizedMultiplier(value, multiplier, shift) : value;
    out = clamp(out + output_offset, T's min, T's max);

The loop follows arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4's code for it (compiled
locally; AbsEvalQuantized inlined, the op data reloaded per element, |x| as EOR/SUB with
ASR #31, the clamps as CMP/IT/MOV, SXTB before the store); ElementCount's dim loop is
modelled on RuntimeShape::FlatSize's code.  int16 (`elem` 2: zero points 0) is the int8
structure with LDRSH / SXTH / STRH and int16's clamp bounds.  Not calibrated: no
measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, bx, cbz, cmp, eor, it, ldr_sp, ldrd_sp, ldrsb, ldrsh,
                            mov, mul, mvn, pop_pc, push, strb, strh, sub, sxtb, sxth)
from armsim.kernels.tflm.common import MultiplyByQuantizedMultiplier


@kernel
def abs_quantized(m, inp, out, rank, size, input_offset, output_offset, needs_rescale, mult,
                  shift, elem):
    k_max = 127 if elem == 1 else 32767
    ldr_sp(m)                                  # ElementCount(*input->dims)
    n = mov(m, 1)
    for d in range(rank):
        ldr_sp(m)
        n = mul(m, n, 1)
        cmp(m, d + 1, rank)
        bcc(m, d + 1 < rank)
    cbz(m, size == 0)                          # for (i < num_elements)
    if size == 0:
        mov(m, 0)
        bx(m)
        return 0
    add(m, size, inp)
    push(m, 6)                                 # stmdb sp!, {r4-r8, lr}
    mov(m, 0)
    sub(m, inp, 1)
    sub(m, out, 1)
    sub(m, size, 1)
    mvn(m, k_max)                              # kMin
    b(m)
    for i in range(size):
        if elem == 1:
            v = ldrsb(m, inp + i)              # ldrsb.w r3, [r5, #1]!
        else:
            v = ldrsh(m, inp + 2 * i)
        ldr_sp(m)                              # op_data->input_offset
        ldr_sp(m)                              # op_data->needs_rescale (LDRB)
        v = sub(m, v, input_offset)
        a = eor(m, v, v >> 31)                 # std::abs: eor + sub, asr #31
        a = sub(m, a, v >> 31)
        cmp(m, needs_rescale, 0)
        bcc(m, needs_rescale == 0)
        if needs_rescale:
            ldrd_sp(m)                         # multiplier, shift
            bl(m)
            a = MultiplyByQuantizedMultiplier(m, a, mult, shift)
            b(m)
        ldr_sp(m)                              # op_data->output_offset
        r = add(m, a, output_offset)
        cmp(m, r, -k_max - 1)
        it(m, r >= -k_max - 1)
        if r < -k_max - 1:
            r = mov(m, -k_max - 1)
        cmp(m, r, k_max)
        it(m, r < k_max)
        if r >= k_max:
            r = mov(m, k_max)
        r = sxtb(m, r, 0) if elem == 1 else sxth(m, r, 0)
        cmp(m, i + 1, size)
        if elem == 1:
            strb(m, out + i, r)                # strb.w r3, [r6, #1]!
        else:
            strh(m, out + 2 * i, r)
        bcc(m, i + 1 == size)                  # beq: done
    mov(m, 0)
    pop_pc(m, 6)
    return 0


def run_abs(m, case, addr, tracer=None):
    elem = case["elem"]
    run(abs_quantized, m, addr["input"], addr["output"], case["rank"], case["size"],
        case["input_offset"], case["output_offset"], case["needs_rescale"],
        case["multiplier"], case["shift"], elem, tracer=tracer)
    chain = [f"EvalImplQuantized<int{8 * elem}_t>(AbsEvalQuantized)"]
    return chain + (["MultiplyByQuantizedMultiplier"] if case["needs_rescale"] else [])
