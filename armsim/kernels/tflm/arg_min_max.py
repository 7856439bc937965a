"""TFLite Micro's ARG_MAX / ARG_MIN for int8 input, int32 axis and output
(arg_min_max.cc -> reference_ops::ArgMinMax with GreaterFn / LessFn), counted.

    for outer, inner: best = in[outer * axis_size * inner_size + inner]; index = 0
        for i in 1 .. axis_size - 1: v = in[(outer * axis_size + i) * inner_size + inner]
            if (cmp(v, best)) { best = v; index = i; }
        out[outer * inner_size + inner] = index

The sequence follows arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4's code for the template
(compiled locally, GreaterFn; LessFn differs only in the condition): per candidate LDRSB,
CMP, two one-instruction IT blocks (MOVGT index, MOVGT value), ADD, CMP, ADD, BNE; per
output a STR with pre-increment.  The axis read and the dim products before the loops are
estimates.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr_sp, ldrd_sp, ldrsb, mov, mul, pop_pc,
                            push, str_, str_sp, strd_sp, sub)


@kernel
def arg_min_max_s8(m, inp, out, is_max, outer, axis_size, inner, rank, axis):
    bl(m)
    push(m, 9)
    sub(m, 0, 28)
    ldr_sp(m)                                  # axis = input2_data[0]
    cmp(m, axis, 0)
    bcc(m, True)
    for d in range(rank):                      # outer_size, inner_size: the dims' products
        ldr_sp(m)
        mul(m, d, d)
        cmp(m, d + 1, rank)
        bcc(m, d + 1 < rank)
    cmp(m, outer, 0)
    bcc(m, outer <= 0)
    if outer > 0:
        for _ in range(16):                    # the loop registers (listing 0xc..0x2e)
            mov(m, 0)
    for o in range(outer):
        cmp(m, inner, 0)
        bcc(m, inner <= 0)
        if inner > 0:
            ldr_sp(m)
            str_sp(m)
            strd_sp(m)
            add(m, 0, 0)
            add(m, 0, 0)
            mov(m, 0)
            add(m, 0, 0)
        for k in range(inner):
            cmp(m, axis_size, 1)
            best = ldrsb(m, inp + o * axis_size * inner + k)
            bcc(m, axis_size <= 1)
            index = 0
            if axis_size > 1:
                add(m, 0, k)
                mov(m, 1)
                index = mov(m, 0)
            else:
                add(m, k, 1)
                index = mov(m, 0)
            for i in range(1, axis_size):
                v = ldrsb(m, inp + (o * axis_size + i) * inner + k)
                cmp(m, v, best)
                better = v > best if is_max else v < best
                it(m, not better)
                if better:
                    index = mov(m, i)
                add(m, i, 1)
                it(m, not better)
                if better:
                    best = mov(m, v)
                cmp(m, axis_size, i + 1)
                add(m, 0, inner)
                bcc(m, i + 1 < axis_size)
            if axis_size > 1:
                add(m, k, 1)
            cmp(m, inner, k + 1)
            str_(m, out + 4 * (o * inner + k), index)
            bcc(m, k + 1 < inner)
        if inner > 0:
            ldrd_sp(m)
            ldr_sp(m)
        ldr_sp(m)
        add(m, o, 1)
        cmp(m, outer, o + 1)
        add(m, 0, inner)
        add(m, 0, 0)
        bcc(m, o + 1 < outer)
    add(m, 0, 28)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    run(arg_min_max_s8, m, addr["input"], addr["output"], case["is_max"], case["outer"],
        case["axis_size"], case["inner"], case["rank"], case["axis"], tracer=tracer)
    compare = "GreaterFn" if case["is_max"] else "LessFn"
    return [f"reference_ops::ArgMinMax<int8_t, int32_t, int32_t>({compare})"]
