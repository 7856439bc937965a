"""TFLite Micro's int8 and int16 SLICE (slice.cc SliceEval -> reference_ops::Slice<T>,
kernels/internal/reference/slice.h), counted.

    const RuntimeShape ext_shape = RuntimeShape::ExtendedShape(5, input_shape);
    for i < 5: start[i] = begin[i]; stop[i] = size[i] == -1 ? ext_shape.Dims(i)
                                                             : start[i] + size[i];
    for i0 in [start[0], stop[0]) ... for i4 in [start[4], stop[4]):
        *output_ptr++ = input_data[Offset(ext_shape, i0, i1, i2, i3, i4)];

SliceEval front-pads begin/size to 5 dims (begin 0, size 1).  The instruction sequence
follows arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG's code for the template
(compiled locally): the innermost body recomputes Offset with four MLAs from the dims
(LDR x4, MLA x4, ADD, LDRSB, STRB with post-increment, CMP, BNE: 13 per element); the outer
levels' bookkeeping and spills are modelled on the same listing.  ExtendedShape and
SliceEval's front-padding loops are estimates (their code was not compiled).  int16
(`elem` 2) is the int8 port's structure with halfword accesses (LDRSH, STRH) and 2-byte
steps.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cmp, it, ldr_sp, ldrsb, ldrsb_sp, ldrsh, mla, mov,
                            pop_pc, push, rsb, str_sp, strb, strh, sub)


@kernel(inline=True)
def _level_enter(m, lo, hi, spills):
    """One loop level's entry test (CMP, BGE) and the loads/moves gcc puts before it."""
    for _ in range(spills):
        ldr_sp(m)
    cmp(m, lo, hi)
    bcc(m, lo >= hi)


@kernel(inline=True)
def _level_next(m, i, hi, spills):
    """A level's increment, compare and branch back, after its spill reloads."""
    for _ in range(spills):
        ldr_sp(m)
    add(m, i, 1)
    cmp(m, i + 1, hi)
    bcc(m, i + 1 < hi)


@kernel
def slice_impl(m, inp, out, rank, d1, d2, d3, d4, s0, s1, s2, s3, s4, e0, e1, e2, e3, e4,
               size_minus_one, elem):
    # SliceEval: op_params.begin/size defaults, then GetBeginAndSizeVectors<int32_t>
    for _ in range(5):
        mov(m, 0)
        str_sp(m)
        str_sp(m)
    for _ in range(rank):
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        str_sp(m)
        cmp(m, 0, 0)
        bcc(m, True)
    bl(m)                                     # reference_ops::Slice<int8_t>
    push(m, 9)
    sub(m, 0, 108)                            # sub sp, #108
    add(m, 0, 76)
    mov(m, 0)
    ldr_sp(m)                                 # output_data (stacked argument)
    bl(m)                                     # RuntimeShape::ExtendedShape(5, input_shape)
    push(m, 3)
    for d in range(5):                        # pad with 1s, copy the input's dims
        cmp(m, d, 5 - rank)
        ldr_sp(m)
        str_sp(m)
        bcc(m, d + 1 < 5)
    pop_pc(m, 3)
    for _ in range(2):
        ldrsb_sp(m)                           # begin_count, size_count (int8_t fields)
    add(m, 0, 0)
    add(m, 0, 0)
    ldr_sp(m)                                 # ldrd lr, r8, [sp, #76]: ext_shape size, dims
    ldr_sp(m)
    sub(m, 0, 16)
    add(m, 0, 8)
    add(m, 0, 56)
    add(m, 0, 36)
    mov(m, 0)
    b(m)
    for i in range(5):                        # start[i], stop[i]
        rsb(m, i, 5)                          # padded_i = 5 - i
        cmp(m, 5, 5 - i)                      # begin_count < padded_i ?
        it(m, 1)                              # ITE: one of LDRGE / MOVLT fails
        ldr_sp(m)                             # start[i] = begin[...]
        cmp(m, 5, 5 - i)                      # size_count < padded_i ?
        str_sp(m)
        bcc(m, True)
        minus_one = (size_minus_one >> i) & 1
        ldr_sp(m)                             # size[...]
        cmp(m, minus_one, 1)                  # == -1 ?
        bcc(m, minus_one == 1)
        if minus_one:                         # stop = ext_shape.Dims(i)
            add(m, 0, 76)
            add(m, 0, i)
            cmp(m, rank, 6)
            it(m, 1)                          # ITE: LDRGT / LDRLE
            ldr_sp(m)
            str_sp(m)
            add(m, i, 1)
            cmp(m, i + 1, 5)
            bcc(m, i + 1 < 5)
        else:                                 # stop = start + size
            add(m, i, 1)
            add(m, 0, 0)
            cmp(m, i + 1, 5)
            str_sp(m)
            bcc(m, i + 1 == 5)
    ldr_sp(m)
    ldr_sp(m)
    cmp(m, s0, e0)
    bcc(m, s0 >= e0)
    if s0 < e0:
        for _ in range(13):                   # the outer loops' registers and spills
            ldr_sp(m)
        cmp(m, rank, 6)
        it(m, 1)
        mov(m, 0)
        sub(m, 0, 0)
    for i0 in range(s0, e0):
        _level_enter(m, s1, e1, 1)
        for i1 in range(s1, e1):
            mov(m, i1)
            _level_enter(m, s2, e2, 1)
            if s2 < e2:
                str_sp(m)
                str_sp(m)
            for i2 in range(s2, e2):
                _level_enter(m, s3, e3, 0)
                if s3 < e3:
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    mov(m, 0)
                for i3 in range(s3, e3):
                    _level_enter(m, s4, e4, 0)
                    if s4 < e4:
                        mov(m, out)
                        sub(m, s4, out)
                        add(m, out, e4 - s4)
                        str_sp(m)
                        mov(m, 0)
                        str_sp(m)
                    base = (((i0 * d1 + i1) * d2 + i2) * d3 + i3) * d4
                    for i4 in range(s4, e4):
                        ldr_sp(m)                             # ext_shape dims
                        ldr_sp(m)
                        ldr_sp(m)
                        o = mla(m, i0, d1, i1)                # Offset(ext_shape, i0..i4)
                        o = mla(m, o, d2, i2)
                        ldr_sp(m)
                        o = mla(m, o, d3, i3)
                        add(m, out, inp)
                        mla(m, o, d4, i4)
                        if elem == 1:
                            v = ldrsb(m, inp + base + i4)     # input_data[offset]
                            strb(m, out, v)                   # *output_ptr_++ = ...
                        else:
                            strh(m, out, ldrsh(m, inp + 2 * (base + i4)))
                        out += elem
                        cmp(m, i4 + 1, e4)
                        bcc(m, i4 + 1 < e4)
                    if s4 < e4:
                        ldr_sp(m)
                        ldr_sp(m)
                        mov(m, 0)
                    add(m, i3, 1)
                    cmp(m, i3 + 1, e3)
                    bcc(m, i3 + 1 < e3)
                if s3 < e3:
                    mov(m, 0)
                    ldr_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                _level_next(m, i2, e2, 1)
            if s2 < e2:
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
            _level_next(m, i1, e1, 1)
        _level_next(m, i0, e0, 0)
    add(m, 0, 108)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    shape = case["ext_shape"]
    start, stop = case["start"], case["stop"]
    mask = 0
    for i, v in enumerate(case["size_minus_one"]):
        mask |= int(v) << i
    run(slice_impl, m, addr["input"], addr["output"], case["rank"], *shape[1:], *start, *stop,
        mask, case["elem"], tracer=tracer)
    return [f"reference_ops::Slice<int{8 * case['elem']}_t>"]
